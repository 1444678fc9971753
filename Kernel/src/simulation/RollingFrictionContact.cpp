// RollingFrictionContact: the rolling friction contact problem (Numerics rfc3d) over the
// contacts of a ContactManager: W = J M^-1 J^T with 5x5 blocks (normal, two tangents, two
// rolling rows), q = J v_free (+ e u_n,k + the stabilisation bias on the normal rows).
#include "nsdyn/RollingFrictionContact.hpp"

#include <algorithm>
#include <vector>

#include "../mechanics/Threads.hpp"
#include "../mechanics/contacts/ContactPattern.hpp"
#include "../mechanics/contacts/ContactSolution.hpp"
#include "nsdyn/ContactSet.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/OneStepIntegrator.hpp"
#include "nsdyn/nsd_rfc.h"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

namespace {

constexpr int kDof = 6;  // twist of a body
constexpr int kDim = 5;  // unknowns per contact

/// The 5x6 row-major block of contact @p c on one side: the 3x6 contact block, then the
/// rolling rows (zero on the linear columns, the 2x3 rolling block on the angular ones).
void extendedBlock(const ContactSet& cs, std::size_t c, int side, double* E) {
  const double* J = side == 0 ? &cs.jacA[18 * c] : &cs.jacB[18 * c];
  const double* JR = side == 0 ? &cs.rollA[6 * c] : &cs.rollB[6 * c];
  std::copy(J, J + 18, E);
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 3; ++k) {
      E[kDof * (3 + i) + k] = 0.0;
      E[kDof * (3 + i) + 3 + k] = JR[3 * i + k];
    }
}

/// C (5x5, column-major) += A Minv B^T, A and B 5x6 row-major, Minv 6x6 column-major.
void addCoupling(const double* A, const double* Minv, const double* B, double* C) {
  double AM[kDim][kDof];
  for (int i = 0; i < kDim; ++i)
    for (int j = 0; j < kDof; ++j) {
      double s = 0.0;
      for (int k = 0; k < kDof; ++k) s += A[kDof * i + k] * Minv[kDof * j + k];
      AM[i][j] = s;
    }
  for (int i = 0; i < kDim; ++i)
    for (int j = 0; j < kDim; ++j) {
      double s = 0.0;
      for (int k = 0; k < kDof; ++k) s += AM[i][k] * B[kDof * j + k];
      C[kDim * j + i] += s;
    }
}

/// W = J M^-1 J^T over the active contacts @p act, sparse-block: one 5x5 block per pair of
/// active contacts sharing a dynamic body. A contact without rolling resistance (muR = 0)
/// keeps its coupled rolling rows: Numerics' local solver eliminates them (r_R = 0) and
/// returns their velocities u_R = (W r + q)_R.
NsdMatrix* assemble(const ContactSet& cs, const std::vector<std::int32_t>& act,
                    const std::vector<double>& minv, int threads) {
  const int na = static_cast<int>(act.size());
  std::vector<int> rowPtr, colIndex;
  contacts::blockPattern(cs, act, threads, rowPtr, colIndex);
  std::vector<int> rowEnd(na);
  for (int a = 0; a < na; ++a) rowEnd[a] = kDim * (a + 1);
  NsdMatrix* W = nsd_matrix_create_sparse_block(na, na, rowEnd.data(), rowEnd.data(), rowPtr.data(),
                                                colIndex.data());
  if (!W)
    throw Error("RollingFrictionContact", "the Delassus matrix of the contacts",
                "allocation failure");
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (int a = 0; a < na; ++a) {
    const std::size_t ca = static_cast<std::size_t>(act[a]);
    double Ea[kDim * kDof], Eb[kDim * kDof];
    for (int k = rowPtr[a]; k < rowPtr[a + 1]; ++k) {
      const std::size_t cb = static_cast<std::size_t>(act[colIndex[k]]);
      double* blk = nsd_matrix_sbm_block(W, k);
      for (int s = 0; s < 2; ++s) {
        const int body = s == 0 ? cs.dynA[ca] : cs.dynB[ca];
        if (body < 0) continue;
        extendedBlock(cs, ca, s, Ea);
        const double* M = minv.data() + static_cast<std::size_t>(body) * kDof * kDof;
        for (int t = 0; t < 2; ++t)
          if ((t == 0 ? cs.dynA[cb] : cs.dynB[cb]) == body) {
            extendedBlock(cs, cb, t, Eb);
            addCoupling(Ea, M, Eb, blk);
          }
      }
    }
  }
  return W;
}

}  // namespace

RollingFrictionContact::RollingFrictionContact(std::string solverName)
    : OneStepNSProblem(solverName.empty() ? "nsgs" : std::move(solverName)) {}

void RollingFrictionContact::checkRelation(const UnitaryRelation& ur) const {
  throw Error("RollingFrictionContact", "the contacts of a ContactManager only (no Interactions)",
              ur.interaction().name());
}

NsdStatus RollingFrictionContact::solve(NsdMatrixPtr /*M*/, const SiconosVector& /*q*/,
                                        const IndexSet& active, SiconosVector& /*z*/,
                                        SiconosVector& /*w*/, NsdReport& report) {
  return nsd_report_fail(&report, NSD_BAD_INPUT,
                         "RollingFrictionContact: %zu Interactions, expected the contacts of a "
                         "ContactManager only",
                         active.size());
}

StepStatistics RollingFrictionContact::computeContacts(ContactSet& cs, double /*tk1*/) {
  StepStatistics stats;
  stats.solver = solverName_;
  // active contacts, in key order; the others carry no impulse
  const std::vector<std::int32_t> act = contacts::activeContacts(cs, true);
  const int na = static_cast<int>(act.size());
  stats.activeRelations = act.size();
  stats.problemSize = kDim * act.size();
  if (na == 0) {
    lastQ_ = lastZ_ = lastW_ = SiconosVector();
    return stats;
  }
  const int threads =
      mechanics::threadsFor(options_.threads, std::max<std::size_t>(act.size(), cs.systems.size()));
  (void)threads;

  // 1. M^-1 (6x6 column-major, from the integrator's W) of the bodies the contacts touch
  std::vector<double> minv;
  std::vector<const SiconosVector*> vfree;
  contacts::bodyInverses(cs, act, lookup_, threads, minv, vfree);

  // 2. q = J v_free (+ e u_n,k + bias on the normal rows); mu, mu_r; warm start
  SiconosVector q(kDim * na), z(kDim * na), w(kDim * na);
  std::vector<double> mu(na), muR(na);
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (int a = 0; a < na; ++a) {
    const std::size_t c = static_cast<std::size_t>(act[a]);
    double u[kDim] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (int s = 0; s < 2; ++s) {
      const int body = s == 0 ? cs.dynA[c] : cs.dynB[c];
      if (body < 0) continue;
      double E[kDim * kDof];
      extendedBlock(cs, c, s, E);
      const double* v = vfree[body]->data();
      for (int i = 0; i < kDim; ++i) {
        double sum = 0.0;
        for (int j = 0; j < kDof; ++j) sum += E[kDof * i + j] * v[j];
        u[i] += sum;
      }
    }
    u[0] += cs.restitution[c] * cs.velocityStart[3 * c];
    if (cs.bias[c] != 0.0) u[0] += cs.bias[c];  // stabilisation (ContactManager)
    for (int k = 0; k < kDim; ++k) q(kDim * a + k) = u[k];
    for (int k = 0; k < 3; ++k) z(kDim * a + k) = warmStart_ ? cs.impulse[3 * c + k] : 0.0;
    for (int k = 0; k < 2; ++k)
      z(kDim * a + 3 + k) = warmStart_ ? cs.rollingImpulse[2 * c + k] : 0.0;
    mu[a] = cs.mu[c];
    muR[a] = cs.rolling[c];
  }

  // 3. solve (fallback through solveNumerics)
  NsdProblem problem{};
  problem.kind = NSD_KIND_RFC3D;
  NsdMatrix* W = assemble(cs, act, minv, threads);
  problem.rfc = nsd_rfc_create(kDim, na, W, q.data(), mu.data(), muR.data());
  if (!problem.rfc)
    throw Error("RollingFrictionContact",
                "a rolling friction problem of " + std::to_string(na) + " contacts",
                "out of memory");
  NsdSolverOptions options = options_;
  options.warm_start = passWarmStart() ? 1 : 0;
  NsdReport report{};
  const NsdStatus status = solveNumerics(problem, z.data(), w.data(), options, report);
  stats.fallbacks = fallbackUsed_ ? 1 : 0;
  nsd_problem_clear(&problem);

  // 4. impulses back (a non-finite answer is dropped), statistics
  contacts::writeBack(cs, act, kDim, z, w);
  contacts::recordSolve(stats, judge(status, stats), report, solverName_, fallbackSolver_);
  lastM_ = SimpleMatrix();
  lastQ_ = std::move(q);
  lastZ_ = std::move(z);
  lastW_ = std::move(w);
  return stats;
}

}  // namespace nsdyn
