// Helpers of the `nsdyn run` tests: run a command in a scratch folder, read a CSV.
#pragma once

#include <cppunit/extensions/HelperMacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace nsdyn::test {

inline const std::string kBin = NSDYN_BIN_DIR;
inline const std::string kExamples = std::string(NSDYN_SOURCE_DIR) + "/Examples";

/// A fresh folder under the build tree, unique to this process and @p name.
inline std::string scratch(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(NSDYN_BINARY_DIR) / "Tests" / "IO" / "run" /
                       ("scratch-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

struct Run {
  int status = -1;
  std::string out;  // stdout and stderr together
};

/// Run @p cmd with the shell, stdout and stderr captured.
inline Run run(const std::string& cmd) {
  Run r;
  std::FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

/// A CSV: header names and rows of numbers.
struct Csv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
};

inline Csv readCsv(const std::string& path) {
  std::ifstream in(path);
  CPPUNIT_ASSERT_MESSAGE("cannot open " + path, in.good());
  Csv csv;
  std::string line, field;
  CPPUNIT_ASSERT_MESSAGE("empty " + path, static_cast<bool>(std::getline(in, line)));
  std::istringstream header(line);
  while (std::getline(header, field, ',')) csv.names.push_back(field);
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<double> row;
    while (std::getline(fields, field, ',')) row.push_back(std::strtod(field.c_str(), nullptr));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(path + ": fields per row", csv.names.size(), row.size());
    csv.rows.push_back(std::move(row));
  }
  return csv;
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace nsdyn::test
