// Examples/RoverWheel at reduced time: the torque-driven wheel (capsule rim, see the
// README) advances over the bed of spheres with a slip ratio in (0, 1) and stays on top.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>

#include "granular_check.hpp"

namespace {
namespace g = nsdyn::test::granular;
// NSGS tolerance 2e-3: with the wheel (2.1 kg on grains of 0.16 kg) a few steps
// stagnate at 2e-4 to 1.2e-3 > 1e-4, in order or shuffled, even after 20000 sweeps.
const char* const kArgs = "--capsule --time 1.2 --step 2e-3 --iterations 4000 --tolerance 2e-3";
const double kBedTop = 0.168;  // printed by the example: 3 lattice layers of spacing 0.056 m
const double kR = 0.15;
}  // namespace

class RoverWheelTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RoverWheelTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(wheelAdvances);
  CPPUNIT_TEST(wheelSlipsButGrips);
  CPPUNIT_TEST(wheelStaysOnTopOfTheBed);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("RoverWheel", kArgs); }

 public:
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(601), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(16), c.columnCount());
  }

  // torque from t = 0.2 s; measured: 0.60 m advanced by t = 1.2 s (TimeStepping: 0.28 m;
  // at 1e-4, shuffled: 0.33 m). The wheel on loose grains is chaotic: the two steps agree
  // until the torque acts (SceneEngine evaluates it at t_k + h/2, TimeStepping's
  // MoreauJeanOSI averages its values at t_k and t_k+1: half of it one step earlier), then
  // part; both advance at 0.5 m/s until t = 0.8 s, where TimeStepping's wheel digs in and
  // stops.
  void wheelAdvances() {
    const auto& c = csv();
    CPPUNIT_ASSERT(g::last(c, "x") - g::first(c, "x") > 0.1);
    CPPUNIT_ASSERT(g::maxOf(c, "omega") > 1.0);  // it spins forward (about +y)
  }

  // mean slip 1 - v / (omega R) over the rows after t = 0.5 s with omega R > 0.05 m/s;
  // measured 0.68 (TimeStepping: 0.84; the wheel digs in and pushes grains ahead)
  void wheelSlipsButGrips() {
    const auto& c = csv();
    const std::size_t t = g::column(c, "t"), om = g::column(c, "omega"), s = g::column(c, "slip");
    double sum = 0.0, n = 0.0;
    for (std::size_t r = 0; r < c.rowCount(); ++r)
      if (c(r, t) > 0.5 && c(r, om) * kR > 0.05) {
        sum += c(r, s);
        n += 1.0;
      }
    CPPUNIT_ASSERT(n > 50.0);
    const double slip = sum / n;
    CPPUNIT_ASSERT(slip > 0.0 && slip < 1.0);
  }

  // the rim never goes below half the bed depth, the axle stays above the bed top
  void wheelStaysOnTopOfTheBed() {
    const auto& c = csv();
    CPPUNIT_ASSERT(g::minOf(c, "z") > kBedTop);
    CPPUNIT_ASSERT(g::minOf(c, "z") - kR > 0.5 * kBedTop - 0.05);
    CPPUNIT_ASSERT(g::minOf(c, "wheel_gap") > -0.01);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RoverWheelTest);
