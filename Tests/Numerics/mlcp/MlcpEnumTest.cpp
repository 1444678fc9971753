// nsd_mlcp_enum: size limit, infeasible problems, degenerate bases.
#include <cppunit/extensions/HelperMacros.h>

#include <cstring>

#include "mlcp_test_util.hpp"

using nsdyn::test::describe;
using nsdyn::test::TestMlcp;

namespace {
bool contains(const char* text, const char* part) {
  return std::strstr(text, part) != nullptr;
}
}  // namespace

class MlcpEnumTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MlcpEnumTest);
  CPPUNIT_TEST(refusesMoreBoundedRowsThanMaxSize);
  CPPUNIT_TEST(freeAndFixedRowsDoNotCountTowardMaxSize);
  CPPUNIT_TEST(reportsInfeasibleProblem);
  CPPUNIT_TEST(skipsSingularBases);
  CPPUNIT_TEST(warmStartPicksFirstCase);
  CPPUNIT_TEST_SUITE_END();

 public:
  void refusesMoreBoundedRowsThanMaxSize() {
    auto t = TestMlcp::mixed(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, -1, -1}, {1, 1, 1});
    t->opt.enumerative.max_size = 2;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_mlcp_enum));
    CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "max_size=2"));
  }

  // One bounded row, one free, one fixed: max_size = 1 is enough.
  void freeAndFixedRowsDoNotCountTowardMaxSize() {
    auto t = TestMlcp::box(3, {2, 0, 0, 0, 1, 0, 0, 0, 3}, {-2, 1, -3}, {-INFINITY, 0, 4},
                           {INFINITY, INFINITY, 4});
    t->opt.enumerative.max_size = 1;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe("enum", t->rep), NSD_OK, t->solve(nsd_mlcp_enum));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, t->z[2], 1e-12);
  }

  // w = -z - 1 >= 0 has no solution with z >= 0: every case is infeasible.
  void reportsInfeasibleProblem() {
    auto t = TestMlcp::mixed(1, {-1}, {-1}, {1});
    CPPUNIT_ASSERT_EQUAL(NSD_FAILED, t->solve(nsd_mlcp_enum));
    CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "no feasible case"));
    CPPUNIT_ASSERT_EQUAL(2, t->rep.iterations);
  }

  // M = [[0,1],[0,1]], q = (-1,-1): from z = 0 (w < 0) the first case has both rows
  // basic, a singular block; the second, z0 = 0 and w1 = 0, gives z = (0, 1), w0 = 0.
  void skipsSingularBases() {
    auto t = TestMlcp::mixed(2, {0, 1, 0, 1}, {-1, -1}, {1, 1});
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe("enum", t->rep), NSD_OK, t->solve(nsd_mlcp_enum));
    CPPUNIT_ASSERT_EQUAL(2, t->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[1], 1e-12);
  }

  // Starting at the solution, the first case tried is the right one.
  void warmStartPicksFirstCase() {
    auto t = TestMlcp::mixed(3, {2, 1, 1, -1, 1, 0, -1, 0, 1}, {-4, 1, -3}, {0, 1, 1});
    t->opt.warm_start = 1;
    t->z = {1.0 / 3, 0, 10.0 / 3};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_mlcp_enum));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MlcpEnumTest);
