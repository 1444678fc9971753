// Woodpecker: the Leine-Glocker woodpecker toy, a sleeve sliding down a pole
// with a body attached by a rotational spring, whose beak hits the pole.
// Moreau-Jean time-stepping with a 2D frictional contact problem (FC2D NSGS).
//
// q = (y, phi_M, phi_S): vertical position of the sleeve, rotation of the
// sleeve, rotation of the body. One LagrangianLinearTIDS (M, K, constant
// gravity) and three contacts with Coulomb friction (mu = 0.3), each a
// LagrangianLinearTIR with its normal row first:
//   1. beak-pole (e_N = 0.5), 2. sleeve-pole upper edge, 3. lower edge (e_N = 0).
//
// usage: Woodpecker [--output DIR] [--no-plot]
// writes DIR/Woodpecker.csv (7 columns, see README.md) and DIR/Woodpecker.png.
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

// Geometry (m).
constexpr double kPoleRadius = 0.0025;    // r_O
constexpr double kSleeveRadius = 0.0031;  // r_M
constexpr double kSleeveHeight = 0.0058;  // h_M
constexpr double kSleeveToJoint = 0.010;  // l_M
constexpr double kJointToCentre = 0.015;  // l_G
constexpr double kBeakHeight = 0.02;      // h_S
constexpr double kBeakLength = 0.0201;    // l_S
// Masses (kg) and inertias (kg m^2).
constexpr double kSleeveMass = 0.0003;     // m_M
constexpr double kBodyMass = 0.0045;       // m_S
constexpr double kSleeveInertia = 5.0e-9;  // J_M
constexpr double kBodyInertia = 7.0e-7;    // J_S
// Rotational spring (N m / rad, no damping) and gravity (m/s^2).
constexpr double kSpring = 0.0056;  // c_phi
constexpr double kGravity = 9.81;

// Contacts.
constexpr double kBeakRestitution = 0.5;    // e_N of contact 1
constexpr double kSleeveRestitution = 0.0;  // e_N of contacts 2 and 3
constexpr double kTangentialRestitution = 0.0;
constexpr double kFriction = 0.3;  // mu

// Scheme.
constexpr double kT0 = 0.0;
constexpr double kFinalTime = 0.3;
constexpr double kTimeStep = 2e-5;
constexpr double kTheta = 0.5;

const std::vector<std::string> kColumns = {"time",     "y",     "ydot",    "phi_M",
                                           "phidot_M", "phi_S", "phidot_S"};

}  // namespace

int main(int argc, char** argv) {
  const examples::ExampleOptions options = examples::parseArguments(
      argc, argv, "Woodpecker", "woodpecker toy, Moreau-Jean + 2D friction contact (NSGS)");

  try {
    // Mass matrix (symmetric), stiffness of the spring between sleeve and body, gravity.
    const double m = kBodyMass + kSleeveMass;
    SimpleMatrix M{
        {m, kBodyMass * kSleeveToJoint, kBodyMass * kJointToCentre},
        {kBodyMass * kSleeveToJoint, kSleeveInertia + kBodyMass * kSleeveToJoint * kSleeveToJoint,
         kBodyMass * kSleeveToJoint * kJointToCentre},
        {kBodyMass * kJointToCentre, kBodyMass * kSleeveToJoint * kJointToCentre,
         kBodyInertia + kBodyMass * kJointToCentre * kJointToCentre}};
    SimpleMatrix K{{0.0, 0.0, 0.0}, {0.0, kSpring, -kSpring}, {0.0, -kSpring, kSpring}};
    // Initial state q = (y, phi_M, phi_S), v (contact 2 is closed: gap -8.8e-7).
    auto woodpecker = std::make_shared<LagrangianLinearTIDS>(
        SiconosVector{0.0, -0.1036, -0.2788}, SiconosVector{-0.3411, 4.8572e-15, -7.4583}, M);
    woodpecker->setK(K);
    woodpecker->setFExt(SiconosVector{-m * kGravity, -kBodyMass * kSleeveToJoint * kGravity,
                                      -kBodyMass * kJointToCentre * kGravity});

    // The three frictional contacts: rows (normal; tangential), offsets b.
    const double beakGap = kSleeveToJoint + kJointToCentre - kBeakLength - kPoleRadius;
    const double sleeveGap = kSleeveRadius - kPoleRadius;
    auto beak = std::make_shared<LagrangianLinearTIR>(
        SimpleMatrix{{0.0, 0.0, -kBeakHeight}, {1.0, kSleeveToJoint, kJointToCentre - kBeakLength}},
        SiconosVector{beakGap, 0.0});
    auto upper = std::make_shared<LagrangianLinearTIR>(
        SimpleMatrix{{0.0, kSleeveHeight, 0.0}, {1.0, kSleeveRadius, 0.0}},
        SiconosVector{sleeveGap, 0.0});
    auto lower = std::make_shared<LagrangianLinearTIR>(
        SimpleMatrix{{0.0, -kSleeveHeight, 0.0}, {1.0, kSleeveRadius, 0.0}},
        SiconosVector{sleeveGap, 0.0});
    auto beakLaw = std::make_shared<NewtonImpactFrictionNSL>(kBeakRestitution,
                                                             kTangentialRestitution, kFriction, 2);
    auto sleeveLaw = std::make_shared<NewtonImpactFrictionNSL>(
        kSleeveRestitution, kTangentialRestitution, kFriction, 2);
    std::vector<SP::Interaction> contacts{std::make_shared<Interaction>(beakLaw, beak),
                                          std::make_shared<Interaction>(sleeveLaw, upper),
                                          std::make_shared<Interaction>(sleeveLaw, lower)};

    auto model = std::make_shared<Model>(kT0, kFinalTime);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(woodpecker);
    for (const auto& c : contacts) model->nonSmoothDynamicalSystem()->link(c, woodpecker);

    // Moreau-Jean (W = M + theta^2 h^2 K) with FC2D NSGS, its defaults (1e-4, 1000).
    auto td = std::make_shared<TimeDiscretisation>(kT0, kTimeStep);
    auto osi = std::make_shared<MoreauJeanOSI>(kTheta);
    auto fc = std::make_shared<FrictionContact>(2);
    // No warm start: one NSGS sweep from 0 solves the single active contact exactly,
    // where a previous lambda within the tolerance would be returned as it is.
    fc->setWarmStart(false);
    auto sim = std::make_shared<TimeStepping>(td, osi, fc);
    model->initialize(sim);

    // N = floor((T - t0)/h) computed in floating point (14999), N + 1 rows.
    const long steps = static_cast<long>(std::floor((kFinalTime - kT0) / kTimeStep));
    const std::string csvPath = examples::joinPath(options.outputDir, "Woodpecker.csv");
    examples::CsvWriter csv(csvPath, kColumns);
    auto record = [&](double t) {
      const SiconosVector& q = woodpecker->q();
      const SiconosVector& v = woodpecker->velocity();
      csv.row({t, q(0), v(0), q(1), v(1), q(2), v(2)});
    };
    record(kT0);

    // Count the closings of each contact (a normal impulse after a step without one).
    std::vector<long> closings(contacts.size(), 0);
    std::vector<bool> wasClosed(contacts.size(), false);

    examples::WallClock clock;
    examples::Progress progress(steps, options.quiet);
    for (long k = 1; k <= steps; ++k) {
      sim->computeOneStep();
      record(sim->nextTime());
      for (std::size_t c = 0; c < contacts.size(); ++c) {
        const bool closed = contacts[c]->lambda(1)(0) > 0.0;
        if (closed && !wasClosed[c]) ++closings[c];
        wasClosed[c] = closed;
      }
      sim->nextStep();
      progress.update(k);
    }
    progress.finish();
    const double wall = clock.seconds();

    // Summary and plot.
    examples::printSummary("Woodpecker", *sim, wall, "steps with an active contact");
    std::printf("  contact closings:        beak %ld, sleeve upper %ld, sleeve lower %ld\n",
                closings[0], closings[1], closings[2]);
    std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(), csv.rows());
    if (options.plot) {
      const std::string png = examples::joinPath(options.outputDir, "Woodpecker.png");
      const bool ok =
          examples::gnuplotPng(csvPath, png, "Woodpecker: sleeve position and angles",
                               {{2, "y", 0}, {4, "phi_M", 1}, {6, "phi_S", 1}, {7, "phidot_S", 2}},
                               {"sleeve y (m)", "angles (rad)", "body rate (rad/s)"});
      std::printf("  plot:                    %s\n",
                  ok ? png.c_str() : "not drawn (is gnuplot installed?)");
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "Woodpecker: %s\n", e.what());
    return 1;
  }
  return examples::exitStatus();
}
