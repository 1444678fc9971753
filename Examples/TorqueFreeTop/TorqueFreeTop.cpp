// TorqueFreeTop: an asymmetric rigid body, I = diag(1, 2, 3), no force, no
// moment, spinning mostly about its intermediate axis (unstable: it flips
// over periodically, the "Dzhanibekov effect"). Exactly, the kinetic energy
// E = ½ Ωᵀ I Ω and the world angular momentum L = R I Ω are constant; the
// example measures how well the Moreau-Jean theta = 1/2 scheme with Newton
// iterations and the Lie-group position update keeps them.
//
//   build/bin/TorqueFreeTop [--output DIR] [--no-plot] [--quiet] [--step H]
//
// --step H: time step (default 0.01); the run lasts T = 20 (N = round(T/H) steps).
// Writes DIR/TorqueFreeTop.csv (N + 1 rows: row 0 is the initial state, row k
// the state after step k): t, q[0..6], Omega[0..2] (body frame), E, Lx, Ly, Lz
// (world), |quaternion|, Newton iterations of the step (0 on row 0).
// Also DIR/TorqueFreeTop.png and VTK frames (every 10th step) + .pvd.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>

#include "body_run.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const char* name = "TorqueFreeTop";
  double h = 0.01;             // --step H
  bool energyMomentum = true;  // --scheme energy-momentum (default) | trapezoidal
  auto setScheme = [&](const char* value) {
    const bool em = std::strcmp(value, "energy-momentum") == 0,
               trapezoidal = std::strcmp(value, "trapezoidal") == 0;
    energyMomentum = em;
    return em || trapezoidal;
  };
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name, "torque-free asymmetric top, Moreau-Jean theta = 1/2 + Newton",
      {{"--scheme", "energy-momentum or trapezoidal", setScheme}, examples::stepOption(h, 1.0)},
      "(also --step H: time step, default 0.01; T = 20;\n"
      " --scheme energy-momentum|trapezoidal: gyroscopic term, default energy-momentum)");

  const double t0 = 0.0, T = 20.0, theta = 0.5;
  const long N = std::lround((T - t0) / h);
  const double m = 1.0;

  try {
    // generic orientation: 0.7 rad about (1, 2, 3)/sqrt(14); spin near the intermediate axis
    const quaternion::Quat qr = quaternion::fromAxisAngle({1.0, 2.0, 3.0}, 0.7);
    const SiconosVector q0{0.0, 0.0, 0.0, qr[0], qr[1], qr[2], qr[3]};
    const SiconosVector v0{0.0, 0.0, 0.0, 0.1, 2.0, 0.2};
    auto body = std::make_shared<NewtonEulerDS>(
        q0, v0, m, SimpleMatrix::diagonal(SiconosVector{1.0, 2.0, 3.0}));
    body->setGyroscopicScheme(energyMomentum ? NewtonEulerDS::GyroscopicScheme::EnergyMomentum
                                             : NewtonEulerDS::GyroscopicScheme::Trapezoidal);

    auto model = std::make_shared<Model>(t0, t0 + N * h);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(body);
    auto sim = examples::makeMoreauJeanNewton(
        *model, {t0, h, theta, energyMomentum ? 1e-14 : 1e-12, 20}, nullptr);

    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"),
                            {"t", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "Omega1", "Omega2",
                             "Omega3", "E", "Lx", "Ly", "Lz", "quat_norm", "newton_iterations"});
    const double E0 = body->kineticEnergy();
    const SiconosVector L0 = body->angularMomentumWorld();
    double maxDE = 0.0, maxDL = 0.0, maxDN = 0.0;
    auto writeRow = [&](double t, int newton) {
      const SiconosVector& q = body->q();
      const SiconosVector& v = body->velocity();
      const SiconosVector L = body->angularMomentumWorld();
      const double E = body->kineticEnergy();
      const double qn = std::sqrt(q(3) * q(3) + q(4) * q(4) + q(5) * q(5) + q(6) * q(6));
      SiconosVector dL = L;
      dL -= L0;
      maxDE = std::max(maxDE, std::fabs(E - E0) / E0);
      maxDL = std::max(maxDL, dL.norm2() / L0.norm2());
      maxDN = std::max(maxDN, std::fabs(qn - 1.0));
      std::vector<double> row{t};
      for (std::size_t i = 0; i < 7; ++i) row.push_back(q(i));
      for (std::size_t i = 3; i < 6; ++i) row.push_back(v(i));
      row.push_back(E);
      for (std::size_t i = 0; i < 3; ++i) row.push_back(L(i));
      row.push_back(qn);
      row.push_back(newton);
      csv.row(row);
    };
    writeRow(t0, 0);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {body});
    const examples::RunStatistics run = examples::runSteps(
        *sim, N, opt, vtk,
        [&](double t, const StepStatistics& st) { writeRow(t, st.newtonIterations); });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with an active relation");
    std::printf("  time step, steps:        %g, %ld\n", h, N);
    std::printf("  gyroscopic scheme:       %s\n",
                energyMomentum ? "energy-momentum" : "trapezoidal (Siconos)");
    examples::printNewtonRange(run);
    std::printf("  max |E - E0|/E0:         %.3e\n", maxDE);
    std::printf("  max |L - L0|/|L0|:       %.3e (world angular momentum)\n", maxDL);
    std::printf("  max ||q| - 1|:           %.3e (quaternion norm)\n", maxDN);
    examples::printRunFooter(
        opt, name, csv, vtk,
        {"TorqueFreeTop: I = diag(1,2,3), spin near the intermediate axis, theta = 1/2",
         {{9, "Omega1", 0},
          {10, "Omega2", 0},
          {11, "Omega3", 0},
          {12, "E", 1},
          {13, "Lx", 2},
          {14, "Ly", 2},
          {15, "Lz", 2}},
         {"body angular velocity (rad/s)", "kinetic energy (J)",
          "world angular momentum (kg m2/s)"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
