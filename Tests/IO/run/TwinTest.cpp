// Every example's XML twin gives the CSV of its C++ driver: same columns,
// same rows, same numbers to round-off.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "run_helpers.hpp"

namespace {

// Relative difference accepted: round-off (the twins are in fact bit-identical).
constexpr double kRoundOff = 1e-12;

/// @p folder: the example folder holding `name.xml` (default: `name`).
void checkTwin(const std::string& name, std::string folder = "") {
  if (folder.empty()) folder = name;
  using namespace nsdyn::test;
  const std::string dir = scratch(name + "-twin");
  const Run driver =
      run("'" + kBin + "/" + name + "' --no-plot --quiet --output '" + dir + "/driver'");
  CPPUNIT_ASSERT_EQUAL_MESSAGE(driver.out, 0, driver.status);
  const Run twin = run("'" + kBin + "/nsdyn' run '" + kExamples + "/" + folder + "/" + name +
                       ".xml' --no-plot --quiet --output '" + dir + "/twin'");
  CPPUNIT_ASSERT_EQUAL_MESSAGE(twin.out, 0, twin.status);
  const Csv a = readCsv(dir + "/driver/" + name + ".csv");
  const Csv b = readCsv(dir + "/twin/" + name + ".csv");
  CPPUNIT_ASSERT(a.names == b.names);
  CPPUNIT_ASSERT_EQUAL(a.rows.size(), b.rows.size());
  CPPUNIT_ASSERT(a.rows.size() > 100);
  std::size_t identical = 0, entries = 0;
  for (std::size_t r = 0; r < a.rows.size(); ++r)
    for (std::size_t c = 0; c < a.names.size(); ++c) {
      const double x = a.rows[r][c], y = b.rows[r][c];
      ++entries;
      if (x == y) {
        ++identical;
        continue;
      }
      const double scale = std::max({1.0, std::fabs(x), std::fabs(y)});
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(
          name + " row " + std::to_string(r) + " column " + a.names[c], x, y, kRoundOff * scale);
    }
  std::fprintf(stderr, "\n  %s: %zu of %zu entries bit-identical\n", name.c_str(), identical,
               entries);
  std::filesystem::remove_all(dir);
}

}  // namespace

#define NSDYN_TWIN_SUITE(NAME)                      \
  class NAME##Twin : public CppUnit::TestFixture {  \
    CPPUNIT_TEST_SUITE(NAME##Twin);                 \
    CPPUNIT_TEST(sameCsvAsTheDriver);               \
    CPPUNIT_TEST_SUITE_END();                       \
                                                    \
   public:                                          \
    void sameCsvAsTheDriver() { checkTwin(#NAME); } \
  };                                                \
  CPPUNIT_TEST_SUITE_REGISTRATION(NAME##Twin)

NSDYN_TWIN_SUITE(BouncingBallTS);
NSDYN_TWIN_SUITE(DiodeBridge);
NSDYN_TWIN_SUITE(ColumnOfBeadsTS);
NSDYN_TWIN_SUITE(Woodpecker);
NSDYN_TWIN_SUITE(CircuitRLCD);
NSDYN_TWIN_SUITE(FrictionOscillator);
NSDYN_TWIN_SUITE(ImpactingStick);
NSDYN_TWIN_SUITE(BouncingBallED);
NSDYN_TWIN_SUITE(LinearOscillatorED);
NSDYN_TWIN_SUITE(BallBetweenWallsED);
// rigid bodies (shared/reference/MECHANICS.md and the analytic checks)
NSDYN_TWIN_SUITE(BouncingBallNETS);
NSDYN_TWIN_SUITE(BallNewtonEulerOnMovingPlane);
NSDYN_TWIN_SUITE(NE_1DS);
NSDYN_TWIN_SUITE(NE_1DS_1Knee_MLCP);
NSDYN_TWIN_SUITE(NE_3DS_3Knee_1Prism_MLCP);
NSDYN_TWIN_SUITE(PrismaticTest);
NSDYN_TWIN_SUITE(TorqueFreeTop);
NSDYN_TWIN_SUITE(DoublePendulumHinges);

/// BouncingBallNETS-WITHPROJ: its XML sits beside the shared driver source.
class BouncingBallNETSWithProjTwin : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(BouncingBallNETSWithProjTwin);
  CPPUNIT_TEST(sameCsvAsTheDriver);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sameCsvAsTheDriver() { checkTwin("BouncingBallNETS-WITHPROJ", "BouncingBallNETS"); }
};
CPPUNIT_TEST_SUITE_REGISTRATION(BouncingBallNETSWithProjTwin);
