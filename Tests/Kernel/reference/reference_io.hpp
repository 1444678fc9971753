// Reading .ref files and example CSVs, running a built example (reference tests).
#ifndef NSDYN_TESTS_REFERENCE_IO_HPP
#define NSDYN_TESTS_REFERENCE_IO_HPP

#include <cppunit/extensions/HelperMacros.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using Table = std::vector<std::vector<double>>;

namespace {
const std::string kRefDir = std::string(NSDYN_SHARED_DIR) + "/reference/";

/// A .ref file: header "rows cols", then rows of space-separated values.
Table readRef(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::size_t rows = 0, cols = 0;
  in >> rows >> cols;
  Table t(rows, std::vector<double>(cols));
  for (auto& row : t)
    for (auto& x : row) in >> x;
  if (!in) throw std::runtime_error("truncated " + path);
  return t;
}

/// A CSV written by an example: a header line, then comma-separated rows.
Table readCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  std::getline(in, line);
  Table t;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<double> row;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) row.push_back(std::stod(cell));
    t.push_back(row);
  }
  return t;
}

/// Run a built example into a fresh folder and read its CSV.
Table runExample(const std::string& name) {
  const std::string dir = std::string(NSDYN_BINARY_DIR) + "/Testing/kernel_reference_" + name;
  const std::string cmd = std::string(NSDYN_EXAMPLES_BIN_DIR) + "/" + name + " --output '" + dir +
                          "' --no-plot --quiet > /dev/null";
  std::system(("mkdir -p '" + dir + "'").c_str());
  CPPUNIT_ASSERT_EQUAL_MESSAGE(cmd, 0, std::system(cmd.c_str()));
  return readCsv(dir + "/" + name + ".csv");
}
}  // namespace

#endif
