// Examples/DoublePendulumHinges: two rods on hinges, theta = 1/2: energy and joint drift.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mechanics_check.hpp"

namespace {

namespace mech = nsdyn::test::mech;
constexpr double kM = 1.0, kG = 9.81;
enum {
  T = 0,
  Q1 = 1,
  Q2 = 8,
  KIN = 15,
  POT = 16,
  E = 17,
  H1_Y0 = 18,
  H1_Y1 = 19,
  H2_Y0 = 20,
  H2_Y1 = 21,
  OFF1 = 22,
  OFF2 = 23,
  NEWTON = 24
};

double energyLoss(const nsdyn::test::ExampleCsv& c) {
  return c(0, E) - mech::columnMin(c, E);
}

}  // namespace

class DoublePendulumHingesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(DoublePendulumHingesTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(motionStaysInTheVerticalPlane);
  CPPUNIT_TEST(hingesHeld);
  CPPUNIT_TEST(energyKeptWithMidpointConstraints);
  CPPUNIT_TEST(energyDriftBoundedAndFirstOrder);
  CPPUNIT_TEST(newtonConverges);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("DoublePendulumHinges"); }

 public:
  // h = 1e-3, T = 5: 5001 rows (row 0 the initial state), 25 columns; E = kinetic + potential,
  // potential = m g (z1 + z2).
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(5001), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(25), c.columnCount());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0, c(5000, T), 1e-12);
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(c(k, KIN) + c(k, POT), c(k, E), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kM * kG * (c(k, Q1 + 2) + c(k, Q2 + 2)), c(k, POT), 1e-12);
    }
  }

  // Both hinges about y: the rods stay in the xz plane and rotate about y only.
  void motionStaysInTheVerticalPlane() {
    const auto& c = csv();
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT(std::fabs(c(k, OFF1)) <= 1e-12 && std::fabs(c(k, OFF2)) <= 1e-12);
      CPPUNIT_ASSERT(std::fabs(c(k, Q1 + 1)) <= 1e-12 && std::fabs(c(k, Q2 + 1)) <= 1e-12);
    }
  }

  // Default (midpoint constraints): H(q_theta) v_mid = 0, so the end-of-step H v is
  // not 0 but O(h) (measured 4.8e-2); the hinge points drift at O(h^2) (5.3e-6 m over
  // 5 s). End-of-step constraints (Siconos): H v = 0 to round-off, drift 2.0e-5 m.
  void hingesHeld() {
    const auto& c = csv();
    const double y0 = std::max(mech::columnMax(c, H1_Y0), mech::columnMax(c, H2_Y0));
    const double y1 = std::max(mech::columnMax(c, H1_Y1), mech::columnMax(c, H2_Y1));
    std::printf("\n  DoublePendulumHinges: max ||y0|| %.3e, max ||y1|| %.1e\n", y0, y1);
    CPPUNIT_ASSERT(y0 <= 1e-5);
    CPPUNIT_ASSERT(y1 <= 0.1);
    const auto& e = nsdyn::test::runExample("DoublePendulumHinges", "--constraints end-of-step");
    const double e0 = std::max(mech::columnMax(e, H1_Y0), mech::columnMax(e, H2_Y0));
    const double e1 = std::max(mech::columnMax(e, H1_Y1), mech::columnMax(e, H2_Y1));
    CPPUNIT_ASSERT(e1 <= 1e-12);
    CPPUNIT_ASSERT(e0 <= 1e-4);
  }

  // Midpoint constraints with theta = 1/2: the hinge impulses act along H(q_theta) and
  // H(q_theta) v_mid = 0, so they do no work; gravity's work is exact for the
  // trapezoidal position update: E is kept to the Newton tolerance (measured 1.6e-13 J
  // over 5000 steps, kinetic energy up to 18.5 J), at h = 1e-3 and 2e-3 alike.
  void energyKeptWithMidpointConstraints() {
    const double d1 = mech::columnMax(csv(), E) - mech::columnMin(csv(), E);
    const double d2 = [] {
      const auto& c = nsdyn::test::runExample("DoublePendulumHinges", "--step 0.002");
      return mech::columnMax(c, E) - mech::columnMin(c, E);
    }();
    std::printf(
        "\n  DoublePendulumHinges (midpoint): energy spread %.2e J (h = 1e-3), %.2e J (h = 2e-3)\n",
        d1, d2);
    CPPUNIT_ASSERT(d1 <= 1e-9);
    CPPUNIT_ASSERT(d2 <= 1e-9);
  }

  // End-of-step constraints (Siconos, --constraints end-of-step): the velocity-level
  // hinges (Jacobian of the predicted position) absorb energy:
  // E never rises, and the loss is first order in h. Measured over 5 s of this
  // chaotic motion (kinetic energy up to 18.5 J): 1.38 J at h = 1e-3, 2.51 J at
  // h = 2e-3.
  void energyDriftBoundedAndFirstOrder() {
    const auto& c = nsdyn::test::runExample("DoublePendulumHinges", "--constraints end-of-step");
    double rise = -1e300;
    for (std::size_t k = 1; k < c.rowCount(); ++k) rise = std::max(rise, c(k, E) - c(k - 1, E));
    const double loss1 = energyLoss(c);
    const double loss2 = energyLoss(
        nsdyn::test::runExample("DoublePendulumHinges", "--constraints end-of-step --step 0.002"));
    std::printf(
        "\n  DoublePendulumHinges: energy loss %.4f J (h = 1e-3), %.4f J (h = 2e-3), ratio %.2f;"
        " largest one-step rise %.1e J; max kinetic energy %.2f J\n",
        loss1, loss2, loss2 / loss1, rise, mech::columnMax(c, KIN));
    CPPUNIT_ASSERT(rise <= 1e-10);
    CPPUNIT_ASSERT(loss1 <= 2.0);
    CPPUNIT_ASSERT(loss2 / loss1 > 1.4 && loss2 / loss1 < 2.6);
  }

  void newtonConverges() {
    const auto& c = csv();
    for (std::size_t k = 1; k < c.rowCount(); ++k)
      CPPUNIT_ASSERT(c(k, NEWTON) >= 1.0 && c(k, NEWTON) < 50.0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DoublePendulumHingesTest);
