// nsd_mlcp_newton: both merits, option checks, convergence behaviour.
#include <cppunit/extensions/HelperMacros.h>

#include <cstring>
#include <vector>

#include "mlcp_test_util.hpp"

using nsdyn::test::describe;
using nsdyn::test::TestMlcp;

namespace {
bool contains(const char* text, const char* part) {
  return std::strstr(text, part) != nullptr;
}
std::unique_ptr<TestMlcp> mixedByHand() {
  return TestMlcp::mixed(3, {2, 1, 1, -1, 1, 0, -1, 0, 1}, {-4, 1, -3}, {0, 1, 1});
}
}  // namespace

class MlcpNewtonTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MlcpNewtonTest);
  CPPUNIT_TEST(minMeritSolvesMixedAndBox);
  CPPUNIT_TEST(linearSystemTakesOneStep);
  CPPUNIT_TEST(rejectsBadNewtonOptions);
  CPPUNIT_TEST(reportsStationaryPointOfMerit);
  CPPUNIT_TEST(recordsHistory);
  CPPUNIT_TEST_SUITE_END();

 public:
  void minMeritSolvesMixedAndBox() {
    auto t = mixedByHand();
    t->opt.newton.merit = NSD_MERIT_MIN;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe("newton", t->rep), NSD_OK, t->solve(nsd_mlcp_newton));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 / 3, t->z[0], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[1], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(10.0 / 3, t->z[2], 1e-8);

    auto b = TestMlcp::box(3, {2, 1, 0, 1, 2, 0, 0, 0, 1}, {-5, -6, 3}, {0, 0, -1}, {1, 3, 1});
    b->opt.newton.merit = NSD_MERIT_MIN;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe("newton", b->rep), NSD_OK, b->solve(nsd_mlcp_newton));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, b->z[0], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, b->z[1], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, b->z[2], 1e-8);
  }

  // Phi = w = M z + q on free rows: one full Newton step solves it.
  void linearSystemTakesOneStep() {
    auto t = TestMlcp::mixed(3, {4, 1, 0, 1, 3, 1, 0, 1, 2}, {-2, 2, -4}, {0, 0, 0});
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_mlcp_newton));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);
  }

  void rejectsBadNewtonOptions() {
    struct Case {
      const char* field;
      void (*set)(NsdSolverOptions*);
    };
    const Case cases[] = {
        {"newton.merit", [](NsdSolverOptions* o) { o->newton.merit = (NsdNewtonMerit)7; }},
        {"newton.max_line_search", [](NsdSolverOptions* o) { o->newton.max_line_search = -1; }},
        {"newton.armijo_sigma", [](NsdSolverOptions* o) { o->newton.armijo_sigma = 0; }},
        {"newton.step_shrink", [](NsdSolverOptions* o) { o->newton.step_shrink = 1; }},
        {"tolerance", [](NsdSolverOptions* o) { o->tolerance = NAN; }},
        {"max_iterations", [](NsdSolverOptions* o) { o->max_iterations = -3; }},
    };
    for (const Case& c : cases) {
      auto t = mixedByHand();
      c.set(&t->opt);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(c.field, NSD_BAD_INPUT, t->solve(nsd_mlcp_newton));
      CPPUNIT_ASSERT_MESSAGE(t->rep.message, contains(t->rep.message, c.field));
    }
  }

  // w = -z - 1, z >= 0 has no solution: the merit FB(z, -z - 1)^2 / 2 has a
  // stationary point that is not a zero, and the solver fails honestly there.
  void reportsStationaryPointOfMerit() {
    auto t = TestMlcp::mixed(1, {-1}, {-1}, {1});
    NsdStatus st = t->solve(nsd_mlcp_newton);
    CPPUNIT_ASSERT_MESSAGE(describe("newton", t->rep),
                           st == NSD_FAILED || st == NSD_MAX_ITERATIONS);
    CPPUNIT_ASSERT(t->rep.residual > t->opt.tolerance);
    CPPUNIT_ASSERT(std::strlen(t->rep.message) > 0);
  }

  void recordsHistory() {
    auto t = mixedByHand();
    std::vector<double> history(100, -1.0);
    t->rep.history = history.data();
    t->rep.history_capacity = (int)history.size();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_mlcp_newton));
    CPPUNIT_ASSERT_EQUAL(t->rep.iterations, t->rep.history_length);
    CPPUNIT_ASSERT(history[t->rep.history_length - 1] <= t->opt.tolerance);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MlcpNewtonTest);
