// ChainOnPile: a chain of 50 capsule links joined by ball joints (KneeJointR), released
// horizontally above a square pyramid of spheres resting on a floor; the joints and the
// contacts that a ContactManager detects (link-sphere, link-floor, link-link,
// sphere-sphere, sphere-floor; mu = 0.5, e = 0) are one GenericMechanical problem per
// step (TimeStepping, Moreau-Jean theta = 1/2).
//
//   build/bin/ChainOnPile [--output DIR] [--no-plot] [--quiet] [--time T] [--layers N]
//                         [--solver newton|nsgs]
//
// Links: capsules of radius 8 mm and half-length 9 mm along the body x axis, the joints
// at +-25 mm (pitch 5 cm, chain 2.5 m; adjacent capsules touch only for bends over
// 120 degrees), steel (7800 kg/m^3). Pile: spheres of radius 5 cm (2500 kg/m^3) in a
// square pyramid of N layers (default 7: 140 spheres), touching, on the floor z = 0.
// The chain is released at rest, 10 cm above the top sphere, along x over the pile.
//
// Writes DIR/ChainOnPile.csv (one row per step, row 0 the initial state): t, kinetic,
// potential (m g z of every body), energy, chain_kinetic, joint_drift (the largest
// distance between the two points of a ball joint, m), floor_gap (the lowest point of
// every body above the floor, < 0 for a penetration), min_contact_gap (the smallest gap
// of the detected contacts at the step start), contacts, active_contacts,
// solver_iterations, residual, chain_min_z, chain_max_z (the links' centres).
// Also DIR/ChainOnPile.png and VTK frames of the links and spheres (every 10th step).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <nsdyn/ContactManager.hpp>
#include <nsdyn/Kernel.hpp>

#include "body_run.hpp"

using namespace nsdyn;

namespace {

constexpr int kLinks = 50;
constexpr double kLinkR = 0.008, kLinkHalf = 0.009, kPitch = 0.05, kSphereR = 0.05;
constexpr double kG = 9.81;

SiconosVector worldPoint(const NewtonEulerDS& b, double px) {
  const SimpleMatrix R = b.rotationMatrix();
  return SiconosVector{b.q()(0) + R(0, 0) * px, b.q()(1) + R(1, 0) * px, b.q()(2) + R(2, 0) * px};
}

}  // namespace

int main(int argc, char** argv) {
  const char* name = "ChainOnPile";
  double T = 2.0;
  int layers = 5;
  std::string solver = "nsgs";
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name, "a chain of 50 links on ball joints falling onto a pile of spheres",
      {examples::timeOption(T, 100.0),
       {"--layers", "a number of pyramid layers in [1, 12]",
        [&](const char* v) {
          layers = std::atoi(v);
          return layers >= 1 && layers <= 12;
        }},
       {"--solver", "newton or nsgs",
        [&](const char* v) {
          solver = v;
          return solver == "newton" || solver == "nsgs";
        }}},
      "(also --time T: simulated time, default 2; --layers N: pyramid layers, default 7;\n"
      " --solver newton|nsgs: the GenericMechanical solver, default nsgs)");
  const double h = 1e-3;
  const long N = std::lround(T / h);

  try {
    auto model = std::make_shared<Model>(0.0, N * h);
    auto nsds = model->nonSmoothDynamicalSystem();
    auto problem = std::make_shared<GenericMechanical>(solver);
    problem->optionsMutable().tolerance = 1e-4;
    problem->optionsMutable().max_iterations = 2000;
    // budget mode: 2000 sweeps are the step's budget; a step stopped there is accepted and
    // counted below with its residual (a few landing steps of the full run end near 5e-4)
    problem->setSolveMode(SolveMode::Budget);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), problem);
    sim->setNewtonTolerance(1e-8);
    sim->setNewtonMaxIteration(20);
    ContactManagerOptions copt;
    copt.sweptDetection = true;  // an approaching contact is known before it penetrates
    auto contacts = std::make_shared<ContactManager>(copt);
    contacts->setDefaultMaterial({0.5, 0.0});
    contacts->setThreads(1);
    contacts->addBody(makeStaticBody(
        {ShapeInstance{std::make_shared<HalfSpaceShape>(Shape::Vec3{0.0, 0.0, 1.0}, 0.0)}}));

    std::vector<SP::NewtonEulerDS> all, links;
    std::vector<double> lowest;  // lowest point of a body below its centre (spheres) or 0
    // the pile: layer l has (layers - l)^2 spheres, each in the pocket of four below
    double top = 0.0;
    for (int l = 0; l < layers; ++l) {
      const int n = layers - l;
      const double z = kSphereR + l * std::sqrt(2.0) * kSphereR;
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          BodySpec s;
          s.name = "sphere";
          s.shapes = {ShapeInstance{std::make_shared<SphereShape>(kSphereR)}};
          s.density = 2500.0;
          s.position = {(i - 0.5 * (n - 1)) * 2.0 * kSphereR, (j - 0.5 * (n - 1)) * 2.0 * kSphereR,
                        z};
          BodyShapes b = makeBody(s);
          all.push_back(b.body());
          contacts->addBody(*nsds, std::move(b), 0);
          top = std::max(top, z + kSphereR);
        }
    }
    const std::size_t spheres = all.size();
    // the chain, along x, 10 cm above the top of the pile
    const double c = std::sqrt(0.5);
    for (int i = 0; i < kLinks; ++i) {
      BodySpec s;
      s.name = "link" + std::to_string(i);
      // capsule axis = shape z, turned onto the body x axis
      s.shapes = {ShapeInstance{
          std::make_shared<CapsuleShape>(kLinkR, kLinkHalf), {0.0, 0.0, 0.0}, {c, 0.0, c, 0.0}}};
      s.density = 7800.0;
      s.position = {(i - 0.5 * (kLinks - 1)) * kPitch, 0.0, top + 0.1};
      BodyShapes b = makeBody(s);
      links.push_back(b.body());
      all.push_back(b.body());
      contacts->addBody(*nsds, std::move(b), 1);
    }
    for (const auto& b : all) b->setFExt(SiconosVector{0.0, 0.0, -b->scalarMass() * kG});
    std::vector<SP::Interaction> joints;
    for (int i = 0; i + 1 < kLinks; ++i) {
      auto j = std::make_shared<KneeJointR>(SiconosVector{0.5 * kPitch, 0.0, 0.0}, false, links[i],
                                            links[i + 1]);
      joints.push_back(std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(3), j));
      nsds->link(joints.back(), links[i], links[i + 1]);
    }
    sim->insertInteractionManager(contacts);
    model->initialize(sim);

    std::vector<std::string> columns{"t",
                                     "kinetic",
                                     "potential",
                                     "energy",
                                     "chain_kinetic",
                                     "joint_drift",
                                     "floor_gap",
                                     "min_contact_gap",
                                     "contacts",
                                     "active_contacts",
                                     "solver_iterations",
                                     "residual",
                                     "chain_min_z",
                                     "chain_max_z"};
    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"), columns);
    long aboveTol = 0;
    double worstResidual = 0.0;
    double maxDrift = 0.0, minFloor = 1e300, minGap = 1e300, E0 = 0.0, maxRise = 0.0, Eprev = 0.0;
    auto writeRow = [&](double t, const StepStatistics* st) {
      double K = 0.0, P = 0.0, Kc = 0.0, floor = 1e300, zmin = 1e300, zmax = -1e300;
      for (std::size_t b = 0; b < all.size(); ++b) {
        const NewtonEulerDS& body = *all[b];
        const double k = body.kineticEnergy();
        K += k;
        P += body.scalarMass() * kG * body.q()(2);
        if (b < spheres) {
          floor = std::min(floor, body.q()(2) - kSphereR);
        } else {
          Kc += k;
          const double ez = body.rotationMatrix()(2, 0);
          floor = std::min(floor, body.q()(2) - kLinkHalf * std::fabs(ez) - kLinkR);
          zmin = std::min(zmin, body.q()(2));
          zmax = std::max(zmax, body.q()(2));
        }
      }
      double drift = 0.0;
      for (int i = 0; i + 1 < kLinks; ++i) {
        const SiconosVector a = worldPoint(*links[i], 0.5 * kPitch),
                            b = worldPoint(*links[i + 1], -0.5 * kPitch);
        drift = std::max(drift,
                         std::sqrt((a(0) - b(0)) * (a(0) - b(0)) + (a(1) - b(1)) * (a(1) - b(1)) +
                                   (a(2) - b(2)) * (a(2) - b(2))));
      }
      const ContactSet& cs = contacts->contacts();
      double gap = 0.0;
      for (std::size_t k = 0; k < cs.size(); ++k) gap = std::min(gap, cs.gap[k]);
      if (st && st->aboveTolerance) ++aboveTol;
      if (st) worstResidual = std::max(worstResidual, st->residual);
      if (!st) E0 = Eprev = K + P;
      maxRise = std::max(maxRise, K + P - Eprev);
      Eprev = K + P;
      maxDrift = std::max(maxDrift, drift);
      minFloor = std::min(minFloor, floor);
      minGap = std::min(minGap, gap);
      csv.row({t, K, P, K + P, Kc, drift, floor, gap, static_cast<double>(cs.size()),
               static_cast<double>(cs.activeCount()),
               st ? static_cast<double>(st->iterations) : 0.0, st ? st->residual : 0.0, zmin,
               zmax});
    };
    writeRow(0.0, nullptr);
    examples::BodyVtkWriter vtk(opt.outputDir, name, all);
    const examples::RunStatistics run = examples::runSteps(
        *sim, N, opt, vtk, [&](double t, const StepStatistics& st) { writeRow(t, &st); });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with rows");
    double Kend = 0.0;
    for (const auto& l : links) Kend += l->kineticEnergy();
    std::printf("  bodies:                  %d links, %zu spheres, %d ball joints (%s)\n", kLinks,
                spheres, kLinks - 1, solver.c_str());
    examples::printNewtonRange(run, true);
    std::printf(
        "  solver budget:           %ld of %ld steps stopped at 2000 sweeps above 1e-4 "
        "(largest residual %.2e)\n",
        aboveTol, N, worstResidual);
    std::printf("  max joint drift:         %.3e m\n", maxDrift);
    std::printf("  min floor gap:           %.3e m\n", minFloor);
    std::printf("  min contact gap:         %.3e m (detected contacts, step start)\n", minGap);
    std::printf("  energy:                  %.6f J at t = 0, %.6f J at the end\n", E0, Eprev);
    std::printf("  largest energy rise:     %.3e J in one step\n", maxRise);
    std::printf("  chain kinetic energy:    %.3e J at the end\n", Kend);
    examples::printRunFooter(opt, name, csv, vtk,
                             {"ChainOnPile: 50 links on ball joints falling onto a pile",
                              {{2, "kinetic", 0},
                               {4, "energy", 0},
                               {6, "joint drift", 1},
                               {8, "min contact gap", 1},
                               {13, "chain min z", 2},
                               {14, "chain max z", 2}},
                              {"energy (J)", "violation (m)", "chain height (m)"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
