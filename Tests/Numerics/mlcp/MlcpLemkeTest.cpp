// nsd_mlcp_lemke: accepted row kinds, singular free block, ray termination.
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

class MlcpLemkeTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MlcpLemkeTest);
  CPPUNIT_TEST(rejectsBoxWithFiniteUpperBound);
  CPPUNIT_TEST(rejectsUpperOnlyRow);
  CPPUNIT_TEST(failsOnSingularFreeBlock);
  CPPUNIT_TEST(reportsRayTermination);
  CPPUNIT_TEST(countsPivotsOfTheSchurLcp);
  CPPUNIT_TEST_SUITE_END();

 public:
  void rejectsBoxWithFiniteUpperBound() {
    auto t = TestMlcp::box(2, {2, 1, 1, 2}, {-5, -6}, {0, 0}, {INFINITY, 1});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_mlcp_lemke));
    CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "row 1"));
  }

  void rejectsUpperOnlyRow() {
    auto t = TestMlcp::box(2, {2, 1, 1, 2}, {-5, -6}, {-INFINITY, 0}, {0, INFINITY});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_mlcp_lemke));
    CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "row 0"));
  }

  // Free row 0 has A = M_00 = 0: v - 1 = 0, w = u + v, solvable (u = -1, v = 1)
  // but not by elimination of u; the solver says so instead of guessing.
  void failsOnSingularFreeBlock() {
    auto t = TestMlcp::mixed(2, {0, 1, 1, 1}, {-1, 0}, {0, 1});
    CPPUNIT_ASSERT_EQUAL(NSD_FAILED, t->solve(nsd_mlcp_lemke));
    CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "singular"));
    CPPUNIT_ASSERT(t->rep.residual > t->opt.tolerance);
  }

  // w = -v - 1 >= 0 with v >= 0 has no solution: Lemke ends on a ray.
  void reportsRayTermination() {
    auto t = TestMlcp::mixed(2, {1, 0, 0, -1}, {-1, -1}, {0, 1});
    CPPUNIT_ASSERT_EQUAL(NSD_FAILED, t->solve(nsd_mlcp_lemke));
    CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, "ray"));
  }

  void countsPivotsOfTheSchurLcp() {
    auto t = TestMlcp::mixed(3, {2, 1, 1, -1, 1, 0, -1, 0, 1}, {-4, 1, -3}, {0, 1, 1});
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe("lemke", t->rep), NSD_OK, t->solve(nsd_mlcp_lemke));
    CPPUNIT_ASSERT(t->rep.iterations >= 1);

    auto e = TestMlcp::mixed(2, {2, 1, 1, 2}, {-3, -3}, {0, 0});
    CPPUNIT_ASSERT_EQUAL(NSD_OK, e->solve(nsd_mlcp_lemke));
    CPPUNIT_ASSERT_EQUAL(0, e->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, e->z[0], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, e->z[1], 1e-14);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MlcpLemkeTest);
