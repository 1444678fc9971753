// nsd_mlcp_pgs: pivot checks, relaxation, warm start, history, limits.
#include <cppunit/extensions/HelperMacros.h>

#include <cstring>
#include <vector>

#include "mlcp_test_util.hpp"

using nsdyn::test::describe;
using nsdyn::test::TestMlcp;

namespace {
// M = [[2,1],[1,2]], q = (-5,-6), both rows complementarity: z = (4/3, 7/3).
std::unique_ptr<TestMlcp> twoByTwo() {
  return TestMlcp::mixed(2, {2, 1, 1, 2}, {-5, -6}, {1, 1});
}
bool contains(const char* text, const char* part) {
  return std::strstr(text, part) != nullptr;
}
}  // namespace

class MlcpPgsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MlcpPgsTest);
  CPPUNIT_TEST(rejectsZeroDiagonalOnFreeRow);
  CPPUNIT_TEST(rejectsNonPositiveDiagonalOnBoundedRow);
  CPPUNIT_TEST(acceptsNegativeDiagonalOnFreeRow);
  CPPUNIT_TEST(rejectsRelaxationOutsideOpenInterval);
  CPPUNIT_TEST(overRelaxationConverges);
  CPPUNIT_TEST(warmStartAtSolutionNeedsNoSweep);
  CPPUNIT_TEST(recordsResidualHistory);
  CPPUNIT_TEST(stopsAtMaxIterations);
  CPPUNIT_TEST(stopsAtTimeLimit);
  CPPUNIT_TEST(acceptsNullOptionsAndReport);
  CPPUNIT_TEST_SUITE_END();

 public:
  void rejectsZeroDiagonalOnFreeRow() {
    auto t = TestMlcp::mixed(2, {0, 1, 1, 2}, {-1, -1}, {0, 1});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_mlcp_pgs));
    CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "free row 0"));
  }

  void rejectsNonPositiveDiagonalOnBoundedRow() {
    auto t = TestMlcp::mixed(2, {2, 1, 1, -1}, {-1, -1}, {0, 1});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_mlcp_pgs));
    CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "bounded row 1"));
  }

  // A free row only needs a nonzero pivot: -z0 + 3 = 0 and z1 = max(0, -(z0 - 1)/2) = 0.
  void acceptsNegativeDiagonalOnFreeRow() {
    auto t = TestMlcp::mixed(2, {-1, 0, 1, 2}, {3, -1}, {0, 1});
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe("pgs", t->rep), NSD_OK, t->solve(nsd_mlcp_pgs));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, t->z[0], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[1], 1e-8);
  }

  void rejectsRelaxationOutsideOpenInterval() {
    for (double omega : {0.0, 2.0, -0.5, (double)NAN}) {
      auto t = twoByTwo();
      t->opt.relaxation = omega;
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_mlcp_pgs));
      CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "relaxation"));
    }
  }

  void overRelaxationConverges() {
    auto t = twoByTwo();
    t->opt.relaxation = 1.3;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe("pgs", t->rep), NSD_OK, t->solve(nsd_mlcp_pgs));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 / 3, t->z[0], 1e-7);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0 / 3, t->z[1], 1e-7);
  }

  void warmStartAtSolutionNeedsNoSweep() {
    auto t = twoByTwo();
    t->opt.warm_start = 1;
    t->z = {4.0 / 3, 7.0 / 3};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_mlcp_pgs));
    CPPUNIT_ASSERT_EQUAL(0, t->rep.iterations);
  }

  void recordsResidualHistory() {
    auto t = twoByTwo();
    std::vector<double> history(50, -1.0);
    t->rep.history = history.data();
    t->rep.history_capacity = (int)history.size();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_mlcp_pgs));
    CPPUNIT_ASSERT(t->rep.iterations > 1);
    CPPUNIT_ASSERT_EQUAL(t->rep.iterations, t->rep.history_length);
    CPPUNIT_ASSERT(history[0] > history[t->rep.history_length - 1]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(t->rep.residual, history[t->rep.history_length - 1], 1e-15);
  }

  void stopsAtMaxIterations() {
    auto t = twoByTwo();
    t->opt.max_iterations = 2;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, t->solve(nsd_mlcp_pgs));
    CPPUNIT_ASSERT_EQUAL(2, t->rep.iterations);
    CPPUNIT_ASSERT(t->rep.residual > t->opt.tolerance);
  }

  // Any positive limit has passed after the first sweep of this problem (which needs several).
  void stopsAtTimeLimit() {
    auto t = twoByTwo();
    t->opt.time_limit = 1e-300;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, t->solve(nsd_mlcp_pgs));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);
    CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "time limit"));
  }

  void acceptsNullOptionsAndReport() {
    auto t = twoByTwo();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_mlcp_pgs(t->p, t->z.data(), t->w.data(), nullptr, nullptr));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 / 3, t->z[0], 1e-7);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MlcpPgsTest);
