// DoublePendulumHinges: a planar double pendulum made of two rigid rods
// (NewtonEulerDS, length 1 along the body x axis, m = 1, I = diag(0.01, 1/12, 1/12))
// and two hinges about the world y axis (PivotJointR, EqualityConditionNSL(5)):
// rod 1 to the world at the origin, rod 2 to the free end of rod 1. Released
// from rest with both rods horizontal (along +x), under gravity -z: a large,
// chaotic motion in the xz plane. Exactly, the energy E = kinetic + m g z
// (both rods) is constant; the example measures how well the Moreau-Jean
// theta = 1/2 scheme with Newton iterations keeps it, and the joints' drift.
//
//   build/bin/DoublePendulumHinges [--output DIR] [--no-plot] [--quiet] [--step H]
//
// --step H: time step (default 1e-3); the run lasts T = 5 (N = round(T/H) steps).
// Writes DIR/DoublePendulumHinges.csv (N + 1 rows, row 0 the initial state):
// t, q_rod1[0..6], q_rod2[0..6], kinetic energy, potential energy, E,
// ||y0|| and ||y1|| of hinge 1 and of hinge 2 (after the step), the angle of
// each rod's axis from the world y axis minus pi/2 (0 for a planar motion),
// Newton iterations of the step (0 on row 0).
// Also DIR/DoublePendulumHinges.png and VTK frames (every 10th step) + .pvd.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>
#include <nsdyn/PivotJointR.hpp>

#include "body_run.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const char* name = "DoublePendulumHinges";
  double h = 1e-3;       // --step H
  bool midpoint = true;  // --constraints midpoint (default) | end-of-step
  auto setConstraints = [&](const char* value) {
    const bool mid = std::strcmp(value, "midpoint") == 0,
               end = std::strcmp(value, "end-of-step") == 0;
    midpoint = mid;
    return mid || end;
  };
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name, "double pendulum of two rods on hinges, energy, Moreau-Jean theta = 1/2",
      {{"--constraints", "midpoint or end-of-step", setConstraints}, examples::stepOption(h, 0.1)},
      "(also --step H: time step, default 1e-3; T = 5;\n"
      " --constraints midpoint|end-of-step: hinges on the theta-weighted velocity at the theta "
      "point\n"
      " (default, energy kept) or on the end-of-step velocity (Siconos))");

  const double t0 = 0.0, T = 5.0, theta = 0.5;
  const long N = std::lround((T - t0) / h);
  const double m = 1.0, g = 9.81, L = 1.0;

  try {
    const SimpleMatrix inertia =
        SimpleMatrix::diagonal(SiconosVector{0.01, m * L * L / 12.0, m * L * L / 12.0});
    auto rod1 = std::make_shared<NewtonEulerDS>(
        SiconosVector{0.5 * L, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0}, SiconosVector(6), m, inertia);
    auto rod2 = std::make_shared<NewtonEulerDS>(
        SiconosVector{1.5 * L, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0}, SiconosVector(6), m, inertia);
    for (const auto& r : {rod1, rod2}) r->setFExt(SiconosVector{0.0, 0.0, -m * g});

    // hinge 1: rod 1 to the world at the origin, about the world y axis;
    // hinge 2: rod 2 to the end (0.5, 0, 0) of rod 1, about the y axis of rod 1
    auto hinge1 = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(5),
        std::make_shared<PivotJointR>(SiconosVector{0.0, 0.0, 0.0}, SiconosVector{0.0, 1.0, 0.0},
                                      true, rod1));
    auto hinge2 = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(5),
        std::make_shared<PivotJointR>(SiconosVector{0.5 * L, 0.0, 0.0},
                                      SiconosVector{0.0, 1.0, 0.0}, false, rod1, rod2));

    auto model = std::make_shared<Model>(t0, t0 + N * h);
    auto nsds = model->nonSmoothDynamicalSystem();
    nsds->insertDynamicalSystem(rod1);
    nsds->insertDynamicalSystem(rod2);
    nsds->link(hinge1, rod1);
    nsds->link(hinge2, rod1, rod2);
    auto sim = examples::makeMoreauJeanNewton(*model, {t0, h, theta, 1e-10, 50, midpoint},
                                              std::make_shared<MLCP>("enum"));

    std::vector<std::string> columns{"t"};
    for (int b = 1; b <= 2; ++b)
      for (int i = 0; i < 7; ++i)
        columns.push_back("rod" + std::to_string(b) + "_q" + std::to_string(i));
    for (const char* c : {"kinetic", "potential", "E", "hinge1_y0", "hinge1_y1", "hinge2_y0",
                          "hinge2_y1", "rod1_offplane", "rod2_offplane", "newton_iterations"})
      columns.push_back(c);
    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"), columns);
    double E0 = 0.0, maxDE = 0.0, maxY0 = 0.0, maxY1 = 0.0, maxOff = 0.0;
    bool first = true;
    auto writeRow = [&](double t, int newton) {
      std::vector<double> row{t};
      for (const auto& r : {rod1, rod2})
        for (std::size_t i = 0; i < 7; ++i) row.push_back(r->q()(i));
      const double K = rod1->kineticEnergy() + rod2->kineticEnergy();
      const double P = rod1->potentialEnergy(t) + rod2->potentialEnergy(t);
      if (first) E0 = K + P;
      first = false;
      maxDE = std::max(maxDE, std::fabs(K + P - E0));
      row.push_back(K);
      row.push_back(P);
      row.push_back(K + P);
      for (const auto& in : {hinge1, hinge2}) {
        row.push_back(in->y(0).norm2());
        row.push_back(in->y(1).norm2());
        maxY0 = std::max(maxY0, in->y(0).norm2());
        maxY1 = std::max(maxY1, in->y(1).norm2());
      }
      for (const auto& r : {rod1, rod2}) {
        // rod axis R e_x against the world y axis: pi/2 for a motion in the xz plane
        const SimpleMatrix R = r->rotationMatrix();
        const double ax = R(0, 0), ay = R(1, 0), az = R(2, 0);
        const double off = std::acos(ay / std::sqrt(ax * ax + ay * ay + az * az)) - std::acos(0.0);
        maxOff = std::max(maxOff, std::fabs(off));
        row.push_back(off);
      }
      row.push_back(newton);
      csv.row(row);
    };
    writeRow(t0, 0);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {rod1, rod2});
    const examples::RunStatistics run = examples::runSteps(
        *sim, N, opt, vtk,
        [&](double t, const StepStatistics& st) { writeRow(t, st.newtonIterations); });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with the hinges active");
    std::printf("  time step, steps:        %g, %ld\n", h, N);
    std::printf("  hinge constraints:       %s\n",
                midpoint ? "midpoint (theta point)" : "end-of-step (Siconos)");
    examples::printNewtonRange(run, true);
    std::printf(
        "  max |E - E0|:            %.3e J (E0 = %.6f J, max kinetic energy scale m g L = %.3f "
        "J)\n",
        maxDE, E0, m * g * L);
    std::printf("  max ||y0|| hinges:       %.3e (position drift)\n", maxY0);
    std::printf("  max ||y1|| hinges:       %.3e\n", maxY1);
    std::printf("  max out-of-plane angle:  %.3e rad\n", maxOff);
    examples::printRunFooter(
        opt, name, csv, vtk,
        {"DoublePendulumHinges: two rods on hinges, released horizontal, theta = 1/2",
         {{2, "x1", 0},
          {4, "z1", 0},
          {9, "x2", 0},
          {11, "z2", 0},
          {16, "kinetic", 1},
          {17, "potential", 1},
          {18, "E", 1},
          {19, "hinge1 ||y0||", 2},
          {21, "hinge2 ||y0||", 2}},
         {"centres of mass (m)", "energy (J)", "joint drift (m)"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
