// Examples/ChainOnPile reduced (3 pyramid layers, first 0.2 s: the chain lands on the pile
// at t = 0.143 s): joint drift and penetrations bounded, the energy never rises (e = 0,
// theta = 1/2) and is dissipated once the chain lands.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "example_run.hpp"

namespace {

const char* const kArgs = "--layers 3 --time 0.2";
enum {
  T = 0,
  KIN,
  POT,
  E,
  CHAIN_KIN,
  DRIFT,
  FLOOR,
  CGAP,
  CONTACTS,
  ACTIVE,
  ITER,
  RES,
  ZMIN,
  ZMAX,
  COLUMNS
};

double columnMin(const nsdyn::test::ExampleCsv& c, int col) {
  double m = c(0, col);
  for (std::size_t k = 0; k < c.rowCount(); ++k) m = std::min(m, c(k, col));
  return m;
}

double columnMax(const nsdyn::test::ExampleCsv& c, int col) {
  double m = c(0, col);
  for (std::size_t k = 0; k < c.rowCount(); ++k) m = std::max(m, c(k, col));
  return m;
}

}  // namespace

class ChainOnPileTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ChainOnPileTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(chainFallsFreelyThenLands);
  CPPUNIT_TEST(jointDriftBounded);
  CPPUNIT_TEST(nothingFallsThrough);
  CPPUNIT_TEST(energyNeverRisesAndIsDissipated);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() { return nsdyn::test::runExample("ChainOnPile", kArgs); }

 public:
  // h = 1e-3, 0.2 s: 201 rows, 14 columns; energy = kinetic + potential; solves converged.
  void hasDocumentedShape() {
    const auto& c = csv();
    CPPUNIT_ASSERT_EQUAL(std::size_t(201), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(COLUMNS), c.columnCount());
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(c(k, KIN) + c(k, POT), c(k, E), 1e-9 * c(0, E));
      CPPUNIT_ASSERT(c(k, RES) <= 1e-4);
    }
  }

  // The straight chain falls freely (z = z0 - g t^2 / 2, to the joints' round-off) until
  // it meets the pile top (10 cm below it, at t = 0.143 s), then its middle stops there.
  void chainFallsFreelyThenLands() {
    const auto& c = csv();
    const double z0 = c(0, ZMIN);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(z0, c(0, ZMAX), 1e-14);
    for (std::size_t k = 0; k <= 130; ++k) {
      const double t = c(k, T);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z0 - 0.5 * 9.81 * t * t, c(k, ZMIN), 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(c(k, ZMIN), c(k, ZMAX), 1e-9);
    }
    const std::size_t end = c.rowCount() - 1;
    CPPUNIT_ASSERT(c(end, ZMAX) - c(end, ZMIN) > 0.05);  // the chain is draped
    CPPUNIT_ASSERT(c(end, ACTIVE) > 0.0);
  }

  // Ball joints without projection: the joint points part by O(h^2) per step of the
  // impacts; measured 8.9e-6 m at 0.2 s (full run: see the README).
  void jointDriftBounded() {
    const double drift = columnMax(csv(), DRIFT);
    std::printf("\n  ChainOnPile (reduced): max joint drift %.3e m\n", drift);
    CPPUNIT_ASSERT(drift <= 1e-4);
  }

  // No body below the floor by more than 0.1 mm; no detected contact deeper than 1 mm
  // (h |u_n| at the landing speed 1.4 m/s).
  void nothingFallsThrough() {
    const auto& c = csv();
    std::printf("\n  ChainOnPile (reduced): min floor gap %.3e m, min contact gap %.3e m\n",
                columnMin(c, FLOOR), columnMin(c, CGAP));
    CPPUNIT_ASSERT(columnMin(c, FLOOR) >= -1e-4);
    CPPUNIT_ASSERT(columnMin(c, CGAP) >= -1e-3);
  }

  // e = 0, theta = 1/2, end-of-step joints: no step adds energy (up to the solver
  // tolerance), and the landing dissipates a good part of the chain's kinetic energy.
  void energyNeverRisesAndIsDissipated() {
    const auto& c = csv();
    for (std::size_t k = 1; k < c.rowCount(); ++k)
      CPPUNIT_ASSERT(c(k, E) <= c(k - 1, E) + 1e-6 * c(0, E));
    const std::size_t end = c.rowCount() - 1;
    const double landing = c(140, CHAIN_KIN);
    CPPUNIT_ASSERT(c(end, E) < c(0, E) - 0.1 * landing);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ChainOnPileTest);
