// Known answers of nsd_lcp_enum (Numerics/src/lcp/lcp_enum.c).
#include <cppunit/extensions/HelperMacros.h>

#include <limits>
#include <string>
#include <vector>

#include "lcp_cases.hpp"

using namespace nsdyn::test;

class LcpEnumTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LcpEnumTest);
  CPPUNIT_TEST(solvesTwoByTwo);
  CPPUNIT_TEST(trivialFirstBasis);
  CPPUNIT_TEST(zeroEntriesInQ);
  CPPUNIT_TEST(degenerateSolution);
  CPPUNIT_TEST(repeatedColumns);
  CPPUNIT_TEST(nonUniqueSolution);
  CPPUNIT_TEST(noSolutionAfterAllBases);
  CPPUNIT_TEST(murty);
  CPPUNIT_TEST(warmStartBasisFirst);
  CPPUNIT_TEST(rejectsTooLarge);
  CPPUNIT_TEST(rejectsNanInQ);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesTwoByTwo() {
    auto t = cases::twoByTwo();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_enum));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);  // first guess {i : q_i < 0}
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 / 3.0, t->z[0], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0 / 3.0, t->z[1], 1e-14);
    CPPUNIT_ASSERT_EQUAL(std::string("enum"), std::string(t->rep.solver));
    assertSolves(*t, 1e-14);
  }

  void trivialFirstBasis() {
    auto t = cases::trivial();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_enum));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);
    CPPUNIT_ASSERT_EQUAL(0.0, t->z[0]);
    CPPUNIT_ASSERT_EQUAL(0.0, t->z[1]);
  }

  void zeroEntriesInQ() {
    auto t = cases::zeroInQ();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_enum));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[0], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[1], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[2], 1e-14);
    assertSolves(*t, 1e-14);
  }

  void degenerateSolution() {
    auto t = cases::degenerateSolution();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_enum));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[1], 1e-14);
    assertSolves(*t, 1e-14);
  }

  void repeatedColumns() {
    // every basis with two or more indices is singular; a single index solves it
    auto t = cases::repeatedColumns();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_enum));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-14);
    assertSolves(*t, 1e-14);
  }

  void nonUniqueSolution() {
    auto t = cases::nonUnique();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_enum));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-14);
    assertSolves(*t, 1e-14);
  }

  void noSolutionAfterAllBases() {
    auto t = cases::noSolution();
    CPPUNIT_ASSERT_EQUAL(NSD_FAILED, t->solve(nsd_lcp_enum));
    CPPUNIT_ASSERT_EQUAL(2, t->rep.iterations);
    CPPUNIT_ASSERT(t->rep.residual > 1e-8);
  }

  void murty() {
    // unique solution e_1 (lower) / e_8 (upper), found among the 2^8 bases
    for (bool lower : {true, false}) {
      auto t = cases::murty(8, lower);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_enum));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[lower ? 0 : 7], 1e-14);
      CPPUNIT_ASSERT(t->rep.iterations <= 257);
      assertSolves(*t, 1e-14);
    }
  }

  void warmStartBasisFirst() {
    // the support of a warm start is tried first: found in one basis
    auto t = cases::murty(8, false);
    t->z.assign(8, 0.0);
    t->z[7] = 0.9;
    t->opt.warm_start = 1;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_enum));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[7], 1e-14);
  }

  void rejectsTooLarge() {
    auto t = cases::murty(8);
    t->opt.enumerative.max_size = 7;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_enum));
    const std::string msg = t->rep.message;
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("max_size") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(0, t->rep.iterations);
  }

  void rejectsNanInQ() {
    TestLcp t({2, 1, 1, 2}, {-1, std::numeric_limits<double>::quiet_NaN()});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_lcp_enum));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LcpEnumTest);
