// BoxStack: a column of equal cubes (mu = 0.5, e = 0) standing on a floor plane under
// gravity. Each box rests on the one below through 4 face-face contacts (box-box
// closed form), the bottom one on the plane through 4 vertex contacts. The stack must
// stay put: the top box drifts by less than 1e-4 m and no box jitters (speed below
// 1e-3 m/s over the last second).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BoxShape.hpp"
#include "scene_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

/// Cube half-size (m): 0.2 m cubes; density (kg/m³, wood).
constexpr double kHalf = 0.1;
constexpr double kDensity = 500.0;
/// Friction coefficient of every pair, restitution 0.
constexpr double kMu = 0.5;
/// Window of the jitter measure: the last second (or the whole run if shorter).
constexpr double kJitterWindow = 1.0;

}  // namespace

int main(int argc, char** argv) {
  long count = 10;
  double T = 10.0, h = 1e-3;
  int threads = 1;
  ex::SolverChoice solver{"newton_ac", 1e-8, 1000, false, ""};
  ex::SolverFlags solverFlags;
  solverFlags.iterations = "--max-iterations";
  solverFlags.minIterations = 1;
  solverFlags.maxIterations = 10000000;
  solverFlags.shuffle = false;
  std::vector<ex::ExtraOption> extras = ex::solverOptions(solver, solverFlags);
  extras.insert(extras.end(), {{"--count", "a number of boxes in [1, 1000]",
                                [&](const char* v) {
                                  count = std::atol(v);
                                  return count >= 1 && count <= 1000;
                                }},
                               ex::timeOption(T, 1000),
                               ex::stepOption(h, 0.01),
                               ex::threadsOption(threads)});
  const std::string help =
      "  --count N          number of boxes (default 10)\n"
      "  --time T           simulated time in s (default 10)\n"
      "  --step H           time step in s (default 0.001)\n" +
      ex::solverHelp(solver, solverFlags) + ex::threadsHelp(1);
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "BoxStack", "a stack of cubes resting on a plane: drift and jitter", extras,
      help.c_str());
  try {
    ex::EngineScene scene(T, h, solver);
    scene.setThreads(threads);
    scene.setDefaultMaterial({kMu, 0.0});
    scene.addBody(ex::groundPlane());
    // the column: box k centred at z = (2k + 1) half, faces touching
    std::vector<std::size_t> boxes;  // their indices in the scene's store
    const auto cube = std::make_shared<BoxShape>(Shape::Vec3{kHalf, kHalf, kHalf});
    for (long k = 0; k < count; ++k) {
      BodyShapes b = makeBody({ex::instance(cube)}, kDensity, {0.0, 0.0, (2 * k + 1) * kHalf});
      boxes.push_back(scene.addBody(b));
    }
    scene.initialize();
    const long steps = std::lround(T / h);
    const BodyStore& store = scene.bodies();
    const std::size_t top = boxes.back();
    const double top0[3] = {store.q[7 * top], store.q[7 * top + 1], store.q[7 * top + 2]};
    // top box displacement (x, y, z and norm), the largest speed of any box
    // (|v| + half |omega|: the fastest point), its maximum over the jitter window
    const double windowStart = std::max(0.0, T - kJitterWindow);
    double maxDrift = 0.0, windowSpeed = 0.0;
    long rows = 0;
    ex::SceneColumns columns{
        {"top_dx", "top_dy", "top_dz", "top_drift", "max_speed"}, [&]() {
          const double t = rows++ == 0 ? 0.0 : scene.engine().time();
          const double* p = &store.q[7 * top];
          const double dx = p[0] - top0[0], dy = p[1] - top0[1], dz = p[2] - top0[2];
          const double drift = std::sqrt(dx * dx + dy * dy + dz * dz);
          double speed = 0.0;
          for (std::size_t b : boxes) {
            const double* v = &store.v[6 * b];
            const double lin = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            const double ang = std::sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
            speed = std::max(speed, lin + std::sqrt(3.0) * kHalf * ang);
          }
          maxDrift = std::max(maxDrift, drift);
          if (t >= windowStart - 0.5 * h) windowSpeed = std::max(windowSpeed, speed);
          return std::vector<double>{dx, dy, dz, drift, speed};
        }};
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "BoxStack", columns, 100);
    std::printf("BoxStack: %ld cubes of %g m, mu = %g, %g s\n", count, 2 * kHalf, kMu, T);
    std::printf(
        "  top box drift:           %.3g m at the end, %.3g m at most\n",
        [&]() {
          const double* p = &store.q[7 * top];
          return std::sqrt((p[0] - top0[0]) * (p[0] - top0[0]) +
                           (p[1] - top0[1]) * (p[1] - top0[1]) +
                           (p[2] - top0[2]) * (p[2] - top0[2]));
        }(),
        maxDrift);
    std::printf("  max speed, t >= %-8g %.3g m/s\n", windowStart, windowSpeed);
    std::printf("  solver iterations/step:  %.3g\n",
                run.steps > 0 ? double(run.solverIterations) / run.steps : 0.0);
    return ex::finishScene(
        scene, run, opt, "BoxStack", "BoxStack: top box drift and largest speed",
        {{13, "top drift (m)", 0}, {12, "top dz (m)", 0}, {14, "max speed (m/s)", 1}},
        {"displacement (m)", "speed (m/s)"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "BoxStack: %s\n", e.what());
    return 3;
  }
}
