// GenericMechanical: joints, unilateral rows, friction, motors and detected contacts in
// one generic mechanical problem (Numerics GMP), assembled sparse-block.
#include "nsdyn/GenericMechanical.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "nsdyn/ContactSet.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/JointAxisR.hpp"
#include "nsdyn/MixedComplementarityConditionNSL.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/NewtonImpactFrictionNSL.hpp"
#include "nsdyn/OneStepIntegrator.hpp"
#include "nsdyn/RelayNSL.hpp"
#include "nsdyn/nsd_gmp.h"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

namespace {

constexpr std::size_t kDof = 6;  // twist of a body

/// Block (i, j) of W, row/column blocks: the unitary relations, then the contacts.
using BlockMap = std::map<std::pair<std::size_t, std::size_t>, SimpleMatrix>;

void addTo(BlockMap& blocks, std::size_t i, std::size_t j, const SimpleMatrix& value) {
  auto it = blocks.find({i, j});
  if (it == blocks.end())
    blocks.emplace(std::make_pair(i, j), value);
  else
    it->second += value;
}

/// The 3x6 row-major Jacobian block of a contact side, as a SimpleMatrix.
SimpleMatrix contactJacobian(const double* J) {
  SimpleMatrix m(3, kDof);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t k = 0; k < kDof; ++k) m(i, k) = J[kDof * i + k];
  return m;
}

}  // namespace

GenericMechanical::GenericMechanical(std::string solverName)
    : OneStepNSProblem(std::move(solverName)) {}

void GenericMechanical::checkRelation(const UnitaryRelation& ur) const {
  const NonSmoothLaw& law = ur.interaction().nonSmoothLaw();
  switch (law.kind()) {
    case NonSmoothLawKind::Equality:
    case NonSmoothLawKind::NewtonImpact:
    case NonSmoothLawKind::Complementarity:
    case NonSmoothLawKind::MixedComplementarity:
    case NonSmoothLawKind::Relay:
      return;
    case NonSmoothLawKind::NewtonImpactFriction:
      if (law.size() == 2 || law.size() == 3) return;
      throw Error("GenericMechanical", "friction laws of dimension 2 or 3",
                  ur.interaction().name() + " of dimension " + std::to_string(law.size()));
    default:
      break;
  }
  throw Error("GenericMechanical",
              "EqualityConditionNSL, NewtonImpactNSL, ComplementarityConditionNSL, "
              "MixedComplementarityConditionNSL, NewtonImpactFrictionNSL or RelayNSL relations",
              ur.interaction().name() + " (" + law.className() + ")");
}

StepStatistics GenericMechanical::compute(const Topology& topology, const IndexSet& active,
                                          double tk1, ContactSet* contacts) {
  StepStatistics stats;
  stats.solver = solverName_;
  blocks_.clear();
  lower_.clear();
  upper_.clear();

  // 1. rows: the active unitary relations, then the active contacts (key order)
  const std::size_t nr = active.size();
  std::vector<std::size_t> offset, sizes;
  std::size_t n = 0;
  for (std::size_t k = 0; k < nr; ++k) {
    offset.push_back(n);
    sizes.push_back(active[k]->size());
    n += active[k]->size();
  }
  std::vector<std::size_t> act;
  if (contacts) {
    for (std::size_t c = 0; c < contacts->size(); ++c) {
      if (contacts->active[c]) {
        act.push_back(c);
        offset.push_back(n);
        sizes.push_back(3);
        n += 3;
      } else {
        for (int k = 0; k < 3; ++k) contacts->impulse[3 * c + k] = 0.0;
      }
    }
  }
  const std::size_t na = act.size();
  stats.activeRelations = nr + na;
  stats.problemSize = n;
  SiconosVector z(n);
  if (warmStart_) {
    for (std::size_t k = 0; k < nr; ++k) z.setSegment(offset[k], active[k]->lambda(level_));
    for (std::size_t a = 0; a < na; ++a)
      for (std::size_t k = 0; k < 3; ++k) z(offset[nr + a] + k) = contacts->impulse[3 * act[a] + k];
  }
  for (const auto& ur : topology.indexSet(0)) ur->setLambda(level_, SiconosVector(ur->size()));
  if (n == 0) {
    lastM_ = SimpleMatrix();
    lastQ_ = lastZ_ = lastW_ = SiconosVector();
    return stats;
  }

  // 2. q and the GMP blocks of the relations (one equality block per run of
  //    equality rows of one interaction); motors: q -= target, bounds +-maxForce h
  SiconosVector q(n);
  lower_.assign(n, 0.0);
  upper_.assign(n, 0.0);
  for (std::size_t k = 0; k < nr; ++k) {
    const UnitaryRelation& ur = *active[k];
    const Interaction& inter = ur.interaction();
    const OneStepIntegrator* osi = lookup_(*inter.dynamicalSystems().front());
    h_ = osi->timeStep();
    SiconosVector qk = osi->computeFreeOutput(ur, tk1);
    const NonSmoothLaw& law = inter.nonSmoothLaw();
    const std::size_t at = offset[k];
    switch (law.kind()) {
      case NonSmoothLawKind::Equality: {
        const bool extend = k > 0 && &active[k - 1]->interaction() == &inter && !blocks_.empty() &&
                            blocks_.back().kind == NSD_GMP_EQUALITY;
        if (extend)
          blocks_.back().size += static_cast<int>(ur.size());
        else
          blocks_.push_back({NSD_GMP_EQUALITY, static_cast<int>(ur.size()), 0.0});
        break;
      }
      case NonSmoothLawKind::MixedComplementarity: {
        const auto& mixed = static_cast<const MixedComplementarityConditionNSL&>(law);
        for (std::size_t i = 0; i < ur.size(); ++i)
          blocks_.push_back({mixed.isComplementarityRow(ur.relativePosition() + i)
                                 ? NSD_GMP_LCP
                                 : NSD_GMP_EQUALITY,
                             1, 0.0});
        break;
      }
      case NonSmoothLawKind::NewtonImpactFriction:
        blocks_.push_back({ur.size() == 3 ? NSD_GMP_FC3D : NSD_GMP_FC2D,
                           static_cast<int>(ur.size()),
                           static_cast<const NewtonImpactFrictionNSL&>(law).mu()});
        break;
      case NonSmoothLawKind::Relay: {
        blocks_.push_back({NSD_GMP_RELAY, static_cast<int>(ur.size()), 0.0});
        const auto& relay = static_cast<const RelayNSL&>(law);
        const auto* axis = dynamic_cast<const JointAxisR*>(&inter.relation());
        for (std::size_t i = 0; i < ur.size(); ++i) {
          if (axis && axis->isMotor()) {
            const double bound = axis->maxForce() * osi->timeStep();
            lower_[at + i] = -bound;
            upper_[at + i] = bound;
            qk(i) -= axis->targetVelocity(tk1);
          } else {
            lower_[at + i] = relay.lb();
            upper_[at + i] = relay.ub();
          }
        }
        break;
      }
      default:  // NewtonImpact, Complementarity: LCP rows
        blocks_.push_back({NSD_GMP_LCP, static_cast<int>(ur.size()), 0.0});
        break;
    }
    q.setSegment(at, qk);
  }

  // 3. W blocks between relations (as OneStepNSProblem::compute)
  BlockMap blocks;
  std::map<const Interaction*, std::vector<std::size_t>> activeOf;
  for (std::size_t k = 0; k < nr; ++k) activeOf[&active[k]->interaction()].push_back(k);
  for (std::size_t a = 0; a < nr; ++a) {
    const UnitaryRelation& ura = *active[a];
    std::set<std::size_t> partners;
    for (const auto& ds : ura.interaction().dynamicalSystems())
      for (const auto& inter : topology.interactionsOf(*ds)) {
        auto it = activeOf.find(inter.get());
        if (it != activeOf.end()) partners.insert(it->second.begin(), it->second.end());
      }
    for (std::size_t b : partners) {
      const UnitaryRelation& urb = *active[b];
      SimpleMatrix block(ura.size(), urb.size());
      for (const auto& ds : topology.commonSystems(ura, urb))
        block += lookup_(*ds)->computeDelassusBlock(ura, urb, *ds, tk1);
      if (&ura.interaction() == &urb.interaction())
        ura.interaction().relation().addSelfCoupling(block, ura, urb, tk1);
      blocks.emplace(std::make_pair(a, b), std::move(block));
    }
  }

  // 4. contacts: q = J v_free + e u_n,k + bias; W⁻¹ J_cᵀ of each side; coupling with the
  //    contacts and the relations sharing the body
  if (na > 0) {
    ContactSet& cs = *contacts;
    // by body index (a deterministic order of the sums)
    std::map<std::int32_t, SimpleMatrix> minv;  // W⁻¹ of the touched bodies
    std::map<std::int32_t, std::vector<std::pair<std::size_t, SimpleMatrix>>>
        sides;  // body -> (block, J)
    for (std::size_t a = 0; a < na; ++a) {
      const std::size_t c = act[a];
      double u[3] = {0.0, 0.0, 0.0};
      for (int side = 0; side < 2; ++side) {
        const std::int32_t b = side == 0 ? cs.dynA[c] : cs.dynB[c];
        if (b < 0) continue;
        const NewtonEulerDS* body = cs.systems[static_cast<std::size_t>(b)];
        const OneStepIntegrator* osi = lookup_(*body);
        h_ = osi->timeStep();
        if (!minv.count(b)) minv.emplace(b, osi->W(*body).solve(SimpleMatrix::identity(kDof)));
        const double* J = side == 0 ? &cs.jacA[18 * c] : &cs.jacB[18 * c];
        const double* vf = osi->freeState(*body).data();
        for (std::size_t i = 0; i < 3; ++i)
          for (std::size_t k = 0; k < kDof; ++k) u[i] += J[kDof * i + k] * vf[k];
        sides[b].emplace_back(nr + a, contactJacobian(J));
      }
      u[0] += cs.restitution[c] * cs.velocityStart[3 * c];
      if (c < cs.bias.size()) u[0] += cs.bias[c];
      for (std::size_t k = 0; k < 3; ++k) q(offset[nr + a] + k) = u[k];
      blocks_.push_back({NSD_GMP_FC3D, 3, cs.mu[c]});
    }
    for (const auto& [b, list] : sides) {
      const NewtonEulerDS* body = cs.systems[static_cast<std::size_t>(b)];
      const SimpleMatrix& Mi = minv.at(b);
      // relations on this body: their rows' columns of the body
      std::vector<std::pair<std::size_t, SimpleMatrix>> rel;
      for (const auto& inter : topology.interactionsOf(*body)) {
        auto it = activeOf.find(inter.get());
        if (it == activeOf.end()) continue;
        for (std::size_t k : it->second)
          rel.emplace_back(k, active[k]->jacobianRows().block(0, inter->offsetOf(*body),
                                                              active[k]->size(), kDof));
      }
      for (const auto& [ia, Ja] : list) {
        const SimpleMatrix MJt = Mi * Ja.transpose();  // W⁻¹ J_aᵀ (6 x 3)
        for (const auto& [ib, Jb] : list) addTo(blocks, ib, ia, Jb * MJt);
        for (const auto& [k, Hk] : rel) {
          const SimpleMatrix HMJ = Hk * MJt;  // rows of k, columns of contact ia
          addTo(blocks, k, ia, HMJ);
          addTo(blocks, ia, k, HMJ.transpose());
        }
      }
    }
  }

  // 5. W sparse-block (or dense), solve
  NsdMatrixPtr M;
  if (storage_ == MatrixStorage::Dense) {
    lastM_ = SimpleMatrix(n, n);
    for (const auto& [ij, v] : blocks) lastM_.setBlock(offset[ij.first], offset[ij.second], v);
    M = lastM_.toNsdMatrix();
  } else {
    lastM_ = SimpleMatrix();
    const int nb = static_cast<int>(sizes.size());
    std::vector<int> rowEnd(sizes.size()), rowPtr(sizes.size() + 1, 0), colIndex;
    for (int I = 0; I < nb; ++I) rowEnd[I] = static_cast<int>(offset[I] + sizes[I]);
    for (const auto& entry : blocks) {
      ++rowPtr[entry.first.first + 1];
      colIndex.push_back(static_cast<int>(entry.first.second));
    }
    for (int I = 0; I < nb; ++I) rowPtr[I + 1] += rowPtr[I];
    NsdMatrix* m = nsd_matrix_create_sparse_block(nb, nb, rowEnd.data(), rowEnd.data(),
                                                  rowPtr.data(), colIndex.data());
    if (!m) throw Error("GenericMechanical", "a sparse-block W", "allocation failure");
    int k = 0;
    for (const auto& entry : blocks) {
      const SimpleMatrix& v = entry.second;
      std::copy(v.data(), v.data() + v.rows() * v.cols(), nsd_matrix_sbm_block(m, k++));
    }
    M = NsdMatrixPtr(m);
  }
  SiconosVector w(n);
  solveAndRecord(std::move(M), q, active, z, w, stats);

  // 6. lambda back: relations, contacts
  for (std::size_t k = 0; k < nr; ++k) active[k]->setLambda(level_, z.segment(offset[k], sizes[k]));
  for (std::size_t a = 0; a < na; ++a)
    for (std::size_t k = 0; k < 3; ++k) {
      contacts->impulse[3 * act[a] + k] = z(offset[nr + a] + k);
      contacts->velocity[3 * act[a] + k] = w(offset[nr + a] + k);
    }
  return stats;
}

SiconosVector GenericMechanical::reaction(const Interaction& inter) const {
  if (!(h_ > 0.0))
    throw Error("GenericMechanical::reaction", "a step computed first", inter.name());
  SiconosVector r = inter.lambda(1);
  for (std::size_t i = 0; i < r.size(); ++i) r(i) /= h_;
  return r;
}

NsdStatus GenericMechanical::solve(NsdMatrixPtr M, const SiconosVector& q,
                                   const IndexSet& /*active*/, SiconosVector& z, SiconosVector& w,
                                   NsdReport& report) {
  NsdProblem problem{};
  problem.kind = NSD_KIND_GMP;
  problem.gmp =
      nsd_gmp_create(M.release(), q.data(), static_cast<int>(blocks_.size()), blocks_.data());
  if (!problem.gmp || nsd_gmp_set_bounds(problem.gmp, lower_.data(), upper_.data()) != NSD_OK) {
    nsd_problem_clear(&problem);
    return nsd_report_fail(&report, NSD_FAILED, "GMP of size %zu: out of memory", q.size());
  }
  NsdSolverOptions options = options_;
  options.warm_start = passWarmStart() ? 1 : 0;
  const NsdStatus status = solveNumerics(problem, z.data(), w.data(), options, report);
  nsd_problem_clear(&problem);
  return status;
}

}  // namespace nsdyn
