// The scene engine on 1, 2 and 3 threads, NSGS in coloured sweeps (Numerics
// fc3d_nsgs_bodies.c): a lattice of 2,200 spheres with 2,200+ active contacts, stirred,
// stepped 8 times at a budget of 40 sweeps: positions, velocities, contact impulses and
// sweep counts are the same bits for every thread count and on a rerun; warm start pays
// (a smaller summed residual than cold at the same budget from the second step).
#include <cppunit/extensions/HelperMacros.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;

namespace {

// What a run leaves: state, impulses, sweeps per step, active contacts per step.
struct Outcome {
  std::vector<double> q, v, impulse;
  std::vector<int> sweeps;
  std::vector<double> residual;
  std::vector<std::size_t> active;
};

// A 10 x 10 x 22 simple cubic lattice of touching spheres (r = 1 cm) on a floor, each
// with a seeded small random horizontal velocity and spin: 2,200 floor and vertical
// contacts and lateral ones.
Outcome run(int threads, bool warm, int steps = 8) {
  SceneEngine::Options o;
  o.h = 1e-3;
  o.solver = "nsgs";
  nsd_solver_options_default(&o.solverOptions);
  o.solverOptions.tolerance = 1e-7;
  o.solverOptions.max_iterations = 40;
  o.solveMode = SolveMode::Budget;
  o.contacts.detection.threads = threads;
  o.contacts.warmStart = warm;
  SceneEngine e(o);
  e.setDefaultMaterial({0.5, 0.0});
  ShapeInstance floor;
  floor.shape = std::make_shared<HalfSpaceShape>(Shape::Vec3{0.0, 0.0, 1.0}, 0.0);
  e.addBody(makeStaticBody({floor}));
  const double r = 0.01;
  ShapeInstance ball;
  ball.shape = std::make_shared<SphereShape>(r);
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> U(-0.02, 0.02);
  for (int k = 0; k < 22; ++k)
    for (int j = 0; j < 10; ++j)
      for (int i = 0; i < 10; ++i) {
        BodySpec s;
        s.shapes = {ball};
        s.density = 2500.0;
        s.position = {2 * r * i, 2 * r * j, r + 2 * r * k};
        s.velocity = {U(gen), U(gen), 0.0, 0.0, 0.0, U(gen)};
        e.addBody(s);
      }
  Outcome out;
  for (int k = 0; k < steps; ++k) {
    const auto& st = e.step();
    out.sweeps.push_back(st.solver.iterations);
    out.residual.push_back(st.solver.residual);
    out.active.push_back(st.active);
  }
  out.q = e.bodies().q;
  out.v = e.bodies().v;
  out.impulse = e.contacts().impulse;
  return out;
}

bool sameBits(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

void assertSame(const std::string& what, const Outcome& a, const Outcome& b) {
  CPPUNIT_ASSERT_MESSAGE(what + ": sweeps", a.sweeps == b.sweeps);
  CPPUNIT_ASSERT_MESSAGE(what + ": active contacts", a.active == b.active);
  CPPUNIT_ASSERT_MESSAGE(what + ": q", sameBits(a.q, b.q));
  CPPUNIT_ASSERT_MESSAGE(what + ": v", sameBits(a.v, b.v));
  CPPUNIT_ASSERT_MESSAGE(what + ": impulses", sameBits(a.impulse, b.impulse));
}

}  // namespace

class SceneThreadsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneThreadsTest);
  CPPUNIT_TEST(sameBitsOnOneTwoThreeThreads);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sameBitsOnOneTwoThreeThreads() {
    const Outcome one = run(1, true), two = run(2, true), three = run(3, true),
                  again = run(2, true);
    // large enough for the threaded sweeps (2,048 contacts in a stage)
    for (std::size_t active : one.active)
      CPPUNIT_ASSERT_MESSAGE(std::to_string(active) + " active contacts", active >= 2048);
    assertSame("1 vs 2 threads", one, two);
    assertSame("1 vs 3 threads", one, three);
    assertSame("rerun on 2 threads", two, again);
    // warm start pays: from the second step, at the same budget of sweeps, a smaller
    // summed residual than cold starts
    const Outcome cold = run(2, false);
    double warmSum = 0.0, coldSum = 0.0;
    for (std::size_t k = 1; k < one.sweeps.size(); ++k) {
      warmSum += one.residual[k];
      coldSum += cold.residual[k];
    }
    CPPUNIT_ASSERT_MESSAGE(
        std::to_string(warmSum) + " warm vs " + std::to_string(coldSum) + " cold",
        warmSum < coldSum);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneThreadsTest);
