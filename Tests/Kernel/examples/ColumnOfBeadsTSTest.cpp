// Examples/ColumnOfBeadsTS: ten beads on a floor, Moreau-Jean + LCP (EXAMPLES.md §1).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "example_run.hpp"

namespace {

constexpr int kBeads = 10;
constexpr double kH = 5e-4, kR = 0.1, kG = 9.81, kE = 0.9, kMass = 1.0;

double z(const nsdyn::test::ExampleCsv& c, std::size_t k, int i) {
  return c(k, 1 + 2 * i);
}
double zdot(const nsdyn::test::ExampleCsv& c, std::size_t k, int i) {
  return c(k, 2 + 2 * i);
}
// Gap of contact j: floor-bead 0 (j = 0), bead j-1 - bead j (j >= 1).
double gap(const nsdyn::test::ExampleCsv& c, std::size_t k, int j) {
  return j == 0 ? z(c, k, 0) - kR : z(c, k, j) - z(c, k, j - 1) - 2 * kR;
}
double energy(const nsdyn::test::ExampleCsv& c, std::size_t k) {
  double e = 0.0;
  for (int i = 0; i < kBeads; ++i)
    e += 0.5 * kMass * zdot(c, k, i) * zdot(c, k, i) + kMass * kG * z(c, k, i);
  return e;
}

}  // namespace

class ColumnOfBeadsTSTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ColumnOfBeadsTSTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(fallsFreelyBeforeFirstContact);
  CPPUNIT_TEST(firstFloorImpactReversesVelocityByE);
  CPPUNIT_TEST(penetratesAtMostOrderH);
  CPPUNIT_TEST(momentumChangesOnlyByWeightAwayFromFloor);
  CPPUNIT_TEST(energyNeverIncreasesBeyondRoundOff);
  CPPUNIT_TEST(comesToRestOnTheFloor);
  CPPUNIT_TEST(contactsOnDemandEqualAllContacts);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("ColumnOfBeadsTS"); }

 public:
  // 4001 rows (t = 5e-4 k) x 41 columns, columns 21-40 zero, row 0 the initial state.
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(4001), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(41), c.columnCount());
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(kH * static_cast<double>(k), c(k, 0), 1e-12);
      for (std::size_t col = 21; col < 41; ++col) CPPUNIT_ASSERT_EQUAL(0.0, c(k, col));
    }
    for (int i = 0; i < kBeads; ++i) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 + 0.25 * i, z(c, 0, i), 1e-15);
      CPPUNIT_ASSERT_EQUAL(0.0, zdot(c, 0, i));
    }
  }

  // Theta = 1/2 is exact for a constant force: z = z0 - g t^2/2 until bead 0 nears the floor.
  void fallsFreelyBeforeFirstContact() {
    const auto& c = csv();
    double worst = 0.0;
    for (std::size_t k = 0; c(k, 0) < 0.4; ++k)
      for (int i = 0; i < kBeads; ++i)
        worst =
            std::max(worst, std::fabs(z(c, k, i) - (z(c, 0, i) - 0.5 * kG * c(k, 0) * c(k, 0))));
    std::printf("\n  ColumnOfBeadsTS: free fall max error %.3e\n", worst);
    CPPUNIT_ASSERT(worst < 1e-12);
  }

  // Bead 0 hits the floor first, alone: zdot_{k+1} = -e zdot_k on that step.
  void firstFloorImpactReversesVelocityByE() {
    const auto& c = csv();
    std::size_t k = 1;
    while (k < c.rowCount() && zdot(c, k, 0) <= 0.0) ++k;
    CPPUNIT_ASSERT(k < c.rowCount());
    const double ratio = zdot(c, k, 0) / zdot(c, k - 1, 0);
    std::printf("\n  ColumnOfBeadsTS: first floor impact at t = %.4f, ratio %.15f\n", c(k, 0),
                ratio);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-kE, ratio, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.429, c(k, 0), 1e-12);
  }

  // Velocity-level contacts: gaps never below -h max|zdot|.
  void penetratesAtMostOrderH() {
    const auto& c = csv();
    double minGap = 1.0, maxSpeed = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k)
      for (int j = 0; j < kBeads; ++j) {
        minGap = std::min(minGap, gap(c, k, j));
        maxSpeed = std::max(maxSpeed, std::fabs(zdot(c, k, j)));
      }
    std::printf("\n  ColumnOfBeadsTS: min gap %.3e, bound -h max|zdot| = %.3e\n", minGap,
                -kH * maxSpeed);
    CPPUNIT_ASSERT(minGap >= -kH * maxSpeed);
  }

  // Bead-bead impulses cancel: the total momentum changes by -10 m g h per step,
  // plus the floor's impulse (>= 0), which is zero while bead 0 is far from the floor.
  void momentumChangesOnlyByWeightAwayFromFloor() {
    const auto& c = csv();
    double worstFar = 0.0, minFloorImpulse = 0.0;
    for (std::size_t k = 0; k + 1 < c.rowCount(); ++k) {
      double dp = kBeads * kMass * kG * kH;
      for (int i = 0; i < kBeads; ++i) dp += kMass * (zdot(c, k + 1, i) - zdot(c, k, i));
      minFloorImpulse = std::min(minFloorImpulse, dp);
      if (gap(c, k, 0) > 0.05 && gap(c, k + 1, 0) > 0.05)
        worstFar = std::max(worstFar, std::fabs(dp));
    }
    std::printf(
        "\n  ColumnOfBeadsTS: momentum balance away from floor %.3e, min floor impulse %.3e\n",
        worstFar, minFloorImpulse);
    CPPUNIT_ASSERT(worstFar < 1e-10);
    CPPUNIT_ASSERT(minFloorImpulse > -1e-10);
  }

  // Theta = 1/2 keeps the energy exactly in flight and e = 0.9 impacts dissipate.
  void energyNeverIncreasesBeyondRoundOff() {
    const auto& c = csv();
    const double e0 = energy(c, 0), eEnd = energy(c, c.rowCount() - 1);
    double maxIncrease = 0.0;
    for (std::size_t k = 0; k + 1 < c.rowCount(); ++k)
      maxIncrease = std::max(maxIncrease, energy(c, k + 1) - energy(c, k));
    std::printf("\n  ColumnOfBeadsTS: energy %.6f -> %.6f, max step increase %.3e\n", e0, eEnd,
                maxIncrease);
    CPPUNIT_ASSERT(maxIncrease < 1e-6 * e0);
    CPPUNIT_ASSERT(eEnd < 0.6 * e0);
  }

  // At T = 2 the column rests on the floor: gaps ~ 0 (within g h^2), velocities ~ 0.
  void comesToRestOnTheFloor() {
    const auto& c = csv();
    const std::size_t last = c.rowCount() - 1;
    double maxGap = 0.0, maxSpeed = 0.0;
    for (int j = 0; j < kBeads; ++j) {
      maxGap = std::max(maxGap, std::fabs(gap(c, last, j)));
      maxSpeed = std::max(maxSpeed, std::fabs(zdot(c, last, j)));
    }
    std::printf("\n  ColumnOfBeadsTS: at T max |gap| %.3e, max |zdot| %.3e\n", maxGap, maxSpeed);
    CPPUNIT_ASSERT(maxGap < 1e-4);
    CPPUNIT_ASSERT(maxSpeed < 1e-6);
  }

  // EXAMPLES.md: declaring all contacts from t = 0 gives the same file (3e-14).
  void contactsOnDemandEqualAllContacts() {
    const auto& c = csv();
    const auto& all = nsdyn::test::runExample("ColumnOfBeadsTS", "--all-contacts");
    CPPUNIT_ASSERT_EQUAL(c.rowCount(), all.rowCount());
    double worst = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k)
      for (std::size_t col = 0; col < c.columnCount(); ++col)
        worst = std::max(worst, std::fabs(c(k, col) - all(k, col)));
    std::printf("\n  ColumnOfBeadsTS: on-demand vs all contacts max difference %.3e\n", worst);
    CPPUNIT_ASSERT(worst < 1e-12);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ColumnOfBeadsTSTest);
