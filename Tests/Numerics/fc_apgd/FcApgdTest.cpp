// APGD (Numerics/src/friction/fc3d_apgd.c) and the factored Delassus operator
// (fc_delassus.c): known answers, assembled vs matrix-free, the cost of one
// product per iteration, thread-count independence, warm start, bad input.
#include <cppunit/extensions/HelperMacros.h>

#include <cstdio>

#include <nsdyn/nsd_solvers.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "fc_apgd_test_util.hpp"

using namespace nsdyn::test;

namespace {

/// Counts the products of a wrapped operator (each J^T call is one N x).
struct Counting {
  NsdDelassus inner;
  long products = 0;
  static void jt(void* u, const double* x, double* v) {
    auto* c = static_cast<Counting*>(u);
    c->products++;
    c->inner.apply_jt(c->inner.user, x, v);
  }
  static void minv(void* u, const double* v, double* w) {
    auto* c = static_cast<Counting*>(u);
    c->inner.apply_minv(c->inner.user, v, w);
  }
  static void j(void* u, const double* w, double* y) {
    auto* c = static_cast<Counting*>(u);
    c->inner.apply_j(c->inner.user, w, y);
  }
  NsdDelassus wrap() {
    NsdDelassus d = inner;
    d.user = this;
    d.apply_jt = jt;
    d.apply_minv = minv;
    d.apply_j = j;
    return d;
  }
};

/// Largest |a_i - b_i| / (1 + |a_i|).
double maxRelDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (size_t i = 0; i < a.size(); ++i)
    m = std::max(m, std::fabs(a[i] - b[i]) / (1.0 + std::fabs(a[i])));
  return m;
}

}  // namespace

class FcApgdTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcApgdTest);
  CPPUNIT_TEST(solvesOneContact);
  CPPUNIT_TEST(solvesLcpOnTheOrthant);
  CPPUNIT_TEST(assembledMatchesMatrixFree);
  CPPUNIT_TEST(oneProductPerIteration);
  CPPUNIT_TEST(ccpResidualIsItsOwn);
  CPPUNIT_TEST(relaxationSolverSaysWhichProblem);
  CPPUNIT_TEST(threadCountIndependent);
  CPPUNIT_TEST(warmStartReducesIterations);
  CPPUNIT_TEST(recordsHistory);
  CPPUNIT_TEST(rejectsBadInput);
  CPPUNIT_TEST(rejectsBadOperator);
  CPPUNIT_TEST(reductionHooksOnOnePart);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesOneContact() { checkOneContact(nsd_fc3d_apgd, "apgd"); }

  void solvesLcpOnTheOrthant() {
    // dim 1 = positive orthant: M = [2 1; 1 2], q = (-5, -6) => z = (4/3, 7/3)
    NsdMatrix* M = nsd_matrix_create_dense_from_rows(2, 2, std::vector<double>{2, 1, 1, 2}.data());
    NsdDelassus op{};
    op.size = 2;
    op.assembled = M;
    std::vector<double> q = {-5, -6}, z(2, 0.0), w(2, 0.0);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = 1e-14;
    NsdReport rep{};
    const NsdStatus st =
        nsd_fc_apgd_operator(&op, 1, q.data(), nullptr, z.data(), w.data(), &opt, &rep, nullptr);
    nsd_matrix_destroy(M);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(rep), NSD_OK, st);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 / 3.0, z[0], 1e-10);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0 / 3.0, z[1], 1e-10);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, w[0], 1e-10);
  }

  void assembledMatchesMatrixFree() {
    // a small system: N assembled by the test vs the factors J, M^-1
    RandomSystem sys(4, 6, 7u);
    NsdMatrix* N = sys.assembleSbm();
    NsdDelassus assembled{};
    assembled.size = 3 * sys.nc;
    assembled.assembled = N;
    NsdDelassus factored{};
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_delassus_factored(sys.J, sys.Minv, 1, &factored, &rep));

    const size_t m = static_cast<size_t>(3 * sys.nc);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = 1e-12;
    opt.max_iterations = 3000;
    // a CSC J gives no diagonal to the preconditioner: compare in the Euclidean metric
    // (FcApgdMetricTest compares the preconditioned forms)
    opt.apgd.preconditioner = 0;
    std::vector<double> ra(m), ua(m), rf(m), uf(m), ha(4000), hf(4000);
    NsdReport repa{}, repf{};
    repa.history = ha.data();
    repa.history_capacity = 4000;
    repf.history = hf.data();
    repf.history_capacity = 4000;
    double sa = 0.0, sf = 0.0;
    nsd_fc_apgd_operator(&assembled, 3, sys.q.data(), sys.mu.data(), ra.data(), ua.data(), &opt,
                         &repa, &sa);
    nsd_fc_apgd_operator(&factored, 3, sys.q.data(), sys.mu.data(), rf.data(), uf.data(), &opt,
                         &repf, &sf);
    nsd_delassus_factored_free(&factored);
    nsd_matrix_destroy(N);

    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(repa), NSD_OK, repa.status);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(repf), NSD_OK, repf.status);
    // the same iterates up to round-off (which the nonsmooth projections
    // amplify over the iterations): the first residuals, and the answers
    CPPUNIT_ASSERT(std::abs(repa.iterations - repf.iterations) <= repa.iterations / 5);
    const int n = std::min(repa.history_length, 20);
    for (int k = 0; k < n; ++k)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(ha[static_cast<size_t>(k)], hf[static_cast<size_t>(k)],
                                   1e-9 * ha[static_cast<size_t>(k)]);
    CPPUNIT_ASSERT(maxRelDiff(ra, rf) < 1e-9);
    CPPUNIT_ASSERT(maxRelDiff(ua, uf) < 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(sa, sf, 1e-6 * sa + 1e-12);
  }

  void oneProductPerIteration() {
    RandomSystem sys(10, 20, 11u);
    NsdDelassus factored{};
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_delassus_factored(sys.J, sys.Minv, 1, &factored, &rep));
    const size_t m = static_cast<size_t>(3 * sys.nc);
    std::vector<double> r(m), u(m);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.max_iterations = 200;
    opt.tolerance = 1e-300;  // as small as allowed (> 0): run every iteration

    // one product for L_0, one per iteration, one per backtracking step. L
    // doubles per backtracking step and decays by 0.9 per iteration, so at a
    // steady L the steps number about log(1/0.9)/log(2) = 0.152 per iteration
    Counting c{factored};
    NsdDelassus d = c.wrap();
    nsd_fc_apgd_operator(&d, 3, sys.q.data(), sys.mu.data(), r.data(), u.data(), &opt, &rep,
                         nullptr);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(rep), 200, rep.iterations);
    CPPUNIT_ASSERT(c.products >= 201L);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(c.products), c.products <= 201L + 32L + 10L);
    nsd_delassus_factored_free(&factored);
  }

  void ccpResidualIsItsOwn() {
    // the report of the operator form is the CCP residual, recomputed here
    RandomSystem sys(6, 10, 5u);
    NsdMatrix* N = sys.assembleSbm();
    NsdDelassus op{};
    op.size = 3 * sys.nc;
    op.assembled = N;
    const size_t m = static_cast<size_t>(op.size);
    std::vector<double> r(m), u(m);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = 1e-10;
    opt.max_iterations = 5000;
    NsdReport rep{};
    double sic = -1.0;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_fc_apgd_operator(&op, 3, sys.q.data(), sys.mu.data(), r.data(),
                                                      u.data(), &opt, &rep, &sic));
    // e_a = r_a - Pi(r_a - u_a), scaled by max(||q||, ||r||, ||u||)
    double e2 = 0.0, q2 = 0.0, r2 = 0.0, u2 = 0.0;
    for (int a = 0; a < sys.nc; ++a) {
      double y[3];
      for (int k = 0; k < 3; ++k)
        y[k] = r[static_cast<size_t>(3 * a + k)] - u[static_cast<size_t>(3 * a + k)];
      nsd_fc_project_on_cone(3, sys.mu[static_cast<size_t>(a)], y);
      for (int k = 0; k < 3; ++k) {
        const size_t i = static_cast<size_t>(3 * a + k);
        e2 += (r[i] - y[k]) * (r[i] - y[k]);
        q2 += sys.q[i] * sys.q[i];
        r2 += r[i] * r[i];
        u2 += u[i] * u[i];
      }
    }
    const double own = std::sqrt(e2) / std::max({std::sqrt(q2), std::sqrt(r2), std::sqrt(u2)});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(own, rep.residual, 1e-12);
    CPPUNIT_ASSERT(rep.residual <= 1e-10);
    // the Siconos error of a CCP answer (no De Saxcé term) is not small with sliding contacts
    NsdFc* fc = nsd_fc_create(3, sys.nc, N, sys.q.data(), sys.mu.data());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(nsd_fc_error(fc, r.data(), nullptr), sic, 1e-10);
    CPPUNIT_ASSERT(sic > 1e-6);
    nsd_fc_destroy(fc);
  }

  /// "apgd_ccp" from the solver table: the relaxation's answer, its own residual as the
  /// report's, and the message naming the problem and the (larger) Coulomb error; "apgd"
  /// on the same problem reaches the Coulomb answer.
  void relaxationSolverSaysWhichProblem() {
    RandomSystem sys(6, 10, 5u);
    NsdProblem p{};
    p.kind = NSD_KIND_FC3D;
    p.fc = nsd_fc_create(3, sys.nc, sys.assembleSbm(), sys.q.data(), sys.mu.data());
    const size_t m = static_cast<size_t>(3 * sys.nc);
    std::vector<double> r(m, 0.0), u(m, 0.0);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = 1e-10;
    opt.max_iterations = 5000;
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&p, "apgd_ccp", r.data(), u.data(), &opt, &rep));
    CPPUNIT_ASSERT_EQUAL(std::string("apgd_ccp"), std::string(rep.solver));
    CPPUNIT_ASSERT(rep.residual <= 1e-10);
    const double coulomb = nsd_fc_error(p.fc, r.data(), nullptr);
    CPPUNIT_ASSERT(coulomb > 1e-6);
    const std::string msg = rep.message;
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("cone complementarity relaxation") != std::string::npos);
    char expected[64];
    std::snprintf(expected, sizeof expected, "Coulomb (Siconos) error is %.3e", coulomb);
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find(expected) != std::string::npos);
    std::fill(r.begin(), r.end(), 0.0);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&p, "apgd", r.data(), u.data(), &opt, &rep));
    CPPUNIT_ASSERT(nsd_fc_error(p.fc, r.data(), nullptr) <= 1e-10);
    nsd_problem_clear(&p);
  }

  void threadCountIndependent() {
    // large enough for the parallel loops and reductions to split (m = 4500)
    RandomSystem sys(500, 1500, 3u);
    const size_t m = static_cast<size_t>(3 * sys.nc);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = 1e-300;  // as small as allowed (> 0): run every iteration
    opt.max_iterations = 60;

    // matrix-free APGD
    std::vector<std::vector<double>> results;
    for (int threads : {1, 2, 4}) {
      NsdDelassus op{};
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_delassus_factored(sys.J, sys.Minv, threads, &op, &rep));
      std::vector<double> r(m), u(m);
      opt.threads = threads;
      nsd_fc_apgd_operator(&op, 3, sys.q.data(), sys.mu.data(), r.data(), u.data(), &opt, &rep,
                           nullptr);
      nsd_delassus_factored_free(&op);
      CPPUNIT_ASSERT_EQUAL(60, rep.iterations);
      results.push_back(r);
    }
    CPPUNIT_ASSERT(maxRelDiff(results[0], results[1]) <= 1e-12);
    CPPUNIT_ASSERT(maxRelDiff(results[0], results[2]) <= 1e-12);

    // the three FC3D solvers on the assembled N (ADMM: a few iterations, as
    // each may refactorise M + rho I)
    FcTestProblem t(nsd_fc_create(3, sys.nc, sys.assembleSbm(), sys.q.data(), sys.mu.data()));
    for (const auto& s : fcSolvers()) {
      std::vector<std::vector<double>> rs;
      const int iterations = std::string(s.name) == "admm" ? 5 : 30;
      for (int threads : {1, 2, 4}) {
        std::fill(t.r.begin(), t.r.end(), 0.0);
        t.opt.tolerance = 1e-300;  // as small as allowed (> 0): run every iteration
        t.opt.max_iterations = iterations;
        t.opt.threads = threads;
        t.solve(s.fn);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(s.name) + ": " + describe(t.rep), iterations,
                                     t.rep.iterations);
        rs.push_back(t.r);
      }
      CPPUNIT_ASSERT_MESSAGE(s.name, maxRelDiff(rs[0], rs[1]) <= 1e-12);
      CPPUNIT_ASSERT_MESSAGE(s.name, maxRelDiff(rs[0], rs[2]) <= 1e-12);
    }
  }

  void warmStartReducesIterations() {
    // solve, perturb q slightly, solve again cold and from the previous r
    RandomSystem sys(20, 30, 9u);
    for (const auto& s : fcSolvers()) {
      FcTestProblem t(nsd_fc_create(3, sys.nc, sys.assembleSbm(), sys.q.data(), sys.mu.data()));
      t.opt.tolerance = 1e-8;
      t.opt.max_iterations = 20000;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(s.name) + ": " + describe(t.rep), NSD_OK,
                                   t.solve(s.fn));
      for (size_t i = 0; i < t.r.size(); i += 3) t.fc->q[i] *= 1.001;
      const std::vector<double> previous = t.r;
      std::fill(t.r.begin(), t.r.end(), 0.0);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(s.name) + ": " + describe(t.rep), NSD_OK,
                                   t.solve(s.fn));
      const int cold = t.rep.iterations;
      t.r = previous;
      t.opt.warm_start = 1;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(s.name) + ": " + describe(t.rep), NSD_OK,
                                   t.solve(s.fn));
      CPPUNIT_ASSERT_MESSAGE(std::string(s.name) + ": warm " + std::to_string(t.rep.iterations) +
                                 " vs cold " + std::to_string(cold),
                             t.rep.iterations < cold);
      // from the solution itself: nothing to do
      const int warm = t.rep.iterations;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t.solve(s.fn));
      CPPUNIT_ASSERT(t.rep.iterations <= std::max(warm, 1));
    }
  }

  void recordsHistory() {
    FcTestProblem t(3, {2, 0, 0, 0, 1, 0, 0, 0, 1}, {-2.0, 0.6, 0.8}, {0.5});
    std::vector<double> h(100);
    t.rep.history = h.data();
    t.rep.history_capacity = 100;
    t.opt.tolerance = 1e-12;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t.solve(nsd_fc3d_apgd));
    CPPUNIT_ASSERT_EQUAL(std::min(t.rep.iterations, 100), t.rep.history_length);
    CPPUNIT_ASSERT(t.rep.history_length > 0);
    CPPUNIT_ASSERT(h[static_cast<size_t>(t.rep.history_length - 1)] <= 1e-12);
  }

  void rejectsBadInput() { checkBadInput(nsd_fc3d_apgd, "apgd"); }

  void rejectsBadOperator() {
    std::vector<double> q = {-1, 0, 0}, mu = {0.3}, r(3), u(3);
    NsdReport rep{};
    NsdDelassus op{};
    op.size = 3;
    op.n_dof = 6;  // no callbacks, no matrix
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_fc_apgd_operator(&op, 3, q.data(), mu.data(), r.data(),
                                                             u.data(), nullptr, &rep, nullptr));
    CPPUNIT_ASSERT(rep.message[0] != '\0');
    // size not a multiple of dim
    NsdMatrix* M = nsd_matrix_create_dense(4, 4);
    op.size = 4;
    op.assembled = M;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_fc_apgd_operator(&op, 3, q.data(), mu.data(), r.data(),
                                                             u.data(), nullptr, &rep, nullptr));
    nsd_matrix_destroy(M);
    // factors of inconsistent sizes
    NsdMatrix* J = nsd_matrix_create_dense(3, 6);
    NsdMatrix* W = nsd_matrix_create_dense(5, 5);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_delassus_factored(J, W, 0, &op, &rep));
    CPPUNIT_ASSERT(rep.message[0] != '\0');
    nsd_delassus_factored_free(&op);
    nsd_matrix_destroy(J);
    nsd_matrix_destroy(W);
  }

  // Reduction hooks of a problem in one part (the sums and maxima over one part are the
  // values themselves): counted, and the solve must not change by a bit.
  static inline long s_sums = 0, s_sumValues = 0, s_maxes = 0;
  static void sumOfOne(void*, double*, int count) {
    ++s_sums;
    s_sumValues += count;
  }
  static void maxOfOne(void*, double*, int) { ++s_maxes; }

  void reductionHooksOnOnePart() {
    RandomSystem sys(40, 80, 13u);
    const size_t m = static_cast<size_t>(3 * sys.nc);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = 1e-10;
    opt.max_iterations = 5000;
    NsdDelassus plain{};
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_delassus_factored(sys.J, sys.Minv, 1, &plain, &rep));
    NsdDelassus hooked = plain;
    hooked.reduce_sum = sumOfOne;
    hooked.reduce_max = maxOfOne;
    for (int form = 0; form < 2; ++form) {
      std::vector<double> r0(m), u0(m), r1(m), u1(m);
      NsdReport rep0{}, rep1{};
      s_sums = s_sumValues = s_maxes = 0;
      if (form == 0) {
        nsd_fc3d_apgd_operator(&plain, sys.q.data(), sys.mu.data(), r0.data(), u0.data(), &opt,
                               &rep0);
        nsd_fc3d_apgd_operator(&hooked, sys.q.data(), sys.mu.data(), r1.data(), u1.data(), &opt,
                               &rep1);
      } else {
        double e0 = 0.0, e1 = 0.0;
        nsd_fc_apgd_operator(&plain, 3, sys.q.data(), sys.mu.data(), r0.data(), u0.data(), &opt,
                             &rep0, &e0);
        nsd_fc_apgd_operator(&hooked, 3, sys.q.data(), sys.mu.data(), r1.data(), u1.data(), &opt,
                             &rep1, &e1);
        CPPUNIT_ASSERT(e0 == e1);
      }
      CPPUNIT_ASSERT_MESSAGE(describe(rep0), rep0.iterations > 0);
      CPPUNIT_ASSERT_EQUAL(rep0.status, rep1.status);
      CPPUNIT_ASSERT_EQUAL(rep0.iterations, rep1.iterations);
      CPPUNIT_ASSERT(rep0.residual == rep1.residual);
      CPPUNIT_ASSERT(std::memcmp(r0.data(), r1.data(), m * sizeof(double)) == 0);
      CPPUNIT_ASSERT(std::memcmp(u0.data(), u1.data(), m * sizeof(double)) == 0);
      // every iteration: the backtracking/restart sums and the residual sums, batched
      CPPUNIT_ASSERT(s_sums >= 2L * rep1.iterations);
      CPPUNIT_ASSERT(s_sumValues <= 6L * s_sums);
      CPPUNIT_ASSERT(s_maxes >= 1L);  // the input check
    }
    // the hooks come in pairs
    NsdDelassus half = plain;
    half.reduce_sum = sumOfOne;
    std::vector<double> r(m), u(m);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_fc3d_apgd_operator(&half, sys.q.data(), sys.mu.data(),
                                                               r.data(), u.data(), &opt, &rep));
    nsd_delassus_factored_free(&plain);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcApgdTest);
