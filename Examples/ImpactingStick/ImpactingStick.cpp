// ImpactingStick: a rigid stick moving in a vertical plane hits a horizontal
// floor with its lower tip. Moreau-Jean time-stepping (one linearised pass per
// step) with a 2D frictional contact problem (FC2D NSGS).
//
// q = (x, y, theta): centre of mass and angle; M = diag(m, m, m l^2/12),
// weight (0, -m g, 0). The contact is a LagrangianScleronomousR:
//   g_N = y - (l/2) cos theta,
//   G(q) = [[ 0, 1,  (l/2) sin theta],     (normal row)
//           [-1, 0, -(l/2) cos theta]]     (tangential row),
// the tangential output itself is 0. Law: e_N = 1, e_T = 0, mu = 0.01.
//
// usage: ImpactingStick [--output DIR] [--no-plot]
// writes DIR/ImpactingStick.csv (22 columns, see README.md) and DIR/ImpactingStick.png.
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

// The stick.
constexpr double kLength = 1.0;                                // l
constexpr double kMass = 1.0;                                  // m
constexpr double kInertia = kMass * kLength * kLength / 12.0;  // centroidal, m l^2 / 12
constexpr double kGravity = 10.0;                              // g
// Initial state: angle pi/4, tip 0.01 above the floor, v = (-0.5, 0.1, 0.1).
const double kInitialAngle = std::atan(1.0);  // pi/4
constexpr double kInitialTipHeight = 0.01;
constexpr double kInitialVx = -0.5, kInitialVy = 0.1, kInitialOmega = 0.1;

// Contact law.
constexpr double kNormalRestitution = 1.0;
constexpr double kTangentialRestitution = 0.0;
constexpr double kFriction = 0.01;

// Scheme and solver.
constexpr double kT0 = 0.0;
constexpr double kFinalTime = 0.2;
constexpr double kTimeStep = 1e-4;
constexpr double kTheta = 0.5;
constexpr double kNsgsTolerance = 1e-10;
constexpr int kNsgsIterations = 10000;

const std::vector<std::string> kColumns = {"time",
                                           "x",
                                           "y",
                                           "theta",
                                           "vx",
                                           "vy",
                                           "omega",
                                           "p0",
                                           "gap",
                                           "y1",
                                           "u_N",
                                           "u_T",
                                           "lambda_N",
                                           "lambda_T",
                                           "work_N",
                                           "work_T",
                                           "dissipation",
                                           "cum_work_N",
                                           "cum_work_T",
                                           "kinetic_energy",
                                           "potential_energy",
                                           "cum_work_external"};

// Normal gap and Jacobian of the tip contact.
SiconosVector tipGap(const SiconosVector& q) {
  return SiconosVector{q(1) - 0.5 * kLength * std::cos(q(2)), 0.0};
}
SimpleMatrix tipJacobian(const SiconosVector& q) {
  return SimpleMatrix{{0.0, 1.0, 0.5 * kLength * std::sin(q(2))},
                      {-1.0, 0.0, -0.5 * kLength * std::cos(q(2))}};
}

}  // namespace

int main(int argc, char** argv) {
  const examples::ExampleOptions options =
      examples::parseArguments(argc, argv, "ImpactingStick",
                               "rigid stick hitting a floor, Moreau-Jean + 2D friction (NSGS)");

  try {
    // The stick: a general LagrangianDS with constant M and weight.
    const SiconosVector q0{0.5 * kLength * std::sin(kInitialAngle),
                           0.5 * kLength * std::cos(kInitialAngle) + kInitialTipHeight,
                           kInitialAngle};
    const SiconosVector v0{kInitialVx, kInitialVy, kInitialOmega};
    const SiconosVector weight{0.0, -kMass * kGravity, 0.0};
    auto stick = std::make_shared<LagrangianDS>(
        q0, v0, SimpleMatrix::diagonal(SiconosVector{kMass, kMass, kInertia}));
    stick->setFExt(weight);

    // The tip on the floor: y = h(q), G(q); Newton restitution and Coulomb friction.
    auto relation = std::make_shared<LagrangianScleronomousR>(tipGap, tipJacobian);
    auto law = std::make_shared<NewtonImpactFrictionNSL>(kNormalRestitution, kTangentialRestitution,
                                                         kFriction, 2);
    auto tip = std::make_shared<Interaction>(law, relation);

    auto model = std::make_shared<Model>(kT0, kFinalTime);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(stick);
    model->nonSmoothDynamicalSystem()->link(tip, stick);

    // Moreau-Jean (linearised, one pass) with FC2D NSGS on a sparse-block matrix.
    auto td = std::make_shared<TimeDiscretisation>(kT0, kTimeStep);
    auto osi = std::make_shared<MoreauJeanOSI>(kTheta);
    auto fc = std::make_shared<FrictionContact>(2, "nsgs");
    fc->setMatrixStorage(OneStepNSProblem::MatrixStorage::SparseBlock);
    fc->optionsMutable().tolerance = kNsgsTolerance;
    fc->optionsMutable().max_iterations = kNsgsIterations;
    // No warm start: one NSGS sweep from 0 solves the single active contact exactly,
    // where a previous lambda within the tolerance would be returned as it is.
    fc->setWarmStart(false);
    auto sim = std::make_shared<TimeStepping>(td, osi, fc);
    model->initialize(sim);

    // N = ceil((T - t0)/h) steps, N + 1 rows; row 0 has zeros in columns 7-21.
    const long steps = static_cast<long>(std::ceil((kFinalTime - kT0) / kTimeStep));
    const std::string csvPath = examples::joinPath(options.outputDir, "ImpactingStick.csv");
    examples::CsvWriter csv(csvPath, kColumns);
    std::vector<double> row(kColumns.size(), 0.0);
    row[0] = kT0;
    for (int i = 0; i < 3; ++i) {
      row[1 + i] = stick->q()(i);
      row[4 + i] = stick->velocity()(i);
    }
    csv.row(row);

    double cumulativeNormal = 0.0, cumulativeTangential = 0.0, cumulativeExternal = 0.0;
    long impacts = 0;
    examples::WallClock clock;
    examples::Progress progress(steps, options.quiet);
    for (long k = 1; k <= steps; ++k) {
      // Start-of-step contact velocities and generalized velocity.
      const double uNk = tip->y(1)(0), uTk = tip->y(1)(1);
      const SiconosVector vk = stick->velocity();

      sim->computeOneStep();

      // Outputs at q_{k+1}; impulses of the step.
      const SiconosVector& q = stick->q();
      const SiconosVector& v = stick->velocity();
      const double uN = tip->y(1)(0), uT = tip->y(1)(1);
      const double lambdaN = tip->lambda(1)(0), lambdaT = tip->lambda(1)(1);

      // Energy bookkeeping: contact work, friction dissipation, external work.
      const double workN = 0.5 * (uN + uNk) * lambdaN;
      const double workT = 0.5 * (uT + uTk) * lambdaT;
      const double dissipation = 0.5 * kFriction * std::fabs(uT + uTk) * lambdaN;
      cumulativeNormal += workN;
      cumulativeTangential += workT;
      cumulativeExternal += kTimeStep * weight.dot(kTheta * v + (1.0 - kTheta) * vk);
      const double kinetic =
          0.5 * kMass * (v(0) * v(0) + v(1) * v(1)) + 0.5 * kInertia * v(2) * v(2);
      const double potential = kMass * kGravity * q(1);

      csv.row({sim->nextTime(),
               q(0),
               q(1),
               q(2),
               v(0),
               v(1),
               v(2),
               stick->p()(0),
               tip->y(0)(0),
               tip->y(0)(1),
               uN,
               uT,
               lambdaN,
               lambdaT,
               workN,
               workT,
               dissipation,
               cumulativeNormal,
               cumulativeTangential,
               kinetic,
               potential,
               cumulativeExternal});
      if (lambdaN > 0.0 && uNk < 0.0) ++impacts;
      sim->nextStep();
      progress.update(k);
    }
    progress.finish();
    const double wall = clock.seconds();

    // Summary and plot.
    examples::printSummary("ImpactingStick", *sim, wall, "steps with an active contact");
    std::printf("  impacts:                 %ld\n", impacts);
    std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(), csv.rows());
    if (options.plot) {
      const std::string png = examples::joinPath(options.outputDir, "ImpactingStick.png");
      const bool ok = examples::gnuplotPng(
          csvPath, png, "ImpactingStick: stick tip on a floor, e_N = 1, mu = 0.01",
          {{9, "gap", 0}, {11, "u_N", 1}, {12, "u_T", 1}, {20, "kinetic", 2}, {21, "potential", 2}},
          {"tip gap (m)", "tip velocity (m/s)", "energy (J)"});
      std::printf("  plot:                    %s\n",
                  ok ? png.c_str() : "not drawn (is gnuplot installed?)");
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "ImpactingStick: %s\n", e.what());
    return 1;
  }
  return examples::exitStatus();
}
