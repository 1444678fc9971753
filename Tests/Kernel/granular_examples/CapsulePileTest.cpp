// Examples/CapsulePile at reduced size: 300 capsules dropped into a box of planes
// settle, none leaves the box, penetrations stay within the scheme's bound and are then
// pushed out by the overlap recovery (on by default). The example
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

  // Measured: kinetic energy 1.1e-2 J at t = 1.4 s (peak 264 J at impact), the top
  // capsule at 0.125 m (dropped from up to 1.5 m); without the overlap recovery 2.8e-3 J and
  // 0.14 m, 1172 contacts (TimeStepping: 6.4e-3 J, 0.12 m, 1178 contacts).
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
  // speed 5.4 m/s from 1.5 m, 72 % of the smallest radius 22.5 mm. The bound, one smallest
  // radius (100 %), is half the overlap of a capsule sinking through another (two radii): it
  // catches a missed detection. Measured: 14.9 mm (66 %) at 0.5 s, during the impacts.
  // Without the overlap recovery those overlaps were kept (16.8 mm, 74.8 % at the end); with
  // it (the example's default, the engine's) they are pushed out at the recovery cap, 0.1 m/s
  // when measured here (since, one slop per step: 0.225 m/s): from 0.84 s the deepest was
  // 3.0-3.1 % of the radius (0.68-0.70 mm; the slop is 1 %, the pile still moving at
  // 1e-3-0.3 J; a late impact at 0.80 s reached 6.4 %), bounded here by 5 % from 0.9 s (the
  // faster default cap passes it too).
  void penetrationWithinTheSchemeBound() {
    const auto& c = csv();
    CPPUNIT_ASSERT(g::minOf(c, "min_gap_rel") > -1.0);
    const std::size_t k = g::column(c, "min_gap_rel");
    for (std::size_t row = 450; row < c.rowCount(); ++row)
      CPPUNIT_ASSERT_MESSAGE("t = " + std::to_string(c(row, 0)) + ": " + std::to_string(c(row, k)),
                             c(row, k) > -0.05);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CapsulePileTest);
