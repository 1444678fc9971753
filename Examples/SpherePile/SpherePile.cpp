// SpherePile: spheres of radius 5 cm ± 20 % dropped from a random packing into a box
// made of planes, settling under gravity (mu = 0.5, e = 0), stepped by nsdyn::SceneEngine;
// the pile top and the energy balance are printed. The template of the scene examples.
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
  long count = 500;
  double T = 1.0;
  ex::SolverChoice solver{"nsgs", 1e-3, 1000, false, ""};
  ex::SolverFlags solverFlags;
  solverFlags.iterations = "--max-iterations";
  solverFlags.minIterations = 1;
  solverFlags.shuffle = false;
  std::vector<ex::ExtraOption> extras = ex::solverOptions(solver, solverFlags);
  extras.insert(extras.end(), {{"--count", "a number of spheres in [1, 200000]",
                                [&](const char* v) {
                                  count = std::atol(v);
                                  return count >= 1 && count <= 200000;
                                }},
                               ex::timeOption(T, 100)});
  const std::string help =
      "  --count N          number of spheres (default 500)\n"
      "  --time T           simulated time in s (default 1)\n" +
      ex::solverHelp(solver, solverFlags);
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "SpherePile", "spheres settling in a box (SceneEngine)", extras, help.c_str());
  try {
    const double h = 1e-3;
    ex::EngineScene scene(T, h, solver);
    scene.setDefaultMaterial({0.5, 0.0});
    // a 1 m x 1 m box of planes, the spheres packed at random above its floor
    scenes::ContainerSpec box;
    box.inner = {{0.0, 0.0, 0.0}, {1.0, 1.0, 1.0}};
    scene.addParts(scenes::container(box));
    scenes::ParticleSpec grain;
    grain.radius = 0.05;
    grain.sizeSpread = 0.2;
    grain.density = 2500.0;
    // region tall enough for a loose packing (bounding spheres at volume fraction 0.15)
    const double rmax = grain.radius * (1.0 + grain.sizeSpread);
    const double height = std::max(0.5, count * 4.0 / 3.0 * M_PI * rmax * rmax * rmax / 0.15);
    const scenes::Region region{{0.0, 0.0, 0.0}, {1.0, 1.0, height}};
    for (const BodySpec& spec :
         scenes::randomPacking(grain, region, static_cast<std::size_t>(count), 42))
      scene.addBody(makeBody(spec));
    scene.initialize();
    const long steps = std::lround(T / h);
    // the height of the pile's top: highest sphere centre
    ex::SceneColumns columns{
        {"top"}, [&]() { return std::vector<double>{ex::highestCentre(scene.bodies())}; }};
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "SpherePile", columns, 20);
    return ex::finishScene(scene, run, opt, "SpherePile", "SpherePile: energy and pile top",
                           {{2, "kinetic (J)", 0}, {3, "potential (J)", 0}, {10, "top (m)", 1}},
                           {"energy (J)", "height (m)"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "SpherePile: %s\n", e.what());
    return 3;
  }
}
