// InclineRolling: a sphere rolling, or a box sticking or sliding, on a plane inclined
// by theta (one static half-space, FrictionContact(3)), with the analytic velocity
// along the slope beside the measured one:
//  - sphere, mu >= 2/7 tan(theta): rolls without slip, a = 5/7 g sin(theta);
//    mu < 2/7 tan(theta): slides while spinning up, a = g (sin(theta) - mu cos(theta));
//  - box, tan(theta) <= mu: sticks, a = 0; tan(theta) > mu: slides, a = g (sin(theta) - mu
//  cos(theta)).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/SphereShape.hpp"
#include "scene_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

/// Sphere radius and box half-size (m), densities (kg/m³).
constexpr double kRadius = 0.1;
constexpr double kHalfSize = 0.1;
constexpr double kSphereDensity = 1000.0;
constexpr double kBoxDensity = 500.0;
/// Solver tolerance and iteration cap: the analytic comparison is to 1e-6.
constexpr double kTolerance = 1e-12;
constexpr int kMaxIterations = 100000;

/// Acceleration along the slope of the body on the incline (see the file comment).
double analyticAcceleration(bool sphere, double theta, double mu, double g) {
  const double slide = g * (std::sin(theta) - mu * std::cos(theta));
  if (sphere) return mu >= 2.0 / 7.0 * std::tan(theta) ? 5.0 / 7.0 * g * std::sin(theta) : slide;
  return std::tan(theta) <= mu ? 0.0 : slide;
}

}  // namespace

int main(int argc, char** argv) {
  bool sphere = true;
  double angleDeg = 25.0, mu = 0.4, T = 1.0, h = 1e-3;
  int threads = 1;
  ex::SolverChoice solver{"nsgs", kTolerance, kMaxIterations, false, ""};
  const ex::SolverFlags solverFlags{false, "", 0, 0, false};  // --solver only
  std::vector<ex::ExtraOption> extras = ex::solverOptions(solver, solverFlags);
  extras.insert(extras.end(), {{"--case", "sphere or box",
                                [&](const char* v) {
                                  sphere = std::strcmp(v, "sphere") == 0;
                                  return sphere || std::strcmp(v, "box") == 0;
                                }},
                               {"--angle", "an inclination in (0, 80] degrees",
                                [&](const char* v) {
                                  angleDeg = std::atof(v);
                                  return angleDeg > 0.0 && angleDeg <= 80.0;
                                }},
                               {"--mu", "a friction coefficient in [0, 10]",
                                [&](const char* v) {
                                  mu = std::atof(v);
                                  return mu >= 0.0 && mu <= 10.0;
                                }},
                               ex::timeOption(T, 100),
                               ex::stepOption(h, 0.01),
                               ex::threadsOption(threads)});
  const std::string help =
      "  --case sphere|box  the body (default sphere)\n"
      "  --angle DEG        inclination in degrees (default 25)\n"
      "  --mu MU            friction coefficient (default 0.4)\n"
      "  --time T           simulated time in s (default 1)\n"
      "  --step H           time step in s (default 0.001)\n" +
      ex::solverHelp(solver, solverFlags) + ex::threadsHelp(1);
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "InclineRolling",
      "a sphere rolling or a box sticking/sliding on an incline, against the closed forms", extras,
      help.c_str());
  try {
    const double theta = angleDeg * M_PI / 180.0;
    ex::EngineScene scene(T, h, solver);
    // one body: parallel regions would cost more than they save
    scene.setThreads(threads);
    scene.setDefaultMaterial({mu, 0.0});
    // the incline: points with n.x <= 0, n = (sin, 0, cos); downhill d = (cos, 0, -sin)
    const Shape::Vec3 n{std::sin(theta), 0.0, std::cos(theta)};
    const Shape::Vec3 d{std::cos(theta), 0.0, -std::sin(theta)};
    scene.addBody(makeStaticBody({ex::instance(std::make_shared<HalfSpaceShape>(n, 0.0))}));
    // the body touching the plane at the origin; the box turned by theta about y to lie on a face
    const double size = sphere ? kRadius : kHalfSize;
    const Shape::Vec3 centre{size * n[0], 0.0, size * n[2]};
    BodyShapes body = sphere ? makeBody({ex::instance(std::make_shared<SphereShape>(kRadius))},
                                        kSphereDensity, centre)
                             : makeBody({ex::instance(std::make_shared<BoxShape>(
                                            Shape::Vec3{kHalfSize, kHalfSize, kHalfSize}))},
                                        kBoxDensity, centre,
                                        {std::cos(theta / 2), 0.0, std::sin(theta / 2), 0.0});
    const std::size_t k = scene.addBody(body);  // its state lives in the scene's store
    scene.initialize();

    const double a = analyticAcceleration(sphere, theta, mu, scene.gravity());
    const long steps = std::lround(T / h);
    // measured and analytic velocity along the slope, distance travelled, r·omega (rolling speed)
    double maxRelError = 0.0, maxAbsError = 0.0;
    long rows = 0;  // the first row is the initial state (t = 0), row k is t_k
    ex::SceneColumns columns{
        {"s", "s_analytic", "v_slope", "v_analytic", "r_omega"}, [&]() {
          const double* q = &scene.bodies().q[7 * k];
          const double* v = &scene.bodies().v[6 * k];
          const double t = rows++ == 0 ? 0.0 : scene.engine().time();
          const double s = (q[0] - centre[0]) * d[0] + (q[2] - centre[2]) * d[2];
          const double vs = v[0] * d[0] + v[1] * d[1] + v[2] * d[2];
          const double va = a * t;
          const double err = std::fabs(vs - va);
          maxAbsError = std::max(maxAbsError, err);
          if (va > 0.0) maxRelError = std::max(maxRelError, err / va);
          return std::vector<double>{s, 0.5 * a * t * t, vs, va,
                                     size * scene.bodies().angularVelocityWorld(k)[1]};
        }};
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "InclineRolling", columns, 20);
    std::printf(
        "InclineRolling: %s, theta = %g deg, mu = %g (tan theta = %.4g, 2/7 tan theta = %.4g)\n",
        sphere ? "sphere" : "box", angleDeg, mu, std::tan(theta), 2.0 / 7.0 * std::tan(theta));
    std::printf(
        "  analytic acceleration:   %.10g m/s^2 (%s)\n", a,
        sphere ? (a > 0.0 && mu >= 2.0 / 7.0 * std::tan(theta) ? "rolling, 5/7 g sin" : "sliding")
               : (a == 0.0 ? "sticking" : "sliding"));
    std::printf("  velocity along slope:    %.10g m/s at t = %g (analytic %.10g)\n",
                scene.bodies().v[6 * k] * d[0] + scene.bodies().v[6 * k + 2] * d[2], steps * h,
                a * steps * h);
    std::printf("  max error over the run:  %.3g m/s (relative %.3g)\n", maxAbsError, maxRelError);
    return ex::finishScene(scene, run, opt, "InclineRolling",
                           "InclineRolling: velocity along the slope",
                           {{12, "v measured (m/s)", 0},
                            {13, "v analytic (m/s)", 0},
                            {14, "r omega (m/s)", 0},
                            {10, "s (m)", 1},
                            {11, "s analytic (m)", 1}},
                           {"velocity (m/s)", "distance (m)"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "InclineRolling: %s\n", e.what());
    return 3;
  }
}
