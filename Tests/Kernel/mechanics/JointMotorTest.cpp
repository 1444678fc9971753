// Joint motors, limits and torques with GenericMechanical (issue 26): a motored wheel on a
// plane that rolls without slipping (v = omega R) or slips at the Coulomb force mu N, a
// pendulum on a hinge swinging into the ground (joint and contact in one problem: drift
// and penetration, with and without projection), a hinge stop, a PD torque callable.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;
using Vec3 = Shape::Vec3;

namespace {

constexpr double kG = 9.81;

ShapeInstance inst(std::shared_ptr<const Shape> s) {
  ShapeInstance i;
  i.shape = std::move(s);
  return i;
}

SP::Interaction joint(const SP::NewtonEulerJointR& r) {
  return std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(r->rows()), r);
}

SP::NewtonEulerDS body(const SiconosVector& x, double m, double I) {
  auto b =
      std::make_shared<NewtonEulerDS>(SiconosVector{x(0), x(1), x(2), 1, 0, 0, 0}, SiconosVector(6),
                                      m, SimpleMatrix::diagonal(SiconosVector{I, I, I}));
  b->setFExt(SiconosVector{0.0, 0.0, -m * kG});
  return b;
}

/// A sphere wheel (radius R, mass 1) on the plane z = 0, hinged about y to a carrier
/// (0.5 kg) that slides vertically in a heavy chassis (10 kg) sliding along x: the wheel
/// carries 1.5 kg, the chassis its own weight. A velocity motor drives the hinge at
/// omega(t) = alpha t (torque limit 100 N m).
struct Wheel {
  static constexpr double R = 0.3, mw = 1.0, mc = 0.5, M = 10.0, alpha = 2.0;
  std::shared_ptr<Model> model;
  SP::TimeStepping sim;
  SP::ContactManager contacts;
  SP::NewtonEulerDS chassis, carrier, wheel;
  SP::Interaction motor;
  std::vector<SP::Interaction> joints;
  SP::GenericMechanical gm;

  Wheel(double mu, double T, bool projected = false, bool midpoint = false) {
    model = std::make_shared<Model>(0.0, T);
    gm = std::make_shared<GenericMechanical>();
    gm->optionsMutable().tolerance = 1e-13;
    auto td = std::make_shared<TimeDiscretisation>(0.0, 1e-3);
    if (projected)
      sim = std::make_shared<TimeSteppingDirectProjection>(
          td, std::make_shared<MoreauJeanDirectProjectionOSI>(0.5), gm);
    else {
      auto osi = std::make_shared<MoreauJeanOSI>(0.5);
      osi->setConstraintsAtMidpoint(midpoint);
      sim = std::make_shared<TimeStepping>(td, osi, gm);
    }
    sim->setNewtonTolerance(1e-12);
    contacts = std::make_shared<ContactManager>();
    contacts->setDefaultMaterial({mu, 0.0});
    sim->insertInteractionManager(contacts);
    auto nsds = model->nonSmoothDynamicalSystem();
    chassis = body(SiconosVector{0, 0, 1}, M, 1.0);
    carrier = body(SiconosVector{0, 0, R}, mc, 0.01);
    nsds->insertDynamicalSystem(chassis);
    nsds->insertDynamicalSystem(carrier);
    contacts->addBody(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    BodySpec spec;
    spec.shapes = {inst(std::make_shared<SphereShape>(R))};
    spec.mass = mw;
    spec.position = {0, 0, R};
    BodyShapes w = makeBody(spec);
    wheel = w.body();
    wheel->setFExt(SiconosVector{0.0, 0.0, -mw * kG});
    contacts->addBody(*nsds, std::move(w));
    joints.push_back(
        joint(std::make_shared<PrismaticJointR>(SiconosVector{1, 0, 0}, true, chassis)));
    nsds->link(joints.back(), chassis);
    joints.push_back(
        joint(std::make_shared<PrismaticJointR>(SiconosVector{0, 0, 1}, true, chassis, carrier)));
    nsds->link(joints.back(), chassis, carrier);
    auto hinge = std::make_shared<PivotJointR>(SiconosVector{0, 0, R}, SiconosVector{0, 1, 0}, true,
                                               carrier, wheel);
    joints.push_back(joint(hinge));
    nsds->link(joints.back(), carrier, wheel);
    motor = JointAxisR::motor(
        hinge, [](double t) { return alpha * t; }, 100.0);
    nsds->link(motor, carrier, wheel);
    model->initialize(sim);
  }
  double kinetic() const {
    return chassis->kineticEnergy() + carrier->kineticEnergy() + wheel->kineticEnergy();
  }
};

}  // namespace

class JointMotorTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(JointMotorTest);
  CPPUNIT_TEST(wheelRollsWithoutSlipping);
  CPPUNIT_TEST(wheelSlipsAtCoulombForce);
  CPPUNIT_TEST(pendulumIntoGround);
  CPPUNIT_TEST(pendulumIntoGroundProjected);
  CPPUNIT_TEST(hingeStop);
  CPPUNIT_TEST(pdTorque);
  CPPUNIT_TEST_SUITE_END();

 public:
  void wheelRollsWithoutSlipping() {
    for (int variant = 0; variant < 3; ++variant) {  // end-of-step, projection, midpoint joints
      const bool projected = variant == 1;
      Wheel w(1.0, 0.3, projected, variant == 2);
      double work = 0.0, contactWork = 0.0, maxSlip = 0.0, drift = 0.0;
      double statsMotors = 0.0, statsJoints = 0.0, statsTotal = 0.0;
      const double K0 = w.kinetic();
      while (w.sim->hasNextEvent()) {
        w.sim->computeOneStep();
        CPPUNIT_ASSERT_EQUAL(NSD_OK, w.sim->lastStatistics().status);
        work += JointAxisR::work(*w.motor);
        // the step's statistics report the same works, by kind
        const StepStatistics::Work& sw = w.sim->lastStatistics().work;
        statsMotors += sw.motors;
        statsJoints += sw.joints;
        statsTotal += sw.total();
        contactWork += w.contacts->statistics().contactWork;
        const double v = w.wheel->velocity()(0), omega = w.wheel->velocity()(4);
        maxSlip = std::max(maxSlip, std::fabs(v - omega * Wheel::R));
        for (const auto& j : w.joints) drift = std::max(drift, j->y(0).normInf());
        // the motor holds its target rate
        CPPUNIT_ASSERT_DOUBLES_EQUAL(Wheel::alpha * w.sim->nextTime(), w.motor->y(1)(0), 1e-8);
        w.sim->nextStep();
      }
      const double v = w.wheel->velocity()(0);
      // the motor torque: the friction force (m_total a) times R plus the wheel's I alpha
      const double torque = w.gm->reaction(*w.motor)(0);
      const double a = Wheel::alpha * Wheel::R, I = 0.4 * Wheel::mw * Wheel::R * Wheel::R;
      const double torqueExpected =
          (Wheel::M + Wheel::mc + Wheel::mw) * a * Wheel::R + I * Wheel::alpha;
      const double dK = w.kinetic() - K0;
      std::printf(
          "\n  wheel rolling (%s): max |v - omega R| %.3g, joint drift %.3g, motor torque %.9g "
          "(closed form %.9g), motor work %.12g, contact work %.3g, kinetic energy gained %.12g",
          projected      ? "projection"
          : variant == 2 ? "midpoint joints"
                         : "time stepping",
          maxSlip, drift, torque, torqueExpected, work, contactWork, dK);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(maxSlip), maxSlip <= 1e-8);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(Wheel::alpha * 0.3 * Wheel::R, v, 1e-8);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(v, w.chassis->velocity()(0), 1e-8);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(torqueExpected, torque, 1e-6 * torqueExpected);
      if (projected) CPPUNIT_ASSERT(drift <= 1e-8);
      // energy balance: the kinetic energy gained (the potential one is constant) is the
      // motor's work plus the contact's (0 when rolling); the joints do no work here
      CPPUNIT_ASSERT(dK > 0.0);
      CPPUNIT_ASSERT_MESSAGE(
          std::to_string(work) + " + " + std::to_string(contactWork) + " vs " + std::to_string(dK),
          std::fabs(work + contactWork - dK) <= 1e-8 * dK);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(work, statsMotors, 1e-12 * work);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(statsJoints), std::fabs(statsJoints) <= 1e-8 * dK);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(statsTotal) + " vs " + std::to_string(dK),
                             std::fabs(statsTotal - dK) <= 1e-8 * dK);
    }
  }

  void wheelSlipsAtCoulombForce() {
    const double mu = 0.05;
    Wheel w(mu, 0.2);
    const double K0 = w.kinetic();
    double work = 0.0, contactWork = 0.0;
    while (w.sim->hasNextEvent()) {
      w.sim->computeOneStep();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, w.sim->lastStatistics().status);
      work += JointAxisR::work(*w.motor);
      contactWork += w.contacts->statistics().contactWork;
      w.sim->nextStep();
    }
    // energy balance: kinetic energy gained = motor work + contact work (friction: < 0)
    const double dK = w.kinetic() - K0;
    std::printf(
        "\n  wheel slipping: motor work %.12g, contact work %.12g, kinetic energy gained %.12g ",
        work, contactWork, dK);
    CPPUNIT_ASSERT(contactWork < 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(dK, work + contactWork, 1e-8 * work);
    const ContactSet& cs = w.contacts->contacts();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), cs.size());
    const double h = 1e-3, N = cs.impulse[0] / h;
    const double T = std::hypot(cs.impulse[1], cs.impulse[2]) / h;
    CPPUNIT_ASSERT_DOUBLES_EQUAL((Wheel::mw + Wheel::mc) * kG, N, 1e-8 * N);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(mu * N, T, 1e-8 * N);
    const double slip = w.wheel->velocity()(0) - w.wheel->velocity()(4) * Wheel::R;
    CPPUNIT_ASSERT(slip < -1e-2);  // the wheel spins faster than it rolls
    // the vehicle accelerates at mu N / (total mass): v = mu N t / m_total
    const double vexp = mu * N * 0.2 / (Wheel::M + Wheel::mc + Wheel::mw);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(vexp, w.chassis->velocity()(0), 2e-3 * vexp);
  }

  void pendulumIntoGround() { pendulum(false); }
  void pendulumIntoGroundProjected() { pendulum(true); }

  void hingeStop() {
    // a rod (point mass 1 at 0.5 m) falling from horizontal about y stops at 45 degrees
    for (bool projected : {false, true}) {
      auto model = std::make_shared<Model>(0.0, 1.0);
      auto rod = body(SiconosVector{0.5, 0, 0}, 1.0, 0.001);
      auto hinge =
          std::make_shared<PivotJointR>(SiconosVector{0, 0, 0}, SiconosVector{0, 1, 0}, true, rod);
      auto stop = JointAxisR::upperLimit(hinge, M_PI / 4.0);
      auto nsds = model->nonSmoothDynamicalSystem();
      nsds->insertDynamicalSystem(rod);
      nsds->link(joint(hinge), rod);
      nsds->link(stop, rod);
      auto td = std::make_shared<TimeDiscretisation>(0.0, 1e-3);
      auto gm = std::make_shared<GenericMechanical>();
      SP::TimeStepping sim =
          projected ? std::make_shared<TimeSteppingDirectProjection>(
                          td, std::make_shared<MoreauJeanDirectProjectionOSI>(0.5), gm)
                    : std::make_shared<TimeStepping>(td, std::make_shared<MoreauJeanOSI>(0.5), gm);
      model->initialize(sim);
      const JointAxisR& axis = static_cast<const JointAxisR&>(stop->relation());
      double maxAngle = 0.0;
      int stepsOver = 0;  // steps ending past the stop by more than 1e-8
      while (sim->hasNextEvent()) {
        sim->computeOneStep();
        CPPUNIT_ASSERT_EQUAL(NSD_OK, sim->lastStatistics().status);
        maxAngle = std::max(maxAngle, axis.coordinate(rod->q()));
        stepsOver += axis.coordinate(rod->q()) > M_PI / 4.0 + 1e-8 ? 1 : 0;
        sim->nextStep();
      }
      // Moreau-Jean: the overshoot of the step that reaches the stop (the row enters the
      // problem at the next step start) stays; the projection removes it at the next step
      const double over = maxAngle - M_PI / 4.0;
      CPPUNIT_ASSERT_MESSAGE(std::to_string(over), over <= 1e-2);
      if (projected) CPPUNIT_ASSERT_EQUAL(1, stepsOver);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(M_PI / 4.0, axis.coordinate(rod->q()), projected ? 1e-8 : 1e-2);
      CPPUNIT_ASSERT(std::fabs(rod->velocity()(4)) < 1e-6);  // resting against the stop
    }
  }

  void pdTorque() {
    // hold the rod horizontal with tau = kp (0 - theta) - kd theta': equilibrium kp theta = m g L
    // cos(theta)
    const double kp = 200.0, kd = 20.0, m = 1.0, L = 0.5;
    auto model = std::make_shared<Model>(0.0, 3.0);
    auto rod = body(SiconosVector{L, 0, 0}, m, 0.001);
    auto hinge =
        std::make_shared<PivotJointR>(SiconosVector{0, 0, 0}, SiconosVector{0, 1, 0}, true, rod);
    JointAxisR::applyTorque(hinge,
                            [=](double, double th, double rate) { return -kp * th - kd * rate; });
    const JointAxisR axis(hinge);  // the angle from the initial (horizontal) position
    auto nsds = model->nonSmoothDynamicalSystem();
    nsds->insertDynamicalSystem(rod);
    nsds->link(joint(hinge), rod);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                              std::make_shared<MoreauJeanOSI>(0.5),
                                              std::make_shared<GenericMechanical>());
    sim->setNewtonTolerance(1e-10);
    model->initialize(sim);
    sim->run();
    double te = 0.0;
    for (int i = 0; i < 50; ++i) te = m * kG * L * std::cos(te) / kp;
    const double th = axis.coordinate(rod->q());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(te, th, 1e-6);
  }

 private:
  /// A ball (r = 0.1, 1 kg) on a hinge about y at (0, 0, 0.5), released with its centre at
  /// (0.5, 0, 0.5): it swings down into the plane z = 0 and comes to rest on it.
  void pendulum(bool projected) {
    const double r = 0.1, H = 0.5, L = 0.5, h = 1e-3;
    auto model = std::make_shared<Model>(0.0, 1.0);
    auto nsds = model->nonSmoothDynamicalSystem();
    auto td = std::make_shared<TimeDiscretisation>(0.0, h);
    auto gm = std::make_shared<GenericMechanical>();
    gm->optionsMutable().tolerance = 1e-12;
    SP::TimeStepping sim;
    if (projected) {
      auto tsdp = std::make_shared<TimeSteppingDirectProjection>(
          td, std::make_shared<MoreauJeanDirectProjectionOSI>(0.5), gm);
      // the contact's dh/dq (Siconos's: the contact point as a body point) has rotation
      // columns the sphere's gap has not: the projection converges linearly at the impact
      tsdp->setProjectionMaxIteration(200);
      tsdp->setConstraintTol(1e-10);
      tsdp->setConstraintTolUnilateral(1e-10);
      sim = tsdp;
    } else {
      sim = std::make_shared<TimeStepping>(td, std::make_shared<MoreauJeanOSI>(0.5), gm);
    }
    SP::NewtonEulerDS ball;
    SP::ContactManager contacts;
    SP::Interaction ground;
    if (projected) {
      // the projection works on Interactions: the ground as a user contact
      ball = body(SiconosVector{L, 0, H}, 1.0, 0.4 * 1.0 * r * r);
      nsds->insertDynamicalSystem(ball);
      ground = std::make_shared<Interaction>(
          std::make_shared<NewtonImpactFrictionNSL>(0.0, 0.0, 0.5, 3),
          std::make_shared<NewtonEuler3DR>(
              [r](const SiconosVector& q, double, NewtonEuler1DR::Geometry& g) {
                g.N = SiconosVector{0, 0, 1};
                g.Pc1 = SiconosVector{q(0), q(1), q(2) - r};
                return q(2) - r;
              }));
      nsds->link(ground, ball);
    } else {
      contacts = std::make_shared<ContactManager>();
      contacts->setDefaultMaterial({0.5, 0.0});
      sim->insertInteractionManager(contacts);
      contacts->addBody(
          makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
      BodySpec spec;
      spec.shapes = {inst(std::make_shared<SphereShape>(r))};
      spec.mass = 1.0;
      spec.position = {L, 0, H};
      BodyShapes b = makeBody(spec);
      ball = b.body();
      ball->setFExt(SiconosVector{0.0, 0.0, -kG});
      contacts->addBody(*nsds, std::move(b));
    }
    auto hinge = joint(
        std::make_shared<PivotJointR>(SiconosVector{0, 0, H}, SiconosVector{0, 1, 0}, true, ball));
    nsds->link(hinge, ball);
    model->initialize(sim);
    double drift = 0.0, penetration = 0.0, vImpact = 0.0;
    bool touched = false;
    int stepsPenetrating = 0, projections = 0;
    while (sim->hasNextEvent()) {
      sim->computeOneStep();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, sim->lastStatistics().status);
      projections = std::max(projections, sim->lastStatistics().projectionIterations);
      if (!touched) vImpact = std::max(vImpact, -ball->velocity()(2));
      drift = std::max(drift, hinge->y(0).normInf());
      const double gap = ball->q()(2) - r;
      penetration = std::max(penetration, -gap);
      stepsPenetrating += gap < -1e-8 ? 1 : 0;
      touched = touched || gap < 1e-3;
      sim->nextStep();
    }
    CPPUNIT_ASSERT(touched);
    std::printf(
        "\n  pendulum into ground (%s): joint drift %.3g, penetration %.3g (%d steps), impact "
        "speed %.3g, "
        "projections per step <= %d\n",
        projected ? "projection" : "time stepping", drift, penetration, stepsPenetrating, vImpact,
        projections);
    if (projected) {
      // the step of the impact ends penetrating (the contact enters the problem at the next
      // step start, Moreau-Jean); the projection removes it at the next step; joints <= 1e-8
      CPPUNIT_ASSERT(drift <= 1e-8);
      CPPUNIT_ASSERT_EQUAL(1, stepsPenetrating);
      CPPUNIT_ASSERT(penetration <= 1.5 * h * vImpact);
    } else {
      CPPUNIT_ASSERT(drift <= 1e-3);                     // bounded, first order in h
      CPPUNIT_ASSERT(penetration <= 1.5 * h * vImpact);  // Moreau-Jean: at most one step's travel
    }
    // at rest on the ground, the ball still on its hinge circle
    CPPUNIT_ASSERT(ball->velocity().normInf() < 1e-6);
    const double dx = ball->q()(0), dz = ball->q()(2) - H;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(L, std::hypot(dx, dz), projected ? 1e-8 : 1e-3);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(JointMotorTest);
