// BallNewtonEulerOnMovingPlane: a rigid ball bouncing on a plane body whose
// velocity along x is prescribed, v_x(t) = 2 + cos(pi t / 2) (a velocity
// boundary condition), MECHANICS.md §2.
//
//   build/bin/BallNewtonEulerOnMovingPlane [--output DIR] [--no-plot] [--quiet]
//
// Writes DIR/BallNewtonEulerOnMovingPlane.csv (2001 rows, t = 0 ... 10; 19
// columns, see README.md), a plot and VTK frames of both bodies.
#include <cmath>
#include <cstdio>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/NewtonEuler3DR.hpp>

#include "body_run.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const char* name = "BallNewtonEulerOnMovingPlane";
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name, "rigid ball on a plane body with a prescribed velocity");

  const double t0 = 0.0, T = 10.0, h = 0.005, theta = 0.5;
  const double m = 1.0, R = 0.0, g = 9.81;
  const double pi = std::acos(-1.0);
  const long N = static_cast<long>(std::ceil((T - t0) / h));

  try {
    // The ball (DS 1) and the plane (DS 2), both m = 1, I = identity, weight along -x
    auto ball = std::make_shared<NewtonEulerDS>(SiconosVector{1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0},
                                                SiconosVector{2.0, 0.0, 0.0, 0.0, 0.0, 0.0}, m,
                                                SimpleMatrix::identity(3));
    ball->setFExt(SiconosVector{-m * g, 0.0, 0.0});
    auto plane = std::make_shared<NewtonEulerDS>(SiconosVector{0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0},
                                                 SiconosVector(6), m, SimpleMatrix::identity(3));
    plane->setFExt(SiconosVector{-m * g, 0.0, 0.0});
    // the plane's x velocity is prescribed: v_x(t) = 2 + cos(pi t / 2)
    plane->setBoundaryConditions(
        {0}, [pi](double t) { return SiconosVector{2.0 + std::cos(pi * t / 2.0)}; });

    // Two-body contact: gap x_ball - R - x_plane, normal +x
    auto relation = std::make_shared<NewtonEuler3DR>(
        [R](const SiconosVector& q, double, NewtonEuler1DR::Geometry& geo) {
          geo.N = SiconosVector{1.0, 0.0, 0.0};
          geo.Pc1 = SiconosVector{q(0) - R, q(1), q(2)};
          geo.Pc2 = SiconosVector{q(7), q(8), q(9)};
          return q(0) - R - q(7);
        });
    auto contact = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactFrictionNSL>(0.9, 0.9, 0.6, 3), relation);

    auto model = std::make_shared<Model>(t0, T);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ball);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(plane);
    model->nonSmoothDynamicalSystem()->link(contact, ball, plane);

    auto sim = examples::makeMoreauJeanNewton(*model, {t0, h, theta, 1e-10, 10},
                                              std::make_shared<FrictionContact>(3));

    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"),
                            {"t", "x_ball", "vx_ball", "px_ball", "lambda_n_row0", "acos_q0",
                             "contact_force", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "vy_ball",
                             "vz_ball", "x_plane", "vx_plane", "bc_reaction"});
    // row 0 as the Siconos driver prints it: lambda, and the plane's z (not x) entries
    auto writeRow = [&](double t, bool first) {
      const SiconosVector& q = ball->q();
      const SiconosVector& v = ball->velocity();
      std::vector<double> row{t,
                              q(0),
                              v(0),
                              ball->p()(0),
                              first ? contact->lambda(1)(0) : 0.0,
                              std::acos(q(3)),
                              contact->contactForce(t).norm2()};
      for (std::size_t i = 0; i < 7; ++i) row.push_back(q(i));
      row.push_back(v(1));
      row.push_back(v(2));
      row.push_back(plane->q()(first ? 2 : 0));
      row.push_back(plane->velocity()(first ? 2 : 0));
      row.push_back(plane->boundaryReaction()(0));
      csv.row(row);
    };
    writeRow(t0, true);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {ball, plane});
    const examples::RunStatistics run = examples::runSteps(
        *sim, N, opt, vtk, [&](double t, const StepStatistics&) { writeRow(t, false); });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with a contact");
    examples::printRunFooter(opt, name, csv, vtk,
                             {std::string(name) + ": ball on a moving plane",
                              {{2, "x ball", 0},
                               {17, "x plane", 0},
                               {3, "vx ball", 1},
                               {18, "vx plane", 1},
                               {7, "|contact impulse|", 2}},
                              {"position x (m)", "velocity (m/s)", "impulse (N s)"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
