// Sparse factorisations of the global Newton solvers and of ADMM (issue 12,
// "sparse factorisations that scale"): the factors of W + rho I (CHOLMOD,
// KLU) and of the Newton Jacobian (KLU) are made with a fill-reducing
// ordering, so their non-zeros stay within a stated multiple of W's on
// problems whose natural order would fill in:
//  - a chain of contacts (block tridiagonal W) numbered in a random order:
//    without an ordering its factor fills up to a dense band of width ~nc;
//  - a granular packing (Benchmarks/granular.c) when the generator is built.
// Solutions: ADMM (accelerated, rho balanced by refactorisation only) and
// both Newton methods reach the Siconos error 1e-8 on these problems and on
// shared FC3D files, and a rank-deficient W is handled (W + rho I is SPD).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "fc_newton_test_util.hpp"
#include "friction/fc3d_newton_internal.h"
#include "matrix/matrix_factor_internal.h"
#include "nsdyn/nsd_fc.h"
#ifdef NSDYN_TEST_GRANULAR
#include "granular.h"
#endif

using namespace nsdyn::test;

namespace {

// Multiples of nnz(W) (of nnz(J) for the Jacobian's LU) the factors must stay
// within, with the ratios measured when they were set (a margin kept):
//  - the permuted chain of 400 contacts: Cholesky 0.6, LU 1.1, J 1.1; without an
//    ordering its factors would fill a wide band (a random numbering);
//  - a granular packing of 2,000 contacts: 4.5, 9.2, 9.2 (a 3D packing fills in
//    with any ordering; 5,000 contacts: 5.9, 11.2, 10.7, see doc/benchmarks.md);
//  - Capsules-i125-1213 (shared): see sharedCapsulesFactorsAndSolutions.
struct Multiples {
  double cholesky, lu, jacobian;
};
constexpr Multiples kChain{2.0, 4.0, 4.0};
constexpr Multiples kGranular{7.0, 14.0, 14.0};
constexpr Multiples kCapsules{3.0, 6.0, 6.0};

/// A chain of nc contacts, contact k touching k-1 and k+1, numbered by a random
/// permutation: W = B B^T + (a rank-deficient part), B block bidiagonal.
NsdFc* permutedChain(int nc, unsigned seed, bool rank_deficient) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<int> perm(nc);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), gen);
  const int m = 3 * nc;
  // B: 3x3 blocks (k, k) and (k, k+1) in chain order; W = B B^T, then permuted
  std::vector<std::vector<double>> bdiag(nc, std::vector<double>(9)),
      boff(nc, std::vector<double>(9));
  for (int k = 0; k < nc; ++k)
    for (int t = 0; t < 9; ++t) {
      bdiag[k][t] = d(gen) + (t % 4 == 0 ? 3.0 : 0.0);
      boff[k][t] = 0.5 * d(gen);
    }
  if (rank_deficient)
    for (int k = 0; k < nc; k += 2)
      for (int i = 0; i < 3; ++i) bdiag[k][6 + i] = boff[k][6 + i] = 0.0;  // column 2 of B zero
  // dense W in chain order (small sizes only), W(a,b) = sum_c B(a,c) B(b,c)
  std::vector<double> w(static_cast<size_t>(m) * m, 0.0);
  auto B = [&](int row, int col) -> double {
    const int kr = row / 3, kc = col / 3, i = row % 3, j = col % 3;
    if (kc == kr) return bdiag[kr][i + 3 * j];
    if (kc == kr + 1) return boff[kr][i + 3 * j];
    return 0.0;
  };
  for (int a = 0; a < m; ++a)
    for (int b = std::max(0, a - 6); b < std::min(m, a + 7); ++b) {
      double s = 0.0;
      for (int c = std::max(0, std::min(a, b) - 3); c < std::min(m, std::max(a, b) + 6); ++c)
        s += B(a, c) * B(b, c);
      w[static_cast<size_t>(a) * m + b] = s;
    }
  // permuted, sparse triplets (row-major dense input of the creator is avoided)
  std::vector<int> ti, tj;
  std::vector<double> tx;
  for (int a = 0; a < m; ++a)
    for (int b = 0; b < m; ++b) {
      const double v = w[static_cast<size_t>(a) * m + b];
      if (v != 0.0 || (a / 3 != b / 3 && std::abs(a / 3 - b / 3) == 1)) {
        ti.push_back(3 * perm[a / 3] + a % 3);
        tj.push_back(3 * perm[b / 3] + b % 3);
        tx.push_back(0.5 * (v + w[static_cast<size_t>(b) * m + a]));
      }
    }
  NsdMatrix* M = nsd_matrix_create_csc_from_triplets(m, m, static_cast<int>(ti.size()), ti.data(),
                                                     tj.data(), tx.data());
  NsdMatrix* sbm = nsd_matrix_convert(M, NSD_SPARSE_BLOCK, 3);
  nsd_matrix_destroy(M);
  std::vector<double> q(m), mu(nc, 0.4);
  for (int k = 0; k < nc; ++k) {
    q[3 * k] = -1.0 - 0.5 * d(gen);  // pressed into contact
    q[3 * k + 1] = 0.3 * d(gen);
    q[3 * k + 2] = 0.3 * d(gen);
  }
  return nsd_fc_create(3, nc, sbm, q.data(), mu.data());
}

struct FactorSizes {
  long long w = 0, chol = 0, lu = 0, jac = 0, jac_lu = 0;
};

/// nnz of W, of the Cholesky and LU factors of W + rho I (rho the mean diagonal)
/// and of the Newton (Fischer-Burmeister: non-singular at r = 0, where the
/// Alart-Curnier one often is not) Jacobian and its LU at the point r.
FactorSizes factorSizes(const NsdFc* fc, const std::vector<double>& r) {
  FactorSizes s;
  const int m = 3 * fc->nc;
  NsdMatrix* c = nsd_matrix_convert(fc->M, NSD_CSC, 0);
  CPPUNIT_ASSERT(c != nullptr);
  std::vector<double> diag(m);
  nsd_matrix_diagonal(fc->M, diag.data());
  double rho = 0.0;
  for (double v : diag) rho += v / m;
  // W + rho I from the compressed columns of W plus the diagonal
  std::vector<int> ti, tj;
  std::vector<double> tx;
  const cs_di* w = c->csc;
  for (int j = 0; j < m; ++j) {
    for (int k = w->p[j]; k < w->p[j + 1]; ++k) {
      ti.push_back(w->i[k]);
      tj.push_back(j);
      tx.push_back(w->x[k]);
    }
    ti.push_back(j);
    tj.push_back(j);
    tx.push_back(rho);
  }
  nsd_matrix_destroy(c);
  NsdMatrix* a = nsd_matrix_create_csc_from_triplets(m, m, static_cast<int>(ti.size()), ti.data(),
                                                     tj.data(), tx.data());
  NsdReport rep{};
  NsdFactor* f = nullptr;
  CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                               nsd_factor_create(a, NSD_FACTOR_CHOLESKY, &f, &rep));
  CPPUNIT_ASSERT_EQUAL(std::string("CHOLMOD"), std::string(nsd_factor_backend_name(f)));
  s.chol = nsd_factor_nnz(f);
  nsd_factor_destroy(f);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, nsd_factor_create(a, NSD_FACTOR_LU, &f, &rep));
  // KLU for sparse factors, UMFPACK for dense ones (chosen on KLU's fill estimate)
  const std::string engine = nsd_factor_backend_name(f);
  CPPUNIT_ASSERT_MESSAGE(engine, engine == "KLU" || engine == "UMFPACK");
  s.lu = nsd_factor_nnz(f);
  CPPUNIT_ASSERT_MESSAGE(engine, (engine == "UMFPACK") == (s.lu > 32LL * m));
  nsd_factor_destroy(f);
  nsd_matrix_destroy(a);
  CPPUNIT_ASSERT_EQUAL(0, nsd_fcni_factor_stats(fc, 1, r.data(), &s.w, &s.jac, &s.jac_lu));
  return s;
}

void checkSizes(const FactorSizes& s, const Multiples& k, const std::string& what) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: nnz W %lld, L %lld, L+U %lld, J %lld, LU(J) %lld",
                what.c_str(), s.w, s.chol, s.lu, s.jac, s.jac_lu);
  CPPUNIT_ASSERT_MESSAGE(buf, s.w > 0 && s.chol > 0 && s.lu > 0 && s.jac_lu > 0);
  if (std::getenv("NSDYN_PRINT_FACTORS")) std::printf("\n  %s", buf);
  CPPUNIT_ASSERT_MESSAGE(buf, s.chol <= k.cholesky * s.w);
  CPPUNIT_ASSERT_MESSAGE(buf, s.lu <= k.lu * s.w);
  CPPUNIT_ASSERT_MESSAGE(buf, s.jac_lu <= k.jacobian * s.jac);
}

/// Solve fc with the named solver from r = 0 to 1e-8; returns the report.
NsdReport solveTo1e8(NsdFc* fc, NsdFcSolver fn, const std::string& what, int max_iterations) {
  FcTestProblem t(fc);
  t.opt.tolerance = 1e-8;
  t.opt.max_iterations = max_iterations;
  t.opt.time_limit = 20.0;
  const NsdStatus st = t.solve(fn);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + describe(t.rep), NSD_OK, st);
  CPPUNIT_ASSERT_MESSAGE(what + ": " + describe(t.rep), t.rep.residual <= 1e-8);
  assertConsistent(t, what);
  return t.rep;
}

}  // namespace

class FcSparseFactorTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcSparseFactorTest);
  CPPUNIT_TEST(chainFactorsStaySparse);
  CPPUNIT_TEST(rankDeficientChainSolves);
  CPPUNIT_TEST(granularFactorsStaySparse);
  CPPUNIT_TEST(sharedCapsulesFactorsAndSolutions);
  CPPUNIT_TEST_SUITE_END();

 public:
  void chainFactorsStaySparse() {
    // 400 contacts in a random order: a natural-order factor would hold ~nc^2/4 blocks
    NsdFc* fc = permutedChain(400, 7, false);
    const FactorSizes s = factorSizes(fc, std::vector<double>(3 * fc->nc, 0.0));
    checkSizes(s, kChain, "permuted chain, 400 contacts");
    // a tridiagonal block pattern: W holds at most 27 entries per contact
    CPPUNIT_ASSERT(s.w <= 27LL * fc->nc);
    nsd_fc_destroy(fc);
  }

  void rankDeficientChainSolves() {
    // B with zero columns: W = B B^T singular (rank deficient), W + rho I SPD
    for (const char* name : {"admm", "newton_ac", "newton_fb"}) {
      NsdFc* fc = permutedChain(150, 11, true);
      const NsdFcSolver fn = std::string(name) == "admm" ? nsd_fc3d_admm : newtonSolverByName(name);
      solveTo1e8(fc, fn, std::string("rank-deficient chain x ") + name, 2000);
    }
  }

  void granularFactorsStaySparse() {
#ifdef NSDYN_TEST_GRANULAR
    GranularParams p;
    granular_params_default(&p);
    p.contacts = 2000;
    GranularScene* scene = nullptr;
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, granular_build(&p, &scene, &rep));
    NsdFc* fc = granular_fc(scene);
    granular_destroy(scene);
    CPPUNIT_ASSERT(fc != nullptr);
    checkSizes(factorSizes(fc, std::vector<double>(3 * fc->nc, 0.0)), kGranular,
               "granular, 2000 contacts");
    // and it is solved by the accelerated ADMM and by newton_ac
    NsdFc* copy = nsd_fc_create(3, fc->nc, nsd_matrix_copy(fc->M), fc->q, fc->mu);
    solveTo1e8(fc, nsd_fc3d_admm, "granular 2000 x admm", 10000);
    solveTo1e8(copy, nsd_fc3d_newton_ac, "granular 2000 x newton_ac", 1000);
#endif
  }

  void sharedCapsulesFactorsAndSolutions() {
    // a shared granular file: factors within the multiples, both Newton methods to 1e-8
    const std::string path = sharedFc3dPath("Capsules-i125-1213.hdf5");
    NsdFc* fc = readFc3dFile(path);
    checkSizes(factorSizes(fc, std::vector<double>(3 * fc->nc, 0.0)), kCapsules,
               "Capsules-i125-1213");
    nsd_fc_destroy(fc);
    for (const char* name : {"newton_ac", "newton_fb"})
      solveTo1e8(readFc3dFile(path), newtonSolverByName(name),
                 std::string("Capsules-i125-1213 x ") + name, 1000);
    solveTo1e8(readFc3dFile(path), nsd_fc3d_admm, "Capsules-i125-1213 x admm", 10000);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcSparseFactorTest);
