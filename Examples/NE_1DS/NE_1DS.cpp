// NE_1DS: one free rigid body (NewtonEulerDS) spinning about its body z axis
// and thrown sideways under gravity, Moreau-Jean theta = 1 with Newton
// iterations; no interaction (MECHANICS.md §3a, the Siconos JointsTests run).
//
//   build/bin/NE_1DS [--output DIR] [--no-plot] [--quiet] [--diagnostics]
//
// Writes DIR/NE_1DS.csv (1000 rows, no initial row: row k is the state after
// step k+1, t = 0.01 ... 10): t, q[0..6], then 14 zero columns (the 22 columns
// of the Siconos output); with --diagnostics 7 more columns: Newton iterations
// of the step and v[0..5]. Also DIR/NE_1DS.png and VTK frames DIR/NE_1DS_NNNNNN.vtp
// + DIR/NE_1DS.pvd (every 10th step).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>

#include "body_run.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const char* name = "NE_1DS";
  bool diagnostics = false;
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name, "free spinning rigid body, Moreau-Jean theta = 1 + Newton",
      {examples::switchOption("--diagnostics", diagnostics)},
      "(also --diagnostics: 7 more CSV columns, Newton iterations and v[0..5])");

  // Parameters (MECHANICS.md §3a)
  const double t0 = 0.0, h = 0.01, theta = 1.0;
  const long N = 1000;
  const double m = 1.0, g = 9.81;
  const double s2 = std::sqrt(2.0), pi = std::acos(-1.0);

  try {
    const SiconosVector q0{0.5 / s2,           0.0, -0.5 / s2, std::cos(pi / 8.0), 0.0,
                           std::sin(pi / 8.0), 0.0};
    const SiconosVector v0{100.0, 0.0, 0.0, 0.0, 0.0, 100.0};
    const SimpleMatrix inertia{{0.1, 0.1, 0.0}, {0.1, 1.0, 0.0}, {0.0, 0.0, 1.0}};
    auto body = std::make_shared<NewtonEulerDS>(q0, v0, m, inertia);
    body->setFExt(SiconosVector{0.0, 0.0, -m * g});

    auto model = std::make_shared<Model>(t0, t0 + N * h);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(body);

    // MoreauJeanOSI(1), an (empty) MLCP as in the Siconos driver, Newton tol 1e-6, at most 10
    // iterations
    auto sim = examples::makeMoreauJeanNewton(*model, {t0, h, theta, 1e-6, 10},
                                              std::make_shared<MLCP>("enum"));

    std::vector<std::string> columns{"t", "q0", "q1", "q2", "q3", "q4", "q5", "q6"};
    for (int c = 8; c < 22; ++c) columns.push_back("zero" + std::to_string(c));
    if (diagnostics)
      for (const char* c : {"newton_iterations", "v0", "v1", "v2", "v3", "v4", "v5"})
        columns.push_back(c);
    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"), columns);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {body});

    const examples::RunStatistics run =
        examples::runSteps(*sim, N, opt, vtk, [&](double t, const StepStatistics& st) {
          // no initial row: row k is the state after step k+1
          std::vector<double> row{t};
          for (std::size_t i = 0; i < 7; ++i) row.push_back(body->q()(i));
          row.resize(22, 0.0);
          if (diagnostics) {
            row.push_back(st.newtonIterations);
            for (std::size_t i = 0; i < 6; ++i) row.push_back(body->velocity()(i));
          }
          csv.row(row);
        });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with an active relation");
    examples::printNewtonRange(run);
    std::printf("  final q:                 %s\n", body->q().toString().c_str());
    examples::printRunFooter(
        opt, name, csv, vtk,
        {"NE_1DS: free body spinning about body z (100 rad/s), gravity -z, theta = 1, h = 0.01",
         {{2, "x", 0},
          {4, "z", 0},
          {5, "quat q0", 1},
          {6, "quat q1", 1},
          {7, "quat q2", 1},
          {8, "quat q3", 1}},
         {"centre of mass (m)", "quaternion"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
