// Proximal-point solver (Numerics/src/friction/fc3d_prox.c) and the automatic
// choice with fallback (nsd_solve_auto, Numerics/src/common/solvers.c):
// a rank-deficient problem, reports, bad input, the plan by size and
// tolerance, the fallback when the first candidate is capped, the accelerated
// sweeps of its nsgs candidate, the time limit.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>
#include <vector>

#include "fc_newton_test_util.hpp"
#include "nsdyn/nsd_solvers.h"

using namespace nsdyn::test;

namespace {

// One rigid box (mass 1, inertia diag(1, 1, 1)) on a floor through 4 corner
// contacts at (+-1, +-1, -0.5), normal e_z: W = H M^-1 H^T is 12 x 12 of rank
// 6. Free velocity v = (vx, 0, -1), no rotation; friction mu.
NsdFc* boxOnFloor(double vx, double mu) {
  const double corners[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  const double h = -0.5;
  std::vector<double> H(12 * 6, 0.0);  // row-major 12 x 6: u = H (v, omega)
  for (int c = 0; c < 4; ++c) {
    const double p[3] = {corners[c][0], corners[c][1], h};
    // local frame (n, t1, t2) = (e_z, e_x, e_y); u = v + omega x p = v - p x omega
    const int dirs[3] = {2, 0, 1};
    for (int k = 0; k < 3; ++k) {
      const int d = dirs[k];
      double* row = &H[(3 * c + k) * 6];
      row[d] = 1.0;
      // (omega x p)_d = sum_j eps(d, j, l) omega_j p_l
      const int j1 = (d + 1) % 3, j2 = (d + 2) % 3;
      row[3 + j1] += p[j2];
      row[3 + j2] -= p[j1];
    }
  }
  std::vector<double> W(144, 0.0);
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j)
      for (int k = 0; k < 6; ++k) W[12 * i + j] += H[6 * i + k] * H[6 * j + k];
  std::vector<double> q(12, 0.0);
  const double vfree[6] = {vx, 0, -1, 0, 0, 0};
  for (int i = 0; i < 12; ++i)
    for (int k = 0; k < 6; ++k) q[i] += H[6 * i + k] * vfree[k];
  const std::vector<double> mus(4, mu);
  return nsd_fc_create(3, 4, nsd_matrix_create_dense_from_rows(12, 12, W.data()), q.data(),
                       mus.data());
}

bool contains(const char* text, const std::string& what) {
  return std::string(text).find(what) != std::string::npos;
}

}  // namespace

class FcProxTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcProxTest);
  CPPUNIT_TEST(oneContactSticks);
  CPPUNIT_TEST(rankDeficientBox);
  CPPUNIT_TEST(rankDeficientDuplicateContacts);
  CPPUNIT_TEST(historyAndIterationCap);
  CPPUNIT_TEST(badInput);
  CPPUNIT_TEST(tableAndDefaults);
  CPPUNIT_TEST(autoPicksAndReports);
  CPPUNIT_TEST(autoPlanBySizeAndTolerance);
  CPPUNIT_TEST(autoFallsBack);
  CPPUNIT_TEST(autoAcceleratesNsgs);
  CPPUNIT_TEST(autoRespectsTimeLimit);
  CPPUNIT_TEST(autoBadCandidates);
  CPPUNIT_TEST(autoLcp);
  CPPUNIT_TEST_SUITE_END();

 public:
  void oneContactSticks() {
    // M = I, q = (-1, 0.1, 0), mu = 1: sticking, r = (1, -0.1, 0), u = 0
    FcTestProblem t(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 0.1, 0}, {1.0});
    assertSolved(t, t.solve(nsd_fc3d_prox), 1e-8);
    CPPUNIT_ASSERT_EQUAL(std::string("prox"), std::string(t.rep.solver));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t.r[0], 1e-7);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.1, t.r[1], 1e-7);
  }

  void rankDeficientBox() {
    // sliding (vx = 1, mu = 0.3) and sticking (vx = 0.1, mu = 0.8) boxes, dense and sparse M
    for (double vx : {1.0, 0.1})
      for (NsdStorage storage : {NSD_DENSE, NSD_SPARSE_BLOCK, NSD_CSC}) {
        FcTestProblem t(boxOnFloor(vx, vx > 0.5 ? 0.3 : 0.8));
        if (storage != NSD_DENSE) t.convert(storage);
        assertSolved(t, t.solve(nsd_fc3d_prox), 1e-8);
        double rn = 0.0;
        for (int c = 0; c < 4; ++c) rn += t.r[3 * c];
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, rn, 1e-6);  // total normal impulse stops the fall
        // auto solves it too and names the solver
        FcTestProblem a(boxOnFloor(vx, vx > 0.5 ? 0.3 : 0.8));
        assertSolved(a, a.solve(nsd_fc3d_auto), 1e-8);
        CPPUNIT_ASSERT(contains(a.rep.solver, "auto:"));
      }
  }

  void rankDeficientDuplicateContacts() {
    // two identical contacts on one particle: W = [[I, I], [I, I]] (rank 3),
    // falling and sliding; the split of the impulse between them is free
    std::vector<double> W(36, 0.0);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) W[6 * i + j] = (i % 3 == j % 3) ? 1.0 : 0.0;
    FcTestProblem t(3, W, {-1, 0.5, 0.2, -1, 0.5, 0.2}, {0.2, 0.2});
    assertSolved(t, t.solve(nsd_fc3d_prox), 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t.r[0] + t.r[3], 1e-6);
  }

  void historyAndIterationCap() {
    FcTestProblem t(readFc3dFile(sharedFc3dPath("Capsules-i101-404.dat")));
    std::vector<double> hist(200, -1.0);
    t.rep.history = hist.data();
    t.rep.history_capacity = static_cast<int>(hist.size());
    assertSolved(t, t.solve(nsd_fc3d_prox), 1e-8);
    CPPUNIT_ASSERT(t.rep.history_length >= 2);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(t.rep.residual, hist[t.rep.history_length - 1], 1e-15);
    // a cap on the Newton steps is honoured and reported
    FcTestProblem c(readFc3dFile(sharedFc3dPath("Capsules-i101-404.dat")));
    c.opt.max_iterations = 3;
    const NsdStatus st = c.solve(nsd_fc3d_prox);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(c.rep), NSD_MAX_ITERATIONS, st);
    CPPUNIT_ASSERT(c.rep.iterations <= 3);
    CPPUNIT_ASSERT(c.rep.message[0] != '\0');
    assertConsistent(c, "capped prox");
  }

  void badInput() {
    FcTestProblem t(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 0, 0}, {0.5});
    NsdFcProxParams prm;
    nsd_fc_prox_params_default(&prm);
    prm.increase = 0.5;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_fc3d_prox_ex(t.fc, t.r.data(), t.u.data(), &t.opt, &prm, &t.rep));
    CPPUNIT_ASSERT(t.rep.message[0] != '\0');
    t.opt.tolerance = -1.0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_fc3d_prox));
    t.opt.tolerance = 1e-8;
    t.opt.newton.max_line_search = 0;  // refused by the inner Newton, passed on
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_fc3d_prox));
    CPPUNIT_ASSERT(contains(t.rep.message, "max_line_search"));
  }

  void tableAndDefaults() {
    CPPUNIT_ASSERT_EQUAL(std::string("auto"), std::string(nsd_solver_default(NSD_KIND_FC3D)));
    CPPUNIT_ASSERT_EQUAL(std::string("auto"), std::string(nsd_solver_default(NSD_KIND_LCP)));
    CPPUNIT_ASSERT_EQUAL(std::string("auto"), std::string(nsd_solver_default(NSD_KIND_MLCP)));
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs"), std::string(nsd_solver_default(NSD_KIND_FC2D)));
    const NsdSolverEntry* e = nsd_solver_find(NSD_KIND_FC3D, "prox");
    CPPUNIT_ASSERT(e != nullptr && e->fc == nsd_fc3d_prox);
    e = nsd_solver_find(NSD_KIND_FC3D, "auto");
    CPPUNIT_ASSERT(e != nullptr && e->fc == nsd_fc3d_auto && e->is_default);
  }

  void autoPicksAndReports() {
    // the default of nsd_solve on a small problem: newton_ac first, converged
    NsdProblem p{};
    p.kind = NSD_KIND_FC3D;
    p.fc = readFc3dFile(sharedFc3dPath("Capsules-i101-404.dat"));
    const int m = nsd_problem_size(&p);
    std::vector<double> r(m), u(m);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&p, nullptr, r.data(), u.data(), nullptr, &rep));
    CPPUNIT_ASSERT_EQUAL(std::string("auto:newton_ac"), std::string(rep.solver));
    CPPUNIT_ASSERT(contains(rep.message, "newton_ac converged"));
    CPPUNIT_ASSERT(rep.residual <= 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(nsd_fc_error(p.fc, r.data(), nullptr), rep.residual, 1e-15);
    nsd_problem_clear(&p);
  }

  void autoPlanBySizeAndTolerance() {
    // small: newton_ac, prox, nsgs
    FcTestProblem s(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 0, 0}, {0.5});
    NsdProblem p{};
    p.kind = NSD_KIND_FC3D;
    p.fc = s.fc;
    const char* names[NSD_AUTO_MAX_CANDIDATES] = {};
    CPPUNIT_ASSERT_EQUAL(3, nsd_auto_plan(&p, &s.opt, names, NSD_AUTO_MAX_CANDIDATES));
    CPPUNIT_ASSERT_EQUAL(std::string("newton_ac"), std::string(names[0]));
    CPPUNIT_ASSERT_EQUAL(std::string("prox"), std::string(names[1]));
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs"), std::string(names[2]));

    // 4000 independent contacts, M = 2 I (sparse): nsgs first at 1e-4, newton_ac first at 1e-10
    const int nc = 4000, m = 3 * nc;
    std::vector<int> idx(m);
    std::vector<double> val(m, 2.0), q(m, 0.0), mu(nc, 0.5);
    for (int i = 0; i < m; ++i) idx[i] = i;
    for (int c = 0; c < nc; ++c) {
      q[3 * c] = -1.0;
      q[3 * c + 1] = 0.1 * ((c % 7) - 3);
    }
    FcTestProblem big(nsd_fc_create(
        3, nc, nsd_matrix_create_csc_from_triplets(m, m, m, idx.data(), idx.data(), val.data()),
        q.data(), mu.data()));
    p.fc = big.fc;
    big.opt.tolerance = 1e-4;
    CPPUNIT_ASSERT_EQUAL(3, nsd_auto_plan(&p, &big.opt, names, NSD_AUTO_MAX_CANDIDATES));
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs"), std::string(names[0]));
    assertSolved(big, big.solve(nsd_fc3d_auto), 1e-4);
    CPPUNIT_ASSERT_EQUAL(std::string("auto:nsgs"), std::string(big.rep.solver));
    big.opt.tolerance = 1e-10;
    CPPUNIT_ASSERT_EQUAL(3, nsd_auto_plan(&p, &big.opt, names, NSD_AUTO_MAX_CANDIDATES));
    CPPUNIT_ASSERT_EQUAL(std::string("newton_ac"), std::string(names[0]));
    // capacity is honoured
    CPPUNIT_ASSERT_EQUAL(1, nsd_auto_plan(&p, &big.opt, names, 1));
  }

  void autoFallsBack() {
    // the first candidate (newton_ac) capped at 1 Newton step fails, prox then converges
    FcTestProblem t(readFc3dFile(sharedFc3dPath("Capsules-i101-404.dat")));
    NsdProblem p{};
    p.kind = NSD_KIND_FC3D;
    p.fc = t.fc;
    NsdAutoParams prm{};
    prm.first_max_iterations = 1;
    std::vector<double> hist(400, -1.0);
    t.rep.history = hist.data();
    t.rep.history_capacity = static_cast<int>(hist.size());
    const NsdStatus st = nsd_solve_auto(&p, t.r.data(), t.u.data(), &t.opt, &prm, &t.rep);
    assertSolved(t, st, 1e-8);
    CPPUNIT_ASSERT_EQUAL(std::string("auto:prox"), std::string(t.rep.solver));
    CPPUNIT_ASSERT_MESSAGE(t.rep.message,
                           contains(t.rep.message, "newton_ac max_iterations (1 it"));
    CPPUNIT_ASSERT_MESSAGE(t.rep.message, contains(t.rep.message, "prox converged"));
    CPPUNIT_ASSERT(t.rep.iterations > 1);
    CPPUNIT_ASSERT(t.rep.history_length >= 4);  // newton_ac's 2 entries, then prox's

    // an explicit order; every candidate capped fails honestly with the best answer
    FcTestProblem f(readFc3dFile(sharedFc3dPath("Capsules-i101-404.dat")));
    p.fc = f.fc;
    NsdAutoParams order{};
    order.candidates[0] = "nsgs";
    order.candidates[1] = "newton_ac";
    f.opt.max_iterations = 2;
    const NsdStatus sf = nsd_solve_auto(&p, f.r.data(), f.u.data(), &f.opt, &order, &f.rep);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(f.rep), NSD_MAX_ITERATIONS, sf);
    CPPUNIT_ASSERT(contains(f.rep.message, "nsgs max_iterations"));
    CPPUNIT_ASSERT(contains(f.rep.message, "newton_ac max_iterations"));
    CPPUNIT_ASSERT(contains(f.rep.solver, "auto:"));
    assertConsistent(f, "all capped");
  }

  void autoAcceleratesNsgs() {
    // auto's nsgs candidate sweeps with Anderson acceleration (NSD_AUTO_ANDERSON) unless the
    // options give a memory: on Capsules-i101-404 (8,322 plain sweeps to 1e-8, doc/design.md)
    // the same sweeps, bit for bit, as nsgs with anderson = NSD_AUTO_ANDERSON, and far fewer
    // than plain nsgs; an explicit memory is kept
    const auto run = [](const char* solver, int anderson, NsdReport& rep) {
      FcTestProblem t(readFc3dFile(sharedFc3dPath("Capsules-i101-404.dat")));
      t.opt.nsgs.anderson = anderson;
      t.opt.max_iterations = 20000;
      NsdProblem p{};
      p.kind = NSD_KIND_FC3D;
      p.fc = t.fc;
      NsdAutoParams only{};
      only.candidates[0] = "nsgs";
      const NsdStatus st = std::string(solver) == "auto"
                               ? nsd_solve_auto(&p, t.r.data(), t.u.data(), &t.opt, &only, &t.rep)
                               : nsd_solve(&p, solver, t.r.data(), t.u.data(), &t.opt, &t.rep);
      assertSolved(t, st, 1e-8);
      rep = t.rep;
      return t.r;
    };
    NsdReport plain{}, accelerated{}, chosen{}, three{}, chosenThree{};
    run("nsgs", 0, plain);
    const std::vector<double> ra = run("nsgs", NSD_AUTO_ANDERSON, accelerated);
    const std::vector<double> rc = run("auto", 0, chosen);
    CPPUNIT_ASSERT_EQUAL(std::string("auto:nsgs"), std::string(chosen.solver));
    CPPUNIT_ASSERT_EQUAL(accelerated.iterations, chosen.iterations);
    CPPUNIT_ASSERT(ra == rc);
    CPPUNIT_ASSERT_MESSAGE(describe(plain) + " / " + describe(chosen),
                           chosen.iterations * 4 < plain.iterations);
    const std::vector<double> r3 = run("nsgs", 3, three);
    const std::vector<double> rc3 = run("auto", 3, chosenThree);
    CPPUNIT_ASSERT_EQUAL(three.iterations, chosenThree.iterations);
    CPPUNIT_ASSERT(r3 == rc3);
  }

  void autoRespectsTimeLimit() {
    FcTestProblem t(readFc3dFile(sharedFc3dPath("Capsules-i101-404.dat")));
    t.opt.time_limit = 1e-6;
    const NsdStatus st = t.solve(nsd_fc3d_auto);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_MAX_ITERATIONS, st);
    CPPUNIT_ASSERT_MESSAGE(t.rep.message, contains(t.rep.message, "time limit"));
    CPPUNIT_ASSERT(t.rep.seconds < 0.5);
    assertConsistent(t, "time limit");
    // a limit long enough: solved within it
    FcTestProblem ok(readFc3dFile(sharedFc3dPath("Capsules-i101-404.dat")));
    ok.opt.time_limit = 30.0;
    assertSolved(ok, ok.solve(nsd_fc3d_auto), 1e-8);
    CPPUNIT_ASSERT(ok.rep.seconds < 30.0);
  }

  void autoBadCandidates() {
    FcTestProblem t(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 0, 0}, {0.5});
    NsdProblem p{};
    p.kind = NSD_KIND_FC3D;
    p.fc = t.fc;
    NsdAutoParams prm{};
    prm.candidates[0] = "no_such_solver";
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_solve_auto(&p, t.r.data(), t.u.data(), &t.opt, &prm, &t.rep));
    prm.candidates[0] = "auto";
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_solve_auto(&p, t.r.data(), t.u.data(), &t.opt, &prm, &t.rep));
    NsdProblem none{};
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_solve_auto(&none, t.r.data(), t.u.data(), &t.opt, nullptr, &t.rep));
  }

  void autoLcp() {
    // 2 x 2 LCP, M = [[2, 1], [1, 2]], q = (-1, -1): z = (1/3, 1/3)
    NsdProblem p{};
    p.kind = NSD_KIND_LCP;
    const double rows[4] = {2, 1, 1, 2}, q[2] = {-1, -1};
    p.lcp = nsd_lcp_create(nsd_matrix_create_dense_from_rows(2, 2, rows), q);
    std::vector<double> z(2), w(2);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&p, nullptr, z.data(), w.data(), nullptr, &rep));
    CPPUNIT_ASSERT_EQUAL(std::string("auto:lemke"), std::string(rep.solver));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 / 3.0, z[0], 1e-10);
    nsd_problem_clear(&p);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcProxTest);
