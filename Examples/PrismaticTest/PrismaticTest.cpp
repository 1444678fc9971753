// PrismaticTest: a tilted rigid body on a prismatic joint along the world z
// axis (PrismaticJointR, absolute axis, EqualityConditionNSL(5)) falls under
// gravity: it slides down along z, its rotation stays the initial one.
// Moreau-Jean theta = 1 with Newton iterations (MECHANICS.md §5, the Siconos
// JointsTests run). Siconos uses its "Equality" one-step problem; nsdyn solves
// the same linear system as an MLCP whose rows are all equalities, by
// enumeration ("enum": one active set, one LU solve).
//
//   build/bin/PrismaticTest [--output DIR] [--no-plot] [--quiet] [--diagnostics]
//
// Writes DIR/PrismaticTest.csv (2000 rows, no initial row: row k is the state
// after step k+1, t = 0.001 ... 2): t, q[0..6]; with --diagnostics 9 more
// columns: Newton iterations of the step, ||y0|| = ||h(q)||, ||y1|| = ||H v||
// after the step, v[0..5]. Also DIR/PrismaticTest.png and VTK frames (every
// 10th step) + .pvd.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>
#include <nsdyn/PrismaticJointR.hpp>

#include "body_run.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const char* name = "PrismaticTest";
  bool diagnostics = false;
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name,
      "rigid body on a vertical prismatic joint, Moreau-Jean theta = 1, equality problem",
      {examples::switchOption("--diagnostics", diagnostics)},
      "(also --diagnostics: 9 more CSV columns, Newton iterations, ||y0||, ||y1||, v[0..5])");

  // Parameters (MECHANICS.md §5)
  const double t0 = 0.0, h = 0.001, theta = 1.0;
  const long N = 2000;
  const double m = 1.0, g = 9.81;
  const double pi = std::acos(-1.0), s14 = std::sqrt(14.0);

  try {
    // q0 = (1,1,1, cos(pi/5), V sin(pi/5)), V = (3,2,1)/sqrt(14): rotation of 2 pi/5 about V
    const double c = std::cos(pi / 5.0), s = std::sin(pi / 5.0);
    const SiconosVector q0{1.0, 1.0, 1.0, c, 3.0 / s14 * s, 2.0 / s14 * s, 1.0 / s14 * s};
    auto body = std::make_shared<NewtonEulerDS>(q0, SiconosVector(6), m, SimpleMatrix::identity(3));
    body->setFExt(SiconosVector{0.0, 0.0, -m * g});

    // slider along the world z axis (absolute axis, brought into the body frame at construction)
    auto prism = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(5),
        std::make_shared<PrismaticJointR>(SiconosVector{0.0, 0.0, 1.0}, true, body));

    auto model = std::make_shared<Model>(t0, t0 + N * h);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(body);
    model->nonSmoothDynamicalSystem()->link(prism, body);

    // Siconos "Equality" problem = an MLCP with equality rows only, solved directly
    auto sim = examples::makeMoreauJeanNewton(*model, {t0, h, theta, 5e-4, 50},
                                              std::make_shared<MLCP>("enum"));

    std::vector<std::string> columns{"t", "q0", "q1", "q2", "q3", "q4", "q5", "q6"};
    if (diagnostics)
      for (const char* col :
           {"newton_iterations", "norm_y0", "norm_y1", "v0", "v1", "v2", "v3", "v4", "v5"})
        columns.push_back(col);
    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"), columns);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {body});

    double maxY0 = 0.0, maxY1 = 0.0;
    const examples::RunStatistics run =
        examples::runSteps(*sim, N, opt, vtk, [&](double t, const StepStatistics& st) {
          maxY0 = std::max(maxY0, prism->y(0).norm2());
          maxY1 = std::max(maxY1, prism->y(1).norm2());
          std::vector<double> row{t};
          for (std::size_t i = 0; i < 7; ++i) row.push_back(body->q()(i));
          if (diagnostics) {
            row.push_back(st.newtonIterations);
            row.push_back(prism->y(0).norm2());
            row.push_back(prism->y(1).norm2());
            for (std::size_t i = 0; i < 6; ++i) row.push_back(body->velocity()(i));
          }
          csv.row(row);
        });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with the joint active");
    examples::printNewtonRange(run);
    std::printf("  max ||y0||, ||y1||:      %.3g, %.3g\n", maxY0, maxY1);
    std::printf("  final q:                 %s\n", body->q().toString().c_str());
    examples::printRunFooter(
        opt, name, csv, vtk,
        {"PrismaticTest: body on a vertical slider, gravity -z, theta = 1, h = 0.001",
         {{2, "x", 0},
          {3, "y", 0},
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
