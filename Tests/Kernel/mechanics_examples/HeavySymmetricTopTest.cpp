// Examples/HeavySymmetricTop: a fast symmetric top on a fixed tip under gravity,
// theta = 1/2: precession rate against the gyroscopic closed form.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mechanics_check.hpp"

namespace {

namespace mech = nsdyn::test::mech;
constexpr double kM = 1.0, kG = 9.81, kL = 0.1, kI3 = 0.01, kOmega3 = 200.0;
const double kTilt0 = std::acos(-1.0) / 6.0;
enum {
  T = 0,
  Q = 1,
  OMEGA = 8,
  AXIS = 11,
  TILT = 14,
  PHI = 15,
  Y0 = 16,
  Y1 = 17,
  E = 18,
  NEWTON = 19
};

}  // namespace

class HeavySymmetricTopTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HeavySymmetricTopTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(precessesAtTheGyroscopicRate);
  CPPUNIT_TEST(spinAboutTheSymmetryAxisIsConstant);
  CPPUNIT_TEST(tipStaysAtTheOrigin);
  CPPUNIT_TEST(energyKeptByTheConservingScheme);
  CPPUNIT_TEST(energyDecreasesSlowly);
  CPPUNIT_TEST(newtonConverges);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("HeavySymmetricTop"); }

 public:
  // h = 5e-4, T = 4: 8001 rows (row 0 the initial state), 20 columns.
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(8001), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(20), c.columnCount());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, c(8000, T), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(kTilt0, c(0, TILT), 1e-15);
    // the axis columns are R(q) e_z
    for (std::size_t k = 0; k < c.rowCount(); k += 97) {
      const mech::Vec3 a = mech::rotate(mech::orientation(c, k, Q), {0.0, 0.0, 1.0});
      for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(a[i], c(k, AXIS + i), 1e-14);
    }
  }

  // Regime: m g l I1' / (I3 omega3)^2 = 0.004 << 1 (I1' = I1 + m l^2 = 0.016), so the
  // released top only nutates slightly and its mean precession rate is
  // m g l / (I3 omega3) = 0.4905 rad/s up to corrections of that relative order.
  // Measured (least-squares slope of phi(t) over 4 s): 0.49109 rad/s, +0.12 %.
  void precessesAtTheGyroscopicRate() {
    const auto& c = csv();
    double st = 0.0, sp = 0.0, stt = 0.0, stp = 0.0;
    const double n = double(c.rowCount());
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      st += c(k, T);
      sp += c(k, PHI);
      stt += c(k, T) * c(k, T);
      stp += c(k, T) * c(k, PHI);
    }
    const double rate = (n * stp - st * sp) / (n * stt - st * st);
    const double closedForm = kM * kG * kL / (kI3 * kOmega3);
    std::printf(
        "\n  HeavySymmetricTop: precession rate %.6f rad/s, closed form %.6f, relative error %.2e;"
        " tilt %.5f to %.5f rad\n",
        rate, closedForm, (rate - closedForm) / closedForm, mech::columnMin(c, TILT),
        mech::columnMax(c, TILT));
    CPPUNIT_ASSERT(std::fabs(rate - closedForm) <= 0.02 * closedForm);
    // the released top dips below its initial tilt, never rises above it
    CPPUNIT_ASSERT(mech::columnMin(c, TILT) >= kTilt0 - 1e-9);
  }

  const nsdyn::test::ExampleCsv& siconos() {
    return nsdyn::test::runExample("HeavySymmetricTop", "--scheme siconos");
  }

  // Symmetric body, constraint force through the symmetry axis: Ω3 is constant: to
  // 1e-9 with the Siconos scheme; to the Newton tolerance with the energy-momentum
  // term, whose rotated momentum mixes the axes at each iteration (measured 4.6e-7).
  void spinAboutTheSymmetryAxisIsConstant() {
    const auto& c = csv();
    for (std::size_t k = 0; k < c.rowCount(); ++k)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kOmega3, c(k, OMEGA + 2), 1e-6);
    const auto& e = siconos();
    for (std::size_t k = 0; k < e.rowCount(); ++k)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kOmega3, e(k, OMEGA + 2), 1e-9);
  }

  // Default scheme (energy-momentum gyroscopic term, midpoint joint, theta = 1/2): the
  // joint does no work and the rotation keeps the kinetic energy: E is constant to the
  // Newton tolerance (measured 5.4e-9 J of 200.85 J over 8000 steps) and the nutation
  // stays bounded (tilt 0.5236 to 0.5276 rad).
  void energyKeptByTheConservingScheme() {
    const auto& c = csv();
    const double spread = mech::columnMax(c, E) - mech::columnMin(c, E);
    std::printf(
        "\n  HeavySymmetricTop (energy-conserving): energy spread %.2e J, tilt %.5f to %.5f rad\n",
        spread, mech::columnMin(c, TILT), mech::columnMax(c, TILT));
    CPPUNIT_ASSERT(spread <= 1e-7);
    CPPUNIT_ASSERT(mech::columnMax(c, TILT) <= kTilt0 + 0.01);
  }

  // Siconos scheme: H v = 0 to round-off; the tip drifts at O(h^2) (measured 1.45e-4 m
  // over 4 s). Default scheme: H(q_theta) v_mid = 0, tip drift 3.5e-5 m.
  void tipStaysAtTheOrigin() {
    CPPUNIT_ASSERT(mech::columnMax(csv(), Y0) <= 1e-4);
    const auto& c = siconos();
    std::printf("\n  HeavySymmetricTop: max ||y0|| (tip drift) %.3e m, max ||y1|| %.1e m/s\n",
                mech::columnMax(c, Y0), mech::columnMax(c, Y1));
    CPPUNIT_ASSERT(mech::columnMax(c, Y1) <= 1e-12);
    CPPUNIT_ASSERT(mech::columnMax(c, Y0) <= 5e-4);
  }

  // Siconos scheme (--scheme siconos): velocity-level joint with the Jacobian of the predicted
  // position: the constraint impulse does (negative) work of O(h^2) per step, so E decreases
  // monotonically at O(h) (measured: -0.027 J of the 0.85 J potential energy
  // over 4 s at h = 5e-4, the tilt growing by 0.054 rad; both halve with h).
  void energyDecreasesSlowly() {
    const auto& c = siconos();
    double rise = -1e300;
    for (std::size_t k = 1; k < c.rowCount(); ++k) rise = std::max(rise, c(k, E) - c(k - 1, E));
    const double loss = c(0, E) - c(c.rowCount() - 1, E);
    std::printf(
        "\n  HeavySymmetricTop: energy loss %.4e J over 4 s, largest one-step rise %.1e J\n", loss,
        rise);
    CPPUNIT_ASSERT(rise <= 1e-10);
    CPPUNIT_ASSERT(loss >= 0.0 && loss <= 0.05);
  }

  void newtonConverges() {
    const auto& c = csv();
    for (std::size_t k = 1; k < c.rowCount(); ++k)
      CPPUNIT_ASSERT(c(k, NEWTON) >= 1.0 && c(k, NEWTON) < 50.0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(HeavySymmetricTopTest);
