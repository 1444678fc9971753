/// @file Quaternion.hpp
/// @brief Unit quaternions for rigid bodies (scalar first, rotation body → world).
#ifndef NSDYN_KERNEL_QUATERNION_HPP
#define NSDYN_KERNEL_QUATERNION_HPP

#include <array>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {
namespace quaternion {

/// (q0, q1, q2, q3), scalar first.
using Quat = std::array<double, 4>;
using Vec3 = std::array<double, 3>;

/// Hamilton product a ⊗ b.
NSDYN_KERNEL_API Quat multiply(const Quat& a, const Quat& b);
/// Conjugate (q0, −q1, −q2, −q3).
NSDYN_KERNEL_API Quat conjugate(const Quat& q);
/// Euclidean norm.
NSDYN_KERNEL_API double norm(const Quat& q);
/// q / |q|.
NSDYN_KERNEL_API Quat normalized(const Quat& q);
/// Rotation of unit axis @p axis (normalised here) by @p angle.
NSDYN_KERNEL_API Quat fromAxisAngle(const Vec3& axis, double angle);
/// R(q) of MECHANICS.md §0.1, from the quaternion as stored (not renormalised).
NSDYN_KERNEL_API SimpleMatrix rotationMatrix(const Quat& q);
/// R(q) a, R(q)ᵀ a.
NSDYN_KERNEL_API Vec3 rotate(const Quat& q, const Vec3& a);
NSDYN_KERNEL_API Vec3 rotateTranspose(const Quat& q, const Vec3& a);
/// ∂(R(q) a)/∂(q0, q1, q2, q3): 3 × 4 (MECHANICS.md §0.6).
NSDYN_KERNEL_API SimpleMatrix rotationDerivative(const Quat& q, const Vec3& a);
/// sin(x)/x, exact, with its Taylor series near 0.
NSDYN_KERNEL_API double sinc(double x);
/// Body-frame increment of a rotation vector @p delta: (cos(a/2), ½ sinc(a/2) δ), a = |δ|.
NSDYN_KERNEL_API Quat exponential(const Vec3& delta);

/// Quaternion of entries 3..6 of a 7-vector q, starting at @p offset.
NSDYN_KERNEL_API Quat fromVector(const SiconosVector& q, std::size_t offset = 3);
NSDYN_KERNEL_API Vec3 vec3(const SiconosVector& v, std::size_t offset = 0);
NSDYN_KERNEL_API Vec3 cross(const Vec3& a, const Vec3& b);
NSDYN_KERNEL_API double dot(const Vec3& a, const Vec3& b);
/// skew(a) b = a × b.
NSDYN_KERNEL_API SimpleMatrix skew(const Vec3& a);

}  // namespace quaternion
}  // namespace nsdyn

#endif
