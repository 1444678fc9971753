/// @file ContactFrame.hpp
/// @brief The local frame of a contact and the Jacobian block of one body in it: the
///        one place of this mathematics for the contact manager and the distributed
///        contact problem (Parallel/).
#ifndef NSDYN_CONTACTFRAME_HPP
#define NSDYN_CONTACTFRAME_HPP

#include "nsdyn/Quaternion.hpp"

namespace nsdyn::contact {

/// Rows n, t1, t2 (row-major 3x3 in @p f) of the frame of the unit normal @p n
/// (Siconos orthoBaseFromVector, MECHANICS.md §0.6).
inline void frame(const quaternion::Vec3& n, double* f) {
  const double nx = n[0], ny = n[1], nz = n[2];
  const double s = nz >= 0.0 ? 1.0 : -1.0;
  const double a = -1.0 / (s + nz);
  const double b = nx * ny * a;
  f[0] = nx;
  f[1] = ny;
  f[2] = nz;
  f[3] = 1.0 + s * nx * nx * a;
  f[4] = s * b;
  f[5] = -s * nx;
  f[6] = b;
  f[7] = s + ny * ny * a;
  f[8] = -ny;
}

/// Jacobian block of one body (3x6 row-major, @p J): rows sign [C_i, R^T (r x C_i)] for the
/// frame rows C_i of @p f, r = contact point - centre of mass, R the rotation of @p q
/// (twist: world velocity, body angular velocity).
inline void jacobian(const double* f, const quaternion::Vec3& r, const quaternion::Quat& q,
                     double sign, double* J) {
  for (int i = 0; i < 3; ++i) {
    const quaternion::Vec3 Ci{f[3 * i], f[3 * i + 1], f[3 * i + 2]};
    const quaternion::Vec3 rot = quaternion::rotateTranspose(q, quaternion::cross(r, Ci));
    for (int k = 0; k < 3; ++k) {
      J[6 * i + k] = sign * Ci[k];
      J[6 * i + 3 + k] = sign * rot[k];
    }
  }
}

}  // namespace nsdyn::contact

#endif
