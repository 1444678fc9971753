// TimeSteppingDirectProjection: hysteresis activation and position projection (MECHANICS.md §0.9).
#include "nsdyn/TimeSteppingDirectProjection.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "nsdyn/Error.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/NonSmoothDynamicalSystem.hpp"
#include "nsdyn/SecondOrderDS.hpp"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

TimeSteppingDirectProjection::TimeSteppingDirectProjection(
    SP::TimeDiscretisation td, const SP::MoreauJeanDirectProjectionOSI& osi,
    const SP::OneStepNSProblem& problem)
    : TimeStepping(std::move(td), osi, problem) {}

void TimeSteppingDirectProjection::initialize(Model& model) {
  for (const auto& osi : integrators_)
    if (!std::dynamic_pointer_cast<MoreauJeanDirectProjectionOSI>(osi))
      throw Error("TimeSteppingDirectProjection", "MoreauJeanDirectProjectionOSI integrators",
                  osi->className());
  if (maxIterations_ < 0)
    throw Error("TimeSteppingDirectProjection", "a projection iteration count >= 0",
                std::to_string(maxIterations_));
  if (!(tolUnilateral_ > 0.0) || !(tolEquality_ > 0.0))
    throw Error("TimeSteppingDirectProjection", "constraint tolerances > 0",
                std::to_string(tolUnilateral_) + ", " + std::to_string(tolEquality_));
  if (!nsd_solver_find(NSD_KIND_MLCP, solver_.c_str()))
    throw Error("TimeSteppingDirectProjection", "an MLCP solver name for the projection",
                "\"" + solver_ + "\"");
  failures_ = 0;
  TimeStepping::initialize(model);
}

namespace {
bool isUnilateral(const Interaction& inter) {
  return inter.relation().outputIsGap() && inter.nonSmoothLaw().isImpactLaw();
}
/// Relay rows (motors) act on velocities only: not projected.
bool isVelocityRow(const Interaction& inter) {
  return inter.nonSmoothLaw().kind() == NonSmoothLawKind::Relay;
}
}  // namespace

void TimeSteppingDirectProjection::updateIndexSets() {
  // hysteresis: enter when y + gamma h ydot <= activate, leave when above it and ydot >= deactivate
  Topology& topology = nonSmoothDynamicalSystem().topologyMutable();
  const auto& osi = static_cast<const MoreauJeanDirectProjectionOSI&>(*integrators_.front());
  const double h = timeStep();
  const std::set<const UnitaryRelation*> before = [&] {
    std::set<const UnitaryRelation*> s;
    for (const auto& ur : topology.indexSet(1)) s.insert(ur.get());
    return s;
  }();
  IndexSet active;
  for (const auto& ur : topology.indexSet(0)) {
    const Interaction& inter = ur->interaction();
    if (!isUnilateral(inter)) {
      active.push_back(ur);
      continue;
    }
    const std::size_t normal = ur->relativePosition();
    const double y = inter.y(0)(normal), ydot = inter.y(1)(normal);
    const double predicted = y + kActivationGamma * h * ydot;
    const bool wasActive = before.count(ur.get()) != 0;
    const bool leave =
        predicted > osi.activateThreshold() && ydot >= osi.deactivateVelocityThreshold();
    const bool enter = predicted <= osi.activateThreshold();
    if (wasActive ? !leave : enter) active.push_back(ur);
  }
  topology.setIndexSet(1, std::move(active));
  topology.setIndexSet(2, IndexSet());
}

bool TimeSteppingDirectProjection::violated(const IndexSet& set) const {
  for (const auto& ur : set) {
    const Interaction& inter = ur->interaction();
    if (isVelocityRow(inter)) continue;
    const SiconosVector y = ur->y(0);
    if (isUnilateral(inter)) {
      if (std::max(0.0, -y(0)) > tolUnilateral_) return true;
    } else if (y.normInf() > tolEquality_) {
      return true;
    }
  }
  return false;
}

void TimeSteppingDirectProjection::afterStep(StepStatistics& stats) {
  NonSmoothDynamicalSystem& nsds = nonSmoothDynamicalSystem();
  const double t = nextTime();
  const IndexSet set = nsds.topology().indexSet(1);
  // position offsets of every system in the stacked q
  std::map<int, std::size_t> offset;
  std::size_t nq = 0;
  for (const auto& ds : nsds.dynamicalSystems()) {
    offset[ds->number()] = nq;
    nq += ds->positionSize();
  }
  int it = 0;
  for (;;) {
    // y and dh/dq at the current q
    std::set<Interaction*> seen;
    for (const auto& ur : set)
      if (seen.insert(&ur->interactionMutable()).second) ur->interactionMutable().computeOutput(t);
    if (!violated(set) || it >= maxIterations_) break;
    ++it;
    // rows: the normal row of unilateral relations, every row of the others
    std::vector<std::pair<const UnitaryRelation*, std::size_t>> rows;
    std::vector<int> isComp;
    for (const auto& ur : set) {
      if (isVelocityRow(ur->interaction())) continue;
      const bool uni = isUnilateral(ur->interaction());
      const std::size_t n = uni ? 1 : ur->size();
      for (std::size_t r = 0; r < n; ++r) {
        rows.emplace_back(ur.get(), ur->relativePosition() + r);
        isComp.push_back(uni ? 1 : 0);
      }
    }
    const std::size_t m = rows.size();
    SimpleMatrix J(m, nq);
    SiconosVector y(m);
    for (std::size_t i = 0; i < m; ++i) {
      const Interaction& inter = rows[i].first->interaction();
      const SimpleMatrix& jq = inter.jacobianQ();
      y(i) = inter.y(0)(rows[i].second);
      for (const auto& ds : inter.dynamicalSystems()) {
        const std::size_t c0 = inter.positionOffsetOf(*ds), g0 = offset.at(ds->number());
        for (std::size_t c = 0; c < ds->positionSize(); ++c)
          J(i, g0 + c) += jq(rows[i].second, c0 + c);
      }
    }
    SimpleMatrix A = J * J.transpose();
    SiconosVector mu(m), w(m);
    NsdProblem problem{};
    problem.kind = NSD_KIND_MLCP;
    problem.mlcp = nsd_mlcp_create_mixed(A.toNsdMatrix().release(), y.data(), isComp.data());
    NsdSolverOptions options;
    nsd_solver_options_default(&options);
    NsdReport report{};
    const NsdStatus status =
        nsd_solve(&problem, solver_.c_str(), mu.data(), w.data(), &options, &report);
    nsd_problem_clear(&problem);
    if (status != NSD_OK) break;
    // q <- q + J^T mu, quaternions renormalised
    const SiconosVector dq = J.transposeTimes(mu);
    for (const auto& ds : nsds.dynamicalSystems()) {
      auto* sds = dynamic_cast<SecondOrderDS*>(ds.get());
      if (sds) sds->correctPosition(dq.segment(offset.at(ds->number()), ds->positionSize()));
    }
  }
  if (violated(set)) ++failures_;
  stats.projectionIterations = it;
  // forces at the projected positions; outputs of every interaction at the new q
  for (const auto& osi : integrators_)
    static_cast<MoreauJeanDirectProjectionOSI&>(*osi).refreshForces(t);
  for (const auto& inter : nsds.interactions()) inter->computeOutputKeepJacobians(t);
}

}  // namespace nsdyn
