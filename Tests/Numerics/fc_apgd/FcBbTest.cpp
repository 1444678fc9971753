// Projected gradient with Barzilai-Borwein steps (Numerics/src/friction/fc3d_bb.c):
// known answers, a random many-contact problem, bad input.
#include <cppunit/extensions/HelperMacros.h>

#include "fc_apgd_test_util.hpp"

using namespace nsdyn::test;

class FcBbTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcBbTest);
  CPPUNIT_TEST(solvesOneContact);
  CPPUNIT_TEST(solvesRandomSystem);
  CPPUNIT_TEST(rejectsBadInput);
  CPPUNIT_TEST(rejectsBadOptions);
  CPPUNIT_TEST_SUITE_END();

 public:
  void solvesOneContact() { checkOneContact(nsd_fc3d_bb, "bb"); }

  void solvesRandomSystem() {
    RandomSystem sys(20, 40, 21u);
    FcTestProblem t(nsd_fc_create(3, sys.nc, sys.assembleSbm(), sys.q.data(), sys.mu.data()));
    t.opt.max_iterations = 20000;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_OK, t.solve(nsd_fc3d_bb));
    assertConsistent(t, "bb random");
  }

  void rejectsBadInput() { checkBadInput(nsd_fc3d_bb, "bb"); }

  void rejectsBadOptions() {
    FcTestProblem t(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 0, 0}, {0.3});
    t.opt.bb.memory = 0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_fc3d_bb));
    t.opt.bb.memory = 5;
    t.opt.bb.sigma = 1.5;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t.solve(nsd_fc3d_bb));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcBbTest);
