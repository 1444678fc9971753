// BallBetweenWallsED: a ball thrown up between a floor and a ceiling, two
// unilateral contacts, event-driven. It hits the ceiling, bounces on the floor
// until the impacts accumulate and it rests (contact in I2, force m g); a
// smooth upward pulse of the external force then lifts it off (the force root
// releases the contact), and it lands and settles again.
//
//   build/bin/BallBetweenWallsED [--output DIR] [--no-plot] [--quiet]
//
// Writes DIR/BallBetweenWallsED.csv: t, z, zdot, P_floor, P_ceiling, F_floor,
// Fext_z, resting = |I2| (one row per grid time 0.01 ... 8, two per nonsmooth event:
// before and after) and DIR/BallBetweenWallsED.png.
#include <cmath>
#include <cstdio>
#include <nsdyn/Kernel.hpp>

#include "example_utils.hpp"

using namespace nsdyn;

namespace {

// Parameters
constexpr double kT0 = 0.0, kT = 8.0, kH = 0.01;
constexpr double kM = 1.0, kR = 0.1, kG = 9.81;
constexpr double kCeiling = 1.5;                  // ceiling height (m)
constexpr double kEFloor = 0.6, kECeiling = 0.6;  // restitution coefficients
constexpr double kPulseStart = 5.0, kPulseLength = 0.5, kPulseGain = 2.0;
constexpr double kPi = 3.14159265358979323846;

/// Weight plus the lift pulse: -m g (1 - gain sin^2(pi (t - t_a) / tau)) on [t_a, t_a + tau].
double verticalForce(double t) {
  double lift = 0.0;
  if (t > kPulseStart && t < kPulseStart + kPulseLength) {
    const double s = std::sin(kPi * (t - kPulseStart) / kPulseLength);
    lift = kPulseGain * s * s;
  }
  return -kM * kG * (1.0 - lift);
}

}  // namespace

int main(int argc, char** argv) {
  const examples::ExampleOptions opt =
      examples::parseArguments(argc, argv, "BallBetweenWallsED",
                               "ball between a floor and a ceiling, event-driven, two contacts");
  const long gridEvents = static_cast<long>(std::floor((kT - kT0) / kH + 0.5));

  try {
    // The ball: q = (z, x, rotation), thrown up at 6 m/s from z = 0.5
    auto ball = std::make_shared<LagrangianLinearTIDS>(
        SiconosVector{0.5, 0.0, 0.0}, SiconosVector{6.0, 0.0, 0.0},
        SimpleMatrix::diagonal(SiconosVector{kM, kM, 0.4 * kM * kR * kR}));
    ball->setFExt([](double t) { return SiconosVector{verticalForce(t), 0.0, 0.0}; });

    // Floor: y = z - R; ceiling: y = (ceiling - R) - z
    auto floorContact = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(kEFloor),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0, 0.0, 0.0}}, SiconosVector{-kR}));
    auto ceilingContact = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(kECeiling),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{-1.0, 0.0, 0.0}},
                                              SiconosVector{kCeiling - kR}));

    auto model = std::make_shared<Model>(kT0, kT);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ball);
    model->nonSmoothDynamicalSystem()->link(floorContact, ball);
    model->nonSmoothDynamicalSystem()->link(ceilingContact, ball);

    // Event-driven with the default options (accumulation ends below 1e-6 m/s)
    auto osi = std::make_shared<CvodeOSI>();
    auto sim = std::make_shared<EventDriven>(std::make_shared<TimeDiscretisation>(kT0, kH), osi);
    model->initialize(sim);

    const std::string csvPath = examples::joinPath(opt.outputDir, "BallBetweenWallsED.csv");
    examples::CsvWriter csv(
        csvPath, {"t", "z", "zdot", "P_floor", "P_ceiling", "F_floor", "Fext_z", "resting"});
    examples::WallClock clock;
    examples::Progress progress(gridEvents, opt.quiet);
    long releases = 0, restingSwitches = 0;
    double restingBefore = 0.0;  // |I2| before the event, for the pre-event row
    while (sim->hasNextEvent()) {
      if (!sim->advanceToEvent()) break;
      sim->processEvents();
      const EventStatistics& ev = sim->lastEventStatistics();
      const double t = sim->startingTime();
      const double resting = static_cast<double>(ev.restingRelations);
      releases += static_cast<long>(ev.released);
      restingSwitches += static_cast<long>(ev.switchedToResting);
      if (ev.type == EventType::NonSmooth)
        csv.row({t, ball->qMemory()(0), ball->velocityMemory()(0), 0.0, 0.0,
                 floorContact->lambdaMemory(2)(0), verticalForce(t), restingBefore});
      csv.row({t, ball->q()(0), ball->velocity()(0), floorContact->lambda(1)(0),
               ceilingContact->lambda(1)(0), floorContact->lambda(2)(0), verticalForce(t),
               resting});
      restingBefore = resting;
      progress.update(sim->eventsManager().processedTimeEvents());
    }
    progress.finish();
    const double wall = clock.seconds();

    examples::printSummary("BallBetweenWallsED", *sim, wall, "events with an impact");
    std::printf("  impacts:                 %ld\n", sim->numberOfImpacts());
    std::printf("  switches to resting:     %ld, releases: %ld\n", restingSwitches, releases);
    std::printf("  CVODE steps:             %ld (%ld right-hand sides)\n", osi->numberOfSteps(),
                osi->numberOfRhsEvaluations());
    std::printf("  status:                  %s\n", sim->statusMessage().c_str());
    std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(), csv.rows());
    if (opt.plot) {
      const std::string png = examples::joinPath(opt.outputDir, "BallBetweenWallsED.png");
      const bool ok = examples::gnuplotPng(
          csvPath, png,
          "BallBetweenWallsED: floor e = 0.6, ceiling at 1.5 m e = 0.6, lift pulse at t = 5",
          {{2, "z", 0}, {3, "zdot", 1}, {6, "F floor", 2}, {7, "Fext z", 2}},
          {"height z (m)", "velocity (m/s)", "force (N)"});
      std::printf("  plot:                    %s\n",
                  ok ? png.c_str() : "not drawn (is gnuplot installed?)");
    }
    if (sim->status() != EventDriven::RunStatus::Finished) {
      std::fprintf(stderr, "BallBetweenWallsED: run stopped early: %s (%zu rows kept in %s)\n",
                   sim->statusMessage().c_str(), csv.rows(), csvPath.c_str());
      return 3;
    }
  } catch (const Error& err) {
    std::fprintf(stderr, "BallBetweenWallsED: %s\n", err.what());
    return 1;
  }
  return examples::exitStatus();
}
