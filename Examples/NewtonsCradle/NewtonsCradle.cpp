// NewtonsCradle: equal spheres in a row on a frictionless floor, a small gap between
// neighbours, the first one launched along the row. Sphere-sphere contacts: mu = 0,
// e = 1; sphere-floor: mu = 0, e = 0 (material groups). The impacts come one pair at a
// time, each exchanging the velocities of two equal masses: the last sphere leaves with
// the first one's speed and the others stop. `--gap 0` shows what simultaneous impacts
// of touching spheres give instead (README).
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/SphereShape.hpp"
#include "scene_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

/// Sphere radius (m) and density (kg/m³, steel).
constexpr double kRadius = 0.05;
constexpr double kDensity = 7800.0;
/// Material groups: the floor and the spheres.
constexpr int kFloorGroup = 0;
constexpr int kSphereGroup = 1;
/// Solver tolerance and iteration cap (speeds are compared to 1e-6).
constexpr double kTolerance = 1e-12;
constexpr int kMaxIterations = 100000;

}  // namespace

int main(int argc, char** argv) {
  long count = 5;
  double gap = 1e-3, speed = 1.0, T = 0.02, h = 1e-4;
  int threads = 1;
  ex::SolverChoice solver{"nsgs", kTolerance, kMaxIterations, false, ""};
  const ex::SolverFlags solverFlags{false, "", 0, 0, false};  // --solver only
  std::vector<ex::ExtraOption> extras = ex::solverOptions(solver, solverFlags);
  extras.insert(extras.end(), {{"--count", "a number of spheres in [2, 1000]",
                                [&](const char* v) {
                                  count = std::atol(v);
                                  return count >= 2 && count <= 1000;
                                }},
                               {"--gap", "a gap in [0, 0.1] m",
                                [&](const char* v) {
                                  gap = std::atof(v);
                                  return gap >= 0.0 && gap <= 0.1;
                                }},
                               {"--speed", "a launch speed in (0, 100] m/s",
                                [&](const char* v) {
                                  speed = std::atof(v);
                                  return speed > 0.0 && speed <= 100.0;
                                }},
                               ex::timeOption(T, 100),
                               ex::stepOption(h, 0.01),
                               ex::threadsOption(threads)});
  const std::string help =
      "  --count N          number of spheres (default 5)\n"
      "  --gap G            gap between neighbours in m (default 0.001; 0: touching)\n"
      "  --speed V          launch speed of the first sphere in m/s (default 1)\n"
      "  --time T           simulated time in s (default 0.02)\n"
      "  --step H           time step in s (default 1e-4)\n" +
      ex::solverHelp(solver, solverFlags) + ex::threadsHelp(1);
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "NewtonsCradle",
      "equal spheres in a row, the first launched: pairwise elastic impacts", extras, help.c_str());
  try {
    if (gap > 0.0 && gap <= speed * h)
      std::fprintf(
          stderr, "NewtonsCradle: warning: gap %g <= v h = %g, impacts may come in the same step\n",
          gap, speed * h);
    ex::EngineScene scene(T, h, solver);
    scene.setThreads(threads);
    scene.setMaterial(kSphereGroup, kSphereGroup, {0.0, 1.0});
    scene.setMaterial(kFloorGroup, kSphereGroup, {0.0, 0.0});
    scene.addBody(ex::groundPlane(), kFloorGroup);
    // the row along x, resting on the floor; sphere 0 launched towards +x
    std::vector<std::size_t> spheres;  // their indices in the scene's store
    const auto shape = std::make_shared<SphereShape>(kRadius);
    for (long i = 0; i < count; ++i) {
      const std::array<double, 6> v0{i == 0 ? speed : 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
      BodyShapes b = makeBody({ex::instance(shape)}, kDensity,
                              {i * (2.0 * kRadius + gap), 0.0, kRadius}, {1.0, 0.0, 0.0, 0.0}, v0);
      spheres.push_back(scene.addBody(b, kSphereGroup));
    }
    scene.initialize();
    const long steps = std::lround(T / h);
    const BodyStore& store = scene.bodies();
    // the velocity of each sphere along the row, and the total momentum along x
    ex::SceneColumns columns;
    for (long i = 0; i < count; ++i) columns.names.push_back("v" + std::to_string(i));
    columns.names.push_back("momentum");
    columns.values = [&]() {
      std::vector<double> r;
      double p = 0.0;
      for (std::size_t s : spheres) {
        r.push_back(store.v[6 * s]);
        p += store.mass[s] * store.v[6 * s];
      }
      r.push_back(p);
      return r;
    };
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "NewtonsCradle", columns, 10);
    // the last sphere against the launch speed; the largest speed of the others
    const double last = store.v[6 * spheres.back()];
    double others = 0.0;
    for (long i = 0; i + 1 < count; ++i)
      for (int j = 0; j < 6; ++j)
        others = std::max(
            others,
            std::fabs(
                store.v[6 * spheres[static_cast<std::size_t>(i)] + static_cast<std::size_t>(j)]));
    const double e0 = 0.5 * store.mass[spheres[0]] * speed * speed;
    double e1 = 0.0;
    for (std::size_t s : spheres) e1 += store.kineticEnergy(s);
    std::printf("NewtonsCradle: %ld spheres, gap %g m, launch speed %g m/s\n", count, gap, speed);
    std::printf("  last sphere:             %.12g m/s (relative error %.3g)\n", last,
                std::fabs(last - speed) / speed);
    std::printf("  others:                  max |v| %.3g m/s\n", others);
    std::printf("  kinetic energy:          %.12g J of %.12g J launched (%.3g lost)\n", e1, e0,
                (e0 - e1) / e0);
    return ex::finishScene(
        scene, run, opt, "NewtonsCradle", "NewtonsCradle: sphere velocities",
        [&]() {
          std::vector<ex::PlotCurve> curves;
          for (long i = 0; i < count && i < 10; ++i)
            curves.push_back({10 + static_cast<int>(i), "v" + std::to_string(i) + " (m/s)", 0});
          curves.push_back({2, "kinetic (J)", 1});
          return curves;
        }(),
        {"velocity (m/s)", "energy (J)"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "NewtonsCradle: %s\n", e.what());
    return 3;
  }
}
