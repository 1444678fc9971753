// Known answers of every MLCP solver: small problems solved by hand.
#include <cppunit/extensions/HelperMacros.h>

#include <cstdint>
#include <vector>

#include "mlcp_test_util.hpp"

using nsdyn::test::describe;
using nsdyn::test::MlcpSolver;
using nsdyn::test::mlcpSolvers;
using nsdyn::test::TestMlcp;

namespace {

// Accuracy on z: direct solvers are exact up to rounding, iterative ones stop
// at the 1e-8 error tolerance.
double zTolerance(const MlcpSolver& s) {
  std::string name = s.name;
  return name == "enum" || name == "lemke" ? 1e-10 : 1e-6;
}

// Solve with @p s and compare z and w with the expected values.
void expectSolution(const MlcpSolver& s, TestMlcp& t, const std::vector<double>& z,
                    const std::vector<double>& w) {
  NsdStatus st = t.solve(s.solve);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(s.name, t.rep), NSD_OK, st);
  CPPUNIT_ASSERT_MESSAGE(describe(s.name, t.rep), t.rep.residual <= t.opt.tolerance);
  CPPUNIT_ASSERT_EQUAL(std::string("mlcp_") + s.name, std::string(t.rep.solver));
  for (size_t i = 0; i < z.size(); ++i) {
    std::string where = std::string(s.name) + " row " + std::to_string(i);
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(where + " z", z[i], t.z[i], zTolerance(s));
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(where + " w", w[i], t.w[i], 10 * zTolerance(s));
  }
}

// Deterministic pseudo-random numbers in [-1, 1) (64-bit LCG, fixed seed).
class Lcg {
 public:
  explicit Lcg(uint64_t seed) : s_(seed) {}
  double next() {
    s_ = s_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(s_ >> 11) / (double)(1ULL << 52) - 1.0;
  }

 private:
  uint64_t s_;
};

}  // namespace

class MlcpKnownAnswerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MlcpKnownAnswerTest);
  CPPUNIT_TEST(solvesMixedByHand);
  CPPUNIT_TEST(solvesMixedCreatedWithBlocks);
  CPPUNIT_TEST(solvesInterleavedRows);
  CPPUNIT_TEST(solvesWithSparseStorages);
  CPPUNIT_TEST(solvesBoxWithRowAtUpperBound);
  CPPUNIT_TEST(solvesUpperOnlyAndFixedRows);
  CPPUNIT_TEST(solvesShiftedLowerBound);
  CPPUNIT_TEST(solvesPureEqualityAsLinearSystem);
  CPPUNIT_TEST(solvesPureLcpLikeLcpLemke);
  CPPUNIT_TEST_SUITE_END();

 public:
  // One free row u, two complementarity rows v1, v2:
  //   2u + v1 + v2 - 4 = 0,  w1 = -u + v1 + 1,  w2 = -u + v2 - 3.
  // Try v1 = 0, w2 = 0: u = (4 - v2)/2 and v2 = 10/3, so u = 1/3, w1 = 2/3 >= 0.
  void solvesMixedByHand() {
    for (const MlcpSolver& s : mlcpSolvers()) {
      auto t = TestMlcp::mixed(3, {2, 1, 1, -1, 1, 0, -1, 0, 1}, {-4, 1, -3}, {0, 1, 1});
      expectSolution(s, *t, {1.0 / 3, 0, 10.0 / 3}, {0, 2.0 / 3, 0});
    }
  }

  // The same problem through nsd_mlcp_create(n = 1, m = 2, [[A, C], [D, B]], (a; b)).
  void solvesMixedCreatedWithBlocks() {
    const double rows[] = {2, 1, 1, -1, 1, 0, -1, 0, 1}, q[] = {-4, 1, -3};
    for (const MlcpSolver& s : mlcpSolvers()) {
      TestMlcp t(nsd_mlcp_create(1, 2, nsd_matrix_create_dense_from_rows(3, 3, rows), q));
      CPPUNIT_ASSERT_EQUAL(1, t.p->n_eq);
      CPPUNIT_ASSERT_EQUAL(2, t.p->n_comp);
      expectSolution(s, t, {1.0 / 3, 0, 10.0 / 3}, {0, 2.0 / 3, 0});
    }
  }

  // The same problem with its rows and columns in the order (v1, u, v2): the free
  // row sits between complementarity rows.
  void solvesInterleavedRows() {
    for (const MlcpSolver& s : mlcpSolvers()) {
      auto t = TestMlcp::mixed(3, {1, -1, 0, 1, 2, 1, 0, -1, 1}, {1, -4, -3}, {1, 0, 1});
      expectSolution(s, *t, {0, 1.0 / 3, 10.0 / 3}, {2.0 / 3, 0, 0});
    }
  }

  // The hand-solved problem with M stored as CSC and as 1x1 sparse blocks.
  void solvesWithSparseStorages() {
    const double rows[] = {2, 1, 1, -1, 1, 0, -1, 0, 1}, q[] = {-4, 1, -3};
    const int kinds[] = {0, 1, 1};
    for (NsdStorage storage : {NSD_CSC, NSD_SPARSE_BLOCK}) {
      for (const MlcpSolver& s : mlcpSolvers()) {
        NsdMatrix* dense = nsd_matrix_create_dense_from_rows(3, 3, rows);
        NsdMatrix* sparse = nsd_matrix_convert(dense, storage, 1);
        nsd_matrix_destroy(dense);
        CPPUNIT_ASSERT(sparse != nullptr);
        TestMlcp t(nsd_mlcp_create_mixed(sparse, q, kinds));
        expectSolution(s, t, {1.0 / 3, 0, 10.0 / 3}, {0, 2.0 / 3, 0});
      }
    }
  }

  // M = [[2,1,0],[1,2,0],[0,0,1]], q = (-5,-6,3), z in [0,1] x [0,3] x [-1,1].
  // Unbounded minimiser (4/3, 7/3) has z1 > 1: z1 = 1 (upper bound, w1 = -1/2 <= 0),
  // then w2 = 0 gives z2 = 5/2; z3 = -3 is clipped to -1 (lower bound, w3 = 2 >= 0).
  void solvesBoxWithRowAtUpperBound() {
    for (const MlcpSolver& s : mlcpSolvers()) {
      if (std::string(s.name) == "lemke") continue;  // boxes: see MlcpLemkeTest
      auto t = TestMlcp::box(3, {2, 1, 0, 1, 2, 0, 0, 0, 1}, {-5, -6, 3}, {0, 0, -1}, {1, 3, 1});
      expectSolution(s, *t, {1, 2.5, -1}, {-0.5, 0, 2});
    }
  }

  // M = [[1, 0.5],[0.5, 2]], q = (-3, 1); row 0 in (-inf, 2], row 1 fixed at 1.
  // z1 = 1; w0 = z0 + 0.5 - 3 = 0 would need z0 = 2.5 > 2, so z0 = 2 and w0 = -0.5 <= 0;
  // w1 = 1 + 2 + 1 = 4 (unconstrained on a fixed row).
  void solvesUpperOnlyAndFixedRows() {
    for (const MlcpSolver& s : mlcpSolvers()) {
      if (std::string(s.name) == "lemke") continue;  // boxes: see MlcpLemkeTest
      auto t = TestMlcp::box(2, {1, 0.5, 0.5, 2}, {-3, 1}, {-INFINITY, 1}, {2, 1});
      expectSolution(s, *t, {2, 1}, {-0.5, 4});
    }
  }

  // M = [[2,1],[1,2]], q = (-2,-1); row 0 free, row 1 in [1, +inf).
  // Unbounded: u = 1, v = 0 < 1, so v = 1 (lower bound): u = 1/2, w1 = 1/2 + 2 - 1 = 3/2.
  void solvesShiftedLowerBound() {
    for (const MlcpSolver& s : mlcpSolvers()) {
      auto t = TestMlcp::box(2, {2, 1, 1, 2}, {-2, -1}, {-INFINITY, 1}, {INFINITY, INFINITY});
      expectSolution(s, *t, {0.5, 1}, {0, 1.5});
    }
  }

  // All rows free: M z + q = 0 with M = [[4,1,0],[1,3,1],[0,1,2]] and z = (1,-2,3).
  void solvesPureEqualityAsLinearSystem() {
    for (const MlcpSolver& s : mlcpSolvers()) {
      auto t = TestMlcp::mixed(3, {4, 1, 0, 1, 3, 1, 0, 1, 2}, {-2, 2, -4}, {0, 0, 0});
      expectSolution(s, *t, {1, -2, 3}, {0, 0, 0});
    }
  }

  // A pure LCP (every row complementarity), M = G G^T + I/2 of size 8 from a
  // seeded generator: each MLCP solver agrees with nsd_lcp_lemke.
  void solvesPureLcpLikeLcpLemke() {
    const int n = 8;
    Lcg rng(20240601);
    std::vector<double> g(n * n), m(n * n), q(n);
    for (double& x : g) x = rng.next();
    for (double& x : q) x = rng.next();
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double s = i == j ? 0.5 : 0.0;
        for (int k = 0; k < n; ++k) s += g[i * n + k] * g[j * n + k];
        m[i * n + j] = s;
      }

    NsdLcp* lcp = nsd_lcp_create(nsd_matrix_create_dense_from_rows(n, n, m.data()), q.data());
    CPPUNIT_ASSERT(lcp != nullptr);
    std::vector<double> zl(n), wl(n);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    NsdReport rep = NsdReport();
    NsdStatus st = nsd_lcp_lemke(lcp, zl.data(), wl.data(), &opt, &rep);
    nsd_lcp_destroy(lcp);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe("lcp_lemke", rep), NSD_OK, st);

    for (const MlcpSolver& s : mlcpSolvers()) {
      auto t = TestMlcp::mixed(n, m, q, std::vector<int>(n, 1));
      expectSolution(s, *t, zl, wl);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MlcpKnownAnswerTest);
