// Known answers of nsd_lcp_pgs and its other names nsd_lcp_nlgs, nsd_lcp_psor
// (Numerics/src/lcp/lcp_nlgs.c).
#include <cppunit/extensions/HelperMacros.h>

#include <limits>
#include <string>
#include <vector>

#include "lcp_cases.hpp"
#include "nsdyn/nsd_solvers.h"

using namespace nsdyn::test;

class LcpNlgsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LcpNlgsTest);
  CPPUNIT_TEST(solvesTwoByTwo);
  CPPUNIT_TEST(psorOverRelaxed);
  CPPUNIT_TEST(otherNamesSameSolver);
  CPPUNIT_TEST(trivialInOneSweep);
  CPPUNIT_TEST(zeroEntriesInQ);
  CPPUNIT_TEST(degenerateSolution);
  CPPUNIT_TEST(repeatedColumns);
  CPPUNIT_TEST(nonUniqueSolution);
  CPPUNIT_TEST(murtyInFewSweeps);
  CPPUNIT_TEST(noSolutionNegativeDiagonal);
  CPPUNIT_TEST(rejectsZeroDiagonalNamingRow);
  CPPUNIT_TEST(rejectsRelaxationOutOfRange);
  CPPUNIT_TEST(rejectsNanInQ);
  CPPUNIT_TEST(warmStartAlreadySolved);
  CPPUNIT_TEST(historyEveryCheck);
  CPPUNIT_TEST(maxIterationsReported);
  CPPUNIT_TEST(timeLimitStops);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesTwoByTwo() {
    auto t = cases::twoByTwo();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 / 3.0, t->z[0], 1e-7);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0 / 3.0, t->z[1], 1e-7);
    CPPUNIT_ASSERT_EQUAL(std::string("nlgs"), std::string(t->rep.solver));
    assertSolves(*t, 1e-8);
  }

  void psorOverRelaxed() {
    // omega = 1.2 converges faster than Gauss-Seidel on this SPD problem
    auto gs = cases::twoByTwo();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, gs->solve(nsd_lcp_nlgs));
    auto t = cases::twoByTwo();
    t->opt.relaxation = 1.2;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_psor));
    CPPUNIT_ASSERT_EQUAL(std::string("psor"), std::string(t->rep.solver));
    CPPUNIT_ASSERT(t->rep.iterations < gs->rep.iterations);
    assertSolves(*t, 1e-8);
  }

  void otherNamesSameSolver() {
    // "nlgs" and "psor" are rows of the table that name "pgs" and run the same sweeps
    const NsdSolverEntry* pgs = nsd_solver_find(NSD_KIND_LCP, "pgs");
    CPPUNIT_ASSERT(pgs && !pgs->alias_of);
    for (const char* other : {"nlgs", "psor"}) {
      const NsdSolverEntry* e = nsd_solver_find(NSD_KIND_LCP, other);
      CPPUNIT_ASSERT(e && e->alias_of);
      CPPUNIT_ASSERT_EQUAL(std::string("pgs"), std::string(e->alias_of));
      CPPUNIT_ASSERT_EQUAL(std::string(pgs->options), std::string(e->options));
    }
    NsdLcpSolver fns[] = {nsd_lcp_pgs, nsd_lcp_nlgs, nsd_lcp_psor};
    const char* names[] = {"pgs", "nlgs", "psor"};
    std::vector<double> z0;
    int it0 = -1;
    for (int k = 0; k < 3; ++k) {
      auto t = cases::twoByTwo();
      t->opt.relaxation = 1.3;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(fns[k]));
      CPPUNIT_ASSERT_EQUAL(std::string(names[k]), std::string(t->rep.solver));
      if (k == 0) {
        z0 = t->z;
        it0 = t->rep.iterations;
      }
      CPPUNIT_ASSERT_EQUAL(it0, t->rep.iterations);
      for (size_t i = 0; i < z0.size(); ++i) CPPUNIT_ASSERT_EQUAL(z0[i], t->z[i]);  // bit-identical
    }
  }

  void trivialInOneSweep() {
    auto t = cases::trivial();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_EQUAL(0, t->rep.iterations);  // z = 0 already solves it
    CPPUNIT_ASSERT_EQUAL(0.0, t->z[0]);
    CPPUNIT_ASSERT_EQUAL(0.0, t->z[1]);
  }

  void zeroEntriesInQ() {
    auto t = cases::zeroInQ();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[0], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[1], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[2], 1e-8);
    assertSolves(*t, 1e-8);
  }

  void degenerateSolution() {
    auto t = cases::degenerateSolution();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[1], 1e-12);
    assertSolves(*t, 1e-12);
  }

  void repeatedColumns() {
    auto t = cases::repeatedColumns();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-8);
    assertSolves(*t, 1e-8);
  }

  void nonUniqueSolution() {
    auto t = cases::nonUnique();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-8);
    assertSolves(*t, 1e-8);
  }

  void murtyInFewSweeps() {
    auto t = cases::murty(8);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[0], 1e-12);
    assertSolves(*t, 1e-12);
  }

  void noSolutionNegativeDiagonal() {
    // M = -1: rejected before any sweep (the diagonal must be positive)
    auto t = cases::noSolution();
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_EQUAL(0, t->rep.iterations);
  }

  void rejectsZeroDiagonalNamingRow() {
    TestLcp t({2, 1, 1, 0}, {-1, -1});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_lcp_nlgs));
    const std::string msg = t.rep.message;
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("M[1][1]") != std::string::npos);
  }

  void rejectsRelaxationOutOfRange() {
    for (double omega : {2.5, 2.0, 0.0, -1.0, std::numeric_limits<double>::quiet_NaN()}) {
      auto t = cases::twoByTwo();
      t->opt.relaxation = omega;
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_psor));
      const std::string msg = t->rep.message;
      CPPUNIT_ASSERT_MESSAGE(msg, msg.find("relaxation") != std::string::npos);
    }
  }

  void rejectsNanInQ() {
    TestLcp t({2, 1, 1, 2}, {std::numeric_limits<double>::quiet_NaN(), -1});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_lcp_nlgs));
  }

  void warmStartAlreadySolved() {
    auto t = cases::twoByTwo();
    t->z = {4.0 / 3.0, 7.0 / 3.0};
    t->opt.warm_start = 1;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_EQUAL(0, t->rep.iterations);
  }

  void historyEveryCheck() {
    // the residual is recorded each check_every sweeps and decreases
    auto t = cases::twoByTwo();
    std::vector<double> history(100, -1.0);
    t->rep.history = history.data();
    t->rep.history_capacity = 100;
    t->opt.pgs.check_every = 2;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_EQUAL((t->rep.iterations + 1) / 2, t->rep.history_length);
    for (int k = 1; k < t->rep.history_length; ++k)
      CPPUNIT_ASSERT(history[static_cast<size_t>(k)] < history[static_cast<size_t>(k) - 1]);
    CPPUNIT_ASSERT(history[static_cast<size_t>(t->rep.history_length) - 1] <= 1e-8);
  }

  void maxIterationsReported() {
    auto t = cases::twoByTwo();
    t->opt.max_iterations = 3;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, t->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_EQUAL(3, t->rep.iterations);
    CPPUNIT_ASSERT(t->rep.residual > 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(nsd_lcp_error(t->get(), t->z.data(), nullptr), t->rep.residual,
                                 1e-15);
  }

  void timeLimitStops() {
    // n = 300, weak diagonal dominance: many sweeps needed, stopped by a 1 us limit
    const int n = 300;
    std::vector<double> m(static_cast<size_t>(n * n), 0.0), q(static_cast<size_t>(n), -1.0);
    for (int i = 0; i < n; ++i) {
      m[static_cast<size_t>(i * n + i)] = 2.0;
      if (i > 0) m[static_cast<size_t>(i * n + i - 1)] = -1.0;
      if (i + 1 < n) m[static_cast<size_t>(i * n + i + 1)] = -1.0;
    }
    TestLcp t(m, q);
    t.opt.max_iterations = 1000000;
    t.opt.time_limit = 1e-6;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, t.solve(nsd_lcp_nlgs));
    const std::string msg = t.rep.message;
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("time limit") != std::string::npos);
    CPPUNIT_ASSERT(t.rep.iterations < 1000000);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LcpNlgsTest);
