// Small pieces shared by the peridynamic material models (Kernel/src/peridynamics/materials):
// the object named in errors, the checks of the elastic constants, the isotropic moduli, the
// thread count of a body's passes and the sum over points whose bits do not depend on it.
#ifndef NSDYN_KERNEL_PERIDYNAMICS_MATERIALSUPPORT_HPP
#define NSDYN_KERNEL_PERIDYNAMICS_MATERIALSUPPORT_HPP

#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include "mechanics/Threads.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn::peridynamics {

/// Points per chunk of the deterministic sums (partial sums per chunk, added in order).
constexpr std::size_t kMaterialChunk = 1024;

/// "PeridynamicBody 'name' (material kind)": the object of the models' errors.
inline std::string materialWho(const PeridynamicBody& body, const std::string& kind) {
  return "PeridynamicBody '" + body.name() + "' (material " + kind + ")";
}

/// A double written with enough digits to be recognised ("0.3", "1e+09").
inline std::string num(double v) {
  std::ostringstream s;
  s.precision(10);
  s << v;
  return s.str();
}

/// Two-dimensional body (a sheet of thickness > 0).
inline bool planeBody(const PeridynamicBody& body) {
  return body.options().thickness > 0.0;
}

/// E > 0 and finite, else nsdyn::Error naming the body and E.
inline void checkYoung(const PeridynamicBody& body, const std::string& kind,
                       const PeridynamicElasticity& e) {
  if (!(e.youngModulus > 0.0) || !std::isfinite(e.youngModulus))
    throw Error(materialWho(body, kind), "Young's modulus E > 0", "E = " + num(e.youngModulus));
  if (!(e.criticalStretch > 0.0))
    throw Error(materialWho(body, kind), "critical stretch > 0 (+inf: no fracture)",
                "s0 = " + num(e.criticalStretch));
}

/// ν in (−1, 1/2), else nsdyn::Error naming the body and ν.
inline void checkPoisson(const PeridynamicBody& body, const std::string& kind,
                         const PeridynamicElasticity& e) {
  if (!(e.poissonRatio > -1.0 && e.poissonRatio < 0.5))
    throw Error(materialWho(body, kind), "Poisson's ratio nu in (-1, 1/2)",
                "nu = " + num(e.poissonRatio));
}

/// nsdyn::Error when body.materialData() does not have @p size values (prepare() not called
/// since the body or its bonds changed).
inline void checkPrepared(const PeridynamicBody& body, const std::string& kind, std::size_t size) {
  if (body.materialData().size() != size)
    throw Error(materialWho(body, kind),
                "material data of " + std::to_string(size) + " values (call body.refresh())",
                std::to_string(body.materialData().size()) + " values");
}

/// Lamé constants and the moduli of the isotropic solid.
struct Isotropic {
  double E, nu, mu, lambda, bulk;
  explicit Isotropic(const PeridynamicElasticity& e)
      : E(e.youngModulus),
        nu(e.poissonRatio),
        mu(E / (2.0 * (1.0 + nu))),
        lambda(E * nu / ((1.0 + nu) * (1.0 - 2.0 * nu))),
        bulk(E / (3.0 * (1.0 - 2.0 * nu))) {}
  /// P-wave modulus λ + 2μ (3D), E / (1 − ν²) in plane stress.
  double pWave(bool plane) const { return plane ? E / (1.0 - nu * nu) : lambda + 2.0 * mu; }
};

/// Moments of the full lattice neighbourhood of a bulk point (the body's bulkSum rule:
/// offsets k Δx, k ≠ 0, |k Δx| ≤ δ, planar for 2D bodies; neighbour volume Δx³ or Δx² t):
/// s0 = Σ |ξ|^p V, s4 = Σ |ξ|^p n_x⁴ V, s22 = Σ |ξ|^p n_x² n_y² V (n = ξ/|ξ|).
struct LatticeMoments {
  double s0 = 0.0, s4 = 0.0, s22 = 0.0;
  LatticeMoments(const PeridynamicBody& body, int p) {
    const auto& o = body.options();
    const bool planar = o.thickness > 0.0;
    const double dx = o.spacing, V = planar ? dx * dx * o.thickness : dx * dx * dx;
    const int r = static_cast<int>(std::ceil(o.horizon / dx + 1e-9));
    const double limit2 = o.horizon * o.horizon * (1.0 + 1e-10);
    for (int a = -r; a <= r; ++a)
      for (int b = -r; b <= r; ++b)
        for (int c = planar ? 0 : -r; c <= (planar ? 0 : r); ++c) {
          if (a == 0 && b == 0 && c == 0) continue;
          const double x = a * dx, y = b * dx, z = c * dx, l2 = x * x + y * y + z * z;
          if (l2 > limit2) continue;
          const double w = std::pow(std::sqrt(l2), p) * V, nx2 = x * x / l2, ny2 = y * y / l2;
          s0 += w;
          s4 += w * nx2 * nx2;
          s22 += w * nx2 * ny2;
        }
  }
};

inline int materialThreads(const PeridynamicBody& body) {
  return mechanics::threadsFor(body.options().threads, body.size());
}

/// Σ_i term(i) over the points, in chunks of kMaterialChunk points summed in order: the same
/// bits for any thread count. @p term may write per-point outputs (each point once).
template <class Term>
double sumPoints(std::size_t n, int threads, Term term) {
  const std::size_t chunks = (n + kMaterialChunk - 1) / kMaterialChunk;
  std::vector<double> partial(chunks, 0.0);
  const long cl = static_cast<long>(chunks);
  double* pp = partial.data();
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (long ch = 0; ch < cl; ++ch) {
    const std::size_t begin = static_cast<std::size_t>(ch) * kMaterialChunk;
    const std::size_t end = begin + kMaterialChunk < n ? begin + kMaterialChunk : n;
    double s = 0.0;
    for (std::size_t i = begin; i < end; ++i) s += term(i);
    pp[ch] = s;
  }
  double total = 0.0;
  for (double p : partial) total += p;
  return total;
}

/// for_each over the points (OpenMP, static schedule).
template <class Body>
void forPoints(std::size_t n, int threads, Body body) {
  const long nl = static_cast<long>(n);
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (long i = 0; i < nl; ++i) body(static_cast<std::size_t>(i));
}

}  // namespace nsdyn::peridynamics

#endif
