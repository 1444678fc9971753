// Helpers of the first-order FC3D solver tests (APGD, BB, ADMM): one-contact
// problems with known answers, random problems from factors J and M^-1 and the
// solvers by name (the problem class and common checks: fc_test_problem.hpp).
#pragma once

#include <cppunit/extensions/HelperMacros.h>

#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fc_test_problem.hpp"
#include "nsdyn/nsd_fc.h"

namespace nsdyn::test {

/// The solvers of this folder, by the names used in ctest names.
inline const std::vector<NamedFcSolver>& fcSolvers() {
  static const std::vector<NamedFcSolver> all = {
      {"apgd", nsd_fc3d_apgd}, {"bb", nsd_fc3d_bb}, {"admm", nsd_fc3d_admm}};
  return all;
}
inline NsdFcSolver fcSolverByName(const std::string& name) {
  const NamedFcSolver* s = findFcSolver(fcSolvers(), name);
  return s ? s->fn : nullptr;
}

/// A random contact system: nb bodies with 6 dof and SPD 6x6 blocks of M^-1,
/// nc contacts each between two random bodies (3 rows, 12 entries of J), in
/// CSC (J) and sparse-block (M^-1) storage, with q and mu. Seeded.
struct RandomSystem {
  int nb, nc;
  NsdMatrix* J = nullptr;     // 3nc x 6nb
  NsdMatrix* Minv = nullptr;  // 6nb x 6nb, block diagonal
  std::vector<double> q, mu;
  std::vector<int> body;     // [2 nc] bodies of each contact
  std::vector<double> jval;  // [nc][2 bodies][3 rows][6] entries of J
  std::vector<double> minv;  // [nb][36] blocks of M^-1, column-major

  RandomSystem(int bodies, int contacts, unsigned seed) : nb(bodies), nc(contacts) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    // J: contact a touches bodies b1 != b2 (6 columns each)
    std::vector<int> ti, tj;
    std::vector<double> tx;
    for (int a = 0; a < nc; ++a) {
      const int b1 = static_cast<int>(gen() % static_cast<unsigned>(nb));
      int b2 = static_cast<int>(gen() % static_cast<unsigned>(nb - 1));
      if (b2 >= b1) ++b2;
      body.push_back(b1);
      body.push_back(b2);
      for (int side = 0; side < 2; ++side)
        for (int row = 0; row < 3; ++row)
          for (int k = 0; k < 6; ++k) {
            const double x = U(gen);
            jval.push_back(x);
            ti.push_back(3 * a + row);
            tj.push_back(6 * (side ? b2 : b1) + k);
            tx.push_back(x);
          }
    }
    J = nsd_matrix_create_csc_from_triplets(3 * nc, 6 * nb, static_cast<int>(tx.size()), ti.data(),
                                            tj.data(), tx.data());
    // M^-1: per body B B^T / 6 + 0.5 I (SPD)
    std::vector<int> row_end(static_cast<size_t>(nb)), row_ptr(static_cast<size_t>(nb) + 1),
        col_index(static_cast<size_t>(nb));
    for (int b = 0; b < nb; ++b) {
      row_end[static_cast<size_t>(b)] = 6 * (b + 1);
      row_ptr[static_cast<size_t>(b)] = b;
      col_index[static_cast<size_t>(b)] = b;
    }
    row_ptr[static_cast<size_t>(nb)] = nb;
    Minv = nsd_matrix_create_sparse_block(nb, nb, row_end.data(), row_end.data(), row_ptr.data(),
                                          col_index.data());
    CPPUNIT_ASSERT(J && Minv);
    minv.resize(static_cast<size_t>(36 * nb));
    for (int b = 0; b < nb; ++b) {
      double B[36], *blk = nsd_matrix_sbm_block(Minv, b);
      for (double& x : B) x = U(gen);
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) {
          double s = i == j ? 0.5 : 0.0;
          for (int k = 0; k < 6; ++k) s += B[i + 6 * k] * B[j + 6 * k] / 6.0;
          blk[i + 6 * j] = s;
          minv[static_cast<size_t>(36 * b + i + 6 * j)] = s;
        }
    }
    // q: mostly approaching contacts with tangential velocities; mu in [0.1, 0.9]
    q.resize(static_cast<size_t>(3 * nc));
    mu.resize(static_cast<size_t>(nc));
    for (int a = 0; a < nc; ++a) {
      q[static_cast<size_t>(3 * a)] = -0.5 + 0.6 * U(gen);
      q[static_cast<size_t>(3 * a + 1)] = 0.5 * U(gen);
      q[static_cast<size_t>(3 * a + 2)] = 0.5 * U(gen);
      mu[static_cast<size_t>(a)] = 0.5 + 0.4 * U(gen);
    }
  }
  ~RandomSystem() {
    nsd_matrix_destroy(J);
    nsd_matrix_destroy(Minv);
  }
  RandomSystem(const RandomSystem&) = delete;
  RandomSystem& operator=(const RandomSystem&) = delete;

  /// Entry (row, k) of the 3x6 block of J of contact a on its side (0, 1).
  double j(int a, int side, int row, int k) const {
    return jval[static_cast<size_t>(((2 * a + side) * 3 + row) * 6 + k)];
  }

  /// N = J M^-1 J^T assembled by the test as a sparse-block matrix of 3x3
  /// blocks: N_ac = sum over shared bodies b of J_ab M^-1_b J_cb^T.
  NsdMatrix* assembleSbm() const {
    std::map<std::pair<int, int>, std::array<double, 9>> blocks;
    std::vector<std::vector<std::pair<int, int>>> touching(static_cast<size_t>(nb));
    for (int a = 0; a < nc; ++a)
      for (int side = 0; side < 2; ++side)
        touching[static_cast<size_t>(body[static_cast<size_t>(2 * a + side)])].push_back({a, side});
    for (int b = 0; b < nb; ++b)
      for (auto [a, sa] : touching[static_cast<size_t>(b)])
        for (auto [c, sc] : touching[static_cast<size_t>(b)]) {
          auto& blk = blocks.try_emplace({a, c}, std::array<double, 9>{}).first->second;
          for (int i = 0; i < 3; ++i)
            for (int l = 0; l < 3; ++l) {
              double s = 0.0;
              for (int k = 0; k < 6; ++k)
                for (int kk = 0; kk < 6; ++kk)
                  s += j(a, sa, i, k) * minv[static_cast<size_t>(36 * b + k + 6 * kk)] *
                       j(c, sc, l, kk);
              blk[static_cast<size_t>(i + 3 * l)] += s;
            }
        }
    std::vector<int> row_end(static_cast<size_t>(nc)), row_ptr(static_cast<size_t>(nc) + 1, 0),
        col_index;
    for (int a = 0; a < nc; ++a) row_end[static_cast<size_t>(a)] = 3 * (a + 1);
    for (const auto& kv : blocks) {
      row_ptr[static_cast<size_t>(kv.first.first) + 1]++;
      col_index.push_back(kv.first.second);
    }
    for (int a = 0; a < nc; ++a)
      row_ptr[static_cast<size_t>(a) + 1] += row_ptr[static_cast<size_t>(a)];
    NsdMatrix* N = nsd_matrix_create_sparse_block(nc, nc, row_end.data(), row_end.data(),
                                                  row_ptr.data(), col_index.data());
    CPPUNIT_ASSERT(N != nullptr);
    int k = 0;
    for (const auto& kv : blocks)
      std::memcpy(nsd_matrix_sbm_block(N, k++), kv.second.data(), 9 * sizeof(double));
    return N;
  }
};

}  // namespace nsdyn::test

namespace nsdyn::test {

/// One contact, M = diag(2, 1, 1), mu = 0.5: the three regimes with their
/// exact answers, solved to a tight tolerance by @p solver.
inline void checkOneContact(NsdFcSolver solver, const std::string& name) {
  struct Case {
    const char* regime;
    std::vector<double> q, r, u;
  };
  const std::vector<Case> cases = {
      // stick: r_n = -q_n / 2 = 1, r_T = -q_T (|r_T| = 0.3 <= mu r_n), u = 0
      {"stick", {-2.0, 0.3, 0.0}, {1.0, -0.3, 0.0}, {0.0, 0.0, 0.0}},
      // slip: |q_T| = 1 > mu r_n, r_T = -mu r_n q_T / |q_T|, u_T = q_T + r_T
      {"slip", {-2.0, 0.6, 0.8}, {1.0, -0.3, -0.4}, {0.0, 0.3, 0.4}},
      // take-off: q_n > 0, r = 0, u = q
      {"take-off", {1.0, 0.3, -0.2}, {0.0, 0.0, 0.0}, {1.0, 0.3, -0.2}},
  };
  for (const Case& c : cases) {
    FcTestProblem t(3, {2, 0, 0, 0, 1, 0, 0, 0, 1}, c.q, {0.5});
    t.opt.tolerance = 1e-13;
    t.opt.max_iterations = 10000;
    const std::string what = name + " " + c.regime;
    const NsdStatus st = t.solve(solver);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + describe(t.rep), NSD_OK, st);
    CPPUNIT_ASSERT_MESSAGE(what, t.rep.residual <= 1e-13);
    for (size_t i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": r", c.r[i], t.r[i], 1e-10);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": u", c.u[i], t.u[i], 1e-10);
    }
    assertConsistent(t, what);
  }
}

/// Bad input common to the three solvers: each must be NSD_BAD_INPUT with a message.
inline void checkBadInput(NsdFcSolver solver, const std::string& name) {
  auto expectBad = [&](FcTestProblem& t, const std::string& what) {
    const NsdStatus st = t.solve(solver);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " " + what + ": " + describe(t.rep), NSD_BAD_INPUT, st);
    CPPUNIT_ASSERT_MESSAGE(name + " " + what + ": no message", t.rep.message[0] != '\0');
  };
  const std::vector<double> I3 = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  {
    FcTestProblem t(3, I3, {-1, 0, 0}, {-0.1});
    expectBad(t, "mu < 0");
  }
  {
    FcTestProblem t(3, I3, {-1, NAN, 0}, {0.3});
    expectBad(t, "NaN in q");
  }
  {
    FcTestProblem t(2, {1, 0, 0, 1}, {-1, 0}, {0.3});
    expectBad(t, "dim 2");
  }
  {
    FcTestProblem t(3, {1, 0.5, 0, 0, 1, 0, 0, 0, 1}, {-1, 0, 0}, {0.3});
    expectBad(t, "non-symmetric M");
  }
  {
    FcTestProblem t(3, {1, 0, 0, 0, -1, 0, 0, 0, 1}, {-1, 0, 0}, {0.3});
    expectBad(t, "indefinite M");
  }
  {
    FcTestProblem t(3, I3, {-1, 0, 0}, {0.3});
    t.opt.warm_start = 1;
    t.r[1] = NAN;
    expectBad(t, "NaN warm start");
  }
}

}  // namespace nsdyn::test
