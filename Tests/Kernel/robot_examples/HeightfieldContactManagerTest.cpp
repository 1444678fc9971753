// A ContactManager scene (TimeStepping + GenericMechanical, the path of the Rover example) with
// a static heightfield: a sphere thrown onto a flat heightfield, sliding and rolling, follows
// its path on the plane z = 0 (positions and velocities to 1e-12 over 0.5 s); a hinged wheel
// driven by a velocity motor rolls on a heightfield slope without slipping.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/GenericMechanical.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/HeightfieldShape.hpp>
#include <nsdyn/JointAxisR.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/PivotJointR.hpp>
#include <nsdyn/PrismaticJointR.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;

namespace {

struct Run {
  std::vector<double> q, v;
  std::size_t maxContacts = 0;
};

// a sphere of radius 0.1 thrown from 5 cm above the floor (plane or 21 x 21 flat heightfield)
Run throwSphere(bool heightfield) {
  auto model = std::make_shared<Model>(0.0, 0.5);
  auto nsds = model->nonSmoothDynamicalSystem();
  auto problem = std::make_shared<GenericMechanical>();
  auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                            std::make_shared<MoreauJeanOSI>(0.5), problem);
  auto contacts = std::make_shared<ContactManager>();
  contacts->setDefaultMaterial({0.3, 0.0});
  sim->insertInteractionManager(contacts);
  if (heightfield)
    contacts->addBody(makeStaticBody({ShapeInstance{std::make_shared<HeightfieldShape>(
                                         21, 21, 0.2, 0.2, std::vector<double>(441, 0.0))}},
                                     {0.3, 0.1, 0.0}));
  else
    contacts->addBody(makeStaticBody(
        {ShapeInstance{std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0)}}));
  BodySpec spec;
  spec.shapes = {{std::make_shared<SphereShape>(0.1)}};
  spec.mass = 1.0;
  spec.position = {0.0, 0.0, 0.15};
  spec.velocity = {1.0, 0.3, 0.0, 0.0, 0.0, 5.0};
  BodyShapes b = makeBody(spec);
  auto ball = b.body();
  ball->setFExt(SiconosVector{0.0, 0.0, -9.81});
  contacts->addBody(*nsds, std::move(b));
  model->initialize(sim);
  Run run;
  while (sim->hasNextEvent()) {
    sim->computeOneStep();
    run.maxContacts = std::max(run.maxContacts, contacts->contacts().activeCount());
    sim->nextStep();
  }
  for (std::size_t i = 0; i < 7; ++i) run.q.push_back(ball->q()(i));
  for (std::size_t i = 0; i < 6; ++i) run.v.push_back(ball->velocity()(i));
  return run;
}

}  // namespace

class HeightfieldContactManagerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HeightfieldContactManagerTest);
  CPPUNIT_TEST(sphereOnHeightfieldEqualsPlane);
  CPPUNIT_TEST(motoredWheelRollsUpASlope);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sphereOnHeightfieldEqualsPlane() {
    const Run plane = throwSphere(false), field = throwSphere(true);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), field.maxContacts);
    CPPUNIT_ASSERT(field.q[0] > 0.3);  // it moved across several cells
    for (std::size_t i = 0; i < 7; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(plane.q[i], field.q[i], 1e-12);
    for (std::size_t i = 0; i < 6; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(plane.v[i], field.v[i], 1e-12);
  }

  // a sphere wheel (R = 0.2, 1 kg) hinged to a carrier on a 10 kg chassis (x slider, then z
  // slider) on a 10 deg heightfield ramp (mu = 0.9): the motor drives omega = 2 rad/s; the
  // wheel rolls up, its centre moves along the slope at omega R to 1e-6
  void motoredWheelRollsUpASlope() {
    const double R = 0.2, a = 10.0 * M_PI / 180.0;
    auto model = std::make_shared<Model>(0.0, 1.0);
    auto nsds = model->nonSmoothDynamicalSystem();
    auto problem = std::make_shared<GenericMechanical>();
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                              std::make_shared<MoreauJeanOSI>(0.5), problem);
    auto contacts = std::make_shared<ContactManager>();
    contacts->setDefaultMaterial({0.9, 0.0});
    sim->insertInteractionManager(contacts);
    std::vector<double> heights(41 * 11);
    for (std::size_t j = 0; j < 11; ++j)
      for (std::size_t i = 0; i < 41; ++i)
        heights[j * 41 + i] = (static_cast<double>(i) * 0.1 - 2.0) * std::tan(a);
    contacts->addBody(makeStaticBody(
        {ShapeInstance{std::make_shared<HeightfieldShape>(41, 11, 0.1, 0.1, heights)}}));
    // the wheel touches the ramp below its centre at (0, 0, R / cos a)
    const double zc = R / std::cos(a) + 1e-4;
    BodySpec spec;
    spec.shapes = {{std::make_shared<SphereShape>(R)}};
    spec.mass = 1.0;
    spec.position = {0.0, 0.0, zc};
    BodyShapes w = makeBody(spec);
    auto wheel = w.body();
    wheel->setFExt(SiconosVector{0.0, 0.0, -9.81});
    contacts->addBody(*nsds, std::move(w));
    // a 10 kg chassis sliding along x, a 0.5 kg carrier sliding along z in it, the wheel
    // hinged to the carrier (the layout of the README's motored wheel)
    auto body = [](double z, double m) {
      auto b = std::make_shared<NewtonEulerDS>(SiconosVector{0, 0, z, 1, 0, 0, 0}, SiconosVector(6),
                                               m, SimpleMatrix::diagonal(SiconosVector{1, 1, 1}));
      b->setFExt(SiconosVector{0.0, 0.0, -9.81 * m});
      return b;
    };
    auto chassis = body(zc + 0.5, 10.0), carrier = body(zc, 0.5);
    nsds->insertDynamicalSystem(chassis);
    nsds->insertDynamicalSystem(carrier);
    auto equality = [](const SP::NewtonEulerJointR& j) {
      return std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(5), j);
    };
    nsds->link(equality(std::make_shared<PrismaticJointR>(SiconosVector{1, 0, 0}, true, chassis)),
               chassis);
    nsds->link(
        equality(std::make_shared<PrismaticJointR>(SiconosVector{0, 0, 1}, true, chassis, carrier)),
        chassis, carrier);
    auto hinge = std::make_shared<PivotJointR>(SiconosVector{0, 0, zc}, SiconosVector{0, 1, 0},
                                               true, carrier, wheel);
    nsds->link(equality(hinge), carrier, wheel);
    auto motor = JointAxisR::motor(
        hinge, [](double t) { return 2.0 * std::min(1.0, t / 0.2); }, 50.0);
    nsds->link(motor, carrier, wheel);
    model->initialize(sim);
    while (sim->hasNextEvent()) {
      sim->computeOneStep();
      sim->nextStep();
    }
    // rolling on the ramp: the centre moves along the slope at omega R
    const double speed = std::hypot(carrier->velocity()(0), carrier->velocity()(2));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::tan(a), carrier->velocity()(2) / carrier->velocity()(0),
                                 1e-6);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 * R, speed, 1e-6);
    CPPUNIT_ASSERT(carrier->q()(0) > 0.25);              // it climbed (measured 0.298 m)
    CPPUNIT_ASSERT(problem->reaction(*motor)(0) > 0.0);  // the motor pushes uphill
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(HeightfieldContactManagerTest);
