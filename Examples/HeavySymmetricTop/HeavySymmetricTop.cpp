// HeavySymmetricTop: a symmetric top (I = diag(I1, I1, I3) about its centre of
// mass, symmetry axis = body z) whose tip is held at the world origin by a
// ball joint (KneeJointR, EqualityConditionNSL(3)); the centre of mass is at
// l along the symmetry axis; gravity -z. Released with a fast spin omega3
// about its axis, tilted by 30 degrees from the vertical and without
// precession velocity, it nutates slightly and precesses about the vertical
// at the mean rate of the gyroscopic (fast-top) closed form
//     Omega_p = m g l / (I3 omega3),
// valid when the spin energy dominates: m g l I1' / (I3 omega3)^2 << 1 with
// I1' = I1 + m l^2 the transverse inertia about the tip (here 0.004).
// Moreau-Jean theta = 1/2 with Newton iterations, MLCP solved by enumeration.
//
//   build/bin/HeavySymmetricTop [--output DIR] [--no-plot] [--quiet] [--step H]
//
// --step H: time step (default 5e-4); the run lasts T = 4 (N = round(T/H) steps).
// Writes DIR/HeavySymmetricTop.csv (N + 1 rows, t = 0 ... 4, row 0 the initial
// state): t, q[0..6], Omega[0..2] (body frame), the symmetry axis in the world
// ax, ay, az, its tilt from the vertical (rad), its azimuth phi (rad, unwrapped),
// ||y0|| = ||h(q)|| (tip drift), ||y1|| = ||H v||, the energy E = kinetic +
// m g z, Newton iterations of the step (0 on row 0).
// Also DIR/HeavySymmetricTop.png and VTK frames (every 10th step) + .pvd.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>
#include <nsdyn/KneeJointR.hpp>

#include "body_run.hpp"

using namespace nsdyn;

int main(int argc, char** argv) {
  const char* name = "HeavySymmetricTop";
  double h = 5e-4;         // --step H
  bool conserving = true;  // --scheme energy-conserving (default) | siconos
  auto setScheme = [&](const char* value) {
    const bool ec = std::strcmp(value, "energy-conserving") == 0,
               siconos = std::strcmp(value, "siconos") == 0;
    conserving = ec;
    return ec || siconos;
  };
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name,
      "fast symmetric top on a fixed tip, gravity: precession rate, Moreau-Jean theta = 1/2",
      {{"--scheme", "energy-conserving or siconos", setScheme}, examples::stepOption(h, 0.1)},
      "(also --step H: time step, default 5e-4; T = 4;\n"
      " --scheme energy-conserving|siconos: energy-momentum gyroscopic term and midpoint joint "
      "(default),\n"
      " or the Siconos trapezoidal term and end-of-step joint)");

  const double t0 = 0.0, T = 4.0, theta = 0.5;
  const long N = std::lround((T - t0) / h);
  const double m = 1.0, g = 9.81, l = 0.1, I1 = 0.006, I3 = 0.01, omega3 = 200.0;
  const double pi = std::acos(-1.0), tilt0 = pi / 6.0;
  const double precessionClosedForm = m * g * l / (I3 * omega3);

  try {
    // axis a = (sin tilt0, 0, cos tilt0) (rotation of tilt0 about world y), centre of mass at l a,
    // pure spin
    const SiconosVector q0{
        l * std::sin(tilt0),   0.0, l * std::cos(tilt0), std::cos(tilt0 / 2.0), 0.0,
        std::sin(tilt0 / 2.0), 0.0};
    const SiconosVector v0{0.0, 0.0, 0.0, 0.0, 0.0, omega3};
    auto top = std::make_shared<NewtonEulerDS>(q0, v0, m,
                                               SimpleMatrix::diagonal(SiconosVector{I1, I1, I3}));
    top->setFExt(SiconosVector{0.0, 0.0, -m * g});
    if (conserving) top->setGyroscopicScheme(NewtonEulerDS::GyroscopicScheme::EnergyMomentum);

    // the tip (the body point at the world origin) stays there
    auto tip = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(3),
        std::make_shared<KneeJointR>(SiconosVector{0.0, 0.0, 0.0}, true, top));
    auto model = std::make_shared<Model>(t0, t0 + N * h);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(top);
    model->nonSmoothDynamicalSystem()->link(tip, top);
    auto sim = examples::makeMoreauJeanNewton(*model, {t0, h, theta, 1e-10, 50, conserving},
                                              std::make_shared<MLCP>("enum"));

    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"),
                            {"t",      "q0",      "q1",      "q2",     "q3",
                             "q4",     "q5",      "q6",      "Omega1", "Omega2",
                             "Omega3", "ax",      "ay",      "az",     "tilt",
                             "phi",    "norm_y0", "norm_y1", "E",      "newton_iterations"});
    double phi = 0.0, phiPrev = 0.0;
    bool first = true;
    // least-squares slope of phi(t) over all rows
    double st = 0.0, sp = 0.0, stt = 0.0, stp = 0.0, n = 0.0;
    double tiltMin = 1e300, tiltMax = -1e300, maxY0 = 0.0, maxY1 = 0.0, E0 = 0.0, maxDE = 0.0;
    auto writeRow = [&](double t, int newton) {
      const SiconosVector& q = top->q();
      const SiconosVector& v = top->velocity();
      const SimpleMatrix R = top->rotationMatrix();
      const double ax = R(0, 2), ay = R(1, 2), az = R(2, 2);
      const double na = std::sqrt(ax * ax + ay * ay + az * az);
      const double tilt = std::acos(az / na);
      const double raw = std::atan2(ay, ax);
      if (first) {
        phi = raw;
        first = false;
      } else {
        double d = raw - phiPrev;
        while (d > pi) d -= 2.0 * pi;
        while (d < -pi) d += 2.0 * pi;
        phi += d;
      }
      phiPrev = raw;
      const double E = top->kineticEnergy() + top->potentialEnergy(t);
      if (n == 0.0) E0 = E;
      maxDE = std::max(maxDE, std::fabs(E - E0));
      st += t;
      sp += phi;
      stt += t * t;
      stp += t * phi;
      n += 1.0;
      tiltMin = std::min(tiltMin, tilt);
      tiltMax = std::max(tiltMax, tilt);
      const double y0 = tip->y(0).norm2(), y1 = tip->y(1).norm2();
      maxY0 = std::max(maxY0, y0);
      maxY1 = std::max(maxY1, y1);
      std::vector<double> row{t};
      for (std::size_t i = 0; i < 7; ++i) row.push_back(q(i));
      for (std::size_t i = 3; i < 6; ++i) row.push_back(v(i));
      for (double x : {ax, ay, az, tilt, phi, y0, y1, E}) row.push_back(x);
      row.push_back(newton);
      csv.row(row);
    };
    writeRow(t0, 0);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {top});
    const examples::RunStatistics run = examples::runSteps(
        *sim, N, opt, vtk,
        [&](double t, const StepStatistics& s) { writeRow(t, s.newtonIterations); });
    const double rate = (n * stp - st * sp) / (n * stt - st * st);

    examples::printSummary(name, *sim, run.wallSeconds, "steps with the joint active");
    examples::printNewtonRange(run);
    std::printf("  scheme:                  %s\n",
                conserving ? "energy-momentum gyroscopic term, midpoint joint"
                           : "Siconos (trapezoidal gyroscopic term, end-of-step joint)");
    std::printf("  precession rate:         %.6f rad/s (least-squares slope of phi(t))\n", rate);
    std::printf("  closed form m g l/(I3 w3): %.6f rad/s, relative difference %.3e\n",
                precessionClosedForm, (rate - precessionClosedForm) / precessionClosedForm);
    std::printf("  tilt:                    %.6f to %.6f rad (nutation)\n", tiltMin, tiltMax);
    std::printf("  max ||y0|| (tip drift):  %.3e m\n", maxY0);
    std::printf("  max ||y1|| (H v):        %.3e m/s\n", maxY1);
    std::printf("  max |E - E0|:            %.3e J (E0 = %.6f J)\n", maxDE, E0);
    examples::printRunFooter(
        opt, name, csv, vtk,
        {"HeavySymmetricTop: spin 200 rad/s, tip fixed, gravity, theta = 1/2",
         {{16, "phi (precession angle)", 0}, {15, "tilt", 1}, {17, "||y0|| (tip drift)", 2}},
         {"azimuth of the axis (rad)", "tilt from vertical (rad)", "joint drift (m)"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
