// BouncingBallED: a ball bouncing on a rigid floor, event-driven: CVODE between
// impacts, impact LCP with the Newton law at each impact (the Siconos example;
// shared/reference/README.md §3).
//
//   build/bin/BouncingBallED [--output DIR] [--no-plot] [--quiet] [--max-events N]
//
// Writes DIR/BouncingBallED.csv: t, z, zdot, p1_z, p2_z, lambda1, lambda2
// (1788 rows: one per grid time 0.005 ... 8.5, two per impact) and
// DIR/BouncingBallED.png. Exit status 3 when the run stopped early (maximum
// number of events, integrator failure); the rows written so far are kept.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nsdyn/Kernel.hpp>
#include <vector>

#include "example_utils.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  // --max-events N is ours; the rest goes to the shared parser
  long maxEvents = 0;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--max-events") == 0 && i + 1 < argc) {
      maxEvents = std::atol(argv[++i]);
      continue;
    }
    args.push_back(argv[i]);
  }
  const examples::ExampleOptions opt = examples::parseArguments(
      static_cast<int>(args.size()), args.data(), "BouncingBallED",
      "bouncing ball, event-driven (CVODE + impact LCP); --max-events N stops after N events");

  // Parameters (reference README §3)
  const double t0 = 0.0, T = 8.5, h = 0.005;
  const double m = 1.0, R = 0.1, g = 9.81, e = 0.9;
  const long gridEvents = static_cast<long>(std::floor((T - t0) / h + 0.5));

  try {
    // The ball: q = (z, x, rotation), M = diag(m, m, 3/5 m R^2), weight -m g on z
    auto ball = std::make_shared<LagrangianLinearTIDS>(
        SiconosVector{1.0, 0.0, 0.0}, SiconosVector{0.0, 0.0, 0.0},
        SimpleMatrix::diagonal(SiconosVector{m, m, 0.6 * m * R * R}));
    ball->setFExt(SiconosVector{-m * g, 0.0, 0.0});

    // The floor: gap y = z (H = [1 0 0], no offset), Newton impact law e
    auto floorContact = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(e),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0, 0.0, 0.0}}));

    auto model = std::make_shared<Model>(t0, T);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ball);
    model->nonSmoothDynamicalSystem()->link(floorContact, ball);

    // Event-driven: CVODE Adams, rtol = 10 eps, atol = 100 eps (the defaults); Lemke for both LCPs
    auto osi = std::make_shared<CvodeOSI>();
    auto sim = std::make_shared<EventDriven>(std::make_shared<TimeDiscretisation>(t0, h), osi,
                                             std::make_shared<LCP>("lemke"),
                                             std::make_shared<LCP>("lemke"));
    if (maxEvents > 0) sim->optionsMutable().maxEvents = maxEvents;
    model->initialize(sim);

    // Output: no row at t0; one row per grid event, two per impact (before, after)
    const std::string csvPath = examples::joinPath(opt.outputDir, "BouncingBallED.csv");
    examples::CsvWriter csv(csvPath, {"t", "z", "zdot", "p1_z", "p2_z", "lambda1", "lambda2"});

    examples::WallClock clock;
    examples::Progress progress(gridEvents, opt.quiet);
    while (sim->hasNextEvent()) {
      if (!sim->advanceToEvent()) break;
      sim->processEvents();
      const double t = sim->startingTime();
      const double p2 = sim->contactForce(*ball)(0);
      if (sim->lastEventStatistics().type == EventType::NonSmooth)
        csv.row({t, ball->qMemory()(0), ball->velocityMemory()(0), ball->p()(0), p2, 0.0, 0.0});
      csv.row({t, ball->q()(0), ball->velocity()(0), ball->p()(0), p2, floorContact->lambda(1)(0),
               floorContact->lambda(2)(0)});
      progress.update(sim->eventsManager().processedTimeEvents());
    }
    progress.finish();
    const double wall = clock.seconds();

    examples::printSummary("BouncingBallED", *sim, wall, "events with an impact");
    std::printf("  impacts:                 %ld\n", sim->numberOfImpacts());
    std::printf("  CVODE steps:             %ld (%ld right-hand sides)\n", osi->numberOfSteps(),
                osi->numberOfRhsEvaluations());
    std::printf("  status:                  %s\n", sim->statusMessage().c_str());
    std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(), csv.rows());
    if (opt.plot) {
      const std::string png = examples::joinPath(opt.outputDir, "BouncingBallED.png");
      const bool ok = examples::gnuplotPng(csvPath, png,
                                           "BouncingBallED: ball on a floor, e = 0.9, event-driven",
                                           {{2, "z", 0}, {3, "zdot", 1}, {6, "lambda(1)", 2}},
                                           {"height z (m)", "velocity (m/s)", "impulse (N s)"});
      std::printf("  plot:                    %s\n",
                  ok ? png.c_str() : "not drawn (is gnuplot installed?)");
    }
    if (sim->status() != EventDriven::RunStatus::Finished) {
      std::fprintf(stderr, "BouncingBallED: run stopped early: %s (%zu rows kept in %s)\n",
                   sim->statusMessage().c_str(), csv.rows(), csvPath.c_str());
      return 3;
    }
  } catch (const Error& err) {
    std::fprintf(stderr, "BouncingBallED: %s\n", err.what());
    return 1;
  }
  return examples::exitStatus();
}
