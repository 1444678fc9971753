// The steppers of a peridynamic body (Kernel/src/peridynamics/steppers): successive
// substitution (monotone Φ, relative residual 1e-6, the same bits for 1 and 2 threads),
// Newton–CHOLMOD (same answer, statics), velocity Verlet (stable step, refuses statics), the
// factory and the simulation loop (fracture, energies), bad options.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nsdyn/Error.hpp>
#include <nsdyn/NewtonCholmod.hpp>
#include <nsdyn/PeridynamicGenerators.hpp>
#include <nsdyn/PeridynamicSimulation.hpp>
#include <nsdyn/SuccessiveSubstitution.hpp>
#include <nsdyn/VelocityVerlet.hpp>

#include "StepperTestMaterials.hpp"

using namespace nsdyn;

namespace {

constexpr double kDx = 1e-3, kE = 1e9, kRho = 2000.0;

// A block of n³ points (Δx = 1 mm, δ = 3Δx) with random velocities of 1 m/s.
std::unique_ptr<PeridynamicBody> block(int n, int threads = 1) {
  PeridynamicBodyOptions o;
  o.name = "block";
  o.spacing = kDx;
  o.horizon = 3.0 * kDx;
  o.density = kRho;
  o.threads = threads;
  const double half = 0.5 * n * kDx;
  auto b = peridynamics::box({0, 0, 0}, {half, half, half}, o, stepper_test::pmb(kE, 3.0 * kDx));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& q : b->v) q = u(rng);
  return b;
}

double maxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (std::size_t q = 0; q < a.size(); ++q) d = std::max(d, std::abs(a[q] - b[q]));
  return d;
}

}  // namespace

class PeridynamicStepperTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PeridynamicStepperTest);
  CPPUNIT_TEST(substitutionIsMonotoneAndConverges);
  CPPUNIT_TEST(substitutionSameBitsForAnyThreadCount);
  CPPUNIT_TEST(newtonAgreesWithSubstitution);
  CPPUNIT_TEST(staticsHoldsPrescribedPoints);
  CPPUNIT_TEST(verletStableStepAndStatics);
  CPPUNIT_TEST(badOptionsAreRefused);
  CPPUNIT_TEST(simulationBreaksBondsAndKeepsMomentum);
  CPPUNIT_TEST_SUITE_END();

 public:
  // An implicit step of 10 explicit stable steps on an 8³ block: Φ never increases and the
  // relative residual reaches 1e-6, with and without the conjugate directions.
  void substitutionIsMonotoneAndConverges() {
    auto b = block(8);
    PeridynamicStepOptions so;
    so.h = 10.0 * VelocityVerlet::stableStep(*b);
    so.tolerance = 1e-6;
    so.maxIterations = 2000;
    std::vector<double> x(3 * b->size()), v(x.size());
    for (bool accelerate : {true, false}) {
      so.accelerate = accelerate;
      SuccessiveSubstitution ss;
      const PeridynamicStepReport r = ss.freeStep(*b, so, x.data(), v.data());
      std::printf("\n  substitution (%s): %d iterations, residual %.2e, Phi %.4e -> %.4e",
                  accelerate ? "conjugate" : "Jacobi", r.iterations, r.residual, r.energyStart,
                  r.energyEnd);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, r.status);
      CPPUNIT_ASSERT(r.monotone);
      CPPUNIT_ASSERT(r.residual <= 1e-6);
      CPPUNIT_ASSERT(r.energyEnd < r.energyStart);
      CPPUNIT_ASSERT(r.bondUpdates >= b->bondCount() * static_cast<std::size_t>(r.iterations));
    }
    std::printf("\n");
  }

  void substitutionSameBitsForAnyThreadCount() {
    std::vector<double> x[2], v[2];
    for (int t = 0; t < 2; ++t) {
      auto b = block(8, t + 1);
      PeridynamicStepOptions so;
      so.h = 10.0 * VelocityVerlet::stableStep(*b);
      so.threads = t + 1;
      x[t].resize(3 * b->size());
      v[t].resize(3 * b->size());
      SuccessiveSubstitution ss;
      ss.freeStep(*b, so, x[t].data(), v[t].data());
    }
    CPPUNIT_ASSERT(std::memcmp(x[0].data(), x[1].data(), x[0].size() * sizeof(double)) == 0);
    CPPUNIT_ASSERT(std::memcmp(v[0].data(), v[1].data(), v[0].size() * sizeof(double)) == 0);
  }

  // Both minimise the same Φ: positions agree to the tolerance, for θ = 1 and θ = 1/2.
  void newtonAgreesWithSubstitution() {
    auto b = block(6);
    for (double theta : {1.0, 0.5}) {
      PeridynamicStepOptions so;
      so.h = 10.0 * VelocityVerlet::stableStep(*b);
      so.theta = theta;
      so.tolerance = 1e-9;
      so.maxIterations = 5000;
      std::vector<double> x1(3 * b->size()), v1(x1.size()), x2(x1.size()), v2(x1.size());
      SuccessiveSubstitution ss;
      NewtonCholmod newton;
      const auto r1 = ss.freeStep(*b, so, x1.data(), v1.data());
      const auto r2 = newton.freeStep(*b, so, x2.data(), v2.data());
      CPPUNIT_ASSERT_EQUAL(NSD_OK, r1.status);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, r2.status);
      CPPUNIT_ASSERT(r2.iterations <= 5);
      CPPUNIT_ASSERT_EQUAL(1, newton.analyses());
      const double move = maxDifference(x2, b->x);
      CPPUNIT_ASSERT(maxDifference(x1, x2) < 1e-6 * move);
      CPPUNIT_ASSERT(maxDifference(v1, v2) < 1e-5);
    }
  }

  // h = 0: the bottom layers held, a load on the top face; the held points do not move, the
  // loaded ones move along the load, both methods agree.
  void staticsHoldsPrescribedPoints() {
    auto b = block(6);
    std::fill(b->v.begin(), b->v.end(), 0.0);
    const std::size_t held = b->prescribe([](const double* X) { return X[2] < -1.5 * kDx; });
    CPPUNIT_ASSERT(held > 0);
    for (std::size_t i = 0; i < b->size(); ++i)
      if (b->X[3 * i + 2] > 2.0 * kDx) b->force[3 * i + 2] = 10.0;
    PeridynamicStepOptions so;
    so.h = 0.0;
    so.tolerance = 1e-8;
    so.maxIterations = 5000;
    std::vector<double> x1(3 * b->size()), v(x1.size()), x2(x1.size());
    NewtonCholmod newton;
    SuccessiveSubstitution ss;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, newton.freeStep(*b, so, x2.data(), v.data()).status);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, ss.freeStep(*b, so, x1.data(), v.data()).status);
    for (std::size_t i = 0; i < b->size(); ++i) {
      if (b->prescribed[i])
        for (int k = 0; k < 3; ++k) CPPUNIT_ASSERT_EQUAL(b->x[3 * i + k], x2[3 * i + k]);
      if (b->X[3 * i + 2] > 2.0 * kDx) CPPUNIT_ASSERT(x2[3 * i + 2] > b->x[3 * i + 2]);
    }
    CPPUNIT_ASSERT(maxDifference(x1, x2) < 1e-5 * maxDifference(x2, b->x));
  }

  void verletStableStepAndStatics() {
    auto b = block(6);
    const double h = VelocityVerlet::stableStep(*b);
    // Silling–Askari for δ = 3Δx is about 0.95 Δx / c_p
    const double cp = b->material().waveSpeed(kRho);
    CPPUNIT_ASSERT(h > 0.5 * kDx / cp && h <= kDx / cp);
    VelocityVerlet verlet;
    PeridynamicStepOptions so;
    so.h = 0.5 * h;
    std::vector<double> x(3 * b->size()), v(x.size());
    const auto r = verlet.freeStep(*b, so, x.data(), v.data());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(h, r.stableStep, 1e-12 * h);
    so.h = 0.0;
    CPPUNIT_ASSERT_THROW(verlet.freeStep(*b, so, x.data(), v.data()), Error);
  }

  void badOptionsAreRefused() {
    auto b = block(4);
    std::vector<double> x(3 * b->size()), v(x.size());
    for (const char* name : {"substitution", "newton"}) {
      auto s = makePeridynamicStepper(name);
      CPPUNIT_ASSERT_EQUAL(std::string(name), s->name());
      PeridynamicStepOptions so;
      so.h = -1.0;
      CPPUNIT_ASSERT_THROW(s->freeStep(*b, so, x.data(), v.data()), Error);
      so.h = 1e-6;
      so.theta = 0.4;
      try {
        s->freeStep(*b, so, x.data(), v.data());
        CPPUNIT_FAIL("theta = 0.4 accepted");
      } catch (const Error& e) {
        CPPUNIT_ASSERT(std::string(e.what()).find("theta") != std::string::npos);
        CPPUNIT_ASSERT(std::string(e.what()).find("block") != std::string::npos);
      }
    }
    CPPUNIT_ASSERT_EQUAL(std::string("substitution"), makePeridynamicStepper("ss")->name());
    try {
      makePeridynamicStepper("rk4");
      CPPUNIT_FAIL("rk4 accepted");
    } catch (const Error& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("rk4") != std::string::npos);
    }
  }

  // Two halves of a block pulled apart fast: bonds break after the steps (reported), the
  // momentum of the free body is kept.
  void simulationBreaksBondsAndKeepsMomentum() {
    PeridynamicBodyOptions o;
    o.name = "brittle";
    o.spacing = kDx;
    o.horizon = 3.0 * kDx;
    o.density = kRho;
    std::shared_ptr<PeridynamicBody> b = peridynamics::box(
        {0, 0, 0}, {3 * kDx, 2 * kDx, 2 * kDx}, o, stepper_test::pmb(kE, 3.0 * kDx, 1e-3));
    for (std::size_t i = 0; i < b->size(); ++i) b->v[3 * i] = b->X[3 * i] > 0 ? 20.0 : -20.0;
    PeridynamicSimulation::Options options;
    options.step.h = 2.0 * VelocityVerlet::stableStep(*b);
    PeridynamicSimulation sim(options);
    sim.add(b);
    const auto p0 = b->momentum();
    std::size_t broken = 0;
    for (int k = 0; k < 20; ++k) broken += sim.step().bondsBroken;
    CPPUNIT_ASSERT(broken > 0);
    CPPUNIT_ASSERT_EQUAL(broken, b->brokenBonds());
    CPPUNIT_ASSERT_EQUAL(20L, sim.steps());
    const auto p1 = b->momentum();
    for (int k = 0; k < 3; ++k) CPPUNIT_ASSERT(std::abs(p1[k] - p0[k]) < 1e-9);
    CPPUNIT_ASSERT(sim.lastReport().kineticEnergy > 0.0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PeridynamicStepperTest);
