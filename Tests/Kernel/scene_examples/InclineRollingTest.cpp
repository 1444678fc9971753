// Examples/InclineRolling: a sphere rolling (a = 5/7 g sin θ) and a box sticking or
// sliding (a = g (sin θ − μ cos θ)) on an incline, measured against the closed forms.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>

#include "scene_check.hpp"

namespace {

namespace sc = nsdyn::test::scene;
constexpr double kG = 9.81;
constexpr double kRelative = 1e-6;  // agreement asked of the velocities and distances

const nsdyn::test::ExampleCsv& run(const std::string& args) {
  return nsdyn::test::runExample("InclineRolling", "--quiet --time 0.5 " + args);
}

/// Every row after t = 0: measured velocity and distance within kRelative of the
/// analytic ones, the analytic velocity being a t.
void checkAgainstClosedForm(const nsdyn::test::ExampleCsv& c, double a) {
  CPPUNIT_ASSERT_EQUAL(std::size_t(501), c.rowCount());
  for (std::size_t k = 1; k < c.rowCount(); ++k) {
    const double t = sc::at(c, k, "t");
    CPPUNIT_ASSERT_DOUBLES_EQUAL(a * t, sc::at(c, k, "v_analytic"), 1e-12 * a * t);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(a * t, sc::at(c, k, "v_slope"), kRelative * a * t);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 * a * t * t, sc::at(c, k, "s"), kRelative * 0.5 * a * t * t);
  }
}

}  // namespace

class InclineRollingTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(InclineRollingTest);
  CPPUNIT_TEST(sphereRollsAtFiveSeventhsGSinTheta);
  CPPUNIT_TEST(boxSticksWhenTanThetaBelowMu);
  CPPUNIT_TEST(boxSlidesWhenTanThetaAboveMu);
  CPPUNIT_TEST_SUITE_END();

 public:
  // θ = 25°, μ = 0.4 ≥ 2/7 tan θ = 0.133: rolling without slip, v = r ω
  void sphereRollsAtFiveSeventhsGSinTheta() {
    const auto& c = run("--case sphere --angle 25 --mu 0.4");
    const double a = 5.0 / 7.0 * kG * std::sin(25.0 * M_PI / 180.0);
    checkAgainstClosedForm(c, a);
    for (std::size_t k = 1; k < c.rowCount(); ++k)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(sc::at(c, k, "v_slope"), sc::at(c, k, "r_omega"),
                                   kRelative * sc::at(c, k, "v_slope"));
    CPPUNIT_ASSERT_EQUAL(1.0, sc::at(c, c.rowCount() - 1, "contacts"));
  }

  // θ = 20°, μ = 0.5 > tan θ = 0.364: the box stays put
  void boxSticksWhenTanThetaBelowMu() {
    const auto& c = run("--case box --angle 20 --mu 0.5");
    CPPUNIT_ASSERT_EQUAL(std::size_t(501), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(0.0, sc::maxAbs(c, "v_analytic"));
    CPPUNIT_ASSERT(sc::maxAbs(c, "v_slope") < 1e-9);
    CPPUNIT_ASSERT(sc::maxAbs(c, "s") < 1e-9);
    CPPUNIT_ASSERT_EQUAL(4.0, sc::at(c, c.rowCount() - 1, "contacts"));
  }

  // θ = 35°, μ = 0.5 < tan θ = 0.700: sliding at g (sin θ − μ cos θ), no rotation
  void boxSlidesWhenTanThetaAboveMu() {
    const auto& c = run("--case box --angle 35 --mu 0.5");
    const double theta = 35.0 * M_PI / 180.0;
    checkAgainstClosedForm(c, kG * (std::sin(theta) - 0.5 * std::cos(theta)));
    CPPUNIT_ASSERT(sc::maxAbs(c, "r_omega") < 1e-9);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(InclineRollingTest);
