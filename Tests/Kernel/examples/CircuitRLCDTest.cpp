// Examples/CircuitRLCD: LC tank with a resistor-diode branch, Euler-Moreau + LCP (EXAMPLES.md §3).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "example_run.hpp"

namespace {

constexpr double kL = 1e-2, kC = 1e-6, kR = 1e3, kH = 1e-5;
const double kOmegaH = kH / std::sqrt(kL * kC);  // 0.1 rad per step

double energy(const nsdyn::test::ExampleCsv& c, std::size_t k) {
  return 0.5 * kC * c(k, 1) * c(k, 1) + 0.5 * kL * c(k, 2) * c(k, 2);
}

}  // namespace

class CircuitRLCDTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CircuitRLCDTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(diodeIsComplementary);
  CPPUNIT_TEST(energyDecreases);
  CPPUNIT_TEST(blockedHalfWavesKeepEnergy);
  CPPUNIT_TEST(onlyPositiveHalfWavesAreDamped);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("CircuitRLCD"); }

 public:
  // 500 rows (t = 1e-5 k), 6 columns; row 0 = (0, 10, 0, 10, 0, 0); column 5 zero.
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(500), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), c.columnCount());
    const double row0[6] = {0.0, 10.0, 0.0, 10.0, 0.0, 0.0};
    for (int col = 0; col < 6; ++col) CPPUNIT_ASSERT_EQUAL(row0[col], c(0, col));
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kH * static_cast<double>(k), c(k, 0), 1e-15);
      CPPUNIT_ASSERT_EQUAL(0.0, c(k, 5));
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.99e-3, c(499, 0), 1e-15);
  }

  // From row 1: lambda >= 0, y = R lambda - V_C >= 0, y lambda = 0 (col 3 is -y).
  void diodeIsComplementary() {
    const auto& c = csv();
    double worstProduct = 0.0, minLambda = 0.0, minY = 0.0, worstRelation = 0.0;
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      const double y = -c(k, 3), lambda = c(k, 4);
      minLambda = std::min(minLambda, lambda);
      minY = std::min(minY, y);
      worstProduct = std::max(worstProduct, std::fabs(y * lambda));
      worstRelation = std::max(worstRelation, std::fabs(y - (kR * lambda - c(k, 1))));
    }
    std::printf(
        "\n  CircuitRLCD: min lambda %.3e, min y %.3e, max |y lambda| %.3e, max |y - (R lambda - "
        "V_C)| %.3e\n",
        minLambda, minY, worstProduct, worstRelation);
    CPPUNIT_ASSERT(minLambda >= 0.0);
    CPPUNIT_ASSERT(minY >= -1e-12);
    CPPUNIT_ASSERT(worstProduct <= 1e-14);
    CPPUNIT_ASSERT(worstRelation <= 1e-12);
  }

  // C V^2/2 + L I^2/2 does not grow, except at the step where the diode switches
  // on, by O((omega h)^2) relative (the implicit input takes the whole step).
  void energyDecreases() {
    const auto& c = csv();
    double maxRelIncrease = 0.0;
    for (std::size_t k = 0; k + 1 < c.rowCount(); ++k)
      maxRelIncrease = std::max(maxRelIncrease, (energy(c, k + 1) - energy(c, k)) / energy(c, k));
    const double e0 = energy(c, 0), eEnd = energy(c, c.rowCount() - 1);
    std::printf(
        "\n  CircuitRLCD: energy %.6e -> %.6e J, max relative step increase %.3e ((omega h)^2 = "
        "%.1e)\n",
        e0, eEnd, maxRelIncrease, kOmegaH * kOmegaH);
    CPPUNIT_ASSERT(maxRelIncrease < kOmegaH * kOmegaH);
    CPPUNIT_ASSERT(eEnd < 0.2 * e0);
  }

  // While the diode blocks (lambda = 0 on both ends of a step) the circuit is a pure
  // LC tank; the (almost) trapezoidal scheme keeps its energy to far below O(h^2).
  void blockedHalfWavesKeepEnergy() {
    const auto& c = csv();
    double worst = 0.0;
    std::size_t steps = 0;
    for (std::size_t k = 1; k + 1 < c.rowCount(); ++k) {
      if (c(k, 4) != 0.0 || c(k + 1, 4) != 0.0) continue;
      worst = std::max(worst, std::fabs(energy(c, k + 1) - energy(c, k)) / energy(c, k));
      ++steps;
    }
    std::printf("\n  CircuitRLCD: %zu blocked steps, max relative energy change %.3e\n", steps,
                worst);
    CPPUNIT_ASSERT(steps > 100);
    CPPUNIT_ASSERT(worst < 1e-12);
  }

  // The diode conducts only while V_C > 0 and the voltage changes sign every half period.
  void onlyPositiveHalfWavesAreDamped() {
    const auto& c = csv();
    int signChanges = 0;
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      if (c(k, 4) > 0.0) CPPUNIT_ASSERT(c(k, 1) > 0.0);
      if ((c(k, 1) > 0.0) != (c(k - 1, 1) > 0.0)) ++signChanges;
    }
    std::printf("\n  CircuitRLCD: %d sign changes of V_C\n", signChanges);
    CPPUNIT_ASSERT(signChanges >= 10);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CircuitRLCDTest);
