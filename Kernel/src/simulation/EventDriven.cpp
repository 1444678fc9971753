// EventDriven: smooth integration between events (CvodeOSI), impacts with the
// Newton law, resting contacts through the acceleration-level LCP on I2.
#include "nsdyn/EventDriven.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "nsdyn/Error.hpp"
#include "nsdyn/LCP.hpp"
#include "nsdyn/LagrangianDS.hpp"
#include "nsdyn/LagrangianR.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/NonSmoothDynamicalSystem.hpp"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

namespace {

std::string number(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// The system as a LagrangianDS (initialize() let only those in).
LagrangianDS& lagrangian(const SP::DynamicalSystem& ds) {
  auto* l = dynamic_cast<LagrangianDS*>(ds.get());
  if (!l) throw Error("EventDriven", "a LagrangianDS", ds->name());
  return *l;
}

}  // namespace

EventDriven::EventDriven(SP::TimeDiscretisation td) : Simulation(std::move(td)) {}

EventDriven::EventDriven(SP::TimeDiscretisation td, const SP::OneStepIntegrator& osi,
                         const SP::OneStepNSProblem& impactProblem,
                         const SP::OneStepNSProblem& accelerationProblem)
    : Simulation(std::move(td)) {
  if (osi) insertIntegrator(osi);
  if (impactProblem) insertNonSmoothProblem(impactProblem);
  accelerationProblem_ = accelerationProblem;
}

void EventDriven::setAccelerationProblem(const SP::OneStepNSProblem& problem) {
  if (!problem) throw Error("EventDriven::setAccelerationProblem", "a OneStepNSProblem", "null");
  accelerationProblem_ = problem;
}

CvodeOSI& EventDriven::integrator() const {
  if (!osi_)
    throw Error("EventDriven", "initialize() called (Model::initialize)", "not initialised");
  return *osi_;
}

void EventDriven::checkSupported(Model& model) const {
  // 1. options
  if (!(options_.eventTolerance > 0.0))
    throw Error("EventDriven", "options.eventTolerance > 0", number(options_.eventTolerance));
  if (!(options_.impactVelocityThreshold >= 0.0))
    throw Error("EventDriven", "options.impactVelocityThreshold >= 0",
                number(options_.impactVelocityThreshold));
  if (!(options_.minImpactInterval >= 0.0))
    throw Error("EventDriven", "options.minImpactInterval >= 0",
                number(options_.minImpactInterval));
  if (options_.maxEvents <= 0)
    throw Error("EventDriven", "options.maxEvents > 0", std::to_string(options_.maxEvents));

  // 2. one CvodeOSI, LCP problems
  if (integrators_.size() != 1 || !dynamic_cast<CvodeOSI*>(integrators_.front().get())) {
    std::string found;
    for (const auto& osi : integrators_) found += (found.empty() ? "" : ", ") + osi->className();
    throw Error("EventDriven", "exactly one CvodeOSI integrator", found.empty() ? "none" : found);
  }
  if (problem_ && problem_->className() != "LCP")
    throw Error("EventDriven", "an LCP as impact problem", problem_->className());
  if (accelerationProblem_ && accelerationProblem_->className() != "LCP")
    throw Error("EventDriven", "an LCP as acceleration problem", accelerationProblem_->className());

  // 3. systems, relations, laws
  const NonSmoothDynamicalSystem& nsds = *model.nonSmoothDynamicalSystem();
  for (const auto& ds : nsds.dynamicalSystems())
    if (!dynamic_cast<const LagrangianDS*>(ds.get()))
      throw Error(ds->name(),
                  "a Lagrangian system (EventDriven integrates LagrangianDS and its subclasses)",
                  ds->className() +
                      " (use TimeStepping with MoreauJeanOSI for rigid bodies, EulerMoreauOSI "
                      "for first-order systems)");
  for (const auto& inter : nsds.interactions()) {
    if (!dynamic_cast<const LagrangianR*>(&inter->relation()))
      throw Error(inter->name(), "a Lagrangian relation (EventDriven)",
                  inter->relation().className());
    if (inter->nonSmoothLaw().kind() != NonSmoothLawKind::NewtonImpact)
      throw Error(
          inter->name(),
          "a NewtonImpactNSL law (EventDriven handles frictionless unilateral contacts only)",
          inter->nonSmoothLaw().className() +
              " (use TimeStepping for friction, relays and equalities)");
  }
}

void EventDriven::initialize(Model& model) {
  if (manager_)
    throw Error("EventDriven", "no InteractionManager (contact detection runs with TimeStepping)",
                manager_->className());
  checkSupported(model);
  if (!problem_) insertNonSmoothProblem(std::make_shared<LCP>("lemke"));
  if (!accelerationProblem_) accelerationProblem_ = std::make_shared<LCP>("lemke");
  Simulation::initialize(model);
  accelerationProblem_->initialize([this](const DynamicalSystem& ds) { return integratorOf(ds); },
                                   2);
  osi_ = static_cast<CvodeOSI*>(integrators_.front().get());

  // 1. per-relation state, callbacks of the integrator
  Topology& topology = model.nonSmoothDynamicalSystem()->topologyMutable();
  revisionAtStart_ = topology.revision();
  const std::size_t n0 = topology.indexSet(0).size();
  gapOffset_.assign(n0, 0.0);
  lastImpact_.assign(n0, -std::numeric_limits<double>::infinity());
  resting_.assign(n0, 0);
  osi_->bind([this](double t) { computeContactForces(t); },
             [this](double t, double* g) { computeRoots(t, g); }, static_cast<int>(n0));

  // 2. events, status, statistics
  events_.initialize(*td_, model.finalT());
  status_ = RunStatus::Running;
  statusMessage_ = "running";
  eventStats_.clear();
  totals_ = EventTotals();
  impacts_ = 0;
  reached_ = false;

  // 3. contacts at t0: impacts and resting ones resolved as at a nonsmooth event
  const double t0 = td_->t0();
  osi_->computeAccelerations(t0);
  EventStatistics initial;
  handleNonSmoothEvent(NonSmoothEvent(t0, {}), initial);
  impacts_ = 0;
  for (const auto& ds : model.nonSmoothDynamicalSystem()->dynamicalSystems()) ds->swapInMemory();
  stepsAtLastEvent_ = osi_->numberOfSteps();
  rhsAtLastEvent_ = osi_->numberOfRhsEvaluations();
  if (!events_.hasNextEvent())
    stop(RunStatus::Finished, "finished at t = " + number(t0) + " (no grid time in (t0, T])");
}

double EventDriven::startingTime() const {
  return isInitialized() ? events_.startingTime() : td_->t0();
}

double EventDriven::nextTime() const {
  return isInitialized() && events_.hasNextEvent() ? events_.nextTime() : startingTime();
}

bool EventDriven::hasNextEvent() const {
  return isInitialized() && status_ == RunStatus::Running;
}

const EventStatistics& EventDriven::lastEventStatistics() const {
  if (eventStats_.empty())
    throw Error("EventDriven::lastEventStatistics", "at least one event processed", "none");
  return eventStats_.back();
}

void EventDriven::stop(RunStatus status, const std::string& message) {
  status_ = status;
  statusMessage_ = message;
}

// ---- smooth dynamics -----------------------------------------------------------

void EventDriven::updateOutputs(double t) {
  for (const auto& inter : nonSmoothDynamicalSystem().interactions()) inter->computeOutput(t);
}

SimpleMatrix EventDriven::assembleDelassus(const IndexSet& set) const {
  // G_a M^-1 G_b^T summed over the systems the two relations share
  const Topology& topology = nonSmoothDynamicalSystem().topology();
  const std::size_t n = set.size();
  SimpleMatrix W(n, n);
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = 0; b < n; ++b)
      for (const auto& ds : topology.commonSystems(*set[a], *set[b]))
        W(a, b) += osi_->computeDelassusBlock(*set[a], *set[b], *ds, 0.0)(0, 0);
  return W;
}

SiconosVector EventDriven::accelerationFreeOutput(const UnitaryRelation& ur) const {
  // G a_free + (dG/dt) v: the acceleration of the gap without contact forces
  const Interaction& inter = ur.interaction();
  const SimpleMatrix G = ur.jacobianRows();
  SiconosVector out(ur.size());
  for (const auto& ds : inter.dynamicalSystems()) {
    const std::size_t off = inter.offsetOf(*ds);
    const SiconosVector& a = osi_->freeAcceleration(*ds);
    for (std::size_t i = 0; i < ur.size(); ++i)
      for (std::size_t j = 0; j < ds->dimension(); ++j) out(i) += G(i, off + j) * a(j);
  }
  const auto& rel = dynamic_cast<const LagrangianR&>(inter.relation());  // checked at initialize()
  if (!rel.isLinear()) {
    // (dG/dt) v = d/ds [G(q + s v)] v at s = 0, central difference
    const SiconosVector q = inter.gatherQ(), v = inter.gatherVelocity();
    const double vmax = v.normInf();
    if (vmax > 0.0) {
      const double step = std::sqrt(DBL_EPSILON) * std::max(1.0, q.normInf()) / vmax;
      SiconosVector qp = q, qm = q;
      for (std::size_t j = 0; j < q.size(); ++j) {
        qp(j) += step * v(j);
        qm(j) -= step * v(j);
      }
      const double t = startingTime();
      const SiconosVector dp = rel.computeJacobianQ(qp, t) * v,
                          dm = rel.computeJacobianQ(qm, t) * v;
      for (std::size_t i = 0; i < ur.size(); ++i)
        out(i) += (dp(ur.relativePosition() + i) - dm(ur.relativePosition() + i)) / (2.0 * step);
    }
  }
  return out;
}

StepStatistics EventDriven::solveLcp(const OneStepNSProblem& problem, const SimpleMatrix& M,
                                     const SiconosVector& q, SiconosVector& z,
                                     SiconosVector& w) const {
  StepStatistics stats;
  stats.solver = problem.solverName();
  stats.activeRelations = stats.problemSize = q.size();
  z = SiconosVector(q.size());
  w = SiconosVector(q.size());
  if (q.size() == 0) return stats;
  NsdProblem lcp{};
  lcp.kind = NSD_KIND_LCP;
  lcp.lcp = nsd_lcp_create(M.toNsdMatrix().release(), q.data());
  NsdReport report{};
  NsdStatus status = NSD_FAILED;
  if (lcp.lcp) {
    NsdSolverOptions options = problem.options();
    options.warm_start = 0;
    status = nsd_solve(&lcp, problem.solverName().c_str(), z.data(), w.data(), &options, &report);
    nsd_problem_clear(&lcp);
  } else {
    report.iterations = 0;
    std::snprintf(report.message, sizeof report.message, "LCP of size %zu: out of memory",
                  q.size());
  }
  for (std::size_t i = 0; i < z.size(); ++i)
    if (!std::isfinite(z(i))) z.zero();
  stats.solved = true;
  stats.status = status;
  stats.iterations = report.iterations;
  stats.residual = report.residual;
  stats.seconds = report.seconds;
  if (status != NSD_OK) stats.message = report.message;
  return stats;
}

StepStatistics EventDriven::solveAcceleration(const IndexSet& set, double /*t*/, bool record) {
  // 0 <= yddot = G M^-1 G^T lambda(2) + G a_free + Gdot v  _|_  lambda(2) >= 0
  const std::size_t n = set.size();
  SiconosVector q(n), z, w;
  for (std::size_t i = 0; i < n; ++i) q(i) = accelerationFreeOutput(*set[i])(0);
  StepStatistics stats = solveLcp(*accelerationProblem_, assembleDelassus(set), q, z, w);
  for (std::size_t i = 0; i < n; ++i) {
    set[i]->setLambda(2, SiconosVector{z(i)});
    set[i]->interactionMutable().yMutable(2)(set[i]->relativePosition()) = w(i);
  }
  if (record) lastAcceleration_ = stats;
  return stats;
}

void EventDriven::computeContactForces(double t) {
  // outputs at the trial state, then lambda(2) on I2 and r = G^T lambda(2)
  updateOutputs(t);
  const IndexSet& resting = nonSmoothDynamicalSystem().topology().indexSet(2);
  if (resting.empty()) return;
  solveAcceleration(resting, t, false);
  for (const auto& ur : resting) {
    const Interaction& inter = ur->interaction();
    const SiconosVector force = ur->jacobianRows().transposeTimes(ur->lambda(2));
    for (const auto& ds : inter.dynamicalSystems())
      osi_->contactForceMutable(*ds) += force.segment(inter.offsetOf(*ds), ds->dimension());
  }
}

void EventDriven::computeRoots(double /*t*/, double* g) const {
  // gap (minus the offset left by the last event) for open contacts, lambda(2) - yddot for resting
  // ones
  const IndexSet& all = nonSmoothDynamicalSystem().topology().indexSet(0);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const UnitaryRelation& ur = *all[i];
    const std::size_t row = ur.relativePosition();
    if (resting_[i])
      g[i] = ur.interaction().lambda(2)(row) - ur.interaction().y(2)(row);
    else
      g[i] = ur.interaction().y(0)(row) - gapOffset_[i];
  }
}

// ---- events -------------------------------------------------------------------

void EventDriven::restartIntegrator(double t) {
  // open contacts left slightly below 0 by the event: their root is taken from there
  const IndexSet& all = nonSmoothDynamicalSystem().topology().indexSet(0);
  for (std::size_t i = 0; i < all.size(); ++i) {
    const double y = all[i]->interaction().y(0)(all[i]->relativePosition());
    gapOffset_[i] = (!resting_[i] && y < 0.0) ? y : 0.0;
  }
  osi_->reset(t);
}

void EventDriven::handleNonSmoothEvent(const NonSmoothEvent& event, EventStatistics& stats) {
  NonSmoothDynamicalSystem& nsds = nonSmoothDynamicalSystem();
  Topology& topology = nsds.topologyMutable();
  const IndexSet all = topology.indexSet(0);
  const double t = event.time();
  const double tol = options_.eventTolerance;
  updateOutputs(t);
  auto gap = [&](std::size_t i) { return all[i]->interaction().y(0)(all[i]->relativePosition()); };
  auto velocity = [&](std::size_t i) {
    return all[i]->interaction().y(1)(all[i]->relativePosition());
  };

  // 1. released: resting relations whose force root fired
  std::vector<char> released(all.size(), 0);
  for (std::size_t i : event.roots())
    if (resting_[i]) {
      released[i] = 1;
      resting_[i] = 0;
      ++stats.released;
    }

  // 2. I1 (closed) and the impacts among them
  IndexSet closed;
  std::vector<std::size_t> closedPos;
  std::vector<double> restitution;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (gap(i) > tol) continue;
    closed.push_back(all[i]);
    closedPos.push_back(i);
    double e = all[i]->interaction().nonSmoothLaw().restitution(0);
    const double vMinus = velocity(i);
    if (vMinus < -tol) {
      ++stats.impacts;
      stats.maxImpactVelocity = std::max(stats.maxImpactVelocity, -vMinus);
      const bool slow = -vMinus < options_.impactVelocityThreshold;
      const bool soon = t - lastImpact_[i] < options_.minImpactInterval;
      if (slow || soon) {
        e = 0.0;  // end of an accumulation of impacts: the contact may rest
        ++stats.switchedToResting;
      }
      lastImpact_[i] = t;
    }
    restitution.push_back(e);
  }

  // 3. impact LCP on I1 with the Newton law: q = (1 + e) ydot-, P = lambda(1), v+ = v- + M^-1 G^T P
  if (stats.impacts > 0) {
    impacts_ += static_cast<long>(stats.impacts);
    SiconosVector q(closed.size()), P, w;
    for (std::size_t k = 0; k < closed.size(); ++k)
      q(k) = (1.0 + restitution[k]) * velocity(closedPos[k]);
    stats.impactSolve = solveLcp(*problem_, assembleDelassus(closed), q, P, w);
    for (std::size_t k = 0; k < closed.size(); ++k) closed[k]->setLambda(1, SiconosVector{P(k)});
    for (const auto& ds : nsds.dynamicalSystems()) ds->resetNonSmoothInput();
    for (const auto& inter : nsds.interactions()) inter->computeInput(t);
    for (const auto& dsp : nsds.dynamicalSystems()) {
      LagrangianDS& ds = lagrangian(dsp);
      if (ds.p().normInf() > 0.0) ds.velocityMutable() += osi_->W(ds).solve(ds.p());
    }
    updateOutputs(t);
  }

  // 4. candidates for I2: closed, at rest, not just released; keep those with lambda(2) > 0
  //    (free accelerations at the post-impact state first)
  osi_->computeAccelerations(t);
  IndexSet resting;
  std::vector<std::size_t> restingPos;
  for (std::size_t k = 0; k < closed.size(); ++k) {
    const std::size_t i = closedPos[k];
    if (!released[i] && std::fabs(velocity(i)) <= tol) {
      resting.push_back(all[i]);
      restingPos.push_back(i);
    }
  }
  std::vector<char> wasResting = resting_;
  lastAcceleration_ = StepStatistics();
  for (;;) {
    std::fill(resting_.begin(), resting_.end(), 0);
    for (std::size_t i : restingPos) resting_[i] = 1;
    topology.setIndexSet(2, resting);
    for (const auto& ur : all) ur->setLambda(2, SiconosVector{0.0});
    if (resting.empty()) break;
    solveAcceleration(resting, t, true);
    IndexSet keep;
    std::vector<std::size_t> keepPos;
    for (std::size_t k = 0; k < resting.size(); ++k)
      if (resting[k]->lambda(2)(0) > 0.0) {
        keep.push_back(resting[k]);
        keepPos.push_back(restingPos[k]);
      }
    if (keep.size() == resting.size()) break;
    resting = std::move(keep);
    restingPos = std::move(keepPos);
  }
  for (std::size_t i = 0; i < all.size(); ++i)
    if (wasResting[i] && !resting_[i] && !released[i]) ++stats.released;
  stats.accelerationSolve = lastAcceleration_;
  topology.setIndexSet(1, closed);

  // 5. forces and accelerations of the new state; restart the integrator
  osi_->computeAccelerations(t);
  restartIntegrator(t);
}

void EventDriven::refineImpactTime(const std::vector<std::size_t>& roots, double tout) {
  // CVODE locates a root to about 100 eps (|t| + |h|) in time, which leaves a
  // gap of that times |ydot| (1e-12 at 300 m/s). One Newton step on the gap of
  // the single contact found, delta = -y / ydot, puts it at 0; only for a step
  // of the size of that error.
  if (roots.size() != 1 || resting_[roots.front()]) return;
  const UnitaryRelation& ur = *nonSmoothDynamicalSystem().topology().indexSet(0)[roots.front()];
  const double y = ur.interaction().y(0)(ur.relativePosition());
  const double ydot = ur.interaction().y(1)(ur.relativePosition());
  if (!(ydot < 0.0)) return;
  const double t = osi_->reachedTime();
  const double delta = -y / ydot;
  const double maxShift = kRootRefinementFactor * DBL_EPSILON * std::max(1.0, std::fabs(t));
  if (std::fabs(delta) > maxShift || t + delta >= tout || t + delta <= startingTime()) return;
  osi_->shiftState(delta);
}

bool EventDriven::advanceToEvent() {
  if (!isInitialized())
    throw Error("EventDriven", "Model::initialize() before advanceToEvent()", "not initialised");
  if (status_ != RunStatus::Running) return false;
  if (reached_) return true;
  if (nonSmoothDynamicalSystem().topology().revision() != revisionAtStart_)
    throw Error("EventDriven", "the interactions of initialize() for the whole run",
                "interactions added or removed");
  const double tout = events_.nextTime();
  if (osi_->reachedTime() < tout) {
    const double tFrom = osi_->reachedTime();
    const CvodeOSI::Outcome outcome = osi_->integrate(tout, model().finalT());
    if (outcome == CvodeOSI::Outcome::Failed) {
      stop(RunStatus::IntegratorFailed, "CVODE failed between t = " + number(tFrom) + " and t = " +
                                            number(tout) + ": " + osi_->lastMessage());
      return false;
    }
    if (outcome == CvodeOSI::Outcome::Root) {
      std::vector<std::size_t> roots;
      const std::vector<int>& found = osi_->rootsFound();
      for (std::size_t i = 0; i < found.size(); ++i)
        if (found[i] != 0) roots.push_back(i);
      refineImpactTime(roots, tout);
      events_.insertNonSmoothEvent(osi_->reachedTime(), std::move(roots));
    }
  }
  reached_ = true;
  return true;
}

bool EventDriven::processEvents() {
  if (!isInitialized())
    throw Error("EventDriven", "Model::initialize() before processEvents()", "not initialised");
  if (!reached_ && !advanceToEvent()) return false;
  NonSmoothDynamicalSystem& nsds = nonSmoothDynamicalSystem();
  events_.processEvents();
  const Event& event = events_.currentEvent();

  // 1. memories: the state just before the event; impulses reset
  for (const auto& ds : nsds.dynamicalSystems()) {
    ds->swapInMemory();
    ds->resetNonSmoothInput();
  }
  for (const auto& inter : nsds.interactions()) {
    inter->swapInMemory();
    inter->lambdaMutable(1).zero();
  }

  // 2. the event itself
  EventStatistics stats;
  stats.index = numberOfEvents() + 1;
  stats.time = event.time();
  stats.type = event.type();
  stats.integratorSteps = osi_->numberOfSteps() - stepsAtLastEvent_;
  stats.rhsEvaluations = osi_->numberOfRhsEvaluations() - rhsAtLastEvent_;
  if (event.type() == EventType::NonSmooth)
    handleNonSmoothEvent(static_cast<const NonSmoothEvent&>(event), stats);
  stepsAtLastEvent_ = osi_->numberOfSteps();
  rhsAtLastEvent_ = osi_->numberOfRhsEvaluations();
  stats.closedRelations = nsds.topology().indexSet(1).size();
  stats.restingRelations = nsds.topology().indexSet(2).size();

  // 3. statistics (the impact solve also goes to Simulation::statistics())
  StepStatistics step = stats.impactSolve;
  if (!step.solved) step.activeRelations = 0;
  step.step = stats.index;
  step.time = stats.time;
  recordStatistics(step);
  eventStats_.push_back(stats);
  totals_.add(stats);
  // the history of Simulation::setStatisticsHistory, trimmed in batches (amortised O(1)); at
  // least 2 events: the event.FIELD columns of the outputs read the one before the last too
  const std::size_t keep =
      statisticsHistory() == 0 ? 0 : std::max<std::size_t>(statisticsHistory(), 2);
  if (keep > 0 && eventStats_.size() >= 2 * keep + 1)
    eventStats_.erase(eventStats_.begin(), eventStats_.end() - static_cast<std::ptrdiff_t>(keep));
  reached_ = false;

  // 4. status
  if (!events_.hasNextEvent())
    stop(RunStatus::Finished, "finished at t = " + number(event.time()));
  else if (numberOfEvents() >= options_.maxEvents)
    stop(RunStatus::MaxEvents, "stopped at t = " + number(event.time()) + " after " +
                                   std::to_string(numberOfEvents()) +
                                   " events (EventDriven::Options::maxEvents)");
  return true;
}

void EventDriven::computeOneStep() {
  if (advanceToEvent()) processEvents();
}

SiconosVector EventDriven::contactForce(const DynamicalSystem& ds) const {
  return integrator().contactForce(ds);
}

}  // namespace nsdyn
