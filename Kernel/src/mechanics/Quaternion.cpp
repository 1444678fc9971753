// Quaternions of rigid bodies (MECHANICS.md §0.1, §0.3, §0.6): Hamilton
// product, R(q) from the quaternion as stored, its derivative, the exact
// sin(x)/x and the body-frame exponential.
#include "nsdyn/Quaternion.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "nsdyn/Error.hpp"

namespace nsdyn {
namespace quaternion {

namespace {
std::string formatNumber(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}
}  // namespace

Quat multiply(const Quat& a, const Quat& b) {
  // (a0, av) ⊗ (b0, bv) = (a0 b0 − av·bv, a0 bv + b0 av + av × bv)
  return Quat{a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
              a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
              a[0] * b[2] + a[2] * b[0] + a[3] * b[1] - a[1] * b[3],
              a[0] * b[3] + a[3] * b[0] + a[1] * b[2] - a[2] * b[1]};
}

Quat conjugate(const Quat& q) {
  return Quat{q[0], -q[1], -q[2], -q[3]};
}

double norm(const Quat& q) {
  return std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

Quat normalized(const Quat& q) {
  const double n = norm(q);
  if (!(n > 0.0) || !std::isfinite(n))
    throw Error("quaternion::normalized", "a quaternion of finite nonzero norm",
                "norm " + formatNumber(n));
  return Quat{q[0] / n, q[1] / n, q[2] / n, q[3] / n};
}

Quat fromAxisAngle(const Vec3& axis, double angle) {
  const double n = std::sqrt(dot(axis, axis));
  if (!(n > 0.0) || !std::isfinite(n))
    throw Error("quaternion::fromAxisAngle", "an axis of finite nonzero norm",
                "norm " + formatNumber(n));
  const double s = std::sin(0.5 * angle) / n;
  return Quat{std::cos(0.5 * angle), s * axis[0], s * axis[1], s * axis[2]};
}

SimpleMatrix rotationMatrix(const Quat& q) {
  const double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
  return SimpleMatrix{
      {q0 * q0 + q1 * q1 - q2 * q2 - q3 * q3, 2.0 * (q1 * q2 - q0 * q3), 2.0 * (q1 * q3 + q0 * q2)},
      {2.0 * (q1 * q2 + q0 * q3), q0 * q0 - q1 * q1 + q2 * q2 - q3 * q3, 2.0 * (q2 * q3 - q0 * q1)},
      {2.0 * (q1 * q3 - q0 * q2), 2.0 * (q2 * q3 + q0 * q1),
       q0 * q0 - q1 * q1 - q2 * q2 + q3 * q3}};
}

Vec3 rotate(const Quat& q, const Vec3& a) {
  const SimpleMatrix R = rotationMatrix(q);
  Vec3 r{};
  for (std::size_t i = 0; i < 3; ++i) r[i] = R(i, 0) * a[0] + R(i, 1) * a[1] + R(i, 2) * a[2];
  return r;
}

Vec3 rotateTranspose(const Quat& q, const Vec3& a) {
  const SimpleMatrix R = rotationMatrix(q);
  Vec3 r{};
  for (std::size_t i = 0; i < 3; ++i) r[i] = R(0, i) * a[0] + R(1, i) * a[1] + R(2, i) * a[2];
  return r;
}

SimpleMatrix rotationDerivative(const Quat& q, const Vec3& a) {
  // Entry (i, j) = ∂(R(q) a)_i / ∂q_j of the quadratic polynomial R(q) a.
  const double q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
  const double ax = a[0], ay = a[1], az = a[2];
  const double s = q1 * ax + q2 * ay + q3 * az;  // appears on the "diagonal" of the pattern
  SimpleMatrix D{
      {q0 * ax - q3 * ay + q2 * az, s, -q2 * ax + q1 * ay + q0 * az, -q3 * ax - q0 * ay + q1 * az},
      {q3 * ax + q0 * ay - q1 * az, q2 * ax - q1 * ay - q0 * az, s, q0 * ax - q3 * ay + q2 * az},
      {-q2 * ax + q1 * ay + q0 * az, q3 * ax + q0 * ay - q1 * az, -q0 * ax + q3 * ay - q2 * az, s}};
  D *= 2.0;
  return D;
}

double sinc(double x) {
  if (std::abs(x) < 1e-4) {
    const double x2 = x * x;
    return 1.0 - x2 / 6.0 + x2 * x2 / 120.0;
  }
  return std::sin(x) / x;
}

Quat exponential(const Vec3& delta) {
  const double a = std::sqrt(dot(delta, delta));
  const double f = 0.5 * sinc(0.5 * a);
  return Quat{std::cos(0.5 * a), f * delta[0], f * delta[1], f * delta[2]};
}

Quat fromVector(const SiconosVector& q, std::size_t offset) {
  if (offset + 4 > q.size())
    throw Error("quaternion::fromVector",
                "a vector of at least " + std::to_string(offset + 4) + " entries (offset " +
                    std::to_string(offset) + ")",
                std::to_string(q.size()));
  return Quat{q(offset), q(offset + 1), q(offset + 2), q(offset + 3)};
}

Vec3 vec3(const SiconosVector& v, std::size_t offset) {
  if (offset + 3 > v.size())
    throw Error("quaternion::vec3",
                "a vector of at least " + std::to_string(offset + 3) + " entries (offset " +
                    std::to_string(offset) + ")",
                std::to_string(v.size()));
  return Vec3{v(offset), v(offset + 1), v(offset + 2)};
}

Vec3 cross(const Vec3& a, const Vec3& b) {
  return Vec3{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

SimpleMatrix skew(const Vec3& a) {
  return SimpleMatrix{{0.0, -a[2], a[1]}, {a[2], 0.0, -a[0]}, {-a[1], a[0], 0.0}};
}

}  // namespace quaternion
}  // namespace nsdyn
