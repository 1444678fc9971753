// BouncingBallNETS: a rigid ball (NewtonEulerDS) bouncing on the plane x = 0,
// Moreau-Jean time-stepping with Newton iterations and a 3D frictional contact
// (MECHANICS.md §1). Built twice: BouncingBallNETS (MoreauJeanOSI +
// TimeStepping) and BouncingBallNETS-WITHPROJ (MoreauJeanDirectProjectionOSI +
// TimeSteppingDirectProjection: positions projected onto the constraint).
//
//   build/bin/BouncingBallNETS [--output DIR] [--no-plot] [--quiet]
//   build/bin/BouncingBallNETS-WITHPROJ [...]
//
// Writes DIR/<Name>.csv (2001 rows, t = 0 ... 10; columns below), DIR/<Name>.png
// and VTK frames DIR/<Name>_NNNNNN.vtp + DIR/<Name>.pvd.
#include <cmath>
#include <cstdio>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/NewtonEuler3DR.hpp>

#include "body_run.hpp"

#ifndef NSDYN_WITH_PROJECTION
#define NSDYN_WITH_PROJECTION 0
#endif

using namespace nsdyn;

int main(int argc, char** argv) {
  const char* name = NSDYN_WITH_PROJECTION ? "BouncingBallNETS-WITHPROJ" : "BouncingBallNETS";
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name,
      NSDYN_WITH_PROJECTION ? "rigid ball on a plane, Moreau-Jean + Newton + position projection"
                            : "rigid ball on a plane, Moreau-Jean + Newton, 3D friction contact");

  // Parameters (MECHANICS.md §1)
  const double t0 = 0.0, T = 10.0, h = 0.005, theta = 0.5;
  const double m = 1.0, R = 0.1, g = 9.81;
  const long N = static_cast<long>(std::ceil((T - t0) / h));

  try {
    // The ball: centre (1, 0, 0), identity orientation, thrown up (+x) at 2 m/s, I = identity
    auto ball = std::make_shared<NewtonEulerDS>(SiconosVector{1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0},
                                                SiconosVector{2.0, 0.0, 0.0, 0.0, 0.0, 0.0}, m,
                                                SimpleMatrix::identity(3));
    ball->setFExt(SiconosVector{-m * g, 0.0, 0.0});

    // Contact with the plane x = 0: gap |x| - R, normal +x, contact point (gap, y, z)
    auto relation = std::make_shared<NewtonEuler3DR>(
        [R](const SiconosVector& q, double, NewtonEuler1DR::Geometry& geo) {
          const double gap = std::fabs(q(0)) - R;
          geo.N = SiconosVector{1.0, 0.0, 0.0};
          geo.Pc1 = SiconosVector{gap, q(1), q(2)};
          return gap;
        });
    auto contact = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactFrictionNSL>(0.9, 0.9, 0.6, 3), relation);

    auto model = std::make_shared<Model>(t0, T);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ball);
    model->nonSmoothDynamicalSystem()->link(contact, ball);

    auto td = std::make_shared<TimeDiscretisation>(t0, h);
    auto fc = std::make_shared<FrictionContact>(3);
    SP::TimeStepping sim;
#if NSDYN_WITH_PROJECTION
    auto projected = std::make_shared<TimeSteppingDirectProjection>(
        td, std::make_shared<MoreauJeanDirectProjectionOSI>(theta), fc);
    projected->setProjectionMaxIteration(20);
    projected->setConstraintTol(1e-8);
    projected->setConstraintTolUnilateral(1e-8);
    sim = projected;
#else
    sim = std::make_shared<TimeStepping>(td, std::make_shared<MoreauJeanOSI>(theta), fc);
#endif
    sim->setNewtonTolerance(1e-10);
    sim->setNewtonMaxIteration(10);
    model->initialize(sim);

    // Output: row 0 is the initial state, then one row per step
    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"),
                            {"t", "x", "vx", "p_x", "lambda_n", "acos_q0", "contact_force", "q0",
                             "q1", "q2", "q3", "q4", "q5", "q6", "vy", "vz"});
    auto writeRow = [&](double t) {
      const SiconosVector& q = ball->q();
      const SiconosVector& v = ball->velocity();
      std::vector<double> row{t,
                              q(0),
                              v(0),
                              ball->p()(0),
                              contact->lambda(1)(0),
                              std::acos(q(3)),
                              contact->contactForce(t).norm2()};
      for (std::size_t i = 0; i < 7; ++i) row.push_back(q(i));
      row.push_back(v(1));
      row.push_back(v(2));
      csv.row(row);
    };
    writeRow(t0);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {ball});
    const examples::RunStatistics run = examples::runSteps(
        *sim, N, opt, vtk, [&](double t, const StepStatistics&) { writeRow(t); });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with a contact");
    examples::printNewtonRange(run);
    examples::printRunFooter(opt, name, csv, vtk,
                             {std::string(name) + ": rigid ball on a plane, e = 0.9",
                              {{2, "x", 0}, {3, "vx", 1}, {5, "lambda_n", 2}},
                              {"height x (m)", "velocity (m/s)", "impulse (N s)"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
