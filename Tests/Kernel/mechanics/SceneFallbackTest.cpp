// The scene engine's fallback solver is bounded (SceneEngineOptions::fallbackTimeFactor,
// fallbackIterations): on a stirred lattice of 216 spheres whose NSGS solve cannot reach its
// tolerance (1e-16, below round-off), newton_ac takes the step over and stops at its bound,
// iterations or wall time, with its residual reported and the step failed (tolerance mode).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;

namespace {

// A 6 x 6 x 6 simple cubic lattice of touching spheres (r = 1 cm) on a floor, each with a
// seeded small random horizontal velocity and spin; NSGS at most @p sweeps sweeps to 1e-16,
// newton_ac as the fallback.
std::unique_ptr<SceneEngine> lattice(int sweeps, double timeFactor, int fallbackIterations) {
  SceneEngine::Options o;
  o.h = 1e-3;
  o.solver = "nsgs";
  nsd_solver_options_default(&o.solverOptions);
  o.solverOptions.tolerance = 1e-16;
  o.solverOptions.max_iterations = sweeps;
  o.fallback = "newton_ac";
  o.fallbackTimeFactor = timeFactor;
  o.fallbackIterations = fallbackIterations;
  o.contacts.detection.threads = 1;
  auto e = std::make_unique<SceneEngine>(o);
  e->setDefaultMaterial({0.5, 0.0});
  ShapeInstance floor;
  floor.shape = std::make_shared<HalfSpaceShape>(Shape::Vec3{0.0, 0.0, 1.0}, 0.0);
  e->addBody(makeStaticBody({floor}));
  const double r = 0.01;
  ShapeInstance ball;
  ball.shape = std::make_shared<SphereShape>(r);
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> U(-0.02, 0.02);
  for (int k = 0; k < 6; ++k)
    for (int j = 0; j < 6; ++j)
      for (int i = 0; i < 6; ++i) {
        BodySpec s;
        s.shapes = {ball};
        s.density = 2500.0;
        s.position = {2 * r * i, 2 * r * j, r + 2 * r * k};
        s.velocity = {U(gen), U(gen), 0.0, 0.0, 0.0, U(gen)};
        e->addBody(s);
      }
  return e;
}

}  // namespace

class SceneFallbackTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneFallbackTest);
  CPPUNIT_TEST(fallbackStopsAtItsIterationBound);
  CPPUNIT_TEST(fallbackStopsAtItsTimeBound);
  CPPUNIT_TEST(badBoundsAreRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// NSGS stops at its 50 sweeps, newton_ac at its 3 iterations (not the 50 of the first
  /// solver's cap, as before the bound): the step is failed, its residual finite and above
  /// the tolerance, both solvers' iterations counted.
  void fallbackStopsAtItsIterationBound() {
    auto e = lattice(50, 0.0, 3);
    for (int k = 0; k < 3; ++k) {
      const SceneEngine::StepReport& r = e->step();
      CPPUNIT_ASSERT(r.active > 200);
      CPPUNIT_ASSERT(r.fallback);
      CPPUNIT_ASSERT_EQUAL(3, r.fallbackIterations);
      CPPUNIT_ASSERT_EQUAL(53, r.solver.iterations);
      CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, r.status);
      CPPUNIT_ASSERT(r.aboveTolerance);
      CPPUNIT_ASSERT(std::isfinite(r.solver.residual) && r.solver.residual > 1e-16);
      CPPUNIT_ASSERT(r.fallbackSeconds > 0.0 && r.fallbackSeconds <= r.solver.seconds);
    }
  }

  /// With 100,000 iterations allowed, newton_ac stops at its time bound: twice the first
  /// solver's time, at least 10 ms; the bound is tested after each Newton step, so it may be
  /// passed by at most about one step.
  void fallbackStopsAtItsTimeBound() {
    auto e = lattice(5, 2.0, 100000);
    for (int k = 0; k < 2; ++k) {
      const SceneEngine::StepReport& r = e->step();
      CPPUNIT_ASSERT(r.fallback);
      CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, r.status);
      CPPUNIT_ASSERT(r.fallbackIterations >= 1 && r.fallbackIterations < 100000);
      const double first = r.solver.seconds - r.fallbackSeconds;
      const double bound = std::max(2.0 * first, 0.01);
      const double perIteration = r.fallbackSeconds / r.fallbackIterations;
      CPPUNIT_ASSERT_MESSAGE(std::to_string(r.fallbackSeconds) + " s against a bound of " +
                                 std::to_string(bound) + " s",
                             r.fallbackSeconds <= bound + 2.0 * perIteration + 0.005);
      CPPUNIT_ASSERT(std::isfinite(r.solver.residual) && r.solver.residual > 1e-16);
    }
  }

  void badBoundsAreRefused() {
    SceneEngine::Options o;
    o.fallbackTimeFactor = -1.0;
    CPPUNIT_ASSERT_THROW(SceneEngine{o}, Error);
    o.fallbackTimeFactor = 1.0;
    o.fallbackIterations = -2;
    CPPUNIT_ASSERT_THROW(SceneEngine{o}, Error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneFallbackTest);
