// Small helpers of the rigid-body example tests: quaternion algebra written out
// independently of the Kernel (MECHANICS.md §0.1 conventions), column access.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

#include "example_run.hpp"

namespace nsdyn::test::mech {

using Quat = std::array<double, 4>;  // (q0, q1, q2, q3), scalar first
using Vec3 = std::array<double, 3>;

/// Hamilton product a ⊗ b.
inline Quat mul(const Quat& a, const Quat& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
          a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}

/// R(q) a with R(q) as in MECHANICS.md §0.1 (quaternion as stored).
inline Vec3 rotate(const Quat& q, const Vec3& a) {
  const double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
  const double R[3][3] = {
      {q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3, 2 * (q1 * q2 - q0 * q3), 2 * (q1 * q3 + q0 * q2)},
      {2 * (q1 * q2 + q0 * q3), q0 * q0 - q1 * q1 + q2 * q2 - q3 * q3, 2 * (q2 * q3 - q0 * q1)},
      {2 * (q1 * q3 - q0 * q2), 2 * (q2 * q3 + q0 * q1), q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3}};
  return {R[0][0] * a[0] + R[0][1] * a[1] + R[0][2] * a[2],
          R[1][0] * a[0] + R[1][1] * a[1] + R[1][2] * a[2],
          R[2][0] * a[0] + R[2][1] * a[1] + R[2][2] * a[2]};
}

/// R(q)ᵀ a.
inline Vec3 rotateT(const Quat& q, const Vec3& a) {
  return rotate({q[0], -q[1], -q[2], -q[3]}, a);
}

inline double norm(const Vec3& a) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}
inline double norm(const Quat& a) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2] + a[3] * a[3]);
}

/// The body position (3) and quaternion (4) stored in columns c .. c+6 of row k.
inline Vec3 position(const ExampleCsv& c, std::size_t k, std::size_t col) {
  return {c(k, col), c(k, col + 1), c(k, col + 2)};
}
inline Quat orientation(const ExampleCsv& c, std::size_t k, std::size_t col) {
  return {c(k, col + 3), c(k, col + 4), c(k, col + 5), c(k, col + 6)};
}

/// Largest value of column @p col.
inline double columnMax(const ExampleCsv& c, std::size_t col) {
  double m = -1e300;
  for (const auto& r : c.rows) m = std::max(m, r.at(col));
  return m;
}
inline double columnMin(const ExampleCsv& c, std::size_t col) {
  double m = 1e300;
  for (const auto& r : c.rows) m = std::min(m, r.at(col));
  return m;
}

/// Shape of a run without an initial row (the Siconos JointsTests output):
/// @p rows rows of @p columns values, row k the state after step k+1
/// (t = h (k + 1)), the columns from @p zeroFrom on all zero (padding).
inline void assertStepRows(const ExampleCsv& c, std::size_t rows, std::size_t columns, double h,
                           std::size_t zeroFrom) {
  CPPUNIT_ASSERT_EQUAL(rows, c.rowCount());
  CPPUNIT_ASSERT_EQUAL(columns, c.columnCount());
  for (std::size_t k = 0; k < c.rowCount(); ++k) {
    CPPUNIT_ASSERT_DOUBLES_EQUAL(h * double(k + 1), c(k, 0), 1e-12);
    for (std::size_t j = zeroFrom; j < columns; ++j) CPPUNIT_ASSERT_EQUAL(0.0, c(k, j));
  }
}

/// The body of NE_1DS and NE_1DS_1Knee_MLCP at t = 0 (MECHANICS.md §3a, §3b):
/// centre of mass (0.5/√2, 0, -0.5/√2), rotated by π/4 about the world y axis.
namespace ne1ds {
inline const Vec3 kX0{0.5 / std::sqrt(2.0), 0.0, -0.5 / std::sqrt(2.0)};
inline const Quat kQ0{std::cos(std::acos(-1.0) / 8.0), 0.0, std::sin(std::acos(-1.0) / 8.0), 0.0};
}  // namespace ne1ds

/// The first @p n columns of @p a and @p b are identical (the --diagnostics
/// run appends columns and changes nothing else).
inline void assertSameLeadingColumns(const ExampleCsv& a, const ExampleCsv& b, std::size_t n) {
  CPPUNIT_ASSERT_EQUAL(a.rowCount(), b.rowCount());
  for (std::size_t k = 0; k < a.rowCount(); ++k)
    for (std::size_t j = 0; j < n; ++j) CPPUNIT_ASSERT_EQUAL(a(k, j), b(k, j));
}

}  // namespace nsdyn::test::mech
