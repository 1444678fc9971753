// SheetMaterial (SheetMaterial.hpp): the passes over points (energy, forces, stiffness,
// tangent, stress). Each pass writes its own point only: the same bits for any thread count.
#include "nsdyn/SheetMaterial.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "peridynamics/materials/BondLoops.hpp"
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
  return peridynamics::centralBondPoint<kForces>(
      body, x, i, F, [&](std::uint32_t b, std::size_t, double L, double l, double* g) {
        const double d = l - L;
        if (g) *g = spring[b] * d / l;
        return 0.25 * spring[b] * d * d;
      });
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
    // The bonds (a broken one's block zero; an intact one's written whole).
    peridynamics::forTangentBonds(body, K, i, [&](std::uint32_t b, std::size_t j, double* Kb) {
      const peridynamics::BondVectors o = peridynamics::bondVectors(X, x, i, j);
      // ∂f_i/∂x_j = k [u⊗u + (1 − L/l)(I − u⊗u)], the transverse part clamped at 0.
      double t = o.l > 0.0 ? 1.0 - o.L / o.l : -1.0;
      if (t < 0.0) {
        t = 0.0;
        count += 1.0;
      }
      double u[3];
      peridynamics::bondDirection(o.y, o.l, u);
      peridynamics::writeBondBlock(view.spring[b], 1.0 - t, t, u, Kb, D);
    });
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
  const double* V = body.volume.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double S[6] = {0, 0, 0, 0, 0, 0};
    peridynamics::forIntactBonds(
        body, x, i, [&](std::uint32_t b, std::size_t, const peridynamics::BondVectors& o) {
          if (!(o.l > 0.0)) return;
          // f_ij ⊗ Y / (2 V_i) with f_ij = k (l − L) Y / l.
          const double g = 0.5 * view.spring[b] * (o.l - o.L) / (o.l * V[i]);
          peridynamics::addBondStress(g, o.y, S);
        });
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
