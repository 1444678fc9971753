// ColumnOfBeadsTS: ten beads in a vertical column falling onto a floor,
// Moreau-Jean time-stepping with an LCP (Lemke) per step.
//
// Each bead is a LagrangianLinearTIDS with q = (z, x, rotation), M =
// diag(m, m, 3/5 m R^2) and its weight. Contacts follow Newton's impact law
// (e = 0.9): the floor with bead 0 (y = z_0 - R) and each bead with the next
// one (y = z_{i+1} - z_i - 2R). As in the original driver, a contact is
// created when its gap first drops below the alert distance (a rough
// proximity test before each step); --all-contacts declares all ten from
// t = 0 instead, which gives the same trajectory (activation is decided by
// the predicted gap either way).
//
// usage: ColumnOfBeadsTS [--output DIR] [--no-plot] [--all-contacts]
// writes DIR/ColumnOfBeadsTS.csv (41 columns, see README.md) and DIR/ColumnOfBeadsTS.png.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>

#include "example_utils.hpp"

using namespace nsdyn;

namespace {

// Beads.
constexpr int kBeads = 10;
constexpr double kMass = 1.0;            // m
constexpr double kRadius = 0.1;          // R
constexpr double kGravity = 9.81;        // g
constexpr double kRestitution = 0.9;     // e, every contact
constexpr double kFirstHeight = 1.0;     // z_0(0)
constexpr double kSpacing = 0.25;        // z_i(0) = 1 + 0.25 i
constexpr double kAlertDistance = 0.02;  // contacts are created below this gap

// Scheme.
constexpr double kT0 = 0.0;
constexpr double kFinalTime = 2.0;
constexpr double kTimeStep = 5e-4;
constexpr double kTheta = 0.5;
constexpr int kLemkePivots = 10000;
constexpr double kLemkeTolerance = 1e-6;

// Output: t, then (z_i, zdot_i) for i = 0..9, then 20 columns never written (zero).
constexpr int kColumns = 41;

std::vector<std::string> columnNames() {
  std::vector<std::string> names{"time"};
  for (int i = 0; i < kBeads; ++i) {
    names.push_back("z" + std::to_string(i));
    names.push_back("zdot" + std::to_string(i));
  }
  for (int c = 2 * kBeads + 1; c < kColumns; ++c) names.push_back("unused" + std::to_string(c));
  return names;
}

}  // namespace

int main(int argc, char** argv) {
  // --all-contacts is this example's own flag; the others are the examples' common ones.
  bool allContacts = false;
  std::vector<char*> args;
  for (int a = 0; a < argc; ++a) {
    if (a > 0 && std::strcmp(argv[a], "--all-contacts") == 0)
      allContacts = true;
    else
      args.push_back(argv[a]);
  }
  const examples::ExampleOptions options = examples::parseArguments(
      static_cast<int>(args.size()), args.data(), "ColumnOfBeadsTS",
      "ten beads falling on a floor, Moreau-Jean + LCP (--all-contacts: all contacts from t = 0)");

  try {
    auto model = std::make_shared<Model>(kT0, kFinalTime);
    auto nsds = model->nonSmoothDynamicalSystem();

    // The beads: z_i(0) = 1 + 0.25 i, at rest, under their weight.
    std::vector<SP::LagrangianLinearTIDS> beads;
    const SimpleMatrix M =
        SimpleMatrix::diagonal(SiconosVector{kMass, kMass, 0.6 * kMass * kRadius * kRadius});
    for (int i = 0; i < kBeads; ++i) {
      auto bead = std::make_shared<LagrangianLinearTIDS>(
          SiconosVector{kFirstHeight + kSpacing * i, 0.0, 0.0}, SiconosVector{0.0, 0.0, 0.0}, M);
      bead->setFExt(SiconosVector{-kMass * kGravity, 0.0, 0.0});
      nsds->insertDynamicalSystem(bead);
      beads.push_back(bead);
    }

    // Contacts: floor-bead 0 (index 0) and bead i - bead i+1 (index i+1), made on demand.
    auto law = std::make_shared<NewtonImpactNSL>(kRestitution);
    std::vector<SP::Interaction> contacts(kBeads);
    auto gap = [&](int c) {
      if (c == 0) return beads[0]->q()(0) - kRadius;
      return beads[c]->q()(0) - beads[c - 1]->q()(0) - 2.0 * kRadius;
    };
    auto createContact = [&](int c) {
      if (c == 0) {
        auto floor = std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0, 0.0, 0.0}},
                                                           SiconosVector{-kRadius});
        contacts[0] = std::make_shared<Interaction>(law, floor);
        nsds->link(contacts[0], beads[0]);
      } else {
        auto pair = std::make_shared<LagrangianLinearTIR>(
            SimpleMatrix{{-1.0, 0.0, 0.0, 1.0, 0.0, 0.0}}, SiconosVector{-2.0 * kRadius});
        contacts[c] = std::make_shared<Interaction>(law, pair);
        nsds->link(contacts[c], beads[c - 1], beads[c]);
      }
    };
    auto detectContacts = [&]() {
      for (int c = 0; c < kBeads; ++c)
        if (!contacts[c] && (allContacts || gap(c) < kAlertDistance)) createContact(c);
    };
    detectContacts();

    // Moreau-Jean with a Lemke LCP.
    auto td = std::make_shared<TimeDiscretisation>(kT0, kTimeStep);
    auto osi = std::make_shared<MoreauJeanOSI>(kTheta);
    auto lcp = std::make_shared<LCP>("lemke");
    lcp->optionsMutable().max_iterations = kLemkePivots;
    lcp->optionsMutable().tolerance = kLemkeTolerance;
    // Lemke is direct: every step is solved from scratch (no warm start), so the
    // solution is exact and not a previous lambda that passes the tolerance.
    lcp->setWarmStart(false);
    auto sim = std::make_shared<TimeStepping>(td, osi, lcp);
    model->initialize(sim);

    // N = ceil((T - t0)/h) steps, N + 1 rows (row 0: the initial state).
    const long steps = static_cast<long>(std::ceil((kFinalTime - kT0) / kTimeStep));
    const std::string csvPath = examples::joinPath(options.outputDir, "ColumnOfBeadsTS.csv");
    examples::CsvWriter csv(csvPath, columnNames());
    auto record = [&](double t) {
      std::vector<double> row(kColumns, 0.0);
      row[0] = t;
      for (int i = 0; i < kBeads; ++i) {
        row[1 + 2 * i] = beads[i]->q()(0);
        row[2 + 2 * i] = beads[i]->velocity()(0);
      }
      csv.row(row);
    };
    record(kT0);

    examples::WallClock clock;
    examples::Progress progress(steps, options.quiet);
    for (long k = 1; k <= steps; ++k) {
      // Rough proximity test before the step, then the step itself.
      detectContacts();
      sim->computeOneStep();
      record(sim->nextTime());
      sim->nextStep();
      progress.update(k);
    }
    progress.finish();
    const double wall = clock.seconds();

    // Summary and plot.
    examples::printSummary("ColumnOfBeadsTS", *sim, wall, "steps with an active contact");
    std::size_t created = 0;
    for (const auto& c : contacts) created += c ? 1 : 0;
    std::printf("  contacts created:        %zu (alert distance %g)\n", created, kAlertDistance);
    std::printf("  csv:                     %s (%zu rows)\n", csvPath.c_str(), csv.rows());
    if (options.plot) {
      const std::string png = examples::joinPath(options.outputDir, "ColumnOfBeadsTS.png");
      std::vector<examples::PlotCurve> curves;
      for (int i = 0; i < kBeads; ++i) {
        curves.push_back({2 + 2 * i, "z" + std::to_string(i), 0});
        curves.push_back({3 + 2 * i, "zdot" + std::to_string(i), 1});
      }
      const bool ok =
          examples::gnuplotPng(csvPath, png, "ColumnOfBeadsTS: ten beads on a floor, e = 0.9",
                               curves, {"height z (m)", "velocity (m/s)"});
      std::printf("  plot:                    %s\n",
                  ok ? png.c_str() : "not drawn (is gnuplot installed?)");
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "ColumnOfBeadsTS: %s\n", e.what());
    return 1;
  }
  return examples::exitStatus();
}
