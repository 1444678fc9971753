// The per-bond loops shared by the peridynamic material models (Kernel/src/peridynamics/
// materials): the intact bonds of a point with their vectors, the central-force energy and force
// sum of a point, the tangent block of a bond and the stress term of a bond. Header-only and
// inline: the models' hot loops keep their shape (and their bits).
#ifndef NSDYN_KERNEL_PERIDYNAMICS_BONDLOOPS_HPP
#define NSDYN_KERNEL_PERIDYNAMICS_BONDLOOPS_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "nsdyn/PeridynamicBody.hpp"

namespace nsdyn::peridynamics {

/// One intact bond seen from point i: the deformed vector y = x_j − x_i, the reference and
/// deformed lengths L = |X_j − X_i| and l = |y|.
struct BondVectors {
  double y[3];
  double L, l;
};

inline BondVectors bondVectors(const double* X, const double* x, std::size_t i, std::size_t j) {
  BondVectors o;
  double e[3];
  for (int r = 0; r < 3; ++r) {
    e[r] = X[3 * j + r] - X[3 * i + r];
    o.y[r] = x[3 * j + r] - x[3 * i + r];
  }
  o.L = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  o.l = std::sqrt(o.y[0] * o.y[0] + o.y[1] * o.y[1] + o.y[2] * o.y[2]);
  return o;
}

/// visit(b, j, o) for each intact bond b = (i, j) of point i, o = bondVectors(X, x, i, j).
template <class Visit>
inline void forIntactBonds(const PeridynamicBody& body, const double* x, std::size_t i,
                           Visit visit) {
  const double* X = body.X.data();
  for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
    if (body.bondBroken[b]) continue;
    const std::size_t j = body.neighbour[b];
    visit(b, j, bondVectors(X, x, i, j));
  }
}

/// The central-force bond loop of point i: Σ_b term(b, j, L, l, g) over the intact bonds and,
/// with kForces, F = Σ_b g y (bonds with l > 0). term returns the bond's energy and, when g is
/// not null, writes the force coefficient there (g is null without kForces or when l = 0).
template <bool kForces, class Term>
inline double centralBondPoint(const PeridynamicBody& body, const double* x, std::size_t i,
                               double* F, Term term) {
  const double* X = body.X.data();
  const std::uint32_t* nb = body.neighbour.data();
  const std::uint8_t* broken = body.bondBroken.data();
  const double Xi0 = X[3 * i], Xi1 = X[3 * i + 1], Xi2 = X[3 * i + 2];
  const double xi0 = x[3 * i], xi1 = x[3 * i + 1], xi2 = x[3 * i + 2];
  double w = 0.0, f0 = 0.0, f1 = 0.0, f2 = 0.0;
  const std::uint32_t end = body.bondStart[i + 1];
  for (std::uint32_t b = body.bondStart[i]; b < end; ++b) {
    if (broken[b]) continue;
    const std::size_t j = nb[b];
    const double e0 = X[3 * j] - Xi0, e1 = X[3 * j + 1] - Xi1, e2 = X[3 * j + 2] - Xi2;
    const double y0 = x[3 * j] - xi0, y1 = x[3 * j + 1] - xi1, y2 = x[3 * j + 2] - xi2;
    const double L = std::sqrt(e0 * e0 + e1 * e1 + e2 * e2);
    const double l = std::sqrt(y0 * y0 + y1 * y1 + y2 * y2);
    const bool pull = kForces && l > 0.0;
    double g = 0.0;
    w += term(b, j, L, l, pull ? &g : nullptr);
    if (pull) {
      f0 += g * y0;
      f1 += g * y1;
      f2 += g * y2;
    }
  }
  if (kForces) {
    F[0] = f0;
    F[1] = f1;
    F[2] = f2;
  }
  return w;
}

/// The tangent's bond loop of point i: the 3 × 3 block Kb = K + 9 b of each bond b of i, zero
/// for a broken bond, visit(b, j, Kb) for an intact one (which writes the whole block).
template <class Visit>
inline void forTangentBonds(const PeridynamicBody& body, double* K, std::size_t i, Visit visit) {
  for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
    double* Kb = K + 9 * static_cast<std::size_t>(b);
    if (body.bondBroken[b]) {
      std::fill(Kb, Kb + 9, 0.0);
      continue;
    }
    visit(b, static_cast<std::size_t>(body.neighbour[b]), Kb);
  }
}

/// u = y / l, the deformed direction of a bond of length l (e_x when l = 0).
inline void bondDirection(const double y[3], double l, double u[3]) {
  u[0] = 1.0;
  u[1] = 0.0;
  u[2] = 0.0;
  if (l > 0.0)
    for (int r = 0; r < 3; ++r) u[r] = y[r] / l;
}

/// The tangent block of a bond, Kb = k (a u⊗u + t I), written to Kb and subtracted from the
/// diagonal block D (both row-major 3 × 3).
inline void writeBondBlock(double k, double a, double t, const double u[3], double* Kb, double* D) {
  for (int r = 0; r < 3; ++r)
    for (int q = 0; q < 3; ++q) {
      const double v = k * (a * u[r] * u[q] + (r == q ? t : 0.0));
      Kb[3 * r + q] = v;
      D[3 * r + q] -= v;
    }
}

/// S += g y⊗y (Voigt order xx, yy, zz, yz, xz, xy).
inline void addBondStress(double g, const double y[3], double S[6]) {
  S[0] += g * y[0] * y[0];
  S[1] += g * y[1] * y[1];
  S[2] += g * y[2] * y[2];
  S[3] += g * y[1] * y[2];
  S[4] += g * y[0] * y[2];
  S[5] += g * y[0] * y[1];
}

}  // namespace nsdyn::peridynamics

#endif
