// Lemke on degenerate problems made for its anti-cycling rule (Numerics/src/lcp/lcp_lemke.c):
// ties in the ratio test at the first pivot and at later pivots, degenerate solutions
// (w_i = z_i = 0), game matrices on which a lexicographic rule broken by round-off cycles.
// Every problem is generated here from a seed; the expected answers are known by
// construction (unique for positive definite M) or checked by the LCP error.
#include <cppunit/extensions/HelperMacros.h>

#include <cstdint>
#include <string>
#include <vector>

#include "lcp_cases.hpp"

using namespace nsdyn::test;

namespace {

/// Small deterministic generator (64-bit LCG, high bits), the same on every platform.
struct Lcg {
  std::uint64_t s;
  explicit Lcg(std::uint64_t seed) : s(seed) {}
  int below(int k) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((s >> 33) % static_cast<std::uint64_t>(k));
  }
};

/// A 40x40 LCP of a two-player game in the form Lemke meets in practice: strategies of
/// the two players (16 each) with payoffs 1..250 against the other player, ones against
/// the own player, and 8 groups of 4 strategies each with a multiplier u_g (row 32+g:
/// w = -sum of the group's z + q). q = (qa for the 32 strategy rows, qb for the groups).
/// With qb = 0 every group row is degenerate from the start and the ratio test ties at
/// most pivots. A solution exists for qb >= 0: z = 0 on the strategies, u_g = -qa.
std::unique_ptr<TestLcp> game(std::uint64_t seed, double qa, double qb) {
  Lcg g(seed);
  const int n = 40;
  std::vector<double> m(static_cast<size_t>(n * n), 0.0), q(static_cast<size_t>(n), 0.0);
  for (int i = 0; i < 32; ++i) {
    for (int j = 0; j < 32; ++j) {
      const bool same = (i < 16) == (j < 16);
      m[static_cast<size_t>(i * n + j)] = same ? 1.0 : 1.0 + g.below(250);
    }
    m[static_cast<size_t>(i * n + 32 + i / 4)] = 1.0;
    q[static_cast<size_t>(i)] = qa;
  }
  for (int grp = 0; grp < 8; ++grp) {
    for (int k = 0; k < 4; ++k) m[static_cast<size_t>((32 + grp) * n + 4 * grp + k)] = -1.0;
    q[static_cast<size_t>(32 + grp)] = qb;
  }
  return std::make_unique<TestLcp>(m, q);
}

/// An LCP with a chosen solution (z*, w*) where about a third of the indices have
/// z*_i = w*_i = 0 (degenerate), M = A^T A + shift I with small integer A (so entries of
/// q repeat and the ratio test ties exactly), q = w* - M z*. shift > 0: M positive
/// definite, the solution is unique.
struct Planted {
  std::unique_ptr<TestLcp> lcp;
  std::vector<double> z;
};
Planted planted(std::uint64_t seed, int n, double shift) {
  Lcg g(seed);
  std::vector<int> a(static_cast<size_t>(n * n));
  for (int& v : a) v = g.below(3) - 1;
  std::vector<double> m(static_cast<size_t>(n * n), 0.0), z(static_cast<size_t>(n)),
      w(static_cast<size_t>(n)), q(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double v = i == j ? shift : 0.0;
      for (int k = 0; k < n; ++k)
        v += a[static_cast<size_t>(k * n + i)] * a[static_cast<size_t>(k * n + j)];
      m[static_cast<size_t>(i * n + j)] = v;
    }
  for (int i = 0; i < n; ++i) {
    const int kind = g.below(3);
    z[static_cast<size_t>(i)] = kind == 0 ? g.below(3) : 0.0;
    w[static_cast<size_t>(i)] = kind == 1 ? g.below(3) : 0.0;
  }
  for (int i = 0; i < n; ++i) {
    double v = w[static_cast<size_t>(i)];
    for (int j = 0; j < n; ++j) v -= m[static_cast<size_t>(i * n + j)] * z[static_cast<size_t>(j)];
    q[static_cast<size_t>(i)] = v;
  }
  return {std::make_unique<TestLcp>(m, q), z};
}

}  // namespace

class LcpLemkeDegenerateTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LcpLemkeDegenerateTest);
  CPPUNIT_TEST(tiesAtTheFirstPivot);
  CPPUNIT_TEST(degenerateGamesTerminate);
  CPPUNIT_TEST(nondegenerateGamesAreShort);
  CPPUNIT_TEST(plantedDegenerateSolutionsAreFound);
  CPPUNIT_TEST(plantedSemidefiniteProblemsSolve);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// q = -1 everywhere on a positive definite M: every row ties in the first ratio test
  /// and the lexicographic rule (rows of B^-1 = I) must pick one; unique solution of
  /// (I + 1 1^T) z = 1: z = 1 / (n + 1).
  void tiesAtTheFirstPivot() {
    for (int n : {2, 5, 17, 40}) {
      std::vector<double> m(static_cast<size_t>(n * n), 1.0), q(static_cast<size_t>(n), -1.0);
      for (int i = 0; i < n; ++i) m[static_cast<size_t>(i * n + i)] = 2.0;
      TestLcp t(m, q);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_OK, t.solve(nsd_lcp_lemke));
      for (int i = 0; i < n; ++i)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 / (n + 1), t.z[static_cast<size_t>(i)], 1e-13);
      CPPUNIT_ASSERT(t.rep.iterations <= n + 1);
      assertSolves(t, 1e-12);
    }
  }

  /// The game LCPs with degenerate group rows (qb = 0): before the tie test was scaled to
  /// the tableau's round-off and the tableau reinverted, 153 of 200 of these hit the pivot
  /// cap (1e5 pivots); exact rational arithmetic with the same rule needs 289-809 pivots.
  void degenerateGamesTerminate() {
    int worst = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      auto t = game(seed, -1.0, 0.0);
      t->opt.max_iterations = 100000;
      const NsdStatus st = t->solve(nsd_lcp_lemke);
      CPPUNIT_ASSERT_EQUAL_MESSAGE("seed " + std::to_string(seed) + ": " + describe(t->rep), NSD_OK,
                                   st);
      assertSolves(*t, 1e-9);
      worst = std::max(worst, t->rep.iterations);
    }
    // measured: at most 2,145 pivots over 2,000 seeds (53 n)
    CPPUNIT_ASSERT_MESSAGE("worst pivots " + std::to_string(worst), worst <= 5000);
  }

  /// With qb > 0 the group rows are not degenerate and Lemke is short.
  void nondegenerateGamesAreShort() {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      auto t = game(seed, -1.0, 1.0);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t->rep), NSD_OK, t->solve(nsd_lcp_lemke));
      assertSolves(*t, 1e-10);
      CPPUNIT_ASSERT(t->rep.iterations <= 40);
    }
  }

  /// Positive definite M, planted degenerate solution: Lemke finds exactly it.
  void plantedDegenerateSolutionsAreFound() {
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      const int n = 2 + static_cast<int>(seed % 39);
      Planted p = planted(seed, n, 1.0);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(p.lcp->rep), NSD_OK, p.lcp->solve(nsd_lcp_lemke));
      for (int i = 0; i < n; ++i)
        CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(
            "seed " + std::to_string(seed) + " z[" + std::to_string(i) + "]",
            p.z[static_cast<size_t>(i)], p.lcp->z[static_cast<size_t>(i)], 1e-9);
      assertSolves(*p.lcp, 1e-10);
    }
  }

  /// Positive semidefinite, often singular M (no shift; copositive-plus and feasible by
  /// construction): Lemke must end at a solution, not at a ray or the cap.
  void plantedSemidefiniteProblemsSolve() {
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      const int n = 2 + static_cast<int>(seed % 39);
      Planted p = planted(1000 + seed, n, 0.0);
      CPPUNIT_ASSERT_EQUAL_MESSAGE("seed " + std::to_string(seed) + ": " + describe(p.lcp->rep),
                                   NSD_OK, p.lcp->solve(nsd_lcp_lemke));
      assertSolves(*p.lcp, 1e-9);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LcpLemkeDegenerateTest);
