// MixedPile: a few hundred bodies of five shapes (spheres, boxes, capsules, cylinders,
// convex hulls) dropped from a lattice into a box of planes, stepped by nsdyn::SceneEngine
// (bodies and contacts in arrays, the friction problem solved on the rigid-contact operator).
// The energy balance (ΔE = work of the contact impulses, exact for Moreau–Jean θ = ½ with
// e = 0 and no position correction), the deepest penetration and the solver effort are
// written per step; VTK frames and the HDF5 file come from the nsdyn::io scene writers.
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "example_utils.hpp"
#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/io/SceneHdf5Writer.hpp"
#include "nsdyn/io/SceneVtkWriter.hpp"
#include "nsdyn/nsd_solvers.h"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

constexpr const char* kName = "MixedPile";
constexpr int kKinds = 5;
const char* const kKindNames[kKinds] = {"sphere", "box", "capsule", "cylinder", "hull"};

/// Uniform numbers in [0, 1) from a seeded mt19937_64, as the scene generators draw them
/// (the same on every platform).
class Uniform {
 public:
  explicit Uniform(std::uint64_t seed) : engine_(seed) {}
  double next() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double in(double lo, double hi) { return lo + (hi - lo) * next(); }

 private:
  std::mt19937_64 engine_;
};

/// The nominal particles (scale 1): bounding radii between 7 and 8 cm.
scenes::ParticleSpec particle(int kind) {
  scenes::ParticleSpec p;
  switch (kind) {
    case 0:
      p.kind = scenes::ParticleKind::Sphere;
      p.radius = 0.07;
      break;
    case 1:
      p.kind = scenes::ParticleKind::Box;
      p.halfExtents = {0.06, 0.04, 0.03};
      break;
    case 2:
      p.kind = scenes::ParticleKind::Capsule;
      p.radius = 0.035;
      p.length = 0.08;
      break;
    default:
      p.kind = scenes::ParticleKind::Cylinder;
      p.radius = 0.05;
      p.length = 0.1;
      break;
  }
  return p;
}

/// A convex hull of 14 points drawn on the ellipsoid of semi-axes 7, 5.5, 4.5 cm times @p scale.
SP::Shape hullShape(Uniform& rng, double scale) {
  std::vector<Shape::Vec3> points;
  for (int k = 0; k < 14; ++k) {
    const double z = rng.in(-1.0, 1.0), phi = rng.in(0.0, 2.0 * M_PI), s = std::sqrt(1.0 - z * z);
    points.push_back(
        {0.07 * scale * s * std::cos(phi), 0.055 * scale * s * std::sin(phi), 0.045 * scale * z});
  }
  return std::make_shared<ConvexHullShape>(points);
}

struct Options {
  long count = 300;
  long steps = 2000;
  double h = 5e-4;
  int every = 20;
  int threads = 0;
  std::string solver = "nsgs";
  double tolerance = 1e-3;
  int iterations = 1000;
  std::uint64_t seed = 42;
  bool gyroscopic = true;
  double stabilisation = 0.0;
};

bool nonEmptyFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::vector<ex::ExtraOption> extras{
      {"--count", "a number of bodies in [5, 20000]",
       [&](const char* v) {
         o.count = std::atol(v);
         return o.count >= 5 && o.count <= 20000;
       }},
      {"--steps", "a number of steps in [1, 10000000]",
       [&](const char* v) {
         o.steps = std::atol(v);
         return o.steps >= 1 && o.steps <= 10000000;
       }},
      ex::stepOption(o.h, 0.01),
      {"--every", "a frame interval in steps in [1, 1000000]",
       [&](const char* v) {
         o.every = std::atoi(v);
         return o.every >= 1 && o.every <= 1000000;
       }},
      {"--threads", "a thread count in [0, 1024]",
       [&](const char* v) {
         o.threads = std::atoi(v);
         return o.threads >= 0 && o.threads <= 1024;
       }},
      {"--solver", "nsgs, apgd or an FC3D solver name (nsdyn solve --list-solvers)",
       [&](const char* v) {
         o.solver = v;
         return std::string(v) == "nsgs" || std::string(v) == "apgd" ||
                nsd_solver_find(NSD_KIND_FC3D, v) != nullptr;
       }},
      {"--tolerance", "a solver tolerance in (0, 1)",
       [&](const char* v) {
         o.tolerance = std::atof(v);
         return o.tolerance > 0.0 && o.tolerance < 1.0;
       }},
      {"--iterations", "a solver iteration cap in [1, 1000000]",
       [&](const char* v) {
         o.iterations = std::atoi(v);
         return o.iterations >= 1 && o.iterations <= 1000000;
       }},
      {"--seed", "a seed (integer >= 0)",
       [&](const char* v) {
         char* end = nullptr;
         o.seed = std::strtoull(v, &end, 10);
         return end != v && *end == '\0' && *v != '-';
       }},
      {"--stabilisation", "a position-correction factor in [0, 1]",
       [&](const char* v) {
         o.stabilisation = std::atof(v);
         return o.stabilisation >= 0.0 && o.stabilisation <= 1.0;
       }},
      {"--no-gyroscopic", "",
       [&](const char*) {
         o.gyroscopic = false;
         return true;
       }},
  };
  const std::string help =
      "  --count N          number of bodies, a fifth of each shape (default 300)\n"
      "  --steps N          number of steps (default 2000: 1 s)\n"
      "  --step H           time step in s (default 5e-4)\n"
      "  --every N          a VTK frame and an HDF5 record every N steps, and the last (default "
      "20)\n"
      "  --threads N        threads of every pass of the step (default 0: the OpenMP default)\n"
      "  --solver NAME      nsgs (Gauss-Seidel on the bodies' velocities), apgd (on the "
      "operator),\n"
      "                     or any FC3D solver on an assembled W (default nsgs)\n"
      "  --tolerance E      solver tolerance on the Siconos error (default 1e-3)\n"
      "  --iterations N     solver iteration cap (default 1000)\n"
      "  --seed S           seed of the placement, sizes, shapes and start velocities (default "
      "42)\n"
      "  --stabilisation B  position correction of overlaps, u_n >= B |gap| / h (default 0: none;\n"
      "                     the energy balance then no longer closes)\n"
      "  --no-gyroscopic    leave out the gyroscopic term (-Omega x I Omega) of the free velocity\n"
      "                     (the energy balance then closes to round-off)\n";
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, kName, "bodies of five shapes settling in a box (SceneEngine, nsdyn::io writers)",
      extras, help.c_str());
  const std::string csvPath = ex::joinPath(opt.outputDir, std::string(kName) + ".csv");
  const std::string hdf5Path = ex::joinPath(opt.outputDir, std::string(kName) + ".hdf5");
  const std::string pngPath = ex::joinPath(opt.outputDir, std::string(kName) + ".png");
  std::vector<std::string> written;  // every file the run wrote, in order, for the summary
  try {
    SceneEngine::Options eo;
    eo.h = o.h;
    eo.theta = 0.5;
    eo.gravity = {0.0, 0.0, -9.81};
    eo.contacts.detection.threads = o.threads;
    eo.contacts.stabilisationFactor = o.stabilisation;  // 0: no position correction
    eo.contacts.overlapWarningFraction = 0.5;
    eo.solver = o.solver;
    nsd_solver_options_default(&eo.solverOptions);
    eo.solverOptions.tolerance = o.tolerance;
    eo.solverOptions.max_iterations = o.iterations;
    eo.gyroscopic = o.gyroscopic;
    SceneEngine engine(eo);
    engine.setDefaultMaterial({0.5, 0.0});  // mu = 0.5, e = 0

    // the box: a square floor of side L, walls of planes
    const double L = 1.5;
    scenes::ContainerSpec box;
    box.inner = {{-0.5 * L, -0.5 * L, 0.0}, {0.5 * L, 0.5 * L, 2.0}};
    for (const scenes::StaticPart& part : scenes::container(box)) engine.addBody(part.body);

    // sites: a lattice of spheres of the largest bounding radius (8 cm, spread 10 %) with
    // random rotations; each site gets one of the five shapes, at the site's scale
    const double spread = 0.1, R = 0.08, density = 1500.0;
    scenes::ParticleSpec site;
    site.radius = R;
    site.sizeSpread = spread;
    site.randomOrientation = true;
    const std::vector<BodySpec> sites =
        scenes::latticePacking(site, {{-0.5 * L, -0.5 * L, 0.0}, {0.5 * L, 0.5 * L, 100.0}},
                               static_cast<std::size_t>(o.count), 0.01, o.seed);
    Uniform rng(o.seed + 1);
    std::vector<int> kinds(sites.size());
    for (std::size_t k = 0; k < kinds.size(); ++k) kinds[k] = static_cast<int>(k % kKinds);
    for (std::size_t k = kinds.size(); k > 1; --k)  // Fisher-Yates with our numbers
      std::swap(
          kinds[k - 1],
          kinds[std::min(k - 1, static_cast<std::size_t>(rng.next() * static_cast<double>(k)))]);
    long perKind[kKinds] = {0, 0, 0, 0, 0};
    for (std::size_t k = 0; k < sites.size(); ++k) {
      const double scale = sites[k].shapes.front().shape->characteristicSize() / R;
      const int kind = kinds[k];
      BodySpec b;
      b.name = std::string(kKindNames[kind]) + std::to_string(perKind[kind]++);
      ShapeInstance s;
      s.shape =
          kind == 4 ? hullShape(rng, scale) : scenes::makeParticleShape(particle(kind), scale);
      b.shapes.push_back(s);
      b.density = density;
      b.position = sites[k].position;
      b.orientation = sites[k].orientation;
      // a small random start velocity (horizontal 0.2 m/s at most) and spin (2 rad/s at most)
      b.velocity = {rng.in(-0.2, 0.2), rng.in(-0.2, 0.2), 0.0,
                    rng.in(-2.0, 2.0), rng.in(-2.0, 2.0), rng.in(-2.0, 2.0)};
      engine.addBody(b);
    }
    engine.initialize();
    const BodyStore& bodies = engine.bodies();
    const double smallest = bodies.smallestShapeSize();
    double top = 0.0;
    for (std::size_t b = 0; b < bodies.size(); ++b)
      if (!bodies.isStatic[b]) top = std::max(top, bodies.q[7 * b + 2]);
    std::printf(
        "%s: %zu bodies (%ld spheres, %ld boxes, %ld capsules, %ld cylinders, %ld hulls) in a %.2g "
        "m x %.2g m "
        "box of planes, centres up to %.3g m; smallest size %.4g m\n",
        kName, bodies.dynamicCount(), perKind[0], perKind[1], perKind[2], perKind[3], perKind[4], L,
        L, top, smallest);
    std::fflush(stdout);

    ex::CsvWriter csv(csvPath, {"t", "contacts", "active", "iterations", "residual", "kinetic",
                                "potential", "energy", "contact_work", "balance_error",
                                "max_penetration", "max_penetration_rel"});
    io::SceneVtkWriter vtk(opt.outputDir, kName);
    io::SceneHdf5Writer hdf5(hdf5Path, o.h);
    const double K0 = engine.kineticEnergy(), P0 = engine.potentialEnergy(), E0 = K0 + P0;
    double work = 0.0;
    auto frame = [&](double t, int iterations, double residual, double K, double P) {
      vtk.writeFrame(t, o.h, engine.bodies(), engine.contacts());
      hdf5.writeStep(t, engine.bodies(), engine.contacts());
      hdf5.writeSolver(t, iterations, residual);
      hdf5.writeEnergy(t, K, P, work, K + P);
    };
    csv.row({engine.time(), 0.0, 0.0, 0.0, 0.0, K0, P0, E0, 0.0, 0.0, 0.0, 0.0});
    frame(engine.time(), 0, 0.0, K0, P0);

    long failed = 0, firstFailed = 0, coldRestarts = 0, iterationsTotal = 0;
    std::string firstMessage;
    std::size_t maxContacts = 0, maxActive = 0;
    double maxResidual = 0.0, maxPenetration = 0.0, maxBalance = 0.0;
    double detect = 0.0, contacts = 0.0, freeV = 0.0, solve = 0.0, update = 0.0;
    // deepest penetration of a contact that involves each shape (0..4) or the container (5)
    std::vector<int> kindOf(bodies.size(), kKinds);
    for (std::size_t b = 0; b < bodies.size(); ++b)
      if (!bodies.isStatic[b])
        kindOf[b] =
            std::min(static_cast<int>(bodies.shapes[bodies.shapeStart[b]].shape->kind()), kKinds);
    std::array<double, kKinds + 1> deepestBy{};
    const bool terminal = isatty(fileno(stderr)) != 0;
    ex::WallClock clock;
    double lastReport = -1.0;
    for (long k = 0; k < o.steps; ++k) {
      const SceneEngine::StepReport& r = engine.step();
      work += r.contactWork;
      const double E = r.kineticEnergy + r.potentialEnergy;
      const double balance = E - E0 - work;
      csv.row({r.time, static_cast<double>(r.contacts), static_cast<double>(r.active),
               static_cast<double>(r.solver.iterations), r.solver.residual, r.kineticEnergy,
               r.potentialEnergy, E, work, balance, r.maxPenetration, r.maxPenetration / smallest});
      if ((k + 1) % o.every == 0 || k + 1 == o.steps)
        frame(r.time, r.solver.iterations, r.solver.residual, r.kineticEnergy, r.potentialEnergy);
      if (r.status != NSD_OK) {
        if (failed == 0) {
          firstFailed = r.step;
          firstMessage = r.solver.message;
        }
        ++failed;
      }
      coldRestarts += r.coldRestart ? 1 : 0;
      iterationsTotal += r.solver.iterations;
      maxContacts = std::max(maxContacts, r.contacts);
      maxActive = std::max(maxActive, r.active);
      maxResidual = std::max(maxResidual, r.solver.residual);
      maxPenetration = std::max(maxPenetration, r.maxPenetration);
      const SceneContacts& cs = engine.contacts();
      for (std::size_t c = 0; c < cs.size(); ++c)
        for (std::int32_t b : {cs.bodyA[c], cs.bodyB[c]}) {
          double& d = deepestBy[static_cast<std::size_t>(kindOf[static_cast<std::size_t>(b)])];
          d = std::max(d, -cs.gap[c]);
        }
      maxBalance = std::max(maxBalance, std::fabs(balance));
      detect += r.detectSeconds;
      contacts += r.contactSeconds;
      freeV += r.freeSeconds;
      solve += r.solveSeconds;
      update += r.updateSeconds;
      const double now = clock.seconds();
      if (!opt.quiet && (now - lastReport >= 1.0 || k + 1 == o.steps)) {
        lastReport = now;
        std::fprintf(
            stderr,
            "%s%s: step %ld/%ld  t = %.3f  %.0f steps/s  contacts %zu (active %zu)  iterations %d  "
            "residual %.2g%s",
            terminal ? "\r" : "", kName, k + 1, o.steps, r.time, (k + 1) / std::max(now, 1e-9),
            r.contacts, r.active, r.solver.iterations, r.solver.residual, terminal ? "   " : "\n");
      }
    }
    if (!opt.quiet && terminal) std::fprintf(stderr, "\n");
    const double wall = clock.seconds();
    const std::vector<std::string> pvd = vtk.finish();
    hdf5.close();
    const std::size_t rowsWritten = csv.rows();
    written.push_back(csvPath);
    written.push_back(hdf5Path);
    written.insert(written.end(), pvd.begin(), pvd.end());

    const SceneEngine::StepReport& last = engine.lastReport();
    const double Eend = last.kineticEnergy + last.potentialEnergy;
    std::printf(
        "  steps:                   %ld of h = %g (t = %g s), solver %s (tolerance %g, at most %d "
        "iterations), "
        "threads %d%s%s\n",
        o.steps, o.h, engine.time(), o.solver.c_str(), o.tolerance, o.iterations, o.threads,
        o.gyroscopic ? "" : ", no gyroscopic term",
        o.stabilisation > 0.0 ? (", stabilisation " + std::to_string(o.stabilisation)).c_str()
                              : "");
    std::printf("  contacts:                at most %zu (%zu active), last step %zu (%zu active)\n",
                maxContacts, maxActive, last.contacts, last.active);
    std::printf(
        "  solver:                  %ld iterations in all (%.1f per step), max residual %.3g, %ld "
        "failed steps%s\n",
        iterationsTotal, static_cast<double>(iterationsTotal) / static_cast<double>(o.steps),
        maxResidual, failed,
        coldRestarts > 0 ? (", " + std::to_string(coldRestarts) + " APGD cold restarts").c_str()
                         : "");
    std::printf(
        "  energy:                  E0 = %.6g J, E = %.6g J (kinetic %.4g J), contact work %.6g "
        "J\n",
        E0, Eend, last.kineticEnergy, work);
    std::printf(
        "  energy balance:          E - E0 - W = %.3g J at the end, max |E - E0 - W| = %.3g J = "
        "%.3g of |W|\n",
        Eend - E0 - work, maxBalance, work != 0.0 ? maxBalance / std::fabs(work) : 0.0);
    std::printf("  penetration:             deepest %.4g m = %.3g %% of the smallest size %.4g m\n",
                maxPenetration, 100.0 * maxPenetration / smallest, smallest);
    std::printf("  deepest by shape (mm):   ");
    for (int k = 0; k <= kKinds; ++k)
      std::printf("%s %.3g%s", k < kKinds ? kKindNames[k] : "container",
                  1e3 * deepestBy[static_cast<std::size_t>(k)], k < kKinds ? ", " : "\n");
    const double perStep = 1e3 * wall / static_cast<double>(o.steps);
    std::printf(
        "  time:                    %.3f s (%.3g ms/step: detection %.0f%%, contacts %.0f%%, free "
        "%.0f%%, "
        "solve %.0f%%, update %.0f%%; frames and files the rest)\n",
        wall, perStep, 100.0 * detect / wall, 100.0 * contacts / wall, 100.0 * freeV / wall,
        100.0 * solve / wall, 100.0 * update / wall);
    std::printf("  frames:                  %zu VTK frames, %zu CSV rows\n", vtk.frameCount(),
                rowsWritten);
    if (opt.plot) {
      std::fflush(stdout);
      const bool drawn =
          ex::gnuplotPng(csvPath, pngPath, "MixedPile: energy, contacts, solver, penetration",
                         {{6, "kinetic (J)", 0},
                          {9, "contact work (J)", 0},
                          {2, "contacts", 1},
                          {3, "active", 1},
                          {4, "iterations", 2},
                          {12, "deepest penetration / smallest size", 3}},
                         {"energy (J)", "contacts", "solver iterations", "penetration (rel.)"});
      if (drawn && nonEmptyFile(pngPath))
        written.push_back(pngPath);
      else
        std::printf("  plot:                    not drawn (gnuplot missing or failed)\n");
    }
    for (const std::string& f : written) std::printf("  file:                    %s\n", f.c_str());
    if (failed > 0) {
      std::fprintf(stderr,
                   "%s: %ld of %ld friction solves did not converge, the first at step %ld: %s\n",
                   kName, failed, o.steps, firstFailed, firstMessage.c_str());
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", kName, e.what());
    return 3;
  }
}
