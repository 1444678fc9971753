// NE_3DS_3Knee_1Prism_MLCP: a chain of three beams in the vertical xz plane:
// beam 1 hangs from the world origin (ball joint), beam 2 is ball-jointed to
// the end of beam 1, beam 3 to the end of beam 2 and slides along the world
// vertical (prismatic joint); a floor z3 >= -2.3 (Newton impact law, e = 0.9)
// stops beam 3. Moreau-Jean theta = 1 with Newton iterations, MLCP solved by
// enumeration (MECHANICS.md §4, the Siconos JointsTests run).
//
//   build/bin/NE_3DS_3Knee_1Prism_MLCP [--output DIR] [--no-plot] [--quiet] [--diagnostics]
//
// Writes DIR/NE_3DS_3Knee_1Prism_MLCP.csv (1000 rows, no initial row: row k is
// the state after step k+1, t = 0.01 ... 10): t, q_beam1[0..6], q_beam2[0..6],
// q_beam3[0..6]. With --diagnostics 12 more columns: Newton iterations of the
// step, ||y0|| and ||y1|| of knee1, knee2, knee3 and of the prismatic joint
// (after the step), the floor gap y0 = z3 + 2.3 and its impulse lambda.
// Also DIR/NE_3DS_3Knee_1Prism_MLCP.png and VTK frames (every 10th step) + .pvd.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>
#include <nsdyn/KneeJointR.hpp>
#include <nsdyn/NewtonEulerR.hpp>
#include <nsdyn/PrismaticJointR.hpp>

#include "body_run.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const char* name = "NE_3DS_3Knee_1Prism_MLCP";
  bool diagnostics = false;
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name,
      "three beams, three ball joints, a slider and a floor, Moreau-Jean theta = 1 + MLCP",
      {examples::switchOption("--diagnostics", diagnostics)},
      "(also --diagnostics: 12 more CSV columns, Newton iterations, joint outputs, floor gap)");

  // Parameters (MECHANICS.md §4)
  const double t0 = 0.0, h = 0.01, theta = 1.0;
  const long N = 1000;
  const double m = 1.0, g = 9.81;
  const double s2 = std::sqrt(2.0), pi = std::acos(-1.0);

  try {
    // beams: m = 1, I = diag(0.1, 1, 1), at rest, rotated by alpha about the world y axis
    auto beam = [&](double x, double z, double alpha) {
      auto b = std::make_shared<NewtonEulerDS>(
          SiconosVector{x, 0.0, z, std::cos(alpha / 2.0), 0.0, std::sin(alpha / 2.0), 0.0},
          SiconosVector(6), m, SimpleMatrix::diagonal(SiconosVector{0.1, 1.0, 1.0}));
      b->setFExt(SiconosVector{0.0, 0.0, -m * g});
      return b;
    };
    auto beam1 = beam(0.5 / s2, -0.5 / s2, pi / 4.0);
    auto beam2 = beam(1.0 / s2 - 0.5 / s2, -1.0 / s2 - 0.5 / s2, -pi / 4.0);
    auto beam3 = beam(0.0, -s2 - 0.5, pi / 2.0);

    // joints (EqualityConditionNSL): knee1 beam1 - world origin; knee2 at (0.5,0,0) of beam1;
    // knee3 at (-0.5,0,0) of beam2; beam3 slides along its body x axis (world -z)
    auto knee1 = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(3),
        std::make_shared<KneeJointR>(SiconosVector{0.0, 0.0, 0.0}, true, beam1));
    auto knee2 = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(3),
        std::make_shared<KneeJointR>(SiconosVector{0.5, 0.0, 0.0}, false, beam1, beam2));
    auto knee3 = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(3),
        std::make_shared<KneeJointR>(SiconosVector{-0.5, 0.0, 0.0}, false, beam2, beam3));
    auto prism = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(5),
        std::make_shared<PrismaticJointR>(SiconosVector{1.0, 0.0, 0.0}, false, beam3));
    // floor under beam 3: y = z3 + 2.3 >= 0, Newton impact e = 0.9
    auto floorContact = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(0.9),
        std::make_shared<NewtonEulerR>(SimpleMatrix{{0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0}},
                                       SiconosVector{2.3}));

    auto model = std::make_shared<Model>(t0, t0 + N * h);
    auto nsds = model->nonSmoothDynamicalSystem();
    for (const auto& b : {beam1, beam2, beam3}) nsds->insertDynamicalSystem(b);
    nsds->link(knee1, beam1);
    nsds->link(knee2, beam1, beam2);
    nsds->link(knee3, beam2, beam3);
    nsds->link(prism, beam3);
    nsds->link(floorContact, beam3);

    // one MoreauJeanOSI(1) for the three beams (Siconos uses one per beam: the same scheme)
    auto sim = examples::makeMoreauJeanNewton(*model, {t0, h, theta, 5e-4, 50},
                                              std::make_shared<MLCP>("enum"));

    std::vector<std::string> columns{"t"};
    for (int b = 1; b <= 3; ++b)
      for (int i = 0; i < 7; ++i)
        columns.push_back("b" + std::to_string(b) + "_q" + std::to_string(i));
    if (diagnostics)
      for (const char* c :
           {"newton_iterations", "knee1_y0", "knee1_y1", "knee2_y0", "knee2_y1", "knee3_y0",
            "knee3_y1", "prism_y0", "prism_y1", "floor_gap", "floor_lambda", "active_relations"})
        columns.push_back(c);
    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"), columns);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {beam1, beam2, beam3});

    int impacts = 0;
    double maxKneeY0 = 0.0, maxKneeY1 = 0.0, maxPrismY0 = 0.0, maxPrismY1 = 0.0, minGap = 1e300;
    const examples::RunStatistics run =
        examples::runSteps(*sim, N, opt, vtk, [&](double t, const StepStatistics& st) {
          for (const auto& kn : {knee1, knee2, knee3}) {
            maxKneeY0 = std::max(maxKneeY0, kn->y(0).norm2());
            maxKneeY1 = std::max(maxKneeY1, kn->y(1).norm2());
          }
          maxPrismY0 = std::max(maxPrismY0, prism->y(0).norm2());
          maxPrismY1 = std::max(maxPrismY1, prism->y(1).norm2());
          minGap = std::min(minGap, floorContact->y(0)(0));
          if (floorContact->lambda(1)(0) > 1e-10) ++impacts;
          std::vector<double> row{t};
          for (const auto& b : {beam1, beam2, beam3})
            for (std::size_t i = 0; i < 7; ++i) row.push_back(b->q()(i));
          if (diagnostics) {
            row.push_back(st.newtonIterations);
            for (const auto& in : {knee1, knee2, knee3, prism}) {
              row.push_back(in->y(0).norm2());
              row.push_back(in->y(1).norm2());
            }
            row.push_back(floorContact->y(0)(0));
            row.push_back(floorContact->lambda(1)(0));
            row.push_back(static_cast<double>(st.activeRelations));
          }
          csv.row(row);
        });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with an active relation");
    examples::printNewtonRange(run);
    std::printf("  max ||y0|| knees:        %.6g (position drift)\n", maxKneeY0);
    std::printf("  max ||y1|| knees:        %.3g\n", maxKneeY1);
    std::printf("  max ||y0||, ||y1|| prism: %.6g, %.3g\n", maxPrismY0, maxPrismY1);
    std::printf("  min floor gap z3 + 2.3:  %.6g (%d steps with a floor impulse)\n", minGap,
                impacts);
    examples::printRunFooter(
        opt, name, csv, vtk,
        {"NE_3DS_3Knee_1Prism_MLCP: three beams, ball joints, slider, floor z3 >= -2.3",
         {{2, "x1", 0},
          {4, "z1", 0},
          {9, "x2", 0},
          {11, "z2", 0},
          {16, "x3", 0},
          {18, "z3", 0},
          {5, "beam1 quat q0", 1},
          {12, "beam2 quat q0", 1},
          {19, "beam3 quat q0", 1}},
         {"centres of mass (m)", "quaternion q0"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
