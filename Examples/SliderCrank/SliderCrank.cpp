// SliderCrank: a crank (hinge to the world, driven by a velocity motor with a torque
// limit), a connecting rod (ball joints at both ends) and a slider (prismatic joint to
// the world along x) that hits a wall (a static half-space; the slider is a box whose
// contacts a ContactManager detects). Joints, motor and contacts are one
// GenericMechanical problem per step, in TimeSteppingDirectProjection (the joints are
// projected back onto their manifold after each step).
//
//   build/bin/SliderCrank [--output DIR] [--no-plot] [--quiet] [--step H] [--time T]
//                         [--no-projection]
//
// The mechanism moves in the plane xz, gravity is along -y (normal to that plane: the
// hinge carries it and it does no work). Crank: length r = 0.1 m, turning about the
// world y axis through the origin, the crank pin at (r cos th, 0, -r sin th); rod: length
// L = 0.3 m from the crank pin to the slider centre; slider centre at x(th) =
// r cos th + sqrt(L^2 - r^2 sin^2 th). The motor drives the crank at w = 2 pi rad/s with
// at most 2 N m. It starts at th = pi (x = L - r) with the velocities of the motion at
// w; the wall stops the slider centre at x = 0.35 m: the crank then stalls, the motor
// torque saturates at its limit and the wall force is tau_max / x'(th).
//
// Writes DIR/SliderCrank.csv (one row per step, row 0 the initial state):
// t, theta (crank angle, unwrapped), omega (crank rate about y), x (slider centre),
// x_closed (x(theta) in closed form), x_error (x - x_closed), v (slider velocity along
// x), motor_torque (lambda/h of the motor row), wall_force (sum of the normal contact
// impulses / h), wall_gap (wall - slider face, < 0 for a penetration), joint_drift (the
// largest position violation of the four joints, m), joint_angle_drift (the largest
// orientation violation, rad), kinetic, motor_work (cumulative), active_contacts,
// newton_iterations, projection_iterations.
// Also DIR/SliderCrank.png and VTK frames of the three bodies (every 10th step) + .pvd.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nsdyn/ContactManager.hpp>
#include <nsdyn/Kernel.hpp>

#include "body_run.hpp"

using namespace nsdyn;

namespace {

constexpr double kR = 0.1, kL = 0.3, kOmega = 2.0 * M_PI, kTorque = 2.0, kStop = 0.35;
constexpr double kHalf = 0.03;  // slider half-length along x

/// Closed-form slider position of the in-line slider-crank.
double sliderPosition(double th) {
  const double s = std::sin(th);
  return kR * std::cos(th) + std::sqrt(kL * kL - kR * kR * s * s);
}

/// World position of the body-frame point @p p of @p b.
SiconosVector worldPoint(const NewtonEulerDS& b, const SiconosVector& p) {
  const SimpleMatrix R = b.rotationMatrix();
  SiconosVector w(3);
  for (std::size_t i = 0; i < 3; ++i)
    w(i) = b.q()(i) + R(i, 0) * p(0) + R(i, 1) * p(1) + R(i, 2) * p(2);
  return w;
}

double distance(const SiconosVector& a, const SiconosVector& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < 3; ++i) s += (a(i) - b(i)) * (a(i) - b(i));
  return std::sqrt(s);
}

SP::Interaction equality(const SP::NewtonEulerJointR& j) {
  return std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(j->rows()), j);
}

}  // namespace

int main(int argc, char** argv) {
  const char* name = "SliderCrank";
  double h = 1e-3, T = 1.0;
  bool noProjection = false, detectedWall = false;
  auto setWall = [&](const char* value) {
    const std::string w(value);
    detectedWall = w == "contact";
    return w == "contact" || w == "limit";
  };
  const examples::ExampleOptions opt = examples::parseArguments(
      argc, argv, name, "slider-crank driven by a velocity motor, the slider stopped by a wall",
      {examples::stepOption(h, 0.01),
       examples::timeOption(T, 100.0),
       examples::switchOption("--no-projection", noProjection),
       {"--wall", "limit or contact", setWall}},
      "(also --step H: time step, default 1e-3; --time T: default 1;\n"
      " --no-projection: TimeStepping instead of TimeSteppingDirectProjection;\n"
      " --wall limit|contact: the wall as an upper limit of the slider's axis (default,\n"
      " NewtonImpactNSL, projected) or as a static half-space touched by the slider's box\n"
      " (ContactManager, detected contacts, not projected))");
  const long N = std::lround(T / h);
  const double g = 9.81, th0 = M_PI;

  try {
    // crank: centre at R(th0) (r/2, 0, 0), thin rod inertia; rod: along +x at t = 0
    const double mc = 1.0, mr = 0.5, ms = 1.0;
    const SiconosVector qy{std::cos(th0 / 2), 0.0, std::sin(th0 / 2), 0.0};
    const double Omega = kOmega * kR / kL;  // rod rate at the dead centre th = pi
    auto crank = std::make_shared<NewtonEulerDS>(
        SiconosVector{-kR / 2, 0.0, 0.0, qy(0), qy(1), qy(2), qy(3)},
        SiconosVector{0.0, 0.0, kOmega * kR / 2, 0.0, kOmega, 0.0}, mc,
        SimpleMatrix::diagonal(SiconosVector{1e-4, mc * kR * kR / 12, mc * kR * kR / 12}));
    auto rod = std::make_shared<NewtonEulerDS>(
        SiconosVector{kL / 2 - kR, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0},
        SiconosVector{0.0, 0.0, kOmega * kR / 2, 0.0, Omega, 0.0}, mr,
        SimpleMatrix::diagonal(SiconosVector{1e-4, mr * kL * kL / 12, mr * kL * kL / 12}));
    BodySpec spec;
    spec.name = "slider";
    spec.shapes = {ShapeInstance{std::make_shared<BoxShape>(Shape::Vec3{kHalf, 0.02, 0.02})}};
    spec.mass = ms;
    spec.position = {kL - kR, 0.0, 0.0};
    BodyShapes sliderShapes = makeBody(spec);
    auto slider = sliderShapes.body();
    crank->setFExt(SiconosVector{0.0, -mc * g, 0.0});
    rod->setFExt(SiconosVector{0.0, -mr * g, 0.0});
    slider->setFExt(SiconosVector{0.0, -ms * g, 0.0});

    auto model = std::make_shared<Model>(0.0, N * h);
    auto nsds = model->nonSmoothDynamicalSystem();
    nsds->insertDynamicalSystem(crank);
    nsds->insertDynamicalSystem(rod);
    auto problem = std::make_shared<GenericMechanical>();
    problem->optionsMutable().tolerance = 1e-12;
    auto td = std::make_shared<TimeDiscretisation>(0.0, h);
    SP::TimeStepping sim;
    if (noProjection) {
      sim = std::make_shared<TimeStepping>(td, std::make_shared<MoreauJeanOSI>(0.5), problem);
    } else {
      auto p = std::make_shared<TimeSteppingDirectProjection>(
          td, std::make_shared<MoreauJeanDirectProjectionOSI>(0.5), problem);
      p->setProjectionMaxIteration(500);
      p->setConstraintTol(1e-10);
      p->setConstraintTolUnilateral(1e-10);
      sim = p;
    }
    sim->setNewtonTolerance(1e-10);
    sim->setNewtonMaxIteration(50);
    ContactManagerOptions copt;
    copt.detection.margin = 2e-3;
    copt.detection.breakingDistance = 2e-3;
    auto contacts = std::make_shared<ContactManager>(copt);
    contacts->setDefaultMaterial({0.0, 0.0});  // frictionless wall, e = 0
    const double wallX = kStop + kHalf;
    contacts->addBody(makeStaticBody(
        {ShapeInstance{std::make_shared<HalfSpaceShape>(Shape::Vec3{-1.0, 0.0, 0.0}, -wallX)}}));
    if (detectedWall) {
      contacts->addBody(*nsds, std::move(sliderShapes));
      sim->insertInteractionManager(contacts);
    } else {
      nsds->insertDynamicalSystem(slider);
    }

    const SiconosVector y{0.0, 1.0, 0.0}, x{1.0, 0.0, 0.0};
    // crank: hinge to the world at the origin, axis y; rod: ball joints at the crank pin
    // (crank frame (r/2, 0, 0)) and at the slider centre (rod frame (L/2, 0, 0))
    auto hinge = std::make_shared<PivotJointR>(SiconosVector{0.0, 0.0, 0.0}, y, true, crank);
    auto pin = std::make_shared<KneeJointR>(SiconosVector{kR / 2, 0.0, 0.0}, false, crank, rod);
    auto wrist = std::make_shared<KneeJointR>(SiconosVector{kL / 2, 0.0, 0.0}, false, rod, slider);
    auto guide = std::make_shared<PrismaticJointR>(x, true, slider);
    nsds->link(equality(hinge), crank);
    nsds->link(equality(pin), crank, rod);
    nsds->link(equality(wrist), rod, slider);
    nsds->link(equality(guide), slider);
    auto motor = JointAxisR::motor(hinge, kOmega, kTorque);
    nsds->link(motor, crank);
    // the wall as a limit: slider coordinate (0 at x = L - r) at most kStop - (L - r)
    SP::Interaction limit;
    if (!detectedWall) {
      limit = JointAxisR::upperLimit(guide, kStop - (kL - kR));
      nsds->link(limit, slider);
    }
    model->initialize(sim);

    std::vector<std::string> columns{"t",
                                     "theta",
                                     "omega",
                                     "x",
                                     "x_closed",
                                     "x_error",
                                     "v",
                                     "motor_torque",
                                     "wall_force",
                                     "wall_gap",
                                     "joint_drift",
                                     "joint_angle_drift",
                                     "kinetic",
                                     "motor_work",
                                     "active_contacts",
                                     "newton_iterations",
                                     "projection_iterations"};
    examples::CsvWriter csv(examples::joinPath(opt.outputDir, std::string(name) + ".csv"), columns);
    double theta = th0, motorWork = 0.0, maxDrift = 0.0, maxAngle = 0.0, minGap = 1e300,
           maxXErr = 0.0, firstImpact = -1.0;
    auto writeRow = [&](double t, bool stepped, const StepStatistics* st) {
      // crank angle about y from the quaternion, unwrapped against the previous value
      const SiconosVector& qc = crank->q();
      double a = 2.0 * std::atan2(qc(5), qc(3));
      a += 2.0 * M_PI * std::round((theta - a) / (2.0 * M_PI));
      theta = a;
      const double xs = slider->q()(0), xc = sliderPosition(theta);
      double torque = 0.0, force = 0.0;
      std::size_t active = 0;
      if (stepped) {
        torque = problem->reaction(*motor)(0);
        motorWork += JointAxisR::work(*motor);
        if (limit) {
          force = problem->reaction(*limit)(0);
          active = force > 0.0 ? 1 : 0;
        } else {
          const ContactSet& cs = contacts->contacts();
          for (std::size_t c = 0; c < cs.size(); ++c)
            if (cs.active[c]) {
              ++active;
              force += cs.impulse[3 * c] / h;
            }
        }
      }
      if (active > 0 && firstImpact < 0.0) firstImpact = t;
      if (firstImpact < 0.0) maxXErr = std::max(maxXErr, std::fabs(xs - xc));
      const double gap = wallX - (xs + kHalf);
      minGap = std::min(minGap, gap);
      // joint violations: hinge point and axis, both ball joints, the slider's line and
      // orientation
      const SiconosVector o{0.0, 0.0, 0.0};
      const double d1 = distance(worldPoint(*crank, SiconosVector{-kR / 2, 0.0, 0.0}), o);
      const double d2 = distance(worldPoint(*crank, SiconosVector{kR / 2, 0.0, 0.0}),
                                 worldPoint(*rod, SiconosVector{-kL / 2, 0.0, 0.0}));
      const double d3 = distance(worldPoint(*rod, SiconosVector{kL / 2, 0.0, 0.0}), slider->q());
      const double d4 = std::hypot(slider->q()(1), slider->q()(2));
      const double drift = std::max({d1, d2, d3, d4});
      const SimpleMatrix Rc = crank->rotationMatrix();
      const double axisOff = std::hypot(Rc(0, 1), Rc(2, 1));  // sin(body y, world y)
      const SiconosVector& qs = slider->q();
      const double sliderTurn =
          2.0 * std::asin(std::min(1.0, std::sqrt(qs(4) * qs(4) + qs(5) * qs(5) + qs(6) * qs(6))));
      const double angle = std::max(axisOff, sliderTurn);
      maxDrift = std::max(maxDrift, drift);
      maxAngle = std::max(maxAngle, angle);
      const double kinetic =
          crank->kineticEnergy() + rod->kineticEnergy() + slider->kineticEnergy();
      csv.row({t, theta, crank->velocity()(4), xs, xc, xs - xc, slider->velocity()(0), torque,
               force, gap, drift, angle, kinetic, motorWork, static_cast<double>(active),
               st ? static_cast<double>(st->newtonIterations) : 0.0,
               st ? static_cast<double>(st->projectionIterations) : 0.0});
    };
    writeRow(0.0, false, nullptr);
    examples::BodyVtkWriter vtk(opt.outputDir, name, {crank, rod, slider});
    const examples::RunStatistics run = examples::runSteps(
        *sim, N, opt, vtk, [&](double t, const StepStatistics& st) { writeRow(t, true, &st); });

    examples::printSummary(name, *sim, run.wallSeconds, "steps with rows");
    const double thStall = theta;
    const double s = std::sin(thStall);
    const double dx =
        -kR * s - kR * kR * s * std::cos(thStall) / std::sqrt(kL * kL - kR * kR * s * s);
    std::printf("  time step, steps:        %g, %ld (%s, wall: %s)\n", h, N,
                noProjection ? "TimeStepping" : "TimeSteppingDirectProjection",
                detectedWall ? "detected contacts" : "joint limit");
    examples::printNewtonRange(run, true);
    std::printf("  first wall contact:      t = %.4f s\n", firstImpact);
    std::printf("  max |x - x(theta)|:      %.3e m (before the first contact)\n", maxXErr);
    std::printf("  min wall gap:            %.3e m\n", minGap);
    std::printf("  max joint drift:         %.3e m, %.3e rad\n", maxDrift, maxAngle);
    std::printf("  final crank angle:       %.6f rad, x = %.6f m\n", thStall, slider->q()(0));
    std::printf("  final motor torque:      %.6f N m (limit %g)\n", problem->reaction(*motor)(0),
                kTorque);
    std::printf("  stalled wall force:      closed form tau_max / x'(theta) = %.6f N\n",
                kTorque / dx);
    std::printf("  motor work:              %.6f J\n", motorWork);
    examples::printRunFooter(opt, name, csv, vtk,
                             {"SliderCrank: motor-driven crank, slider stopped by a wall",
                              {{4, "x slider", 0},
                               {5, "x(theta) closed form", 0},
                               {8, "motor torque", 1},
                               {9, "wall force", 1},
                               {11, "joint drift", 2},
                               {10, "wall gap", 2}},
                              {"position (m)", "torque (N m), force (N)", "violation (m)"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 1;
  }
  return examples::exitStatus();
}
