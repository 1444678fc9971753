// Examples/TorqueFreeTop: torque-free asymmetric body, theta = 1/2: kinetic energy
// and world angular momentum.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mechanics_check.hpp"

namespace {

namespace mech = nsdyn::test::mech;
const double kI[3] = {1.0, 2.0, 3.0};
enum { T = 0, Q = 1, OMEGA = 8, E = 11, L = 12, QNORM = 15, NEWTON = 16 };

struct Drift {
  double energy = 0.0;    // max |E - E0| / E0
  double momentum = 0.0;  // max |L - L0| / |L0|
};

Drift drift(const nsdyn::test::ExampleCsv& c) {
  Drift d;
  const double E0 = c(0, E);
  const mech::Vec3 L0{c(0, L), c(0, L + 1), c(0, L + 2)};
  for (std::size_t k = 0; k < c.rowCount(); ++k) {
    d.energy = std::max(d.energy, std::fabs(c(k, E) - E0) / E0);
    const mech::Vec3 dL{c(k, L) - L0[0], c(k, L + 1) - L0[1], c(k, L + 2) - L0[2]};
    d.momentum = std::max(d.momentum, mech::norm(dL) / mech::norm(L0));
  }
  return d;
}

}  // namespace

class TorqueFreeTopTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TorqueFreeTopTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(energyAndMomentumColumnsAreThoseOfTheState);
  CPPUNIT_TEST(bodyFlipsOverAboutItsIntermediateAxis);
  CPPUNIT_TEST(energyAndMomentumKeptToSecondOrder);
  CPPUNIT_TEST(energyMomentumSchemeKeepsThemToRoundOff);
  CPPUNIT_TEST(quaternionKeepsUnitNormAndNewtonConverges);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("TorqueFreeTop"); }

 public:
  // h = 0.01, T = 20: 2001 rows (row 0 the initial state), 17 columns.
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2001), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(17), c.columnCount());
    CPPUNIT_ASSERT_EQUAL(0.0, c(0, T));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(20.0, c(2000, T), 1e-12);
    CPPUNIT_ASSERT_EQUAL(0.0, c(0, NEWTON));
  }

  // E = ½ Σ I_i Ω_i² and L = R(q) I Ω recomputed from q and Ω; the centre of mass stays at 0.
  void energyAndMomentumColumnsAreThoseOfTheState() {
    const auto& c = csv();
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      double e = 0.0;
      mech::Vec3 IW{};
      for (std::size_t i = 0; i < 3; ++i) {
        e += 0.5 * kI[i] * c(k, OMEGA + i) * c(k, OMEGA + i);
        IW[i] = kI[i] * c(k, OMEGA + i);
      }
      CPPUNIT_ASSERT_DOUBLES_EQUAL(e, c(k, E), 1e-13);
      const mech::Vec3 Lw = mech::rotate(mech::orientation(c, k, Q), IW);
      for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(Lw[i], c(k, L + i), 1e-13);
      for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_EQUAL(0.0, c(k, Q + i));
    }
  }

  // Spin mostly about the intermediate axis (Ω0 = (0.1, 2, 0.2)) is unstable: Ω2 reverses.
  void bodyFlipsOverAboutItsIntermediateAxis() {
    const auto& c = csv();
    CPPUNIT_ASSERT(mech::columnMin(c, OMEGA + 1) < -1.9);
    CPPUNIT_ASSERT(mech::columnMax(c, OMEGA + 1) > 1.9);
  }

  // With NewtonEulerDS::GyroscopicScheme::EnergyMomentum (the example's default) the
  // body momentum is carried by the step's rotation exp(-h Omega_theta): with theta = 1/2
  // the kinetic energy and the world angular momentum are invariants of the discrete map,
  // kept to the Newton tolerance (1e-12) and round-off over the 2000 steps.
  void energyMomentumSchemeKeepsThemToRoundOff() {
    const Drift d = drift(csv());
    std::printf("\n  TorqueFreeTop (energy-momentum): max |dE|/E %.3e, max |dL|/|L| %.3e\n",
                d.energy, d.momentum);
    CPPUNIT_ASSERT(d.energy <= 1e-12);
    CPPUNIT_ASSERT(d.momentum <= 1e-12);
    const Drift half = drift(nsdyn::test::runExample("TorqueFreeTop", "--step 0.005"));
    CPPUNIT_ASSERT(half.energy <= 1e-12);
    CPPUNIT_ASSERT(half.momentum <= 1e-12);
  }

  // The Siconos scheme averages the gyroscopic wrench (trapezoidal rule, F_k and F_{k+1}),
  // not the midpoint rule: E and L are not invariants of the discrete map. Their
  // errors are O(h^2) with no secular growth of E: measured at h = 0.01 over 20 s,
  // max |ΔE|/E = 3.3e-5, max |ΔL|/|L| = 9.5e-5, and both divide by 4 when h is halved.
  void energyAndMomentumKeptToSecondOrder() {
    const auto& trap = nsdyn::test::runExample("TorqueFreeTop", "--scheme trapezoidal");
    const Drift d1 = drift(trap);
    const Drift d2 =
        drift(nsdyn::test::runExample("TorqueFreeTop", "--scheme trapezoidal --step 0.005"));
    std::printf(
        "\n  TorqueFreeTop: max |dE|/E %.3e (h = 0.01), %.3e (h = 0.005), ratio %.3f;"
        " max |dL|/|L| %.3e, %.3e, ratio %.3f\n",
        d1.energy, d2.energy, d1.energy / d2.energy, d1.momentum, d2.momentum,
        d1.momentum / d2.momentum);
    CPPUNIT_ASSERT(d1.energy <= 5e-5);
    CPPUNIT_ASSERT(d1.momentum <= 1.5e-4);
    CPPUNIT_ASSERT(d1.energy / d2.energy > 3.5 && d1.energy / d2.energy < 4.5);
    CPPUNIT_ASSERT(d1.momentum / d2.momentum > 3.5 && d1.momentum / d2.momentum < 4.5);
    // no drift of E: over the last quarter of the run it comes back to E0 (Ω2 = ±2 again)
    const auto& c = trap;
    double back = 1.0;
    for (std::size_t k = 3 * c.rowCount() / 4; k < c.rowCount(); ++k)
      back = std::min(back, std::fabs(c(k, E) - c(0, E)) / c(0, E));
    std::printf("  TorqueFreeTop: min |dE|/E over the last quarter %.1e\n", back);
    CPPUNIT_ASSERT(back <= 1e-6);
  }

  void quaternionKeepsUnitNormAndNewtonConverges() {
    const auto& c = csv();
    double err = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k)
      err = std::max(err, std::fabs(c(k, QNORM) - 1.0));
    std::printf("\n  TorqueFreeTop: max ||q| - 1| = %.1e, Newton iterations per step up to %g\n",
                err, mech::columnMax(c, NEWTON));
    CPPUNIT_ASSERT(err <= 1e-13);
    for (std::size_t k = 1; k < c.rowCount(); ++k)
      CPPUNIT_ASSERT(c(k, NEWTON) >= 1.0 && c(k, NEWTON) < 20.0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TorqueFreeTopTest);
