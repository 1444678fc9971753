// APGD's per-contact preconditioner (apgd.preconditioner, fc_apgd_metric.h) and its
// honest budget: the same iterates whichever form gives the Delassus diagonal
// (assembled, factored sparse-block J, rigid contacts), the same answers as the
// Euclidean metric on shared problems with at most the iterations measured, and never
// more iterations than asked, warm or cold, in the Coulomb and the relaxation solvers.
#include <cppunit/extensions/HelperMacros.h>

#include <nsdyn/nsd_bodies.h>
#include <nsdyn/nsd_options.h>
#include <nsdyn/nsd_solvers.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "fc_apgd_test_util.hpp"

using namespace nsdyn::test;

namespace {

constexpr int kNone = 0, kBlock = 1, kCone = 2;

/// J of @p sys in sparse-block storage, 3 x 6 blocks (contacts x bodies), so that the
/// factored operator takes its fused form (and its diagonal, nsd_fcc_factored_diagonal).
NsdMatrix* sparseBlockJ(const RandomSystem& sys) {
  std::vector<int> row_end, col_end, row_ptr(1, 0), col_index;
  for (int a = 0; a < sys.nc; ++a) {
    row_end.push_back(3 * (a + 1));
    std::vector<int> bodies;
    for (int b = 0; b < sys.nb; ++b)
      for (int i = 0; i < 3 && (bodies.empty() || bodies.back() != b); ++i)
        for (int k = 0; k < 6; ++k)
          if (nsd_matrix_get(sys.J, 3 * a + i, 6 * b + k) != 0.0) {
            bodies.push_back(b);
            break;
          }
    col_index.insert(col_index.end(), bodies.begin(), bodies.end());
    row_ptr.push_back(static_cast<int>(col_index.size()));
  }
  for (int b = 0; b < sys.nb; ++b) col_end.push_back(6 * (b + 1));
  NsdMatrix* J = nsd_matrix_create_sparse_block(sys.nc, sys.nb, row_end.data(), col_end.data(),
                                                row_ptr.data(), col_index.data());
  CPPUNIT_ASSERT(J != nullptr);
  for (int a = 0; a < sys.nc; ++a)
    for (int k = row_ptr[static_cast<size_t>(a)]; k < row_ptr[static_cast<size_t>(a) + 1]; ++k) {
      const int b = col_index[static_cast<size_t>(k)];
      double* blk = nsd_matrix_sbm_block(J, k);
      for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 6; ++c) blk[i + 3 * c] = nsd_matrix_get(sys.J, 3 * a + i, 6 * b + c);
    }
  return J;
}

/// Rigid contacts with masses 1 and 100 (a mass ratio the Euclidean metric handles badly).
struct RigidScene {
  int nb, nc;
  std::vector<int> a, b;
  std::vector<double> frame, arm_a, arm_b, inv_mass, inv_inertia, q, mu;
  NsdRigidContacts p{};

  RigidScene(int bodies, int contacts, unsigned seed) : nb(bodies), nc(contacts) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
    for (int i = 0; i < nb; ++i) {
      const double m = i % 2 ? 100.0 : 1.0, inertia = 0.4 * m * 0.01;
      inv_mass.push_back(1.0 / m);
      for (int k = 0; k < 9; ++k) inv_inertia.push_back(k % 4 == 0 ? 1.0 / inertia : 0.0);
    }
    for (int c = 0; c < nc; ++c) {
      const int A = c % nb, B = (c + 1 + c / nb) % nb;
      a.push_back(A);
      b.push_back(B == A ? -1 : B);
      double n[3] = {U(gen), U(gen), 1.5};
      const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      for (double& x : n) x /= len;
      // frame rows n, t1, t2: t1 from n x e_x (or e_y), t2 = n x t1
      double t1[3] = {0.0, n[2], -n[1]}, tl = std::sqrt(n[2] * n[2] + n[1] * n[1]);
      for (double& x : t1) x /= tl;
      const double t2[3] = {n[1] * t1[2] - n[2] * t1[1], n[2] * t1[0] - n[0] * t1[2],
                            n[0] * t1[1] - n[1] * t1[0]};
      frame.insert(frame.end(), n, n + 3);
      frame.insert(frame.end(), t1, t1 + 3);
      frame.insert(frame.end(), t2, t2 + 3);
      for (int k = 0; k < 3; ++k) arm_a.push_back(-0.01 * n[k]);
      for (int k = 0; k < 3; ++k) arm_b.push_back(0.01 * n[k]);
      mu.push_back(0.5);
      q.push_back(-0.1 - 0.5 * P(gen));
      q.push_back(0.2 * U(gen));
      q.push_back(0.2 * U(gen));
    }
    p.n_contacts = nc;
    p.n_bodies = nb;
    p.body_a = a.data();
    p.body_b = b.data();
    p.frame = frame.data();
    p.arm_a = arm_a.data();
    p.arm_b = arm_b.data();
    p.inv_mass = inv_mass.data();
    p.inv_inertia = inv_inertia.data();
    p.q = q.data();
    p.mu = mu.data();
  }
};

/// One Coulomb APGD solve on @p op from r = 0 (history of the first 4000 iterations).
struct OpSolve {
  std::vector<double> r, u, history;
  NsdReport rep{};
  NsdStatus status = NSD_FAILED;
  OpSolve(const NsdDelassus& op, const double* q, const double* mu, int preconditioner, double tol,
          int max_iterations) {
    const size_t m = static_cast<size_t>(op.size);
    r.assign(m, 0.0);
    u.assign(m, 0.0);
    history.assign(4000, 0.0);
    rep.history = history.data();
    rep.history_capacity = 4000;
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = tol;
    opt.max_iterations = max_iterations;
    opt.apgd.preconditioner = preconditioner;
    status = nsd_fc3d_apgd_operator(&op, q, mu, r.data(), u.data(), &opt, &rep);
  }
};

/// The first @p n residuals of two runs agree to a relative 1e-8 (round-off only).
void assertSameIterates(const OpSolve& x, const OpSolve& y, int n, const std::string& what) {
  n = std::min({n, x.rep.history_length, y.rep.history_length});
  CPPUNIT_ASSERT_MESSAGE(what, n > 0);
  for (size_t k = 0; k < static_cast<size_t>(n); ++k)
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, x.history[k], y.history[k], 1e-8 * x.history[k]);
}

}  // namespace

class FcApgdMetricTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcApgdMetricTest);
  CPPUNIT_TEST(factoredDiagonalIsTheAssembledOne);
  CPPUNIT_TEST(rigidDiagonalIsTheAssembledOne);
  CPPUNIT_TEST(sameAnswersOnSharedProblems);
  CPPUNIT_TEST(budgetIsTheMostIterationsRun);
  CPPUNIT_TEST(optionIsChecked);
  CPPUNIT_TEST_SUITE_END();

 public:
  void factoredDiagonalIsTheAssembledOne() {
    RandomSystem sys(5, 9, 11u);
    NsdMatrix* N = sys.assembleSbm();
    NsdMatrix* Jb = sparseBlockJ(sys);
    NsdDelassus assembled{};
    assembled.size = 3 * sys.nc;
    assembled.assembled = N;
    NsdDelassus factored{};
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_delassus_factored(Jb, sys.Minv, 1, &factored, &rep));
    for (int kind : {kBlock, kCone}) {
      OpSolve a(assembled, sys.q.data(), sys.mu.data(), kind, 1e-10, 3000);
      OpSolve f(factored, sys.q.data(), sys.mu.data(), kind, 1e-10, 3000);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(a.rep), NSD_OK, a.status);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(f.rep), NSD_OK, f.status);
      assertSameIterates(a, f, 20, "assembled vs factored, preconditioner " + std::to_string(kind));
      // and not the Euclidean run's iterates (the weights are used)
      OpSolve e(assembled, sys.q.data(), sys.mu.data(), kNone, 1e-10, 3000);
      CPPUNIT_ASSERT(std::fabs(e.history[3] - a.history[3]) > 1e-6 * e.history[3]);
    }
    nsd_delassus_factored_free(&factored);
    nsd_matrix_destroy(Jb);
    nsd_matrix_destroy(N);
  }

  void rigidDiagonalIsTheAssembledOne() {
    RigidScene s(12, 30, 5u);
    NsdMatrix* W = nullptr;
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_rigid_contacts_assemble(&s.p, &W, &rep));
    NsdDelassus assembled{};
    assembled.size = 3 * s.nc;
    assembled.assembled = W;
    NsdDelassus rigid{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_rigid_contacts_operator(&s.p, 1, &rigid, &rep));
    OpSolve a(assembled, s.q.data(), s.mu.data(), kCone, 1e-5, 5000);
    OpSolve b(rigid, s.q.data(), s.mu.data(), kCone, 1e-5, 5000);
    OpSolve e(rigid, s.q.data(), s.mu.data(), kNone, 1e-5, 5000);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(a.rep), NSD_OK, a.status);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(b.rep), NSD_OK, b.status);
    assertSameIterates(a, b, 20, "assembled vs rigid-contact operator");
    // masses 1 and 100 (measured: 2,014 iterations with the metric, 2,391 without)
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(e.rep), NSD_OK, e.status);
    CPPUNIT_ASSERT_MESSAGE(describe(b.rep), b.rep.iterations <= 2200);
    CPPUNIT_ASSERT_MESSAGE(describe(b.rep) + " vs " + describe(e.rep),
                           b.rep.iterations < e.rep.iterations);
    nsd_delassus_factored_free(&rigid);
    nsd_matrix_destroy(W);
  }

  void sameAnswersOnSharedProblems() {
    // iterations measured at 1e-8 from r = 0 (none / cone): the bound is the cone
    // figure + 25 %; the answers agree (velocities, relative to ||q||)
    const struct {
      const char* file;
      int none, cone;
    } cases[] = {{"Rover4144.dat", 97, 73},
                 {"NESpheres_10_1.dat", 111, 76},
                 {"OneObject-i1028-138.hdf5.dat", 2862, 938},
                 {"Rover1041.dat", 167, 164}};
    for (const auto& c : cases) {
      FcTestProblem plain(readFc3dFile(sharedFc3dPath(c.file)));
      FcTestProblem cone(readFc3dFile(sharedFc3dPath(c.file)));
      for (FcTestProblem* t : {&plain, &cone}) {
        t->opt.tolerance = 1e-8;
        t->opt.max_iterations = 10000;
        t->opt.apgd.preconditioner = t == &cone ? kCone : kNone;
        assertSolved(*t, t->solve(nsd_fc3d_apgd), 1e-8);
      }
      const std::string what = std::string(c.file) + ": " + describe(cone.rep);
      CPPUNIT_ASSERT_MESSAGE(what, cone.rep.iterations <= c.cone + c.cone / 4);
      CPPUNIT_ASSERT_MESSAGE(what, plain.rep.iterations <= c.none + c.none / 4);
      double qn = 0.0, du = 0.0;
      for (int i = 0; i < plain.size(); ++i) {
        qn = std::max(qn, std::fabs(plain.fc->q[i]));
        du = std::max(du,
                      std::fabs(plain.u[static_cast<size_t>(i)] - cone.u[static_cast<size_t>(i)]));
      }
      CPPUNIT_ASSERT_MESSAGE(what + ", |du| = " + std::to_string(du), du <= 1e-5 * qn);
    }
  }

  void budgetIsTheMostIterationsRun() {
    // warm (from a poor start) and cold, Coulomb and relaxation, budgets below and above
    // the cold-retry threshold: never more iterations than asked
    const char* files[] = {"Capsules-i103-990.dat", "OneObject-i1028-138.hdf5.dat"};
    for (const char* f : files)
      for (int budget : {5, 50, 100, 400})
        for (int warm : {0, 1})
          for (NsdFcSolver solver : {nsd_fc3d_apgd, nsd_fc3d_apgd_ccp}) {
            FcTestProblem t(readFc3dFile(sharedFc3dPath(f)));
            t.opt.tolerance = 1e-14;
            t.opt.max_iterations = budget;
            t.opt.warm_start = warm;
            for (size_t i = 0; i < t.r.size(); ++i) t.r[i] = i % 3 ? 0.3 : 1.0;
            const NsdStatus st = t.solve(solver);
            const std::string what = std::string(f) + ", budget " + std::to_string(budget) +
                                     ", warm " + std::to_string(warm) + ": " + describe(t.rep);
            CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_MAX_ITERATIONS, st);
            CPPUNIT_ASSERT_EQUAL_MESSAGE(what, budget, t.rep.iterations);
            if (solver == nsd_fc3d_apgd) assertConsistent(t, what, 1e-12);
          }
  }

  void optionIsChecked() {
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    // none by default: the distributed operator has no diagonal (doc/apgd.md)
    CPPUNIT_ASSERT_EQUAL(kNone, opt.apgd.preconditioner);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_option_set(&opt, "apgd.preconditioner", "cone", &rep));
    CPPUNIT_ASSERT_EQUAL(kCone, opt.apgd.preconditioner);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_option_set(&opt, "apgd.preconditioner", "none", &rep));
    CPPUNIT_ASSERT_EQUAL(kNone, opt.apgd.preconditioner);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_option_set(&opt, "apgd.preconditioner", "block", &rep));
    CPPUNIT_ASSERT_EQUAL(kBlock, opt.apgd.preconditioner);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_option_set(&opt, "apgd.preconditioner", "jacobi", &rep));
    // a value outside the table from C: the solver says so
    FcTestProblem t(readFc3dFile(sharedFc3dPath("Rover4144.dat")));
    t.opt.apgd.preconditioner = 7;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_fc3d_apgd));
    CPPUNIT_ASSERT_MESSAGE(t.rep.message,
                           std::string(t.rep.message).find("preconditioner") != std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcApgdMetricTest);
