// Examples/Rover without the bed (--spheres 0), reduced: on the flat the wheels roll without
// slipping (|vx - omega R| <= 1e-6 with mu = 0.8), the rover climbs the 15 deg slope without
// slip (15 deg < atan 0.8 = 38.7 deg), no wheel sinks into the heightfield more than 1 mm;
// with mu = 0.2 (atan 0.2 = 11.3 deg < 15 deg) the wheels slip on the slope and the rover
// slows down.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "example_run.hpp"

namespace {
std::size_t column(const nsdyn::test::ExampleCsv& c, const std::string& name) {
  const auto it = std::find(c.names.begin(), c.names.end(), name);
  CPPUNIT_ASSERT_MESSAGE("no column " + name, it != c.names.end());
  return static_cast<std::size_t>(it - c.names.begin());
}
double minOf(const nsdyn::test::ExampleCsv& c, std::size_t k) {
  double m = INFINITY;
  for (std::size_t r = 0; r < c.rowCount(); ++r) m = std::min(m, c(r, k));
  return m;
}
double maxOf(const nsdyn::test::ExampleCsv& c, std::size_t k) {
  double m = -INFINITY;
  for (std::size_t r = 0; r < c.rowCount(); ++r) m = std::max(m, c(r, k));
  return m;
}
}  // namespace

class RoverTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RoverTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(rollsWithoutSlipOnTheFlat);
  CPPUNIT_TEST(climbsTheSlopeWithoutSlip);
  CPPUNIT_TEST(wheelsStayOnTheHeightfield);
  CPPUNIT_TEST(slipsOnTheSlopeWithLowFriction);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& grip() {
    return nsdyn::test::runExample("Rover", "--spheres 0 --time 3.6");
  }
  const nsdyn::test::ExampleCsv& slick() {
    return nsdyn::test::runExample("Rover", "--spheres 0 --time 3.4 --mu 0.2");
  }

 public:
  void hasDocumentedShape() {
    CPPUNIT_ASSERT_EQUAL(std::size_t(1801), grip().rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(13), grip().columnCount());
  }

  // rows after t = 1 s with all wheels on the flat: measured max 1.7e-9 m/s
  void rollsWithoutSlipOnTheFlat() {
    const auto& c = grip();
    const std::size_t t = column(c, "t"), e = column(c, "roll_error"), x = column(c, "x"),
                      vx = column(c, "vx");
    std::size_t n = 0;
    for (std::size_t r = 0; r < c.rowCount(); ++r)
      if (c(r, t) > 1.0 && c(r, x) < 1.5) {
        CPPUNIT_ASSERT(c(r, e) <= 1e-6);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, c(r, vx), 1e-6);  // the motors' v = omega R = 1 m/s
        ++n;
      }
    CPPUNIT_ASSERT(n > 100);
  }

  // all wheels on the slope (chassis x in (2.4, 3.08)): measured |slip| <= 1e-8; the
  // chassis rises by more than 0.25 m
  void climbsTheSlopeWithoutSlip() {
    const auto& c = grip();
    const std::size_t x = column(c, "x"), s = column(c, "slip"), z = column(c, "z");
    std::size_t n = 0;
    for (std::size_t r = 0; r < c.rowCount(); ++r)
      if (c(r, x) > 2.4 && c(r, x) < 3.08) {
        CPPUNIT_ASSERT(std::fabs(c(r, s)) < 1e-6);
        ++n;
      }
    CPPUNIT_ASSERT(n > 100);
    CPPUNIT_ASSERT(c(c.rowCount() - 1, z) - c(0, z) > 0.25);
  }

  // deepest wheel-heightfield gap: measured -5.4e-4 m (the landing at the foot of the slope)
  void wheelsStayOnTheHeightfield() {
    CPPUNIT_ASSERT(minOf(grip(), column(grip(), "wheel_gap")) > -1e-3);
    CPPUNIT_ASSERT(maxOf(grip(), column(grip(), "drift")) < 5e-5);  // measured 6.6e-6
  }

  // mu = 0.2: measured slip 0.60 and vx 0.39 m/s at t = 3.4 s (1 m/s on the flat)
  void slipsOnTheSlopeWithLowFriction() {
    const auto& c = slick();
    const std::size_t last = c.rowCount() - 1;
    CPPUNIT_ASSERT(c(last, column(c, "slip")) > 0.3);
    CPPUNIT_ASSERT(c(last, column(c, "vx")) < 0.6);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RoverTest);
