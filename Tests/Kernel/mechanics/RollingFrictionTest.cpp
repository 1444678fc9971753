// RollingFrictionContact (issue 27): a sphere on an incline rests iff tan(theta) <= rolling / R
// and otherwise rolls down with a = g (sin - (rolling / R) cos) / (1 + I / (m R^2)); with
// rolling = 0 the runs equal FrictionContact(3)'s; a collapsing column of spheres keeps a
// steeper heap with more rolling resistance; bad materials refused.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/FrictionContact.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/RollingFrictionContact.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;
using Vec3 = Shape::Vec3;

namespace {

constexpr double kG = 9.81;
constexpr double kPi = 3.14159265358979323846;

ShapeInstance inst(std::shared_ptr<const Shape> s) {
  ShapeInstance i;
  i.shape = std::move(s);
  return i;
}

/// Model, simulation and manager with either problem (rolling: RollingFrictionContact).
struct Scene {
  std::shared_ptr<Model> model;
  SP::TimeStepping sim;
  SP::ContactManager contacts;
  SP::OneStepNSProblem problem;
  std::vector<SP::NewtonEulerDS> bodies;

  Scene(double T, double h, bool rolling, double tolerance, int maxIterations = 100000) {
    model = std::make_shared<Model>(0.0, T);
    if (rolling)
      problem = std::make_shared<RollingFrictionContact>();
    else
      problem = std::make_shared<FrictionContact>(3, "nsgs");
    problem->optionsMutable().tolerance = tolerance;
    problem->optionsMutable().max_iterations = maxIterations;
    sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                         std::make_shared<MoreauJeanOSI>(0.5), problem);
    contacts = std::make_shared<ContactManager>();
    sim->insertInteractionManager(contacts);
  }
  void add(BodyShapes b) {
    if (!b.isStatic()) {
      b.body()->setFExt(SiconosVector({0.0, 0.0, -b.body()->scalarMass() * kG}));
      bodies.push_back(b.body());
    }
    contacts->addBody(*model->nonSmoothDynamicalSystem(), std::move(b));
  }
  void start() { model->initialize(sim); }
};

/// A plane through the origin inclined by theta about y: normal (sin, 0, cos), downhill
/// (cos, 0, -sin).
Vec3 inclineNormal(double theta) {
  return {std::sin(theta), 0.0, std::cos(theta)};
}

/// Speed down the slope of a sphere (radius r, mu = 1) released at rest on an incline of
/// angle theta with the given rolling length, after T; the scene is returned in @p out.
double releaseOnIncline(double theta, double r, double rolling, double T, double h,
                        std::unique_ptr<Scene>* out = nullptr) {
  auto s = std::make_unique<Scene>(T, h, true, 1e-11);
  s->contacts->setDefaultMaterial({1.0, 0.0, rolling});
  const Vec3 n = inclineNormal(theta);
  s->add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(n, 0.0))}));
  s->add(makeBody({inst(std::make_shared<SphereShape>(r))}, 1000.0, {r * n[0], 0.0, r * n[2]}));
  s->start();
  s->sim->run();
  const SiconosVector& v = s->bodies[0]->velocity();
  const double speed = v(0) * std::cos(theta) - v(2) * std::sin(theta);
  if (out) *out = std::move(s);
  return speed;
}

/// Spheres (radius 5 cm, mu = 0.5 with the floor and each other) poured from a loose
/// column of n x n x nz (spacing 2.6 R, horizontal jitter ±0.25 R) on a floor: atan(height /
/// runout) of the heap after T (degrees), runout the radius holding 90 % of the centres.
/// @p tolerance > 0: solves to it (tolerance mode); else budget mode, 200 sweeps at 1e-4.
double heapAngle(bool rolling, double rollingLength, int n, int nz, double T,
                 double tolerance = 0.0, std::vector<SiconosVector>* state = nullptr) {
  const double r = 0.05, h = 2e-3, spacing = 2.6 * r;
  Scene s(T, h, rolling, tolerance > 0.0 ? tolerance : 1e-4, tolerance > 0.0 ? 100000 : 200);
  if (tolerance <= 0.0) s.problem->setSolveMode(SolveMode::Budget);
  s.contacts->setDefaultMaterial({0.5, 0.0, rollingLength});
  s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.25 * r, 0.25 * r);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double x = (i - 0.5 * (n - 1)) * spacing + jitter(rng);
        const double y = (j - 0.5 * (n - 1)) * spacing + jitter(rng);
        s.add(makeBody({inst(std::make_shared<SphereShape>(r))}, 2500.0,
                       {x, y, r + k * spacing + 0.01 * r}));
      }
  s.start();
  s.sim->run();
  for (const auto& st : s.sim->statistics())
    CPPUNIT_ASSERT_MESSAGE("step " + std::to_string(st.step) + ": " + st.message,
                           st.status == NSD_OK);
  double height = 0.0;
  std::vector<double> radial;
  for (const auto& b : s.bodies) {
    const SiconosVector& q = b->q();
    height = std::max(height, q(2) + r);
    radial.push_back(std::hypot(q(0), q(1)) + r);
    if (state) {
      state->push_back(q);
      state->push_back(b->velocity());
    }
  }
  std::sort(radial.begin(), radial.end());
  const double runout = radial[static_cast<std::size_t>(0.9 * (radial.size() - 1))];
  return std::atan(height / runout) * 180.0 / kPi;
}

}  // namespace

class RollingFrictionTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RollingFrictionTest);
  CPPUNIT_TEST(restThresholdOnIncline);
  CPPUNIT_TEST(rollingAccelerationClosedForm);
  CPPUNIT_TEST(zeroRollingEqualsFrictionContact);
  CPPUNIT_TEST(heapSteeperWithRolling);
  CPPUNIT_TEST(badInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void restThresholdOnIncline() {
    // scan theta in 0.25 degree steps: the first angle where the sphere moves is within
    // one degree of atan(rolling / R)
    const double r = 0.1, rolling = 0.01;
    const double expected = std::atan(rolling / r) * 180.0 / kPi;  // 5.71 degrees
    double found = -1.0;
    for (double deg = 3.0; deg <= 9.0 + 1e-9; deg += 0.25) {
      const double v = releaseOnIncline(deg * kPi / 180.0, r, rolling, 0.05, 1e-3);
      const bool moves = std::fabs(v) > 1e-8;
      if (deg < expected - 1e-9) {
        CPPUNIT_ASSERT_MESSAGE("at rest below the threshold, theta = " + std::to_string(deg) +
                                   ", v = " + std::to_string(v),
                               !moves);
      } else if (deg > expected + 1e-9) {
        CPPUNIT_ASSERT_MESSAGE("rolls above the threshold, theta = " + std::to_string(deg), moves);
      }
      if (moves && found < 0.0) found = deg;
    }
    std::printf("\n  rest threshold: first rolling angle %.2f deg, atan(rolling/R) = %.3f deg\n",
                found, expected);
    CPPUNIT_ASSERT(found > 0.0);
    CPPUNIT_ASSERT(std::fabs(found - expected) <= 1.0);
  }

  void rollingAccelerationClosedForm() {
    // rolling without slip, the moment rolling * N resisting: m a = m g sin - F,
    // I a / R = F R - rolling m g cos  =>  a = g (sin - (rolling/R) cos) / (1 + I/(m R^2))
    const double r = 0.1, rolling = 0.01, theta = 20.0 * kPi / 180.0, T = 0.5, h = 1e-3;
    std::unique_ptr<Scene> s;
    const double v = releaseOnIncline(theta, r, rolling, T, h, &s);
    const double a = kG * (std::sin(theta) - rolling / r * std::cos(theta)) / (1.0 + 2.0 / 5.0);
    const double error = std::fabs(v - a * T) / (a * T);
    std::printf("\n  rolling sphere: v(T) = %.12g, a T = %.12g, relative error %.2e\n", v, a * T,
                error);
    CPPUNIT_ASSERT(error < 1e-6);
    // no slip (v = omega R), the rolling moment at its bound rolling * r_N, the work of
    // the contact (rolling moments included) = -rolling N times the rolled angle
    const NewtonEulerDS& b = *s->bodies[0];
    const double omega = b.velocity()(4);  // about y (body frame = world: no spin about x, z)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(v, omega * r, 1e-9 * v);
    const ContactSet& cs = s->contacts->contacts();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), cs.size());
    const double rN = cs.impulse[0];
    const double mR = std::hypot(cs.rollingImpulse[0], cs.rollingImpulse[1]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(b.scalarMass() * kG * std::cos(theta) * h, rN, 1e-9 * rN);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(rolling * rN, mR, 1e-9 * mR);
    // the rolling moment opposes the relative rotation: r_R . u_R < 0
    const double power =
        cs.rollingImpulse[0] * cs.rollingVelocity[0] + cs.rollingImpulse[1] * cs.rollingVelocity[1];
    CPPUNIT_ASSERT(power < 0.0);
    // step work: -rolling r_N |omega_mid| (no slip, no normal motion)
    const double omegaMid = std::fabs(omega) - 0.5 * a / r * h;
    const double work = s->contacts->statistics().contactWork;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-rolling * rN * omegaMid, work, 1e-6 * rolling * rN * omegaMid);
  }

  void zeroRollingEqualsFrictionContact() {
    // 27 spheres poured with rolling = 0, both problems solved by nsgs to 1e-10 (Numerics'
    // rfc3d nsgs stalls near 1e-11, fc3d nsgs near 1e-12: two local solvers cannot agree to
    // round-off): the same positions and velocities to the solver tolerance
    std::vector<SiconosVector> withRolling, withoutRolling;
    heapAngle(true, 0.0, 3, 3, 0.1, 1e-10, &withRolling);
    heapAngle(false, 0.0, 3, 3, 0.1, 1e-10, &withoutRolling);
    CPPUNIT_ASSERT_EQUAL(withRolling.size(), withoutRolling.size());
    double dq = 0.0, dv = 0.0;
    for (std::size_t b = 0; b < withRolling.size(); ++b) {
      double& d = b % 2 == 0 ? dq : dv;
      for (std::size_t k = 0; k < withRolling[b].size(); ++k)
        d = std::max(d, std::fabs(withRolling[b](k) - withoutRolling[b](k)));
    }
    std::printf("\n  rolling = 0 against FrictionContact: max difference q %.2e, v %.2e\n", dq, dv);
    CPPUNIT_ASSERT(dq < 1e-10);
    CPPUNIT_ASSERT(dv < 1e-8);
  }

  void heapSteeperWithRolling() {
    // 5 x 5 x 4 = 100 spheres (R = 5 cm) poured on a floor, 1 s
    const double r = 0.05;
    const double a0 = heapAngle(true, 0.0, 5, 4, 1.0);
    const double a1 = heapAngle(true, 0.05 * r, 5, 4, 1.0);
    const double a2 = heapAngle(true, 0.1 * r, 5, 4, 1.0);
    std::printf(
        "\n  heap angle (100 spheres): rolling 0: %.1f deg, 0.05 R: %.1f deg, 0.1 R: %.1f deg\n",
        a0, a1, a2);
    CPPUNIT_ASSERT(a0 + 3.0 < a1);
    CPPUNIT_ASSERT(a1 + 3.0 < a2);
  }

  void badInput() {
    ContactManager m;
    ContactMaterial bad;
    bad.rolling = -0.001;
    try {
      m.setMaterial(0, 1, bad);
      CPPUNIT_FAIL("no error");
    } catch (const Error& e) {
      const std::string what = e.what();
      CPPUNIT_ASSERT_MESSAGE(what, what.find("groups 0 and 1") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(what, what.find("rolling = -0.001") != std::string::npos);
    }
    bad.rolling = std::nan("");
    CPPUNIT_ASSERT_THROW(m.setDefaultMaterial(bad), Error);
    // a rolling material with FrictionContact: refused at initialize, not ignored
    Scene s(0.01, 1e-3, false, 1e-8);
    s.contacts->setDefaultMaterial({0.5, 0.0, 0.002});
    s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    s.add(makeBody({inst(std::make_shared<SphereShape>(0.1))}, 1000.0, {0.0, 0.0, 0.1}));
    try {
      s.start();
      CPPUNIT_FAIL("no error");
    } catch (const Error& e) {
      const std::string what = e.what();
      CPPUNIT_ASSERT_MESSAGE(what, what.find("rolling = 0.002") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(what, what.find("RollingFrictionContact") != std::string::npos);
    }
    // RollingFrictionContact over Interactions: refused with the interaction named
    RollingFrictionContact p;
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs"), p.solverName());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RollingFrictionTest);
