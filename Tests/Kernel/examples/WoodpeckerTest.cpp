// Examples/Woodpecker: the Leine-Glocker woodpecker toy, Moreau-Jean + FC2D (EXAMPLES.md §2).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "example_run.hpp"

namespace {

constexpr double kH = 2e-5;
constexpr double kBeakHeight = 0.02, kSleeveHeight = 0.0058;
constexpr double kBeakOffset = 0.0024, kSleeveOffset = 6e-4;

// Normal gaps of the three contacts from a row (q = cols 1, 3, 5).
double beakGap(const std::vector<double>& r) {
  return -kBeakHeight * r[5] + kBeakOffset;
}
double upperGap(const std::vector<double>& r) {
  return kSleeveHeight * r[3] + kSleeveOffset;
}
double lowerGap(const std::vector<double>& r) {
  return -kSleeveHeight * r[3] + kSleeveOffset;
}

// Start times of the phases where the sleeve is jammed on the pole (ydot = 0 for >= 5 ms).
std::vector<double> jammedPhases(const nsdyn::test::ExampleCsv& c) {
  std::vector<double> starts;
  std::size_t run = 0;
  for (std::size_t k = 1; k < c.rowCount(); ++k) {
    run = std::fabs(c(k, 2)) < 1e-9 ? run + 1 : 0;
    if (run == 250) starts.push_back(c(k - 249, 0));
  }
  return starts;
}

}  // namespace

class WoodpeckerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(WoodpeckerTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(penetratesAtMostOrderH);
  CPPUNIT_TEST(beakHitsThePoleEveryCycle);
  CPPUNIT_TEST(cyclesRepeat);
  CPPUNIT_TEST(descendsThePole);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("Woodpecker"); }

 public:
  // N = floor(T/h) = 14999 in floating point: 15000 rows, last time 0.29998; 7 columns.
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(15000), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), c.columnCount());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.29998, c(c.rowCount() - 1, 0), 1e-15);
    const double row0[7] = {0.0, 0.0, -0.3411, -0.1036, 4.8572e-15, -0.2788, -7.4583};
    for (int col = 0; col < 7; ++col) CPPUNIT_ASSERT_EQUAL(row0[col], c(0, col));
    // contact 2 is closed at t = 0 (gap -8.8e-7)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-8.8e-7, upperGap(c.rows[0]), 1e-12);
  }

  // Velocity-level contacts: no gap below -h times the largest normal speed.
  void penetratesAtMostOrderH() {
    const auto& c = csv();
    double minGap[3] = {1.0, 1.0, 1.0}, maxRate = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      minGap[0] = std::min(minGap[0], beakGap(c.rows[k]));
      minGap[1] = std::min(minGap[1], upperGap(c.rows[k]));
      minGap[2] = std::min(minGap[2], lowerGap(c.rows[k]));
      maxRate =
          std::max({maxRate, kBeakHeight * std::fabs(c(k, 6)), kSleeveHeight * std::fabs(c(k, 4))});
    }
    std::printf(
        "\n  Woodpecker: min gaps beak %.3e, upper %.3e, lower %.3e; bound -h max|ydot_N| = %.3e\n",
        minGap[0], minGap[1], minGap[2], -kH * maxRate);
    for (double g : minGap) CPPUNIT_ASSERT(g >= -kH * maxRate);
  }

  // The beak closes on the pole (gap ~ 0) once in each cycle: at least twice in 0.3 s.
  void beakHitsThePoleEveryCycle() {
    const auto& c = csv();
    std::vector<double> hits;
    bool open = true;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      const double g = beakGap(c.rows[k]);
      if (open && g < 1e-5) {
        hits.push_back(c(k, 0));
        open = false;
      } else if (g > 1e-4) {
        open = true;
      }
    }
    std::printf("\n  Woodpecker: beak hits at");
    for (double t : hits) std::printf(" %.5f", t);
    std::printf("\n");
    CPPUNIT_ASSERT(hits.size() >= 2);
  }

  // Periodic-like motion: the sleeve jams twice, about 0.14 s apart, and the body's
  // extreme backward swing is the same in both cycles.
  void cyclesRepeat() {
    const auto& c = csv();
    const std::vector<double> jams = jammedPhases(c);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), jams.size());
    double minPhi[2] = {0.0, 0.0};
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      const int cycle = c(k, 0) < 0.5 * (jams[0] + jams[1]) ? 0 : 1;
      minPhi[cycle] = std::min(minPhi[cycle], c(k, 5));
    }
    std::printf(
        "\n  Woodpecker: jammed from %.5f and %.5f (period %.5f s), min phi_S %.5f / %.5f\n",
        jams[0], jams[1], jams[1] - jams[0], minPhi[0], minPhi[1]);
    CPPUNIT_ASSERT(jams[1] - jams[0] > 0.1 && jams[1] - jams[0] < 0.2);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(minPhi[0], minPhi[1], 0.05 * std::fabs(minPhi[0]));
  }

  // The woodpecker goes down the pole, never up by more than a bounce.
  void descendsThePole() {
    const auto& c = csv();
    const double yEnd = c(c.rowCount() - 1, 1);
    double maxRise = 0.0, lowest = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      lowest = std::min(lowest, c(k, 1));
      maxRise = std::max(maxRise, c(k, 1) - lowest);
    }
    std::printf("\n  Woodpecker: y(T) = %.5f m, largest rise %.3e m\n", yEnd, maxRise);
    CPPUNIT_ASSERT(yEnd < -0.02);
    CPPUNIT_ASSERT(maxRise < 0.002);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(WoodpeckerTest);
