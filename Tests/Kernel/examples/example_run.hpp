// Runs a built example program into a scratch folder and reads its CSV, for
// the physics tests of the Kernel examples (Examples/<Name>/).
#pragma once

#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace nsdyn::test {

/// A CSV written by an example: the header's column names and the rows.
struct ExampleCsv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;

  std::size_t rowCount() const { return rows.size(); }
  std::size_t columnCount() const { return names.size(); }
  double operator()(std::size_t row, std::size_t col) const { return rows.at(row).at(col); }
};

/// Split one CSV line on commas (and surrounding blanks).
inline std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, ',')) {
    const auto b = field.find_first_not_of(" \t\r");
    const auto e = field.find_last_not_of(" \t\r");
    fields.push_back(b == std::string::npos ? std::string() : field.substr(b, e - b + 1));
  }
  return fields;
}

/// Read @p path; every data row must have as many fields as the header.
inline ExampleCsv readExampleCsv(const std::string& path) {
  std::ifstream in(path);
  CPPUNIT_ASSERT_MESSAGE("cannot open " + path, in.good());
  ExampleCsv csv;
  std::string line;
  CPPUNIT_ASSERT_MESSAGE("empty file " + path, static_cast<bool>(std::getline(in, line)));
  csv.names = splitCsvLine(line);
  std::size_t lineNumber = 1;
  while (std::getline(in, line)) {
    ++lineNumber;
    if (line.empty()) continue;
    const std::vector<std::string> fields = splitCsvLine(line);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(path + " line " + std::to_string(lineNumber) + ": fields",
                                 csv.names.size(), fields.size());
    std::vector<double> row;
    row.reserve(fields.size());
    for (const std::string& f : fields) {
      char* end = nullptr;
      const double value = std::strtod(f.c_str(), &end);
      CPPUNIT_ASSERT_MESSAGE(
          path + " line " + std::to_string(lineNumber) + ": not a number '" + f + "'",
          end != f.c_str() && *end == '\0');
      row.push_back(value);
    }
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

/// Run build/bin/@p name with --no-plot --output <scratch> @p args (once per
/// process and argument list) and return its CSV. The scratch folder is
/// per process, so ctests running in parallel do not share files.
inline const ExampleCsv& runExample(const std::string& name, const std::string& args = "") {
  static std::map<std::string, ExampleCsv> cache;
  const std::string key = name + " " + args;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;

  namespace fs = std::filesystem;
  const fs::path scratch =
      fs::path(NSDYN_BINARY_DIR) / "Tests" / "Kernel" / "examples" /
      ("scratch-" + name + "-" + std::to_string(::getpid()) + "-" + std::to_string(cache.size()));
  fs::create_directories(scratch);
  const fs::path exe = fs::path(NSDYN_BINARY_DIR) / "bin" / name;
  const fs::path log = scratch / "run.log";
  const std::string command = "'" + exe.string() + "' --no-plot --output '" + scratch.string() +
                              "' " + args + " > '" + log.string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  std::ifstream logIn(log);
  std::stringstream logText;
  logText << logIn.rdbuf();
  CPPUNIT_ASSERT_EQUAL_MESSAGE(command + "\n" + logText.str(), 0, rc);
  ExampleCsv csv = readExampleCsv((scratch / (name + ".csv")).string());
  fs::remove_all(scratch);
  return cache.emplace(key, std::move(csv)).first->second;
}

}  // namespace nsdyn::test
