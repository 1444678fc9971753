// Examples/ImpactingStick: rigid stick hitting a floor, Moreau-Jean + FC2D (EXAMPLES.md §6).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "example_run.hpp"

namespace {

constexpr double kH = 1e-4, kMu = 0.01, kMass = 1.0, kG = 10.0, kInertia = 1.0 / 12.0;
// Columns.
enum { T, X, Y, TH, VX, VY, OM, P0, GAP, Y1, UN, UT, LN, LT, WN, WT, DISS, CWN, CWT, KE, PE, WEXT };

double initialEnergy(const nsdyn::test::ExampleCsv& c) {
  const double ke = 0.5 * kMass * (c(0, VX) * c(0, VX) + c(0, VY) * c(0, VY)) +
                    0.5 * kInertia * c(0, OM) * c(0, OM);
  return ke + kMass * kG * c(0, Y);
}

std::vector<std::size_t> impactRows(const nsdyn::test::ExampleCsv& c) {
  std::vector<std::size_t> rows;
  for (std::size_t k = 1; k < c.rowCount(); ++k)
    if (c(k, LN) > 0.0) rows.push_back(k);
  return rows;
}

}  // namespace

class ImpactingStickTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ImpactingStickTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(tipPenetratesAtMostOrderH);
  CPPUNIT_TEST(impactReversesNormalVelocity);
  CPPUNIT_TEST(impulsesLieInTheFrictionCone);
  CPPUNIT_TEST(externalWorkIsMinusPotentialChange);
  CPPUNIT_TEST(energyChangesOnlyByContactWork);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("ImpactingStick"); }

 public:
  // 2001 rows (t = 1e-4 k) x 22 columns; row 0: initial q, v and zeros in cols 7-21; y1 = 0.
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2001), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(22), c.columnCount());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3535533905932737, c(0, X), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3635533905932738, c(0, Y), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::atan(1.0), c(0, TH), 1e-15);
    CPPUNIT_ASSERT_EQUAL(-0.5, c(0, VX));
    CPPUNIT_ASSERT_EQUAL(0.1, c(0, VY));
    CPPUNIT_ASSERT_EQUAL(0.1, c(0, OM));
    for (std::size_t col = 7; col < 22; ++col) CPPUNIT_ASSERT_EQUAL(0.0, c(0, col));
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kH * static_cast<double>(k), c(k, T), 1e-14);
      CPPUNIT_ASSERT_EQUAL(0.0, c(k, Y1));
    }
  }

  // The gap column is y - cos(theta)/2, never below -h max|u_N|.
  void tipPenetratesAtMostOrderH() {
    const auto& c = csv();
    double minGap = 1.0, maxSpeed = 0.0;
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(c(k, Y) - 0.5 * std::cos(c(k, TH)), c(k, GAP), 1e-15);
      minGap = std::min(minGap, c(k, GAP));
      maxSpeed = std::max(maxSpeed, std::fabs(c(k, UN)));
    }
    std::printf("\n  ImpactingStick: min tip gap %.3e, bound -h max|u_N| = %.3e\n", minGap,
                -kH * maxSpeed);
    CPPUNIT_ASSERT(minGap >= -kH * maxSpeed);
  }

  // e_N = 1: each impact is one step and turns u_N into about -u_N (G at q_k in the
  // law, at q_{k+1} in the output: O(h) apart).
  void impactReversesNormalVelocity() {
    const auto& c = csv();
    const std::vector<std::size_t> rows = impactRows(c);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), rows.size());
    for (std::size_t k : rows) {
      const double before = c(k - 1, UN), after = c(k, UN);
      std::printf(
          "\n  ImpactingStick: impact at t = %.4f, u_N %.6f -> %.6f (ratio %.6f), lambda_N %.6f\n",
          c(k, T), before, after, after / before, c(k, LN));
      CPPUNIT_ASSERT(before < 0.0);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, after / before, 0.01);
      CPPUNIT_ASSERT_EQUAL(0.0, c(k + 1, LN));
    }
  }

  // |lambda_T| <= mu lambda_N, sliding against u_T; p0 = x-component of G^T lambda = -lambda_T.
  void impulsesLieInTheFrictionCone() {
    const auto& c = csv();
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT(c(k, LN) >= 0.0);
      CPPUNIT_ASSERT(std::fabs(c(k, LT)) <= kMu * c(k, LN) * (1.0 + 1e-12));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-c(k, LT), c(k, P0), 1e-15);
    }
    for (std::size_t k : impactRows(c)) {
      // sliding: the tangential impulse is on the cone's edge, opposite to u_T after the step
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kMu * c(k, LN), std::fabs(c(k, LT)), 1e-12 * c(k, LN));
      CPPUNIT_ASSERT(c(k, LT) * c(k, UT) < 0.0);
    }
  }

  // Sum h F.(v_{k+1} + v_k)/2 with F = (0, -m g, 0) is minus the change of m g y.
  void externalWorkIsMinusPotentialChange() {
    const auto& c = csv();
    const double pe0 = kMass * kG * c(0, Y);
    double worst = 0.0;
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kMass * kG * c(k, Y), c(k, PE), 1e-14);
      worst = std::max(worst, std::fabs(c(k, WEXT) + (c(k, PE) - pe0)));
    }
    std::printf("\n  ImpactingStick: |W_ext + Delta PE| max %.3e\n", worst);
    CPPUNIT_ASSERT(worst < 1e-12);
  }

  // KE + PE changes exactly (theta = 1/2) by nothing between impacts and by the
  // contact work (cols 17 + 18) overall, to O(h) from G at q_{k+1} in the recorded u.
  void energyChangesOnlyByContactWork() {
    const auto& c = csv();
    const double e0 = initialEnergy(c);
    double worstFree = 0.0, worstBalance = 0.0;
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      const double e = c(k, KE) + c(k, PE);
      worstBalance = std::max(worstBalance, std::fabs(e - e0 - (c(k, CWN) + c(k, CWT))));
      if (k > 1 && c(k, LN) == 0.0)
        worstFree = std::max(worstFree, std::fabs(e - (c(k - 1, KE) + c(k - 1, PE))));
    }
    const std::size_t last = c.rowCount() - 1;
    std::printf(
        "\n  ImpactingStick: energy %.9f -> %.9f, free-flight drift %.3e, balance error %.3e,"
        " normal work %.3e, tangential work %.3e, friction dissipation sum %.3e\n",
        e0, c(last, KE) + c(last, PE), worstFree, worstBalance, c(last, CWN), c(last, CWT), [&] {
          double s = 0;
          for (std::size_t k = 1; k < c.rowCount(); ++k) s += c(k, DISS);
          return s;
        }());
    CPPUNIT_ASSERT(worstFree < 1e-12);
    CPPUNIT_ASSERT(worstBalance < 1e-4);
    CPPUNIT_ASSERT(std::fabs(c(last, CWN)) < 1e-4);  // e_N = 1: no normal loss beyond O(h)
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ImpactingStickTest);
