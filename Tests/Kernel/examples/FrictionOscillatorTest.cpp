// Examples/FrictionOscillator: oscillator with dry friction, Euler-Moreau + Relay (EXAMPLES.md §5).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "example_run.hpp"

namespace {

constexpr double kH = 1e-2;
constexpr double kStuck = 1e-10;  // |x2| below this: at rest

double energy(const nsdyn::test::ExampleCsv& c, std::size_t k) {
  return 0.5 * (c(k, 1) * c(k, 1) + c(k, 2) * c(k, 2));
}

}  // namespace

class FrictionOscillatorTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FrictionOscillatorTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(columnsAreConsistent);
  CPPUNIT_TEST(frictionOpposesSliding);
  CPPUNIT_TEST(firstSlipIsARotationAboutMinusOne);
  CPPUNIT_TEST(sticksInsideTheStaticBand);
  CPPUNIT_TEST(energyDecreases);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("FrictionOscillator"); }

 public:
  // 10000 rows (t = 0.01 k), 10 columns; row 0: (0, 12, 6, 0, 0, 0, 0, row 1's field, 0).
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(10000), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(10), c.columnCount());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(99.99, c(9999, 0), 1e-12);
    const double row0[7] = {0.0, 12.0, 6.0, 0.0, 0.0, 0.0, 0.0};
    for (int col = 0; col < 7; ++col) CPPUNIT_ASSERT_EQUAL(row0[col], c(0, col));
    CPPUNIT_ASSERT_EQUAL(c(1, 7), c(0, 7));
    CPPUNIT_ASSERT_EQUAL(c(1, 8), c(0, 8));
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kH * static_cast<double>(k), c(k, 0), 1e-12);
      CPPUNIT_ASSERT_EQUAL(0.0, c(k, 5));
      CPPUNIT_ASSERT_EQUAL(0.0, c(k, 6));
      CPPUNIT_ASSERT_EQUAL(0.0, c(k, 9));
    }
  }

  // From row 1: y = x2, field = (x2, -x1 + lambda), |lambda| <= 1.
  void columnsAreConsistent() {
    const auto& c = csv();
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(c(k, 2), c(k, 4), 1e-14);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(c(k, 2), c(k, 7), 1e-14);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-c(k, 1) + c(k, 3), c(k, 8), 1e-13);
      CPPUNIT_ASSERT(std::fabs(c(k, 3)) <= 1.0 + 1e-14);
    }
  }

  // lambda = -sign(x2) while sliding; sticking steps (x2 = 0) occur with |lambda| < 1.
  void frictionOpposesSliding() {
    const auto& c = csv();
    double worst = 0.0;
    std::size_t stuck = 0;
    for (std::size_t k = 1; k < c.rowCount(); ++k) {
      if (std::fabs(c(k, 2)) > kStuck) {
        worst = std::max(worst, std::fabs(c(k, 3) + std::copysign(1.0, c(k, 2))));
      } else {
        ++stuck;
        CPPUNIT_ASSERT(std::fabs(c(k, 3)) < 1.0);
      }
    }
    std::printf("\n  FrictionOscillator: max |lambda + sign(x2)| sliding %.3e, %zu sticking rows\n",
                worst, stuck);
    CPPUNIT_ASSERT(worst < 1e-12);
    CPPUNIT_ASSERT(stuck > 100);
  }

  // x1'' + x1 = -1 while x2 > 0: the trapezoidal scheme keeps (x1 + 1)^2 + x2^2 = 13^2 + 6^2.
  void firstSlipIsARotationAboutMinusOne() {
    const auto& c = csv();
    double worst = 0.0;
    std::size_t k = 1;
    for (; k < c.rowCount() && c(k, 2) > kStuck; ++k)
      worst =
          std::max(worst, std::fabs((c(k, 1) + 1.0) * (c(k, 1) + 1.0) + c(k, 2) * c(k, 2) - 205.0));
    std::printf("\n  FrictionOscillator: first slip until t = %.2f, radius^2 error %.3e\n", c(k, 0),
                worst);
    CPPUNIT_ASSERT(k > 10);
    CPPUNIT_ASSERT(worst < 1e-9);
  }

  // The mass ends at rest with |x1| <= 1, where friction balances the spring.
  void sticksInsideTheStaticBand() {
    const auto& c = csv();
    const std::size_t last = c.rowCount() - 1;
    std::printf("\n  FrictionOscillator: final x1 = %.6f, x2 = %.3e, lambda = %.6f\n", c(last, 1),
                c(last, 2), c(last, 3));
    CPPUNIT_ASSERT(std::fabs(c(last, 2)) < kStuck);
    CPPUNIT_ASSERT(std::fabs(c(last, 1)) <= 1.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(c(last, 1), c(last, 3), 1e-12);  // lambda balances the spring
    CPPUNIT_ASSERT_DOUBLES_EQUAL(c(last - 1000, 1), c(last, 1), 1e-12);
  }

  // Friction dissipates: the energy x1^2/2 + x2^2/2 falls; one step may gain O(h^2)
  // relative where the velocity reverses within the step.
  void energyDecreases() {
    const auto& c = csv();
    double maxRel = 0.0;
    for (std::size_t k = 1; k + 1 < c.rowCount(); ++k)
      maxRel = std::max(maxRel, (energy(c, k + 1) - energy(c, k)) / energy(c, k));
    std::printf("\n  FrictionOscillator: energy %.4f -> %.4f, max relative step increase %.3e\n",
                energy(c, 0), energy(c, c.rowCount() - 1), maxRel);
    CPPUNIT_ASSERT(maxRel < kH * kH);
    CPPUNIT_ASSERT(energy(c, c.rowCount() - 1) < 0.01 * energy(c, 0));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FrictionOscillatorTest);
