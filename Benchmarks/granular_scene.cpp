// granular_scene: end-to-end granular simulation benchmark over the Kernel (issue
// "Performance at scale"). A scene is built from the Mechanics II generators, settled
// once (NSGS, tolerance 1e-3), and its settled state (q, v of every body) is the shared
// start of every run: for each solver x threads x tolerance, the same scene is rebuilt,
// the state restored and `--steps` steps run. One CSV row per run: time per step split
// into phases (TimeStepping's StepStatistics::phases), iterations, the Siconos
// friction-contact error (every FC3D solver's report, APGD's De Saxcé answer included),
// failed steps, max penetration, kinetic energy, peak resident memory of the process.
//
//   granular_scene --scene shallow|column|ratio|hopper --count N [--settle S] [--steps K]
//                  [--solvers apgd,nsgs,psor,admm,newton_ac] [--threads 1,2]
//                  [--tolerances 1e-4,1e-6] [--max-iterations M] [--csv FILE]
//                  [--export-state FILE] [--load-state FILE] [--newton auto|linear]
//                  [--swept] [--stabilisation BETA] [--max-recovery V] [--dump-step K DIR]
// --swept, --stabilisation, --max-recovery: ContactManagerOptions sweptDetection,
// stabilisationFactor (0: off) and maxRecoverySpeed (m/s, default 0.1), used for the
// settling and for every run; they are the last three CSV columns (swept, stabilisation,
// max_recovery) and are printed on the settling line, so a row says how it was run.
// --load-state starts from a state written by --export-state for the same --scene and
// --count (the bodies are rebuilt by the generators, their q and v read from the file,
// the angular velocity turned back into the body frame): no settling phase.
// --export-state writes the settled state for the peer engines (Benchmarks/peers): a
// header line "# scene S h 0.001 mu 0.5 e 0 gravity -9.81 box xmin ymin zmin xmax ymax
// zmax" (the container of planes: floor z = zmin and four walls; "box none" for the
// hopper), then one line per sphere: x y z qw qx qy qz vx vy vz wx wy wz radius mass
// (angular velocity in the world frame).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/Kernel.hpp"

using namespace nsdyn;

namespace {

struct Options {
  std::string scene = "shallow";
  long count = 2000;
  long settle = 300;
  long steps = 200;
  std::vector<std::string> solvers{"apgd", "nsgs"};
  std::vector<int> threads{1, 2};
  std::vector<double> tolerances{1e-4};
  int maxIterations = 10000;
  std::string csv = "granular_scene.csv";
  std::string exportState;  // settled state for the peers (Benchmarks/peers)
  std::string loadState;    // a state written by --export-state: no settling
  bool linear = false;      // --newton linear: one pass per step (exact for spheres: no gyroscopic term)
  bool swept = false;           // --swept: ContactManagerOptions::sweptDetection
  long dumpStep = 0;            // --dump-step K DIR: FCLIB file of step K of each measured run
  std::string dumpDir;
  double stabilisation = 0.0;   // --stabilisation BETA: stabilisationFactor (0: off)
  double maxRecovery = 0.1;     // --max-recovery V: maxRecoverySpeed (m/s)
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(item);
  return out;
}

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr, "granular_scene: %s\n", why);
  std::fprintf(stderr,
               "usage: granular_scene --scene shallow|column|ratio|hopper --count N [--settle S] [--steps K]\n"
               "       [--solvers a,b] [--threads 1,2] [--tolerances 1e-4,1e-6] [--max-iterations M] [--csv FILE]\n"
               "       [--export-state FILE] [--load-state FILE] [--newton auto|linear]\n"
               "       [--swept] [--stabilisation BETA in [0,1]] [--max-recovery V > 0 (m/s)]\n"
               "       [--dump-step K DIR]\n");
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--swept") {
      o.swept = true;
      continue;
    }
    if (i + 1 >= argc) usage(("missing value after " + a).c_str());
    const std::string v = argv[++i];
    if (a == "--scene") o.scene = v;
    else if (a == "--count") o.count = std::atol(v.c_str());
    else if (a == "--settle") o.settle = std::atol(v.c_str());
    else if (a == "--steps") o.steps = std::atol(v.c_str());
    else if (a == "--solvers") o.solvers = split(v);
    else if (a == "--max-iterations") o.maxIterations = std::atoi(v.c_str());
    else if (a == "--csv") o.csv = v;
    else if (a == "--dump-step") {
      o.dumpStep = std::atol(v.c_str());
      if (o.dumpStep < 1 || i + 1 >= argc) usage("--dump-step needs a step >= 1 and a directory");
      o.dumpDir = argv[++i];
    }
    else if (a == "--export-state") o.exportState = v;
    else if (a == "--load-state") o.loadState = v;
    else if (a == "--stabilisation") {
      char* end = nullptr;
      o.stabilisation = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(o.stabilisation >= 0.0 && o.stabilisation <= 1.0))
        usage(("--stabilisation must be a number in [0, 1], found " + v).c_str());
    } else if (a == "--max-recovery") {
      char* end = nullptr;
      o.maxRecovery = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(o.maxRecovery > 0.0 && std::isfinite(o.maxRecovery)))
        usage(("--max-recovery must be a speed > 0 (m/s), found " + v).c_str());
    }
    else if (a == "--newton") {
      if (v != "linear" && v != "auto") usage("--newton must be linear or auto");
      o.linear = v == "linear";
    }
    else if (a == "--threads") {
      o.threads.clear();
      for (const auto& t : split(v)) o.threads.push_back(std::atoi(t.c_str()));
    } else if (a == "--tolerances") {
      o.tolerances.clear();
      for (const auto& t : split(v)) o.tolerances.push_back(std::atof(t.c_str()));
    } else usage(("unknown option " + a).c_str());
  }
  if (o.scene != "shallow" && o.scene != "column" && o.scene != "ratio" && o.scene != "hopper")
    usage("--scene must be shallow, column, ratio or hopper");
  if (o.count < 1 || o.steps < 1 || o.settle < 0 || o.maxIterations < 1) usage("counts must be positive");
  return o;
}

/// One run of a scene: model, simulation, manager.
struct Run {
  std::shared_ptr<Model> model;
  SP::TimeStepping sim;
  SP::FrictionContact problem;
  SP::ContactManager contacts;
  std::vector<SP::NewtonEulerDS> bodies;
  std::vector<double> radii;  // of the spheres, in body order
  std::vector<double> box;    // container of planes: xmin ymin zmin xmax ymax zmax (empty: hopper)
};

void addDynamic(Run& r, const BodySpec& spec) {
  BodyShapes b = makeBody(spec);
  r.radii.push_back(b.shapes().front().shape->characteristicSize());
  b.body()->setFExt(SiconosVector{0.0, 0.0, -9.81 * b.body()->scalarMass()});
  r.bodies.push_back(b.body());
  r.contacts->addBody(*r.model->nonSmoothDynamicalSystem(), std::move(b));
}

/// The scene of @p o (spheres of radius 1 cm +- 20 %, mu = 0.5, e = 0, h = 1e-3).
Run build(const Options& o, const std::string& solver, int threads, double tolerance, double T) {
  Run r;
  r.model = std::make_shared<Model>(0.0, T);
  r.problem = std::make_shared<FrictionContact>(3, solver);
  r.problem->optionsMutable().tolerance = tolerance;
  r.problem->optionsMutable().max_iterations = o.maxIterations;
  r.problem->optionsMutable().threads = threads;
  auto osi = std::make_shared<MoreauJeanOSI>(0.5);
  r.sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3), osi, r.problem);
  if (o.linear) r.sim->setNewtonOptions(NewtonMode::Linear);
  ContactManager::Options co;
  co.detection.threads = threads;
  co.overlapWarningFraction = 0.5;  // the settled state overlaps by a few % of a radius: expected
  co.sweptDetection = o.swept;
  co.stabilisationFactor = o.stabilisation;
  co.maxRecoverySpeed = o.maxRecovery;
  r.contacts = std::make_shared<ContactManager>(co);
  r.contacts->setDefaultMaterial({0.5, 0.0});
  r.sim->insertInteractionManager(r.contacts);

  scenes::ParticleSpec grain;
  grain.radius = 0.01;
  grain.sizeSpread = 0.2;
  grain.density = 2500.0;
  const double d = 2.0 * grain.radius * 1.2;
  const double n = static_cast<double>(o.count);
  if (o.scene == "hopper") {
    scenes::HopperSpec h;
    h.outletWidth = 6.0 * d;
    h.topWidth = std::max(0.3, std::sqrt(n) * d * 0.6);
    h.outletHeight = 0.2;
    for (auto& part : scenes::hopper(h)) r.contacts->addBody(std::move(part.body));
    const double top = h.outletHeight + 0.5 * (h.topWidth - h.outletWidth) * std::tan(h.angle);
    const double half = 0.5 * h.topWidth - d;
    const double height = n * d * d * d / (2.0 * half * 2.0 * half) / 0.5 + d;
    // the grains start above the funnel's top, in its footprint (the outlet is open)
    for (const BodySpec& s : scenes::latticePacking(grain, {{-half, -half, top}, {half, half, top + height}},
                                                    static_cast<std::size_t>(o.count), 0.0005, 7))
      addDynamic(r, s);
    return r;
  }
  // shallow: ~4 layers; column: 50+ layers in a narrow box; ratio: the same as shallow,
  // the upper half 100 times denser
  const double layers = o.scene == "column" ? std::max(50.0, std::cbrt(n) * 2.0) : 4.0;
  const double width = std::sqrt(n / layers) * d;
  scenes::ContainerSpec box;
  const double boxHeight = std::max(2.0 * layers * d, 1.1 * n * (4.0 / 3.0) * M_PI * std::pow(0.5 * d, 3) / 0.15 / (width * width));
  box.inner = {{0.0, 0.0, 0.0}, {width, width, boxHeight}};
  r.box = {0.0, 0.0, 0.0, width, width, boxHeight};
  for (auto& part : scenes::container(box)) r.contacts->addBody(std::move(part.body));
  // column: a lattice at rest; shallow and ratio: a loose random packing (bounding
  // spheres at volume fraction 0.15) that falls and settles during --settle
  const double loose = n * (4.0 / 3.0) * M_PI * std::pow(0.5 * d, 3) / 0.15 / (width * width);
  std::vector<BodySpec> specs =
      o.scene == "column"
          ? scenes::latticePacking(grain, {{0.0, 0.0, 0.0}, {width, width, 2.0 * layers * d}},
                                   static_cast<std::size_t>(o.count), 0.0005, 7)
          : scenes::randomPacking(grain, {{0.0, 0.0, 0.0}, {width, width, loose}}, static_cast<std::size_t>(o.count), 7);
  if (o.scene == "ratio") {
    std::sort(specs.begin(), specs.end(), [](const BodySpec& a, const BodySpec& b) { return a.position[2] < b.position[2]; });
    for (std::size_t k = specs.size() / 2; k < specs.size(); ++k) specs[k].density = 100.0 * *specs[k].density;
  }
  for (const BodySpec& s : specs) addDynamic(r, s);
  return r;
}

/// The settled state of @p r for the peers (format in the file comment).
void exportState(const Options& o, const Run& r) {
  std::FILE* f = std::fopen(o.exportState.c_str(), "w");
  if (!f) throw Error("granular_scene", "a writable --export-state file", o.exportState);
  const auto& box = r.box;
  if (box.empty())
    std::fprintf(f, "# scene %s h 0.001 mu 0.5 e 0 gravity -9.81 box none\n", o.scene.c_str());
  else
    std::fprintf(f, "# scene %s h 0.001 mu 0.5 e 0 gravity -9.81 box %.17g %.17g %.17g %.17g %.17g %.17g\n",
                 o.scene.c_str(), box[0], box[1], box[2], box[3], box[4], box[5]);
  for (std::size_t b = 0; b < r.bodies.size(); ++b) {
    const NewtonEulerDS& ds = *r.bodies[b];
    const SiconosVector& q = ds.q();
    const SiconosVector& v = ds.velocity();
    const quaternion::Vec3 w = quaternion::rotate(quaternion::fromVector(q), {v(3), v(4), v(5)});
    std::fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", q(0),
                 q(1), q(2), q(3), q(4), q(5), q(6), v(0), v(1), v(2), w[0], w[1], w[2], r.radii[b], ds.scalarMass());
  }
  if (std::fclose(f) != 0) throw Error("granular_scene", "a writable --export-state file", o.exportState);
  std::fprintf(stderr, "granular_scene: settled state written to %s\n", o.exportState.c_str());
}

double peakRssMb() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;  // kB on Linux
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    // 1. settle once; the state of every body is the start of every run
    std::vector<SiconosVector> q, v;
    if (!o.loadState.empty()) {
      const Run s = build(o, "nsgs", 0, 1e-3, 1e-3);
      std::FILE* f = std::fopen(o.loadState.c_str(), "r");
      if (!f) usage(("cannot read " + o.loadState).c_str());
      char line[1024];
      std::size_t b = 0;
      while (std::fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        double x[15];
        if (std::sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &x[0], &x[1], &x[2], &x[3],
                        &x[4], &x[5], &x[6], &x[7], &x[8], &x[9], &x[10], &x[11], &x[12], &x[13], &x[14]) != 15 ||
            b >= s.bodies.size()) {
          std::fclose(f);
          throw Error("granular_scene --load-state " + o.loadState, "15 numbers per body, one line per body of the scene",
                      "line " + std::to_string(b + 1));
        }
        const quaternion::Quat qu{x[3], x[4], x[5], x[6]};
        const quaternion::Vec3 w = quaternion::rotateTranspose(qu, {x[10], x[11], x[12]});
        q.push_back(SiconosVector{x[0], x[1], x[2], x[3], x[4], x[5], x[6]});
        v.push_back(SiconosVector{x[7], x[8], x[9], w[0], w[1], w[2]});
        ++b;
      }
      std::fclose(f);
      if (b != s.bodies.size())
        throw Error("granular_scene --load-state " + o.loadState,
                    std::to_string(s.bodies.size()) + " bodies (same --scene and --count)", std::to_string(b));
      std::fprintf(stderr, "granular_scene %s: state of %zu bodies read from %s\n", o.scene.c_str(), b,
                   o.loadState.c_str());
    } else {
      Run s = build(o, "nsgs", 0, 1e-3, std::max<long>(o.settle, 1) * 1e-3);
      s.model->initialize(s.sim);
      const auto t0 = std::chrono::steady_clock::now();
      for (long k = 0; k < o.settle; ++k) {
        s.sim->computeOneStep();
        s.sim->nextStep();
      }
      std::fprintf(stderr,
                   "granular_scene %s: %zu bodies settled over %ld steps in %.1f s, %zu contacts (swept %d, "
                   "stabilisation %g, max-recovery %g)\n",
                   o.scene.c_str(), s.bodies.size(), o.settle,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                   s.contacts->contacts().size(), o.swept ? 1 : 0, o.stabilisation, o.maxRecovery);
      for (const auto& b : s.bodies) {
        q.push_back(b->q());
        v.push_back(b->velocity());
      }
      if (!o.exportState.empty()) exportState(o, s);
    }
    // 2. every solver x threads x tolerance from the settled state
    std::FILE* csv = std::fopen(o.csv.c_str(), "w");
    if (!csv) usage(("cannot write " + o.csv).c_str());
    std::fprintf(csv,
                 "scene,bodies,solver,threads,tolerance,steps,contacts_mean,active_mean,ms_step,ms_interactions,"
                 "ms_build,ms_solve,ms_integration,iterations_mean,siconos_error_max,failed_steps,"
                 "max_penetration,kinetic_end,peak_rss_mb,swept,stabilisation,max_recovery\n");
    for (const std::string& solver : o.solvers)
      for (int threads : o.threads)
        for (double tol : o.tolerances) {
          Run r = build(o, solver, threads, tol, o.steps * 1e-3);
          for (std::size_t b = 0; b < r.bodies.size(); ++b) {
            r.bodies[b]->qMutable() = q[b];
            r.bodies[b]->velocityMutable() = v[b];
          }
          r.model->initialize(r.sim);
          if (o.dumpStep > 0) r.problem->setProblemDump(o.dumpDir, {o.dumpStep});
          double contacts = 0, active = 0, total = 0, inter = 0, buildT = 0, solve = 0, integ = 0, its = 0, err = 0;
          double penetration = 0.0;
          long failed = 0;
          for (long k = 0; k < o.steps; ++k) {
            r.sim->computeOneStep();
            const StepStatistics& st = r.sim->lastStatistics();
            contacts += static_cast<double>(st.detectedContacts);
            active += static_cast<double>(st.activeRelations);
            total += st.phases.total;
            inter += st.phases.interactions;
            buildT += st.phases.build;
            solve += st.phases.solve;
            integ += st.phases.integration;
            its += st.iterations;
            if (st.solved) err = std::max(err, st.residual);
            if (st.solved && st.status != NSD_OK) ++failed;
            const ContactSet& cs = r.contacts->contacts();
            for (std::size_t c = 0; c < cs.size(); ++c) penetration = std::max(penetration, -cs.gap[c]);
            r.sim->nextStep();
          }
          double kinetic = 0.0;
          for (const auto& b : r.bodies) kinetic += b->kineticEnergy();
          const double ns = static_cast<double>(o.steps);
          std::fprintf(csv, "%s,%zu,%s,%d,%g,%ld,%.0f,%.0f,%.4f,%.4f,%.4f,%.4f,%.4f,%.1f,%.3e,%ld,%.3e,%.6e,%.1f,%d,%g,%g\n",
                       o.scene.c_str(), r.bodies.size(), solver.c_str(), threads, tol, o.steps, contacts / ns,
                       active / ns, 1e3 * total / ns, 1e3 * inter / ns, 1e3 * buildT / ns, 1e3 * solve / ns,
                       1e3 * integ / ns, its / ns, err, failed, penetration, kinetic, peakRssMb(), o.swept ? 1 : 0,
                       o.stabilisation, o.maxRecovery);
          std::fflush(csv);
          std::fprintf(stderr,
                       "  %-10s threads %d tol %g: %.2f ms/step (solve %.2f), %.0f contacts, %.1f iterations, %ld failed, "
                       "max penetration %.3e\n",
                       solver.c_str(), threads, tol, 1e3 * total / ns, 1e3 * solve / ns, contacts / ns, its / ns, failed,
                       penetration);
        }
    std::fclose(csv);
    std::printf("granular_scene: wrote %s\n", o.csv.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "granular_scene: %s\n", e.what());
    return 3;
  }
}
