// Parameters given to a test executable as key=value arguments (see test_main.cpp),
// used by data-driven tests: one ctest per shared data file and solver.
#pragma once
#include <map>
#include <string>

namespace nsdyn::test {
std::map<std::string, std::string>& params();
/// Value of key=value given on the command line, or @p fallback.
std::string param(const std::string& key, const std::string& fallback = "");
}  // namespace nsdyn::test
