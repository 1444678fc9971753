// HopperDischarge: spheres (radius 2.5 cm ± 20 %, mu = 0.5, e = 0) fall into a square
// hopper (scenes::hopper, plates at 60 deg, outlet 30 cm) and discharge onto a rough
// floor where they form a heap, stepped by nsdyn::SceneEngine; the discharged count, the
// discharge rate (spheres/s) and the heap's angle of repose are printed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "scene_measures.hpp"
#include "scene_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

int main(int argc, char** argv) {
  long count = 20000;
  double T = 3.0;
  double h = 1e-3;
  ex::SolverChoice solver;
  // budget mode, chosen by measurement at the documented size (README): NSGS stops at 1e-4
  // or after 20 sweeps, the Siconos error every 10 sweeps, the step accepted with its
  // residual reported; overlap recovery after each step (its twin XML: mode=, <pgs>,
  // <recovery>). --mode tolerance [--fallback newton_ac] gives the tolerance runs of before.
  solver.iterations = 20;
  solver.budget = true;
  solver.checkEvery = 10;
  solver.recovery = true;
  std::vector<ex::ExtraOption> extras = ex::solverOptions(solver);
  extras.insert(extras.end(), {{"--count", "a number of spheres in [10, 200000]",
                                [&](const char* v) {
                                  count = std::atol(v);
                                  return count >= 10 && count <= 200000;
                                }},
                               ex::timeOption(T, 100),
                               ex::stepOption(h, 5e-3)});
  const std::string help =
      "  --count N          number of spheres (default 20000)\n"
      "  --time T           simulated time in s (default 3)\n"
      "  --step H           time step in s (default 1e-3)\n" +
      ex::solverHelp(solver);
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "HopperDischarge", "spheres discharging from a hopper onto a floor (SceneEngine)",
      extras, help.c_str());
  try {
    ContactManager::Options options;
    options.detection.margin = 0.005;  // 20 % of the radius: approaches up to 2.5 m/s at h = 2 ms
    options.detection.breakingDistance = 0.005;
    ex::EngineScene scene(T, h, solver, options);
    scene.setDefaultMaterial({0.5, 0.0});
    scenes::ParticleSpec grain;
    grain.radius = 0.025;
    grain.sizeSpread = 0.2;
    grain.density = 2500.0;
    grain.namePrefix = "sphere";
    const double rmax = grain.radius * (1.0 + grain.sizeSpread);
    const double bounding = static_cast<double>(count) * 4.0 / 3.0 * M_PI * rmax * rmax * rmax;
    // expected heap: a cone at 20 deg holding the spheres at packing fraction 0.6
    const double tanRepose = std::tan(20.0 * M_PI / 180.0);
    const double heapVolume =
        static_cast<double>(count) * 4.0 / 3.0 * M_PI * std::pow(grain.radius, 3) / 0.6;
    const double heapRadius = std::cbrt(3.0 * heapVolume / (M_PI * tanRepose));
    scenes::HopperSpec hop;
    hop.outletWidth = 0.3;
    hop.topWidth = std::max(1.0, 0.6 * std::cbrt(bounding / 0.3));
    hop.outletHeight = std::max(0.4, 1.5 * heapRadius * tanRepose);
    hop.floor = false;
    const double funnelTop =
        hop.outletHeight + 0.5 * (hop.topWidth - hop.outletWidth) * std::tan(hop.angle);
    scene.addParts(scenes::hopper(hop));
    // the floor: the plane z = 0 under a rough base of static spheres (nominal radius,
    // touching, square lattice) over a disc larger than the expected heap
    scene.addBody(ex::groundPlane());
    scenes::RoughBaseSpec base;
    base.radius = grain.radius;
    base.reach = 1.4 * heapRadius + 0.2;
    const std::size_t bumps = scene.addParts(scenes::roughBase(base));
    const double floorTop = 2.0 * base.radius;
    // the spheres: random packing (bounding spheres at volume fraction 0.3) above the plates
    const double side = hop.topWidth - 2.0 * rmax;
    const double height = bounding / (0.3 * side * side);
    const scenes::Region region{{-0.5 * side, -0.5 * side, funnelTop + 0.02},
                                {0.5 * side, 0.5 * side, funnelTop + 0.02 + height}};
    for (const BodySpec& spec :
         scenes::randomPacking(grain, region, static_cast<std::size_t>(count), 11))
      scene.addBody(makeBody(spec));
    scene.initialize();
    std::printf(
        "HopperDischarge: %ld spheres above a hopper %.3g m wide (outlet %.3g m at %.3g m), "
        "%zu spheres in the rough base\n",
        count, hop.topWidth, hop.outletWidth, hop.outletHeight, bumps);
    const long steps = std::lround(T / h);
    // discharged: spheres whose centre is below the outlet by more than the largest radius
    const double below = hop.outletHeight - rmax;
    auto discharged = [&]() {
      return static_cast<long>(
          ex::countBodies(scene.bodies(), [below](const ex::Centre& c) { return c.z < below; }));
    };
    std::vector<double> times, counts;
    ex::SceneColumns columns{
        {"discharged", "above_floor", "heap_height", "repose_deg"}, [&]() {
          const long d = discharged();
          times.push_back(scene.engine().time());
          counts.push_back(static_cast<double>(d));
          const double above = static_cast<double>(
              ex::countBodies(scene.bodies(), [](const ex::Centre& c) { return c.z > 0.0; }));
          // the heap: the discharged spheres only
          const ex::Heap heap = ex::measureHeap(scene.bodies(), 0.0, 0.0, floorTop, below);
          return std::vector<double>{static_cast<double>(d), above, heap.height, heap.slope};
        }};
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "HopperDischarge", columns, 100);
    // rate: spheres discharged between the times when 20 % and 60 % of them had left
    double t20 = -1.0, t60 = -1.0;
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (t20 < 0.0 && counts[k] >= 0.2 * count) t20 = times[k];
      if (t60 < 0.0 && counts[k] >= 0.6 * count) t60 = times[k];
    }
    const ex::Heap heap = ex::measureHeap(scene.bodies(), 0.0, 0.0, floorTop, below);
    std::printf("  discharge:               %ld of %ld spheres discharged", discharged(), count);
    if (t60 > t20 && t20 >= 0.0)
      std::printf(", rate %.1f spheres/s (from 20 %% at t = %.3g s to 60 %% at t = %.3g s)\n",
                  0.4 * static_cast<double>(count) / (t60 - t20), t20, t60);
    else
      std::printf(", rate not measured (60 %% not reached)\n");
    std::printf(
        "  heap:                    height %.3f m, runout radius %.3f m, angle of repose %.1f deg "
        "(surface fit), atan(height/runout) %.1f deg\n",
        heap.height, heap.runout, heap.slope, heap.coneAngle);
    return ex::finishScene(
        scene, run, opt, "HopperDischarge", "HopperDischarge: discharged spheres",
        {{10, "discharged", 0}, {2, "kinetic (J)", 1}}, {"spheres", "energy (J)"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "HopperDischarge: %s\n", e.what());
    return 3;
  }
}
