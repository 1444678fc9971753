// ADMM with adaptive penalty (Numerics/src/friction/fc3d_admm.c): known answers,
// fixed and adaptive penalties on a random problem, the Kapla tower's iterations, bad input.
#include <cppunit/extensions/HelperMacros.h>

#include "fc_apgd_test_util.hpp"

using namespace nsdyn::test;

class FcAdmmTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcAdmmTest);
  CPPUNIT_TEST(solvesOneContact);
  CPPUNIT_TEST(solvesRandomSystem);
  CPPUNIT_TEST(adaptivePenaltyHelpsABadRho);
  CPPUNIT_TEST(rejectsBadInput);
  CPPUNIT_TEST(solvesKaplaTower);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesOneContact() { checkOneContact(nsd_fc3d_admm, "admm"); }

  void solvesRandomSystem() {
    RandomSystem sys(20, 40, 21u);
    FcTestProblem t(nsd_fc_create(3, sys.nc, sys.assembleSbm(), sys.q.data(), sys.mu.data()));
    t.opt.max_iterations = 10000;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_OK, t.solve(nsd_fc3d_admm));
    assertConsistent(t, "admm random");
  }

  void adaptivePenaltyHelpsABadRho() {
    // rho 1e4 times too large: residual balancing recovers, a fixed rho crawls
    RandomSystem sys(20, 40, 23u);
    FcTestProblem t(nsd_fc_create(3, sys.nc, sys.assembleSbm(), sys.q.data(), sys.mu.data()));
    t.opt.max_iterations = 2000;
    t.opt.admm.rho = 1e4;
    t.opt.admm.adaptive = 1;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_OK, t.solve(nsd_fc3d_admm));
    const int adaptive = t.rep.iterations;
    std::fill(t.r.begin(), t.r.end(), 0.0);
    t.opt.admm.adaptive = 0;
    t.solve(nsd_fc3d_admm);
    CPPUNIT_ASSERT_MESSAGE(describe(t.rep), t.rep.iterations > adaptive);
  }

  void solvesKaplaTower() {
    // Benchmarks/data/kapla_tower_552.hdf5 (Benchmarks/make_kapla_problem.sh): 552 contacts,
    // rank-deficient W, the cones never active on the way, rho_0 = mean diagonal ~1e4 too
    // large. Residual balancing by steps of 2 took 14 iterations (13 refactorisations);
    // the downward search step took 7, one refactorisation; foreseen before the first
    // factorisation (a conjugate-gradient probe of the first iterate), 6 and none
    // (doc/benchmarks.md, "Kapla tower against Siconos 4.4")
    FcTestProblem t(
        readFc3dFile(std::string(NSDYN_SOURCE_DIR) + "/Benchmarks/data/kapla_tower_552.hdf5"));
    CPPUNIT_ASSERT_EQUAL(552, t.fc->nc);
    t.opt.tolerance = 1e-8;
    t.opt.threads = 1;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_OK, t.solve(nsd_fc3d_admm));
    CPPUNIT_ASSERT_MESSAGE(describe(t.rep), t.rep.residual <= 1e-8);
    CPPUNIT_ASSERT_MESSAGE(describe(t.rep), t.rep.iterations <= 6);
    assertConsistent(t, "admm Kapla tower");
    // a warm start skips the probe: the first iteration is spent at rho_0
    const int cold = t.rep.iterations;
    std::fill(t.r.begin(), t.r.end(), 0.0);
    t.opt.warm_start = 1;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_OK, t.solve(nsd_fc3d_admm));
    CPPUNIT_ASSERT_MESSAGE(describe(t.rep), t.rep.iterations > cold && t.rep.iterations <= 9);
  }

  void rejectsBadInput() {
    checkBadInput(nsd_fc3d_admm, "admm");
    FcTestProblem t(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 0, 0}, {0.3});
    t.opt.admm.rho = -1.0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_fc3d_admm));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcAdmmTest);
