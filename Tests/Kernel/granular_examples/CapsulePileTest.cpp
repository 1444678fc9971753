// Examples/CapsulePile at reduced size: 300 capsules dropped into a box of planes
// settle, none leaves the box, penetrations stay within the scheme's bound. The example
// steps the scene with nsdyn::SceneEngine (before: TimeStepping + ContactManager).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>

#include "granular_check.hpp"

namespace {
namespace g = nsdyn::test::granular;
// 300 capsules, h = 2 ms, 1.4 s; NSGS capped at 4000 sweeps (1000 leave a few steps at
// 1.1-1.5e-4 > 1e-4 once the pile is dense).
const char* const kArgs = "--count 300 --time 1.4 --step 2e-3 --iterations 4000";
}  // namespace

class CapsulePileTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CapsulePileTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(pileSettles);
  CPPUNIT_TEST(noCapsuleLeavesTheBox);
  CPPUNIT_TEST(penetrationWithinTheSchemeBound);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("CapsulePile", kArgs); }

 public:
  // 700 steps + the initial row; 9 shared columns + outside, min_gap, min_gap_rel, top.
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(701), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(13), c.columnCount());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.4, g::last(c, "t"), 1e-9);
  }

  // Measured: kinetic energy 2.8e-3 J at t = 1.4 s (peak 272 J at impact), the top
  // capsule at 0.14 m (dropped from up to 1.5 m), 1172 contacts. (TimeStepping: 6.4e-3 J,
  // 0.12 m, 1178 contacts.)
  void pileSettles() {
    const auto& c = csv();
    CPPUNIT_ASSERT(g::maxOf(c, "kinetic") > 100.0);
    CPPUNIT_ASSERT(g::last(c, "kinetic") < 0.1);
    CPPUNIT_ASSERT(g::last(c, "kinetic") < 1e-3 * g::maxOf(c, "kinetic"));
    CPPUNIT_ASSERT(g::last(c, "top") < 0.3);
    CPPUNIT_ASSERT(g::last(c, "contacts") > 800.0);
  }

  void noCapsuleLeavesTheBox() { CPPUNIT_ASSERT_EQUAL(0.0, g::maxOf(csv(), "outside")); }

  // Moreau-Jean at velocity level has no position correction: a contact whose approach
  // speed grows within a step (another impact on one of the capsules) enters the problem a
  // step late, overlapping by up to h |u_n|; the impact step then moves the bodies with the
  // mean velocity (theta = 1/2), another h |u_n| / 2: 1.5 h |u_n| = 16.3 mm at the free-fall
  // speed 5.4 m/s from 1.5 m, 72 % of the smallest radius 22.5 mm. The overlap is kept
  // and a pair of capsules spinning at 15-20 rad/s creeps deeper by the second-order
  // motion of the step (2.3 mm over 0.1 s in this run). Measured: 16.8 mm, 74.8 %.
  // The depth depends on how the gyroscopic term enters the step: TimeStepping's
  // MoreauJeanOSI applies the impulses through W^-1 with the gyroscopic Jacobian and gave
  // 13.9 mm (61.8 %), 18.8 mm (83.5 %) with the term off in the bodies; SceneEngine applies
  // them through M^-1 (the term linearised in the free velocity), and gives 18.8 mm with
  // the term off too (the same map as TimeStepping then). Other solver settings of this run
  // end with 16.7-21.5 mm (shuffled NSGS: 95.5 %). The bound, one smallest radius (100 %),
  // is half the overlap of a capsule sinking through another (two radii): it catches a
  // missed detection.
  void penetrationWithinTheSchemeBound() {
    const auto& c = csv();
    CPPUNIT_ASSERT(g::minOf(c, "min_gap_rel") > -1.0);
    // once settled, the deepest gap stays put (no creeping): over the last 0.1 s to 1e-5 m;
    // from t = 1 s it may still move by a late rearrangement of the pile (measured 0.5 mm
    // between t = 1.12 and 1.30 s, or none, depending on round-off in the local solves),
    // far below the tens of mm of a capsule sinking through another
    const std::size_t k = g::column(c, "min_gap");
    CPPUNIT_ASSERT_DOUBLES_EQUAL(c(650, k), g::last(c, "min_gap"), 1e-5);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(c(500, k), g::last(c, "min_gap"), 1e-3);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CapsulePileTest);
