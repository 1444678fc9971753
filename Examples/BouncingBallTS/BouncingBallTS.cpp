// BouncingBallTS: a ball bouncing on a rigid floor, Moreau-Jean time-stepping
// with the Newton impact law (the Siconos example; shared/reference/README.md §1).
//
//   build/bin/BouncingBallTS [--output DIR] [--no-plot] [--quiet]
//
// Writes DIR/BouncingBallTS.csv: t, z, zdot, p_z, lambda (2001 rows, t = 0 ... 10)
// and DIR/BouncingBallTS.png.
#include <cmath>
#include <cstdio>
#include <nsdyn/Kernel.hpp>

#include "example_utils.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, "BouncingBallTS", "bouncing ball, Moreau-Jean time-stepping + LCP");

  // Parameters (reference README §1)
  const double t0 = 0.0, T = 10.0, h = 0.005, theta = 0.5;
  const double m = 1.0, R = 0.1, g = 9.81, e = 0.9;
  const long N = static_cast<long>(std::ceil((T - t0) / h));

  try {
    // The ball: q = (z, x, rotation), M = diag(m, m, 2/5 m R^2), weight -m g on z
    auto ball = std::make_shared<LagrangianLinearTIDS>(
        SiconosVector{1.0, 0.0, 0.0}, SiconosVector{0.0, 0.0, 0.0},
        SimpleMatrix::diagonal(SiconosVector{m, m, 0.4 * m * R * R}));
    ball->setFExt(SiconosVector{-m * g, 0.0, 0.0});

    // The floor: gap y = z (H = [1 0 0], no offset), Newton impact law e
    auto floorContact = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(e),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0, 0.0, 0.0}}));

    auto model = std::make_shared<Model>(t0, T);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ball);
    model->nonSmoothDynamicalSystem()->link(floorContact, ball);

    // Moreau-Jean theta = 1/2, LCP by Lemke
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(t0, h),
                                              std::make_shared<MoreauJeanOSI>(theta),
                                              std::make_shared<LCP>("lemke"));
    model->initialize(sim);

    // Output: row 0 is the initial state, then one row per step
    const std::string csvPath = examples::joinPath(opt.outputDir, "BouncingBallTS.csv");
    examples::CsvWriter csv(csvPath, {"t", "z", "zdot", "p_z", "lambda"});
    auto writeRow = [&](double t) {
      csv.row({t, ball->q()(0), ball->velocity()(0), ball->p()(0), floorContact->lambda(1)(0)});
    };
    writeRow(t0);

    examples::WallClock clock;
    examples::Progress progress(N, opt.quiet);
    for (long k = 0; k < N; ++k) {
      sim->computeOneStep();
      writeRow(sim->nextTime());
      sim->nextStep();
      progress.update(k + 1);
    }
    progress.finish();
    const double wall = clock.seconds();

    examples::printSummary("BouncingBallTS", *sim, wall, "steps with an impulse");
    std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(), csv.rows());
    if (opt.plot) {
      const std::string png = examples::joinPath(opt.outputDir, "BouncingBallTS.png");
      const bool ok =
          examples::gnuplotPng(csvPath, png, "BouncingBallTS: ball on a floor, e = 0.9, h = 0.005",
                               {{2, "z", 0}, {3, "zdot", 1}, {5, "lambda", 2}},
                               {"height z (m)", "velocity (m/s)", "impulse (N s)"});
      std::printf("  plot:                    %s\n",
                  ok ? png.c_str() : "not drawn (is gnuplot installed?)");
    }
  } catch (const Error& err) {
    std::fprintf(stderr, "BouncingBallTS: %s\n", err.what());
    return 1;
  }
  return examples::exitStatus();
}
