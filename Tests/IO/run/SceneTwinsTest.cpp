// The XML twins of the scene examples (InclineRolling ... RoverWheel) against their C++
// drivers on reduced runs: each XML with its parameters replaced (shorter time, fewer
// bodies where it has a count) and the driver with the matching options; the CSV
// columns both have are compared bit for bit (both build the same scene in the same
// order, with the same generator calls, gravity, loads and energy sums). The columns
// only the driver has (per-body counts, gaps, heap fits) are checked absent from the XML.
// ColumnCollapse and HopperDischarge: their XML computes a cube root as pow(x, 1/3)
// (the expressions have no cbrt), which may differ from the driver's cbrt in the last
// bit, so the test gives that parameter the value cbrt computes here.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "run_helpers.hpp"

namespace {

using namespace nsdyn::test;
namespace fs = std::filesystem;

std::string exact(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

/// Examples/NAME/NAME.xml with parameters replaced, written into @p dir.
std::string twinModel(const std::string& dir, const std::string& name,
                      const std::vector<std::pair<std::string, std::string>>& parameters) {
  std::string xml = readText(kExamples + "/" + name + "/" + name + ".xml");
  for (const auto& p : parameters) {
    const std::regex re("<parameter name=\"" + p.first + "\" value=\"[^\"]*\"/>");
    CPPUNIT_ASSERT_MESSAGE(name + ": parameter " + p.first, std::regex_search(xml, re));
    xml = std::regex_replace(xml, re,
                             "<parameter name=\"" + p.first + "\" value=\"" + p.second + "\"/>");
  }
  const std::string path = dir + "/" + name + ".xml";
  std::ofstream(path) << xml;
  return path;
}

/// Runs the driver with @p options and the twin with @p parameters; the shared columns
/// are equal bit for bit on every one of the @p rows rows; @p driverOnly are the
/// driver's columns the XML cannot express. Returns the twin's CSV.
Csv compareTwin(const std::string& name, const std::string& options,
                const std::vector<std::pair<std::string, std::string>>& parameters,
                std::size_t rows, const std::vector<std::string>& driverOnly) {
  const std::string dir = scratch("twin-" + name);
  const Run driver = run("'" + kBin + "/" + name + "' " + options +
                         " --no-plot --quiet --output '" + dir + "/driver'");
  CPPUNIT_ASSERT_EQUAL_MESSAGE(name + ": " + driver.out, 0, driver.status);
  const std::string model = twinModel(dir, name, parameters);
  const Run twin =
      run("'" + kBin + "/nsdyn' run '" + model + "' --no-plot --quiet --output '" + dir + "/twin'");
  CPPUNIT_ASSERT_EQUAL_MESSAGE(name + ": " + twin.out, 0, twin.status);
  const Csv a = readCsv(dir + "/driver/" + name + ".csv");
  const Csv b = readCsv(dir + "/twin/" + name + ".csv");
  CPPUNIT_ASSERT_EQUAL_MESSAGE(name, rows, a.rows.size());
  CPPUNIT_ASSERT_EQUAL_MESSAGE(name, rows, b.rows.size());
  std::size_t shared = 0;
  for (std::size_t c = 0; c < a.names.size(); ++c) {
    std::size_t d = 0;
    while (d < b.names.size() && b.names[d] != a.names[c]) ++d;
    const bool expectedMissing =
        std::find(driverOnly.begin(), driverOnly.end(), a.names[c]) != driverOnly.end();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " column " + a.names[c], expectedMissing,
                                 d == b.names.size());
    if (d == b.names.size()) continue;
    ++shared;
    for (std::size_t r = 0; r < rows; ++r)
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " row " + std::to_string(r) + " column " + a.names[c],
                                   a.rows[r][c], b.rows[r][d]);
  }
  CPPUNIT_ASSERT_EQUAL_MESSAGE(name + ": every twin column is the driver's", b.names.size(),
                               shared);
  CPPUNIT_ASSERT(shared >= 9);  // t ... residual at least
  fs::remove_all(dir);
  return b;
}

std::size_t column(const Csv& csv, const std::string& name) {
  for (std::size_t c = 0; c < csv.names.size(); ++c)
    if (csv.names[c] == name) return c;
  CPPUNIT_FAIL("no column " + name);
  return 0;
}

}  // namespace

class SceneTwinsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneTwinsTest);
  CPPUNIT_TEST(inclineRolling);
  CPPUNIT_TEST(newtonsCradle);
  CPPUNIT_TEST(boxStack);
  CPPUNIT_TEST(kaplaTower);
  CPPUNIT_TEST(capsulePile);
  CPPUNIT_TEST(columnCollapse);
  CPPUNIT_TEST(hopperDischarge);
  CPPUNIT_TEST(roverWheel);
  CPPUNIT_TEST_SUITE_END();

 public:
  // the sphere rolling, 100 steps: also the closed-form columns
  void inclineRolling() {
    const Csv b = compareTwin("InclineRolling", "--time 0.1", {{"T", "0.1"}}, 101, {});
    CPPUNIT_ASSERT(b.rows.back()[column(b, "v_slope")] > 0.0);
  }
  // the 5 spheres, 200 steps (0.02 s at 1e-4, the driver's default): the impacts pass along the row
  void newtonsCradle() {
    const Csv b = compareTwin("NewtonsCradle", "--time 0.02", {{"T", "0.02"}}, 201, {});
    CPPUNIT_ASSERT(b.rows.back()[column(b, "v4")] > 0.5);
  }
  // the 10 cubes, 50 steps
  void boxStack() { compareTwin("BoxStack", "--time 0.05", {{"T", "0.05"}}, 51, {}); }
  // the 16 x 2 planks, 30 steps (newton_ac, OpenMP threads of the default)
  void kaplaTower() {
    compareTwin("KaplaTower", "--time 0.03", {{"T", "0.03"}}, 31, {"max_pair_contacts"});
  }
  // 100 capsules, 50 steps
  void capsulePile() {
    compareTwin("CapsulePile", "--count 100 --time 0.05", {{"count", "100"}, {"T", "0.05"}}, 51,
                {"outside", "min_gap", "min_gap_rel"});
  }
  // 100 spheres on their rough base, 50 steps; the column width as the driver's cbrt gives it
  void columnCollapse() {
    const double rmax = 0.05 * (1.0 + 0.2);
    const double v = 4.0 / 3.0 * M_PI * rmax * rmax * rmax;
    const double width = std::cbrt(100.0 * v / (0.3 * 1.0));
    compareTwin("ColumnCollapse", "--count 100 --time 0.05",
                {{"count", "100"}, {"T", "0.05"}, {"width", exact(width)}}, 51,
                {"above_floor", "height", "runout", "repose_deg", "cone_deg", "min_gap"});
  }
  // 200 spheres above the hopper, 50 steps; the heap radius as the driver's cbrt gives it
  // (the hopper's width is max(1, ...) = 1 at this count)
  void hopperDischarge() {
    const double tanRepose = std::tan(20.0 * M_PI / 180.0);
    const double heapVolume = 200.0 * 4.0 / 3.0 * M_PI * std::pow(0.025, 3) / 0.6;
    const double heapRadius = std::cbrt(3.0 * heapVolume / (M_PI * tanRepose));
    compareTwin("HopperDischarge", "--count 200 --time 0.05",
                {{"count", "200"}, {"T", "0.05"}, {"heap_radius", exact(heapRadius)}}, 51,
                {"discharged", "above_floor", "heap_height", "repose_deg", "escaped"});
  }
  // the shortest bed (0.8 m, 294 spheres), 240 steps: the torque (<mExt>) acts from
  // t = 0.2 s and the extra load (<fExt>) from the start
  void roverWheel() {
    const Csv b =
        compareTwin("RoverWheel", "--length 0.8 --time 0.24", {{"length", "0.8"}, {"T", "0.24"}},
                    241, {"wheel_contacts", "wheel_gap"});
    const std::size_t omega = column(b, "omega");
    // spun up once the torque acts (t = 0.2 s, row 200; before it the wheel rocks as it
    // settles): more than 1 rad/s gained in the next 40 ms
    CPPUNIT_ASSERT(b.rows[240][omega] > b.rows[200][omega] + 1.0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneTwinsTest);
