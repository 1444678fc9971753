// Every MLCP solver rejects bad input with NSD_BAD_INPUT and a message, before any work.
#include <cppunit/extensions/HelperMacros.h>

#include <cstring>
#include <vector>

#include "mlcp_test_util.hpp"

using nsdyn::test::MlcpSolver;
using nsdyn::test::mlcpSolvers;
using nsdyn::test::TestMlcp;

namespace {
std::unique_ptr<TestMlcp> valid() {
  return TestMlcp::mixed(2, {2, 1, 1, 2}, {-5, -6}, {0, 1});
}

// Run every solver on @p t and expect NSD_BAD_INPUT with @p part in the message.
void expectRejected(TestMlcp& t, const char* part) {
  for (const MlcpSolver& s : mlcpSolvers()) {
    std::vector<double> z0 = t.z;
    NsdStatus st = t.solve(s.solve);
    std::string what = std::string(s.name) + ": " + t.rep.message;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_BAD_INPUT, st);
    CPPUNIT_ASSERT_MESSAGE(what, std::strstr(t.rep.message, part) != nullptr);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, std::string("mlcp_") + s.name, std::string(t.rep.solver));
    t.z = z0;
  }
}
}  // namespace

class MlcpBadInputTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MlcpBadInputTest);
  CPPUNIT_TEST(rejectsLowerAboveUpper);
  CPPUNIT_TEST(rejectsNanBound);
  CPPUNIT_TEST(rejectsNanInQ);
  CPPUNIT_TEST(rejectsNanInM);
  CPPUNIT_TEST(rejectsNonSquareMatrix);
  CPPUNIT_TEST(rejectsNullArguments);
  CPPUNIT_TEST(rejectsNonFiniteWarmStart);
  CPPUNIT_TEST_SUITE_END();

 public:
  void rejectsLowerAboveUpper() {
    auto t = TestMlcp::box(2, {2, 1, 1, 2}, {-5, -6}, {0, 2}, {INFINITY, 1});
    expectRejected(*t, "row 1");
  }

  void rejectsNanBound() {
    auto t = valid();
    t->p->lb[0] = NAN;
    expectRejected(*t, "row 0");
  }

  void rejectsNanInQ() {
    auto t = valid();
    t->p->q[1] = NAN;
    expectRejected(*t, "q[1]");
  }

  void rejectsNanInM() {
    auto t = valid();
    t->p->M->dense[3] = NAN;
    expectRejected(*t, "M");
  }

  // A 2 x 3 matrix: nsd_mlcp_create_mixed takes the row count as the size.
  void rejectsNonSquareMatrix() {
    const double rows[] = {1, 0, 0, 0, 1, 0}, q[] = {-1, -1};
    const int kinds[] = {0, 1};
    NsdMlcp* p = nsd_mlcp_create_mixed(nsd_matrix_create_dense_from_rows(2, 3, rows), q, kinds);
    if (p == nullptr) return;  // refused at creation, which rejects it as well
    TestMlcp t(p);
    expectRejected(t, "2x3");
  }

  void rejectsNullArguments() {
    auto t = valid();
    for (const MlcpSolver& s : mlcpSolvers()) {
      NsdReport rep = NsdReport();
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                           s.solve(nullptr, t->z.data(), t->w.data(), &t->opt, &rep));
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, s.solve(t->p, nullptr, t->w.data(), &t->opt, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message, std::strstr(rep.message, "z") != nullptr);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, s.solve(t->p, t->z.data(), nullptr, &t->opt, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message, std::strstr(rep.message, "w") != nullptr);
    }
  }

  void rejectsNonFiniteWarmStart() {
    auto t = valid();
    t->opt.warm_start = 1;
    t->z = {0.5, INFINITY};
    expectRejected(*t, "z[1]");
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MlcpBadInputTest);
