// SheetMaterial (SheetMaterial.hpp): the passes over points (energy, forces, stiffness,
// tangent, stress). Each pass writes its own point only: the same bits for any thread count.
#include "nsdyn/SheetMaterial.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "peridynamics/materials/MaterialSupport.hpp"
#include "peridynamics/materials/SheetMaterialData.hpp"

namespace nsdyn {

using peridynamics::forPoints;
using peridynamics::materialThreads;
using peridynamics::materialWho;
using peridynamics::sumPoints;
namespace sd = peridynamics::sheet;

namespace {

/// Σ_j ¼ k (l − L)² over the intact bonds of point i; with kForces, F = Σ_j k (l − L) Y / l.
template <bool kForces>
inline double membranePoint(const PeridynamicBody& body, const double* spring, const double* x,
                            std::size_t i, double* F) {
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
    const double d = l - L;
    w += 0.25 * spring[b] * d * d;
    if (kForces && l > 0.0) {
      const double g = spring[b] * d / l;
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

/// The triplets of point q: the energy ½ K |v|² of those centred at q and, with kForces, the
/// force on q added to F (centre: 2K v, end: −K v; v = x_i + x_k − 2 x_j).
template <bool kForces>
inline double bendingPoint(const PeridynamicBody& body, const sd::View& view, const double* x,
                           std::size_t q, double* F) {
  const std::uint32_t* nb = body.neighbour.data();
  const std::uint8_t* broken = body.bondBroken.data();
  const std::size_t begin = static_cast<std::size_t>(view.offset[q]);
  const std::size_t end = static_cast<std::size_t>(view.offset[q + 1]);
  double w = 0.0;
  for (std::size_t e = begin; e < end; ++e) {
    const double* E = view.entries + sd::kEntry * e;
    const std::size_t b1 = static_cast<std::size_t>(E[0]), b2 = static_cast<std::size_t>(E[1]),
                      b3 = static_cast<std::size_t>(E[2]);
    if (broken[b1] || broken[b2] || broken[b3]) continue;
    const double K = E[3];
    const std::size_t a = nb[b1], b = nb[b2];
    double v[3];
    if (K > 0.0)  // centre: a = i, b = k
      for (int r = 0; r < 3; ++r) v[r] = x[3 * a + r] + x[3 * b + r] - 2.0 * x[3 * q + r];
    else  // end: a = j (the centre), b = the other end
      for (int r = 0; r < 3; ++r) v[r] = x[3 * q + r] + x[3 * b + r] - 2.0 * x[3 * a + r];
    if (K > 0.0) w += 0.5 * K * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (kForces) {
      const double g = K > 0.0 ? 2.0 * K : K;
      for (int r = 0; r < 3; ++r) F[r] += g * v[r];
    }
  }
  return w;
}

}  // namespace

double SheetMaterial::energy(const PeridynamicBody& body, const double* x) const {
  const sd::View view(body, materialWho(body, kind()));
  return sumPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    return membranePoint<false>(body, view.spring, x, i, nullptr) +
           bendingPoint<false>(body, view, x, i, nullptr);
  });
}

double SheetMaterial::membraneEnergy(const PeridynamicBody& body, const double* x) const {
  const sd::View view(body, materialWho(body, kind()));
  return sumPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    return membranePoint<false>(body, view.spring, x, i, nullptr);
  });
}

double SheetMaterial::bendingEnergy(const PeridynamicBody& body, const double* x) const {
  const sd::View view(body, materialWho(body, kind()));
  return sumPoints(body.size(), materialThreads(body),
                   [&](std::size_t i) { return bendingPoint<false>(body, view, x, i, nullptr); });
}

void SheetMaterial::pointEnergies(const PeridynamicBody& body, const double* x, double* w) const {
  const sd::View view(body, materialWho(body, kind()));
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    w[i] = membranePoint<false>(body, view.spring, x, i, nullptr) +
           bendingPoint<false>(body, view, x, i, nullptr);
  });
}

double SheetMaterial::forces(const PeridynamicBody& body, const double* x, double* f) const {
  const sd::View view(body, materialWho(body, kind()));
  const std::uint8_t* fixed = body.prescribed.data();
  return sumPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double F[3];
    double w = membranePoint<true>(body, view.spring, x, i, F);
    w += bendingPoint<true>(body, view, x, i, F);
    for (int r = 0; r < 3; ++r) f[3 * i + r] = fixed[i] ? 0.0 : F[r];
    return w;
  });
}

void SheetMaterial::implicitStiffness(const PeridynamicBody& body, const double* x,
                                      double* a) const {
  (void)x;
  const sd::View view(body, materialWho(body, kind()));
  const std::uint8_t* broken = body.bondBroken.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double s = 0.0;
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b)
      if (!broken[b]) s += view.spring[b];
    for (std::size_t e = static_cast<std::size_t>(view.offset[i]);
         e < static_cast<std::size_t>(view.offset[i + 1]); ++e) {
      const double* E = view.entries + sd::kEntry * e;
      if (broken[static_cast<std::size_t>(E[0])] || broken[static_cast<std::size_t>(E[1])] ||
          broken[static_cast<std::size_t>(E[2])])
        continue;
      s += E[3] > 0.0 ? 4.0 * E[3] : -E[3];
    }
    a[i] = s;
  });
}

void SheetMaterial::tangent(const PeridynamicBody& body, const double* x, double* K,
                            double* diag) const {
  const sd::View view(body, materialWho(body, kind()));
  const double* X = body.X.data();
  const std::uint8_t* broken = body.bondBroken.data();
  const double clamped = sumPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double D[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    double count = 0.0;
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
      double* Kb = K + 9 * static_cast<std::size_t>(b);
      std::fill(Kb, Kb + 9, 0.0);
      if (broken[b]) continue;
      const std::size_t j = body.neighbour[b];
      double e[3], y[3];
      for (int r = 0; r < 3; ++r) {
        e[r] = X[3 * j + r] - X[3 * i + r];
        y[r] = x[3 * j + r] - x[3 * i + r];
      }
      const double L = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
      const double l = std::sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
      // ∂f_i/∂x_j = k [u⊗u + (1 − L/l)(I − u⊗u)], the transverse part clamped at 0.
      double t = l > 0.0 ? 1.0 - L / l : -1.0;
      if (t < 0.0) {
        t = 0.0;
        count += 1.0;
      }
      double u[3] = {1.0, 0.0, 0.0};
      if (l > 0.0)
        for (int r = 0; r < 3; ++r) u[r] = y[r] / l;
      const double k = view.spring[b];
      for (int r = 0; r < 3; ++r)
        for (int q = 0; q < 3; ++q) {
          const double v = k * ((1.0 - t) * u[r] * u[q] + (r == q ? t : 0.0));
          Kb[3 * r + q] = v;
          D[3 * r + q] -= v;
        }
    }
    // Triplets: ∂f_a/∂x_b = −c_a c_b K I (c = 1 at the ends, −2 at the centre).
    for (std::size_t e = static_cast<std::size_t>(view.offset[i]);
         e < static_cast<std::size_t>(view.offset[i + 1]); ++e) {
      const double* E = view.entries + sd::kEntry * e;
      const std::size_t b1 = static_cast<std::size_t>(E[0]), b2 = static_cast<std::size_t>(E[1]),
                        b3 = static_cast<std::size_t>(E[2]);
      if (broken[b1] || broken[b2] || broken[b3]) continue;
      double self, first, second;  // blocks (× I) of i itself, of bond b1, of bond b2
      if (E[3] > 0.0) {            // centre: b1 → i, b2 → k
        self = -4.0 * E[3];
        first = second = 2.0 * E[3];
      } else {  // end: b1 → the centre, b2 → the other end
        self = E[3];
        first = -2.0 * E[3];
        second = E[3];
      }
      for (int r = 0; r < 3; ++r) {
        D[4 * r] += self;
        K[9 * b1 + 4 * r] += first;
        K[9 * b2 + 4 * r] += second;
      }
    }
    std::copy(D, D + 9, diag + 9 * i);
    return count;
  });
  lastClamped_.store(static_cast<std::size_t>(clamped));
}

void SheetMaterial::stress(const PeridynamicBody& body, const double* x, double* sigma) const {
  const sd::View view(body, materialWho(body, kind()));
  const double* X = body.X.data();
  const double* V = body.volume.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double S[6] = {0, 0, 0, 0, 0, 0};
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
      if (body.bondBroken[b]) continue;
      const std::size_t j = body.neighbour[b];
      double e[3], y[3];
      for (int r = 0; r < 3; ++r) {
        e[r] = X[3 * j + r] - X[3 * i + r];
        y[r] = x[3 * j + r] - x[3 * i + r];
      }
      const double L = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
      const double l = std::sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
      if (!(l > 0.0)) continue;
      // f_ij ⊗ Y / (2 V_i) with f_ij = k (l − L) Y / l.
      const double g = 0.5 * view.spring[b] * (l - L) / (l * V[i]);
      S[0] += g * y[0] * y[0];
      S[1] += g * y[1] * y[1];
      S[2] += g * y[2] * y[2];
      S[3] += g * y[1] * y[2];
      S[4] += g * y[0] * y[2];
      S[5] += g * y[0] * y[1];
    }
    std::copy(S, S + 6, sigma + 6 * i);
  });
}

double SheetMaterial::waveSpeed(double density) const {
  const double nu = elasticity_.poissonRatio;
  return std::sqrt(elasticity_.youngModulus / ((1.0 - nu * nu) * density));
}

double SheetMaterial::bendingStiffness(const PeridynamicBody& body) const {
  return sd::View(body, materialWho(body, kind())).D;
}

double SheetMaterial::micromodulus(const PeridynamicBody& body) const {
  return sd::View(body, materialWho(body, kind())).c;
}

double SheetMaterial::membraneStiffness(const PeridynamicBody& body) const {
  const double nu = elasticity_.poissonRatio;
  return elasticity_.youngModulus * body.options().thickness / (1.0 - nu * nu);
}

std::size_t SheetMaterial::triplets(const PeridynamicBody& body) const {
  const sd::View view(body, materialWho(body, kind()));
  const std::uint8_t* broken = body.bondBroken.data();
  std::size_t count = 0;
  const std::size_t total = static_cast<std::size_t>(view.offset[body.size()]);
  for (std::size_t e = 0; e < total; ++e) {
    const double* E = view.entries + sd::kEntry * e;
    if (E[3] > 0.0 && !broken[static_cast<std::size_t>(E[0])] &&
        !broken[static_cast<std::size_t>(E[1])] && !broken[static_cast<std::size_t>(E[2])])
      ++count;
  }
  return count;
}

}  // namespace nsdyn
