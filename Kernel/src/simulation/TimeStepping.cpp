// TimeStepping: free state, index sets, nonsmooth problem, update (DESIGN.md,
// "one time step"); Newton loop for nonlinear systems (MECHANICS.md §0.4).
#include "nsdyn/TimeStepping.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "nsdyn/ContactManager.hpp"
#include "nsdyn/ContactSet.hpp"
#include "nsdyn/EqualityConditionNSL.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/JointAxisR.hpp"
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

void TimeStepping::initialize(Model& model) {
  if (!(newtonTolerance_ > 0.0) || !std::isfinite(newtonTolerance_))
    throw Error("TimeStepping", "a Newton tolerance > 0", std::to_string(newtonTolerance_));
  if (newtonMaxIterations_ < 1)
    throw Error("TimeStepping", "at least 1 Newton iteration",
                std::to_string(newtonMaxIterations_));
  Simulation::initialize(model);
  bool nonlinear = false, required = false;
  for (const auto& osi : integrators_) {
    nonlinear = nonlinear || osi->isNonlinear();
    if (osi->requiresNewton()) required = true;
  }
  if (newtonMode_ == NewtonMode::Linear && required)
    throw Error("TimeStepping", "Newton iterations for systems with boundary conditions",
                "NewtonMode::Linear");
  newton_ = newtonMode_ == NewtonMode::Nonlinear || required ||
            (newtonMode_ == NewtonMode::Auto && nonlinear);
  for (const auto& osi : integrators_) osi->setNewtonIterations(newton_);
}

void TimeStepping::computeFreeState() {
  for (const auto& osi : integrators_) osi->computeFreeState(startingTime(), nextTime());
}

void TimeStepping::updateIndexSets() {
  // I1: impact laws of gap relations by the predicted gap y + gamma h ydot <= 0
  // on the normal row (outputs of the step start); every other relation always
  Topology& topology = nonSmoothDynamicalSystem().topologyMutable();
  const double h = timeStep();
  IndexSet active;
  for (const auto& ur : topology.indexSet(0)) {
    const Interaction& inter = ur->interaction();
    if (inter.relation().outputIsGap() && inter.nonSmoothLaw().isImpactLaw()) {
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

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}
}  // namespace

void TimeStepping::computeOneStepNSProblem() {
  const auto t0 = Clock::now();
  const Topology& topology = nonSmoothDynamicalSystem().topology();
  if (problem_) problem_->setStepNumber(k_ + 1);
  if (problem_)
    pending_ = problem_->compute(topology, topology.indexSet(1), nextTime(),
                                 manager_ ? manager_->contactSet() : nullptr);
  else
    pending_ = StepStatistics();
  pending_.step = k_ + 1;
  pending_.time = nextTime();
  problemSeconds_ += since(t0);
}

void TimeStepping::update() {
  NonSmoothDynamicalSystem& nsds = nonSmoothDynamicalSystem();
  const double t = nextTime();
  // 1. nonsmooth inputs p = H^T lambda / r = B lambda
  for (const auto& ds : nsds.dynamicalSystems()) ds->resetNonSmoothInput();
  for (const auto& inter : nsds.interactions()) inter->computeInput(t);
  if (manager_) manager_->computeInput(t);
  // 2. new states
  for (const auto& osi : integrators_) osi->updateState(t);
  // 3. outputs at t_{k+1}
  for (const auto& inter : nsds.interactions()) inter->computeOutput(t);
}

void TimeStepping::afterStep(StepStatistics& /*stats*/) {}

void TimeStepping::recordWork() {
  StepStatistics::Work& work = pending_.work;
  work = StepStatistics::Work();
  for (const auto& inter : nonSmoothDynamicalSystem().interactions()) {
    const SiconosVector &lambda = inter->lambda(1), &y = inter->y(1), &y0 = inter->yMemory(1);
    double w = 0.0;
    for (std::size_t i = 0; i < lambda.size() && i < y.size() && i < y0.size(); ++i)
      w += lambda(i) * 0.5 * (y0(i) + y(i));
    const auto* axis = dynamic_cast<const JointAxisR*>(&inter->relation());
    if (axis && axis->isMotor())
      work.motors += w;
    else if (dynamic_cast<const EqualityConditionNSL*>(&inter->nonSmoothLaw()))
      work.joints += w;
    else
      work.unilateral += w;
  }
  if (const auto* cm = dynamic_cast<const ContactManager*>(manager_.get()))
    work.contacts = cm->statistics().contactWork;
}

void TimeStepping::computeJacobiansForNewton(double t) {
  NonSmoothDynamicalSystem& nsds = nonSmoothDynamicalSystem();
  for (const auto& osi : integrators_) osi->moveToThetaPoint(true);
  for (const auto& inter : nsds.interactions()) inter->computeJacobians(t);
  for (const auto& osi : integrators_) osi->moveToThetaPoint(false);
}

void TimeStepping::newtonStep() {
  NonSmoothDynamicalSystem& nsds = nonSmoothDynamicalSystem();
  const double tk = startingTime(), tk1 = nextTime();
  // outputs and Jacobians at q_k: y_k (the impact laws use its velocity)
  for (const auto& inter : nsds.interactions()) {
    inter->computeOutput(tk);
    inter->swapInMemory();
  }
  updateIndexSets();
  // prediction q = q_k (+) h v_k, v = v_k, and its residual
  for (const auto& osi : integrators_) osi->prepareNewtonIteration(tk, tk1);
  bool thetaPoint = false;
  for (const auto& osi : integrators_) thetaPoint = thetaPoint || osi->jacobiansAtThetaPoint();
  int it = 0;
  bool converged = false;
  int solverIterations = 0;
  double solverSeconds = 0.0;
  while (!converged && it < newtonMaxIterations_) {
    ++it;
    computeFreeState();              // W, v_free = v - W^-1 R
    computeJacobiansForNewton(tk1);  // at the current q (or the theta point)
    computeOneStepNSProblem();
    solverIterations += pending_.iterations;
    solverSeconds += pending_.seconds;
    for (const auto& ds : nsds.dynamicalSystems()) ds->resetNonSmoothInput();
    for (const auto& inter : nsds.interactions()) inter->computeInput(tk1);  // p = H^T lambda
    if (manager_) manager_->computeInput(tk1);
    for (const auto& osi : integrators_) osi->updateState(tk1);
    if (it < newtonMaxIterations_)
      for (const auto& inter : nsds.interactions()) inter->computeOutputKeepJacobians(tk1);
    if (thetaPoint) {
      // the Jacobians move with the iterate: p = H^T lambda at the new theta point
      computeJacobiansForNewton(tk1);
      for (const auto& ds : nsds.dynamicalSystems()) ds->resetNonSmoothInput();
      for (const auto& inter : nsds.interactions()) inter->computeInput(tk1);
      if (manager_) manager_->computeInput(tk1);
    }
    converged = true;
    for (const auto& osi : integrators_)
      converged = osi->computeResidual(tk1, newtonTolerance_) && converged;
  }
  for (const auto& inter : nsds.interactions()) inter->computeOutputKeepJacobians(tk1);
  pending_.iterations = solverIterations;
  pending_.seconds = solverSeconds;
  pending_.newtonIterations = it;
  pending_.newtonConverged = converged;
}

void TimeStepping::computeOneStep() {
  if (!isInitialized())
    throw Error("TimeStepping", "Model::initialize() before computeOneStep()", "not initialised");
  if (stepDone_) nextStep();
  const auto start = Clock::now();
  initializeNewInteractions(startingTime());
  double interactions = 0.0;
  if (manager_) {
    const auto t0 = Clock::now();
    manager_->updateInteractions(*this, startingTime());
    interactions = since(t0);
  }
  problemSeconds_ = 0.0;
  if (newton_) {
    newtonStep();
  } else {
    computeFreeState();
    updateIndexSets();
    computeOneStepNSProblem();
    update();
  }
  afterStep(pending_);
  if (manager_) {
    const auto t0 = Clock::now();
    manager_->afterStep(*this);
    interactions += since(t0);
    if (const ContactSet* contacts = manager_->contactSet())
      pending_.detectedContacts = contacts->size();
  }
  recordWork();
  pending_.phases.interactions = interactions;
  pending_.phases.solve = pending_.seconds;
  pending_.phases.build = std::max(0.0, problemSeconds_ - pending_.seconds);
  pending_.phases.total = since(start);
  pending_.phases.integration =
      std::max(0.0, pending_.phases.total - interactions - problemSeconds_);
  recordStatistics(pending_);
  stepDone_ = true;
}

}  // namespace nsdyn
