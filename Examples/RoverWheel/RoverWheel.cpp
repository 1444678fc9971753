// RoverWheel: a rover-like wheel (a cylinder of radius 15 cm, axis along y) driven by
// a constant torque about its axis, with a small extra load, rolls over a bed of
// spheres (radius 2.5 cm ± 10 %, lattice packing in a box of planes, settled first),
// stepped by nsdyn::SceneEngine; CSV: wheel position, velocity, spin and slip ratio
// 1 - v / (omega R).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "scene_measures.hpp"
#include "scene_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

int main(int argc, char** argv) {
  double T = 2.0;
  double h = 1e-3;
  double torque = 1.5;
  double load = 5.0;
  double length = 1.6;
  bool capsule = false;
  ex::SolverChoice solver;
  // budget mode, chosen by measurement at the documented size (README): NSGS stops at 1e-4
  // or after 100 sweeps, the Siconos error every 10 sweeps, the step accepted with its
  // residual reported; overlap recovery after each step (its twin XML: mode=, <pgs>,
  // <recovery>). --mode tolerance [--fallback newton_ac] gives the tolerance runs of before.
  solver.iterations = 100;
  solver.budget = true;
  solver.checkEvery = 10;
  solver.recovery = true;
  std::vector<ex::ExtraOption> extras = ex::solverOptions(solver);
  extras.insert(extras.end(), {ex::timeOption(T, 100),
                               {"--torque", "a driving torque in [0, 100] N m",
                                [&](const char* v) {
                                  torque = std::atof(v);
                                  return torque >= 0.0 && torque <= 100.0;
                                }},
                               {"--load", "an extra vertical load in [0, 1000] N",
                                [&](const char* v) {
                                  load = std::atof(v);
                                  return load >= 0.0 && load <= 1000.0;
                                }},
                               {"--length", "a bed length in [0.8, 20] m",
                                [&](const char* v) {
                                  length = std::atof(v);
                                  return length >= 0.8 && length <= 20.0;
                                }},
                               ex::stepOption(h, 5e-3),
                               ex::switchOption("--capsule", capsule)});
  const std::string help =
      "  --time T           simulated time in s (default 2)\n"
      "  --torque M         driving torque about the wheel axis in N m (default 1.5),\n"
      "                     from t = 0.2 s\n"
      "  --load F           extra downward force on the wheel in N (default 5)\n"
      "  --length L         bed length in m (default 1.6)\n"
      "  --step H           time step in s (default 1e-3)\n"
      "  --capsule          the wheel is a capsule (rounded rim, closed-form contacts)\n"
      "                     instead of a cylinder\n" +
      ex::solverHelp(solver);
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "RoverWheel", "a torque-driven wheel on a bed of spheres (SceneEngine)", extras,
      help.c_str());
  try {
    ContactManager::Options options;
    // 20 % of the grain radius: catches approaches up to 5 m/s at h = 1 ms
    options.detection.margin = 0.005;
    options.detection.breakingDistance = 0.005;
    ex::EngineScene scene(T, h, solver, options);
    scene.setDefaultMaterial({0.5, 0.0});
    // the bed: three layers of spheres on a cubic lattice in a box of planes, width 0.4 m
    const double width = 0.4, depth = 0.2;
    scenes::ContainerSpec box;
    box.inner = {{0.0, -0.5 * width, 0.0}, {length, 0.5 * width, 0.5}};
    scene.addParts(scenes::container(box));
    scenes::ParticleSpec grain;
    grain.radius = 0.025;
    grain.sizeSpread = 0.1;
    grain.density = 2500.0;
    grain.namePrefix = "sand";
    const double spacing = 2.0 * grain.radius * (1.0 + grain.sizeSpread) + 0.001;
    const scenes::Region bed{{0.0, -0.5 * width, 0.0}, {length, 0.5 * width, depth}};
    const std::size_t perLayer = static_cast<std::size_t>(std::floor((length + 0.001) / spacing)) *
                                 static_cast<std::size_t>(std::floor((width + 0.001) / spacing));
    const std::size_t layers = static_cast<std::size_t>(std::floor((depth + 0.001) / spacing));
    for (const BodySpec& spec : scenes::latticePacking(grain, bed, perLayer * layers, 0.001, 3))
      scene.addBody(makeBody(spec));
    // the wheel: cylinder axis (shape z) turned onto the world y axis (rotation by -90 deg about x)
    const double R = 0.15, halfWidth = 0.05;
    const double bedTop = static_cast<double>(layers) * spacing;
    const double c = std::sqrt(0.5);
    BodySpec wheelSpec;
    wheelSpec.name = "wheel";
    if (capsule)
      wheelSpec.shapes = {{std::make_shared<CapsuleShape>(R, halfWidth)}};
    else
      wheelSpec.shapes = {{std::make_shared<CylinderShape>(R, halfWidth)}};
    wheelSpec.density = 100.0;
    wheelSpec.position = {0.3, 0.0, bedTop + R + 0.01};
    wheelSpec.orientation = {c, -c, 0.0, 0.0};
    const std::size_t wheelIndex = scene.addBody(makeBody(wheelSpec), 1);
    BodyHandle wheel = scene.body(wheelIndex);
    // the extra load: a constant world force added to the scene's gravity
    wheel.setForce({0.0, 0.0, -load});
    // body z is the axis; a positive moment about it spins the wheel about +y (rolls to +x);
    // the engine evaluates it at t_k + h/2 (theta = 1/2)
    const double t0 = 0.2;
    wheel.setForceFunction([torque, t0](double t, const double*, const double*, double* wrench) {
      for (int i = 0; i < 5; ++i) wrench[i] = 0.0;
      wrench[5] = t < t0 ? 0.0 : torque;
    });
    scene.initialize();
    std::printf(
        "RoverWheel: wheel R = %.3g m, mass %.3g kg, load %.3g N, torque %.3g N m from t = %.3g s; "
        "bed of %zu spheres, top at %.3g m\n",
        R, wheel.mass(), load, torque, t0, perLayer * layers, bedTop);
    const long steps = std::lround(T / h);
    const double x0 = wheelSpec.position[0];
    double slipSum = 0.0, slipSamples = 0.0, maxSpin = 0.0;
    ex::SceneColumns columns{
        {"x", "z", "vx", "omega", "slip", "wheel_contacts", "wheel_gap"}, [&]() {
          const std::array<double, 7> q = wheel.q();
          const std::array<double, 6> v = wheel.v();
          const double omega = v[5];  // body angular velocity about the axis
          const double rim = omega * R;
          const double slip = std::fabs(rim) > 1e-3 ? 1.0 - v[0] / rim : 0.0;
          maxSpin = std::max(maxSpin, std::fabs(rim));
          if (scene.engine().time() > t0 + 0.3 && std::fabs(rim) > 1e-3) {
            slipSum += slip;
            slipSamples += 1.0;
          }
          // the wheel's contacts and their deepest gap
          std::size_t n = 0;
          const double gap =
              ex::deepestGapOf(scene.contacts(), static_cast<std::int32_t>(wheelIndex), n);
          return std::vector<double>{q[0], q[2], v[0], omega, slip, static_cast<double>(n), gap};
        }};
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "RoverWheel", columns, 20);
    const Shape::Vec3 x = wheel.position();
    std::printf(
        "  wheel:                   advanced %.3f m, height %.3f m (bed top %.3f m), mean slip "
        "%.3f (after t = %.2g s)\n",
        x[0] - x0, x[2], bedTop, slipSamples > 0 ? slipSum / slipSamples : 0.0, t0 + 0.3);
    return ex::finishScene(scene, run, opt, "RoverWheel", "RoverWheel: wheel on a granular bed",
                           {{10, "x (m)", 0}, {12, "vx (m/s)", 1}, {14, "slip", 2}},
                           {"position (m)", "velocity (m/s)", "slip ratio"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "RoverWheel: %s\n", e.what());
    return 3;
  }
}
