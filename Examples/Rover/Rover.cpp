// Rover: a four-wheeled rover (a box chassis, four sphere wheels on hinges about the chassis
// y axis, each driven by a velocity motor with a torque limit) drives on a heightfield: a
// flat start, a slope, a plateau, then a trench filled with a bed of spheres, then a plateau.
// Joints, motors and the detected contacts (ContactManager: wheels on the heightfield and on
// the spheres, spheres among themselves) are solved together by GenericMechanical.
//
//   build/bin/Rover [--spheres N] [--slope DEG] [--mu MU] [--on-plateau] [--time T]
//                   [--step H] [--solver nsgs|newton] [--budget N] [--output DIR]
//                   [--no-plot] [--quiet]
//
// The solver (default nsgs) runs in budget mode, 100 iterations a step (README.md).
// The wheel rate target ramps to v/R (v = 1 m/s) over 0.5 s. CSV (every step): t, chassis x,
// z, vx, pitch, wheel rim speed omega R (mean of the four), |vx - omega R| on the flat
// (max over wheels, world angular velocity), slip 1 - v_along / (omega R), deepest
// wheel-heightfield gap, motor torque (front left), hinge drift, active contacts, Newton
// iterations. Also DIR/Rover.png and VTK frames (every 10th step).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/GenericMechanical.hpp>
#include <nsdyn/HeightfieldShape.hpp>
#include <nsdyn/JointAxisR.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/PivotJointR.hpp>
#include <nsdyn/SphereShape.hpp>

#include "body_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

// the terrain: flat to x = 2, a slope of angle a to height H = 1.5 tan a at x = 3.5, a plateau,
// a trench of depth d (its floor for |y| <= 0.5 and x in [4.5, 4.5 + L], then a ramp out over
// 0.6 m), the plateau again
struct Terrain {
  double slope, depth, length;
  double plateau() const { return 1.5 * std::tan(slope); }
  double height(double x, double y) const {
    const double H = plateau();
    if (x <= 2.0) return 0.0;
    if (x <= 3.5) return (x - 2.0) * std::tan(slope);
    // one 5 cm cell wider than the bed on every side: its walls are one-cell ramps
    if (length <= 0.0 || x <= 4.46 || std::fabs(y) >= 0.54) return H;
    if (x < 4.54 + length) return H - depth;
    // the way out: a ramp rising over 0.6 m (a step as deep as the bed would stop the wheels)
    return std::min(H, H - depth + (x - 4.54 - length) * depth / 0.6);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const char* name = "Rover";
  long spheres = 2000;
  double slopeDeg = 15.0, mu = 0.8, h = 2e-3, T = -1.0;
  bool onPlateau = false;
  std::string solver = "nsgs";
  long budget = 100;
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, name, "a four-wheeled rover on a heightfield slope and a bed of spheres",
      {{"--spheres", "a number of spheres in [0, 20000]",
        [&](const char* v) {
          spheres = std::atol(v);
          return spheres >= 0 && spheres <= 20000;
        }},
       {"--slope", "a slope angle in [0, 30] deg",
        [&](const char* v) {
          slopeDeg = std::atof(v);
          return slopeDeg >= 0.0 && slopeDeg <= 30.0;
        }},
       {"--mu", "a friction coefficient in [0, 10]",
        [&](const char* v) {
          mu = std::atof(v);
          return mu >= 0.0 && mu <= 10.0;
        }},
       {"--budget", "a number of solver iterations in [0, 100000]",
        [&](const char* v) {
          budget = std::atol(v);
          return budget >= 0 && budget <= 100000;
        }},
       {"--solver", "newton or nsgs",
        [&](const char* v) {
          solver = v;
          return solver == "newton" || solver == "nsgs";
        }},
       ex::timeOption(T, 100.0),
       ex::stepOption(h, 1e-2),
       ex::switchOption("--on-plateau", onPlateau)},
      "  --spheres N        spheres in the bed (default 2000; 0: no trench)\n"
      "  --slope DEG        slope angle (default 15)\n"
      "  --mu MU            friction coefficient, all contacts (default 0.8)\n"
      "  --time T           simulated time in s (default: across the bed and 1 m beyond)\n"
      "  --step H           time step in s (default 2e-3)\n"
      "  --solver S         GenericMechanical solver, nsgs (default) or newton\n"
      "  --budget N         solver iterations per step (default 100): a solve stopped there\n"
      "                     is accepted, its residual reported; 0: tolerance mode (a solve\n"
      "                     short of 1e-8 fails the step) with the other solver as fallback\n"
      "  --on-plateau       start on the plateau at x = 4 m, 0.5 m before the bed\n");
  try {
    const double g = 9.81, R = 0.12, speed = 1.0, r = 0.025;
    const double spacing = 2.0 * r + 0.001;
    const long across = static_cast<long>(std::floor(0.98 / spacing)), layers = 3;
    const long rows = spheres > 0 ? (spheres + across * layers - 1) / (across * layers) : 0;
    const Terrain terrain{slopeDeg * M_PI / 180.0, layers * spacing,
                          rows > 0 ? rows * spacing + 0.01 : 0.0};
    if (T <= 0.0) T = (onPlateau ? 2.0 : 6.0) + terrain.length / speed;
    const double startX = onPlateau ? 4.0 : 0.0,
                 startZ = (onPlateau ? terrain.plateau() : 0.0) + R + 0.001;
    auto model = std::make_shared<Model>(0.0, T);
    auto nsds = model->nonSmoothDynamicalSystem();
    auto problem = std::make_shared<GenericMechanical>(solver);
    if (budget > 0) {  // budget mode: granular steps stop at the budget, accepted
      problem->setSolveMode(SolveMode::Budget);
      problem->optionsMutable().max_iterations = static_cast<int>(budget);
    } else {
      problem->setFallbackSolver(solver == "newton" ? "nsgs" : "newton");
      problem->setFallbackBound(0.0, 20000);
    }
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), problem);
    sim->setNewtonTolerance(1e-8);
    sim->setNewtonMaxIteration(20);
    ContactManager::Options options;
    options.detection.margin = 0.005;
    options.detection.breakingDistance = 0.005;
    auto contacts = std::make_shared<ContactManager>(options);
    contacts->setDefaultMaterial({mu, 0.0});
    sim->insertInteractionManager(contacts);

    // the heightfield, 5 cm cells from x = -1 to the far plateau, |y| <= 1
    const double dx = 0.05, x0 = -1.0, x1 = 6.5 + terrain.length;
    const std::size_t nx = static_cast<std::size_t>(std::ceil((x1 - x0) / dx)) + 1, ny = 41;
    std::vector<double> heights(nx * ny);
    const double xc = x0 + 0.5 * dx * static_cast<double>(nx - 1);  // grid centre
    for (std::size_t j = 0; j < ny; ++j)
      for (std::size_t i = 0; i < nx; ++i)
        heights[j * nx + i] =
            terrain.height(x0 + dx * static_cast<double>(i), -1.0 + dx * static_cast<double>(j));
    const std::size_t ground = contacts->addBody(makeStaticBody(
        {ShapeInstance{std::make_shared<HeightfieldShape>(nx, ny, dx, dx, heights, "terrain")}},
        {xc, 0.0, 0.0}));

    // the rover: chassis 0.7 x 0.3 x 0.1 m (20 kg), wheels of radius R (2 kg) at (+-0.3, +-0.3)
    BodySpec chassisSpec;
    chassisSpec.name = "chassis";
    chassisSpec.shapes = {{std::make_shared<BoxShape>(Shape::Vec3{0.35, 0.15, 0.05})}};
    chassisSpec.mass = 20.0;
    chassisSpec.position = {startX, 0.0, startZ};
    BodyShapes c = makeBody(chassisSpec);
    auto chassis = c.body();
    chassis->setFExt(SiconosVector{0.0, 0.0, -g * chassis->scalarMass()});
    contacts->addBody(*nsds, std::move(c), 1);
    std::vector<SP::NewtonEulerDS> wheels;
    std::vector<std::size_t> wheelIndex;
    std::vector<SP::Interaction> joints, motors;
    const SiconosVector axis{0.0, 1.0, 0.0};
    const double ramp = 0.5, maxTorque = 10.0;
    for (int k = 0; k < 4; ++k) {
      const double wx = k < 2 ? 0.3 : -0.3, wy = k % 2 == 0 ? 0.3 : -0.3;
      BodySpec spec;
      spec.name = "wheel" + std::to_string(k + 1);
      spec.shapes = {{std::make_shared<SphereShape>(R)}};
      spec.mass = 2.0;
      spec.position = {startX + wx, wy, startZ};
      BodyShapes w = makeBody(spec);
      auto wheel = w.body();
      wheel->setFExt(SiconosVector{0.0, 0.0, -g * wheel->scalarMass()});
      wheels.push_back(wheel);
      wheelIndex.push_back(contacts->addBody(*nsds, std::move(w), 1));
      auto hinge = std::make_shared<PivotJointR>(SiconosVector{startX + wx, wy, startZ}, axis, true,
                                                 chassis, wheel);
      joints.push_back(
          std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(5), hinge));
      nsds->link(joints.back(), chassis, wheel);
      motors.push_back(JointAxisR::motor(
          hinge, [=](double t) { return speed / R * std::min(1.0, t / ramp); }, maxTorque));
      nsds->link(motors.back(), chassis, wheel);
    }
    // the bed: layers of spheres on a square lattice in the trench
    const double bedBottom = terrain.plateau() - terrain.depth;
    long placed = 0;
    for (long l = 0; l < layers && placed < spheres; ++l)
      for (long i = 0; i < rows && placed < spheres; ++i)
        for (long j = 0; j < across && placed < spheres; ++j, ++placed) {
          BodySpec spec;
          spec.name = "grain" + std::to_string(placed);
          spec.shapes = {{std::make_shared<SphereShape>(r)}};
          spec.density = 2500.0;
          spec.position = {
              4.5 + 0.5 * spacing + 0.005 + spacing * static_cast<double>(i),
              -0.5 * spacing * static_cast<double>(across - 1) + spacing * static_cast<double>(j),
              bedBottom + r + 0.0005 + spacing * static_cast<double>(l)};
          BodyShapes s = makeBody(spec);
          s.body()->setFExt(SiconosVector{0.0, 0.0, -g * s.body()->scalarMass()});
          contacts->addBody(*nsds, std::move(s), 2);
        }
    model->initialize(sim);
    std::printf(
        "Rover: slope %.3g deg, mu %.3g (atan mu = %.3g deg), %ld spheres in a %.2f m bed\n",
        slopeDeg, mu, std::atan(mu) * 180.0 / M_PI, placed, terrain.length);

    ex::CsvWriter csv(ex::joinPath(opt.outputDir, std::string(name) + ".csv"),
                      {"t", "x", "z", "vx", "pitch", "rim_speed", "roll_error", "slip", "wheel_gap",
                       "torque", "drift", "active", "newton_iterations"});
    double maxRollError = 0.0, minGap = INFINITY, maxDrift = 0.0, slipSum = 0.0;
    long slipSamples = 0;
    double reachedX = 0.0;
    auto writeRow = [&](double t, int newton) {
      const SiconosVector& q = chassis->q();
      const SiconosVector& v = chassis->velocity();
      const SimpleMatrix Rc = chassis->rotationMatrix();
      const double pitch = std::atan2(-Rc(2, 0), Rc(0, 0));  // nose up: positive
      // velocity along the chassis x axis and the wheels' world spin about the chassis y axis
      const double along = Rc(0, 0) * v(0) + Rc(1, 0) * v(1) + Rc(2, 0) * v(2);
      double rim = 0.0, rollError = 0.0;
      for (const auto& w : wheels) {
        const SimpleMatrix Rw = w->rotationMatrix();
        const SiconosVector& vw = w->velocity();
        double spin = 0.0;  // (Rw Omega) . (Rc e_y)
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) spin += Rc(a, 1) * Rw(a, b) * vw(3 + b);
        rim += 0.25 * spin * R;
        rollError = std::max(rollError, std::fabs(v(0) - spin * R));
      }
      const double slip = std::fabs(rim) > 1e-3 ? 1.0 - along / rim : 0.0;
      const bool flat = q(0) > -0.5 && q(0) + 0.3 + R < 2.0 && t > 1.0;
      if (flat) maxRollError = std::max(maxRollError, rollError);
      if (q(0) - 0.3 > 2.1 && q(0) + 0.3 + R < 3.5) {  // all wheels on the slope
        slipSum += slip;
        ++slipSamples;
      }
      reachedX = std::max(reachedX, q(0));
      const ContactSet& cs = contacts->contacts();
      double gap = INFINITY;
      for (std::size_t k = 0; k < cs.size(); ++k) {
        const auto a = static_cast<std::size_t>(cs.bodyA[k]),
                   b = static_cast<std::size_t>(cs.bodyB[k]);
        const bool wheelA = std::find(wheelIndex.begin(), wheelIndex.end(), a) != wheelIndex.end();
        const bool wheelB = std::find(wheelIndex.begin(), wheelIndex.end(), b) != wheelIndex.end();
        if ((a == ground && wheelB) || (b == ground && wheelA)) gap = std::min(gap, cs.gap[k]);
      }
      if (std::isfinite(gap)) minGap = std::min(minGap, gap);
      double drift = 0.0;
      for (const auto& in : joints) drift = std::max(drift, in->y(0).normInf());
      maxDrift = std::max(maxDrift, drift);
      const double torque = t > 0.0 ? problem->reaction(*motors[0])(0) : 0.0;
      csv.row({t, q(0), q(2), v(0), pitch, rim, flat ? rollError : 0.0, slip,
               std::isfinite(gap) ? gap : 0.0, torque, drift, static_cast<double>(cs.activeCount()),
               static_cast<double>(newton)});
    };
    writeRow(0.0, 0);
    std::vector<SP::NewtonEulerDS> all{chassis};
    all.insert(all.end(), wheels.begin(), wheels.end());
    ex::BodyVtkWriter vtk(opt.outputDir, name, all);
    const long N = std::lround(T / h);
    const ex::RunStatistics run =
        ex::runSteps(*sim, N, opt, vtk,
                     [&](double t, const StepStatistics& st) { writeRow(t, st.newtonIterations); });

    ex::printSummary(name, *sim, run.wallSeconds, "steps");
    std::printf("  time step, steps:        %g, %ld (%.3f ms/step, %ld spheres)\n", h, N,
                1e3 * run.wallSeconds / static_cast<double>(N), placed);
    ex::printNewtonRange(run, true);
    std::printf(
        "  flat, rolling:           max |vx - omega R| %.3e m/s (1 s < t, all wheels on "
        "the flat)\n",
        maxRollError);
    std::printf("  slope:                   mean slip %.3e over %ld steps (all wheels on it)\n",
                slipSamples > 0 ? slipSum / static_cast<double>(slipSamples) : 0.0, slipSamples);
    std::printf("  wheel-heightfield gap:   deepest %.3e m\n", minGap);
    std::printf("  hinge drift:             max ||y0||inf %.3e (no projection)\n", maxDrift);
    std::printf("  chassis:                 reached x = %.3f m, final z = %.3f m (plateau %.3f)\n",
                reachedX, chassis->q()(2), terrain.plateau());
    ex::printRunFooter(opt, name, csv, vtk,
                       {"Rover: flat, slope, bed of spheres",
                        {{2, "x (m)", 0},
                         {3, "z (m)", 0},
                         {4, "vx (m/s)", 1},
                         {6, "omega R (m/s)", 1},
                         {8, "slip", 2},
                         {10, "torque (N m)", 3}},
                        {"position (m)", "speed (m/s)", "slip", "motor torque (N m)"}});
  } catch (const Error& err) {
    std::fprintf(stderr, "%s: %s\n", name, err.what());
    return 3;
  }
  return ex::exitStatus();
}
