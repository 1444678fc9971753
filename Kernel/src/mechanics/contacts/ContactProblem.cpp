// FrictionContact(3) over the contacts of a ContactManager: q = J v_free (+ e u_n,k)
// (+ the stabilisation bias of the normal row, ContactSet::bias),
// the operator J M^-1 J^T factored (APGD) or assembled sparse-block (other solvers).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "../Threads.hpp"
#include "ContactPattern.hpp"
#include "ContactSolution.hpp"
#include "nsdyn/ContactSet.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/FrictionContact.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/OneStepIntegrator.hpp"
#include "nsdyn/nsd_fc.h"
#include "nsdyn/nsd_options.h"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

namespace {

constexpr int kDof = 6;  // twist of a body

/// y[3] += B x for a 3x6 row-major block B.
inline void addBlockTimes(const double* B, const double* x, double* y) {
  for (int i = 0; i < 3; ++i) {
    double s = 0.0;
    for (int j = 0; j < kDof; ++j) s += B[kDof * i + j] * x[j];
    y[i] += s;
  }
}

/// C (3x3, column-major) += A Minv B^T, A and B 3x6 row-major, Minv 6x6 column-major.
inline void addCoupling(const double* A, const double* Minv, const double* B, double* C) {
  double AM[3][kDof];  // A Minv
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < kDof; ++j) {
      double s = 0.0;
      for (int k = 0; k < kDof; ++k) s += A[kDof * i + k] * Minv[kDof * j + k];
      AM[i][j] = s;
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < kDof; ++k) s += AM[i][k] * B[kDof * j + k];
      C[3 * j + i] += s;
    }
}

struct MatrixHolder {
  NsdMatrix* m = nullptr;
  ~MatrixHolder() { nsd_matrix_destroy(m); }
};

/// W = J M^-1 J^T over the active contacts @p act, sparse-block: one 3x3 block per
/// pair of active contacts sharing a dynamic body (blocks column-major).
NsdMatrix* assembleDelassus(const ContactSet& cs, const std::vector<std::int32_t>& act,
                            const std::vector<double>& minv, int threads) {
  const int na = static_cast<int>(act.size());
  std::vector<int> rowPtr, colIndex;
  contacts::blockPattern(cs, act, threads, rowPtr, colIndex);
  std::vector<int> rowEnd(na);
  for (int a = 0; a < na; ++a) rowEnd[a] = 3 * (a + 1);
  NsdMatrix* W = nsd_matrix_create_sparse_block(na, na, rowEnd.data(), rowEnd.data(), rowPtr.data(),
                                                colIndex.data());
  if (!W)
    throw Error("FrictionContact", "the Delassus matrix of the contacts", "allocation failure");
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (int a = 0; a < na; ++a) {
    const std::size_t ca = static_cast<std::size_t>(act[a]);
    for (int k = rowPtr[a]; k < rowPtr[a + 1]; ++k) {
      const std::size_t cb = static_cast<std::size_t>(act[colIndex[k]]);
      double* blk = nsd_matrix_sbm_block(W, k);
      for (int s = 0; s < 2; ++s) {
        const int body = s == 0 ? cs.dynA[ca] : cs.dynB[ca];
        if (body < 0) continue;
        const double* Ja = s == 0 ? &cs.jacA[18 * ca] : &cs.jacB[18 * ca];
        const double* M = minv.data() + static_cast<std::size_t>(body) * kDof * kDof;
        if (cs.dynA[cb] == body) addCoupling(Ja, M, &cs.jacA[18 * cb], blk);
        if (cs.dynB[cb] == body) addCoupling(Ja, M, &cs.jacB[18 * cb], blk);
      }
    }
  }
  return W;
}

}  // namespace

StepStatistics FrictionContact::computeContacts(ContactSet& cs, double /*tk1*/) {
  if (dim_ != 3)
    throw Error("FrictionContact(" + std::to_string(dim_) + ")",
                "dimension 3 for detected contacts", "dimension 2");
  StepStatistics stats;
  stats.solver = solverName_;
  // active contacts, in key order
  const std::vector<std::int32_t> act = contacts::activeContacts(cs, false);
  const int na = static_cast<int>(act.size());
  stats.activeRelations = act.size();
  stats.problemSize = 3 * act.size();
  if (na == 0) {
    lastQ_ = lastZ_ = lastW_ = SiconosVector();
    return stats;
  }
  const int nb = static_cast<int>(cs.systems.size());
  const int threads =
      mechanics::threadsFor(options_.threads, std::max<std::size_t>(act.size(), cs.systems.size()));
  (void)threads;

  // 1. M^-1 (6x6 column-major, from the integrator's W) of the bodies the active
  //    contacts touch; the others keep a zero block (their Jacobian columns are zero)
  std::vector<double> minv;
  std::vector<const SiconosVector*> vfree;
  contacts::bodyInverses(cs, act, lookup_, threads, minv, vfree);

  // 2. q = J v_free, + e u_n,k on the normal rows; mu; warm start
  SiconosVector q(3 * na), z(3 * na), w(3 * na);
  std::vector<double> mu(na);
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (int a = 0; a < na; ++a) {
    const std::size_t c = static_cast<std::size_t>(act[a]);
    double u[3] = {0.0, 0.0, 0.0};
    if (cs.dynA[c] >= 0) addBlockTimes(&cs.jacA[18 * c], vfree[cs.dynA[c]]->data(), u);
    if (cs.dynB[c] >= 0) addBlockTimes(&cs.jacB[18 * c], vfree[cs.dynB[c]]->data(), u);
    u[0] += cs.restitution[c] * cs.velocityStart[3 * c];
    if (c < cs.bias.size() && cs.bias[c] != 0.0)
      u[0] += cs.bias[c];  // stabilisation (ContactManager)
    for (int k = 0; k < 3; ++k) {
      q(3 * a + k) = u[k];
      z(3 * a + k) = warmStart_ ? cs.impulse[3 * c + k] : 0.0;
    }
    mu[a] = cs.mu[c];
  }

  NsdSolverOptions options = options_;
  options.warm_start = passWarmStart() ? 1 : 0;
  NsdReport report{};
  NsdStatus status = NSD_OK;

  if (solverName_ == "apgd") {
    // 3a. factored operator: J (na x nb blocks of 3x6), M^-1 block diagonal
    std::vector<int> rowEnd(na), colEnd(nb), rowPtr(na + 1, 0), colIndex;
    for (int a = 0; a < na; ++a) rowEnd[a] = 3 * (a + 1);
    for (int b = 0; b < nb; ++b) colEnd[b] = kDof * (b + 1);
    colIndex.reserve(2 * static_cast<std::size_t>(na));
    for (int a = 0; a < na; ++a) {
      const std::size_t c = static_cast<std::size_t>(act[a]);
      if (cs.dynA[c] >= 0) colIndex.push_back(cs.dynA[c]);
      if (cs.dynB[c] >= 0) colIndex.push_back(cs.dynB[c]);
      rowPtr[a + 1] = static_cast<int>(colIndex.size());
    }
    MatrixHolder J, Minv;
    J.m = nsd_matrix_create_sparse_block(na, nb, rowEnd.data(), colEnd.data(), rowPtr.data(),
                                         colIndex.data());
    std::vector<int> diagPtr(nb + 1), diagIndex(nb);
    for (int b = 0; b <= nb; ++b) diagPtr[b] = b;
    for (int b = 0; b < nb; ++b) diagIndex[b] = b;
    Minv.m = nsd_matrix_create_sparse_block(nb, nb, colEnd.data(), colEnd.data(), diagPtr.data(),
                                            diagIndex.data());
    if (!J.m || !Minv.m)
      throw Error("FrictionContact", "the contact Jacobian", "allocation failure");
    NSD_OMP(omp parallel for schedule(static) num_threads(threads))
    for (int a = 0; a < na; ++a) {
      const std::size_t c = static_cast<std::size_t>(act[a]);
      int k = rowPtr[a];
      for (int side = 0; side < 2; ++side) {
        const int body = side == 0 ? cs.dynA[c] : cs.dynB[c];
        if (body < 0) continue;
        const double* src = side == 0 ? &cs.jacA[18 * c] : &cs.jacB[18 * c];
        double* dst = nsd_matrix_sbm_block(J.m, k++);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < kDof; ++j) dst[3 * j + i] = src[kDof * i + j];  // column-major
      }
    }
    for (int b = 0; b < nb; ++b)
      std::copy(minv.begin() + static_cast<std::ptrdiff_t>(b) * kDof * kDof,
                minv.begin() + static_cast<std::ptrdiff_t>(b + 1) * kDof * kDof,
                nsd_matrix_sbm_block(Minv.m, b));
    if (!dumpSteps_.empty()) {
      NsdProblem dump{};
      dump.kind = NSD_KIND_FC3D;
      dump.fc = nsd_fc_create(3, na, assembleDelassus(cs, act, minv, threads), q.data(), mu.data());
      if (dump.fc) dumpIfAsked(dump);
      nsd_problem_clear(&dump);
    }
    NsdDelassus op{};
    status = nsd_delassus_factored(J.m, Minv.m, options.threads, &op, &report);
    if (status == NSD_OK) {
      status =
          nsd_fc3d_apgd_operator(&op, q.data(), mu.data(), z.data(), w.data(), &options, &report);
      if (status != NSD_OK && options.warm_start && retries() &&
          report.iterations < options.max_iterations) {
        // the De Saxcé fixed point can stall from a warm start that a cold start
        // avoids: one retry from 0 within what is left of the budget (APGD also retries
        // cold inside its budget; iterations and time of both reported)
        const int firstIterations = report.iterations;
        const double firstSeconds = report.seconds;
        z.zero();
        options.warm_start = 0;
        options.max_iterations -= firstIterations;
        status =
            nsd_fc3d_apgd_operator(&op, q.data(), mu.data(), z.data(), w.data(), &options, &report);
        report.iterations += firstIterations;
        report.seconds += firstSeconds;
        options.max_iterations += firstIterations;  // the fallback's budget as before
        ++stats.coldRestarts;
      }
      nsd_delassus_factored_free(&op);
    }
    if (status != NSD_OK && status != NSD_BAD_INPUT && !fallbackSolver_.empty() &&
        fallbackSolver_ != solverName_ && retries()) {
      // the fallback needs W assembled (see OneStepNSProblem::setFallbackSolver)
      NsdProblem problem{};
      problem.kind = NSD_KIND_FC3D;
      problem.fc =
          nsd_fc_create(3, na, assembleDelassus(cs, act, minv, threads), q.data(), mu.data());
      if (problem.fc) {
        bool finite = true;
        for (std::size_t i = 0; i < z.size(); ++i) finite = finite && std::isfinite(z(i));
        if (!finite) z.zero();
        const int firstIterations = report.iterations;
        const double firstSeconds = report.seconds;
        NsdSolverOptions fallback = options;
        nsd_options_restrict(&fallback, nsd_solver_find(NSD_KIND_FC3D, fallbackSolver_.c_str()));
        fallback.warm_start = finite ? 1 : 0;
        boundFallback(fallback, firstSeconds);
        status =
            nsd_solve(&problem, fallbackSolver_.c_str(), z.data(), w.data(), &fallback, &report);
        report.iterations += firstIterations;
        report.seconds += firstSeconds;
        stats.fallbacks = 1;
      }
      nsd_problem_clear(&problem);
    }
  } else {
    NsdMatrix* W = assembleDelassus(cs, act, minv, threads);
    NsdProblem problem{};
    problem.kind = NSD_KIND_FC3D;
    problem.fc = nsd_fc_create(3, na, W, q.data(), mu.data());
    if (!problem.fc) {
      nsd_matrix_destroy(W);
      throw Error("FrictionContact", "a friction problem of " + std::to_string(na) + " contacts",
                  "out of memory");
    }
    dumpIfAsked(problem);
    status = solveNumerics(problem, z.data(), w.data(), options, report);
    stats.fallbacks = fallbackUsed_ ? 1 : 0;
    nsd_problem_clear(&problem);
  }

  // 4. impulses back (a non-finite answer is dropped), statistics
  contacts::writeBack(cs, act, 3, z, w);
  contacts::recordSolve(stats, judge(status, stats), report, solverName_, fallbackSolver_);
  lastM_ = SimpleMatrix();
  lastQ_ = std::move(q);
  lastZ_ = std::move(z);
  lastW_ = std::move(w);
  return stats;
}

}  // namespace nsdyn
