// GlassPlate: a rigid steel sphere dropped on a square glass plate clamped along its edges.
// The plate is a bond-based peridynamic body (3D PMB, ν = 1/4, critical stretch from G0)
// whose points take part, as spheres, in the scene's frictional contacts with the rigid
// sphere (PeridynamicSceneSystem in a SceneEngine: one friction-contact problem, Moreau–Jean);
// its free motion is stepped by velocity Verlet at the engine's step. The plate cracks under
// the sphere (damage above 0.5 at the centre, radial cracks) and the sphere is slowed or
// passes through. Figures: bonds broken, radial cracks, sphere velocity before and after,
// energy balance (README).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "example_utils.hpp"
#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BondBasedMaterial.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"
#include "nsdyn/PeridynamicSceneSystem.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/VelocityVerlet.hpp"
#include "peridynamic_output.hpp"
#include "scene_options.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

// Soda-lime glass and a steel ball (SI units).
constexpr double kGlassYoung = 70e9;
constexpr double kGlassDensity = 2500.0;
constexpr double kGlassFracture = 8.0;  // G0 (J/m²)
constexpr double kSteelDensity = 7850.0;
// A column (the plate's layers at one x, y) with damage above this is cracked (radial cracks
// open from the lower face first, where bending stretches the plate: README).
constexpr double kCrackedColumn = 0.3;

struct Settings {
  double side = 0.1;          // plate side (m), the plate in |x|, |y| ≤ side/2, z in [−t, 0]
  double thickness = 0.006;   // t
  double spacing = 0.002;     // Δx
  double horizonRatio = 3.0;  // δ / Δx
  double radius = 0.01;       // sphere
  double speed = 10.0;        // impact speed (m/s): a drop from speed²/(2g)
  double gap = 2e-4;          // sphere bottom above the plate at t = 0
  double duration = 3e-4;     // simulated time (s)
  double step = 0.0;          // h (0: safety × the stable step of velocity Verlet)
  double safety = 0.8;
  double friction = 0.3;  // μ sphere–glass
  std::string stepper = "verlet";
  int frames = 10;
  int samples = 200;
  int threads = 0;
};

std::vector<ex::ExtraOption> options(Settings& s) {
  auto positive = [](const char* flag, const char* wants, double& x, double lo, double hi) {
    return ex::ExtraOption{flag, wants, [&x, lo, hi](const char* v) {
                             x = std::atof(v);
                             return x > lo && x <= hi;
                           }};
  };
  return {positive("--side", "a plate side in (0, 1] m", s.side, 0.0, 1.0),
          positive("--thickness", "a plate thickness in (0, 0.1] m", s.thickness, 0.0, 0.1),
          positive("--spacing", "a lattice spacing in (0, 0.05] m", s.spacing, 0.0, 0.05),
          positive("--horizon", "a horizon ratio delta/dx in [1, 6]", s.horizonRatio, 0.999, 6.0),
          positive("--radius", "a sphere radius in (0, 0.5] m", s.radius, 0.0, 0.5),
          positive("--speed", "an impact speed in (0, 1000] m/s", s.speed, 0.0, 1000.0),
          ex::timeOption(s.duration, 1.0),
          ex::stepOption(s.step, 1e-3),
          positive("--safety", "a factor in (0, 1]", s.safety, 0.0, 1.0),
          {"--mu", "a friction coefficient >= 0",
           [&s](const char* v) {
             s.friction = std::atof(v);
             return s.friction >= 0.0 && s.friction <= 10.0;
           }},
          {"--stepper", "verlet, substitution or newton",
           [&s](const char* v) {
             s.stepper = v;
             return s.stepper == "verlet" || s.stepper == "substitution" || s.stepper == "newton";
           }},
          ex::countOption("--frames", "a number of VTK frames in [0, 1000]", s.frames, 0, 1000),
          ex::countOption("--samples", "a number of CSV rows in [1, 100000]", s.samples, 1, 100000),
          ex::countOption("--threads", "a thread count in [0, 1024]", s.threads, 0, 1024)};
}

const char* kHelp =
    "  --side L           plate side (m, default 0.1)\n"
    "  --thickness T      plate thickness (m, default 0.006)\n"
    "  --spacing DX       lattice spacing (m, default 0.002: 7,500 points)\n"
    "  --horizon M        horizon delta = M dx (default 3)\n"
    "  --radius R         steel sphere radius (m, default 0.01)\n"
    "  --speed V          impact speed (m/s, default 10: a drop from 5.1 m)\n"
    "  --time T           simulated time (s, default 3e-4)\n"
    "  --step H           time step (s; default SAFETY x the stable step of velocity Verlet)\n"
    "  --safety S         default 0.8\n"
    "  --mu MU            sphere-glass friction (default 0.3)\n"
    "  --stepper NAME     the plate's free step: verlet (default), substitution, newton\n"
    "  --frames N         VTK frames of the plate (default 10; 0: none)\n"
    "  --samples N        CSV rows after t = 0 (default 200)\n"
    "  --threads N        OpenMP threads (default 0: automatic)\n";

// The largest damage over the points of the same column (same x, y; the plate's layers):
// the damage seen from above.
std::vector<double> columnDamage(const PeridynamicBody& plate, double dx) {
  std::map<std::pair<long, long>, double> top;
  auto key = [&](std::size_t i) {
    return std::make_pair(std::lround(plate.X[3 * i] / dx), std::lround(plate.X[3 * i + 1] / dx));
  };
  for (std::size_t i = 0; i < plate.size(); ++i) {
    double& d = top[key(i)];
    d = std::max(d, plate.damage[i]);
  }
  std::vector<double> column(plate.size());
  for (std::size_t i = 0; i < plate.size(); ++i) column[i] = top[key(i)];
  return column;
}

// Radial cracks: the columns damaged beyond @p threshold (columnDamage) in the annulus between
// the contact zone and the clamped band, binned by polar angle into 36 sectors of 10°; a crack
// is a run of occupied sectors (wrapping around).
int radialCracks(const PeridynamicBody& plate, const std::vector<double>& column, double threshold,
                 double rInner, double rOuter) {
  constexpr int kSectors = 36;
  std::array<int, kSectors> hits{};
  for (std::size_t i = 0; i < plate.size(); ++i) {
    if (column[i] < threshold) continue;
    const double x = plate.X[3 * i], y = plate.X[3 * i + 1], r = std::hypot(x, y);
    if (r < rInner || r > rOuter) continue;
    const double a = std::atan2(y, x) + M_PI;  // [0, 2π]
    hits[std::min(kSectors - 1, static_cast<int>(a / (2.0 * M_PI) * kSectors))] += 1;
  }
  int runs = 0;
  for (int k = 0; k < kSectors; ++k)
    if (hits[k] > 0 && hits[(k + kSectors - 1) % kSectors] == 0) ++runs;
  const bool all = std::all_of(hits.begin(), hits.end(), [](int h) { return h > 0; });
  return all ? 1 : runs;
}

// The energy the broken bonds held when they broke, Σ_pairs ½ β c s₀² |ξ| V_i V_j (J):
// an estimate of the fracture energy spent.
double brokenBondEnergy(const PeridynamicBody& plate, double c, double s0) {
  double e = 0.0;
  for (std::size_t i = 0; i < plate.size(); ++i)
    for (std::uint32_t b = plate.bondStart[i]; b < plate.bondStart[i + 1]; ++b)
      if (plate.bondBroken[b])
        e += 0.25 * plate.bondFactor[b] * c * s0 * s0 * plate.bondLength[b] * plate.volume[i] *
             plate.volume[plate.neighbour[b]];
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "GlassPlate",
      "a steel sphere dropped on a clamped glass plate (peridynamics in a SceneEngine)", options(s),
      kHelp);
  try {
    const ex::WallClock clock;
    const double dx = s.spacing, delta = s.horizonRatio * dx;
    PeridynamicElasticity e;
    e.youngModulus = kGlassYoung;
    e.poissonRatio = 0.25;
    // radial cracks in every direction: the isotropic calibration (bulk modulus and the
    // orientation mean of the shear response exact), not E exact along the lattice axes
    e.calibration = PeridynamicCalibration::Isotropic;
    e.criticalStretch =
        BondBasedMaterial::criticalStretchFromEnergy(kGlassFracture, delta, kGlassYoung, 3);
    auto material = std::make_shared<BondBasedMaterial>(e);
    PeridynamicBodyOptions bo;
    bo.name = "glass";
    bo.spacing = dx;
    bo.horizon = delta;
    bo.density = kGlassDensity;
    bo.threads = s.threads;
    std::shared_ptr<PeridynamicBody> plate =
        peridynamics::box({0.0, 0.0, -0.5 * s.thickness},
                          {0.5 * s.side, 0.5 * s.side, 0.5 * s.thickness}, bo, material);
    // clamped along the edges: the points within δ of the sides do not move
    const double inner = 0.5 * s.side - delta;
    const std::size_t clamped = plate->prescribe(
        [&](const double* p) { return std::fabs(p[0]) > inner || std::fabs(p[1]) > inner; });

    SceneEngineOptions eo;
    const double stable = VelocityVerlet::stableStep(*plate);
    eo.h = s.step > 0.0 ? s.step : s.safety * stable;
    eo.theta = 0.5;
    eo.gravity = {0.0, 0.0, -9.81};
    eo.solver = "nsgs";
    eo.solverOptions.tolerance = 1e-8;
    eo.solverOptions.max_iterations = 1000;
    eo.contacts.detection.threads = s.threads;
    SceneEngine engine(eo);
    engine.setDefaultMaterial({s.friction, 0.0});
    const std::size_t ball = engine.addBody(makeBody(
        {ex::instance(std::make_shared<SphereShape>(s.radius))}, kSteelDensity,
        {0.0, 0.0, s.radius + s.gap}, {1.0, 0.0, 0.0, 0.0}, {0.0, 0.0, -s.speed, 0.0, 0.0, 0.0}));
    PeridynamicSceneOptions po;
    po.stepper = s.stepper;
    po.step.threads = s.threads;
    auto system = std::make_shared<PeridynamicSceneSystem>(plate, po);
    engine.addSystem(system);
    engine.initialize();
    const BodyStore& store = engine.bodies();
    const double h = eo.h;
    const long steps = static_cast<long>(std::ceil(s.duration / h - 1e-9));
    const double ballMass = store.mass[ball];
    std::printf(
        "GlassPlate: %zu points (%zu clamped), %zu bonds, dx = %g mm, delta = %g mm, s0 = %.3g; "
        "sphere r = %g mm, %.4g kg at %g m/s; h = %.3g s (stable %.3g s), %ld steps, %s\n",
        plate->size(), clamped, plate->bondCount() / 2, 1e3 * dx, 1e3 * delta, e.criticalStretch,
        1e3 * s.radius, ballMass, s.speed, h, stable, steps, s.stepper.c_str());

    const double c = material->micromodulus(*plate);
    const std::string name = "GlassPlate";
    const std::string csvPath = ex::joinPath(opt.outputDir, name + ".csv");
    auto csv = std::make_unique<ex::CsvWriter>(
        csvPath, std::vector<std::string>{"t", "kinetic", "potential", "elastic", "contact_work",
                                          "energy", "imbalance", "sphere_z", "sphere_vz",
                                          "broken_bonds", "broken_energy", "centre_damage",
                                          "radial_cracks", "contacts", "active"});
    ex::PeridynamicFrames frames(opt.outputDir, name, s.frames, s.duration);
    // radial cracks between the contact zone (sphere radius + δ) and the clamped band
    auto countCracks = [&](const std::vector<double>& column) {
      return radialCracks(*plate, column, kCrackedColumn, s.radius + delta,
                          0.5 * s.side - 2.0 * delta);
    };
    // centre damage: the mean damage of the points within 2Δx of the plate's axis
    std::vector<std::size_t> centre;
    for (std::size_t i = 0; i < plate->size(); ++i)
      if (std::hypot(plate->X[3 * i], plate->X[3 * i + 1]) <= 2.0 * dx) centre.push_back(i);
    auto centreDamage = [&]() {
      double d = 0.0;
      for (std::size_t i : centre) d += plate->damage[i];
      return centre.empty() ? 0.0 : d / centre.size();
    };
    const double energy0 =
        engine.kineticEnergy() + engine.potentialEnergy() + plate->elasticEnergy();
    double work = 0.0, maxImbalance = 0.0, maxForce = 0.0;
    std::size_t maxContacts = 0;
    long failed = 0;
    auto sample = [&](const SceneEngine::StepReport* r) {
      const double kin = engine.kineticEnergy(), pot = engine.potentialEnergy();
      const double el = plate->elasticEnergy(), total = kin + pot + el;
      csv->row(
          {engine.time(), kin, pot, el, work, total, total - energy0 - work, store.q[7 * ball + 2],
           store.v[6 * ball + 2], 0.5 * static_cast<double>(plate->brokenBonds()),
           brokenBondEnergy(*plate, c, e.criticalStretch), centreDamage(),
           static_cast<double>(countCracks(columnDamage(*plate, dx))),
           r ? static_cast<double>(r->contacts) : 0.0, r ? static_cast<double>(r->active) : 0.0});
    };
    sample(nullptr);
    frames.write(0.0, h, *plate);
    ex::Progress progress(steps, opt.quiet);
    long nextSample = 1;
    double vzPrevious = store.v[6 * ball + 2];
    for (long k = 1; k <= steps; ++k) {
      const SceneEngine::StepReport& r = engine.step();
      if (r.status != NSD_OK) ++failed;
      work += r.contactWork;
      maxContacts = std::max(maxContacts, r.contacts);
      const double vz = store.v[6 * ball + 2];
      // the contact force on the sphere: its momentum change less gravity's, over h
      maxForce = std::max(maxForce, std::fabs(ballMass * ((vz - vzPrevious) / h + 9.81)));
      vzPrevious = vz;
      const double total =
          engine.kineticEnergy() + engine.potentialEnergy() + plate->elasticEnergy();
      maxImbalance = std::max(maxImbalance, std::fabs(total - energy0 - work));
      if (k * s.samples >= nextSample * steps) {
        sample(&r);
        ++nextSample;
      }
      frames.write(engine.time(), h, *plate);
      progress.update(k);
    }
    progress.finish();
    csv.reset();  // closed before gnuplot reads it
    const double wall = clock.seconds();
    const double vzEnd = store.v[6 * ball + 2];
    const double zEnd = store.q[7 * ball + 2];
    const double fracture = brokenBondEnergy(*plate, c, e.criticalStretch);
    const double energyEnd =
        engine.kineticEnergy() + engine.potentialEnergy() + plate->elasticEnergy();
    const std::vector<double> column = columnDamage(*plate, dx);
    const int cracks = countCracks(column);
    const bool through = zEnd - s.radius < -s.thickness;  // its lowest point

    std::printf("GlassPlate summary\n");
    std::printf("  simulated time:          %.3g s in %ld steps of %.3g s\n", engine.time(), steps,
                h);
    std::printf("  bonds broken:            %zu of %zu\n", plate->brokenBonds() / 2,
                plate->bondCount() / 2);
    std::printf(
        "  centre damage:           %.3f (mean over the %zu points within 2 dx of the axis)\n",
        centreDamage(), centre.size());
    std::printf(
        "  radial cracks:           %d (runs of 10-degree sectors holding a column damaged "
        "beyond %g, %g to %g mm from the centre)\n",
        cracks, kCrackedColumn, 1e3 * (s.radius + delta), 1e3 * (0.5 * s.side - 2.0 * delta));
    std::printf("  sphere velocity:         %.4g m/s before, %.4g m/s after (z)\n", -s.speed,
                vzEnd);
    std::printf(
        "  sphere position:         lowest point %.3g mm below the plate's top, %s\n",
        -1e3 * (zEnd - s.radius),
        through ? "below its lower face: the plate is punched through" : "within its thickness");
    std::printf("  sphere energy:           %.4g J before, %.4g J after\n",
                0.5 * ballMass * s.speed * s.speed, 0.5 * ballMass * vzEnd * vzEnd);
    std::printf("  largest contact force:   %.4g N; at most %zu contacts\n", maxForce, maxContacts);
    std::printf(
        "  energy balance:          E0 = %.4g J, E = %.4g J, contact work W = %.4g J, E - E0 - W "
        "= %.4g J (largest |.| %.3g J); bonds' energy at breaking %.3g J\n",
        energy0, energyEnd, work, energyEnd - energy0 - work, maxImbalance, fracture);
    std::printf("  failed contact solves:   %ld\n", failed);
    std::printf("  plate stepper:           %s, %ld iterations in all\n", s.stepper.c_str(),
                system->totalIterations());
    std::printf("  wall time:               %.3f s\n", wall);
    ex::printFileLine("csv", csvPath);
    const std::string pointsPath = ex::joinPath(opt.outputDir, name + "_points.csv");
    ex::writePointsCsv(pointsPath, *plate, "column_damage", column);
    ex::printFileLine("points", pointsPath);
    if (s.frames > 0) ex::printFileLine("vtk", frames.finish());
    if (opt.plot) {
      const std::string png = ex::joinPath(opt.outputDir, name + ".png");
      const bool ok = ex::gnuplotPng(csvPath, png, "GlassPlate: sphere, energies, damage",
                                     {{9, "sphere vz (m/s)", 0},
                                      {2, "kinetic (J)", 1},
                                      {4, "elastic (J)", 1},
                                      {5, "contact work (J)", 1},
                                      {7, "E - E0 - W (J)", 1},
                                      {12, "centre damage", 2}},
                                     {"velocity (m/s)", "energy (J)", "damage"});
      ex::printFileLine("plot", ok ? png : "not drawn (gnuplot missing or failed)");
      const std::string map = ex::joinPath(opt.outputDir, name + "_damage.png");
      char title[96];
      std::snprintf(title, sizeof title, "GlassPlate: damage at t = %.0f us (top view)",
                    1e6 * engine.time());
      const bool mapOk = ex::damageMapPng(pointsPath, map, title, 4, 5, 8, 1e3, "x (mm)", "y (mm)",
                                          std::min(2.0, 60.0 * dx / s.side));
      ex::printFileLine("damage map", mapOk ? map : "not drawn (gnuplot missing or failed)");
    }
    if (failed > 0) {
      std::fprintf(stderr, "GlassPlate: %ld of %ld contact solves did not converge\n", failed,
                   steps);
      return 1;
    }
    return 0;
  } catch (const std::exception& err) {
    std::fprintf(stderr, "GlassPlate: %s\n", err.what());
    return 3;
  }
}
