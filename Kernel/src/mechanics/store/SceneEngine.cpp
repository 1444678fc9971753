// SceneEngine: set-up, materials, energies and the order of one step (nsdyn/SceneEngine.hpp).
// The phases live beside it: SceneEngineContacts.cpp (detection, contact arrays),
// SceneEngineMotion.cpp (free velocity, position update, end of step), SceneEngineSolve.cpp.
#include "nsdyn/SceneEngine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <iostream>
#include <sstream>

#include "mechanics/store/ResponseCoupling.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/nsd_options.h"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

namespace {
using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

void checkMaterialValues(const ContactMaterial& m, const std::string& what) {
  if (!(std::isfinite(m.mu) && m.mu >= 0.0))
    throw Error(what, "mu finite and >= 0", "mu = " + number(m.mu));
  if (!(std::isfinite(m.restitution) && m.restitution >= 0.0 && m.restitution <= 1.0))
    throw Error(what, "restitution in [0, 1]", "e = " + number(m.restitution));
}
}  // namespace

SceneEngine::SceneEngine(const Options& options)
    : options_(options), exchange_(std::make_shared<SceneExchange>()) {
  checkOptions();
  time_ = options_.t0;
}

void SceneEngine::checkOptions() const {
  const Options& o = options_;
  if (!(std::isfinite(o.h) && o.h > 0.0))
    throw Error("SceneEngine", "h finite and > 0", "h = " + number(o.h));
  if (!(o.theta >= 0.0 && o.theta <= 1.0))
    throw Error("SceneEngine", "theta in [0, 1]", "theta = " + number(o.theta));
  if (!std::isfinite(o.t0)) throw Error("SceneEngine", "a finite t0", "t0 = " + number(o.t0));
  for (double g : o.gravity)
    if (!std::isfinite(g))
      throw Error("SceneEngine", "a finite gravity", "a component " + number(g));
  const ContactManagerOptions& c = o.contacts;
  if (!(std::isfinite(c.relativeMargin) && c.relativeMargin >= 0.0))
    throw Error("SceneEngine", "relativeMargin finite and >= 0", number(c.relativeMargin));
  if (!(std::isfinite(c.relativeActivation) && c.relativeActivation >= 0.0))
    throw Error("SceneEngine", "relativeActivation finite and >= 0", number(c.relativeActivation));
  if (!(c.stabilisationFactor >= 0.0 && c.stabilisationFactor <= 1.0))
    throw Error("SceneEngine", "stabilisationFactor in [0, 1]", number(c.stabilisationFactor));
  if (!(std::isfinite(c.maxRecoverySpeed) && c.maxRecoverySpeed > 0.0))
    throw Error("SceneEngine", "maxRecoverySpeed finite and > 0", number(c.maxRecoverySpeed));
  if (o.solver != "nsgs" && o.solver != "apgd" &&
      !nsd_solver_find(NSD_KIND_FC3D, o.solver.c_str())) {
    std::string names = "nsgs (body-velocity form), apgd (operator), auto (nsgs, accelerated)";
    int count = 0;
    const NsdSolverEntry* table = nsd_solver_table(&count);
    for (int i = 0; i < count; ++i)
      if (table[i].kind == NSD_KIND_FC3D && std::string(table[i].name) != "nsgs" &&
          std::string(table[i].name) != "apgd" && std::string(table[i].name) != "auto")
        names += std::string(", ") + table[i].name;
    throw Error("SceneEngine solver", "one of " + names, "'" + o.solver + "'");
  }
  if (!o.fallback.empty() && !nsd_solver_find(NSD_KIND_FC3D, o.fallback.c_str()))
    throw Error("SceneEngine fallback solver", "an FC3D solver name (nsdyn solve --list-solvers)",
                "'" + o.fallback + "'");
  if (o.solveMode == SolveMode::Budget && !o.fallback.empty())
    throw Error("SceneEngine fallback solver",
                "none in budget mode (the budget of a step is fixed)", "'" + o.fallback + "'");
  if (!(std::isfinite(o.fallbackTimeFactor) && o.fallbackTimeFactor >= 0.0))
    throw Error("SceneEngine fallbackTimeFactor", "finite and >= 0 (0: no time bound)",
                number(o.fallbackTimeFactor));
  if (o.fallbackIterations < 0)
    throw Error("SceneEngine fallbackIterations", ">= 0 (0: solverOptions.max_iterations)",
                std::to_string(o.fallbackIterations));
  if (!(o.solverOptions.max_iterations >= 1))
    throw Error("SceneEngine solver options", "max_iterations >= 1",
                std::to_string(o.solverOptions.max_iterations));
  if (!(std::isfinite(o.solverOptions.time_limit) && o.solverOptions.time_limit >= 0.0))
    throw Error("SceneEngine solver options", "time_limit finite and >= 0 (0: none)",
                number(o.solverOptions.time_limit));
  checkOverlapRecovery(o.recovery, "SceneEngine recovery");
  ContactDetector probe;
  probe.setOptions(c.detection);  // margin, breaking distance
}

void SceneEngine::refuseAfterStart(const char* what) const {
  if (initialized_)
    throw Error(std::string("SceneEngine::") + what, "bodies added before the first step",
                "a body added at step " + std::to_string(steps_));
}

void SceneEngine::setDefaultMaterial(const ContactMaterial& material) {
  checkMaterialValues(material, "SceneEngine default material");
  default_ = material;
  if (initialized_) fillMaterialTable();
}

void SceneEngine::setMaterial(int groupA, int groupB, const ContactMaterial& material) {
  const std::string what =
      "SceneEngine material (" + std::to_string(groupA) + ", " + std::to_string(groupB) + ")";
  if (groupA < 0 || groupB < 0) throw Error(what, "groups >= 0", "a negative group");
  checkMaterialValues(material, what);
  materials_[{std::min(groupA, groupB), std::max(groupA, groupB)}] = material;
  if (initialized_) fillMaterialTable();
}

void SceneEngine::fillMaterialTable() {
  int largest = 0;
  for (int g : bodies_.group) largest = std::max(largest, g);
  if (largest >= 1024) {  // a sparse set of large group numbers: looked up in the map
    groups_ = 0;
    materialTable_.clear();
    return;
  }
  groups_ = largest + 1;
  materialTable_.assign(static_cast<std::size_t>(groups_) * static_cast<std::size_t>(groups_),
                        default_);
  for (int a = 0; a < groups_; ++a)
    for (int b = 0; b < groups_; ++b)
      materialTable_[static_cast<std::size_t>(a) * static_cast<std::size_t>(groups_) +
                     static_cast<std::size_t>(b)] = material(a, b);
}

ContactMaterial SceneEngine::material(int groupA, int groupB) const {
  const auto it = materials_.find({std::min(groupA, groupB), std::max(groupA, groupB)});
  return it == materials_.end() ? default_ : it->second;
}

void SceneEngine::setExchange(std::shared_ptr<SceneExchange> exchange) {
  if (initialized_) throw Error("SceneEngine::setExchange", "before the first step", "after it");
  if (!exchange) throw Error("SceneEngine::setExchange", "an exchange", "null");
  exchange_ = std::move(exchange);
}

void SceneEngine::addSystem(std::shared_ptr<SceneSystem> system) {
  refuseAfterStart("addSystem");
  if (!system) throw Error("SceneEngine::addSystem", "a system", "null");
  systems_.push_back(system);
  system->attach(*this);
}

void SceneEngine::initialize() {
  if (initialized_) return;
  if (!systems_.empty() && exchange_->size() > 1)
    throw Error("SceneEngine over " + std::to_string(exchange_->size()) + " parts",
                "no scene system (one process only)", systems_.front()->name());
  if (exchange_->size() <= 1) {
    prepare();
  } else {
    // several parts: every part fails together (no part left waiting in a collective), and
    // only the operator solvers run (W = J M^-1 J^T is never formed over the parts)
    std::exception_ptr fault;
    try {
      if (options_.solver != "nsgs" && options_.solver != "apgd" && options_.solver != "auto")
        throw Error("SceneEngine solver over " + std::to_string(exchange_->size()) + " parts",
                    "nsgs, apgd or auto (W is never assembled over several parts)",
                    "'" + options_.solver + "'");
      if (!options_.fallback.empty() || !dumpSteps_.empty())
        throw Error(
            "SceneEngine over " + std::to_string(exchange_->size()) + " parts",
            "no fallback solver and no problem dump (both need W, assembled on one process)",
            options_.fallback.empty() ? "a problem dump" : "fallback '" + options_.fallback + "'");
      prepare();
    } catch (...) {
      fault = std::current_exception();
    }
    double any = fault ? 1.0 : 0.0;
    exchange_->reduceMax(&any, 1);
    if (fault) std::rethrow_exception(fault);
    if (any > 0.0)
      throw Error("SceneEngine", "a valid scene on every part",
                  "another part's scene or options were rejected");
  }
  // the part's bodies and memory (one process: all of them)
  exchange_->initialize(bodies_, memory_, breaking_);
  bodies_.shrinkToFit();  // the bodies were appended one by one: no spare capacity kept
  sweep_.assign(sweepScale() > 0.0 ? bodies_.size() : 0, 0.0);
  initialized_ = true;
}

void SceneEngine::prepare() {
  if (bodies_.size() == 0) throw Error("SceneEngine", "at least one body", "none");
  coupling_ = std::make_shared<store::ResponseCoupling>(systems_);
  if (!coupling_->any()) coupling_.reset();
  filtersContacts_ = false;
  for (const auto& system : systems_)
    filtersContacts_ = filtersContacts_ || system->filtersContacts();
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    for (int i = 0; i < 13; ++i) {
      const double x = i < 7 ? bodies_.q[7 * b + static_cast<std::size_t>(i)]
                             : bodies_.v[6 * b + static_cast<std::size_t>(i - 7)];
      if (!std::isfinite(x))
        throw Error(bodies_.describe(b), "a finite state",
                    (i < 7 ? "q" : "v") + std::string(" = ") + number(x));
    }
  const ContactManagerOptions& c = options_.contacts;
  const double smallest = bodies_.smallestShapeSize();
  activation_ = std::isfinite(smallest) ? c.relativeActivation * smallest : 0.0;
  const OverlapRecoveryOptions& ro = options_.recovery;  // the whole scene's, on every part
  recSlop_ = ro.slop > 0.0 ? ro.slop : std::isfinite(smallest) ? ro.relativeSlop * smallest : 0.0;
  recMaxSpeed_ = ro.maxSpeed > 0.0 ? ro.maxSpeed : ro.slopsPerStep * recSlop_ / options_.h;
  if (ro.enabled && !(recMaxSpeed_ > 0.0) && std::isfinite(smallest))
    throw Error("SceneEngine: recovery", "a recovery-speed cap > 0",
                "maxSpeed 0 (relative: slopsPerStep x slop / h) with a slop of " +
                    number(recSlop_) + " m (set slop, relativeSlop or maxSpeed)");
  margin_ = c.detection.margin;
  breaking_ = c.detection.breakingDistance;
  if (margin_ == 0.0 && c.relativeMargin > 0.0 && std::isfinite(smallest)) {
    margin_ = c.relativeMargin * smallest;
    breaking_ = std::max(breaking_, margin_);
  }
  breaking_ = std::max(breaking_, margin_);
  ContactDetector::Options detection = c.detection;
  detection.margin =
      breaking_;  // detect up to the breaking distance; new contacts kept up to the margin
  detection.breakingDistance = breaking_;
  detector_.setOptions(detection);
  detector_.setStore(&bodies_);
  sweep_.assign(sweepScale() > 0.0 ? bodies_.size() : 0, 0.0);
  fillMaterialTable();

  warnings_.clear();
  // overlaps at t0 (not after a restart: a resting pile overlaps by design)
  static const std::vector<DetectedContact> none;
  for (const DetectedContact& d : steps_ == 0 ? detector_.detect() : none) {
    if (d.gap >= 0.0) continue;
    const auto size = [&](std::int32_t b, std::int32_t s) {
      return bodies_
          .shapes[bodies_.shapeStart[static_cast<std::size_t>(b)] + static_cast<std::size_t>(s)]
          .shape->characteristicSize();
    };
    const double smaller = std::min(size(d.bodyA, d.shapeA), size(d.bodyB, d.shapeB));
    if (-d.gap > c.overlapWarningFraction * smaller) {
      std::ostringstream msg;
      msg << bodies_.describe(static_cast<std::size_t>(d.bodyA)) << " and "
          << bodies_.describe(static_cast<std::size_t>(d.bodyB)) << " overlap by " << -d.gap
          << " at t0 (more than " << c.overlapWarningFraction << " of the size " << smaller << ")";
      warnings_.push_back(msg.str());
      if (warnings_.size() <= 10 && exchange_->rank() == 0)
        std::cerr << "nsdyn: warning: " << msg.str() << "\n";
    }
  }
  if (warnings_.size() > 10 && exchange_->rank() == 0)
    std::cerr << "nsdyn: warning: " << warnings_.size() << " overlapping pairs at t0 in all\n";
}

void SceneEngine::setMemory(ContactMemory memory) {
  const std::size_t n = memory.key.size();
  if (memory.normal.size() != n || memory.tangential.size() != 3 * n)
    throw Error("SceneEngine::setMemory", "1 normal and 3 tangential values per key",
                std::to_string(memory.normal.size()) + " and " +
                    std::to_string(memory.tangential.size()) + " for " + std::to_string(n) +
                    " keys");
  for (std::size_t i = 1; i < n; ++i)
    if (!(memory.key[i - 1] < memory.key[i]))
      throw Error("SceneEngine::setMemory", "keys sorted and distinct",
                  "key #" + std::to_string(i) + " out of order");
  for (std::size_t i = 0; i < n; ++i)
    for (double x : {memory.normal[i], memory.tangential[3 * i], memory.tangential[3 * i + 1],
                     memory.tangential[3 * i + 2]})
      if (!std::isfinite(x))
        throw Error("SceneEngine::setMemory", "finite impulses",
                    "key #" + std::to_string(i) + ": " + number(x));
  memory_ = std::move(memory);
}

void SceneEngine::setClock(long steps) {
  if (steps < 0) throw Error("SceneEngine::setClock", "steps >= 0", std::to_string(steps));
  steps_ = steps;
  time_ = options_.t0 + static_cast<double>(steps_) * options_.h;
}

double SceneEngine::reduced(double value) const {
  exchange_->reduceSum(&value, 1);
  return value;
}

double SceneEngine::kineticEnergy() const {
  double e = 0.0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) e += bodies_.kineticEnergy(b);
  return reduced(e);
}

double SceneEngine::potentialEnergy() const {
  const auto& g = options_.gravity;
  double e = 0.0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (bodies_.isStatic[b] || bodies_.ghost[b]) continue;
    for (int i = 0; i < 3; ++i)
      e -= (bodies_.mass[b] * g[static_cast<std::size_t>(i)] +
            bodies_.force[3 * b + static_cast<std::size_t>(i)]) *
           bodies_.q[7 * b + static_cast<std::size_t>(i)];
  }
  return reduced(e);
}

const SceneEngine::StepReport& SceneEngine::step() {
  initialize();
  const Clock::time_point start = Clock::now();
  report_ = StepReport();
  Clock::time_point t0 = Clock::now();
  for (const auto& system : systems_) system->beginStep(*this);
  detect();
  report_.detectSeconds = secondsSince(t0);
  t0 = Clock::now();
  freeVelocity();
  for (const auto& system : systems_) system->freeVelocity(*this, vel_.data());
  report_.freeSeconds = secondsSince(t0);
  t0 = Clock::now();
  fillContacts();
  report_.contactSeconds = secondsSince(t0);
  t0 = Clock::now();
  solve();
  report_.solveSeconds = secondsSince(t0);
  t0 = Clock::now();
  update();
  recover();  // overlap recovery: positions only (SceneEngineRecovery.cpp)
  finishStep();
  for (const auto& system : systems_) system->endStep(*this);
  report_.updateSeconds = secondsSince(t0);
  ++steps_;
  time_ = options_.t0 + static_cast<double>(steps_) * options_.h;
  report_.step = steps_;
  report_.time = time_;
  report_.totalSeconds = secondsSince(start);
  return report_;
}

}  // namespace nsdyn
