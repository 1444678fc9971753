// The physical checks of issue 28 that the steppers own (doc/peridynamics.md): a bar in
// uniaxial tension (Young's modulus recovered from the mid-bar strain, Newton statics), the
// longitudinal wave speed of a thin bar (explicit Verlet, period of the fundamental mode),
// the total energy of a vibrating plate over 10,000 steps of θ = 1/2, a Neo-Hookean bar
// stretched to λ = 2 against the uniaxial closed form.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/NeoHookeanMaterial.hpp>
#include <nsdyn/NewtonCholmod.hpp>
#include <nsdyn/PeridynamicGenerators.hpp>
#include <nsdyn/PeridynamicSimulation.hpp>
#include <nsdyn/VelocityVerlet.hpp>

#include "StepperTestMaterials.hpp"
#include "test_params.hpp"

using namespace nsdyn;

namespace {

constexpr double kDx = 1e-3;     // lattice spacing (m)
constexpr double kE = 1e9;       // Young's modulus (Pa)
constexpr double kRho = 2000.0;  // density (kg/m³)

PeridynamicBodyOptions barOptions() {
  PeridynamicBodyOptions o;
  o.name = "bar";
  o.spacing = kDx;
  o.horizon = 3.0 * kDx;
  o.density = kRho;
  o.surfaceCorrection = true;
  o.threads = 1;  // small bodies: one thread (a busy CI machine makes a second one wait)
  return o;
}

// Mean x-displacement of the points of the cross-section at x = xs.
double sectionDisplacement(const PeridynamicBody& b, const double* x, double xs) {
  double s = 0.0;
  int count = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (std::abs(b.X[3 * i] - xs) < 0.4 * kDx) {
      s += x[3 * i] - b.X[3 * i];
      ++count;
    }
  return s / count;
}

}  // namespace

class PeridynamicChecksTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PeridynamicChecksTest);
  CPPUNIT_TEST(barInTensionRecoversYoungsModulus);
  CPPUNIT_TEST(thinBarWaveSpeed);
  CPPUNIT_TEST(plateKeepsEnergyWithHalfTheta);
  CPPUNIT_TEST(neoHookeanBarToStretchTwo);
  CPPUNIT_TEST_SUITE_END();

 public:
  // A 30 × 8 × 8 bar held by 3 prescribed layers at x = 0, an end load F on its last layer:
  // E = (F / A) / ε with ε between the sections at L/3 and 2L/3.
  void barInTensionRecoversYoungsModulus() {
    const int nl = 30, nw = 12;
    const double L = nl * kDx, w = nw * kDx;
    auto body = peridynamics::box({L / 2, 0, 0}, {L / 2, w / 2, w / 2}, barOptions(),
                                  stepper_test::pmb(kE, 3.0 * kDx));
    body->prescribe([&](const double* X) { return X[0] < 3.0 * kDx; });
    const double F = 1e-4 * kE * w * w;  // a strain of about 1e-4
    int loaded = 0;
    for (std::size_t i = 0; i < body->size(); ++i) loaded += body->X[3 * i] > L - kDx;
    for (std::size_t i = 0; i < body->size(); ++i)
      if (body->X[3 * i] > L - kDx) body->force[3 * i] = F / loaded;
    NewtonCholmod newton;
    PeridynamicStepOptions so;
    so.h = 0.0;
    so.tolerance = 1e-8;
    std::vector<double> x(3 * body->size()), v(x.size());
    const PeridynamicStepReport r = newton.freeStep(*body, so, x.data(), v.data());
    CPPUNIT_ASSERT_EQUAL(NSD_OK, r.status);
    const double xa = kDx * (nl / 3 + 0.5), xb = kDx * (2 * nl / 3 + 0.5);
    const double strain =
        (sectionDisplacement(*body, x.data(), xb) - sectionDisplacement(*body, x.data(), xa)) /
        (xb - xa);
    const double E = F / (w * w) / strain;
    std::printf("\n  bar %d x %d x %d: E / E_input = %.4f (Newton: %d iterations, %.3f s)\n", nl,
                nw, nw, E / kE, r.iterations, r.seconds);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, E / kE, 0.03);
  }

  // A free 60 × 6 × 6 bar started in its fundamental longitudinal mode (v = V cos(πX/L)):
  // the period of the end-to-end stretch is 2L / c, c = √(E/ρ).
  void thinBarWaveSpeed() {
    const int nl = 60, nw = 8;
    const double L = nl * kDx, w = nw * kDx;
    auto body = peridynamics::box({L / 2, 0, 0}, {L / 2, w / 2, w / 2}, barOptions(),
                                  stepper_test::pmb(kE, 3.0 * kDx));
    const double V = 1e-3;
    for (std::size_t i = 0; i < body->size(); ++i)
      body->v[3 * i] = V * std::cos(M_PI * body->X[3 * i] / L);
    VelocityVerlet verlet;
    PeridynamicStepOptions so;
    so.h = 0.5 * VelocityVerlet::stableStep(*body);
    std::vector<double> x(3 * body->size()), v(x.size());
    // signal: mean x-displacement of the last layer minus the first's
    auto signal = [&]() {
      return sectionDisplacement(*body, body->x.data(), L - 0.5 * kDx) -
             sectionDisplacement(*body, body->x.data(), 0.5 * kDx);
    };
    double previous = signal(), t = 0.0;
    std::vector<double> crossings;  // downward zero crossings of the signal
    const double c = std::sqrt(kE / kRho), period = 2.0 * L / c;
    while (t < 2.6 * period) {
      verlet.freeStep(*body, so, x.data(), v.data());
      body->x = x;
      body->v = v;
      t += so.h;
      const double s = signal();
      if (previous > 0.0 && s <= 0.0) crossings.push_back(t - so.h * s / (s - previous));
      previous = s;
    }
    CPPUNIT_ASSERT(crossings.size() >= 2);
    const double measured = crossings.back() - crossings[crossings.size() - 2];
    const double speed = 2.0 * L / measured;
    std::printf("  wave speed %.2f m/s, sqrt(E/rho) = %.2f m/s: ratio %.4f (h = %.3g s)\n", speed,
                c, speed / c, so.h);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, speed / c, 0.03);
  }

  // A free 6 × 6 × 2 plate vibrating in bending and stretching at strains of a few 1e-6:
  // θ = 1/2 (Newton), 10,000 steps of 0.3 explicit stable steps; total energy within 1e-6 of
  // its start. Measured (linear springs: 1.6e-10 at any h): the trapezoidal rule's energy
  // error on the geometric nonlinearity grows with hω of the highest modes (PMB springs at
  // v = 1 mm/s: 1.3e-3 at h = 5 stable steps, 3.2e-6 at 1, 8.5e-8 at 0.3), and the
  // tolerance is the round-off floor of the residual at such small displacements (~1e-8 of
  // the net forces: positions are absolute). Parameters v=, hfactor=, tol=, method= on the
  // command line.
  void plateKeepsEnergyWithHalfTheta() {
    const double kV = std::stod(nsdyn::test::param("v", "1e-3"));
    const double hFactor = std::stod(nsdyn::test::param("hfactor", "0.3"));
    PeridynamicSimulation::Options options;
    options.method = nsdyn::test::param("method", "newton");
    options.fracture = false;
    options.step.theta = 0.5;
    options.step.tolerance = std::stod(nsdyn::test::param("tol", "1e-7"));
    auto o = barOptions();
    o.name = "plate";
    std::shared_ptr<PeridynamicBody> plate =
        peridynamics::box({0, 0, 0}, {3 * kDx, 3 * kDx, kDx}, o, stepper_test::pmb(kE, 3.0 * kDx));
    // Bending (v_z even in x and y, its mean removed) and stretching (v_x odd in x): no net
    // momentum, no rotation; strains of a few 1e-6 (linear range).
    double mean = 0.0;
    for (std::size_t i = 0; i < plate->size(); ++i) {
      const double* X = &plate->X[3 * i];
      plate->v[3 * i + 2] =
          kV * std::cos(M_PI * X[0] / (6 * kDx)) * std::cos(M_PI * X[1] / (6 * kDx));
      plate->v[3 * i] = kV * std::sin(M_PI * X[0] / (6 * kDx));
      mean += plate->v[3 * i + 2] / plate->size();
    }
    for (std::size_t i = 0; i < plate->size(); ++i) plate->v[3 * i + 2] -= mean;
    options.step.h = hFactor * VelocityVerlet::stableStep(*plate);
    PeridynamicSimulation run(options);
    run.add(plate);
    const double e0 = run.totalEnergy();
    double worst = 0.0;
    int iterations = 0;
    for (int k = 0; k < 10000; ++k) {
      const auto& r = run.step();
      iterations += r.solver.iterations;
      worst = std::max(worst, std::abs(run.totalEnergy() - e0) / e0);
    }
    std::printf(
        "  plate %zu points, 10000 steps of theta = 1/2: max |E - E0| / E0 = %.2e "
        "(%.2f Newton iterations a step)\n",
        plate->size(), worst, iterations / 1e4);
    CPPUNIT_ASSERT(worst < 1e-6);
  }

  // A Neo-Hookean bar (24 × 6 × 6, E = 1 MPa, ν = 0.3) held at x = 0 and pulled by a nominal
  // stress P on its end layer, in 4 load steps up to the closed-form P(λ = 2), each solved by
  // the substitution's statics (relative residual 1e-3) from the last: at every step the
  // mid-bar stretch λ (sections at L/3 and 2L/3) and P lie within 5 % of the uniaxial closed
  // form, and the last λ is about 2. (Newton converges only linearly here: the correspondence
  // tangent is an approximation: at a relative residual of 1e-4, 355 iterations and 21 s
  // against 1079 iterations and 3.3 s.)
  // Parameters nh-method=, nh-tol=, nh-loads= on the command line.
  void neoHookeanBarToStretchTwo() {
    const int nl = 24, nw = 6;
    const double L = nl * kDx, w = nw * kDx, E = 1e6, nu = 0.3;
    PeridynamicElasticity e;
    e.youngModulus = E;
    e.poissonRatio = nu;
    auto o = barOptions();
    o.name = "rubber";
    o.density = 1000.0;
    std::shared_ptr<PeridynamicBody> bar = peridynamics::box(
        {L / 2, 0, 0}, {L / 2, w / 2, w / 2}, o, std::make_shared<NeoHookeanMaterial>(e));
    bar->prescribe([&](const double* X) { return X[0] < 2.0 * kDx; });
    std::vector<std::size_t> end;
    for (std::size_t i = 0; i < bar->size(); ++i)
      if (bar->X[3 * i] > L - kDx) end.push_back(i);
    const double mu = E / (2 * (1 + nu)), lam = E * nu / ((1 + nu) * (1 - 2 * nu));
    // Uniaxial closed form: lateral stretch t from ∂W/∂λ2 = 0, i.e. μ t² − μ + Λ ln(λ t²) = 0
    // (increasing in t: bisection), then P = ∂W/∂λ1 = μ λ − μ / λ + Λ ln(λ t²) / λ.
    auto nominal = [&](double stretch) {
      double lo = 1e-3, hi = 1.0;
      for (int k = 0; k < 200; ++k) {
        const double t = 0.5 * (lo + hi);
        (mu * t * t - mu + lam * std::log(stretch * t * t) > 0.0 ? hi : lo) = t;
      }
      const double t = 0.5 * (lo + hi);
      return mu * stretch - mu / stretch + lam * std::log(stretch * t * t) / stretch;
    };
    PeridynamicSimulation::Options options;
    options.method = nsdyn::test::param("nh-method", "substitution");
    options.fracture = false;
    options.step.tolerance = std::stod(nsdyn::test::param("nh-tol", "1e-3"));
    options.step.maxIterations = 500;
    PeridynamicSimulation sim(options);
    sim.add(bar);
    const double pMax = nominal(2.0);
    const int loads = std::stoi(nsdyn::test::param("nh-loads", "4"));
    double stretch = 1.0;
    int iterations = 0;
    for (int k = 1; k <= loads; ++k) {
      const double P = pMax * k / loads;
      for (std::size_t i : end) bar->force[3 * i] = P * w * w / end.size();
      const auto& r = sim.equilibrium();
      iterations += r.solver.iterations;
      if (r.solver.status != NSD_OK)
        std::printf("  load %d: %d iterations, residual %.2e\n", k, r.solver.iterations,
                    r.solver.residual);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, r.solver.status);
      const double xa = kDx * (nl / 3 + 0.5), xb = kDx * (2 * nl / 3 + 0.5);
      stretch = 1.0 + (sectionDisplacement(*bar, bar->x.data(), xb) -
                       sectionDisplacement(*bar, bar->x.data(), xa)) /
                          (xb - xa);
      const double expected = nominal(stretch);
      std::printf(
          "  neo-Hookean: P = %.4e Pa, mid-bar stretch %.4f, closed form P(stretch) = "
          "%.4e Pa: ratio %.4f\n",
          P, stretch, expected, P / expected);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, P / expected, 0.05);
    }
    std::printf("  (%d iterations in all)\n", iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, stretch, 0.1);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PeridynamicChecksTest);
