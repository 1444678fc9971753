// SceneEngine's speculative contacts (SceneEngineOptions::speculativeContacts,
// SceneEngineSpeculative.cpp): a box landing at 11.7 m/s with h = 1/60 stops at the floor
// (without them it sinks about ½ h |u|), no kinetic energy gained; a resting stack stays as
// it is; a bouncing contact keeps its restitution; off = the step of before.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;
using Vec3 = Shape::Vec3;

namespace {

ShapeInstance inst(std::shared_ptr<const Shape> s) {
  ShapeInstance i;
  i.shape = std::move(s);
  return i;
}

SceneEngine::Options options(double h, bool speculative) {
  SceneEngine::Options o;
  o.h = h;
  o.solverOptions.tolerance = 1e-12;
  o.solverOptions.max_iterations = 10000;
  o.contacts.detection.threads = 1;
  o.speculativeContacts = speculative;
  return o;
}

/// A floor (z = 0) and a cube of side 2 m, mass 2, its bottom at @p height, falling at @p speed.
std::unique_ptr<SceneEngine> drop(const SceneEngine::Options& o, double height, double speed,
                                  double restitution = 0.0) {
  auto e = std::make_unique<SceneEngine>(o);
  e->setDefaultMaterial({0.5, restitution});
  e->addBody(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
  BodySpec s;
  s.mass = 2.0;
  s.shapes = {inst(std::make_shared<BoxShape>(Vec3{1.0, 1.0, 1.0}))};
  s.position = {0.0, 0.0, 1.0 + height};
  const std::size_t b = e->addBody(s);
  e->bodies().v[6 * b + 2] = -speed;
  return e;
}

struct Landing {
  double deepest = 0.0;  // the largest penetration of the box bottom (m), after each step
  double maxKinetic = 0.0;
  double endZ = 0.0, endSpeed = 0.0;
};

Landing land(bool speculative, double height, double speed) {
  const double h = 1.0 / 60.0;
  auto e = drop(options(h, speculative), height, speed);
  Landing l;
  const double ke0 = 0.5 * 2.0 * speed * speed;
  for (int k = 0; k < 60; ++k) {
    const SceneEngine::StepReport& r = e->step();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, r.status);
    // the kinetic energy never exceeds the initial one plus the work of gravity so far
    const double z = e->bodies().q[7 * 1 + 2];
    const double fallen = 1.0 + height - z;
    l.maxKinetic = std::max(l.maxKinetic, r.kineticEnergy - 2.0 * 9.81 * fallen);
    l.deepest = std::max(l.deepest, 1.0 - z);
    CPPUNIT_ASSERT_MESSAGE("kinetic energy " + std::to_string(r.kineticEnergy),
                           r.kineticEnergy <= ke0 + 2.0 * 9.81 * std::max(fallen, 0.0) + 1e-9);
  }
  l.endZ = e->bodies().q[7 * 1 + 2];
  l.endSpeed = std::fabs(e->bodies().v[6 * 1 + 2]);
  return l;
}

}  // namespace

class SceneSpeculativeTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneSpeculativeTest);
  CPPUNIT_TEST(testFastLandingStopsAtTheSurface);
  CPPUNIT_TEST(testEveryPhaseOfTheLanding);
  CPPUNIT_TEST(testRestingStackUnchanged);
  CPPUNIT_TEST(testRestitutionKept);
  CPPUNIT_TEST(testOffIsTheStepOfBefore);
  CPPUNIT_TEST_SUITE_END();

  // the Jolt pyramid's top layer: 7 m of fall, 11.7 m/s at the floor, 19.5 cm per step
  void testFastLandingStopsAtTheSurface() {
    const Landing off = land(false, 0.5, 11.7);
    const Landing on = land(true, 0.5, 11.7);
    CPPUNIT_ASSERT_MESSAGE("without: " + std::to_string(off.deepest), off.deepest > 0.05);
    CPPUNIT_ASSERT_MESSAGE("with: " + std::to_string(on.deepest), on.deepest < 1e-3);
    CPPUNIT_ASSERT_MESSAGE("at rest: " + std::to_string(on.endSpeed), on.endSpeed < 1e-6);
    CPPUNIT_ASSERT_MESSAGE("on the floor: " + std::to_string(on.endZ),
                           std::fabs(on.endZ - 1.0) < 1e-3);
  }

  // the landing from every start height in a step's fall: the contact is caught whatever
  // the phase of the last step before the floor
  void testEveryPhaseOfTheLanding() {
    const double step = 11.7 / 60.0;
    for (int i = 0; i < 8; ++i) {
      const double height = 0.6 + step * i / 8.0;
      const Landing on = land(true, height, 11.7);
      CPPUNIT_ASSERT_MESSAGE("height " + std::to_string(height) + ": " + std::to_string(on.deepest),
                             on.deepest < 1e-3);
    }
  }

  // 4 cubes stacked at rest on the floor, 1 mm apart at rest contact (gap 0): they stay
  void testRestingStackUnchanged() {
    for (bool speculative : {false, true}) {
      SceneEngine::Options o = options(1e-2, speculative);
      SceneEngine e(o);
      e.setDefaultMaterial({0.5, 0.0});
      e.addBody(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
      for (int k = 0; k < 4; ++k) {
        BodySpec s;
        s.mass = 1.0;
        s.shapes = {inst(std::make_shared<BoxShape>(Vec3{0.1, 0.1, 0.1}))};
        s.position = {0.0, 0.0, 0.1 + 0.2 * k};
        e.addBody(s);
      }
      double ke = 0.0;
      for (int k = 0; k < 200; ++k) {
        const SceneEngine::StepReport& r = e.step();
        CPPUNIT_ASSERT_EQUAL(NSD_OK, r.status);
        ke = std::max(ke, r.kineticEnergy);
      }
      CPPUNIT_ASSERT_MESSAGE("KE " + std::to_string(ke), ke < 1e-10);
      for (int k = 0; k < 4; ++k) {
        const double* q = &e.bodies().q[7 * static_cast<std::size_t>(k + 1)];
        CPPUNIT_ASSERT_MESSAGE("body " + std::to_string(k) + " z " + std::to_string(q[2]),
                               std::fabs(q[2] - (0.1 + 0.2 * k)) < 1e-6);
        CPPUNIT_ASSERT(std::hypot(q[0], q[1]) < 1e-9);
      }
    }
  }

  // restitution 0.5: the contact keeps the usual rule (a speculative stop would eat the
  // bounce): the box leaves the floor at about half its landing speed either way
  void testRestitutionKept() {
    const double h = 1.0 / 60.0;
    double up[2] = {0.0, 0.0};
    for (int s = 0; s < 2; ++s) {
      SceneEngine::Options o = options(h, s == 1);
      o.contacts.sweptDetection = true;  // the contact found in time by both
      auto e = drop(o, 0.3, 5.0, 0.5);
      for (int k = 0; k < 10; ++k) {
        e->step();
        up[s] = std::max(up[s], e->bodies().v[6 * 1 + 2]);
      }
    }
    CPPUNIT_ASSERT_MESSAGE(std::to_string(up[0]), up[0] > 2.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(up[0], up[1], 1e-12);
  }

  // off (the default): no speculative contact is counted and the state is the one of a
  // scene stepped without the option
  void testOffIsTheStepOfBefore() {
    CPPUNIT_ASSERT(!SceneEngine::Options().speculativeContacts);
    auto a = drop(options(1.0 / 60.0, false), 0.5, 11.7);
    std::size_t speculative = 0;
    for (int k = 0; k < 10; ++k) speculative += a->step().speculative;
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), speculative);
    auto b = drop(options(1.0 / 60.0, true), 0.5, 11.7);
    for (int k = 0; k < 10; ++k) speculative += b->step().speculative;
    CPPUNIT_ASSERT(speculative > 0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneSpeculativeTest);
