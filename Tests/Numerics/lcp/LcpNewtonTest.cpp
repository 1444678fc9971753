// Known answers of nsd_lcp_newton, nsd_lcp_newton_fb, nsd_lcp_newton_min and
// nsd_lcp_newton_min_fblsa (Numerics/src/lcp/lcp_newton.c).
#include <cppunit/extensions/HelperMacros.h>

#include <limits>
#include <string>
#include <vector>

#include "lcp_cases.hpp"

using namespace nsdyn::test;

namespace {
const NsdLcpSolver kNewtons[3] = {nsd_lcp_newton_fb, nsd_lcp_newton_min, nsd_lcp_newton_min_fblsa};
}

class LcpNewtonTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LcpNewtonTest);
  CPPUNIT_TEST(solvesTwoByTwo);
  CPPUNIT_TEST(meritOptionSelects);
  CPPUNIT_TEST(trivialAtStart);
  CPPUNIT_TEST(zeroEntriesInQ);
  CPPUNIT_TEST(degenerateSolution);
  CPPUNIT_TEST(repeatedColumns);
  CPPUNIT_TEST(nonUniqueSolution);
  CPPUNIT_TEST(murty);
  CPPUNIT_TEST(noSolutionReported);
  CPPUNIT_TEST(singularJacobianFallsBack);
  CPPUNIT_TEST(minFblsaExactOnActiveSet);
  CPPUNIT_TEST(minFblsaIgnoresMeritOption);
  CPPUNIT_TEST(minFblsaSingularMinJacobian);
  CPPUNIT_TEST(historyRecorded);
  CPPUNIT_TEST(rejectsBadOptions);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesTwoByTwo() {
    for (NsdLcpSolver s : kNewtons) {
      auto t = cases::twoByTwo();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(s));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 / 3.0, t->z[0], 1e-8);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0 / 3.0, t->z[1], 1e-8);
      assertSolves(*t, 1e-8);
    }
  }

  void meritOptionSelects() {
    // nsd_lcp_newton follows options->newton.merit; the wrappers force theirs
    auto fb = cases::zeroInQ();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, fb->solve(nsd_lcp_newton));
    CPPUNIT_ASSERT_EQUAL(std::string("newton_fb"), std::string(fb->rep.solver));
    auto mn = cases::zeroInQ();
    mn->opt.newton.merit = NSD_MERIT_MIN;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, mn->solve(nsd_lcp_newton));
    CPPUNIT_ASSERT_EQUAL(std::string("newton_min"), std::string(mn->rep.solver));
    auto forced = cases::zeroInQ();
    forced->opt.newton.merit = NSD_MERIT_MIN;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, forced->solve(nsd_lcp_newton_fb));
    CPPUNIT_ASSERT_EQUAL(std::string("newton_fb"), std::string(forced->rep.solver));
    CPPUNIT_ASSERT_EQUAL(fb->rep.iterations, forced->rep.iterations);
  }

  void trivialAtStart() {
    for (NsdLcpSolver s : kNewtons) {
      auto t = cases::trivial();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(s));
      CPPUNIT_ASSERT_EQUAL(0, t->rep.iterations);
      CPPUNIT_ASSERT_EQUAL(0.0, t->z[0]);
    }
  }

  void zeroEntriesInQ() {
    for (NsdLcpSolver s : kNewtons) {
      auto t = cases::zeroInQ();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(s));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[0], 1e-8);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[1], 1e-8);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[2], 1e-8);
      assertSolves(*t, 1e-8);
    }
  }

  void degenerateSolution() {
    for (NsdLcpSolver s : kNewtons) {
      auto t = cases::degenerateSolution();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(s));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[1], 1e-8);
      assertSolves(*t, 1e-8);
    }
  }

  void repeatedColumns() {
    for (NsdLcpSolver s : kNewtons) {
      auto t = cases::repeatedColumns();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(s));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-8);
      assertSolves(*t, 1e-8);
    }
  }

  void nonUniqueSolution() {
    for (NsdLcpSolver s : kNewtons) {
      auto t = cases::nonUnique();
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(s));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-8);
      assertSolves(*t, 1e-8);
    }
  }

  void murty() {
    for (NsdLcpSolver s : kNewtons)
      for (bool lower : {true, false}) {
        auto t = cases::murty(8, lower);
        CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(s));
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[lower ? 0 : 7], 1e-8);
        assertSolves(*t, 1e-8);
      }
  }

  void noSolutionReported() {
    // M = -1: Phi has no zero; the solver stops honestly with a failure status
    for (NsdLcpSolver s : kNewtons) {
      auto t = cases::noSolution();
      const NsdStatus st = t->solve(s);
      CPPUNIT_ASSERT_MESSAGE(describe(t->rep), st == NSD_FAILED || st == NSD_MAX_ITERATIONS);
      CPPUNIT_ASSERT(t->rep.message[0] != '\0');
      CPPUNIT_ASSERT(t->rep.residual > 1e-8);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(nsd_lcp_error(t->get(), t->z.data(), nullptr), t->rep.residual,
                                   1e-15);
    }
  }

  void singularJacobianFallsBack() {
    // lcp_CPS_1 with the min merit: at z = 0 both rows take M's row, H = M is
    // singular; the gradient step reaches z = (1/2, 1/2), a solution
    auto t = cases::nonUnique();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_newton_min));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[1], 1e-15);
    assertSolves(*t, 1e-15);
  }

  void minFblsaExactOnActiveSet() {
    // twoByTwo from z = 0: w = q < 0, the min function takes both rows of M,
    // H = M and the full Newton step lands on z = M^{-1}(-q) = (4/3, 7/3)
    auto t = cases::twoByTwo();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_newton_min_fblsa));
    CPPUNIT_ASSERT_EQUAL(std::string("newton_min_fblsa"), std::string(t->rep.solver));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 / 3.0, t->z[0], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0 / 3.0, t->z[1], 1e-14);
    assertSolves(*t, 1e-14);

    // degenerate: M = I, q = (0, -1); at z = 0 row 1 ties (z row), row 2 takes
    // w, H = I, and one step gives z = (0, 1) with w = (0, 0)
    auto d = cases::degenerateSolution();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, d->solve(nsd_lcp_newton_min_fblsa));
    CPPUNIT_ASSERT_EQUAL(1, d->rep.iterations);
    CPPUNIT_ASSERT_EQUAL(0.0, d->z[0]);
    CPPUNIT_ASSERT_EQUAL(1.0, d->z[1]);
    assertSolves(*d, 0.0);
  }

  void minFblsaIgnoresMeritOption() {
    auto a = cases::zeroInQ();
    a->opt.newton.merit = NSD_MERIT_MIN;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, a->solve(nsd_lcp_newton_min_fblsa));
    auto b = cases::zeroInQ();
    b->opt.newton.merit = NSD_MERIT_FISCHER_BURMEISTER;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, b->solve(nsd_lcp_newton_min_fblsa));
    CPPUNIT_ASSERT_EQUAL(std::string("newton_min_fblsa"), std::string(b->rep.solver));
    CPPUNIT_ASSERT_EQUAL(a->rep.iterations, b->rep.iterations);
    for (size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_EQUAL(a->z[i], b->z[i]);
  }

  void minFblsaSingularMinJacobian() {
    // lcp_CPS_4: the min merit alone stops at a local minimum that is not a
    // solution; with the Fischer-Burmeister Newton step where the min Jacobian
    // is singular and the line search on theta_FB, the unique solution
    auto m = cases::singularMinJacobian();
    CPPUNIT_ASSERT(m->solve(nsd_lcp_newton_min) != NSD_OK);
    CPPUNIT_ASSERT(m->rep.residual > 1e-8);

    auto t = cases::singularMinJacobian();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t->rep), NSD_OK, t->solve(nsd_lcp_newton_min_fblsa));
    const double expect[4] = {2.0, 2.0, 2.0, 92.0};
    for (size_t i = 0; i < 4; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(expect[i], t->z[i], 1e-9 * 92.0);
    assertSolves(*t, 1e-8);
    CPPUNIT_ASSERT(t->rep.iterations <= 20);
  }

  void historyRecorded() {
    auto t = cases::twoByTwo();
    std::vector<double> history(50, -1.0);
    t->rep.history = history.data();
    t->rep.history_capacity = 50;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_newton_fb));
    CPPUNIT_ASSERT_EQUAL(t->rep.iterations, t->rep.history_length);
    CPPUNIT_ASSERT(history[static_cast<size_t>(t->rep.history_length) - 1] <= 1e-8);
  }

  void rejectsBadOptions() {
    auto t = cases::twoByTwo();
    t->opt.newton.step_shrink = 1.5;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_newton_fb));
    t->opt.newton.step_shrink = 0.5;
    t->opt.newton.armijo_sigma = 0.0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_newton_min));
    t->opt.newton.armijo_sigma = 1e-4;
    t->opt.newton.max_line_search = 0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_newton_fb));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_newton_min_fblsa));
    CPPUNIT_ASSERT(std::string(t->rep.message).find("max_line_search") != std::string::npos);
    t->opt.newton.max_line_search = 40;
    t->opt.newton.merit = static_cast<NsdNewtonMerit>(7);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_newton));
    t->opt.newton.merit = NSD_MERIT_FISCHER_BURMEISTER;
    t->opt.tolerance = -1.0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_newton));
    TestLcp nan({2, 1, 1, 2}, {-1, std::numeric_limits<double>::quiet_NaN()});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nan.solve(nsd_lcp_newton_fb));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LcpNewtonTest);
