// FrictionOscillator: a harmonic oscillator with dry (Coulomb) friction,
// written as a first-order linear system with a relay, integrated by
// Euler-Moreau time-stepping with a Relay problem (Lemke) per step.
//
//   x = (x1, x2) = (position, velocity),  x' = A x + B lambda,
//   A = [[0, 1], [-k/m, 0]],  B = (0, alpha),  y = x2,
//   -y in N_[-1,1](lambda):  lambda = -sign(x2) while sliding, |lambda| <= 1 at rest,
// i.e. x1'' + x1 = lambda with k = m = alpha = 1.
//
// usage: FrictionOscillator [--output DIR] [--no-plot]
// writes DIR/FrictionOscillator.csv (10 columns, see README.md) and DIR/FrictionOscillator.png.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>

#include "example_utils.hpp"

using namespace nsdyn;

namespace {

// Oscillator and friction.
constexpr double kStiffness = 1.0;    // k
constexpr double kMass = 1.0;         // m
constexpr double kInputGain = 1.0;    // alpha: friction force = alpha lambda
constexpr double kLowerBound = -1.0;  // relay bounds of lambda
constexpr double kUpperBound = 1.0;
constexpr double kInitialPosition = 12.0;
constexpr double kInitialVelocity = 6.0;

// Scheme.
constexpr double kT0 = 0.0;
constexpr double kFinalTime = 100.0;
constexpr double kTimeStep = 1e-2;
constexpr double kTheta = 0.5;
constexpr double kRelayTolerance = 1e-8;  // SICONOS_RELAY_LEMKE tolerance

const std::vector<std::string> kColumns = {"time",  "x1",    "x2",   "lambda", "y",
                                           "zero1", "zero2", "rhs1", "rhs2",   "zero3"};

}  // namespace

int main(int argc, char** argv) {
  const examples::ExampleOptions options = examples::parseArguments(
      argc, argv, "FrictionOscillator", "oscillator with dry friction, Euler-Moreau + Relay");

  try {
    // The oscillator: x' = A x + r.
    SimpleMatrix A{{0.0, 1.0}, {-kStiffness / kMass, 0.0}};
    auto oscillator =
        std::make_shared<FirstOrderLinearDS>(SiconosVector{kInitialPosition, kInitialVelocity}, A);

    // Friction: y = x2, r = B lambda, relay on [-1, 1].
    SimpleMatrix C{{0.0, 1.0}};
    SimpleMatrix B{{0.0}, {kInputGain}};
    auto relation = std::make_shared<FirstOrderLinearR>(C, B);
    auto law = std::make_shared<RelayNSL>(1, kLowerBound, kUpperBound);
    auto friction = std::make_shared<Interaction>(law, relation);

    auto model = std::make_shared<Model>(kT0, kFinalTime);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(oscillator);
    model->nonSmoothDynamicalSystem()->link(friction, oscillator);

    // Euler-Moreau with a Relay problem solved by Lemke on its LCP reformulation.
    auto td = std::make_shared<TimeDiscretisation>(kT0, kTimeStep);
    auto osi = std::make_shared<EulerMoreauOSI>(kTheta);
    auto relay = std::make_shared<Relay>("lemke");
    relay->optionsMutable().tolerance = kRelayTolerance;
    // Lemke is direct: every step is solved from scratch (no warm start), so the
    // solution is exact and not a previous lambda that passes the tolerance.
    relay->setWarmStart(false);
    auto sim = std::make_shared<TimeStepping>(td, osi, relay);
    model->initialize(sim);

    // N = ceil((T - t0)/h) rows: row 0 is the initial state, steps 1 .. N-1. The
    // rows are kept until the end: row 0 takes the vector field of row 1.
    const long rows = static_cast<long>(std::ceil((kFinalTime - kT0) / kTimeStep));
    std::vector<std::vector<double>> table;
    table.reserve(static_cast<std::size_t>(rows));
    // Row 0: lambda and y are 0.
    table.push_back(
        {kT0, oscillator->x()(0), oscillator->x()(1), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0});

    long sticking = 0;
    examples::WallClock clock;
    examples::Progress progress(rows - 1, options.quiet);
    for (long k = 1; k < rows; ++k) {
      sim->computeOneStep();
      // The vector field A x + B lambda at the end of the step.
      const double t = sim->nextTime();
      const SiconosVector rhs = oscillator->computeRhs(t);
      const double lambda = friction->lambda(0)(0);
      table.push_back({t, oscillator->x()(0), oscillator->x()(1), lambda, friction->y(0)(0), 0.0,
                       0.0, rhs(0), rhs(1), 0.0});
      if (lambda > kLowerBound && lambda < kUpperBound) ++sticking;
      sim->nextStep();
      progress.update(k);
    }
    progress.finish();
    const double wall = clock.seconds();
    if (rows > 1) {
      table[0][7] = table[1][7];
      table[0][8] = table[1][8];
    }

    // Results: CSV, summary and plot.
    const std::string csvPath = examples::joinPath(options.outputDir, "FrictionOscillator.csv");
    examples::CsvWriter csv(csvPath, kColumns);
    for (const std::vector<double>& row : table) csv.row(row);

    examples::printSummary("FrictionOscillator", *sim, wall, "steps with a relay problem");
    std::printf("  sticking steps:          %ld (|lambda| < 1)\n", sticking);
    std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(), csv.rows());
    if (options.plot) {
      const std::string png = examples::joinPath(options.outputDir, "FrictionOscillator.png");
      const bool ok = examples::gnuplotPng(
          csvPath, png, "FrictionOscillator: harmonic oscillator with dry friction",
          {{2, "x1", 0}, {3, "x2", 0}, {4, "lambda", 1}},
          {"position, velocity", "friction lambda"});
      std::printf("  plot:                    %s\n",
                  ok ? png.c_str() : "not drawn (is gnuplot installed?)");
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "FrictionOscillator: %s\n", e.what());
    return 1;
  }
  return examples::exitStatus();
}
