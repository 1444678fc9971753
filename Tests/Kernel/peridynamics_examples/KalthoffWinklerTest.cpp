// Examples/KalthoffWinkler: the notched plate hit on its edge; the crack leaving each notch tip
// runs at 60-70 degrees to the impact direction (experiment: about 70 degrees).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>

#include "pd_example_check.hpp"

namespace {

namespace pd = nsdyn::test::pd;

// The reduced run: dx = 2.5 mm (3,200 points), delta = 7.5 mm, 90 us, no VTK (1 s).
const nsdyn::test::ExampleCsv& coarse() {
  return nsdyn::test::runExample("KalthoffWinkler", "--quiet --spacing 2.5e-3 --frames 0");
}

}  // namespace

class KalthoffWinklerTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(KalthoffWinklerTest);
  CPPUNIT_TEST(crackAngleOnTheCoarseLattice);
  CPPUNIT_TEST(cracksStartWhenTheWaveReachesTheTips);
  CPPUNIT_TEST(spacingThatDoesNotDivideThePlateIsRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  // The target, 60-70 degrees, on the coarse lattice (README, convergence table: 64.3
  // and 63.9 degrees at 2.5 mm, 67.6 at 1.25 mm, 68.8 at 1 mm; the 2 mm lattice, whose notch
  // slot is one removed row, gives 56-61); both cracks cross most of the way to the plate's
  // long edges (75 mm of 80) and mirror each other.
  void crackAngleOnTheCoarseLattice() {
    const auto& c = coarse();
    const double up = pd::last(c, "angle_upper"), low = pd::last(c, "angle_lower");
    CPPUNIT_ASSERT_MESSAGE("upper angle " + std::to_string(up), up > 60.0 && up < 70.0);
    CPPUNIT_ASSERT_MESSAGE("lower angle " + std::to_string(low), low > 60.0 && low < 70.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(up, low, 3.0);
    CPPUNIT_ASSERT(pd::last(c, "crack_upper") > 0.065);
    CPPUNIT_ASSERT(pd::last(c, "crack_lower") > 0.065);
  }

  // The compressive wave from the impacted edge needs 50 mm / c_p = 9.7 us to reach the
  // notch tips: no bond breaks before, bonds break by the end.
  void cracksStartWhenTheWaveReachesTheTips() {
    const auto& c = coarse();
    double first = -1.0;
    for (std::size_t k = 0; k < c.rowCount() && first < 0.0; ++k)
      if (pd::at(c, k, "broken_bonds") > 0.0) first = pd::at(c, k, "t");
    CPPUNIT_ASSERT_MESSAGE("first broken bond at t = " + std::to_string(first), first > 9e-6);
    CPPUNIT_ASSERT(pd::last(c, "broken_bonds") > 100.0);
  }

  void spacingThatDoesNotDivideThePlateIsRefused() {
    const pd::ExampleRun run = pd::runStatus("KalthoffWinkler", "--quiet --spacing 3e-3");
    CPPUNIT_ASSERT_EQUAL(2, run.status);
    CPPUNIT_ASSERT(run.output.find("does not divide the 100 mm plate") != std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(KalthoffWinklerTest);

// The full example (dx = 1 mm, 19,800 points, about 10 s): registered as a ctest only when
// NSDYN_LONG_TESTS is on (label long).
class KalthoffWinklerFullTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(KalthoffWinklerFullTest);
  CPPUNIT_TEST(crackAngleAtOneMillimetre);
  CPPUNIT_TEST_SUITE_END();

 public:
  // README: 68.8 degrees on both sides; experiment about 70.
  void crackAngleAtOneMillimetre() {
    const auto& c = nsdyn::test::runExample("KalthoffWinkler", "--quiet --frames 0");
    const double up = pd::last(c, "angle_upper"), low = pd::last(c, "angle_lower");
    CPPUNIT_ASSERT_MESSAGE("upper angle " + std::to_string(up), up > 60.0 && up < 70.0);
    CPPUNIT_ASSERT_MESSAGE("lower angle " + std::to_string(low), low > 60.0 && low < 70.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(up, low, 2.0);
    CPPUNIT_ASSERT(pd::last(c, "crack_upper") > 0.075);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(KalthoffWinklerFullTest);
