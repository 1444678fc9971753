// SceneEngine's overlap recovery (nsdyn/OverlapRecovery.hpp, SceneEngineRecovery.cpp): planted
// overlaps of resting stacks removed without kinetic energy, the recovery-speed cap, off = the
// step without it bit for bit, nothing moved where nothing overlaps, bad options refused.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Quaternion.hpp>
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

SceneEngine::Options options(double h, bool recovery) {
  SceneEngine::Options o;
  o.h = h;
  o.solverOptions.tolerance = 1e-12;
  o.solverOptions.max_iterations = 10000;
  o.contacts.detection.threads = 1;
  o.recovery.enabled = recovery;
  return o;
}

/// A floor and @p count bodies (spheres of radius @p r, or cubes of half-edge @p r, mass 1)
/// stacked on it at rest, each contact (the floor's included) overlapping by @p overlap.
std::unique_ptr<SceneEngine> stack(const SceneEngine::Options& o, int count, double r,
                                   double overlap, bool boxes) {
  auto e = std::make_unique<SceneEngine>(o);
  e->setDefaultMaterial({0.5, 0.0});
  e->addBody(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
  for (int k = 0; k < count; ++k) {
    BodySpec s;
    s.mass = 1.0;
    if (boxes)
      s.shapes = {inst(std::make_shared<BoxShape>(Vec3{r, r, r}))};
    else
      s.shapes = {inst(std::make_shared<SphereShape>(r))};
    s.position = {0.0, 0.0, r - overlap + k * (2.0 * r - overlap)};
    e->addBody(s);
  }
  return e;
}

/// @p steps steps, each solved (NSD_OK); the largest kinetic energy after a step, and the
/// recovery's contacts summed over the steps into @p recovered when given.
double maxKineticEnergy(SceneEngine& e, int steps, std::size_t* recovered = nullptr) {
  double ke = 0.0;
  for (int k = 0; k < steps; ++k) {
    const SceneEngine::StepReport& rep = e.step();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, rep.status);
    ke = std::max(ke, rep.kineticEnergy);
    if (recovered) *recovered += rep.recovered;
  }
  return ke;
}

/// The deepest overlap max(0, -gap) among the contacts detected at the engine's state.
double deepest(SceneEngine& e) {
  e.step();  // the gaps of the contacts are those at the step's start
  double d = 0.0;
  for (double g : e.contacts().gap) d = std::max(d, -g);
  return d;
}

}  // namespace

class SceneRecoveryTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneRecoveryTest);
  CPPUNIT_TEST(testPlantedOverlapOfSphereStack);
  CPPUNIT_TEST(testPlantedOverlapOfBoxStack);
  CPPUNIT_TEST(testTiltedBoxIsSetLevel);
  CPPUNIT_TEST(testColumnStaysAtRest);
  CPPUNIT_TEST(testTallColumnNeverDeepens);
  CPPUNIT_TEST(testSpeedCap);
  CPPUNIT_TEST(testOffKeepsOverlaps);
  CPPUNIT_TEST(testNothingToCorrectIsBitIdentical);
  CPPUNIT_TEST(testBadOptions);
  CPPUNIT_TEST(testLargePileInSlabs);
  CPPUNIT_TEST_SUITE_END();

  // A block of 24 x 24 columns of 3 spheres (radius 0.1), every contact (floor, above,
  // beside) 30 % of the radius deep, at rest: over 4,096 recovery contacts, so the sweeps
  // run in slabs side by side (RecoveryOrder.hpp, blocksForRecovery), the contacts between
  // slabs after them. The overlaps go to the slop without kinetic energy, and the poses are
  // the same bits on 1 and 2 threads.
  void testLargePileInSlabs() {
    const double r = 0.1, overlap = 0.3 * r, pitch = 2.0 * r - overlap;
    const int side = 24, high = 3;
    std::vector<double> poses[2];
    for (int threads = 1; threads <= 2; ++threads) {
      SceneEngine::Options o = options(1e-3, true);
      o.recovery.maxSpeed = 1.0;
      o.solverOptions.tolerance = 1e-10;
      o.solverOptions.threads = threads;
      o.contacts.detection.threads = threads;
      SceneEngine e(o);
      e.setDefaultMaterial({0.5, 0.0});
      e.addBody(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
      for (int i = 0; i < side; ++i)
        for (int j = 0; j < side; ++j)
          for (int k = 0; k < high; ++k) {
            BodySpec s;
            s.mass = 1.0;
            s.shapes = {inst(std::make_shared<SphereShape>(r))};
            s.position = {i * pitch, j * pitch, r - overlap + k * pitch};
            e.addBody(s);
          }
      std::size_t largest = 0;
      double ke = 0.0;
      for (int step = 0; step < 60; ++step) {
        const SceneEngine::StepReport& rep = e.step();
        CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.solver.message, NSD_OK, rep.status);
        ke = std::max(ke, rep.kineticEnergy);
        largest = std::max(largest, rep.recovered);
      }
      CPPUNIT_ASSERT_MESSAGE(std::to_string(largest), largest >= 4096);
      CPPUNIT_ASSERT_MESSAGE("KE " + std::to_string(ke), ke <= 1e-6);
      const double d = deepest(e);
      CPPUNIT_ASSERT_MESSAGE("overlap " + std::to_string(d), d <= 0.01 * r * (1.0 + 1e-6));
      poses[threads - 1] = e.bodies().q;
    }
    CPPUNIT_ASSERT(poses[0].size() == poses[1].size());
    CPPUNIT_ASSERT(
        std::memcmp(poses[0].data(), poses[1].data(), poses[0].size() * sizeof(double)) == 0);
  }

  // 3 spheres of radius 0.1 on a floor, every contact 30 % of the radius deep, at rest: at
  // 1 m/s of recovery speed the 0.03 m overlaps go in about 30 steps; the kinetic energy
  // stays at the solver's round-off at every step.
  void plantedStack(bool boxes) {
    const double r = 0.1, overlap = 0.3 * r;
    SceneEngine::Options o = options(1e-3, true);
    o.recovery.maxSpeed = 1.0;
    auto e = stack(o, 3, r, overlap, boxes);
    std::size_t recovered = 0;
    const double ke = maxKineticEnergy(*e, 80, &recovered);
    CPPUNIT_ASSERT_MESSAGE("KE " + std::to_string(ke), ke <= 1e-6);
    CPPUNIT_ASSERT(recovered > 0);
    const double slop = 0.01 * r * (boxes ? std::sqrt(3.0) : 1.0);
    const double d = deepest(*e);
    CPPUNIT_ASSERT_MESSAGE("overlap " + std::to_string(d), d <= slop * (1.0 + 1e-6));
    CPPUNIT_ASSERT_MESSAGE("KE " + std::to_string(e->lastReport().kineticEnergy),
                           e->lastReport().kineticEnergy <= 1e-6);
    // the top body rose by the overlaps less the slops (3 contacts), nothing sideways
    const auto& q = e->bodies().q;
    const double top = q[7 * 3 + 2];
    const double ideal = r + 2.0 * (2.0 * r);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(top), std::fabs(top - ideal) <= 3.0 * slop + 1e-9);
    const double side = std::hypot(q[7 * 3], q[7 * 3 + 1]);
    CPPUNIT_ASSERT_MESSAGE("sideways " + std::to_string(side), side < 1e-6 * r);
  }
  void testPlantedOverlapOfSphereStack() { plantedStack(false); }
  void testPlantedOverlapOfBoxStack() { plantedStack(true); }

  // A cube (half-edge 0.1 m) on the floor tilted by asin(0.1) about x, one bottom edge 30 mm
  // deep, the other 10 mm, at rest. The recovery moves and turns it: both edges end at the
  // slop, the cube level, without kinetic energy. (A translation alone lifts it by the deep
  // edge's overlap, opens the other edge by 20 mm and leaves the tilt to gravity and the
  // velocity solve: the cube rocks down onto it.)
  void testTiltedBoxIsSetLevel() {
    const double r = 0.1, tilt = std::asin(0.1);
    SceneEngine::Options o = options(1e-3, true);
    o.recovery.maxSpeed = 1.0;
    auto e = stack(o, 1, r, 0.0, true);
    const quaternion::Quat t = quaternion::fromAxisAngle({1.0, 0.0, 0.0}, tilt);
    e->body(1).setState(
        {0.0, 0.0, r * std::cos(tilt) + r * std::sin(tilt) - 0.03, t[0], t[1], t[2], t[3]},
        {0.0, 0.0, 0.0, 0.0, 0.0, 0.0});
    const double* q = &e->bodies().q[7];
    const auto up = [q]() { return quaternion::rotate({q[3], q[4], q[5], q[6]}, {0, 0, 1}); };
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::cos(tilt), up()[2], 1e-12);  // planted tilted
    std::size_t recovered = 0;
    const double ke = maxKineticEnergy(*e, 200, &recovered);
    CPPUNIT_ASSERT(recovered > 0);
    CPPUNIT_ASSERT_MESSAGE("KE " + std::to_string(ke), ke <= 1e-6);
    CPPUNIT_ASSERT_MESSAGE("tilt " + std::to_string(std::acos(up()[2])), up()[2] > std::cos(1e-3));
    const double slop = 0.01 * r * std::sqrt(3.0);
    const double d = deepest(*e);
    CPPUNIT_ASSERT_MESSAGE("overlap " + std::to_string(d), d <= slop * (1.0 + 1e-6));
    for (double g : e->contacts().gap) CPPUNIT_ASSERT_MESSAGE("gap " + std::to_string(g), g <= 0.0);
  }

  // 20 spheres of radius 1 cm, 2,500 kg/m^3-like mass, 3.7 mm overlaps (the benchmark
  // column's), at the default recovery options (turned on; slop 1 % of the radius, a cap of
  // one slop per step: 0.1 m/s here): the overlaps go and the column stays at rest.
  void testColumnStaysAtRest() {
    const double r = 0.01;
    SceneEngine::Options o = options(1e-3, true);
    o.recovery = OverlapRecoveryOptions();
    o.recovery.enabled = true;
    CPPUNIT_ASSERT_EQUAL(0.0, o.recovery.maxSpeed);
    CPPUNIT_ASSERT_EQUAL(1.0, o.recovery.slopsPerStep);
    o.solverOptions.tolerance = 1e-10;
    auto e = stack(o, 20, r, 3.7e-3, false);
    double ke = 0.0;
    for (int k = 0; k < 200; ++k) ke = std::max(ke, e->step().kineticEnergy);
    CPPUNIT_ASSERT_MESSAGE("KE " + std::to_string(ke), ke <= 1e-6);
    const double d = deepest(*e);
    CPPUNIT_ASSERT_MESSAGE("overlap " + std::to_string(d), d <= 0.01 * r * (1.0 + 1e-6));
    for (std::size_t b = 1; b <= 20; ++b) {
      const double* q = &e->bodies().q[7 * b];
      CPPUNIT_ASSERT(std::fabs(q[0]) < 1e-9 && std::fabs(q[1]) < 1e-9);
    }
  }

  // 50 spheres of radius 1 cm with the race column's 3.7 mm overlaps, the pseudo-impulses
  // to 1e-2 (as the all-sphere examples run them) and at most 10 sweeps: Gauss-Seidel on a
  // 50-chain needs thousands from zero, and cut short it left the lower contacts
  // approaching (the race's stacks sank 3.7 -> 9.4 mm). With the lower body of each
  // contact held and the contacts swept bottom-up (RecoveryOrder.hpp) one sweep carries
  // the correction up the column: no contact ever deeper than at the start, the overlaps
  // gone in 37 steps (3.7 mm at 0.1 mm per step), the column straight and at rest, its top
  // risen by the overlaps less the slops.
  void testTallColumnNeverDeepens() {
    const double r = 0.01, overlap = 3.7e-3;
    const int count = 50;
    SceneEngine::Options o = options(1e-3, true);
    o.recovery = OverlapRecoveryOptions();
    o.recovery.enabled = true;
    o.recovery.tolerance = 1e-2;
    o.recovery.iterations = 10;
    o.solverOptions.tolerance = 1e-10;
    o.solverOptions.max_iterations = 100000;
    auto e = stack(o, count, r, overlap, false);
    double ke = 0.0, deepestSeen = 0.0;
    int sweeps = 0;
    for (int k = 0; k < 80; ++k) {
      const SceneEngine::StepReport& rep = e->step();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, rep.status);
      ke = std::max(ke, rep.kineticEnergy);
      sweeps = std::max(sweeps, rep.recoveryIterations);
      for (double g : e->contacts().gap) deepestSeen = std::max(deepestSeen, -g);
    }
    CPPUNIT_ASSERT_MESSAGE("deepest " + std::to_string(deepestSeen),
                           deepestSeen <= overlap * (1.0 + 1e-9));
    CPPUNIT_ASSERT_MESSAGE("sweeps " + std::to_string(sweeps), sweeps <= 5);
    CPPUNIT_ASSERT_MESSAGE("KE " + std::to_string(ke), ke <= 1e-6);
    const double slop = 0.01 * r, d = deepest(*e);
    CPPUNIT_ASSERT_MESSAGE("overlap " + std::to_string(d), d <= slop * (1.0 + 1e-6));
    const double top = e->bodies().q[7 * count + 2];
    const double ideal = r + (count - 1) * 2.0 * r;
    CPPUNIT_ASSERT_MESSAGE(std::to_string(top - ideal),
                           top <= ideal && top >= ideal - count * slop - 1e-9);
    for (std::size_t b = 1; b <= static_cast<std::size_t>(count); ++b) {
      const double* q = &e->bodies().q[7 * b];
      CPPUNIT_ASSERT(std::fabs(q[0]) < 1e-9 && std::fabs(q[1]) < 1e-9);
    }
  }

  // The correction of a step is at most cap h per contact: a 0.03 m overlap under a sphere
  // of radius 0.1 m at h = 1e-3 loses 1e-4 m per step at maxSpeed 0.1 m/s, and by default
  // (maxSpeed 0: one slop, 1 mm, per step) 1e-3 m; 0.25 slop per step gives 2.5e-4 m. The
  // same relative cap at h = 1/60 moves 1 mm per step too (0.06 m/s).
  void testSpeedCap() {
    const double r = 0.1;
    const struct {
      double h, maxSpeed, slopsPerStep, perStep;
    } cases[] = {{1e-3, 0.1, 1.0, 1e-4},
                 {1e-3, 0.0, 1.0, 1e-3},
                 {1e-3, 0.0, 0.25, 2.5e-4},
                 {1.0 / 60.0, 0.0, 1.0, 1e-3}};
    for (const auto& c : cases) {
      SceneEngine::Options o = options(c.h, true);
      o.recovery.maxSpeed = c.maxSpeed;
      o.recovery.slopsPerStep = c.slopsPerStep;
      auto e = stack(o, 1, r, 0.03, false);
      const double z0 = e->bodies().q[7 * 1 + 2];
      for (int k = 0; k < 10; ++k) {
        const SceneEngine::StepReport& rep = e->step();
        const std::string what = "h " + std::to_string(c.h) + " step " + std::to_string(k) +
                                 ": shift " + std::to_string(rep.recoveryShift);
        CPPUNIT_ASSERT_MESSAGE(what, rep.recoveryShift <= c.perStep * (1.0 + 1e-9));
        CPPUNIT_ASSERT_MESSAGE(what, rep.recoveryShift >= c.perStep * (1.0 - 1e-6));
      }
      const double rise = e->bodies().q[7 * 1 + 2] - z0;
      CPPUNIT_ASSERT_MESSAGE(std::to_string(rise), std::fabs(rise - 10 * c.perStep) < 1e-8);
    }
  }

  // enabled = false: the planted overlaps stay (today's behaviour); no recovery reported
  void testOffKeepsOverlaps() {
    auto e = stack(options(1e-3, false), 3, 0.1, 0.03, false);
    for (int k = 0; k < 50; ++k) CPPUNIT_ASSERT_EQUAL(std::size_t(0), e->step().recovered);
    CPPUNIT_ASSERT(std::fabs(deepest(*e) - 0.03) < 1e-9);
  }

  // Nothing deeper than the slop: the recovery solves nothing, so on and off give the same
  // bits (a stack resting with its contacts just touching, and a falling sphere).
  void testNothingToCorrectIsBitIdentical() {
    for (double overlap : {0.0, -0.002}) {
      auto on = stack(options(1e-3, true), 3, 0.1, overlap, false);
      auto off = stack(options(1e-3, false), 3, 0.1, overlap, false);
      for (int k = 0; k < 60; ++k) {
        on->step();
        off->step();
      }
      CPPUNIT_ASSERT(std::memcmp(on->bodies().q.data(), off->bodies().q.data(),
                                 on->bodies().q.size() * sizeof(double)) == 0);
      CPPUNIT_ASSERT(std::memcmp(on->bodies().v.data(), off->bodies().v.data(),
                                 on->bodies().v.size() * sizeof(double)) == 0);
    }
  }

  void testBadOptions() {
    const auto refused = [](void (*set)(OverlapRecoveryOptions&), const std::string& word) {
      SceneEngine::Options o;
      set(o.recovery);
      try {
        SceneEngine e(o);
      } catch (const Error& err) {
        const std::string what = err.what();
        CPPUNIT_ASSERT_MESSAGE(what, what.find(word) != std::string::npos);
        CPPUNIT_ASSERT_MESSAGE(what, what.find("SceneEngine recovery") != std::string::npos);
        return;
      }
      CPPUNIT_FAIL("accepted: " + word);
    };
    refused([](OverlapRecoveryOptions& r) { r.maxSpeed = -1.0; }, "maxSpeed = -1");
    refused([](OverlapRecoveryOptions& r) { r.slopsPerStep = 0.0; }, "slopsPerStep = 0");
    refused([](OverlapRecoveryOptions& r) { r.slop = -1.0; }, "slop = -1");
    refused([](OverlapRecoveryOptions& r) { r.iterations = 0; }, "iterations = 0");
    refused([](OverlapRecoveryOptions& r) { r.relativeSlop = NAN; }, "relativeSlop = nan");
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneRecoveryTest);
