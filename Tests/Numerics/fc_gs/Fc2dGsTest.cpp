// Known answers of the 2D solvers (Numerics/src/friction/fc2d_nsgs.c with the
// exact 2x2 local solve of fc_local.c, and fc2d_lemke.c, the LCP reformulation):
// stick, slide both ways, take-off, mu = 0, coupled contacts, storages, bad input.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>
#include <vector>

#include "fc_gs_test_util.hpp"

using namespace nsdyn::test;

namespace {

constexpr double kTight = 1e-12;
const std::vector<double> kIdentity2 = {1, 0, 0, 1};
// A general 2x2 SPD block with normal-tangential coupling.
const std::vector<double> kSpd2 = {2.0, 0.4, 0.4, 1.0};

struct Named2d {
  std::string name;
  NsdFcSolver fn;
};
std::vector<Named2d> solvers2d() {
  return {{"nsgs", nsd_fc2d_nsgs}, {"lemke", nsd_fc2d_lemke}};
}

NsdStatus solveTight(FcTestProblem& t, NsdFcSolver fn) {
  t.opt.tolerance = kTight;
  t.opt.max_iterations = 100000;
  return t.solve(fn);
}

}  // namespace

class Fc2dGsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(Fc2dGsTest);
  CPPUNIT_TEST(oneContactRegimes);
  CPPUNIT_TEST(slidesGeneralBlock);
  CPPUNIT_TEST(frictionless);
  CPPUNIT_TEST(coupledContactsAgree);
  CPPUNIT_TEST(rejectsBadInput);
  CPPUNIT_TEST(noContacts);
  CPPUNIT_TEST_SUITE_END();

 public:
  // M = I, mu = 0.5: stick q = (-1, 0.2) -> r = (1, -0.2); slide forwards q = (-1, 1) ->
  // r = (1, -0.5), u = (0, 0.5); slide backwards q = (-1, -1) -> r = (1, 0.5), u = (0, -0.5);
  // take-off q = (0.5, 1) -> r = 0, u = q.
  void oneContactRegimes() {
    struct Case {
      std::vector<double> q, r, u;
    };
    const std::vector<Case> cases = {{{-1, 0.2}, {1, -0.2}, {0, 0}},
                                     {{-1, 1}, {1, -0.5}, {0, 0.5}},
                                     {{-1, -1}, {1, 0.5}, {0, -0.5}},
                                     {{0.5, 1}, {0, 0}, {0.5, 1}}};
    for (const auto& s : solvers2d())
      for (const auto& c : cases) {
        FcTestProblem t(2, kIdentity2, c.q, {0.5});
        assertSolved(t, solveTight(t, s.fn), kTight);
        assertVector(s.name + " r", c.r, t.r, 1e-12);
        assertVector(s.name + " u", c.u, t.u, 1e-12);
      }
  }

  // General SPD block, q = (-1, 2), mu = 0.3: slides forwards with r_t = -mu r_n,
  // u_n = 0: (2 - 0.3 * 0.4) r_n = 1, u_t = (0.4 - 0.3) r_n + 2 > 0.
  void slidesGeneralBlock() {
    const double rn = 1.0 / (2.0 - 0.3 * 0.4);
    for (const auto& s : solvers2d()) {
      FcTestProblem t(2, kSpd2, {-1, 2}, {0.3});
      assertSolved(t, solveTight(t, s.fn), kTight);
      assertVector(s.name + " r", {rn, -0.3 * rn}, t.r, 1e-12);
      assertVector(s.name + " u", {0, 0.1 * rn + 2}, t.u, 1e-12);
    }
  }

  // mu = 0: r = (max(0, -q_n / W_nn), 0).
  void frictionless() {
    for (const auto& s : solvers2d()) {
      FcTestProblem t(2, kIdentity2, {-2, 0.7}, {0.0});
      assertSolved(t, solveTight(t, s.fn), kTight);
      assertVector(s.name + " r", {2, 0}, t.r, 1e-12);
      assertVector(s.name + " u", {0, 0.7}, t.u, 1e-12);
    }
  }

  // Three coupled contacts (M = A A^T + I/2): NSGS and Lemke reach the same solution,
  // in dense, sparse-block and CSC storage.
  void coupledContactsAgree() {
    const double A[6][6] = {{1, 0.3, 0.2, 0, 0.1, 0}, {0, 1, 0, 0.2, 0, 0.1},
                            {0.2, 0, 1, 0.3, 0, 0},   {0, 0.1, 0, 1, 0.2, 0},
                            {0.1, 0, 0.3, 0, 1, 0.2}, {0, 0.2, 0, 0.1, 0, 1}};
    std::vector<double> rows(36);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        double v = i == j ? 0.5 : 0.0;
        for (int k = 0; k < 6; ++k) v += A[i][k] * A[j][k];
        rows[6 * i + j] = v;
      }
    const std::vector<double> q = {-1, 1.5, -0.5, -0.2, 0.4, 0.3};
    std::vector<double> first;
    for (const auto& s : solvers2d())
      for (NsdStorage storage : {NSD_DENSE, NSD_SPARSE_BLOCK, NSD_CSC}) {
        FcTestProblem t(2, rows, q, {0.3, 0.5, 0.2});
        if (storage != NSD_DENSE) t.convert(storage);
        assertSolved(t, solveTight(t, s.fn), kTight);
        if (first.empty())
          first = t.r;
        else
          assertVector(s.name + " r", first, t.r, 1e-9);
      }
  }

  // mu < 0, NaN, a 3D problem, W_nn = 0: NSD_BAD_INPUT.
  void rejectsBadInput() {
    for (const auto& s : solvers2d()) {
      {
        FcTestProblem t(2, kIdentity2, {-1, 0}, {-0.5});
        CPPUNIT_ASSERT_EQUAL_MESSAGE(s.name, NSD_BAD_INPUT, t.solve(s.fn));
      }
      {
        FcTestProblem t(2, kIdentity2, {NAN, 0}, {0.5});
        CPPUNIT_ASSERT_EQUAL_MESSAGE(s.name, NSD_BAD_INPUT, t.solve(s.fn));
      }
      {
        FcTestProblem t(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 0, 0}, {0.5});
        CPPUNIT_ASSERT_EQUAL_MESSAGE(s.name, NSD_BAD_INPUT, t.solve(s.fn));
        CPPUNIT_ASSERT_MESSAGE(t.rep.message,
                               std::string(t.rep.message).find("dimension 3") != std::string::npos);
      }
    }
    FcTestProblem t(2, {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {-1, 0, -1, 0},
                    {0.5, 0.5});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_fc2d_nsgs));
    CPPUNIT_ASSERT_MESSAGE(t.rep.message,
                           std::string(t.rep.message).find("contact 0") != std::string::npos);
  }

  // No contact at all: every solver converges at once (2D and 3D).
  void noContacts() {
    for (const auto& s : fcGsSolvers()) {
      NsdFc* fc = nsd_fc_create(s.dim, 0, nsd_matrix_create_dense(0, 0), nullptr, nullptr);
      CPPUNIT_ASSERT(fc != nullptr);
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(s.name, NSD_OK, s.fn(fc, nullptr, nullptr, nullptr, &rep));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(s.name, 0, rep.iterations);
      nsd_fc_destroy(fc);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(Fc2dGsTest);
