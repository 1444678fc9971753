// SceneEngine's extension point (nsdyn/SceneSystem.hpp) with dummy systems: a system that
// passes the free velocity through steps to the same bits as no system; a system that
// overrides its body's free velocity moves it so, and contacts still act on it; collision
// families (BodyStore::setFamily) and locked rotation (BodyStore::lockRotation); bad input.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/ContactDetector.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/SceneSystem.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;

namespace {

constexpr double kG = 9.81;

ShapeInstance inst(std::shared_ptr<const Shape> s) {
  ShapeInstance i;
  i.shape = std::move(s);
  return i;
}

BodySpec ball(double r, double m, const Shape::Vec3& p, const std::array<double, 6>& v = {}) {
  BodySpec b;
  b.shapes = {inst(std::make_shared<SphereShape>(r))};
  b.mass = m;
  b.position = p;
  b.velocity = v;
  return b;
}

SceneEngine::Options options() {
  SceneEngine::Options o;
  o.h = 1e-3;
  o.solverOptions.tolerance = 1e-12;
  o.solverOptions.max_iterations = 10000;
  o.contacts.detection.threads = 1;
  o.recovery.enabled = false;
  return o;
}

/// A scene of 3 spheres on a plane (one sliding, two touching).
void fillScene(SceneEngine& e) {
  e.setDefaultMaterial({0.4, 0.0});
  e.addStatic({inst(std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0))});
  e.addBody(ball(0.1, 1.0, {0.0, 0.0, 0.1}, {1.0, 0, 0, 0, 0, 0}));
  e.addBody(ball(0.1, 2.0, {0.5, 0.0, 0.1}));
  e.addBody(ball(0.1, 1.5, {0.5, 0.0, 0.3}));
}

/// Adds nothing, changes nothing: counts its calls.
struct PassThrough : SceneSystem {
  int attached = 0, free = 0, ends = 0;
  std::string name() const override { return "pass-through"; }
  void attach(SceneEngine&) override { ++attached; }
  void freeVelocity(const SceneEngine&, double*) override { ++free; }
  void endStep(SceneEngine&) override { ++ends; }
};

/// Owns one sphere and gives it a constant free velocity (a conveyor-driven puck): gravity
/// and the engine's free velocity are ignored, contacts still act.
struct Driven : SceneSystem {
  std::size_t index = 0;
  std::array<double, 3> velocity{0.0, 0.0, 0.0};
  std::vector<double> ends;  // x at each endStep
  std::string name() const override { return "driven"; }
  void attach(SceneEngine& e) override {
    index = e.addBody(ball(0.1, 1.0, {0.0, 0.0, 0.1}));
    e.bodies().lockRotation(index);
  }
  void freeVelocity(const SceneEngine&, double* vel) override {
    for (std::size_t k = 0; k < 3; ++k) {
      vel[6 * index + k] = velocity[k];
      vel[6 * index + 3 + k] = 0.0;
    }
  }
  void endStep(SceneEngine& e) override { ends.push_back(e.bodies().q[7 * index]); }
};

}  // namespace

class SceneSystemTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneSystemTest);
  CPPUNIT_TEST(passThroughIsTheSameBits);
  CPPUNIT_TEST(systemGivesTheFreeVelocity);
  CPPUNIT_TEST(familiesNeverCollide);
  CPPUNIT_TEST(lockedRotationSlides);
  CPPUNIT_TEST(badInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void passThroughIsTheSameBits() {
    SceneEngine a(options()), b(options());
    fillScene(a);
    fillScene(b);
    auto sys = std::make_shared<PassThrough>();
    b.addSystem(sys);
    CPPUNIT_ASSERT_EQUAL(1, sys->attached);
    for (int s = 0; s < 300; ++s) {
      a.step();
      b.step();
    }
    CPPUNIT_ASSERT_EQUAL(300, sys->free);
    CPPUNIT_ASSERT_EQUAL(300, sys->ends);
    CPPUNIT_ASSERT(a.bodies().q == b.bodies().q);
    CPPUNIT_ASSERT(a.bodies().v == b.bodies().v);
    CPPUNIT_ASSERT(a.lastReport().contacts > 0);
  }

  void systemGivesTheFreeVelocity() {
    // the driven sphere moves at 2 m/s along x without falling (its free velocity has no
    // gravity), then pushes a resting sphere: the contact acts through its mass
    SceneEngine e(options());
    e.setDefaultMaterial({0.0, 0.0});
    e.addStatic({inst(std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, -1.0))});
    auto sys = std::make_shared<Driven>();
    sys->velocity = {2.0, 0.0, 0.0};
    e.addSystem(sys);
    const std::size_t other = e.addBody(ball(0.1, 1.0, {0.35, 0.0, 0.1}));
    e.bodies().lockRotation(other);
    for (int s = 0; s < 50; ++s) e.step();
    // 50 steps at 2 m/s from rest (θ = 1/2: the first step moves h (2 + 0) / 2): 0.099 m, z
    // unchanged, the other sphere not reached yet
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.099, e.bodies().q[7 * sys->index], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, e.bodies().q[7 * sys->index + 2], 1e-15);
    CPPUNIT_ASSERT_EQUAL(std::size_t(50), sys->ends.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.099, sys->ends.back(), 1e-12);
    for (int s = 0; s < 100; ++s) e.step();
    // after contact (equal masses, e = 0): each step the driven sphere starts again at 2 m/s
    // and shares its momentum with the other one, which has moved away ahead of it
    const double vOther = e.bodies().v[6 * other];
    CPPUNIT_ASSERT(vOther > 0.5);
    CPPUNIT_ASSERT(e.bodies().q[7 * other] > 0.35 + 0.05);
  }

  void familiesNeverCollide() {
    // two overlapping spheres: a contact; in one family: none (broadphase and brute force);
    // in two different families: a contact
    for (int mode = 0; mode < 3; ++mode) {
      BodyStore store;
      const std::size_t a = store.addBody(ball(0.1, 1.0, {0.0, 0.0, 0.0}));
      const std::size_t b = store.addBody(ball(0.1, 1.0, {0.15, 0.0, 0.0}));
      const std::size_t c = store.addBody(ball(0.1, 1.0, {0.3, 0.0, 0.0}));
      if (mode == 1) {
        store.setFamily(a, 3);
        store.setFamily(b, 3);
      } else if (mode == 2) {
        store.setFamily(a, 3);
        store.setFamily(b, 4);
      }
      (void)c;
      ContactDetector d;
      d.setStore(&store);
      const auto found = d.detect();
      const auto brute = d.detectBruteForce();
      CPPUNIT_ASSERT_EQUAL(found.size(), brute.size());
      // pairs (a, b) and (b, c) overlap; (a, c) touch at distance 0.3 > 0.2: no contact
      CPPUNIT_ASSERT_EQUAL(mode == 1 ? std::size_t(1) : std::size_t(2), found.size());
      if (mode == 1) {
        CPPUNIT_ASSERT_EQUAL(std::int32_t(1), found[0].bodyA);
        CPPUNIT_ASSERT_EQUAL(std::int32_t(2), found[0].bodyB);
      }
    }
    BodyStore store;
    store.addBody(ball(0.1, 1.0, {0.0, 0.0, 0.0}));
    CPPUNIT_ASSERT_THROW(store.setFamily(0, -1), Error);
    CPPUNIT_ASSERT_THROW(store.setFamily(4, 1), Error);
  }

  void lockedRotationSlides() {
    // a sphere launched at 1 m/s on a plane with μ = 0.4: free, it rolls at 5/7 of its speed
    // after sliding; rotation locked, it slides and stops after v²/(2 μ g)
    for (int locked = 0; locked < 2; ++locked) {
      SceneEngine e(options());
      e.setDefaultMaterial({0.4, 0.0});
      e.addStatic({inst(std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0))});
      const std::size_t b = e.addBody(ball(0.1, 1.0, {0.0, 0.0, 0.1}, {1.0, 0, 0, 0, 0, 0}));
      if (locked) {  // an applied torque does not turn it either (gyroscopic step skipped)
        e.bodies().lockRotation(b);
        e.bodies().setForce(b, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0});
      }
      for (int s = 0; s < 500; ++s) e.step();
      const double vx = e.bodies().v[6 * b];
      if (locked) {
        CPPUNIT_ASSERT_EQUAL(0.0, e.bodies().v[6 * b + 4]);
        CPPUNIT_ASSERT_EQUAL(0.0, e.bodies().v[6 * b + 5]);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, vx, 1e-9);
        const double stop = 1.0 / (2.0 * 0.4 * kG);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(stop, e.bodies().q[7 * b], 2e-3);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, e.bodies().q[7 * b + 3], 1e-15);
      } else {
        CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0 / 7.0, vx, 1e-3);
      }
    }
    SceneEngine e(options());
    e.addStatic({inst(std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0))});
    CPPUNIT_ASSERT_THROW(e.bodies().lockRotation(0), Error);  // static
  }

  void badInput() {
    SceneEngine e(options());
    fillScene(e);
    CPPUNIT_ASSERT_THROW(e.addSystem(nullptr), Error);
    e.step();
    try {
      e.addSystem(std::make_shared<PassThrough>());
      CPPUNIT_FAIL("a system added after the first step");
    } catch (const Error& err) {
      CPPUNIT_ASSERT(std::string(err.what()).find("addSystem") != std::string::npos);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneSystemTest);
