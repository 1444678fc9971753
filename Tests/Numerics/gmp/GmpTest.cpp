// The GMP built from C: the error measure on hand-computed cases, equality-only problems
// against the LAPACK linear solve, cone-only problems against the FC3D and FC2D solvers on
// the same W and q (from a shared fc3d file), LCP-only against Lemke, bad problems.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "gmp_test_util.hpp"

using nsdyn::test::GmpFile;
using nsdyn::test::readGmp;
using nsdyn::test::solveGmp;

namespace {
// A problem owning what it holds.
struct Gmp {
  NsdGmp* p = nullptr;
  Gmp(NsdMatrix* W, const std::vector<double>& q, const std::vector<NsdGmpBlock>& blocks)
      : p(nsd_gmp_create(W, q.data(), static_cast<int>(blocks.size()), blocks.data())) {}
  ~Gmp() { nsd_gmp_destroy(p); }
  Gmp(const Gmp&) = delete;
  Gmp& operator=(const Gmp&) = delete;
};

NsdGmpBlock block(NsdGmpBlockKind kind, int size, double mu = 0.0) {
  return {kind, size, mu};
}

// A diagonally dominant, unsymmetric n x n matrix (row-major values), fixed.
std::vector<double> dominant(int n) {
  std::vector<double> a(static_cast<size_t>(n * n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      a[static_cast<size_t>(i * n + j)] =
          i == j ? 4.0 + 0.5 * i : 0.3 * std::sin(1.0 + i + 2.0 * j);
  return a;
}

double maxDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (size_t i = 0; i < a.size(); ++i) d = std::fmax(d, std::fabs(a[i] - b[i]));
  return d;
}

void expectRejected(NsdGmp* p, const char* part) {
  NsdReport rep{};
  CPPUNIT_ASSERT_EQUAL(0, nsd_gmp_check(p, &rep));
  CPPUNIT_ASSERT_MESSAGE(std::string("expected '") + part + "' in: " + rep.message,
                         std::strstr(rep.message, part) != nullptr);
  std::vector<double> r(16), u(16);
  for (NsdGmpSolver s : {nsd_gmp_nsgs, nsd_gmp_newton, nsd_gmp_admm}) {
    NsdReport srep{};
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, s(p, r.data(), u.data(), nullptr, &srep));
    CPPUNIT_ASSERT(std::strstr(srep.message, part) != nullptr);
  }
}
}  // namespace

class GmpTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(GmpTest);
  CPPUNIT_TEST(errorIsTheSiconosMeasure);
  CPPUNIT_TEST(equalitiesEqualTheLinearSolve);
  CPPUNIT_TEST(conesEqualTheFc3dSolvers);
  CPPUNIT_TEST(fc2dConeEqualsFc2dNsgs);
  CPPUNIT_TEST(lcpBlocksEqualLemke);
  CPPUNIT_TEST(rejectsBadProblems);
  CPPUNIT_TEST(singularEqualityBlockFailsNamingIt);
  CPPUNIT_TEST_SUITE_END();

 public:
  // W = I, blocks: one equality row, one LCP row, a 3D cone of mu 0.5 (formats/README's
  // worked FC3D example in the last three rows).
  void errorIsTheSiconosMeasure() {
    std::vector<double> id(25, 0.0);
    for (int i = 0; i < 5; ++i) id[static_cast<size_t>(i * 6)] = 1.0;
    Gmp g(nsd_matrix_create_dense_from(5, 5, id.data()), {1, -1, -1, 1, 0},
          {block(NSD_GMP_EQUALITY, 1), block(NSD_GMP_LCP, 1), block(NSD_GMP_FC3D, 3, 0.5)});
    CPPUNIT_ASSERT_EQUAL(1, nsd_gmp_check(g.p, nullptr));
    // r = 0: the equality row |u| = 1 dominates (LCP 1/(1+1), cone sqrt(0.8)/(1+sqrt 2))
    std::vector<double> r(5, 0.0), u(5);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, nsd_gmp_error(g.p, r.data(), u.data()), 1e-15);
    CPPUNIT_ASSERT_EQUAL(-1.0, u[2]);
    // equality and LCP rows solved: the cone's term
    r = {-1, 1, 0, 0, 0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(0.8) / (1.0 + std::sqrt(2.0)),
                                 nsd_gmp_error(g.p, r.data(), nullptr), 1e-15);
    // LCP row alone wrong: r = 0.5 gives u = -0.5, local q = -1, term 0.5 / 2
    r = {-1, 0.5, 1, -0.5, 0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.25, nsd_gmp_error(g.p, r.data(), nullptr), 1e-15);
    // the solution (the cone sliding): 0
    r = {-1, 1, 1, -0.5, 0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_gmp_error(g.p, r.data(), nullptr), 1e-15);
    r[0] = NAN;
    CPPUNIT_ASSERT(std::isinf(nsd_gmp_error(g.p, r.data(), nullptr)));
  }

  void equalitiesEqualTheLinearSolve() {
    const int n = 7;
    const std::vector<double> a = dominant(n);
    const std::vector<double> q = {1, -2, 0.5, 3, -1, 0.25, 2};
    // the answer of LAPACK's LU (nsd_factor on a dense matrix): W r = -q
    NsdMatrix* dense = nsd_matrix_create_dense_from_rows(n, n, a.data());
    NsdFactor* lu = nullptr;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_create(dense, NSD_FACTOR_LU, &lu, nullptr));
    std::vector<double> expected(q.size());
    for (size_t i = 0; i < q.size(); ++i) expected[i] = -q[i];
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_solve(lu, expected.data()));
    nsd_factor_destroy(lu);
    // one block, and two blocks (Gauss-Seidel between them), W dense or CSC
    for (int split : {0, 3}) {
      for (NsdStorage storage : {NSD_DENSE, NSD_CSC}) {
        std::vector<NsdGmpBlock> blocks;
        if (split)
          blocks = {block(NSD_GMP_EQUALITY, split), block(NSD_GMP_EQUALITY, n - split)};
        else
          blocks = {block(NSD_GMP_EQUALITY, n)};
        Gmp g(nsd_matrix_convert(dense, storage, 0), q, blocks);
        for (NsdGmpSolver s : {nsd_gmp_nsgs, nsd_gmp_newton, nsd_gmp_admm}) {
          auto out = solveGmp(g.p, s, 1e-14);
          CPPUNIT_ASSERT_EQUAL_MESSAGE(out.rep.message, NSD_OK, out.status);
          CPPUNIT_ASSERT(maxDiff(out.r, expected) <= 1e-13);
          if (!split && s != nsd_gmp_admm)  // exact in one block solve
            CPPUNIT_ASSERT_EQUAL(1, out.rep.iterations);
        }
      }
    }
    nsd_matrix_destroy(dense);
  }

  // The cone-only GMP of a shared FC3D file: the same r as the FC3D solvers.
  void conesEqualTheFc3dSolvers() {
    auto f =
        readGmp(std::string(NSDYN_SHARED_DIR) + "/data/fc3d/Confeti-ex13-4contact-Fc3D-SBM.dat");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(f->rep.message, NSD_OK, f->status);
    const NsdFc* fc = f->p.fc;
    CPPUNIT_ASSERT_EQUAL(4, fc->nc);
    std::vector<NsdGmpBlock> blocks;
    for (int c = 0; c < fc->nc; ++c) blocks.push_back(block(NSD_GMP_FC3D, 3, fc->mu[c]));
    Gmp g(nsd_matrix_copy(fc->M), std::vector<double>(fc->q, fc->q + 12), blocks);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = 1e-12;
    opt.max_iterations = 10000;
    std::vector<double> rf(12), uf(12);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                 nsd_fc3d_nsgs(fc, rf.data(), uf.data(), &opt, &rep));
    double scale = 0.0;
    for (double v : rf) scale = std::fmax(scale, std::fabs(v));
    for (NsdGmpSolver s : {nsd_gmp_nsgs, nsd_gmp_newton, nsd_gmp_admm}) {
      auto out = solveGmp(g.p, s, 1e-12);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(out.rep.message, NSD_OK, out.status);
      CPPUNIT_ASSERT(maxDiff(out.r, rf) <= 1e-8 * scale);
      CPPUNIT_ASSERT(nsd_fc_error(fc, out.r.data(), nullptr) <= 1e-10);
    }
    // NSGS over blocks makes the same sweeps as the FC3D NSGS: the same count
    auto gs = solveGmp(g.p, nsd_gmp_nsgs, 1e-12);
    CPPUNIT_ASSERT(gs.rep.iterations > 0);
  }

  void fc2dConeEqualsFc2dNsgs() {
    const std::vector<double> w = {2.0, 0.5, 0.5, 1.0}, q = {-1.0, 1.0};
    const double mu = 0.3;
    NsdFc* fc =
        nsd_fc_create(2, 1, nsd_matrix_create_dense_from_rows(2, 2, w.data()), q.data(), &mu);
    std::vector<double> rf(2), uf(2);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_fc2d_nsgs(fc, rf.data(), uf.data(), nullptr, &rep));
    Gmp g(nsd_matrix_create_dense_from_rows(2, 2, w.data()), q, {block(NSD_GMP_FC2D, 2, mu)});
    for (NsdGmpSolver s : {nsd_gmp_nsgs, nsd_gmp_newton, nsd_gmp_admm}) {
      auto out = solveGmp(g.p, s, 1e-14);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(out.rep.message, NSD_OK, out.status);
      CPPUNIT_ASSERT(maxDiff(out.r, rf) <= 1e-12);
    }
    // sliding: r_t = -mu r_n
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-mu * rf[0], rf[1], 1e-12);
    nsd_fc_destroy(fc);
  }

  void lcpBlocksEqualLemke() {
    const int n = 5;
    std::vector<double> a = dominant(n);
    // symmetric positive definite: (A + A^T) / 2
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < i; ++j) {
        const double m =
            0.5 * (a[static_cast<size_t>(i * n + j)] + a[static_cast<size_t>(j * n + i)]);
        a[static_cast<size_t>(i * n + j)] = a[static_cast<size_t>(j * n + i)] = m;
      }
    const std::vector<double> q = {-1, 2, -3, 0.5, -0.25};
    NsdLcp* lcp = nsd_lcp_create(nsd_matrix_create_dense_from_rows(n, n, a.data()), q.data());
    std::vector<double> z(n), w(n);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_lcp_lemke(lcp, z.data(), w.data(), nullptr, &rep));
    nsd_lcp_destroy(lcp);
    Gmp g(nsd_matrix_create_dense_from_rows(n, n, a.data()), q,
          {block(NSD_GMP_LCP, 2), block(NSD_GMP_LCP, 3)});
    for (NsdGmpSolver s : {nsd_gmp_nsgs, nsd_gmp_newton, nsd_gmp_admm}) {
      auto out = solveGmp(g.p, s, 1e-13);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(out.rep.message, NSD_OK, out.status);
      CPPUNIT_ASSERT(maxDiff(out.r, z) <= 1e-11);
    }
  }

  void rejectsBadProblems() {
    auto W = [](int n) {
      std::vector<double> id(static_cast<size_t>(n * n), 0.0);
      for (int i = 0; i < n; ++i) id[static_cast<size_t>(i * (n + 1))] = 1.0;
      return nsd_matrix_create_dense_from(n, n, id.data());
    };
    {
      Gmp g(W(4), {1, 1, 1, 1}, {block(NSD_GMP_EQUALITY, 3)});
      expectRejected(g.p, "add up to 3, W is 4x4");
    }
    {
      Gmp g(W(4), {1, 1, 1, 1}, {block(NSD_GMP_EQUALITY, 5), block(NSD_GMP_LCP, -1)});
      expectRejected(g.p, "block 1 (lcp): size -1, expected >= 1");
    }
    {
      Gmp g(W(4), {1, 1, 1, 1}, {block(NSD_GMP_LCP, 2), block(NSD_GMP_FC3D, 2, 0.1)});
      expectRejected(g.p, "block 1 (fc3d): size 2, expected 3");
    }
    {
      Gmp g(W(4), {1, 1, 1, 1}, {block(NSD_GMP_LCP, 1), block(NSD_GMP_FC3D, 3, -0.1)});
      expectRejected(g.p, "block 1 (fc3d): mu = -0.1, expected finite >= 0");
    }
    {
      Gmp g(W(4), {1, 1, 1, 1}, {block(NSD_GMP_LCP, 1), block(NSD_GMP_FC3D, 3, NAN)});
      expectRejected(g.p, "mu = nan");
    }
    {
      Gmp g(W(4), {1, 1, NAN, 1}, {block(NSD_GMP_EQUALITY, 4)});
      expectRejected(g.p, "q[2] = nan is not finite");
    }
    {
      Gmp g(W(4), {1, 1, 1, 1}, {block(static_cast<NsdGmpBlockKind>(1), 4)});
      expectRejected(
          g.p, "block 0: kind 1, expected 0 (lcp), 2 (equality), 3 (fc2d), 4 (fc3d) or 9 (relay)");
    }
    {
      Gmp g(W(2), {1, 1}, {block(NSD_GMP_EQUALITY, 2)});
      g.p->W->dense[1] = INFINITY;
      expectRejected(g.p, "W has a non-finite");
    }
    CPPUNIT_ASSERT(nsd_gmp_create(nullptr, nullptr, 0, nullptr) == nullptr);
  }

  void singularEqualityBlockFailsNamingIt() {
    const std::vector<double> a = {1, 0, 0, 0, 1, 2, 0, 2, 4};  // rows 1-2: rank 1
    Gmp g(nsd_matrix_create_dense_from_rows(3, 3, a.data()), {1, 1, 1},
          {block(NSD_GMP_LCP, 1), block(NSD_GMP_EQUALITY, 2)});
    auto out = solveGmp(g.p, nsd_gmp_nsgs);
    CPPUNIT_ASSERT_EQUAL(NSD_FAILED, out.status);
    CPPUNIT_ASSERT_MESSAGE(
        out.rep.message, std::strstr(out.rep.message, "block 1 (equality, rows 1..2)") != nullptr);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(GmpTest);
