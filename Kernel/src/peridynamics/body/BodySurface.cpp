// PeridynamicBody: the bulk lattice sums and the surface correction of the bond stiffness
// (PeridynamicBodyOptions::surfaceCorrection says which method and why).
#include <cmath>

#include "../../mechanics/Threads.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

namespace {

/// Σ over the integer offsets k ≠ 0 with |k| Δx ≤ δ (planar when @p planar) of f(ξ) V.
template <class F>
double latticeSum(double spacing, double horizon, bool planar, double neighbourVolume, F f) {
  const int r = static_cast<int>(std::ceil(horizon / spacing + 1e-9));
  const double limit2 = horizon * horizon * (1.0 + 1e-10);
  double sum = 0.0;
  for (int a = -r; a <= r; ++a)
    for (int b = -r; b <= r; ++b)
      for (int c = planar ? 0 : -r; c <= (planar ? 0 : r); ++c) {
        if (a == 0 && b == 0 && c == 0) continue;
        const double xi[3] = {a * spacing, b * spacing, c * spacing};
        const double l2 = xi[0] * xi[0] + xi[1] * xi[1] + xi[2] * xi[2];
        if (l2 > limit2) continue;
        sum += f(xi, std::sqrt(l2)) * neighbourVolume;
      }
  return sum;
}

}  // namespace

double PeridynamicBody::bulkSum(int power) const {
  const bool planar = options_.thickness > 0.0;
  const double dx = options_.spacing;
  const double vol = planar ? dx * dx * options_.thickness : dx * dx * dx;
  return latticeSum(dx, options_.horizon, planar, vol,
                    [power](const double*, double l) { return std::pow(l, power); });
}

double PeridynamicBody::bulkDirectionalSum() const {
  const bool planar = options_.thickness > 0.0;
  const double dx = options_.spacing;
  const double vol = planar ? dx * dx * options_.thickness : dx * dx * dx;
  const double nu = material_ ? material_->elasticity().poissonRatio : 0.25;
  return latticeSum(dx, options_.horizon, planar, vol, [nu](const double* xi, double l) {
    const double c2 = xi[0] * xi[0] / (l * l), s = c2 - nu * (1.0 - c2);
    return s * s * l;
  });
}

void PeridynamicBody::surfaceFactors() {
  const std::size_t n = size();
  bondFactor.assign(neighbour.size(), 1.0f);
  if (!options_.surfaceCorrection) return;
  const int nt = mechanics::threadsFor(options_.threads, n);
  (void)nt;
  if (options_.thickness > 0.0) {
    // 2D: the volume method on Σ |ξ| V
    const double bulk = bulkSum(1);
    std::vector<double> g(n, 1.0);
    NSD_OMP(omp parallel for schedule(static) num_threads(nt))
    for (std::size_t i = 0; i < n; ++i) {
      double q = 0.0;
      for (std::uint32_t b = bondStart[i]; b < bondStart[i + 1]; ++b)
        if (!bondBroken[b]) q += bondLength[b] * volume[neighbour[b]];
      g[i] = q > 0.0 ? bulk / q : 1.0;
    }
    NSD_OMP(omp parallel for schedule(static) num_threads(nt))
    for (std::size_t i = 0; i < n; ++i)
      for (std::uint32_t b = bondStart[i]; b < bondStart[i + 1]; ++b)
        bondFactor[b] = static_cast<float>(0.5 * (g[i] + g[neighbour[b]]));
    return;
  }
  // 3D: the energy method per lattice axis
  const double bulk = bulkDirectionalSum();
  const double nu = material_->elasticity().poissonRatio;
  std::vector<double> g(3 * n, 1.0);
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::size_t i = 0; i < n; ++i) {
    double s[3] = {0.0, 0.0, 0.0};
    for (std::uint32_t b = bondStart[i]; b < bondStart[i + 1]; ++b) {
      if (bondBroken[b]) continue;
      const std::uint32_t j = neighbour[b];
      const double l = bondLength[b];
      for (int k = 0; k < 3; ++k) {
        const double e = (X[3 * j + k] - X[3 * i + k]) / l, c2 = e * e;
        const double st = c2 - nu * (1.0 - c2);  // bond stretch / ε under uniaxial stress along k
        s[k] += volume[j] * st * st * l;
      }
    }
    for (int k = 0; k < 3; ++k) g[3 * i + k] = s[k] > 0.0 ? bulk / s[k] : 1.0;
  }
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t b = bondStart[i]; b < bondStart[i + 1]; ++b) {
      const std::uint32_t j = neighbour[b];
      const double l = bondLength[b];
      double q = 0.0;
      for (int k = 0; k < 3; ++k) {
        const double nk = (X[3 * j + k] - X[3 * i + k]) / l;
        const double gk = 0.5 * (g[3 * i + k] + g[3 * j + k]);
        q += nk * nk / (gk * gk);
      }
      bondFactor[b] = static_cast<float>(q > 0.0 ? 1.0 / std::sqrt(q) : 1.0);
    }
}

}  // namespace nsdyn
