// NE_1DS_1Knee_MLCP: the body of NE_1DS held at the world origin by a ball
// joint (KneeJointR, EqualityConditionNSL(3)), launched sideways at 100 m/s;
// Moreau-Jean theta = 1 with Newton iterations, MLCP solved by enumeration
// (MECHANICS.md §3b, the Siconos JointsTests run). The constraint is imposed
// on velocities only (H v = 0): the joint position drifts.
//
//   build/bin/NE_1DS_1Knee_MLCP [--output DIR] [--no-plot] [--quiet] [--diagnostics]
//
// Writes DIR/NE_1DS_1Knee_MLCP.csv (1000 rows, no initial row: row k is the
// state after step k+1, t = 0.01 ... 10): t, q[0..6], ||y0|| = ||h(q)||,
// ||y1|| = ||H v||, then 12 zero columns; with --diagnostics 8 more columns:
// Newton iterations of the step, whether it converged (1/0), v[0..5].
// Also DIR/NE_1DS_1Knee_MLCP.png and VTK frames (every 10th step) + .pvd.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>
#include <nsdyn/KneeJointR.hpp>

#include "body_run.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const char* name = "NE_1DS_1Knee_MLCP";
  bool diagnostics = false;
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name, "rigid body on a ball joint, Moreau-Jean theta = 1 + MLCP",
      {examples::switchOption("--diagnostics", diagnostics)},
      "(also --diagnostics: 8 more CSV columns, Newton iterations, converged, v[0..5])");

  // Parameters (MECHANICS.md §3b)
  const double t0 = 0.0, h = 0.01, theta = 1.0;
  const long N = 1000;
  const double m = 1.0, g = 9.81;
  const double s2 = std::sqrt(2.0), pi = std::acos(-1.0);

  try {
    const SiconosVector q0{0.5 / s2,           0.0, -0.5 / s2, std::cos(pi / 8.0), 0.0,
                           std::sin(pi / 8.0), 0.0};
    const SiconosVector v0{100.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    const SimpleMatrix inertia{{0.1, 0.1, 0.0}, {0.1, 1.0, 0.0}, {0.0, 0.0, 1.0}};
    auto body = std::make_shared<NewtonEulerDS>(q0, v0, m, inertia);
    body->setFExt(SiconosVector{0.0, 0.0, -m * g});

    // the body point at the world origin stays there (P absolute)
    auto knee = std::make_shared<KneeJointR>(SiconosVector{0.0, 0.0, 0.0}, true, body);
    auto joint = std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(3), knee);

    auto model = std::make_shared<Model>(t0, t0 + N * h);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(body);
    model->nonSmoothDynamicalSystem()->link(joint, body);

    auto sim = examples::makeMoreauJeanNewton(*model, {t0, h, theta, 1e-6, 50},
                                              std::make_shared<MLCP>("enum"));

    std::vector<std::string> columns{"t",  "q0", "q1", "q2",      "q3",
                                     "q4", "q5", "q6", "norm_y0", "norm_y1"};
    for (int c = 10; c < 22; ++c) columns.push_back("zero" + std::to_string(c));
    if (diagnostics)
      for (const char* c :
           {"newton_iterations", "newton_converged", "v0", "v1", "v2", "v3", "v4", "v5"})
        columns.push_back(c);
    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"), columns);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {body});

    double maxY0 = 0.0, maxY1 = 0.0;
    const examples::RunStatistics run =
        examples::runSteps(*sim, N, opt, vtk, [&](double t, const StepStatistics& st) {
          // outputs after the step: y0 = h(q), y1 = H v (MECHANICS.md §0.4 step 7)
          const double y0 = joint->y(0).norm2(), y1 = joint->y(1).norm2();
          maxY0 = std::max(maxY0, y0);
          maxY1 = std::max(maxY1, y1);
          std::vector<double> row{t};
          for (std::size_t i = 0; i < 7; ++i) row.push_back(body->q()(i));
          row.push_back(y0);
          row.push_back(y1);
          row.resize(22, 0.0);
          if (diagnostics) {
            row.push_back(st.newtonIterations);
            row.push_back(st.newtonConverged ? 1.0 : 0.0);
            for (std::size_t i = 0; i < 6; ++i) row.push_back(body->velocity()(i));
          }
          csv.row(row);
        });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with the joint active");
    examples::printNewtonRange(run, true);
    std::printf("  max ||y0|| (joint drift): %.6g\n", maxY0);
    std::printf("  max ||y1|| (H v):         %.3g\n", maxY1);
    examples::printRunFooter(
        opt, name, csv, vtk,
        {"NE_1DS_1Knee_MLCP: body on a ball joint at the origin, theta = 1, h = 0.01",
         {{2, "x", 0},
          {3, "y", 0},
          {4, "z", 0},
          {5, "quat q0", 1},
          {6, "quat q1", 1},
          {7, "quat q2", 1},
          {8, "quat q3", 1},
          {9, "||y0|| (joint drift)", 2}},
         {"centre of mass (m)", "quaternion", "||h(q)|| (m)"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
