// KalthoffWinkler: the edge-on impact of a plate with two parallel pre-notches (Kalthoff &
// Winkler 1988). A maraging-steel plate 100 mm (along the impact, x) × 200 mm (y), 9 mm thick,
// with two notches 50 mm long, 1.5 mm wide, 50 mm apart, is hit on its edge between the notches
// by a projectile at 32 m/s; a crack leaves each notch tip at about 70° to the impact
// direction. Bond-based peridynamics in plane stress (2D PMB, ν = 1/3), critical stretch from
// G0, explicit velocity Verlet; the projectile is a prescribed velocity on the points of the
// impact zone: V/2, the speed of the contact face when two bodies of the same steel meet at V
// (one-dimensional impedance matching). The crack angle is the principal line of the points
// damaged beyond the notch tip (README).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "example_utils.hpp"
#include "nsdyn/BondBasedMaterial.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicSimulation.hpp"
#include "nsdyn/VelocityVerlet.hpp"
#include "peridynamic_output.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

// The experiment (SI units).
constexpr double kLength = 0.1;         // plate along the impact (x)
constexpr double kWidth = 0.2;          // plate across it (y), centred on y = 0
constexpr double kThickness = 0.009;    // plane stress thickness
constexpr double kNotchLength = 0.05;   // from the impacted edge x = 0
constexpr double kNotchWidth = 0.0015;  // slot width
constexpr double kNotchY = 0.025;       // notches at y = ±25 mm (50 mm apart)
constexpr double kYoung = 190e9;        // maraging steel 18Ni(300)
constexpr double kDensity = 8000.0;
constexpr double kFractureEnergy = 2.2e4;  // G0 (J/m²)

struct Settings {
  double spacing = 1e-3;    // Δx
  double horizonRatio = 3;  // δ / Δx
  double velocity = 32.0;   // projectile speed (m/s)
  double duration = 90e-6;  // simulated time (s)
  double impactTime = 0.0;  // prescribed velocity until then (0: the whole run)
  double step = 0.0;        // h (0: safety × the stable step)
  double safety = 0.8;      // h = safety × VelocityVerlet::stableStep
  double threshold = 0.3;   // damage increase marking a cracked point
  double fitRadius = 0.04;  // crack fitted within this distance of the notch tip
  int frames = 10;          // VTK frames
  int samples = 90;         // CSV rows after t = 0
  int threads = 0;
};

// The crack leaving one notch tip (side +1: the notch at y = +25 mm, growing towards +y;
// −1 its mirror): the points whose damage grew by at least the threshold, ahead of the tip
// (x ≥ tip − δ) and on the outer side; the principal line of those between δ and the fit
// radius from the tip, its angle to the impact direction x (degrees, 0 when fewer than
// 4 points), and the crack length (the farthest of them from the tip).
struct Crack {
  std::size_t points = 0;
  double angle = 0.0, length = 0.0, across = 0.0;
};

Crack measureCrack(const PeridynamicBody& body, const std::vector<double>& damage0, int side,
                   const Settings& s) {
  const double delta = s.horizonRatio * s.spacing;
  const double tipX = kNotchLength, tipY = side * kNotchY;
  std::vector<std::array<double, 2>> fitted;
  Crack c;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body.damage[i] - damage0[i] < s.threshold) continue;
    const double dx = body.X[3 * i] - tipX, dy = side * (body.X[3 * i + 1] - tipY);
    if (dx < -delta || dy < 0.0) continue;
    const double r = std::hypot(dx, dy);
    c.length = std::max(c.length, r);
    if (r >= delta && r <= s.fitRadius) fitted.push_back({dx, dy});
  }
  c.points = fitted.size();
  if (fitted.size() < 4) return c;
  const ex::LineFit fit = ex::fitLine(fitted);
  c.angle = std::atan2(std::fabs(fit.direction[1]), std::fabs(fit.direction[0])) * 180.0 / M_PI;
  c.across = fit.across;
  return c;
}

// Lattice points of the plate, x in (0, L), y in (−W/2, W/2), without those in the notch slots.
std::vector<double> platePoints(double dx) {
  const long nx = std::lround(kLength / dx), ny = std::lround(kWidth / dx);
  std::vector<double> X;
  X.reserve(static_cast<std::size_t>(3 * nx * ny));
  for (long j = 0; j < ny; ++j)
    for (long i = 0; i < nx; ++i) {
      const double x = dx * (i + 0.5), y = -0.5 * kWidth + dx * (j + 0.5);
      const bool inNotch =
          x < kNotchLength && std::fabs(std::fabs(y) - kNotchY) < 0.5 * kNotchWidth - 1e-12;
      if (inNotch) continue;
      X.insert(X.end(), {x, y, 0.0});
    }
  return X;
}

std::vector<ex::ExtraOption> options(Settings& s) {
  auto positive = [](const char* flag, const char* wants, double& x, double lo, double hi) {
    return ex::ExtraOption{flag, wants, [&x, lo, hi](const char* v) {
                             x = std::atof(v);
                             return x > lo && x <= hi;
                           }};
  };
  return {positive("--spacing", "a lattice spacing in (0, 0.01] m dividing 100 mm", s.spacing, 0.0,
                   0.01),
          positive("--horizon", "a horizon ratio delta/dx in [1, 6]", s.horizonRatio, 0.999, 6.0),
          positive("--velocity", "a projectile speed in (0, 1000] m/s", s.velocity, 0.0, 1000.0),
          ex::timeOption(s.duration, 1e-3),
          positive("--impact-time", "a duration in (0, 1e-3] s", s.impactTime, 0.0, 1e-3),
          ex::stepOption(s.step, 1e-5),
          positive("--safety", "a factor in (0, 1]", s.safety, 0.0, 1.0),
          positive("--threshold", "a damage increase in (0, 1]", s.threshold, 0.0, 1.0),
          positive("--fit-radius", "a distance in (0, 0.1] m", s.fitRadius, 0.0, 0.1),
          ex::countOption("--frames", "a number of VTK frames in [0, 1000]", s.frames, 0, 1000),
          ex::countOption("--samples", "a number of CSV rows in [1, 100000]", s.samples, 1, 100000),
          ex::countOption("--threads", "a thread count in [0, 1024]", s.threads, 0, 1024)};
}

const char* kHelp =
    "  --spacing DX       lattice spacing (m, default 1e-3: 19,900 points)\n"
    "  --horizon M        horizon delta = M dx (default 3)\n"
    "  --velocity V       projectile speed (m/s, default 32; the impact zone moves at V/2)\n"
    "  --time T           simulated time (s, default 9e-5)\n"
    "  --impact-time TI   prescribed velocity until TI, then released (default: the whole run)\n"
    "  --step H           time step (s; default SAFETY x the stable step of velocity Verlet)\n"
    "  --safety S         default 0.8\n"
    "  --threshold D      damage increase marking a cracked point (default 0.3)\n"
    "  --fit-radius R     the crack line is fitted within R of the notch tip (m, default 0.04)\n"
    "  --frames N         VTK frames (default 10; 0: none)\n"
    "  --samples N        CSV rows after t = 0 (default 90)\n"
    "  --threads N        OpenMP threads (default 0: automatic)\n";

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  const ex::ExampleOptions opt =
      ex::parseArguments(argc, argv, "KalthoffWinkler",
                         "a notched steel plate hit on its edge: a crack at ~70 degrees "
                         "(bond-based peridynamics, velocity Verlet)",
                         options(s), kHelp);
  const double cells = kLength / s.spacing;
  if (std::fabs(cells - std::round(cells)) > 1e-6 * cells) {
    std::fprintf(stderr, "KalthoffWinkler: --spacing %g does not divide the 100 mm plate\n",
                 s.spacing);
    return 2;
  }
  try {
    const ex::WallClock clock;
    const double dx = s.spacing, delta = s.horizonRatio * dx;
    PeridynamicElasticity e;
    e.youngModulus = kYoung;
    e.poissonRatio = 1.0 / 3.0;
    // the cracks run obliquely to the lattice: the isotropic calibration (bulk modulus and the
    // orientation mean of the shear response exact), not E exact along the lattice axes
    e.calibration = PeridynamicCalibration::Isotropic;
    e.criticalStretch =
        BondBasedMaterial::criticalStretchFromEnergy(kFractureEnergy, delta, kYoung, 2);
    auto material = std::make_shared<BondBasedMaterial>(e);
    PeridynamicBodyOptions bo;
    bo.name = "plate";
    bo.spacing = dx;
    bo.horizon = delta;
    bo.density = kDensity;
    bo.thickness = kThickness;
    bo.threads = s.threads;
    std::vector<double> X = platePoints(dx);
    std::vector<double> volume(X.size() / 3, dx * dx * kThickness);
    auto body = std::make_shared<PeridynamicBody>(std::move(X), std::move(volume), bo, material);
    // the notches: the bonds crossing their centre lines cut (the points in the slots are
    // already left out; bonds up to δ long would bridge a slot narrower than δ)
    std::size_t cut = 0;
    for (int side : {1, -1})
      cut += body->precrack({-delta, side * kNotchY, 0.0}, {kNotchLength, side * kNotchY, 0.0},
                            {0.0, 0.0, 1.0});
    body->refresh();
    const std::vector<double> damage0 = body->damage;
    // the impact zone: the first δ of the edge between the notches
    const double half = kNotchY - 0.5 * kNotchWidth;
    const std::size_t impacted =
        body->prescribe([&](const double* p) { return p[0] < delta && std::fabs(p[1]) < half; });
    for (std::size_t i = 0; i < body->size(); ++i)
      if (body->prescribed[i]) body->v[3 * i] = 0.5 * s.velocity;

    PeridynamicSimulationOptions so;
    so.method = "verlet";
    so.fracture = true;
    so.step.threads = s.threads;
    const double stable = VelocityVerlet::stableStep(*body);
    so.step.h = s.step > 0.0 ? s.step : s.safety * stable;
    PeridynamicSimulation sim(so);
    sim.add(body);
    const double h = so.step.h;
    const long steps = static_cast<long>(std::ceil(s.duration / h - 1e-9));
    const double impactTime = s.impactTime > 0.0 ? s.impactTime : s.duration + h;
    std::printf(
        "KalthoffWinkler: %zu points, %zu bonds, dx = %g mm, delta = %g mm, s0 = %.4g, "
        "%zu points pushed at %g m/s (projectile %g m/s), h = %.3g s (stable %.3g s), %ld steps\n",
        body->size(), body->bondCount() / 2, 1e3 * dx, 1e3 * delta, e.criticalStretch, impacted,
        0.5 * s.velocity, s.velocity, h, stable, steps);

    const std::string name = "KalthoffWinkler";
    const std::string csvPath = ex::joinPath(opt.outputDir, name + ".csv");
    auto csv = std::make_unique<ex::CsvWriter>(
        csvPath,
        std::vector<std::string>{"t", "kinetic", "elastic", "broken_bonds", "crack_upper",
                                 "crack_lower", "angle_upper", "angle_lower", "impactor_x"});
    ex::PeridynamicFrames frames(opt.outputDir, name, s.frames, s.duration);
    auto sample = [&]() {
      const Crack up = measureCrack(*body, damage0, 1, s),
                  low = measureCrack(*body, damage0, -1, s);
      double impactor = 0.0;  // mean x displacement of the impact zone
      std::size_t count = 0;
      for (std::size_t i = 0; i < body->size(); ++i)
        if (body->X[3 * i] < delta && std::fabs(body->X[3 * i + 1]) < half)
          impactor += body->x[3 * i] - body->X[3 * i], ++count;
      csv->row({sim.time(), body->kineticEnergy(), body->elasticEnergy(),
                0.5 * static_cast<double>(body->brokenBonds() - cut), up.length, low.length,
                up.angle, low.angle, count ? impactor / count : 0.0});
    };
    sample();
    frames.write(0.0, h, *body);
    ex::Progress progress(steps, opt.quiet);
    bool released = false;
    std::size_t bondUpdates = 0;
    long nextSample = 1;
    for (long k = 1; k <= steps; ++k) {
      if (!released && sim.time() + 0.5 * h >= impactTime) {
        body->prescribe([&](const double* p) { return p[0] < delta && std::fabs(p[1]) < half; },
                        false);
        released = true;
      }
      bondUpdates += sim.step().solver.bondUpdates;
      if (k * s.samples >= nextSample * steps) {
        sample();
        ++nextSample;
      }
      frames.write(sim.time(), h, *body);
      progress.update(k);
    }
    progress.finish();
    csv.reset();  // closed before gnuplot reads it
    const Crack up = measureCrack(*body, damage0, 1, s), low = measureCrack(*body, damage0, -1, s);
    const double wall = clock.seconds();

    std::printf("KalthoffWinkler summary\n");
    std::printf("  simulated time:          %.3g s in %ld steps of %.3g s\n", sim.time(), steps, h);
    std::printf("  bonds broken:            %.0f of %zu (notch cuts excluded)\n",
                0.5 * static_cast<double>(body->brokenBonds() - cut), body->bondCount() / 2);
    std::printf(
        "  crack angle (to impact): upper %.1f deg, lower %.1f deg (fit of %zu / %zu "
        "points within %g mm of the tips; experiment about 70 deg)\n",
        up.angle, low.angle, up.points, low.points, 1e3 * s.fitRadius);
    std::printf("  crack length:            upper %.1f mm, lower %.1f mm\n", 1e3 * up.length,
                1e3 * low.length);
    std::printf("  crack line spread:       %.2f mm, %.2f mm (rms distance to the fitted line)\n",
                1e3 * up.across, 1e3 * low.across);
    std::printf("  bond updates:            %.3g (%.3g per second)\n",
                static_cast<double>(bondUpdates), bondUpdates / std::max(wall, 1e-9));
    std::printf("  wall time:               %.3f s\n", wall);
    ex::printFileLine("csv", csvPath);
    const std::string pointsPath = ex::joinPath(opt.outputDir, name + "_points.csv");
    ex::writePointsCsv(pointsPath, *body);
    ex::printFileLine("points", pointsPath);
    if (s.frames > 0) ex::printFileLine("vtk", frames.finish());
    if (opt.plot) {
      const std::string png = ex::joinPath(opt.outputDir, name + ".png");
      const bool ok =
          ex::gnuplotPng(csvPath, png, "KalthoffWinkler: energies, crack lengths and angles",
                         {{2, "kinetic (J)", 0},
                          {3, "elastic (J)", 0},
                          {5, "upper crack (m)", 1},
                          {6, "lower crack (m)", 1},
                          {7, "upper angle (deg)", 2},
                          {8, "lower angle (deg)", 2}},
                         {"energy (J)", "crack length (m)", "angle (deg)"});
      ex::printFileLine("plot", ok ? png : "not drawn (gnuplot missing or failed)");
      const std::string map = ex::joinPath(opt.outputDir, name + "_damage.png");
      char title[96];
      std::snprintf(title, sizeof title,
                    "KalthoffWinkler: damage at t = %.1f us (reference "
                    "positions)",
                    1e6 * sim.time());
      const bool mapOk =
          ex::damageMapPng(pointsPath, map, title, 4, 5, 7, 1e3, "x (mm), impact direction",
                           "y (mm)", std::min(2.0, 300.0 * s.spacing));
      ex::printFileLine("damage map", mapOk ? map : "not drawn (gnuplot missing or failed)");
    }
    return 0;
  } catch (const std::exception& err) {
    std::fprintf(stderr, "KalthoffWinkler: %s\n", err.what());
    return 3;
  }
}
