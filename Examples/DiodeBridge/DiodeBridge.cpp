// DiodeBridge: an LC oscillator discharging through a full-wave bridge of four
// ideal diodes into a resistor; Euler-Moreau time-stepping with an LCP
// (the Siconos example; shared/reference/README.md §2).
//
//   build/bin/DiodeBridge [--output DIR] [--no-plot] [--quiet]
//
// Writes DIR/DiodeBridge.csv: t, V_C, I_L, I_R1, V_R1, V_F2, I_F1, I_resistor
// (5000 rows, t = 0 ... 4.999e-3) and DIR/DiodeBridge.png.
#include <cmath>
#include <cstdio>
#include <nsdyn/Kernel.hpp>

#include "example_utils.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const examples::ExampleOptions opt =
      examples::parseArguments(argc, argv, "DiodeBridge",
                               "LC oscillator and diode bridge, Euler-Moreau time-stepping + LCP");

  // Parameters (reference README §2)
  const double L = 1e-2, C = 1e-6, R = 1e3;
  const double t0 = 0.0, T = 5e-3, h = 1.0e-6, theta = 0.5;
  const double Vinit = 10.0;
  const long N = static_cast<long>(std::ceil((T - t0) / h));  // rows; steps 1 ... N-1

  try {
    // x = (V_C, I_L): x' = A x + r, A = [[0, -1/C], [1/L, 0]]
    auto lc = std::make_shared<FirstOrderLinearTIDS>(SiconosVector{Vinit, 0.0},
                                                     SimpleMatrix{{0.0, -1.0 / C}, {1.0 / L, 0.0}});

    // Diodes: y = C_r x + D lambda, r = B lambda, 0 <= y _|_ lambda >= 0 (4 rows)
    SimpleMatrix Cr(4, 2);
    Cr(2, 0) = -1.0;
    Cr(3, 0) = 1.0;
    const SimpleMatrix D{{1.0 / R, 1.0 / R, -1.0, 0.0},
                         {1.0 / R, 1.0 / R, 0.0, -1.0},
                         {1.0, 0.0, 0.0, 0.0},
                         {0.0, 1.0, 0.0, 0.0}};
    SimpleMatrix B(2, 4);
    B(0, 2) = -1.0 / C;
    B(0, 3) = 1.0 / C;
    auto bridge = std::make_shared<Interaction>(std::make_shared<ComplementarityConditionNSL>(4),
                                                std::make_shared<FirstOrderLinearTIR>(Cr, D, B));

    auto model = std::make_shared<Model>(t0, T);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(lc);
    model->nonSmoothDynamicalSystem()->link(bridge, lc);

    // Euler-Moreau theta = 1/2, LCP by Lemke
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(t0, h),
                                              std::make_shared<EulerMoreauOSI>(theta),
                                              std::make_shared<LCP>("lemke"));
    model->initialize(sim);

    // Output: row 0 is the initial state with the diode quantities at 0
    const std::string csvPath = examples::joinPath(opt.outputDir, "DiodeBridge.csv");
    examples::CsvWriter csv(csvPath,
                            {"t", "V_C", "I_L", "I_R1", "V_R1", "V_F2", "I_F1", "I_resistor"});
    csv.row({t0, lc->x()(0), lc->x()(1), 0.0, 0.0, 0.0, 0.0, 0.0});

    examples::WallClock clock;
    examples::Progress progress(N - 1, opt.quiet);
    for (long k = 1; k < N; ++k) {
      sim->computeOneStep();
      const SiconosVector& y = bridge->y(0);
      const SiconosVector& lambda = bridge->lambda(0);
      csv.row({sim->nextTime(), lc->x()(0), lc->x()(1), y(0), -lambda(0), -lambda(1), lambda(2),
               y(0) + lambda(2)});
      sim->nextStep();
      progress.update(k);
    }
    progress.finish();
    const double wall = clock.seconds();

    examples::printSummary("DiodeBridge", *sim, wall, "steps with the LCP solved");
    std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(), csv.rows());
    if (opt.plot) {
      const std::string png = examples::joinPath(opt.outputDir, "DiodeBridge.png");
      const bool ok =
          examples::gnuplotPng(csvPath, png, "DiodeBridge: LC oscillator through a diode bridge",
                               {{2, "V_C", 0}, {3, "I_L", 1}, {8, "I_resistor", 1}},
                               {"capacitor voltage (V)", "current (A)"});
      std::printf("  plot:                    %s\n",
                  ok ? png.c_str() : "not drawn (is gnuplot installed?)");
    }
  } catch (const Error& err) {
    std::fprintf(stderr, "DiodeBridge: %s\n", err.what());
    return 1;
  }
  return examples::exitStatus();
}
