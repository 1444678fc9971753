// RubberBlockIncline: a rubber block (Neo-Hookean peridynamics, or the linear peridynamic solid)
// on a rigid plane inclined by α, Coulomb friction μ. Its points are spheres of a SceneEngine
// (PeridynamicSceneSystem): the contacts with the incline (a static half-space) are solved
// with friction in the scene's one friction-contact problem. Below the friction angle
// (tan α < μ) the block sticks and shears under its own weight; above it the block slides with
// the acceleration g (sin α − μ cos α) of a rigid block. The centre of mass is written beside
// its closed form, with the mean shear strain of the block beside that of an infinite layer
// stuck at its base, ρ g sin α H / (2 G) (README).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "example_utils.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/LinearPeridynamicSolid.hpp"
#include "nsdyn/NeoHookeanMaterial.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicSceneSystem.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "peridynamic_output.hpp"
#include "scene_options.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

constexpr double kG = 9.81;

struct Settings {
  double angle = -1.0;  // degrees (< 0: 20 for stick, 40 for slide)
  bool slide = false;
  double mu = 0.6;
  double young = 2e6;  // E (Pa)
  double poisson = 0.45;
  double density = 1100.0;
  double length = 0.1, width = 0.1, height = 0.05;  // m (along the slope, across, normal)
  double spacing = 0.01;                            // Δx
  double horizonRatio = 3.0;
  double duration = 0.2;  // s
  double step = 2.5e-4;   // h (the contact layer errs by about g h² a step: README)
  double theta = 0.75;    // Moreau–Jean θ (PeridynamicSceneSystem.hpp: ½ leaves ringing)
  std::string material = "neo-hookean";
  std::string stepper = "substitution";
  std::string settle = "substitution";
  double tolerance = 1e-6;
  int frames = 10;
  int threads = 0;
};

std::vector<ex::ExtraOption> options(Settings& s) {
  using ex::numberOption;
  return {
      {"--case", "stick or slide",
       [&s](const char* v) {
         s.slide = std::string(v) == "slide";
         return s.slide || std::string(v) == "stick";
       }},
      numberOption("--angle", "an inclination in (0, 80] degrees", s.angle, 0.0, 80.0),
      numberOption("--mu", "a friction coefficient in (0, 10]", s.mu, 0.0, 10.0),
      numberOption("--young", "a Young's modulus in (0, 1e12] Pa", s.young, 0.0, 1e12),
      numberOption("--poisson", "a Poisson ratio in (-1, 0.5)", s.poisson, -1.0, 0.4999),
      numberOption("--density", "a density in (0, 1e5] kg/m^3", s.density, 0.0, 1e5),
      numberOption("--length", "a block length in (0, 10] m", s.length, 0.0, 10.0),
      numberOption("--width", "a block width in (0, 10] m", s.width, 0.0, 10.0),
      numberOption("--height", "a block height in (0, 10] m", s.height, 0.0, 10.0),
      numberOption("--spacing", "a lattice spacing in (0, 1] m", s.spacing, 0.0, 1.0),
      numberOption("--horizon", "a horizon ratio delta/dx in [1, 6]", s.horizonRatio, 0.999, 6.0),
      ex::timeOption(s.duration, 100.0),
      ex::stepOption(s.step, 0.01),
      numberOption("--theta", "a theta in [0.5, 1]", s.theta, 0.4999, 1.0),
      numberOption("--tolerance", "a relative residual in (0, 1e-2]", s.tolerance, 0.0, 1e-2),
      {"--material", "neo-hookean or lps",
       [&s](const char* v) {
         s.material = v;
         return s.material == "neo-hookean" || s.material == "lps";
       }},
      {"--stepper", "substitution or newton",
       [&s](const char* v) {
         s.stepper = v;
         return s.stepper == "substitution" || s.stepper == "newton";
       }},
      {"--settle", "substitution or newton",
       [&s](const char* v) {
         s.settle = v;
         return s.settle == "substitution" || s.settle == "newton";
       }},
      ex::countOption("--frames", "a number of VTK frames in [0, 1000]", s.frames, 0, 1000),
      ex::threadsOption(s.threads)};
}

const char* kHelp =
    "  --case stick|slide  default angle 20 deg (tan < mu: sticks) or 40 deg (slides)\n"
    "  --angle DEG         inclination (overrides the case's)\n"
    "  --mu MU             friction block-incline (default 0.6)\n"
    "  --young E           Young's modulus (Pa, default 2e6)\n"
    "  --poisson NU        Poisson ratio (default 0.45)\n"
    "  --density RHO       kg/m^3 (default 1100)\n"
    "  --length/--width/--height L  block size (m, default 0.1 x 0.1 x 0.05)\n"
    "  --spacing DX        lattice spacing (m, default 0.01: 500 points)\n"
    "  --horizon M         horizon delta = M dx (default 3)\n"
    "  --time T            simulated time (s, default 0.2)\n"
    "  --step H            time step (s, default 2.5e-4)\n"
    "  --theta TH          Moreau-Jean theta (default 0.75)\n"
    "  --tolerance TOL     the block's step residual (default 1e-6)\n"
    "  --material NAME     neo-hookean (default) or lps\n"
    "  --stepper NAME      substitution (default) or newton\n"
    "  --settle NAME       the static settling on the slope: substitution (default) or newton\n"
    "  --frames N          VTK frames of the block (default 10; 0: none)\n"
    "  --threads N         OpenMP threads (default 0: automatic)\n";

/// Lattice count of @p size / @p dx, refused (exit 2) when dx does not divide it.
int divisions(double size, double dx, const char* what) {
  const double n = size / dx;
  const long k = std::lround(n);
  if (k < 2 || std::fabs(n - k) > 1e-6 * n) {
    std::fprintf(stderr,
                 "RubberBlockIncline: --spacing %g does not divide the block %s %g m into 2 "
                 "or more layers\n",
                 dx, what, size);
    std::exit(2);
  }
  return static_cast<int>(k);
}

/// Frame of the slope: d downhill, y across, n the outward normal of the incline.
struct Slope {
  std::array<double, 3> d, y{0.0, 1.0, 0.0}, n;
  explicit Slope(double alpha)
      : d{std::cos(alpha), 0.0, -std::sin(alpha)}, n{std::sin(alpha), 0.0, std::cos(alpha)} {}
  double along(const double* p) const { return p[0] * d[0] + p[1] * d[1] + p[2] * d[2]; }
  double normal(const double* p) const { return p[0] * n[0] + p[1] * n[1] + p[2] * n[2]; }
};

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "RubberBlockIncline",
      "a Neo-Hookean rubber block sticking or sliding on an incline (peridynamics, friction)",
      options(s), kHelp);
  try {
    const ex::WallClock clock;
    if (s.angle < 0.0) s.angle = s.slide ? 40.0 : 20.0;
    const double alpha = s.angle * M_PI / 180.0, dx = s.spacing;
    const int nl = divisions(s.length, dx, "length"), nw = divisions(s.width, dx, "width"),
              nh = divisions(s.height, dx, "height");
    const Slope slope(alpha);
    // the lattice in the slope's frame: bottom layer at dx/2 above the plane (= the points'
    // contact radius: touching), centred on the origin along the slope and across
    std::vector<double> X;
    for (int i = 0; i < nl; ++i)
      for (int j = 0; j < nw; ++j)
        for (int k = 0; k < nh; ++k) {
          const double a = (i + 0.5) * dx - 0.5 * s.length, b = (j + 0.5) * dx - 0.5 * s.width,
                       c = (k + 0.5) * dx;
          for (int q = 0; q < 3; ++q) X.push_back(a * slope.d[q] + b * slope.y[q] + c * slope.n[q]);
        }
    const std::size_t n = X.size() / 3;
    PeridynamicElasticity e;
    e.youngModulus = s.young;
    e.poissonRatio = s.poisson;
    std::shared_ptr<const PeridynamicMaterial> material;
    if (s.material == "lps")
      material = std::make_shared<LinearPeridynamicSolid>(e);
    else
      material = std::make_shared<NeoHookeanMaterial>(e);
    PeridynamicBodyOptions bo;
    bo.name = "rubber";
    bo.spacing = dx;
    bo.horizon = s.horizonRatio * dx;
    bo.density = s.density;
    bo.threads = s.threads;
    auto block =
        std::make_shared<PeridynamicBody>(X, std::vector<double>(n, dx * dx * dx), bo, material);

    const SceneEngineOptions eo =
        ex::sceneEngineOptions(s.step, s.theta, kG, 1e-10, 20000, s.threads);
    SceneEngine engine(eo);
    engine.setDefaultMaterial({s.mu, 0.0});
    engine.addStatic({ex::instance(
        std::make_shared<HalfSpaceShape>(Shape::Vec3{slope.n[0], slope.n[1], slope.n[2]}, 0.0))});

    // placed gently: the static equilibrium under gravity with the bottom layer held (the
    // shear of a block that stuck from the start), then the bottom layer released
    PeridynamicStepOptions so;
    so.h = 0.0;
    so.gravity = eo.gravity;
    so.tolerance = 1e-8;
    so.maxIterations = 5000;
    so.threads = s.threads;
    block->prescribe([&](const double* p) { return slope.normal(p) < dx; });
    std::vector<double> xs(block->x.size()), vs(block->v.size());
    const PeridynamicStepReport settle =
        makePeridynamicStepper(s.settle)->freeStep(*block, so, xs.data(), vs.data());
    block->x = xs;
    block->prescribe([](const double*) { return true; }, false);

    PeridynamicSceneOptions po;
    po.stepper = s.stepper;
    po.step.tolerance = s.tolerance;
    po.step.maxIterations = 5000;
    po.step.threads = s.threads;
    po.fracture = false;
    auto system = std::make_shared<PeridynamicSceneSystem>(block, po);
    engine.addSystem(system);
    engine.initialize();

    const double mass = block->totalMass();
    const double shearModulus = s.young / (2.0 * (1.0 + s.poisson));
    const bool sticks = std::tan(alpha) <= s.mu;
    const double a = sticks ? 0.0 : kG * (std::sin(alpha) - s.mu * std::cos(alpha));
    const double shearClosed = s.density * kG * std::sin(alpha) * s.height / (2.0 * shearModulus);
    const std::array<double, 3> com0 = block->centreOfMass();
    const double h = eo.h;
    const long steps = std::lround(s.duration / h);
    std::printf(
        "RubberBlockIncline: %s block %g x %g x %g m, %zu points, %zu bonds, E = %g Pa, nu = "
        "%g, rho = %g; incline %g deg, mu = %g (tan = %.4g: %s); h = %g s, theta = %g, %ld "
        "steps, %s\n",
        s.material.c_str(), s.length, s.width, s.height, n, block->bondCount() / 2, s.young,
        s.poisson, s.density, s.angle, s.mu, std::tan(alpha), sticks ? "sticks" : "slides", h,
        s.theta, steps, s.stepper.c_str());

    // the mean shear strain: the top layer's mean downhill displacement less the bottom
    // layer's, over the distance between them
    std::vector<std::size_t> top, bottom;
    for (std::size_t i = 0; i < n; ++i) {
      const double c = slope.normal(&X[3 * i]);
      if (c < dx) bottom.push_back(i);
      if (c > (nh - 1) * dx) top.push_back(i);
    }
    auto meanAlong = [&](const std::vector<std::size_t>& set) {
      double u = 0.0;
      for (std::size_t i : set) u += slope.along(&block->x[3 * i]) - slope.along(&block->X[3 * i]);
      return u / set.size();
    };
    auto shear = [&]() { return (meanAlong(top) - meanAlong(bottom)) / ((nh - 1) * dx); };

    const std::string name = "RubberBlockIncline";
    const std::string csvPath = ex::joinPath(opt.outputDir, name + ".csv");
    auto csv = std::make_unique<ex::CsvWriter>(
        csvPath, std::vector<std::string>{"t", "s", "s_closed", "v_slope", "v_closed", "normal",
                                          "slip", "shear", "shear_closed", "kinetic", "elastic",
                                          "contacts", "contact_points", "iterations", "residual"});
    ex::PeridynamicFrames frames(opt.outputDir, name, s.frames, steps * h);
    auto sample = [&](long k) {
      const std::array<double, 3> c = block->centreOfMass(), p = block->momentum();
      const double dc[3] = {c[0] - com0[0], c[1] - com0[1], c[2] - com0[2]};
      const double t = k * h;
      const PeridynamicSceneSystem::Report& r = system->lastReport();
      csv->row({t, slope.along(dc), 0.5 * a * t * t, slope.along(p.data()) / mass, a * t,
                slope.normal(dc), meanAlong(bottom), shear(), shearClosed, block->kineticEnergy(),
                block->elasticEnergy(), k > 0 ? double(engine.lastReport().contacts) : 0.0,
                k > 0 ? double(r.contactPoints) : 0.0, k > 0 ? double(r.step.iterations) : 0.0,
                k > 0 ? r.step.residual : 0.0});
    };
    sample(0);
    frames.write(0.0, h, *block);
    ex::Progress progress(steps, opt.quiet);
    long failed = 0, notConverged = 0, nonMonotone = 0;
    double st = 0.0, sv = 0.0, stt = 0.0, stv = 0.0, count = 0.0, shearMax = 0.0;
    std::size_t contactsMax = 0;
    for (long k = 1; k <= steps; ++k) {
      const SceneEngine::StepReport& r = engine.step();
      if (r.status != NSD_OK) ++failed;
      const PeridynamicStepReport& pr = system->lastReport().step;
      if (pr.status != NSD_OK) ++notConverged;
      if (!pr.monotone) ++nonMonotone;
      contactsMax = std::max(contactsMax, r.contacts);
      sample(k);
      shearMax = std::max(shearMax, std::fabs(shear()));
      if (2 * k > steps) {  // least-squares line through the velocity over the second half
        const double t = k * h, v = slope.along(block->momentum().data()) / mass;
        st += t, sv += v, stt += t * t, stv += t * v, count += 1.0;
      }
      frames.write(engine.time(), h, *block);
      progress.update(k);
    }
    progress.finish();
    csv.reset();
    const double fit = (count * stv - st * sv) / (count * stt - st * st);
    const std::array<double, 3> com = block->centreOfMass();
    const double dc[3] = {com[0] - com0[0], com[1] - com0[1], com[2] - com0[2]};
    const double travel = slope.along(dc), gamma = shear();
    const double wall = clock.seconds();

    std::printf("RubberBlockIncline summary\n");
    std::printf("  simulated time:          %.4g s in %ld steps of %g s\n", engine.time(), steps,
                h);
    std::printf("  settling (statics):      %d %s iterations, residual %.2e\n", settle.iterations,
                s.settle.c_str(), settle.residual);
    if (sticks)
      std::printf("  closed form:             sticks (tan alpha <= mu): a = 0\n");
    else
      std::printf("  closed form:             slides, a = g (sin - mu cos) = %.6g m/s^2\n", a);
    std::printf(
        "  centre of mass:          %.6g m down the slope (closed form %.6g m), %.3g m "
        "along the normal\n",
        travel, 0.5 * a * steps * h * steps * h, slope.normal(dc));
    if (sticks)
      std::printf("  acceleration (fit):      %.4g m/s^2 over the second half (a rigid block: 0)\n",
                  fit);
    else
      std::printf(
          "  acceleration (fit):      %.6g m/s^2 over the second half, ratio to the "
          "closed form %.5f\n",
          fit, fit / a);
    std::printf(
        "  shear of the block:      %.4g (top - bottom layer / distance); infinite layer "
        "rho g sin H / 2G = %.4g, ratio %.3f; largest %.4g\n",
        gamma, shearClosed, gamma / shearClosed, shearMax);
    double gapMin = 1e300, gapMean = 0.0;
    for (std::size_t i : bottom) {
      const double g = slope.normal(&block->x[3 * i]) - block->contactRadius();
      gapMin = std::min(gapMin, g), gapMean += g / bottom.size();
    }
    std::printf("  bottom layer slip:       %.4g m down the slope (mean over its %zu points)\n",
                meanAlong(bottom), bottom.size());
    std::printf("  bottom layer gap:        %.3g m mean, %.3g m least (contact radius %g m)\n",
                gapMean, gapMin, block->contactRadius());
    std::printf("  contacts:                %zu at most, %zu points touching at the end\n",
                contactsMax, system->lastReport().contactPoints);
    std::printf("  energies (end):          kinetic %.4g J, elastic %.4g J (mass %.4g kg)\n",
                block->kineticEnergy(), block->elasticEnergy(), mass);
    std::printf(
        "  block stepper:           %s, %ld iterations in all (%.1f per step), %ld steps "
        "short of the tolerance, %ld non-monotone\n",
        s.stepper.c_str(), system->totalIterations(), double(system->totalIterations()) / steps,
        notConverged, nonMonotone);
    std::printf("  failed contact solves:   %ld\n", failed);
    std::printf("  wall time:               %.3f s\n", wall);
    ex::printFileLine("csv", csvPath);
    if (s.frames > 0) ex::printFileLine("vtk", frames.finish());
    if (opt.plot) {
      const std::string png = ex::joinPath(opt.outputDir, name + ".png");
      const bool ok =
          ex::gnuplotPng(csvPath, png, "RubberBlockIncline: centre of mass along the slope",
                         {{2, "s measured (m)", 0},
                          {3, "s closed form (m)", 0},
                          {4, "v measured (m/s)", 1},
                          {5, "v closed form (m/s)", 1},
                          {7, "shear (top - bottom)", 2},
                          {8, "shear, infinite layer", 2}},
                         {"distance (m)", "velocity (m/s)", "shear strain"});
      ex::printFileLine("plot", ok ? png : "not drawn (gnuplot missing or failed)");
    }
    if (failed > 0) {
      std::fprintf(stderr, "RubberBlockIncline: %ld of %ld contact solves did not converge\n",
                   failed, steps);
      return 1;
    }
    return 0;
  } catch (const std::exception& err) {
    std::fprintf(stderr, "RubberBlockIncline: %s\n", err.what());
    return 3;
  }
}
