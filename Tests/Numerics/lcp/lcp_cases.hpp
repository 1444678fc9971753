// Small LCPs with known answers, shared by the solver tests.
#pragma once

#include <cmath>
#include <memory>
#include <vector>

#include "lcp_test_util.hpp"

namespace nsdyn::test::cases {

/// M = [2 1; 1 2], q = (-5, -6): unique z = (4/3, 7/3), w = 0.
inline std::unique_ptr<TestLcp> twoByTwo() {
  return std::make_unique<TestLcp>(std::vector<double>{2, 1, 1, 2}, std::vector<double>{-5, -6});
}

/// q >= 0 (one entry zero): z = 0 solves it.
inline std::unique_ptr<TestLcp> trivial() {
  return std::make_unique<TestLcp>(std::vector<double>{2, 1, 1, 2}, std::vector<double>{1, 0});
}

/// Positive definite tridiagonal M, q = (-1, 0, -1): a tie in the first ratio
/// test and a zero right-hand side; unique z = (1/2, 0, 1/2), w = (0, 1, 0).
inline std::unique_ptr<TestLcp> zeroInQ() {
  return std::make_unique<TestLcp>(std::vector<double>{2, 1, 0, 1, 2, 1, 0, 1, 2},
                                   std::vector<double>{-1, 0, -1});
}

/// M = I, q = (0, -1): degenerate solution z = (0, 1), w = (0, 0).
inline std::unique_ptr<TestLcp> degenerateSolution() {
  return std::make_unique<TestLcp>(std::vector<double>{1, 0, 0, 1}, std::vector<double>{0, -1});
}

/// M = all ones (3 x 3, repeated columns), q = -1: ties everywhere; the
/// solutions are z >= 0 with z1 + z2 + z3 = 1.
inline std::unique_ptr<TestLcp> repeatedColumns() {
  return std::make_unique<TestLcp>(std::vector<double>(9, 1.0), std::vector<double>{-1, -1, -1});
}

/// lcp_CPS_1: M = [1 1; 1 1], q = -1: the solutions are z >= 0 with z1 + z2 = 1.
inline std::unique_ptr<TestLcp> nonUnique() {
  return std::make_unique<TestLcp>(std::vector<double>{1, 1, 1, 1}, std::vector<double>{-1, -1});
}

/// lcp_CPS_4 (a convex QP's KKT system, M = [Q -A^T; A 0] with A = (1 1 1)),
/// unique solution z = (2, 2, 2, 92), w = 0. At z = 0 the min function picks
/// the identity rows 1-3 and row 4 of M, whose last entry is 0: its
/// generalized Jacobian is singular.
inline std::unique_ptr<TestLcp> singularMinJacobian() {
  return std::make_unique<TestLcp>(
      std::vector<double>{11, 0, 10, -1, 0, 11, 10, -1, 10, 10, 21, -1, 1, 1, 1, 0},
      std::vector<double>{50, 50, 10, -6});
}

/// M = -1, q = -1: w = -z - 1 < 0 for every z >= 0, no solution.
inline std::unique_ptr<TestLcp> noSolution() {
  return std::make_unique<TestLcp>(std::vector<double>{-1}, std::vector<double>{-1});
}

/// Murty's example (K. G. Murty, "Linear Complementarity, Linear and
/// Nonlinear Programming", 1988, ch. 6): M lower triangular with 1 on the
/// diagonal and 2 below, q = -1. A P-matrix: unique solution z = e_1, and
/// Lemke's method with d = 1 needs 2^n pivots. With @p lower false, M^T
/// (the orientation of lcp_exp_murty.dat): unique z = e_n, 2 pivots.
inline std::unique_ptr<TestLcp> murty(int n, bool lower = true) {
  std::vector<double> m(static_cast<size_t>(n * n), 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m[static_cast<size_t>(i * n + j)] = i == j ? 1.0 : ((lower ? j < i : j > i) ? 2.0 : 0.0);
  return std::make_unique<TestLcp>(m, std::vector<double>(static_cast<size_t>(n), -1.0));
}

/// Sum of z, for the non-unique problems whose solutions have a fixed sum.
inline double sum(const std::vector<double>& z) {
  double s = 0.0;
  for (double v : z) s += v;
  return s;
}

}  // namespace nsdyn::test::cases
