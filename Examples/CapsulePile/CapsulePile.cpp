// CapsulePile: capsules (radius 2.5 cm, segment 10 cm, size spread 10 %) placed at
// random positions and orientations fall into a box container made of planes and
// settle (mu = 0.5, e = 0), as in the Siconos benchmark sets, stepped by
// nsdyn::SceneEngine; the deepest penetration, the bodies left outside the box and the
// energy balance are printed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "scene_measures.hpp"
#include "scene_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

int main(int argc, char** argv) {
  long count = 2000;
  double T = 2.0;
  double h = 1e-3;
  ex::SolverChoice solver;
  // budget mode, chosen by measurement at the documented size (README): NSGS stops at 1e-4
  // or after 100 sweeps, the Siconos error every 10 sweeps, the step accepted with its
  // residual reported; Anderson acceleration over 5 differences (the first 0.5 s: half
  // the sweeps, every step at 1e-4); overlap recovery after each step (its twin XML: mode=,
  // <pgs>, <nsgs anderson>, <recovery>). --mode tolerance [--fallback newton_ac] gives the
  // tolerance runs of before, --anderson 0 the plain sweeps.
  solver.iterations = 100;
  solver.budget = true;
  solver.checkEvery = 10;
  solver.anderson = 5;
  solver.recovery = true;
  std::vector<ex::ExtraOption> extras = ex::solverOptions(solver);
  extras.insert(extras.end(), {{"--count", "a number of capsules in [1, 100000]",
                                [&](const char* v) {
                                  count = std::atol(v);
                                  return count >= 1 && count <= 100000;
                                }},
                               ex::timeOption(T, 100),
                               ex::stepOption(h, 5e-3)});
  const std::string help =
      "  --count N          number of capsules (default 2000)\n"
      "  --time T           simulated time in s (default 2)\n"
      "  --step H           time step in s (default 1e-3)\n" +
      ex::solverHelp(solver);
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "CapsulePile", "capsules settling in a box (SceneEngine)", extras, help.c_str());
  try {
    // detection envelope of 1 cm: a contact is known (and can enter the problem, when
    // gap + h u_n / 2 <= 0) from 1 cm away, i.e. for approach speeds up to 5 m/s at h = 2 ms
    ContactManager::Options options;
    options.detection.margin = 0.01;
    options.detection.breakingDistance = 0.01;
    ex::EngineScene scene(T, h, solver, options);
    scene.setDefaultMaterial({0.5, 0.0});
    scenes::ParticleSpec grain;
    grain.kind = scenes::ParticleKind::Capsule;
    grain.radius = 0.025;
    grain.length = 0.1;
    grain.sizeSpread = 0.1;
    grain.density = 1000.0;
    grain.randomOrientation = true;
    grain.namePrefix = "capsule";
    // the box: side L grows with the count so that the settled bed is ~ 0.1 m thick
    // (capsule volume / packing fraction 0.5)
    const double volume = M_PI * grain.radius * grain.radius * grain.length +
                          4.0 / 3.0 * M_PI * grain.radius * grain.radius * grain.radius;
    const double side = std::max(0.5, std::sqrt(static_cast<double>(count) * volume / (0.5 * 0.1)));
    scenes::ContainerSpec box;
    box.inner = {{-0.5 * side, -0.5 * side, 0.0}, {0.5 * side, 0.5 * side, 1.0}};
    scene.addParts(scenes::container(box));
    // random packing above the floor, bounding spheres at volume fraction 0.3
    const double rb = scenes::boundingRadius(grain) * (1.0 + grain.sizeSpread);
    const double height =
        std::max(0.3, count * 4.0 / 3.0 * M_PI * rb * rb * rb / (0.3 * side * side));
    const scenes::Region region{{-0.5 * side, -0.5 * side, 0.0}, {0.5 * side, 0.5 * side, height}};
    for (const BodySpec& spec :
         scenes::randomPacking(grain, region, static_cast<std::size_t>(count), 42))
      scene.addBody(makeBody(spec));
    scene.initialize();
    const double rmin = grain.radius * (1.0 - grain.sizeSpread);
    std::printf("CapsulePile: %ld capsules in a box %.3g m x %.3g m, dropped from up to %.3g m\n",
                count, side, side, height);
    const long steps = std::lround(T / h);
    // outside: capsules whose centre left the box (x, y outside the walls or z below
    // the floor); min_gap: the deepest penetration of the step's contacts (m),
    // min_gap_rel: the same over the smallest capsule radius
    auto outside = [&]() {
      return static_cast<double>(ex::countBodies(scene.bodies(), [&](const ex::Centre& c) {
        return std::fabs(c.x) > 0.5 * side || std::fabs(c.y) > 0.5 * side || c.z < 0.0;
      }));
    };
    ex::SceneColumns columns{{"outside", "min_gap", "min_gap_rel", "top"}, [&]() {
                               const double minGap = ex::deepestGap(scene.contacts());
                               return std::vector<double>{outside(), minGap, minGap / rmin,
                                                          ex::highestCentre(scene.bodies())};
                             }};
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "CapsulePile", columns, 50);
    const double minGap = ex::deepestGap(scene.contacts());
    const double kinetic = scene.engine().kineticEnergy();
    std::printf(
        "  final state:             kinetic energy %.3g J, %g capsules outside the box, deepest "
        "penetration %.3g m (%.2f %% of the smallest radius)\n",
        kinetic, outside(), -minGap, -100.0 * minGap / rmin);
    return ex::finishScene(scene, run, opt, "CapsulePile", "CapsulePile: energy and pile top",
                           {{2, "kinetic (J)", 0}, {3, "potential (J)", 0}, {13, "top (m)", 1}},
                           {"energy (J)", "height (m)"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "CapsulePile: %s\n", e.what());
    return 3;
  }
}
