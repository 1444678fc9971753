// TimeStepping: free state, index sets, nonsmooth problem, update (DESIGN.md, "one time step").
#include "nsdyn/TimeStepping.hpp"

#include "nsdyn/Error.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/NonSmoothDynamicalSystem.hpp"

namespace nsdyn {

TimeStepping::TimeStepping(SP::TimeDiscretisation td) : Simulation(std::move(td)) {}

TimeStepping::TimeStepping(SP::TimeDiscretisation td, const SP::OneStepIntegrator& osi,
                           const SP::OneStepNSProblem& problem)
    : Simulation(std::move(td)) {
  if (osi) insertIntegrator(osi);
  if (problem) insertNonSmoothProblem(problem);
}

void TimeStepping::computeFreeState() {
  for (const auto& osi : integrators_) osi->computeFreeState(startingTime(), nextTime());
}

void TimeStepping::updateIndexSets() {
  // I1: impact laws of Lagrangian relations by the predicted gap y + gamma h ydot <= 0
  // on the normal row (outputs of the step start); every other relation always
  Topology& topology = nonSmoothDynamicalSystem().topologyMutable();
  const double h = timeStep();
  IndexSet active;
  for (const auto& ur : topology.indexSet(0)) {
    const Interaction& inter = ur->interaction();
    if (inter.relation().kind() == RelationKind::Lagrangian && inter.nonSmoothLaw().isImpactLaw()) {
      const std::size_t normal = ur->relativePosition();
      const double predicted = inter.y(0)(normal) + kActivationGamma * h * inter.y(1)(normal);
      if (predicted <= 0.0) active.push_back(ur);
    } else {
      active.push_back(ur);
    }
  }
  topology.setIndexSet(1, std::move(active));
  topology.setIndexSet(2, IndexSet());
}

void TimeStepping::computeOneStepNSProblem() {
  const Topology& topology = nonSmoothDynamicalSystem().topology();
  if (problem_)
    pending_ = problem_->compute(topology, topology.indexSet(1), nextTime());
  else
    pending_ = StepStatistics();
  pending_.step = k_ + 1;
  pending_.time = nextTime();
}

void TimeStepping::update() {
  NonSmoothDynamicalSystem& nsds = nonSmoothDynamicalSystem();
  const double t = nextTime();
  // 1. nonsmooth inputs p = H^T lambda / r = B lambda
  for (const auto& ds : nsds.dynamicalSystems()) ds->resetNonSmoothInput();
  for (const auto& inter : nsds.interactions()) inter->computeInput(t);
  // 2. new states
  for (const auto& osi : integrators_) osi->updateState(t);
  // 3. outputs at t_{k+1}
  for (const auto& inter : nsds.interactions()) inter->computeOutput(t);
  statistics_.push_back(pending_);
}

void TimeStepping::computeOneStep() {
  if (!isInitialized()) throw Error("TimeStepping", "Model::initialize() before computeOneStep()", "not initialised");
  if (stepDone_) nextStep();
  initializeNewInteractions(startingTime());
  computeFreeState();
  updateIndexSets();
  computeOneStepNSProblem();
  update();
  stepDone_ = true;
}

}  // namespace nsdyn
