// TimeSteppingDirectProjection: hysteresis activation and position projection (MECHANICS.md §0.9).
#include "nsdyn/TimeSteppingDirectProjection.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "nsdyn/ContactSet.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/InteractionManager.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
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

namespace {
/// Xi(q) (4 x 3): q' = Xi(q) Omega / 2 for the body angular velocity Omega; row i, column k.
double xi(const double* q, int i, int k) {
  static const int sign[4][3] = {{-1, -1, -1}, {1, -1, 1}, {1, 1, -1}, {-1, 1, 1}};
  static const int index[4][3] = {{1, 2, 3}, {0, 3, 2}, {3, 0, 1}, {2, 1, 0}};
  return sign[i][k] * q[index[i][k]];
}
}  // namespace

// The detected contacts of a ContactManager taking part in the projection: the gap at the
// step's end, linearised from the step start, gap_k + h (θ u_n,k+1 + (1 − θ) u_n,k), and the
// normal row of the contact Jacobian (twist space, at the step start) in q space,
// [J_v, 2 J_Ω Ξ(q)ᵀ] per body (so that it times T(q) = diag(I, Ξ/2) is the twist row).
void TimeSteppingDirectProjection::contactRows(const std::map<int, std::size_t>& offset,
                                               std::size_t nq) {
  contactRows_.clear();
  contactGaps_.clear();
  ContactSet* cs = manager_ ? manager_->contactSet() : nullptr;
  if (!cs) return;
  const double h = timeStep(), theta = integrators_.front()->theta();
  for (std::size_t c = 0; c < cs->size(); ++c) {
    const double un0 = cs->velocityStart[3 * c], un1 = cs->velocity[3 * c];
    const double gap = cs->gap[c] + h * (theta * un1 + (1.0 - theta) * un0);
    if (!cs->active[c] && gap > 0.0) continue;  // neither in the problem nor overlapping
    std::vector<double> row(nq, 0.0);
    for (int side = 0; side < 2; ++side) {
      const int d = side == 0 ? cs->dynA[c] : cs->dynB[c];
      if (d < 0) continue;
      const NewtonEulerDS* body = cs->systems[static_cast<std::size_t>(d)];
      const double* jac = (side == 0 ? cs->jacA.data() : cs->jacB.data()) + 18 * c;  // row 0
      const std::size_t o = offset.at(body->number());
      const double* q = body->q().data() + 3;
      for (int k = 0; k < 3; ++k) row[o + static_cast<std::size_t>(k)] += jac[k];
      for (int i = 0; i < 4; ++i) {
        double s = 0.0;
        for (int k = 0; k < 3; ++k) s += jac[3 + k] * xi(q, i, k);
        row[o + 3 + static_cast<std::size_t>(i)] += 2.0 * s;
      }
    }
    contactRows_.push_back(std::move(row));
    contactGaps_.push_back(gap);
  }
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
  contactRows(offset, nq);
  auto contactsViolated = [&] {
    for (double g : contactGaps_)
      if (std::max(0.0, -g) > tolUnilateral_) return true;
    return false;
  };
  int it = 0;
  for (;;) {
    // y and dh/dq at the current q
    std::set<Interaction*> seen;
    for (const auto& ur : set)
      if (seen.insert(&ur->interactionMutable()).second) ur->interactionMutable().computeOutput(t);
    if ((!violated(set) && !contactsViolated()) || it >= maxIterations_) break;
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
    const std::size_t mi = rows.size(), m = mi + contactRows_.size();
    for (std::size_t c = 0; c < contactRows_.size(); ++c) isComp.push_back(1);
    SimpleMatrix J(m, nq);
    SiconosVector y(m);
    for (std::size_t c = 0; c < contactRows_.size(); ++c) {
      y(mi + c) = contactGaps_[c];
      for (std::size_t k = 0; k < nq; ++k) J(mi + c, k) = contactRows_[c][k];
    }
    for (std::size_t i = 0; i < mi; ++i) {
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
    for (std::size_t c = 0; c < contactRows_.size(); ++c)  // the linearised gaps follow q
      for (std::size_t k = 0; k < nq; ++k) contactGaps_[c] += contactRows_[c][k] * dq(k);
    for (const auto& ds : nsds.dynamicalSystems()) {
      auto* sds = dynamic_cast<SecondOrderDS*>(ds.get());
      if (sds) sds->correctPosition(dq.segment(offset.at(ds->number()), ds->positionSize()));
    }
  }
  if (violated(set) || contactsViolated()) ++failures_;
  stats.projectionIterations = it;
  // forces at the projected positions; outputs of every interaction at the new q
  for (const auto& osi : integrators_)
    static_cast<MoreauJeanDirectProjectionOSI&>(*osi).refreshForces(t);
  for (const auto& inter : nsds.interactions()) inter->computeOutputKeepJacobians(t);
}

}  // namespace nsdyn
