// Helpers of the granular example tests: column lookup by name, extrema.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "example_run.hpp"

namespace nsdyn::test::granular {

/// Index of the column named @p name (asserts it exists).
inline std::size_t column(const ExampleCsv& c, const std::string& name) {
  const auto it = std::find(c.names.begin(), c.names.end(), name);
  CPPUNIT_ASSERT_MESSAGE("no column " + name, it != c.names.end());
  return static_cast<std::size_t>(it - c.names.begin());
}
inline double last(const ExampleCsv& c, const std::string& name) {
  return c(c.rowCount() - 1, column(c, name));
}
inline double first(const ExampleCsv& c, const std::string& name) {
  return c(0, column(c, name));
}
inline double minOf(const ExampleCsv& c, const std::string& name) {
  const std::size_t k = column(c, name);
  double m = c(0, k);
  for (std::size_t r = 0; r < c.rowCount(); ++r) m = std::min(m, c(r, k));
  return m;
}
inline double maxOf(const ExampleCsv& c, const std::string& name) {
  const std::size_t k = column(c, name);
  double m = c(0, k);
  for (std::size_t r = 0; r < c.rowCount(); ++r) m = std::max(m, c(r, k));
  return m;
}

}  // namespace nsdyn::test::granular
