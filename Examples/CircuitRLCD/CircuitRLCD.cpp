// CircuitRLCD: an LC tank in parallel with a resistor and one ideal diode in
// series, simulated by Euler-Moreau time-stepping with an LCP per step.
//
// The capacitor (C = 1 uF) and the inductor (L = 10 mH) exchange energy; the
// branch R = 1 kOhm + diode only conducts while the capacitor voltage is
// positive, so one half-wave in two is damped and the other is not.
//
//   x = (V_C, I_L),   x' = A x + r,   A = [[0, -1/C], [1/L, 0]]
//   y = R lambda - V_C   (diode reverse voltage),  r = (-lambda/C, 0)
//   0 <= y  _|_  lambda >= 0   (lambda: diode current)
//
// usage: CircuitRLCD [--output DIR] [--no-plot]
// writes DIR/CircuitRLCD.csv (6 columns, see README.md) and DIR/CircuitRLCD.png.
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

// Circuit (SI units).
constexpr double kInductance = 1e-2;      // L, H
constexpr double kCapacitance = 1e-6;     // C, F
constexpr double kResistance = 1e3;       // R, Ohm
constexpr double kInitialVoltage = 10.0;  // V_C(0), V
constexpr double kInitialCurrent = 0.0;   // I_L(0), A

// Scheme: theta is 0.5000000000001 in the original driver, kept as is.
constexpr double kT0 = 0.0;
constexpr double kFinalTime = 5e-3;
constexpr double kTimeStep = 1e-5;
constexpr double kTheta = 0.5000000000001;

// Lemke: at most 10,000 pivots; the tolerance only checks the residual afterwards.
constexpr int kLemkePivots = 10000;
constexpr double kLemkeTolerance = 1e-6;

const std::vector<std::string> kColumns = {"time",          "capacitor_voltage", "inductor_current",
                                           "diode_voltage", "diode_current",     "r0"};

}  // namespace

int main(int argc, char** argv) {
  const examples::ExampleOptions options = examples::parseArguments(
      argc, argv, "CircuitRLCD", "LC tank with a resistor-diode branch, Euler-Moreau + LCP");

  try {
    // The LC tank: x = (V_C, I_L), x' = A x + r.
    SimpleMatrix A{{0.0, -1.0 / kCapacitance}, {1.0 / kInductance, 0.0}};
    auto tank =
        std::make_shared<FirstOrderLinearTIDS>(SiconosVector{kInitialVoltage, kInitialCurrent}, A);

    // The diode branch: y = -V_C + R lambda, r = B lambda, complementarity.
    SimpleMatrix Cr{{-1.0, 0.0}};
    SimpleMatrix D{{kResistance}};
    SimpleMatrix B{{-1.0 / kCapacitance}, {0.0}};
    auto relation = std::make_shared<FirstOrderLinearTIR>(Cr, D, B);
    auto law = std::make_shared<ComplementarityConditionNSL>(1);
    auto diode = std::make_shared<Interaction>(law, relation);

    auto model = std::make_shared<Model>(kT0, kFinalTime);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(tank);
    model->nonSmoothDynamicalSystem()->link(diode, tank);

    // Euler-Moreau with a Lemke LCP at every step.
    auto td = std::make_shared<TimeDiscretisation>(kT0, kTimeStep);
    auto osi = std::make_shared<EulerMoreauOSI>(kTheta);
    auto lcp = std::make_shared<LCP>("lemke");
    lcp->optionsMutable().max_iterations = kLemkePivots;
    lcp->optionsMutable().tolerance = kLemkeTolerance;
    // Lemke is direct: every step is solved from scratch (no warm start), so the
    // solution is exact and not a previous lambda that passes the tolerance.
    lcp->setWarmStart(false);
    auto sim = std::make_shared<TimeStepping>(td, osi, lcp);
    model->initialize(sim);

    // N = ceil((T - t0)/h) rows: row 0 is the initial state, steps 1 .. N-1.
    const long rows = static_cast<long>(std::ceil((kFinalTime - kT0) / kTimeStep));
    const std::string csvPath = examples::joinPath(options.outputDir, "CircuitRLCD.csv");
    examples::CsvWriter csv(csvPath, kColumns);

    // Row 0: outputs evaluated once at t0 with lambda = 0 (y = -V_C, not complementary).
    csv.row({kT0, tank->x()(0), tank->x()(1), -diode->y(0)(0), diode->lambda(0)(0), tank->r()(0)});

    long conducting = 0;
    examples::WallClock clock;
    examples::Progress progress(rows - 1, options.quiet);
    for (long k = 1; k < rows; ++k) {
      sim->computeOneStep();
      // Column 5 holds r(0) at t0 only (the original driver never updates it).
      csv.row(
          {sim->nextTime(), tank->x()(0), tank->x()(1), -diode->y(0)(0), diode->lambda(0)(0), 0.0});
      if (diode->lambda(0)(0) > 0.0) ++conducting;
      sim->nextStep();
      progress.update(k);
    }
    progress.finish();
    const double wall = clock.seconds();

    // Summary and plot.
    examples::printSummary("CircuitRLCD", *sim, wall, "steps with an LCP");
    std::printf("  steps with diode current: %ld\n", conducting);
    std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(), csv.rows());
    if (options.plot) {
      const std::string png = examples::joinPath(options.outputDir, "CircuitRLCD.png");
      const bool ok = examples::gnuplotPng(
          csvPath, png, "CircuitRLCD: LC tank with a half-wave R-diode branch",
          {{2, "V_C", 0}, {4, "diode voltage", 0}, {3, "I_L", 1}, {5, "diode current", 1}},
          {"voltage (V)", "current (A)"});
      std::printf("  plot:                    %s\n",
                  ok ? png.c_str() : "not drawn (is gnuplot installed?)");
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "CircuitRLCD: %s\n", e.what());
    return 1;
  }
  return examples::exitStatus();
}
