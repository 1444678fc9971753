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
//                  [--engine kernel|store|kernel,store]
// --engine: kernel (the default: TimeStepping + ContactManager + FrictionContact(3) over
// NewtonEulerDS objects) or store (nsdyn::SceneEngine: bodies and contacts in arrays, the
// solver on the operator: nsgs in body-velocity form, apgd on J M^-1 J^T, any other FC3D
// solver on an assembled W), or both (one row per engine x solver x threads x tolerance).
// Both engines build the scene from the same generators with the same options (h 1e-3,
// theta 0.5, gravity -9.81, mu 0.5, e 0, the ContactManagerOptions below) and start from the
// same state; without --load-state the scene is settled by the first engine listed. The
// CSV columns after max_recovery: engine, ms_detect, ms_free, ms_contacts, ms_update,
// ms_outside_solver (ms_step - ms_solve), rss_start_mb (resident memory before the run's
// scene was built), rss_end_mb (resident after the last step, the run's engine alive, freed
// heap returned to the system first); ms_free is empty for the kernel (part of its build and
// integration phases), ms_detect / ms_contacts are ContactManager's detection and assembly times.
// For the store rows ms_interactions = ms_detect + ms_contacts, ms_build = ms_free, ms_solve the
// solve phase (picking the active contacts in place included), ms_integration = ms_update.
// --swept, --stabilisation, --max-recovery: ContactManagerOptions sweptDetection,
// stabilisationFactor (0: off) and maxRecoverySpeed (m/s, default 0.1), used for the
// settling and for every run; they are CSV columns (swept, stabilisation, max_recovery,
// after peak_rss_mb) and are printed on the settling line, so a row says how it was run.
// --load-state starts from a state written by --export-state for the same --scene and
// --count (the bodies are rebuilt by the generators, their q and v read from the file,
// the angular velocity turned back into the body frame): no settling phase.
// --export-state writes the settled state for the peer engines (Benchmarks/peers): a
// header line "# scene S h 0.001 mu 0.5 e 0 gravity -9.81 box xmin ymin zmin xmax ymax
// zmax" (the container of planes: floor z = zmin and four walls; "box none" for the
// hopper), then one line per sphere: x y z qw qx qy qz vx vy vz wx wy wz radius mass
// (angular velocity in the world frame).
#include <sys/resource.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/Kernel.hpp"
#include "nsdyn/SceneEngine.hpp"

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
  std::vector<std::string> engines{"kernel"};
  int maxIterations = 10000;
  std::string csv = "granular_scene.csv";
  std::string exportState;  // settled state for the peers (Benchmarks/peers)
  std::string loadState;    // a state written by --export-state: no settling
  bool linear =
      false;           // --newton linear: one pass per step (exact for spheres: no gyroscopic term)
  bool swept = false;  // --swept: ContactManagerOptions::sweptDetection
  long dumpStep = 0;   // --dump-step K DIR: FCLIB file of step K of each measured run (store:
                       // also its global form, problem_NNNNNN_global.hdf5)
  std::string dumpDir;
  double stabilisation = 0.0;  // --stabilisation BETA: stabilisationFactor (0: off)
  double maxRecovery = 0.1;    // --max-recovery V: maxRecoverySpeed (m/s)
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
               "usage: granular_scene --scene shallow|column|ratio|hopper --count N [--settle S] "
               "[--steps K]\n"
               "       [--solvers a,b] [--threads 1,2] [--tolerances 1e-4,1e-6] [--max-iterations "
               "M] [--csv FILE]\n"
               "       [--export-state FILE] [--load-state FILE] [--newton auto|linear]\n"
               "       [--swept] [--stabilisation BETA in [0,1]] [--max-recovery V > 0 (m/s)]\n"
               "       [--dump-step K DIR] [--engine kernel|store|kernel,store]\n");
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
    if (a == "--scene")
      o.scene = v;
    else if (a == "--count")
      o.count = std::atol(v.c_str());
    else if (a == "--settle")
      o.settle = std::atol(v.c_str());
    else if (a == "--steps")
      o.steps = std::atol(v.c_str());
    else if (a == "--solvers")
      o.solvers = split(v);
    else if (a == "--max-iterations")
      o.maxIterations = std::atoi(v.c_str());
    else if (a == "--csv")
      o.csv = v;
    else if (a == "--engine") {
      o.engines = split(v);
      if (o.engines.empty()) usage("--engine needs kernel, store or a list of them");
      for (const auto& e : o.engines)
        if (e != "kernel" && e != "store")
          usage(("--engine must be kernel or store, found " + e).c_str());
    } else if (a == "--dump-step") {
      o.dumpStep = std::atol(v.c_str());
      if (o.dumpStep < 1 || i + 1 >= argc) usage("--dump-step needs a step >= 1 and a directory");
      o.dumpDir = argv[++i];
    } else if (a == "--export-state")
      o.exportState = v;
    else if (a == "--load-state")
      o.loadState = v;
    else if (a == "--stabilisation") {
      char* end = nullptr;
      o.stabilisation = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(o.stabilisation >= 0.0 && o.stabilisation <= 1.0))
        usage(("--stabilisation must be a number in [0, 1], found " + v).c_str());
    } else if (a == "--max-recovery") {
      char* end = nullptr;
      o.maxRecovery = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' ||
          !(o.maxRecovery > 0.0 && std::isfinite(o.maxRecovery)))
        usage(("--max-recovery must be a speed > 0 (m/s), found " + v).c_str());
    } else if (a == "--newton") {
      if (v != "linear" && v != "auto") usage("--newton must be linear or auto");
      o.linear = v == "linear";
    } else if (a == "--threads") {
      o.threads.clear();
      for (const auto& t : split(v)) o.threads.push_back(std::atoi(t.c_str()));
    } else if (a == "--tolerances") {
      o.tolerances.clear();
      for (const auto& t : split(v)) o.tolerances.push_back(std::atof(t.c_str()));
    } else
      usage(("unknown option " + a).c_str());
  }
  if (o.scene != "shallow" && o.scene != "column" && o.scene != "ratio" && o.scene != "hopper")
    usage("--scene must be shallow, column, ratio or hopper");
  if (o.count < 1 || o.steps < 1 || o.settle < 0 || o.maxIterations < 1)
    usage("counts must be positive");
  return o;
}

/// The scene of @p o from the generators (spheres of radius 1 cm +- 20 %, density 2500):
/// the static parts first, then the grains, in the order both engines add them.
struct SceneParts {
  std::vector<scenes::StaticPart> statics;
  std::vector<BodySpec> grains;
  std::vector<double> box;  // container of planes: xmin ymin zmin xmax ymax zmax (empty: hopper)
};

SceneParts sceneParts(const Options& o) {
  SceneParts p;
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
    p.statics = scenes::hopper(h);
    const double top = h.outletHeight + 0.5 * (h.topWidth - h.outletWidth) * std::tan(h.angle);
    const double half = 0.5 * h.topWidth - d;
    const double height = n * d * d * d / (2.0 * half * 2.0 * half) / 0.5 + d;
    // the grains start above the funnel's top, in its footprint (the outlet is open)
    p.grains = scenes::latticePacking(grain, {{-half, -half, top}, {half, half, top + height}},
                                      static_cast<std::size_t>(o.count), 0.0005, 7);
    return p;
  }
  // shallow: ~4 layers; column: 50+ layers in a narrow box; ratio: the same as shallow,
  // the upper half 100 times denser
  const double layers = o.scene == "column" ? std::max(50.0, std::cbrt(n) * 2.0) : 4.0;
  const double width = std::sqrt(n / layers) * d;
  scenes::ContainerSpec box;
  const double boxHeight =
      std::max(2.0 * layers * d,
               1.1 * n * (4.0 / 3.0) * M_PI * std::pow(0.5 * d, 3) / 0.15 / (width * width));
  box.inner = {{0.0, 0.0, 0.0}, {width, width, boxHeight}};
  p.box = {0.0, 0.0, 0.0, width, width, boxHeight};
  p.statics = scenes::container(box);
  // column: a lattice at rest; shallow and ratio: a loose random packing (bounding
  // spheres at volume fraction 0.15) that falls and settles during --settle
  const double loose = n * (4.0 / 3.0) * M_PI * std::pow(0.5 * d, 3) / 0.15 / (width * width);
  p.grains =
      o.scene == "column"
          ? scenes::latticePacking(grain, {{0.0, 0.0, 0.0}, {width, width, 2.0 * layers * d}},
                                   static_cast<std::size_t>(o.count), 0.0005, 7)
          : scenes::randomPacking(grain, {{0.0, 0.0, 0.0}, {width, width, loose}},
                                  static_cast<std::size_t>(o.count), 7);
  if (o.scene == "ratio") {
    std::sort(p.grains.begin(), p.grains.end(),
              [](const BodySpec& a, const BodySpec& b) { return a.position[2] < b.position[2]; });
    for (std::size_t k = p.grains.size() / 2; k < p.grains.size(); ++k)
      p.grains[k].density = 100.0 * *p.grains[k].density;
  }
  return p;
}

/// The contact options of every run (settling included), both engines.
ContactManagerOptions contactOptions(const Options& o, int threads) {
  ContactManagerOptions co;
  co.detection.threads = threads;
  co.overlapWarningFraction = 0.5;  // the settled state overlaps by a few % of a radius: expected
  co.sweptDetection = o.swept;
  co.stabilisationFactor = o.stabilisation;
  co.maxRecoverySpeed = o.maxRecovery;
  return co;
}

/// State of the grains (the static parts have none): q (7 per body) and v (6 per body, the
/// angular velocity in the body frame, as NewtonEulerDS and BodyStore hold it).
struct State {
  std::vector<double> q, v;
  std::size_t size() const { return q.size() / 7; }
};

/// One run of a scene over the Kernel: model, simulation, manager.
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

/// The scene of @p o over the Kernel (mu = 0.5, e = 0, h = 1e-3).
Run build(const Options& o, const std::string& solver, int threads, double tolerance, double T) {
  Run r;
  r.model = std::make_shared<Model>(0.0, T);
  r.problem = std::make_shared<FrictionContact>(3, solver);
  r.problem->optionsMutable().tolerance = tolerance;
  r.problem->optionsMutable().max_iterations = o.maxIterations;
  r.problem->optionsMutable().threads = threads;
  auto osi = std::make_shared<MoreauJeanOSI>(0.5);
  r.sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3), osi,
                                         r.problem);
  if (o.linear) r.sim->setNewtonOptions(NewtonMode::Linear);
  r.contacts = std::make_shared<ContactManager>(contactOptions(o, threads));
  r.contacts->setDefaultMaterial({0.5, 0.0});
  r.sim->insertInteractionManager(r.contacts);
  SceneParts parts = sceneParts(o);
  r.box = parts.box;
  for (auto& part : parts.statics) r.contacts->addBody(std::move(part.body));
  for (const BodySpec& s : parts.grains) addDynamic(r, s);
  return r;
}

/// The same scene as a SceneEngine (bodies and contacts in arrays).
struct StoreRun {
  std::unique_ptr<SceneEngine> engine;
  std::vector<std::size_t> grains;  // store index of each grain, in generator order
  std::vector<double> radii;
  std::vector<double> box;
};

StoreRun buildStore(const Options& o, const std::string& solver, int threads, double tolerance) {
  SceneEngine::Options eo;
  eo.h = 1e-3;
  eo.theta = 0.5;
  eo.gravity = {0.0, 0.0, -9.81};
  eo.contacts = contactOptions(o, threads);
  eo.solver = solver;
  nsd_solver_options_default(&eo.solverOptions);
  eo.solverOptions.tolerance = tolerance;
  eo.solverOptions.max_iterations = o.maxIterations;
  eo.solverOptions.threads = threads;
  StoreRun r;
  r.engine = std::make_unique<SceneEngine>(eo);
  r.engine->setDefaultMaterial({0.5, 0.0});
  SceneParts parts = sceneParts(o);
  r.box = parts.box;
  for (const auto& part : parts.statics) r.engine->addBody(part.body);
  const BodyStore& store = r.engine->bodies();
  for (const BodySpec& s : parts.grains) {
    const std::size_t b = r.engine->addBody(s);
    r.grains.push_back(b);
    r.radii.push_back(store.shapes[store.shapeStart[b]].shape->characteristicSize());
  }
  return r;
}

State stateOf(const Run& r) {
  State s;
  for (const auto& b : r.bodies) {
    for (std::size_t i = 0; i < 7; ++i) s.q.push_back(b->q()(i));
    for (std::size_t i = 0; i < 6; ++i) s.v.push_back(b->velocity()(i));
  }
  return s;
}

State stateOf(const StoreRun& r) {
  State s;
  const BodyStore& store = r.engine->bodies();
  for (std::size_t b : r.grains) {
    s.q.insert(s.q.end(), store.q.begin() + static_cast<std::ptrdiff_t>(7 * b),
               store.q.begin() + static_cast<std::ptrdiff_t>(7 * b + 7));
    s.v.insert(s.v.end(), store.v.begin() + static_cast<std::ptrdiff_t>(6 * b),
               store.v.begin() + static_cast<std::ptrdiff_t>(6 * b + 6));
  }
  return s;
}

void restore(Run& r, const State& s) {
  if (s.size() != r.bodies.size())
    throw Error("the start state (--load-state)",
                std::to_string(r.bodies.size()) + " bodies (same --scene and --count)",
                std::to_string(s.size()));
  for (std::size_t b = 0; b < r.bodies.size(); ++b) {
    SiconosVector q(7), v(6);
    for (std::size_t i = 0; i < 7; ++i) q(i) = s.q[7 * b + i];
    for (std::size_t i = 0; i < 6; ++i) v(i) = s.v[6 * b + i];
    r.bodies[b]->qMutable() = q;
    r.bodies[b]->velocityMutable() = v;
  }
}

void restore(StoreRun& r, const State& s) {
  if (s.size() != r.grains.size())
    throw Error("the start state (--load-state)",
                std::to_string(r.grains.size()) + " bodies (same --scene and --count)",
                std::to_string(s.size()));
  BodyStore& store = r.engine->bodies();
  for (std::size_t k = 0; k < r.grains.size(); ++k) {
    const std::size_t b = r.grains[k];
    for (std::size_t i = 0; i < 7; ++i) store.q[7 * b + i] = s.q[7 * k + i];
    for (std::size_t i = 0; i < 6; ++i) store.v[6 * b + i] = s.v[6 * k + i];
  }
}

/// The settled state for the peers (format in the file comment); @p mass of each grain.
void exportState(const Options& o, const State& s, const std::vector<double>& radii,
                 const std::vector<double>& mass, const std::vector<double>& box) {
  std::FILE* f = std::fopen(o.exportState.c_str(), "w");
  if (!f) throw Error("granular_scene", "a writable --export-state file", o.exportState);
  if (box.empty())
    std::fprintf(f, "# scene %s h 0.001 mu 0.5 e 0 gravity -9.81 box none\n", o.scene.c_str());
  else
    std::fprintf(
        f, "# scene %s h 0.001 mu 0.5 e 0 gravity -9.81 box %.17g %.17g %.17g %.17g %.17g %.17g\n",
        o.scene.c_str(), box[0], box[1], box[2], box[3], box[4], box[5]);
  for (std::size_t b = 0; b < s.size(); ++b) {
    const double* q = &s.q[7 * b];
    const double* v = &s.v[6 * b];
    const quaternion::Vec3 w = quaternion::rotate({q[3], q[4], q[5], q[6]}, {v[3], v[4], v[5]});
    std::fprintf(f,
                 "%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
                 "%.17g %.17g\n",
                 q[0], q[1], q[2], q[3], q[4], q[5], q[6], v[0], v[1], v[2], w[0], w[1], w[2],
                 radii[b], mass[b]);
  }
  if (std::fclose(f) != 0)
    throw Error("granular_scene", "a writable --export-state file", o.exportState);
  std::fprintf(stderr, "granular_scene: settled state written to %s\n", o.exportState.c_str());
}

/// A state written by --export-state (any number of bodies: checked against the scene later).
State loadState(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "r");
  if (!f) usage(("cannot read " + path).c_str());
  State s;
  char line[1024];
  std::size_t b = 0;
  while (std::fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    double x[15];
    if (std::sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &x[0],
                    &x[1], &x[2], &x[3], &x[4], &x[5], &x[6], &x[7], &x[8], &x[9], &x[10], &x[11],
                    &x[12], &x[13], &x[14]) != 15) {
      std::fclose(f);
      throw Error("granular_scene --load-state " + path,
                  "15 numbers per body, one line per body of the scene",
                  "line " + std::to_string(b + 1));
    }
    const quaternion::Quat qu{x[3], x[4], x[5], x[6]};
    const quaternion::Vec3 w = quaternion::rotateTranspose(qu, {x[10], x[11], x[12]});
    s.q.insert(s.q.end(), x, x + 7);
    s.v.insert(s.v.end(), {x[7], x[8], x[9], w[0], w[1], w[2]});
    ++b;
  }
  std::fclose(f);
  return s;
}

double peakRssMb() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;  // kB on Linux
}

/// Resident memory now (MB), from /proc/self/statm (0 where it cannot be read).
double currentRssMb() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0.0;
  long pages = 0, resident = 0;
  const int read = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  if (read != 2) return 0.0;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

/// Resident memory after the run, the engine still alive (freed heap returned first).
double residentNowMb() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
  return currentRssMb();
}

/// What one measured run adds up over its steps (seconds summed, figures max'ed).
struct Totals {
  double contacts = 0, active = 0, total = 0, inter = 0, buildT = 0, solve = 0, integ = 0, its = 0,
         err = 0;
  double detect = 0, free = 0, contactsT = 0, update = 0;
  double penetration = 0.0, kinetic = 0.0;
  double rssEnd = 0.0;  // MB resident after the last step, the run's objects alive
  long failed = 0;
  std::size_t bodies = 0;
};

Totals runKernel(const Options& o, const State& start, const std::string& solver, int threads,
                 double tol) {
  Run r = build(o, solver, threads, tol, o.steps * 1e-3);
  restore(r, start);
  r.model->initialize(r.sim);
  if (o.dumpStep > 0) r.problem->setProblemDump(o.dumpDir, {o.dumpStep});
  Totals t;
  t.bodies = r.bodies.size();
  for (long k = 0; k < o.steps; ++k) {
    r.sim->computeOneStep();
    const StepStatistics& st = r.sim->lastStatistics();
    t.contacts += static_cast<double>(st.detectedContacts);
    t.active += static_cast<double>(st.activeRelations);
    t.total += st.phases.total;
    t.inter += st.phases.interactions;
    t.buildT += st.phases.build;
    t.solve += st.phases.solve;
    t.integ += st.phases.integration;
    t.detect += r.contacts->statistics().detectionSeconds;
    t.contactsT += r.contacts->statistics().assemblySeconds;
    t.its += st.iterations;
    if (st.solved) t.err = std::max(t.err, st.residual);
    if (st.solved && st.status != NSD_OK) ++t.failed;
    const ContactSet& cs = r.contacts->contacts();
    for (std::size_t c = 0; c < cs.size(); ++c) t.penetration = std::max(t.penetration, -cs.gap[c]);
    r.sim->nextStep();
  }
  for (const auto& b : r.bodies) t.kinetic += b->kineticEnergy();
  t.rssEnd = residentNowMb();
  t.update = t.integ;
  t.free = std::nan("");
  return t;
}

Totals runStore(const Options& o, const State& start, const std::string& solver, int threads,
                double tol) {
  StoreRun r = buildStore(o, solver, threads, tol);
  restore(r, start);
  SceneEngine& e = *r.engine;
  e.initialize();
  if (o.dumpStep > 0) e.setProblemDump(o.dumpDir, {o.dumpStep});
  Totals t;
  t.bodies = r.grains.size();
  for (long k = 0; k < o.steps; ++k) {
    const SceneEngine::StepReport& st = e.step();
    t.contacts += static_cast<double>(st.contacts);
    t.active += static_cast<double>(st.active);
    t.total += st.totalSeconds;
    t.detect += st.detectSeconds;
    t.free += st.freeSeconds;
    t.contactsT += st.contactSeconds;
    t.solve += st.solveSeconds;
    t.update += st.updateSeconds;
    t.its += st.solver.iterations;
    if (st.active > 0) {
      t.err = std::max(t.err, st.solver.residual);
      if (st.status != NSD_OK) ++t.failed;
    }
    t.penetration = std::max(t.penetration, st.maxPenetration);
  }
  t.inter = t.detect + t.contactsT;
  t.buildT = t.free;
  t.integ = t.update;
  t.kinetic = e.kineticEnergy();
  t.rssEnd = residentNowMb();
  return t;
}

/// "%.4f" of @p seconds per step in ms, or "" when not measured (NaN).
std::string msField(double seconds, double steps) {
  if (std::isnan(seconds)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f", 1e3 * seconds / steps);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  try {
    // 1. settle once (with the first engine listed); the state of every grain is the start of every
    // run
    State start;
    if (!o.loadState.empty()) {
      start = loadState(o.loadState);
      std::fprintf(stderr, "granular_scene %s: state of %zu bodies read from %s\n", o.scene.c_str(),
                   start.size(), o.loadState.c_str());
    } else if (o.engines.front() == "kernel") {
      Run s = build(o, "nsgs", 0, 1e-3, std::max<long>(o.settle, 1) * 1e-3);
      s.model->initialize(s.sim);
      const auto t0 = std::chrono::steady_clock::now();
      for (long k = 0; k < o.settle; ++k) {
        s.sim->computeOneStep();
        s.sim->nextStep();
      }
      std::fprintf(stderr,
                   "granular_scene %s: %zu bodies settled over %ld steps in %.1f s, %zu contacts "
                   "(kernel, swept %d, "
                   "stabilisation %g, max-recovery %g)\n",
                   o.scene.c_str(), s.bodies.size(), o.settle,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                   s.contacts->contacts().size(), o.swept ? 1 : 0, o.stabilisation, o.maxRecovery);
      start = stateOf(s);
      if (!o.exportState.empty()) {
        std::vector<double> mass;
        for (const auto& b : s.bodies) mass.push_back(b->scalarMass());
        exportState(o, start, s.radii, mass, s.box);
      }
    } else {
      StoreRun s = buildStore(o, "nsgs", 0, 1e-3);
      s.engine->initialize();
      const auto t0 = std::chrono::steady_clock::now();
      for (long k = 0; k < o.settle; ++k) s.engine->step();
      std::fprintf(stderr,
                   "granular_scene %s: %zu bodies settled over %ld steps in %.1f s, %zu contacts "
                   "(store, swept %d, "
                   "stabilisation %g, max-recovery %g)\n",
                   o.scene.c_str(), s.grains.size(), o.settle,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                   s.engine->contacts().size(), o.swept ? 1 : 0, o.stabilisation, o.maxRecovery);
      start = stateOf(s);
      if (!o.exportState.empty()) {
        std::vector<double> mass;
        for (std::size_t b : s.grains) mass.push_back(s.engine->bodies().mass[b]);
        exportState(o, start, s.radii, mass, s.box);
      }
    }
    // 2. every engine x solver x threads x tolerance from the settled state
    std::FILE* csv = std::fopen(o.csv.c_str(), "w");
    if (!csv) usage(("cannot write " + o.csv).c_str());
    std::fprintf(csv,
                 "scene,bodies,solver,threads,tolerance,steps,contacts_mean,active_mean,ms_step,ms_"
                 "interactions,"
                 "ms_build,ms_solve,ms_integration,iterations_mean,siconos_error_max,failed_steps,"
                 "max_penetration,kinetic_end,peak_rss_mb,swept,stabilisation,max_recovery,"
                 "engine,ms_detect,ms_free,ms_contacts,ms_update,ms_outside_solver,rss_start_mb,"
                 "rss_end_mb\n");
    for (const std::string& engine : o.engines)
      for (const std::string& solver : o.solvers)
        for (int threads : o.threads)
          for (double tol : o.tolerances) {
            const double rssStart = currentRssMb();
            const Totals t = engine == "kernel" ? runKernel(o, start, solver, threads, tol)
                                                : runStore(o, start, solver, threads, tol);
            const double ns = static_cast<double>(o.steps);
            std::fprintf(csv,
                         "%s,%zu,%s,%d,%g,%ld,%.0f,%.0f,%.4f,%.4f,%.4f,%.4f,%.4f,%.1f,%.3e,%ld,%."
                         "3e,%.6e,%.1f,%d,%g,%g,"
                         "%s,%s,%s,%s,%s,%s,%.1f,%.1f\n",
                         o.scene.c_str(), t.bodies, solver.c_str(), threads, tol, o.steps,
                         t.contacts / ns, t.active / ns, 1e3 * t.total / ns, 1e3 * t.inter / ns,
                         1e3 * t.buildT / ns, 1e3 * t.solve / ns, 1e3 * t.integ / ns, t.its / ns,
                         t.err, t.failed, t.penetration, t.kinetic, peakRssMb(), o.swept ? 1 : 0,
                         o.stabilisation, o.maxRecovery, engine.c_str(),
                         msField(t.detect, ns).c_str(), msField(t.free, ns).c_str(),
                         msField(t.contactsT, ns).c_str(), msField(t.update, ns).c_str(),
                         msField(t.total - t.solve, ns).c_str(), rssStart, t.rssEnd);
            std::fflush(csv);
            std::fprintf(
                stderr,
                "  %-6s %-10s threads %d tol %g: %.2f ms/step (solve %.2f, outside %.2f), %.0f "
                "contacts, "
                "%.1f iterations, %ld failed, max penetration %.3e, KE %.6e, peak RSS %.1f MB\n",
                engine.c_str(), solver.c_str(), threads, tol, 1e3 * t.total / ns,
                1e3 * t.solve / ns, 1e3 * (t.total - t.solve) / ns, t.contacts / ns, t.its / ns,
                t.failed, t.penetration, t.kinetic, peakRssMb());
          }
    std::fclose(csv);
    std::printf("granular_scene: wrote %s\n", o.csv.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "granular_scene: %s\n", e.what());
    return 3;
  }
}
