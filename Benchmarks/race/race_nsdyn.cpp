// race_nsdyn: nsdyn (SceneEngine: bodies and contacts in arrays, Moreau-Jean theta 0.5) in
// the race (issue 24). Budgets: tolerances on the Siconos error of each step (1e-2 .. 1e-6),
// with --max-iterations as the cap; a step that stops at the cap is counted in failed_steps
// and the run goes on (the state is updated with the best answer, as SceneEngine does).
//
//   race_nsdyn --scene NAME [--state FILE] [--quick] [--steps K] [--budgets 1e-2,1e-4]
//              [--solver nsgs|apgd|auto|...] [--max-iterations M] [--csv FILE] [--series-dir DIR]
//
// --solver: NSGS and APGD run matrix-free on the bodies; any other FC3D solver of the table
// (auto, newton_ac, ...) on the assembled W (SceneEngineOptions::solver).
//
// --threads N: detection, contact phases and the solver on N threads (default 1; the
// trajectories are the same bits for any N).
//
// --mode budget (SolveMode::Budget, as the scene examples run): each budget is the step's
// fixed sweep count (a step stopped there is accepted, counted in failed_steps), --tolerance
// (1e-8) its early stop, tested every --check-every sweeps (pgs.check_every, default 1; the
// examples use 10, so that a step does at least 10 sweeps). --recovery on: overlap recovery
// (--relative-slop, --recovery-speed (m/s; default the library's cap of one slop per step),
// --recovery-iterations, --recovery-tolerance: the OverlapRecoveryOptions); --swept on: swept
// detection; --speculative on: speculative contacts (SceneEngineOptions::speculativeContacts);
// --keep-loaded on|off: ContactManagerOptions::keepLoadedContacts (default: the library's,
// off). --drift-jump on|off: the drift jump (solverOptions.nsgs.drift, or apgd.drift for
// APGD; default on).
// Defaults: the library's (recovery on, the others off); run.sh names every setting of each row.
//
// Settings: the scene's h, gravity, mu and e; ContactManagerOptions as granular_scene for the
// sphere piles (overlap warnings at half a radius), the defaults for the box scenes (relative
// margin 0.02, warm start on, no stabilisation); one thread unless --threads.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "nsdyn/BoxShape.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/nsd_solvers.h"
#include "race_driver.hpp"

using namespace nsdyn;

namespace {

// --recovery's default: the library's (OverlapRecoveryOptions::enabled)
const char* const kRecoveryDefault = OverlapRecoveryOptions{}.enabled ? "on" : "off";

// @p x as %g writes it (1e-2 -> "0.01")
std::string shortText(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

constexpr const char* kUsage =
    "usage: race_nsdyn --scene NAME [--state FILE] [--quick] [--steps K] [--budgets 1e-2,1e-4]\n"
    "                  [--solver nsgs|apgd|auto|...] [--max-iterations M] [--csv FILE] "
    "[--series-dir DIR]\n"
    "                  [--mode tolerance|budget] [--tolerance T] [--check-every K]\n"
    "                  [--recovery on|off] [--relative-slop S] [--recovery-speed V]\n"
    "                  [--recovery-iterations N] [--recovery-tolerance T]\n"
    "                  [--swept on|off] [--speculative on|off] [--threads N]\n"
    "                  [--keep-loaded on|off|default] [--drift-jump on|off]\n"
    "                  [--anderson M]  (NSGS: Anderson acceleration, M differences; 0 off)\n";

struct Built {
  std::unique_ptr<SceneEngine> engine;
  std::vector<std::size_t> index;  // store index of each scene body
};

Built build(const race::Scene& s, const std::string& solver, double tolerance, int maxIterations,
            const race::Args& a) {
  SceneEngine::Options eo;
  eo.recovery.enabled = a.get("recovery", kRecoveryDefault) == "on";
  eo.contacts.sweptDetection = a.get("swept", "off") == "on";
  eo.speculativeContacts = a.get("speculative", "off") == "on";
  if (a.get("keep-loaded", "default") != "default")
    eo.contacts.keepLoadedContacts = a.get("keep-loaded", "default") == "on";
  eo.recovery.relativeSlop = std::atof(a.get("relative-slop", "0.01").c_str());
  eo.recovery.maxSpeed = std::atof(a.get("recovery-speed", "0").c_str());
  // the OverlapRecoveryOptions defaults unless given
  const std::string recIt = a.get("recovery-iterations", ""),
                    recTol = a.get("recovery-tolerance", "");
  if (!recIt.empty()) eo.recovery.iterations = std::atoi(recIt.c_str());
  if (!recTol.empty()) eo.recovery.tolerance = std::atof(recTol.c_str());
  eo.h = s.h;
  eo.theta = 0.5;
  eo.gravity = {0.0, 0.0, s.gravity};
  const int threads = std::atoi(a.get("threads", "1").c_str());
  eo.contacts.detection.threads = threads;
  if (s.bodies.front().kind == race::Kind::Sphere) eo.contacts.overlapWarningFraction = 0.5;
  eo.solver = solver;
  nsd_solver_options_default(&eo.solverOptions);
  eo.solverOptions.tolerance = tolerance;
  eo.solverOptions.max_iterations = maxIterations;
  eo.solverOptions.threads = threads;
  if (a.get("mode", "tolerance") == "budget") eo.solveMode = SolveMode::Budget;
  eo.solverOptions.pgs.check_every = std::atoi(a.get("check-every", "1").c_str());
  eo.solverOptions.nsgs.anderson = std::atoi(a.get("anderson", "0").c_str());
  // the drift watch of the solver's family (the other's option stays at its default)
  const int jump = a.get("drift-jump", "on") == "on" ? 1 : 0;
  if (solver.rfind("apgd", 0) == 0)
    eo.solverOptions.apgd.drift = jump;
  else
    eo.solverOptions.nsgs.drift = jump;
  Built b;
  b.engine = std::make_unique<SceneEngine>(eo);
  b.engine->setDefaultMaterial({s.mu, s.e});
  for (const race::Plane& p : s.planes) {
    ShapeInstance inst;
    // the solid is n.x <= d (HalfSpaceShape: outward normal n), the free space n.x >= d
    inst.shape = std::make_shared<HalfSpaceShape>(Shape::Vec3{p.n[0], p.n[1], p.n[2]}, p.d);
    b.engine->addStatic({inst});
  }
  for (const race::Body& f : s.fixed) {
    ShapeInstance inst;
    inst.shape = std::make_shared<BoxShape>(Shape::Vec3{f.half[0], f.half[1], f.half[2]});
    b.engine->addStatic({inst}, {f.x[0], f.x[1], f.x[2]}, {f.q[0], f.q[1], f.q[2], f.q[3]});
  }
  for (const race::Body& body : s.bodies) {
    BodySpec spec;
    ShapeInstance inst;
    if (body.kind == race::Kind::Sphere)
      inst.shape = std::make_shared<SphereShape>(body.half[0]);
    else
      inst.shape =
          std::make_shared<BoxShape>(Shape::Vec3{body.half[0], body.half[1], body.half[2]});
    spec.shapes = {inst};
    spec.mass = body.mass;
    spec.position = {body.x[0], body.x[1], body.x[2]};
    spec.orientation = {body.q[0], body.q[1], body.q[2], body.q[3]};
    const std::size_t k = b.engine->addBody(spec);
    BodyStore& st = b.engine->bodies();
    const quaternion::Vec3 wb = quaternion::rotateTranspose(
        {body.q[0], body.q[1], body.q[2], body.q[3]}, {body.w[0], body.w[1], body.w[2]});
    for (int d = 0; d < 3; ++d) {
      st.v[6 * k + d] = body.v[d];
      st.v[6 * k + 3 + d] = wb[d];
    }
    b.index.push_back(k);
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::vector<std::string> known = race::commonOptions();
    known.push_back("max-iterations");
    known.push_back("recovery");
    known.push_back("mode");
    known.push_back("check-every");
    known.push_back("tolerance");
    known.push_back("swept");
    known.push_back("speculative");
    known.push_back("relative-slop");
    known.push_back("recovery-speed");
    known.push_back("threads");
    known.push_back("recovery-iterations");
    known.push_back("recovery-tolerance");
    known.push_back("anderson");
    known.push_back("keep-loaded");
    known.push_back("drift-jump");
    const race::Args a(argc, argv, known, kUsage);
    const race::Scene s = race::makeScene(a.get("scene", ""), a.get("state", ""), a.quick,
                                          std::atol(a.get("steps", "0").c_str()));
    const std::string solver = a.get("solver", "nsgs");
    if (!nsd_solver_find(NSD_KIND_FC3D, solver.c_str())) {
      std::fprintf(stderr,
                   "race_nsdyn: --solver must be an FC3D solver (nsdyn solve --list-solvers), "
                   "found %s\n%s",
                   solver.c_str(), kUsage);
      return 2;
    }
    const bool budgetMode = a.get("mode", "tolerance") == "budget";
    if (!budgetMode && a.get("mode", "tolerance") != "tolerance") {
      std::fprintf(stderr, "race_nsdyn: --mode must be tolerance or budget, found %s\n%s",
                   a.get("mode", "").c_str(), kUsage);
      return 2;
    }
    // the new settings' values, checked (a usage error, exit status 2)
    std::string bad;
    for (const char* flag : {"recovery", "swept", "speculative"}) {
      const std::string v = a.get(flag, "off");
      if (v != "on" && v != "off")
        bad = std::string("--") + flag + " must be on or off, found " + v;
    }
    if (a.get("drift-jump", "on") != "on" && a.get("drift-jump", "on") != "off")
      bad = "--drift-jump must be on or off, found " + a.get("drift-jump", "on");
    {
      const std::string v = a.get("keep-loaded", "default");
      if (v != "on" && v != "off" && v != "default")
        bad = "--keep-loaded must be on, off or default, found " + v;
    }
    for (const char* flag : {"check-every", "tolerance", "relative-slop", "recovery-speed",
                             "threads", "recovery-iterations", "recovery-tolerance"}) {
      const std::string v = a.get(flag, "1");
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(x > 0.0) || !std::isfinite(x))
        bad = std::string("--") + flag + " must be a number > 0, found " + v;
    }
    {
      const std::string v = a.get("anderson", "0");
      char* end = nullptr;
      const long m = std::strtol(v.c_str(), &end, 10);
      if (end == v.c_str() || *end != '\0' || m < 0 || m > 64)
        bad = "--anderson must be an integer in 0..64, found " + v;
    }
    if (budgetMode)
      for (double budget : a.list("budgets", "10"))
        if (!(budget >= 1.0 && budget == std::floor(budget) && budget < 1e9))
          bad = "--budgets in budget mode are sweep counts >= 1, found " + std::to_string(budget);
    if (!bad.empty()) {
      std::fprintf(stderr, "race_nsdyn: %s\n%s", bad.c_str(), kUsage);
      return 2;
    }
    const int maxIt = std::atoi(a.get("max-iterations", "1000").c_str());
    // budget mode: each budget is the step's fixed sweep count, --tolerance its early stop
    const double budgetTol = std::atof(a.get("tolerance", "1e-8").c_str());
    for (double budget : a.list("budgets", "1e-2,1e-3,1e-4,1e-5,1e-6")) {
      const double tol = budgetMode ? budgetTol : budget;
      const int cap = budgetMode ? static_cast<int>(budget) : maxIt;
      Built b = build(s, solver, tol, cap, a);
      SceneEngine& e = *b.engine;
      e.initialize();
      long failed = 0;
      double iterations = 0;
      // the engine's own phase clocks, summed over the steps (printed after the row)
      double phase[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
      long stepsDone = 0;
      auto step = [&]() {
        const SceneEngine::StepReport& r = e.step();
        iterations += r.solver.iterations;
        const double seconds[6] = {r.detectSeconds, r.contactSeconds, r.freeSeconds,
                                   r.solveSeconds,  r.updateSeconds,  r.totalSeconds};
        for (int k = 0; k < 6; ++k) phase[k] += seconds[k];
        ++stepsDone;
        if (r.active == 0) return 0.0;
        if (r.status != NSD_OK || r.aboveTolerance) ++failed;
        return r.solver.residual;
      };
      auto read = [&](std::vector<race::Body>& bodies) {
        const BodyStore& st = e.bodies();
        for (std::size_t i = 0; i < bodies.size(); ++i) {
          const std::size_t k = b.index[i];
          race::Body& o = bodies[i];
          for (int d = 0; d < 3; ++d) {
            o.x[d] = st.q[7 * k + d];
            o.v[d] = st.v[6 * k + d];
          }
          for (int d = 0; d < 4; ++d) o.q[d] = st.q[7 * k + 3 + d];
          const quaternion::Vec3 w =
              quaternion::rotate({o.q[0], o.q[1], o.q[2], o.q[3]},
                                 {st.v[6 * k + 3], st.v[6 * k + 4], st.v[6 * k + 5]});
          o.w = {w[0], w[1], w[2]};
        }
      };
      const race::LoopResult lr =
          race::runLoop(s, race::seriesPath(a, s.name, "nsdyn", solver, budget), step, read);
      race::Row row;
      row.scene = s.name;
      row.engine = "nsdyn";
      row.solver = solver;
      row.budgetKind = budgetMode ? "iterations" : "tolerance";
      row.budget = budget;
      row.bodies = s.bodies.size();
      row.h = s.h;
      row.msStep = lr.msStep;
      row.iterationsMean = iterations / static_cast<double>(s.steps);
      row.failedSteps = failed;
      row.m = lr.m;
      row.settings =
          "SceneEngine theta 0.5; " +
          (budgetMode ? "budget mode, tolerance " + a.get("tolerance", "1e-8") + ", check every " +
                            a.get("check-every", "1")
                      : "max iterations " + std::to_string(maxIt)) +
          "; recovery " + a.get("recovery", kRecoveryDefault) +
          (a.get("recovery", kRecoveryDefault) == "on"
               ? " (tolerance " + shortText(e.options().recovery.tolerance) + ", at most " +
                     std::to_string(e.options().recovery.iterations) + " sweeps)"
               : std::string()) +
          "; speculative contacts " + a.get("speculative", "off") + "; loaded contacts kept " +
          (e.options().contacts.keepLoadedContacts
               ? std::string(*e.options().contacts.keepLoadedContacts ? "on" : "off")
               : std::string("by default")) +
          (a.get("anderson", "0") != "0" ? "; Anderson " + a.get("anderson", "0") : std::string()) +
          (a.get("drift-jump", "on") == "off" ? std::string("; no drift jump") : std::string()) +
          "; warm start; " + a.get("threads", "1") + " thread(s)";
      race::writeRow(a.get("csv", "race.csv"), row);
      if (stepsDone > 0) {
        const double ms = 1e3 / static_cast<double>(stepsDone);
        std::printf(
            "  phases (ms/step, the engine's clocks): detect %.3f, contacts %.3f, free %.3f, "
            "solve %.3f, update %.3f, step %.3f\n",
            phase[0] * ms, phase[1] * ms, phase[2] * ms, phase[3] * ms, phase[4] * ms,
            phase[5] * ms);
      }
    }
    return 0;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "race_nsdyn: %s\n", ex.what());
    return 3;
  }
}
