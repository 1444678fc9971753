// Known answers of the 3D Gauss-Seidel solvers (Numerics/src/friction/fc3d_nsgs.c,
// fc3d_psor.c, fc_local.c): one contact that sticks, slips or takes off (M = I
// and a general SPD block), coupled contacts, mu = 0, storages, options, bad input.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>
#include <vector>

#include "fc_gs_test_util.hpp"

using namespace nsdyn::test;

namespace {

constexpr double kTight = 1e-12;
const NsdFcLocalSolver kLocalSolvers[] = {NSD_FC_LOCAL_PROJECTION, NSD_FC_LOCAL_AC_NEWTON,
                                          NSD_FC_LOCAL_FB_NEWTON};
const std::vector<double> kIdentity3 = {1, 0, 0, 0, 1, 0, 0, 0, 1};
// A general SPD block with normal-tangential coupling.
const std::vector<double> kSpd3 = {2.0, 0.3, 0.1, 0.3, 1.5, 0.2, 0.1, 0.2, 1.2};

// Every 3D solver configuration: NSGS with each local solver, then PSOR.
struct Config {
  std::string name;
  NsdFcSolver fn;
  NsdFcLocalSolver local;
};
std::vector<Config> configs() {
  return {{"nsgs/projection", nsd_fc3d_nsgs, NSD_FC_LOCAL_PROJECTION},
          {"nsgs/ac", nsd_fc3d_nsgs, NSD_FC_LOCAL_AC_NEWTON},
          {"nsgs/fb", nsd_fc3d_nsgs, NSD_FC_LOCAL_FB_NEWTON},
          {"psor", nsd_fc3d_psor, NSD_FC_LOCAL_AC_NEWTON}};
}

// Solve t with configuration c to 1e-12 (many sweeps allowed for PSOR).
NsdStatus solveWith(FcTestProblem& t, const Config& c) {
  t.opt.nsgs.local_solver = c.local;
  t.opt.tolerance = kTight;
  t.opt.max_iterations = 100000;
  return t.solve(c.fn);
}

// The slip conditions at a contact: u_n = 0, ||r_T|| = mu r_n > 0, r_T = -s u_T (s > 0).
void assertSlips(const std::string& what, const FcTestProblem& t, int a, double tol) {
  const double* r = t.r.data() + 3 * a;
  const double* u = t.u.data() + 3 * a;
  const double mu = t.fc->mu[a];
  CPPUNIT_ASSERT_MESSAGE(what + ": r_n > 0", r[0] > 0.0);
  CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": u_n", 0.0, u[0], tol);
  CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": ||r_T|| = mu r_n", mu * r[0],
                                       std::hypot(r[1], r[2]), tol);
  const double cosine =
      (r[1] * u[1] + r[2] * u[2]) / (std::hypot(r[1], r[2]) * std::hypot(u[1], u[2]));
  CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": r_T opposite to u_T", -1.0, cosine, tol);
}

}  // namespace

class Fc3dGsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(Fc3dGsTest);
  CPPUNIT_TEST(sticksIdentity);
  CPPUNIT_TEST(slipsIdentity);
  CPPUNIT_TEST(takesOff);
  CPPUNIT_TEST(sticksGeneralBlock);
  CPPUNIT_TEST(slipsGeneralBlock);
  CPPUNIT_TEST(frictionless);
  CPPUNIT_TEST(coupledContacts);
  CPPUNIT_TEST(storagesAgree);
  CPPUNIT_TEST(relaxationAndShuffle);
  CPPUNIT_TEST(warmStartAtSolution);
  CPPUNIT_TEST(nullOptionsAndReport);
  CPPUNIT_TEST(historyAndTimeLimit);
  CPPUNIT_TEST(errorEveryKSweeps);
  CPPUNIT_TEST(rejectsBadInput);
  CPPUNIT_TEST(rejectsZeroNormalDiagonal);
  CPPUNIT_TEST(shuffleOrRelaxationSolveOneObject316);
  CPPUNIT_TEST_SUITE_END();

 public:
  // M = I, mu = 0.5, q = (-1, 0.2, 0.1): r = -q inside the cone, u = 0.
  void sticksIdentity() {
    for (const auto& c : configs()) {
      FcTestProblem t(3, kIdentity3, {-1, 0.2, 0.1}, {0.5});
      assertSolved(t, solveWith(t, c), kTight);
      assertVector(c.name + " r", {1, -0.2, -0.1}, t.r, 1e-10);
      assertVector(c.name + " u", {0, 0, 0}, t.u, 1e-10);
    }
  }

  // M = I, mu = 0.5, q = (-1, 1, 0): r = (1, -0.5, 0), u = (0, 0.5, 0)
  // (formats/README.md §3 worked example).
  void slipsIdentity() {
    for (const auto& c : configs()) {
      FcTestProblem t(3, kIdentity3, {-1, 1, 0}, {0.5});
      assertSolved(t, solveWith(t, c), kTight);
      assertVector(c.name + " r", {1, -0.5, 0}, t.r, 1e-10);
      assertVector(c.name + " u", {0, 0.5, 0}, t.u, 1e-10);
    }
  }

  // q_n > 0: r = 0, u = q, confirmed by the one sweep always done.
  void takesOff() {
    for (const auto& c : configs()) {
      FcTestProblem t(3, kSpd3, {0.5, 0.3, -0.2}, {0.5});
      assertSolved(t, solveWith(t, c), kTight);
      assertVector(c.name + " r", {0, 0, 0}, t.r, 0.0);
      assertVector(c.name + " u", {0.5, 0.3, -0.2}, t.u, 1e-15);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(c.name, 1, t.rep.iterations);
    }
  }

  // General SPD block, q = -W r* with r* = (1, 0.1, -0.05) inside the cone: r = r*, u = 0.
  void sticksGeneralBlock() {
    const double rs[3] = {1, 0.1, -0.05};
    std::vector<double> q(3);
    for (int i = 0; i < 3; ++i)
      q[i] = -(kSpd3[3 * i] * rs[0] + kSpd3[3 * i + 1] * rs[1] + kSpd3[3 * i + 2] * rs[2]);
    for (const auto& c : configs()) {
      FcTestProblem t(3, kSpd3, q, {0.3});
      assertSolved(t, solveWith(t, c), kTight);
      assertVector(c.name + " r", {1, 0.1, -0.05}, t.r, 1e-10);
      assertVector(c.name + " u", {0, 0, 0}, t.u, 1e-10);
    }
  }

  // General SPD block, strong tangential load: the contact slides.
  void slipsGeneralBlock() {
    std::vector<double> first;
    for (const auto& c : configs()) {
      FcTestProblem t(3, kSpd3, {-1, 2, 1}, {0.3});
      assertSolved(t, solveWith(t, c), kTight);
      assertSlips(c.name, t, 0, 1e-9);
      // the Newton local solvers are exact: one sweep for one contact
      if (c.fn == nsd_fc3d_nsgs && c.local != NSD_FC_LOCAL_PROJECTION)
        CPPUNIT_ASSERT_EQUAL_MESSAGE(c.name, 1, t.rep.iterations);
      // the slip solution is unique here: every configuration finds the same r
      if (first.empty())
        first = t.r;
      else
        assertVector(c.name + " r", first, t.r, 1e-9);
    }
  }

  // mu = 0: r_T = 0 and r_n = max(0, -q_n / W_nn) for one contact; free sliding.
  void frictionless() {
    for (const auto& c : configs()) {
      FcTestProblem t(3, kIdentity3, {-1, 0.5, 0.3}, {0.0});
      assertSolved(t, solveWith(t, c), kTight);
      assertVector(c.name + " r", {1, 0, 0}, t.r, 1e-12);
      assertVector(c.name + " u", {0, 0.5, 0.3}, t.u, 1e-12);
    }
  }

  // formats/README.md §1.4's 2-contact problem: M = [2I B; 0 2I], B e_1 = (1, 0, 0.5),
  // q = (-1,0,0, -1,0,0), mu = 0.3. Contact 1 sticks with r_1 = (0.5, 0, 0); contact 0
  // sees q_loc = (-0.5, 0, 0.25) and slides: r_0 = (0.25, 0, -0.075), u_0 = (0, 0, 0.1).
  void coupledContacts() {
    const std::vector<double> rows = {2, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0.5, 0, 0,
                                      0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0,   0, 2};
    for (const auto& c : configs()) {
      FcTestProblem t(3, rows, {-1, 0, 0, -1, 0, 0}, {0.3, 0.3});
      t.convert(NSD_SPARSE_BLOCK);
      assertSolved(t, solveWith(t, c), kTight);
      assertVector(c.name + " r", {0.25, 0, -0.075, 0.5, 0, 0}, t.r, 1e-10);
      assertVector(c.name + " u", {0, 0, 0.1, 0, 0, 0}, t.u, 1e-10);
    }
  }

  // Dense, sparse-block and CSC storage of the same coupled SPD problem give the same answer.
  void storagesAgree() {
    // M = A A^T + I for a fixed A (two contacts, fully coupled)
    const double A[6][6] = {{1, 0.2, 0, 0.3, 0, 0.1}, {0, 1, 0.1, 0, 0.2, 0},
                            {0.1, 0, 1, 0, 0, 0.3},   {0.3, 0, 0, 1, 0.1, 0},
                            {0, 0.2, 0, 0.1, 1, 0},   {0.1, 0, 0.3, 0, 0, 1}};
    std::vector<double> rows(36);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        double s = i == j ? 1.0 : 0.0;
        for (int k = 0; k < 6; ++k) s += A[i][k] * A[j][k];
        rows[6 * i + j] = s;
      }
    const std::vector<double> q = {-1, 0.8, -0.3, -0.5, -0.1, 0.2};
    for (const auto& c : configs()) {
      std::vector<double> dense_r;
      for (NsdStorage storage : {NSD_DENSE, NSD_SPARSE_BLOCK, NSD_CSC}) {
        FcTestProblem t(3, rows, q, {0.4, 0.2});
        if (storage != NSD_DENSE) t.convert(storage);
        assertSolved(t, solveWith(t, c), kTight);
        if (dense_r.empty())
          dense_r = t.r;
        else
          assertVector(c.name + " r vs dense", dense_r, t.r, 1e-9);
      }
    }
  }

  // Under- and over-relaxation and shuffled orders still converge (same answer);
  // a seed gives one reproducible run.
  void relaxationAndShuffle() {
    NsdFc* fc = readFcFile(sharedPath("fc3d/Rover1039.dat"), 3);
    FcTestProblem t(fc);
    for (double omega : {0.7, 1.0, 1.3}) {
      for (int shuffle : {0, 1}) {
        t.opt.relaxation = omega;
        t.opt.nsgs.shuffle = shuffle;
        t.opt.nsgs.seed = 7;
        t.opt.max_iterations = 10000;
        assertSolved(t, t.solve(nsd_fc3d_nsgs), 1e-8);
        const int sweeps = t.rep.iterations;
        const std::vector<double> r1 = t.r;
        assertSolved(t, t.solve(nsd_fc3d_nsgs), 1e-8);
        CPPUNIT_ASSERT_EQUAL(sweeps, t.rep.iterations);
        assertVector("same seed, same r", r1, t.r, 0.0);
      }
    }
  }

  // A warm start at the solution returns after the one sweep always done.
  void warmStartAtSolution() {
    for (const auto& c : configs()) {
      FcTestProblem t(3, kSpd3, {-1, 2, 1}, {0.3});
      assertSolved(t, solveWith(t, c), kTight);
      t.opt.warm_start = 1;
      assertSolved(t, t.solve(c.fn), kTight);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(c.name, 1, t.rep.iterations);
    }
  }

  // NULL options mean defaults; a NULL report is allowed.
  void nullOptionsAndReport() {
    FcTestProblem t(3, kIdentity3, {-1, 1, 0}, {0.5});
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_fc3d_nsgs(t.fc, t.r.data(), t.u.data(), nullptr, &t.rep));
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs"), std::string(t.rep.solver));
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_fc3d_psor(t.fc, t.r.data(), t.u.data(), nullptr, nullptr));
    assertVector("r", {1, -0.5, 0}, t.r, 1e-8);
  }

  // The residual of every sweep is recorded; a time limit stops with NSD_MAX_ITERATIONS.
  void historyAndTimeLimit() {
    FcTestProblem t(readFcFile(sharedPath("fc3d/Capsules-i101-404.dat"), 3));
    std::vector<double> history(100);
    t.rep.history = history.data();
    t.rep.history_capacity = 100;
    t.opt.max_iterations = 50;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, t.solve(nsd_fc3d_nsgs));
    CPPUNIT_ASSERT_EQUAL(50, t.rep.history_length);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(t.rep.residual, history[49], 1e-9 * t.rep.residual);

    t.rep.history = nullptr;
    t.opt.max_iterations = 10000000;
    t.opt.time_limit = 1e-9;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, t.solve(nsd_fc3d_psor));
    CPPUNIT_ASSERT_MESSAGE(describe(t.rep),
                           std::string(t.rep.message).find("time limit") != std::string::npos);
    CPPUNIT_ASSERT(t.rep.residual > 1e-8);
  }

  // pgs.check_every = k (issue 24: the error pass costs about a tenth of a sweep on piles):
  // the error is computed at sweeps k, 2k, ... only, so the solve stops at the first multiple
  // of k at or after the sweep where it would have stopped, with the iterate of that sweep bit
  // for bit (the sweeps themselves do not depend on k); nsgs and psor both.
  void errorEveryKSweeps() {
    for (NsdFcSolver fn : {nsd_fc3d_nsgs, nsd_fc3d_psor}) {
      FcTestProblem t(readFcFile(sharedPath("fc3d/Capsules-i101-404.dat"), 3));
      t.opt.tolerance = 1e-6;
      t.opt.max_iterations = 20000;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t.solve(fn));
      const int every = t.rep.iterations;
      CPPUNIT_ASSERT(every > 10);
      std::vector<double> history(4000);
      t.rep.history = history.data();
      t.rep.history_capacity = 4000;
      t.opt.pgs.check_every = 7;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t.solve(fn));
      const int sparse = t.rep.iterations;
      CPPUNIT_ASSERT_EQUAL(0, sparse % 7);
      CPPUNIT_ASSERT(sparse >= every);
      CPPUNIT_ASSERT_EQUAL(sparse / 7, t.rep.history_length);
      CPPUNIT_ASSERT(t.rep.residual <= 1e-6);
      const std::vector<double> r = t.r;
      // the same number of sweeps, the error at every sweep and never below the tolerance
      t.rep.history = nullptr;
      t.opt.pgs.check_every = 1;
      t.opt.tolerance = 1e-300;
      t.opt.max_iterations = sparse;
      CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, t.solve(fn));
      CPPUNIT_ASSERT_EQUAL(sparse, t.rep.iterations);
      for (std::size_t k = 0; k < r.size(); ++k) CPPUNIT_ASSERT_EQUAL(r[k], t.r[k]);
    }
  }

  // mu < 0, NaN in q, a 2D problem, bad options: NSD_BAD_INPUT before any work.
  void rejectsBadInput() {
    for (NsdFcSolver fn : {nsd_fc3d_nsgs, nsd_fc3d_psor}) {
      {
        FcTestProblem t(3, kIdentity3, {-1, 0, 0}, {-0.1});
        CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(fn));
        CPPUNIT_ASSERT(std::string(t.rep.message).find("mu") != std::string::npos);
      }
      {
        FcTestProblem t(3, kIdentity3, {-1, NAN, 0}, {0.3});
        CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(fn));
      }
      {
        FcTestProblem t(2, {1, 0, 0, 1}, {-1, 0}, {0.3});
        CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(fn));
        CPPUNIT_ASSERT_MESSAGE(t.rep.message,
                               std::string(t.rep.message).find("dimension 2") != std::string::npos);
      }
      {
        FcTestProblem t(3, kIdentity3, {-1, 0, 0}, {0.3});
        t.opt.relaxation = 2.5;
        CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(fn));
      }
      {
        FcTestProblem t(3, kIdentity3, {-1, 0, 0}, {0.3});
        t.opt.warm_start = 1;
        t.r[1] = INFINITY;
        CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(fn));
      }
    }
    FcTestProblem t(3, kIdentity3, {-1, 0, 0}, {0.3});
    t.opt.nsgs.local_solver = static_cast<NsdFcLocalSolver>(7);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_fc3d_nsgs));
    t.opt.nsgs.local_solver = NSD_FC_LOCAL_AC_NEWTON;
    t.opt.nsgs.local_max_iterations = 0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_fc3d_nsgs));
  }

  // A diagonal block with W_nn = 0 (second contact) is rejected, naming the contact.
  void rejectsZeroNormalDiagonal() {
    std::vector<double> rows(36, 0.0);
    for (int i = 0; i < 6; ++i) rows[7 * i] = 1.0;
    rows[7 * 3] = 0.0;
    for (NsdFcSolver fn : {nsd_fc3d_nsgs, nsd_fc3d_psor}) {
      FcTestProblem t(3, rows, {-1, 0, 0, -1, 0, 0}, {0.3, 0.3});
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(fn));
      CPPUNIT_ASSERT_MESSAGE(t.rep.message,
                             std::string(t.rep.message).find("contact 1") != std::string::npos);
    }
  }

  // OneObject-i100000-316: NSGS in order cycles (as Siconos NSGS, error 1.687e-3), but a
  // shuffled order, under-relaxation or the projection local solver reach 1e-8.
  void shuffleOrRelaxationSolveOneObject316() {
    FcTestProblem t(readFcFile(sharedPath("fc3d/OneObject-i100000-316.hdf5.dat"), 3));
    t.opt.max_iterations = 10000;
    t.opt.nsgs.shuffle = 1;
    assertSolved(t, t.solve(nsd_fc3d_nsgs), 1e-8);
    t.opt.nsgs.shuffle = 0;
    t.opt.relaxation = 0.8;
    assertSolved(t, t.solve(nsd_fc3d_nsgs), 1e-8);
    t.opt.relaxation = 1.0;
    t.opt.nsgs.local_solver = NSD_FC_LOCAL_PROJECTION;
    assertSolved(t, t.solve(nsd_fc3d_nsgs), 1e-8);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(Fc3dGsTest);
