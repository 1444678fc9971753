// Simulation: initialisation checks, time bookkeeping, statistics.
#include "nsdyn/Simulation.hpp"

#include <algorithm>

#include "nsdyn/Error.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/NonSmoothDynamicalSystem.hpp"

namespace nsdyn {

Simulation::Simulation(SP::TimeDiscretisation td) : td_(std::move(td)) {
  if (!td_) throw Error("Simulation", "a TimeDiscretisation", "null");
}

Simulation::~Simulation() = default;

void Simulation::insertIntegrator(const SP::OneStepIntegrator& osi) {
  if (!osi) throw Error("Simulation::insertIntegrator", "an integrator", "null");
  integrators_.push_back(osi);
}

void Simulation::insertNonSmoothProblem(const SP::OneStepNSProblem& problem) {
  if (!problem) throw Error("Simulation::insertNonSmoothProblem", "a OneStepNSProblem", "null");
  problem_ = problem;
}

const OneStepIntegrator* Simulation::integratorOf(const DynamicalSystem& ds) const {
  for (const auto& osi : integrators_)
    if (osi->integrates(ds)) return osi.get();
  return nullptr;
}

void Simulation::insertInteractionManager(const SP::InteractionManager& manager) {
  if (!manager)
    throw Error("Simulation::insertInteractionManager", "an InteractionManager", "null");
  manager_ = manager;
}

void Simulation::initialize(Model& model) {
  td_->check();
  if (!(model.finalT() > td_->t0()))
    throw Error("Model", "final time T > t0 of the time discretisation",
                "T = " + std::to_string(model.finalT()) + ", t0 = " + std::to_string(td_->t0()));
  if (integrators_.empty()) throw Error("Simulation", "at least one OneStepIntegrator", "none");
  NonSmoothDynamicalSystem& nsds = *model.nonSmoothDynamicalSystem();
  nsds.checkConsistency();
  const double t0 = td_->t0();

  // 1. share the systems out: requested ones first, then by kind
  const std::vector<SP::DynamicalSystem> systems = nsds.dynamicalSystems();
  std::map<int, OneStepIntegrator*> owner;
  for (const auto& osi : integrators_)
    for (const auto& ds : osi->requestedSystems()) {
      if (owner.count(ds->number())) throw Error(ds->name(), "one integrator", "two integrators");
      owner[ds->number()] = osi.get();
    }
  for (const auto& ds : systems)
    if (!owner.count(ds->number()))
      for (const auto& osi : integrators_)
        if (osi->requestedSystems().empty() && osi->accepts(*ds)) {
          owner[ds->number()] = osi.get();
          break;
        }
  for (const auto& ds : systems)
    if (!owner.count(ds->number()))
      throw Error(
          ds->name(),
          "an integrator that accepts it (MoreauJeanOSI: Lagrangian, EulerMoreauOSI: first order)",
          "none");
  for (const auto& osi : integrators_) {
    std::vector<SP::DynamicalSystem> mine;
    for (const auto& ds : systems)
      if (owner[ds->number()] == osi.get()) mine.push_back(ds);
    osi->initialize(mine, t0, td_->h());
  }

  // 2. interactions: one integrator for all their systems, one problem level
  const std::vector<SP::Interaction> interactions = nsds.interactions();
  if (!interactions.empty() && !problem_)
    throw Error(
        "Simulation",
        "a OneStepNSProblem for the " + std::to_string(interactions.size()) + " interactions",
        "none");
  unsigned level = integrators_.front()->levelForProblem();
  bool levelSet = false;
  for (const auto& inter : interactions) {
    const OneStepIntegrator* osi = integratorOf(*inter->dynamicalSystems().front());
    for (const auto& ds : inter->dynamicalSystems())
      if (integratorOf(*ds) != osi)
        throw Error(inter->name(), "systems integrated by one integrator", "two integrators");
    if (levelSet && osi->levelForProblem() != level)
      throw Error(inter->name(),
                  "the problem level " + std::to_string(level) + " of the other interactions",
                  "level " + std::to_string(osi->levelForProblem()));
    level = osi->levelForProblem();
    levelSet = true;
  }
  if (problem_) {
    problem_->initialize([this](const DynamicalSystem& ds) { return integratorOf(ds); }, level);
    for (const auto& ur : nsds.topology().indexSet(0)) problem_->checkRelation(*ur);
  }

  // 3. first outputs at t0 (lambda = 0), memories
  for (const auto& inter : interactions) inter->initialize(t0);
  for (const auto& ds : systems) {
    ds->resetNonSmoothInput();
    ds->swapInMemory();
  }
  topologyRevision_ = nsds.topology().revision();
  k_ = 0;
  stepDone_ = false;
  statistics_.clear();
  model_ = &model;
  if (manager_) {
    try {
      manager_->initialize(*this);
    } catch (...) {
      model_ = nullptr;
      throw;
    }
  }
}

void Simulation::initializeNewInteractions(double t) {
  NonSmoothDynamicalSystem& nsds = nonSmoothDynamicalSystem();
  if (nsds.topology().revision() == topologyRevision_) return;
  for (const auto& inter : nsds.interactions()) {
    if (inter->isInitialized()) continue;
    for (const auto& ds : inter->dynamicalSystems())
      if (!integratorOf(*ds))
        throw Error(inter->name(), "systems known to the simulation", ds->name());
    inter->initialize(t);
  }
  if (problem_)
    for (const auto& ur : nsds.topology().indexSet(0)) problem_->checkRelation(*ur);
  topologyRevision_ = nsds.topology().revision();
}

bool Simulation::hasNextEvent() const {
  if (!model_) return false;
  return td_->time(k_ + (stepDone_ ? 2 : 1)) <= model_->finalT();
}

void Simulation::nextStep() {
  if (!stepDone_) computeOneStep();
  NonSmoothDynamicalSystem& nsds = nonSmoothDynamicalSystem();
  for (const auto& ds : nsds.dynamicalSystems()) ds->swapInMemory();
  for (const auto& inter : nsds.interactions()) inter->swapInMemory();
  ++k_;
  stepDone_ = false;
}

void Simulation::run() {
  while (hasNextEvent()) {
    computeOneStep();
    nextStep();
  }
}

const StepStatistics& Simulation::lastStatistics() const {
  if (statistics_.empty())
    throw Error("Simulation::lastStatistics", "at least one step done", "none");
  return statistics_.back();
}

Model& Simulation::model() const {
  if (!model_)
    throw Error("Simulation", "initialize() called (Model::initialize)", "not initialised");
  return *model_;
}

NonSmoothDynamicalSystem& Simulation::nonSmoothDynamicalSystem() const {
  return *model().nonSmoothDynamicalSystem();
}

void Simulation::setStatisticsHistory(std::size_t steps) {
  history_ = steps;
  if (history_ > 0 && statistics_.size() > history_)
    statistics_.erase(statistics_.begin(),
                      statistics_.end() - static_cast<std::ptrdiff_t>(history_));
}

void Simulation::recordStatistics(const StepStatistics& step) {
  statistics_.push_back(step);
  // trim in batches (amortised O(1) per step): at most 2N held, the last N kept
  if (history_ > 0 && statistics_.size() >= 2 * history_ + 1)
    statistics_.erase(statistics_.begin(),
                      statistics_.end() - static_cast<std::ptrdiff_t>(history_));
}

}  // namespace nsdyn
