#include "nsdyn/BondBasedMaterial.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "peridynamics/materials/BondLoops.hpp"
#include "peridynamics/materials/MaterialSupport.hpp"

namespace nsdyn {

using peridynamics::forPoints;
using peridynamics::materialThreads;
using peridynamics::materialWho;
using peridynamics::num;
using peridynamics::sumPoints;

namespace {

/// The bond loop of point i: W_i / (¼ c V_i) and the force sum / (c V_i) (F != nullptr).
template <bool kForces>
inline double pmbPoint(const PeridynamicBody& body, const double* x, std::size_t i, double* F) {
  const double* V = body.volume.data();
  const float* factor = body.bondFactor.data();
  return peridynamics::centralBondPoint<kForces>(
      body, x, i, F, [&](std::uint32_t b, std::size_t j, double L, double l, double* g) {
        const double s = (l - L) / L;
        const double k = static_cast<double>(factor[b]) * V[j];
        if (g) *g = k * s / l;
        return k * s * s * L;
      });
}

}  // namespace

void BondBasedMaterial::check(const PeridynamicBody& body) const {
  peridynamics::checkYoung(body, kind(), elasticity_);
  const bool plane = peridynamics::planeBody(body);
  const double want = plane ? 1.0 / 3.0 : 0.25;
  if (std::abs(elasticity_.poissonRatio - want) > 1e-9)
    throw Error(materialWho(body, kind()),
                plane ? "Poisson's ratio nu = 1/3 (bond-based, 2D body of thickness > 0)"
                      : "Poisson's ratio nu = 1/4 (bond-based, 3D body)",
                "nu = " + num(elasticity_.poissonRatio));
}

void BondBasedMaterial::prepare(PeridynamicBody& body) const {
  check(body);
  const double sum = body.bulkSum(1);
  if (!(sum > 0.0))
    throw Error(materialWho(body, kind()), "a bulk neighbourhood (bulkSum(1) > 0)",
                "bulkSum(1) = " + num(sum));
  const double E = elasticity_.youngModulus;
  // Isotropic expansion by s: continuum density 9K s²/2 (3D), 3E s²/2 (plane stress, ν = 1/3);
  // a bulk point holds ¼ c s² bulkSum(1).
  const bool plane = peridynamics::planeBody(body);
  double c = plane ? 6.0 * E / sum : 18.0 * peridynamics::Isotropic(elasticity_).bulk / sum;
  if (elasticity_.calibration == PeridynamicCalibration::LatticeAxes) {
    // Cubic (square) moduli of a bulk point: C11 = c s4 / 2, C12 = C44 = c s22 / 2; scale c so
    // that Young's modulus along an axis is E.
    const peridynamics::LatticeMoments mo(body, 1);
    const double C11 = 0.5 * c * mo.s4, C12 = 0.5 * c * mo.s22;
    const double Eaxis =
        plane ? (C11 * C11 - C12 * C12) / C11 : (C11 - C12) * (C11 + 2.0 * C12) / (C11 + C12);
    c *= E / Eaxis;
  }
  body.materialData().assign(1, c);
}

double BondBasedMaterial::micromodulus(const PeridynamicBody& body) const {
  peridynamics::checkPrepared(body, kind(), 1);
  return body.materialData()[0];
}

double BondBasedMaterial::energy(const PeridynamicBody& body, const double* x) const {
  const double c = micromodulus(body);
  const double* V = body.volume.data();
  return sumPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    return 0.25 * c * V[i] * pmbPoint<false>(body, x, i, nullptr);
  });
}

void BondBasedMaterial::pointEnergies(const PeridynamicBody& body, const double* x,
                                      double* w) const {
  const double c = micromodulus(body);
  const double* V = body.volume.data();
  forPoints(body.size(), materialThreads(body),
            [&](std::size_t i) { w[i] = 0.25 * c * V[i] * pmbPoint<false>(body, x, i, nullptr); });
}

double BondBasedMaterial::forces(const PeridynamicBody& body, const double* x, double* f) const {
  const double c = micromodulus(body);
  const double* V = body.volume.data();
  const std::uint8_t* fixed = body.prescribed.data();
  return sumPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double F[3];
    const double w = pmbPoint<true>(body, x, i, F);
    const double cv = fixed[i] ? 0.0 : c * V[i];
    f[3 * i] = cv * F[0];
    f[3 * i + 1] = cv * F[1];
    f[3 * i + 2] = cv * F[2];
    return 0.25 * c * V[i] * w;
  });
}

void BondBasedMaterial::implicitStiffness(const PeridynamicBody& body, const double* x,
                                          double* a) const {
  (void)x;
  const double c = micromodulus(body);
  const double* V = body.volume.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double s = 0.0;
    peridynamics::forIntactBonds(
        body, body.X.data(), i,
        [&](std::uint32_t b, std::size_t j, const peridynamics::BondVectors& o) {
          s += static_cast<double>(body.bondFactor[b]) * V[j] / o.L;
        });
    a[i] = c * V[i] * s;
  });
}

void BondBasedMaterial::tangent(const PeridynamicBody& body, const double* x, double* K,
                                double* diag) const {
  const double c = micromodulus(body);
  const double* X = body.X.data();
  const double* V = body.volume.data();
  const std::size_t n = body.size();
  const double clamped = sumPoints(n, materialThreads(body), [&](std::size_t i) {
    double D[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    double count = 0.0;
    peridynamics::forTangentBonds(body, K, i, [&](std::uint32_t b, std::size_t j, double* Kb) {
      const peridynamics::BondVectors o = peridynamics::bondVectors(X, x, i, j);
      const double k = c * static_cast<double>(body.bondFactor[b]) * V[i] * V[j];
      double t = o.l > 0.0 ? 1.0 / o.L - 1.0 / o.l : -1.0;
      if (t < 0.0) {
        t = 0.0;
        count += 1.0;
      }
      double u[3];
      peridynamics::bondDirection(o.y, o.l, u);
      peridynamics::writeBondBlock(k, 1.0 / o.L - t, t, u, Kb, D);
    });
    std::copy(D, D + 9, diag + 9 * i);
    return count;
  });
  lastClamped_.store(static_cast<std::size_t>(clamped));
}

void BondBasedMaterial::stress(const PeridynamicBody& body, const double* x, double* sigma) const {
  const double c = micromodulus(body);
  const double* V = body.volume.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double S[6] = {0, 0, 0, 0, 0, 0};
    peridynamics::forIntactBonds(
        body, x, i, [&](std::uint32_t b, std::size_t j, const peridynamics::BondVectors& o) {
          if (!(o.l > 0.0)) return;
          // f_ij ⊗ Y / (2 V_i) with f_ij = β c s V_i V_j Y / l.
          const double g =
              0.5 * c * static_cast<double>(body.bondFactor[b]) * V[j] * (o.l - o.L) / (o.L * o.l);
          peridynamics::addBondStress(g, o.y, S);
        });
    std::copy(S, S + 6, sigma + 6 * i);
  });
}

double BondBasedMaterial::waveSpeed(double density) const {
  const bool plane = std::abs(elasticity_.poissonRatio - 1.0 / 3.0) < 1e-9;
  return std::sqrt(peridynamics::Isotropic(elasticity_).pWave(plane) / density);
}

double BondBasedMaterial::criticalStretchFromEnergy(double fractureEnergy, double horizon,
                                                    double youngModulus, int dimension) {
  if (!(fractureEnergy > 0.0) || !(horizon > 0.0) || !(youngModulus > 0.0) ||
      (dimension != 2 && dimension != 3))
    throw Error("BondBasedMaterial::criticalStretchFromEnergy",
                "G0 > 0, horizon > 0, E > 0, dimension 2 or 3",
                "G0 = " + num(fractureEnergy) + ", horizon = " + num(horizon) +
                    ", E = " + num(youngModulus) + ", dimension = " + std::to_string(dimension));
  const double pi = 3.14159265358979323846;
  if (dimension == 2) return std::sqrt(4.0 * pi * fractureEnergy / (9.0 * youngModulus * horizon));
  const double K = youngModulus / (3.0 * (1.0 - 2.0 * 0.25));
  return std::sqrt(5.0 * fractureEnergy / (9.0 * K * horizon));
}

}  // namespace nsdyn
