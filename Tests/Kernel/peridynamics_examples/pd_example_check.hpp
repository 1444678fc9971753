// Helpers of the peridynamic example tests (Examples/KalthoffWinkler, Examples/GlassPlate,
// Examples/RubberBlockIncline, Examples/ClothDrape): column access by name in an example's CSV,
// a run that keeps the exit status and the output, a run of an example's XML twin, and a slope.
#pragma once

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "example_run.hpp"

namespace nsdyn::test::pd {

/// Index of the column @p name of @p c (fails the test when there is none).
inline std::size_t column(const ExampleCsv& c, const std::string& name) {
  const auto it = std::find(c.names.begin(), c.names.end(), name);
  CPPUNIT_ASSERT_MESSAGE("no column '" + name + "'", it != c.names.end());
  return static_cast<std::size_t>(it - c.names.begin());
}

/// Value of column @p name in row @p k.
inline double at(const ExampleCsv& c, std::size_t k, const std::string& name) {
  return c(k, column(c, name));
}

/// Value of column @p name in the last row.
inline double last(const ExampleCsv& c, const std::string& name) {
  CPPUNIT_ASSERT(c.rowCount() > 0);
  return at(c, c.rowCount() - 1, name);
}

/// What a run of an example printed and its exit status.
struct ExampleRun {
  int status = -1;
  std::string output;  ///< stdout and stderr
};

/// Run build/bin/@p name with --no-plot --output <scratch> @p args; the scratch folder is
/// removed afterwards (the CSV is not read).
inline ExampleRun runStatus(const std::string& name, const std::string& args) {
  namespace fs = std::filesystem;
  const fs::path scratch = fs::path(NSDYN_BINARY_DIR) / "Tests" / "Kernel" / "examples" /
                           ("scratch-status-" + name + "-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  const fs::path exe = fs::path(NSDYN_BINARY_DIR) / "bin" / name;
  const fs::path log = scratch / "run.log";
  const std::string command = "'" + exe.string() + "' --no-plot --output '" + scratch.string() +
                              "' " + args + " > '" + log.string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  ExampleRun run;
  run.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  run.output = text.str();
  fs::remove_all(scratch);
  return run;
}

/// Run build/bin/nsdyn run Examples/@p example/@p example.xml --no-plot --output <scratch>
/// @p args (exit status 0 asked) and return its CSV (`<scratch>/@p example.csv`).
inline ExampleCsv runXml(const std::string& example, const std::string& args) {
  namespace fs = std::filesystem;
  const fs::path scratch = fs::path(NSDYN_BINARY_DIR) / "Tests" / "Kernel" / "examples" /
                           ("scratch-xml-" + example + "-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  const fs::path exe = fs::path(NSDYN_BINARY_DIR) / "bin" / "nsdyn";
  const fs::path model = fs::path(NSDYN_SOURCE_DIR) / "Examples" / example / (example + ".xml");
  const fs::path log = scratch / "run.log";
  const std::string command = "'" + exe.string() + "' run '" + model.string() +
                              "' --no-plot --output '" + scratch.string() + "' " + args + " > '" +
                              log.string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  CPPUNIT_ASSERT_EQUAL_MESSAGE(command + "\n" + text.str(), 0, rc);
  ExampleCsv csv = readExampleCsv((scratch / (example + ".csv")).string());
  fs::remove_all(scratch);
  return csv;
}

/// The slope of the least-squares line through column @p y against column t over the rows
/// from @p first to the last.
inline double slope(const ExampleCsv& c, const std::string& y, std::size_t first) {
  double st = 0, sy = 0, stt = 0, sty = 0, n = 0;
  for (std::size_t k = first; k < c.rowCount(); ++k) {
    const double t = at(c, k, "t"), v = at(c, k, y);
    st += t, sy += v, stt += t * t, sty += t * v, n += 1;
  }
  return (n * sty - st * sy) / (n * stt - st * st);
}

}  // namespace nsdyn::test::pd
