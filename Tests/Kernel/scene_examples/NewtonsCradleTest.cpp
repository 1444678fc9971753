// Examples/NewtonsCradle: 5 equal spheres, 1 mm gaps, the first launched at 1 m/s:
// pairwise elastic impacts hand the speed on to the last sphere; touching spheres
// (--gap 0) give the simultaneous-impact answer instead.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>

#include "scene_check.hpp"

namespace {

namespace sc = nsdyn::test::scene;
constexpr double kSpeed = 1.0;

}  // namespace

class NewtonsCradleTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(NewtonsCradleTest);
  CPPUNIT_TEST(lastSphereLeavesWithTheLaunchSpeed);
  CPPUNIT_TEST(momentumAndEnergyAreKept);
  CPPUNIT_TEST(touchingSpheresActAsOneBlock);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() {
    return nsdyn::test::runExample("NewtonsCradle", "--quiet");
  }

 public:
  // T = 0.02 s, h = 1e-4: 201 rows; at the end v4 = v0(0), the others at rest
  void lastSphereLeavesWithTheLaunchSpeed() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(201), c.rowCount());
    const std::size_t last = c.rowCount() - 1;
    CPPUNIT_ASSERT_EQUAL(kSpeed, sc::at(c, 0, "v0"));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(kSpeed, sc::at(c, last, "v4"), 1e-6 * kSpeed);
    for (const char* v : {"v0", "v1", "v2", "v3"})
      CPPUNIT_ASSERT(std::fabs(sc::at(c, last, v)) < 1e-6);
    // each middle sphere moved for a while: the impacts came one pair at a time
    for (const char* v : {"v1", "v2", "v3"})
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kSpeed, sc::maxAbs(c, v), 1e-6);
  }

  void momentumAndEnergyAreKept() {
    const auto& c = csv();
    const double p0 = sc::at(c, 0, "momentum"), e0 = sc::at(c, 0, "kinetic");
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(p0, sc::at(c, k, "momentum"), 1e-9 * p0);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(e0, sc::at(c, k, "kinetic"), 1e-9 * e0);
    }
  }

  // gap 0: all four contacts in one step's problem; e = 1 acts on the only approaching
  // contact, the others (u_n = 0 before) just stay closed: sphere 0 rebounds off a rigid
  // block of 4 masses, v0 = (1 − 4)/5 v, v1..v4 = 2/5 v (energy kept, not the cradle's answer)
  void touchingSpheresActAsOneBlock() {
    const auto& c = nsdyn::test::runExample("NewtonsCradle", "--quiet --gap 0");
    const std::size_t last = c.rowCount() - 1;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.6 * kSpeed, sc::at(c, last, "v0"), 1e-6);
    for (const char* v : {"v1", "v2", "v3", "v4"})
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.4 * kSpeed, sc::at(c, last, v), 1e-6);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(NewtonsCradleTest);
