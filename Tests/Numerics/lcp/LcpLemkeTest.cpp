// Known answers of nsd_lcp_lemke (Numerics/src/lcp/lcp_lemke.c).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <limits>
#include <string>

#include "lcp_cases.hpp"

using namespace nsdyn::test;

class LcpLemkeTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LcpLemkeTest);
  CPPUNIT_TEST(solvesTwoByTwo);
  CPPUNIT_TEST(trivialWhenQNonNegative);
  CPPUNIT_TEST(zeroEntriesInQ);
  CPPUNIT_TEST(degenerateSolution);
  CPPUNIT_TEST(repeatedColumns);
  CPPUNIT_TEST(nonUniqueSolution);
  CPPUNIT_TEST(rayTerminationWithoutSolution);
  CPPUNIT_TEST(murtyExponentialPivots);
  CPPUNIT_TEST(murtyTransposedIsEasy);
  CPPUNIT_TEST(pivotCapReported);
  CPPUNIT_TEST(warmStartAlreadySolved);
  CPPUNIT_TEST(nullOptionsAreDefaults);
  CPPUNIT_TEST(nullReportToleratedByAll);
  CPPUNIT_TEST(rejectsNanInQ);
  CPPUNIT_TEST(rejectsNonSquare);
  CPPUNIT_TEST(rejectsNullOutput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesTwoByTwo() {
    // M = [2 1; 1 2], q = (-5, -6)  =>  z = (4/3, 7/3), w = 0
    auto t = cases::twoByTwo();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 / 3.0, t->z[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0 / 3.0, t->z[1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->w[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->w[1], 1e-12);
    CPPUNIT_ASSERT(t->rep.iterations >= 2);
    CPPUNIT_ASSERT_EQUAL(std::string("lemke"), std::string(t->rep.solver));
    assertSolves(*t, 1e-12);
  }

  void trivialWhenQNonNegative() {
    auto t = cases::trivial();
    t->z = {5, 5};  // overwritten: no warm start
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_EQUAL(0, t->rep.iterations);
    CPPUNIT_ASSERT_EQUAL(0.0, t->z[0]);
    CPPUNIT_ASSERT_EQUAL(0.0, t->z[1]);
    CPPUNIT_ASSERT_EQUAL(1.0, t->w[0]);
    CPPUNIT_ASSERT_EQUAL(0.0, t->rep.residual);
  }

  void zeroEntriesInQ() {
    auto t = cases::zeroInQ();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[2], 1e-12);
    assertSolves(*t, 1e-12);
  }

  void degenerateSolution() {
    auto t = cases::degenerateSolution();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[1], 1e-12);
    assertSolves(*t, 1e-12);
  }

  void repeatedColumns() {
    auto t = cases::repeatedColumns();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-12);
    assertSolves(*t, 1e-12);
  }

  void nonUniqueSolution() {
    // solutions z1 + z2 = 1: check complementarity and residual, not z
    auto t = cases::nonUnique();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-12);
    assertSolves(*t, 1e-12);
  }

  void rayTerminationWithoutSolution() {
    auto t = cases::noSolution();
    CPPUNIT_ASSERT_EQUAL(NSD_FAILED, t->solve(nsd_lcp_lemke));
    const std::string msg = t->rep.message;
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("ray termination") != std::string::npos);
    CPPUNIT_ASSERT(t->rep.iterations >= 1);
    CPPUNIT_ASSERT(t->rep.residual > 1e-8);
    // the residual reported is the error of the z returned
    CPPUNIT_ASSERT_DOUBLES_EQUAL(nsd_lcp_error(t->get(), t->z.data(), nullptr), t->rep.residual,
                                 1e-15);
  }

  void murtyExponentialPivots() {
    // n = 8: 2^8 pivots (z0 in, 2^8 - 2 complementary pivots, z0 out), z = e_1
    auto t = cases::murty(8);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_EQUAL(256, t->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[0], 1e-12);
    for (size_t i = 1; i < 8; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[i], 1e-12);
    assertSolves(*t, 1e-14);
  }

  void murtyTransposedIsEasy() {
    auto t = cases::murty(8, false);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_EQUAL(2, t->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[7], 1e-12);
    assertSolves(*t, 1e-14);
  }

  void pivotCapReported() {
    // cap = max(max_iterations, 10 n + 100) = 180 < 256 pivots needed
    auto t = cases::murty(8);
    t->opt.max_iterations = 10;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_EQUAL(180, t->rep.iterations);
    CPPUNIT_ASSERT(t->rep.residual > 1e-8);
  }

  void warmStartAlreadySolved() {
    auto t = cases::twoByTwo();
    t->z = {4.0 / 3.0, 7.0 / 3.0};
    t->opt.warm_start = 1;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT_EQUAL(0, t->rep.iterations);
    assertSolves(*t, 1e-12);
  }

  void nullOptionsAreDefaults() {
    auto t = cases::twoByTwo();
    CPPUNIT_ASSERT_EQUAL(NSD_OK,
                         nsd_lcp_lemke(t->get(), t->z.data(), t->w.data(), nullptr, &t->rep));
    assertSolves(*t, 1e-12);
  }

  void nullReportToleratedByAll() {
    for (const auto& s : lcpSolvers()) {
      auto t = cases::twoByTwo();
      CPPUNIT_ASSERT_EQUAL_MESSAGE(s.name, NSD_OK,
                                   s.fn(t->get(), t->z.data(), t->w.data(), nullptr, nullptr));
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(s.name, 4.0 / 3.0, t->z[0], 1e-7);
    }
  }

  void rejectsNanInQ() {
    TestLcp t({2, 1, 1, 2}, {-1, std::numeric_limits<double>::quiet_NaN()});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT(t.rep.message[0] != '\0');
  }

  void rejectsNonSquare() {
    const double m[6] = {1, 0, 0, 1, 0, 0};
    const double q[2] = {-1, -1};
    NsdLcp* p = nsd_lcp_create(nsd_matrix_create_dense_from_rows(2, 3, m), q);
    CPPUNIT_ASSERT(p != nullptr);
    TestLcp t(p);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_lcp_lemke));
    CPPUNIT_ASSERT(t.rep.message[0] != '\0');
  }

  void rejectsNullOutput() {
    auto t = cases::twoByTwo();
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_lcp_lemke(t->get(), nullptr, t->w.data(), &t->opt, &t->rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_lcp_lemke(nullptr, t->z.data(), t->w.data(), &t->opt, &t->rep));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LcpLemkeTest);
