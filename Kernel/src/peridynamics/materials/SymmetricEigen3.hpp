// Eigen-decomposition of a symmetric 3×3 matrix by cyclic Jacobi rotations (accurate to
// round-off, also for repeated eigenvalues), and small 3×3 helpers of the correspondence
// models (row-major arrays of 9 doubles).
#ifndef NSDYN_KERNEL_PERIDYNAMICS_SYMMETRICEIGEN3_HPP
#define NSDYN_KERNEL_PERIDYNAMICS_SYMMETRICEIGEN3_HPP

#include <cmath>

namespace nsdyn::peridynamics {

/// A (symmetric, row-major) = Σ_a w[a] N_a ⊗ N_a with N_a the column a of @p N (row-major:
/// N[3 r + a] is component r of N_a). A is not modified.
inline void symmetricEigen3(const double* A, double* w, double* N) {
  double a[9];
  for (int k = 0; k < 9; ++k) a[k] = A[k];
  for (int k = 0; k < 9; ++k) N[k] = (k % 4 == 0) ? 1.0 : 0.0;
  double scale = 0.0;
  for (int k = 0; k < 9; ++k) scale = std::fmax(scale, std::fabs(a[k]));
  for (int sweep = 0; sweep < 50 && scale > 0.0; ++sweep) {
    const double off = std::fabs(a[1]) + std::fabs(a[2]) + std::fabs(a[5]);
    if (off <= 1e-300 || off < 1e-18 * scale) break;
    for (int p = 0; p < 2; ++p)
      for (int q = p + 1; q < 3; ++q) {
        const double apq = a[3 * p + q];
        if (apq == 0.0) continue;
        const double app = a[3 * p + p], aqq = a[3 * q + q];
        const double theta = (aqq - app) / (2.0 * apq);
        const double t =
            (theta >= 0.0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        // A ← Jᵀ A J with J the rotation in the (p, q) plane.
        for (int k = 0; k < 3; ++k) {
          const double akp = a[3 * k + p], akq = a[3 * k + q];
          a[3 * k + p] = c * akp - s * akq;
          a[3 * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; ++k) {
          const double apk = a[3 * p + k], aqk = a[3 * q + k];
          a[3 * p + k] = c * apk - s * aqk;
          a[3 * q + k] = s * apk + c * aqk;
        }
        a[3 * p + q] = a[3 * q + p] = 0.0;
        for (int k = 0; k < 3; ++k) {
          const double nkp = N[3 * k + p], nkq = N[3 * k + q];
          N[3 * k + p] = c * nkp - s * nkq;
          N[3 * k + q] = s * nkp + c * nkq;
        }
      }
  }
  w[0] = a[0];
  w[1] = a[4];
  w[2] = a[8];
}

inline double det3(const double* A) {
  return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) +
         A[2] * (A[3] * A[7] - A[4] * A[6]);
}

/// C = A B (3×3, row-major; C distinct from A and B).
inline void mul3(const double* A, const double* B, double* C) {
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      C[3 * r + c] = A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c];
}

/// Inverse of A into B; false (B untouched) when |det A| ≤ tiny × the scale of A³.
inline bool inverse3(const double* A, double* B, double tiny = 1e-12) {
  const double d = det3(A);
  double scale = 0.0;
  for (int k = 0; k < 9; ++k) scale = std::fmax(scale, std::fabs(A[k]));
  if (!(std::fabs(d) > tiny * scale * scale * scale)) return false;
  const double id = 1.0 / d;
  B[0] = (A[4] * A[8] - A[5] * A[7]) * id;
  B[1] = (A[2] * A[7] - A[1] * A[8]) * id;
  B[2] = (A[1] * A[5] - A[2] * A[4]) * id;
  B[3] = (A[5] * A[6] - A[3] * A[8]) * id;
  B[4] = (A[0] * A[8] - A[2] * A[6]) * id;
  B[5] = (A[2] * A[3] - A[0] * A[5]) * id;
  B[6] = (A[3] * A[7] - A[4] * A[6]) * id;
  B[7] = (A[1] * A[6] - A[0] * A[7]) * id;
  B[8] = (A[0] * A[4] - A[1] * A[3]) * id;
  return true;
}

}  // namespace nsdyn::peridynamics

#endif
