// Examples/SliderCrank: closed-form slider-crank kinematics while the motor holds its rate,
// joint drift under projection, the wall never passed, the stalled motor at its torque
// limit balancing the wall force by virtual work (tau_max = F x'(theta)).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "example_run.hpp"

namespace {

constexpr double kR = 0.1, kL = 0.3, kOmega = 2.0 * M_PI, kTorque = 2.0, kStop = 0.35, kHalf = 0.03,
                 kH = 1e-3;
enum { T = 0, TH, OM, X, XC, XE, V, TQ, WF, GAP, DRIFT, ANG, KIN, MW, ACT, NEWTON, PROJ, COLUMNS };

double sliderX(double th) {
  const double s = std::sin(th);
  return kR * std::cos(th) + std::sqrt(kL * kL - kR * kR * s * s);
}

double sliderRate(double th) {  // dx/dtheta
  const double s = std::sin(th), c = std::cos(th);
  return -kR * s - kR * kR * s * c / std::sqrt(kL * kL - kR * kR * s * s);
}

std::size_t firstContact(const nsdyn::test::ExampleCsv& c) {
  for (std::size_t k = 0; k < c.rowCount(); ++k)
    if (c(k, ACT) > 0.0) return k;
  return c.rowCount();
}

}  // namespace

class SliderCrankTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SliderCrankTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(kinematicsBeforeTheWall);
  CPPUNIT_TEST(jointDriftProjected);
  CPPUNIT_TEST(wallNeverPassed);
  CPPUNIT_TEST(stalledMotorSaturates);
  CPPUNIT_TEST(detectedWallStallsToo);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("SliderCrank"); }
  const nsdyn::test::ExampleCsv& contactCsv() {
    return nsdyn::test::runExample("SliderCrank", "--wall contact");
  }

  // Stalled phase: 10 steps after the first contact to the end.
  static void checkStall(const nsdyn::test::ExampleCsv& c, double xStop) {
    const std::size_t k0 = firstContact(c);
    CPPUNIT_ASSERT(k0 + 10 < c.rowCount());
    for (std::size_t k = k0 + 10; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kTorque, c(k, TQ), 1e-9);
      CPPUNIT_ASSERT(std::fabs(c(k, OM)) <= 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(xStop, c(k, X), 1e-9);
      const double F = kTorque / sliderRate(c(k, TH));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(F, c(k, WF), 1e-6 * F);
    }
  }

 public:
  // h = 1e-3, T = 1: 1001 rows, 17 columns; x_closed and wall_gap are what they say.
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1001), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(COLUMNS), c.columnCount());
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(sliderX(c(k, TH)), c(k, XC), 1e-14);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kStop - c(k, X), c(k, GAP), 1e-14);
    }
  }

  // Until the slider reaches the wall (t = 0.355 s) the motor holds w below its limit:
  // theta = pi + w t (1e-6), x = x(theta) in closed form (measured 2.2e-10).
  void kinematicsBeforeTheWall() {
    const auto& c = csv();
    const std::size_t k0 = firstContact(c);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.355, c(k0, T), 1e-12);
    double err = 0.0;
    for (std::size_t k = 0; k < k0; ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(M_PI + kOmega * c(k, T), c(k, TH), 1e-6);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kOmega, c(k, OM), 1e-8);
      CPPUNIT_ASSERT(std::fabs(c(k, TQ)) < 0.5 * kTorque);
      err = std::max(err, std::fabs(c(k, XE)));
    }
    std::printf("\n  SliderCrank: max |x - x(theta)| before the wall %.3e\n", err);
    CPPUNIT_ASSERT(err <= 1e-6);
  }

  // TimeSteppingDirectProjection: every joint within 1e-8 m and 1e-8 rad at every step,
  // the impact included (measured 1.05e-10 m).
  void jointDriftProjected() {
    const auto& c = csv();
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT(c(k, DRIFT) <= 1e-8);
      CPPUNIT_ASSERT(c(k, ANG) <= 1e-8);
    }
  }

  // The limit row enters the problem by Moreau-Jean's rule (gap + h/2 rate <= 0): the step
  // before it overshoots by less than h |v| (measured 9.5e-5 m); from the first contact on
  // the projection holds the gap at 0 (1e-10).
  void wallNeverPassed() {
    const auto& c = csv();
    const std::size_t k0 = firstContact(c);
    double vmax = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) vmax = std::max(vmax, std::fabs(c(k, V)));
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT(c(k, GAP) >= -kH * vmax);
      if (k >= k0) CPPUNIT_ASSERT(c(k, GAP) >= -1e-10);
    }
  }

  void stalledMotorSaturates() { checkStall(csv(), kStop); }

  // --wall contact: the slider's box against a static half-space (ContactManager), its
  // contacts projected with the joints: the slider stops at the wall (gap >= -1e-8; 3.97e-4 m
  // inside it when the detected contacts were not projected), the motor saturates and the
  // contact force balances it: tau_max / x'(theta) at the stop, as the joint limit's.
  void detectedWallStallsToo() {
    const auto& c = contactCsv();
    double vmax = 0.0, gap = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      vmax = std::max(vmax, std::fabs(c(k, V)));
      gap = std::min(gap, c(k, GAP));
    }
    CPPUNIT_ASSERT(gap >= -kH * vmax);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(gap), gap >= -1e-8);
    CPPUNIT_ASSERT(c(firstContact(c), T) <= 0.356);
    checkStall(c, c(c.rowCount() - 1, X));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(kStop - gap, c(c.rowCount() - 1, X), 1e-9);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SliderCrankTest);
