// ClothDrape: a square cloth (a peridynamic sheet: SheetMaterial, membrane bonds and virtual
// bonds along the normal for bending) dropped on a rigid sphere resting on a table (two static
// shapes). Its points are spheres of a SceneEngine (PeridynamicSceneSystem) in frictional
// contact with the sphere and the table. Phase 1 (drape): the cloth falls and drapes over the
// sphere, its corners hanging down to the table. Phase 2 (--pull): the points at the four
// corners are gripped and pulled apart along x (the two corners at −x to −x, the two at +x to
// +x) until the cloth tears from a cut in the middle of one edge, along the line x = 0, by the
// critical stretch of its bonds. Figures: the drape (centre, lowest and highest points, the
// corners, contacts, energies, the deepest point inside the sphere) and the bonds broken with
// the line they lie on (README).
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
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"
#include "nsdyn/PeridynamicSceneSystem.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SheetMaterial.hpp"
#include "nsdyn/SphereShape.hpp"
#include "peridynamic_output.hpp"
#include "scene_options.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

constexpr double kG = 9.81;

struct Settings {
  double side = 0.8;        // cloth side L (m)
  double spacing = 0.02;    // Δx
  double radius = 0.2;      // sphere R, resting on the table z = 0
  double thickness = 5e-4;  // t
  double young = 5e6;       // E (Pa): in-plane stiffness E t / (1 − ν²) = 2.8 kN/m
  double density = 300.0;   // ρ: 0.15 kg/m²
  double bending = 1.0;     // SheetMaterialOptions::bendingScale
  double stretch = 0.05;    // critical stretch
  double contact = 0.0;     // contact radius (0: Δx / 4)
  double mu = 0.5;          // cloth–sphere and cloth–table friction
  double drop = 0.02;       // gap between the cloth and the sphere's top at t = 0
  double drape = 1.0;       // phase 1 (s)
  double drag = 2.0;        // air drag c (1/s): F = −c m v
  bool pull = false;        // phase 2
  double pullTime = 0.5;    // s
  double pullSpeed = 0.2;   // m/s, each side
  double notch = 0.2;       // cut from the middle of the edge y = −L/2 (m; 0: none)
  double step = 1e-3;       // h
  double theta = 0.75;
  double tolerance = 1e-6;
  std::string stepper = "substitution";
  bool exactResponse = false;  // --response lumped (default) | exact
  int frames = 20;
  int samples = 200;
  int threads = 0;
};

std::vector<ex::ExtraOption> options(Settings& s) {
  using ex::countOption, ex::numberOption;
  return {numberOption("--side", "a cloth side in (0, 10] m", s.side, 0.0, 10.0),
          numberOption("--spacing", "a lattice spacing in (0, 1] m", s.spacing, 0.0, 1.0),
          numberOption("--radius", "a sphere radius in (0, 10] m", s.radius, 0.0, 10.0),
          numberOption("--thickness", "a thickness in (0, 0.1] m", s.thickness, 0.0, 0.1),
          numberOption("--young", "a Young's modulus in (0, 1e12] Pa", s.young, 0.0, 1e12),
          numberOption("--density", "a density in (0, 1e5] kg/m^3", s.density, 0.0, 1e5),
          numberOption("--bending", "a bending scale in [0, 1e6]", s.bending, -1e-300, 1e6),
          numberOption("--critical-stretch", "a critical stretch in (0, 10]", s.stretch, 0.0, 10.0),
          numberOption("--contact-radius", "a contact radius in [0, 1] m", s.contact, -1e-300, 1.0),
          numberOption("--mu", "a friction coefficient in [0, 10]", s.mu, -1e-300, 10.0),
          numberOption("--drop", "a drop gap in [0, 10] m", s.drop, -1e-300, 10.0),
          numberOption("--drape-time", "a drape duration in (0, 100] s", s.drape, 0.0, 100.0),
          numberOption("--drag", "a drag rate in [0, 1000] 1/s", s.drag, -1e-300, 1000.0),
          ex::switchOption("--pull", s.pull),
          numberOption("--pull-time", "a pull duration in (0, 100] s", s.pullTime, 0.0, 100.0),
          numberOption("--pull-speed", "a pull speed in (0, 100] m/s", s.pullSpeed, 0.0, 100.0),
          numberOption("--notch", "a cut length in [0, 10] m", s.notch, -1e-300, 10.0),
          ex::stepOption(s.step, 0.01),
          numberOption("--theta", "a theta in [0.5, 1]", s.theta, 0.4999, 1.0),
          numberOption("--tolerance", "a relative residual in (0, 1e-2]", s.tolerance, 0.0, 1e-2),
          {"--stepper", "substitution or newton",
           [&s](const char* v) {
             s.stepper = v;
             return s.stepper == "substitution" || s.stepper == "newton";
           }},
          {"--response", "lumped or exact",
           [&s](const char* v) {
             s.exactResponse = std::string(v) == "exact";
             return s.exactResponse || std::string(v) == "lumped";
           }},
          countOption("--frames", "a number of VTK frames in [0, 1000]", s.frames, 0, 1000),
          countOption("--samples", "a number of CSV rows in [1, 100000]", s.samples, 1, 100000),
          ex::threadsOption(s.threads)};
}

const char* kHelp =
    "  --side L             cloth side (m, default 0.8)\n"
    "  --spacing DX         lattice spacing (m, default 0.02: 1,600 points)\n"
    "  --radius R           sphere radius (m, default 0.2), resting on the table z = 0\n"
    "  --thickness T        cloth thickness (m, default 5e-4)\n"
    "  --young E            Young's modulus (Pa, default 5e6)\n"
    "  --density RHO        kg/m^3 (default 300: 0.15 kg/m^2)\n"
    "  --bending S          bending stiffness scale (default 1: E t^3 / (12 (1 - nu^2)))\n"
    "  --critical-stretch S bond critical stretch (default 0.05)\n"
    "  --contact-radius R   points' contact radius (m, default dx / 4)\n"
    "  --mu MU              friction on the sphere and the table (default 0.5)\n"
    "  --drop D             gap above the sphere at t = 0 (m, default 0.02)\n"
    "  --drape-time T       phase 1 (s, default 1)\n"
    "  --drag C             air drag F = -C m v (1/s, default 2; 0: none)\n"
    "  --pull               phase 2: a cut, then the outer halves of the side edges x = +-L/2\n"
    "                       pulled apart along x until the cloth tears\n"
    "  --pull-time T        phase 2 (s, default 0.5)\n"
    "  --pull-speed V       speed of each side's corners (m/s, default 0.2)\n"
    "  --notch C            cut from the middle of the edge y = -L/2 along y (m, default 0.1; 0: "
    "none)\n"
    "  --step H             time step (s, default 0.001)\n"
    "  --theta TH           Moreau-Jean theta (default 0.75)\n"
    "  --tolerance TOL      the cloth's step residual (default 1e-6)\n"
    "  --stepper NAME       substitution (default) or newton\n"
    "  --response R         the cloth's response in the contact problem: lumped (default:\n"
    "                       the points' masses) or exact (its iteration matrix; about 10x\n"
    "                       the time here, some 500 points in contact)\n"
    "  --frames N           VTK frames (default 20; 0: none)\n"
    "  --samples N          CSV rows after t = 0 (default 200)\n"
    "  --threads N          OpenMP threads (default 0: automatic)\n";

/// What the drape looks like now.
struct Drape {
  double centre = 0.0, lowest = 0.0, highest = 0.0, corners = 0.0;
  double insideSphere = 0.0;  ///< deepest point inside the sphere + contact radius (m, ≥ 0)
  double belowTable = 0.0;    ///< deepest point below the table + contact radius (m, ≥ 0)
};

}  // namespace

int main(int argc, char** argv) {
  Settings s;
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "ClothDrape",
      "a cloth draped over a sphere on a table, then torn (peridynamic sheet, contact)", options(s),
      kHelp);
  try {
    const ex::WallClock clock;
    const double dx = s.spacing, L = s.side, R = s.radius;
    if (s.notch >= 0.5 * L) {
      std::fprintf(stderr, "ClothDrape: --notch %g must be shorter than half the side %g m\n",
                   s.notch, L);
      return 2;
    }
    PeridynamicElasticity e;
    e.youngModulus = s.young;
    e.poissonRatio = 1.0 / 3.0;
    e.criticalStretch = s.stretch;
    SheetMaterialOptions so;
    so.bendingScale = s.bending;
    auto material = std::make_shared<SheetMaterial>(e, so);
    PeridynamicBodyOptions bo;
    bo.name = "cloth";
    bo.spacing = dx;
    bo.horizon = 3.0 * dx;
    bo.density = s.density;
    bo.thickness = s.thickness;
    bo.contactRadius = s.contact > 0.0 ? s.contact : 0.25 * dx;
    bo.threads = s.threads;
    const double rc = bo.contactRadius;
    std::shared_ptr<PeridynamicBody> cloth =
        peridynamics::sheet({0.0, 0.0, 2.0 * R + rc + s.drop}, {1.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
                            0.5 * L, 0.5 * L, bo, material);
    const std::size_t n = cloth->size();

    const SceneEngineOptions eo =
        ex::sceneEngineOptions(s.step, s.theta, kG, 1e-8, 5000, s.threads);
    SceneEngine engine(eo);
    engine.setDefaultMaterial({s.mu, 0.0});
    engine.addStatic({ex::instance(std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0))});
    engine.addStatic({ex::instance(std::make_shared<SphereShape>(R))}, {0.0, 0.0, R});
    PeridynamicSceneOptions po;
    po.stepper = s.stepper;
    po.step.tolerance = s.tolerance;
    po.step.maxIterations = 2000;
    po.step.threads = s.threads;
    po.fracture = true;
    po.exactResponse = s.exactResponse;
    auto system = std::make_shared<PeridynamicSceneSystem>(cloth, po);
    engine.addSystem(system);
    engine.initialize();

    // the centre: the points within Δx of the axis; the corners and grips: the points within
    // 2 Δx of each corner along both axes
    std::vector<std::size_t> centre, corners, grips;
    for (std::size_t i = 0; i < n; ++i) {
      const double* X = &cloth->X[3 * i];
      if (std::fabs(X[0]) < dx && std::fabs(X[1]) < dx) centre.push_back(i);
      if (std::fabs(X[0]) > 0.5 * L - 2.0 * dx && std::fabs(X[1]) > 0.5 * L - 2.0 * dx)
        corners.push_back(i);
      if (std::fabs(X[0]) > 0.5 * L - dx) grips.push_back(i);
    }
    auto meanZ = [&](const std::vector<std::size_t>& set) {
      double z = 0.0;
      for (std::size_t i : set) z += cloth->x[3 * i + 2];
      return z / set.size();
    };
    auto drape = [&]() {
      Drape d;
      d.centre = meanZ(centre), d.corners = meanZ(corners);
      d.lowest = 1e300, d.highest = -1e300;
      for (std::size_t i = 0; i < n; ++i) {
        const double* x = &cloth->x[3 * i];
        d.lowest = std::min(d.lowest, x[2]), d.highest = std::max(d.highest, x[2]);
        const double r = std::sqrt(x[0] * x[0] + x[1] * x[1] + (x[2] - R) * (x[2] - R));
        d.insideSphere = std::max(d.insideSphere, R + rc - r);
        d.belowTable = std::max(d.belowTable, rc - x[2]);
      }
      return d;
    };
    // the largest stretch of each point's intact bonds (the tear criterion: critical stretch)
    auto pointStretch = [&]() {
      std::vector<double> m(n, 0.0);
      for (std::size_t i = 0; i < n; ++i)
        for (std::uint32_t b = cloth->bondStart[i]; b < cloth->bondStart[i + 1]; ++b) {
          if (cloth->bondBroken[b]) continue;
          const double* xi = &cloth->x[3 * i];
          const double* xj = &cloth->x[3 * cloth->neighbour[b]];
          const double l =
              std::sqrt((xj[0] - xi[0]) * (xj[0] - xi[0]) + (xj[1] - xi[1]) * (xj[1] - xi[1]) +
                        (xj[2] - xi[2]) * (xj[2] - xi[2]));
          m[i] = std::max(m[i], l / cloth->bondLength[b] - 1.0);
        }
      return m;
    };
    auto maxStretch = [&]() {
      const std::vector<double> m = pointStretch();
      return *std::max_element(m.begin(), m.end());
    };
    // the tear along x = 0: the broken pairs whose reference midpoint lies within 1.5 Δx of the
    // line (the cut's included) and the largest y they reach (−L/2 when none)
    auto tearLine = [&]() {
      std::array<double, 2> t{0.0, -0.5 * L};
      for (std::size_t i = 0; i < n; ++i)
        for (std::uint32_t b = cloth->bondStart[i]; b < cloth->bondStart[i + 1]; ++b) {
          const std::uint32_t j = cloth->neighbour[b];
          if (!cloth->bondBroken[b] || j < i) continue;
          const double mx = 0.5 * (cloth->X[3 * i] + cloth->X[3 * j]);
          const double my = 0.5 * (cloth->X[3 * i + 1] + cloth->X[3 * j + 1]);
          if (std::fabs(mx) > 1.5 * dx) continue;
          t[0] += 1.0, t[1] = std::max(t[1], my);
        }
      return t;
    };
    auto potential = [&]() {
      double p = 0.0;
      for (std::size_t i = 0; i < n; ++i) p += cloth->mass[i] * kG * cloth->x[3 * i + 2];
      return p;
    };

    // a point's velocity: the store's (the state the scene steps from) and the body's
    BodyStore& store = engine.bodies();
    auto setVelocity = [&](std::size_t i, const std::array<double, 3>& v) {
      for (int k = 0; k < 3; ++k)
        cloth->v[3 * i + k] = store.v[6 * system->storeIndex(i) + k] = v[k];
    };
    const double h = eo.h;
    // air drag, linear and mass-proportional (F = −c m v): v ← v exp(−c h) after each step
    const double dragFactor = std::exp(-s.drag * h);
    const long drapeSteps = std::lround(s.drape / h);
    const long pullSteps = s.pull ? std::lround(s.pullTime / h) : 0;
    const long steps = drapeSteps + pullSteps;
    const double duration = steps * h;
    std::printf(
        "ClothDrape: %zu points, %zu bonds, %zu triplets, side %g m, dx = %g m, t = %g "
        "m, E = %g Pa, rho = %g; sphere R = %g m on the table; mu = %g; h = %g s, theta = %g, "
        "%ld steps (drape %ld%s), %s\n",
        n, cloth->bondCount() / 2, material->triplets(*cloth), L, dx, s.thickness, s.young,
        s.density, R, s.mu, h, s.theta, steps, drapeSteps,
        s.pull ? (", pull " + std::to_string(pullSteps)).c_str() : "", s.stepper.c_str());

    const std::string name = "ClothDrape";
    const std::string csvPath = ex::joinPath(opt.outputDir, name + ".csv");
    auto csv = std::make_unique<ex::CsvWriter>(
        csvPath,
        std::vector<std::string>{"t", "phase", "z_centre", "z_lowest", "z_highest", "z_corners",
                                 "inside_sphere", "kinetic", "elastic", "potential", "contacts",
                                 "contact_points", "broken_bonds", "line_bonds", "tear_tip",
                                 "max_stretch", "grip_travel", "iterations"});
    ex::PeridynamicFrames frames(opt.outputDir, name, s.frames, duration);
    double gripTravel = 0.0;
    auto sample = [&](long k) {
      const Drape d = drape();
      const PeridynamicSceneSystem::Report& r = system->lastReport();
      const std::array<double, 2> tear = tearLine();
      csv->row({k * h, k > drapeSteps ? 2.0 : 1.0, d.centre, d.lowest, d.highest, d.corners,
                d.insideSphere, cloth->kineticEnergy(), cloth->elasticEnergy(), potential(),
                k > 0 ? double(engine.lastReport().contacts) : 0.0,
                k > 0 ? double(r.contactPoints) : 0.0, 0.5 * double(cloth->brokenBonds()), tear[0],
                tear[1], maxStretch(), gripTravel, k > 0 ? double(r.step.iterations) : 0.0});
    };
    sample(0);
    frames.write(0.0, h, *cloth);
    ex::Progress progress(steps, opt.quiet);
    long failed = 0, shortSteps = 0, nextSample = 1;
    double firstBreak = -1.0, worstInside = 0.0;
    Drape draped;
    std::size_t drapeContacts = 0, drapePoints = 0;
    double drapeKinetic = 0.0, drapeElastic = 0.0, drapePotential = 0.0, drapeMembrane = 0.0;
    std::size_t cut = 0, cutBonds = 0;
    for (long k = 1; k <= steps; ++k) {
      if (k == drapeSteps + 1) {
        // phase 2: the cut (bonds crossing x = 0 for y in [−L/2 − Δx, −L/2 + notch]), then
        // the outer halves of the side edges gripped and pulled apart along x
        if (s.notch > 0.0)
          cut = cloth->precrack({0.0, -0.5 * L - dx, 0.0}, {0.0, -0.5 * L + s.notch, 0.0},
                                {0.0, 0.0, 1.0}) /
                2;
        cutBonds = cloth->brokenBonds();
        for (std::size_t i : grips) {
          cloth->prescribed[i] = 1;
          setVelocity(i, {(cloth->X[3 * i] > 0.0 ? 1.0 : -1.0) * s.pullSpeed, 0.0, 0.0});
        }
      }
      const SceneEngine::StepReport& r = engine.step();
      if (r.status != NSD_OK) ++failed;
      if (s.drag > 0.0)
        for (std::size_t i = 0; i < n; ++i)
          if (!cloth->prescribed[i])
            setVelocity(i, {dragFactor * cloth->v[3 * i], dragFactor * cloth->v[3 * i + 1],
                            dragFactor * cloth->v[3 * i + 2]});
      if (system->lastReport().step.status != NSD_OK) ++shortSteps;
      if (k > drapeSteps) gripTravel += s.pullSpeed * h;
      if (firstBreak < 0.0 && k > drapeSteps && cloth->brokenBonds() > cutBonds) firstBreak = k * h;
      if (k <= drapeSteps) worstInside = std::max(worstInside, drape().insideSphere);
      if (k == drapeSteps) {
        draped = drape();
        drapeContacts = r.contacts, drapePoints = system->lastReport().contactPoints;
        drapeKinetic = cloth->kineticEnergy(), drapeElastic = cloth->elasticEnergy();
        drapeMembrane = material->membraneEnergy(*cloth, cloth->x.data());
        drapePotential = potential();
      }
      if (k * s.samples >= nextSample * steps) {
        sample(k);
        ++nextSample;
      }
      frames.write(engine.time(), h, *cloth);
      progress.update(k);
    }
    progress.finish();
    csv.reset();
    const double wall = clock.seconds();

    std::printf("ClothDrape summary\n");
    std::printf("  simulated time:          %.4g s in %ld steps of %g s\n", engine.time(), steps,
                h);
    std::printf(
        "  drape (t = %g s):        centre z = %.4g m (start %.4g, sphere top %.4g), "
        "lowest %.4g m, highest %.4g m, corners %.4g m\n",
        drapeSteps * h, draped.centre, 2.0 * R + rc + s.drop, 2.0 * R, draped.lowest,
        draped.highest, draped.corners);
    std::printf(
        "  contact:                 %zu contacts, %zu points touching; deepest inside "
        "the sphere %.3g m (worst over the drape %.3g m), below the table %.3g m\n",
        drapeContacts, drapePoints, draped.insideSphere, worstInside, draped.belowTable);
    std::printf(
        "  energy (drape):          kinetic %.4g J, elastic %.4g J (membrane %.4g, "
        "bending %.4g), gravity %.4g J (at the start %.4g J)\n",
        drapeKinetic, drapeElastic, drapeMembrane, drapeElastic - drapeMembrane, drapePotential,
        cloth->totalMass() * kG * (2.0 * R + rc + s.drop));
    if (s.pull) {
      // the broken bonds (cut excluded) by their reference midpoints: the line they lie on
      std::vector<std::array<double, 2>> mid;
      for (std::size_t i = 0; i < n; ++i)
        for (std::uint32_t b = cloth->bondStart[i]; b < cloth->bondStart[i + 1]; ++b) {
          const std::uint32_t j = cloth->neighbour[b];
          if (!cloth->bondBroken[b] || j < i) continue;
          const double* Xi = &cloth->X[3 * i];
          const double* Xj = &cloth->X[3 * j];
          mid.push_back({0.5 * (Xi[0] + Xj[0]), 0.5 * (Xi[1] + Xj[1])});
        }
      const ex::LineFit line = ex::fitLine(mid);
      const std::array<double, 2> tear = tearLine();
      std::printf(
          "  tear:                    %zu bonds broken besides the %zu cut (first at t = "
          "%.4g s, grips %.3g m apart more)\n",
          cloth->brokenBonds() / 2 - cut, cut, firstBreak,
          firstBreak > 0.0 ? 2.0 * s.pullSpeed * (firstBreak - drapeSteps * h) : 0.0);
      std::printf(
          "  tear line:               broken bonds (cut included) along (%.3f, %.3f) "
          "through (%.3g, %.3g) m, %.3g m long (rms), %.3g m across (rms)\n",
          line.direction[0], line.direction[1], line.centroid[0], line.centroid[1], line.along,
          line.across);
      std::printf(
          "  along x = 0:             %.0f of the %zu broken pairs (cut included) within 1.5 dx "
          "of the line; the tear reaches y = %.3g m (cut tip %.3g m, far edge %.3g m)\n",
          tear[0], cloth->brokenBonds() / 2, tear[1], -0.5 * L + s.notch, 0.5 * L);
    }
    std::printf(
        "  cloth stepper:           %s, %ld iterations in all (%.1f per step), %ld steps "
        "short of the tolerance; %s response in the contacts\n",
        s.stepper.c_str(), system->totalIterations(), double(system->totalIterations()) / steps,
        shortSteps, system->coupled() ? "exact" : "lumped");
    std::printf("  failed contact solves:   %ld\n", failed);
    std::printf("  wall time:               %.3f s\n", wall);
    ex::printFileLine("csv", csvPath);
    const std::string pointsPath = ex::joinPath(opt.outputDir, name + "_points.csv");
    ex::writePointsCsv(pointsPath, *cloth, "stretch", pointStretch());
    ex::printFileLine("points", pointsPath);
    if (s.frames > 0) ex::printFileLine("vtk", frames.finish());
    if (opt.plot) {
      const std::string png = ex::joinPath(opt.outputDir, name + ".png");
      const bool ok = ex::gnuplotPng(csvPath, png, "ClothDrape: heights, energies, tear",
                                     {{3, "centre z (m)", 0},
                                      {4, "lowest z (m)", 0},
                                      {6, "corners z (m)", 0},
                                      {8, "kinetic (J)", 1},
                                      {9, "elastic (J)", 1},
                                      {11, "contacts", 2},
                                      {13, "broken bonds", 2}},
                                     {"height (m)", "energy (J)", "count"});
      ex::printFileLine("plot", ok ? png : "not drawn (gnuplot missing or failed)");
      if (s.pull) {
        const std::string map = ex::joinPath(opt.outputDir, name + "_damage.png");
        const bool mapOk = ex::damageMapPng(pointsPath, map, "ClothDrape: damage (reference)", 4, 5,
                                            7, 1.0, "x (m)", "y (m)", 1.5);
        ex::printFileLine("damage map", mapOk ? map : "not drawn (gnuplot missing or failed)");
      }
    }
    if (failed > 0) {
      std::fprintf(stderr, "ClothDrape: %ld of %ld contact solves did not converge\n", failed,
                   steps);
      return 1;
    }
    return 0;
  } catch (const std::exception& err) {
    std::fprintf(stderr, "ClothDrape: %s\n", err.what());
    return 3;
  }
}
