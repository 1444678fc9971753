// KaplaTower: a tower of Kapla-like planks (0.12 x 0.024 x 0.008 m boxes) standing on a
// floor plane under gravity, layers alternating in orientation (planks along x, then
// along y), a few planks per layer. Each crossing of two planks is a box-box contact of
// up to 4 points (face clipping). The tower must stay up: the top layer's displacement
// stays small; contacts, solver iterations and time per step are reported.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BoxShape.hpp"
#include "scene_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

/// Plank half-extents (m): 0.12 x 0.024 x 0.008 planks lying flat; density (kg/m³, pine).
constexpr double kHalfLength = 0.06;
constexpr double kHalfWidth = 0.012;
constexpr double kHalfThickness = 0.004;
constexpr double kDensity = 450.0;
/// Friction coefficient (wood on wood), restitution 0.
constexpr double kMu = 0.5;

/// The largest number of contacts between one pair of bodies in @p cs.
std::size_t maxContactsPerPair(const SceneContacts& cs) {
  std::map<std::pair<std::int32_t, std::int32_t>, std::size_t> perPair;
  std::size_t most = 0;
  for (std::size_t c = 0; c < cs.size(); ++c)
    most = std::max(most, ++perPair[{cs.bodyA[c], cs.bodyB[c]}]);
  return most;
}

}  // namespace

int main(int argc, char** argv) {
  long layers = 16, perLayer = 2;
  double T = 1.0, h = 1e-3;
  int threads = 0;
  ex::SolverChoice solver{"newton_ac", 1e-6, 1000, false, ""};
  ex::SolverFlags solverFlags;
  solverFlags.iterations.clear();
  solverFlags.shuffle = false;
  std::vector<ex::ExtraOption> extras = ex::solverOptions(solver, solverFlags);
  extras.insert(extras.end(), {{"--layers", "a number of layers in [1, 1000]",
                                [&](const char* v) {
                                  layers = std::atol(v);
                                  return layers >= 1 && layers <= 1000;
                                }},
                               {"--per-layer", "2 or 3 planks per layer",
                                [&](const char* v) {
                                  perLayer = std::atol(v);
                                  return perLayer == 2 || perLayer == 3;
                                }},
                               ex::timeOption(T, 1000),
                               ex::stepOption(h, 0.01),
                               ex::threadsOption(threads)});
  const std::string help =
      "  --layers N         number of layers (default 16)\n"
      "  --per-layer K      planks per layer, 2 or 3 (default 2)\n"
      "  --time T           simulated time in s (default 1)\n"
      "  --step H           time step in s (default 0.001)\n" +
      ex::solverHelp(solver, solverFlags) + ex::threadsHelp(0);
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "KaplaTower", "a tower of Kapla planks standing under gravity (box-box contacts)",
      extras, help.c_str());
  try {
    ex::EngineScene scene(T, h, solver);
    scene.setThreads(threads);
    scene.setDefaultMaterial({kMu, 0.0});
    scene.addBody(ex::groundPlane());
    // layer l at z = (2l + 1) t: even layers along x, odd layers along y (turned by 90°
    // about z); the planks of a layer spread over the plank length, ends flush
    const auto plank =
        std::make_shared<BoxShape>(Shape::Vec3{kHalfLength, kHalfWidth, kHalfThickness});
    const double spacing =
        (2.0 * kHalfLength - 2.0 * kHalfWidth) / static_cast<double>(perLayer - 1);
    const Shape::Quat alongY{std::sqrt(0.5), 0.0, 0.0, std::sqrt(0.5)};
    std::vector<std::size_t> planks;  // their indices in the scene's store
    for (long l = 0; l < layers; ++l)
      for (long k = 0; k < perLayer; ++k) {
        const double across = -kHalfLength + kHalfWidth + k * spacing;
        const double z = (2 * l + 1) * kHalfThickness;
        const bool odd = l % 2 == 1;
        BodyShapes b = makeBody({ex::instance(plank)}, kDensity,
                                odd ? Shape::Vec3{across, 0.0, z} : Shape::Vec3{0.0, across, z},
                                odd ? alongY : Shape::Quat{1.0, 0.0, 0.0, 0.0});
        planks.push_back(scene.addBody(b));
      }
    scene.initialize();
    const long steps = std::lround(T / h);
    // displacement of the top layer (largest over its planks), the largest plank speed,
    // contacts of the most touched pair of bodies
    const std::size_t topFirst = planks.size() - static_cast<std::size_t>(perLayer);
    const BodyStore& store = scene.bodies();
    std::vector<std::array<double, 3>> top0;
    for (std::size_t i = topFirst; i < planks.size(); ++i)
      top0.push_back(
          {store.q[7 * planks[i]], store.q[7 * planks[i] + 1], store.q[7 * planks[i] + 2]});
    double maxTop = 0.0, maxSpeed = 0.0;
    std::size_t mostPerPair = 0;
    long rows = 0;
    ex::SceneColumns columns{
        {"top_displacement", "top_dz", "max_speed", "max_pair_contacts"}, [&]() {
          double disp = 0.0, dz = 0.0, speed = 0.0;
          for (std::size_t i = topFirst; i < planks.size(); ++i) {
            const double* p = &store.q[7 * planks[i]];
            const std::array<double, 3>& p0 = top0[i - topFirst];
            const double d =
                std::sqrt((p[0] - p0[0]) * (p[0] - p0[0]) + (p[1] - p0[1]) * (p[1] - p0[1]) +
                          (p[2] - p0[2]) * (p[2] - p0[2]));
            if (d >= disp) {
              disp = d;
              dz = p[2] - p0[2];
            }
          }
          for (std::size_t b : planks) {
            const double* v = &store.v[6 * b];
            speed = std::max(speed, std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
          }
          const std::size_t pair = rows++ == 0 ? 0 : maxContactsPerPair(scene.contacts());
          maxTop = std::max(maxTop, disp);
          maxSpeed = std::max(maxSpeed, speed);
          mostPerPair = std::max(mostPerPair, pair);
          return std::vector<double>{disp, dz, speed, static_cast<double>(pair)};
        }};
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "KaplaTower", columns, 50);
    std::printf("KaplaTower: %ld layers of %ld planks (%zu planks, %.3g m tall), mu = %g, %g s\n",
                layers, perLayer, planks.size(), 2.0 * kHalfThickness * layers, kMu, T);
    std::printf("  top layer displacement:  %.3g m at most; largest plank speed %.3g m/s\n", maxTop,
                maxSpeed);
    std::printf("  contacts per body pair:  at most %zu\n", mostPerPair);
    std::printf("  solver iterations/step:  %.3g\n",
                run.steps > 0 ? double(run.solverIterations) / run.steps : 0.0);
    return ex::finishScene(scene, run, opt, "KaplaTower",
                           "KaplaTower: top layer displacement, speeds, contacts",
                           {{10, "top displacement (m)", 0},
                            {12, "max speed (m/s)", 1},
                            {6, "contacts", 2},
                            {8, "solver iterations", 2}},
                           {"displacement (m)", "speed (m/s)", "count"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "KaplaTower: %s\n", e.what());
    return 3;
  }
}
