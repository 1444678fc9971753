// Column access by name for the scene example tests (Examples/common/scene_run.hpp
// writes t, kinetic, potential, contact_work, energy, contacts, active, iterations,
// residual, then each example's own columns).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>

#include "example_run.hpp"

namespace nsdyn::test::scene {

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

/// Largest |value| of column @p name over the rows with t ≥ @p from.
inline double maxAbs(const ExampleCsv& c, const std::string& name, double from = 0.0) {
  const std::size_t t = column(c, "t"), col = column(c, name);
  double m = 0.0;
  for (std::size_t k = 0; k < c.rowCount(); ++k)
    if (c(k, t) >= from) m = std::max(m, std::fabs(c(k, col)));
  return m;
}

}  // namespace nsdyn::test::scene
