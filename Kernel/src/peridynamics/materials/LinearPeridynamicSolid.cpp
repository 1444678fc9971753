#include "nsdyn/LinearPeridynamicSolid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "peridynamics/materials/MaterialSupport.hpp"

namespace nsdyn {

using peridynamics::forPoints;
using peridynamics::materialThreads;
using peridynamics::sumPoints;

namespace {

struct LpsConstants {
  double d, kappa, alpha;
  /// The constants of @p body (prepared: materialData()[n] holds the scale of α).
  LpsConstants(const PeridynamicElasticity& e, const PeridynamicBody& body) {
    const peridynamics::Isotropic iso(e);
    const bool plane = peridynamics::planeBody(body);
    d = plane ? 2.0 : 3.0;
    kappa = plane ? iso.E / (2.0 * (1.0 - iso.nu)) : iso.bulk;
    alpha = (plane ? 8.0 * iso.mu : 15.0 * iso.mu) * body.materialData()[body.size()];
  }
};

/// One intact bond seen from point i: reference and deformed vectors and lengths.
struct Bond {
  double y[3];
  double L, l;
};

inline Bond bondOf(const double* X, const double* x, std::size_t i, std::size_t j) {
  Bond o;
  double e[3];
  for (int r = 0; r < 3; ++r) {
    e[r] = X[3 * j + r] - X[3 * i + r];
    o.y[r] = x[3 * j + r] - x[3 * i + r];
  }
  o.L = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
  o.l = std::sqrt(o.y[0] * o.y[0] + o.y[1] * o.y[1] + o.y[2] * o.y[2]);
  return o;
}

inline double inverse(double m) {
  return m > 0.0 ? 1.0 / m : 0.0;
}

/// Dilatations θ (n) at x.
void dilatations(const PeridynamicBody& body, const double* x, const LpsConstants& k,
                 std::vector<double>& theta) {
  theta.assign(body.size(), 0.0);
  const double* X = body.X.data();
  const double* V = body.volume.data();
  const double* m = body.materialData().data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double s = 0.0;
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
      if (body.bondBroken[b]) continue;
      const std::size_t j = body.neighbour[b];
      const Bond o = bondOf(X, x, i, j);
      s += static_cast<double>(body.bondFactor[b]) * o.L * (o.l - o.L) * V[j];
    }
    theta[i] = k.d * inverse(m[i]) * s;
  });
}

/// W_i and (F != nullptr) the force on i (before zeroing prescribed points).
inline double lpsPoint(const PeridynamicBody& body, const double* x, const LpsConstants& k,
                       const double* theta, std::size_t i, double* F) {
  const double* X = body.X.data();
  const double* V = body.volume.data();
  const double* m = body.materialData().data();
  const double imi = inverse(m[i]), ti = theta[i];
  double dev = 0.0, f[3] = {0.0, 0.0, 0.0};
  for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
    if (body.bondBroken[b]) continue;
    const std::size_t j = body.neighbour[b];
    const Bond o = bondOf(X, x, i, j);
    const double w = static_cast<double>(body.bondFactor[b]);
    const double e = o.l - o.L;
    const double edi = e - ti * o.L / k.d;
    dev += w * edi * edi * V[j];
    if (F && o.l > 0.0) {
      const double imj = inverse(m[j]), tj = theta[j];
      const double tij = k.kappa * ti * k.d * imi * w * o.L + k.alpha * imi * w * edi;
      const double tji =
          k.kappa * tj * k.d * imj * w * o.L + k.alpha * imj * w * (e - tj * o.L / k.d);
      const double g = V[j] * (tij + tji) / o.l;
      for (int r = 0; r < 3; ++r) f[r] += g * o.y[r];
    }
  }
  if (F)
    for (int r = 0; r < 3; ++r) F[r] = V[i] * f[r];
  return V[i] * (0.5 * k.kappa * ti * ti + 0.5 * k.alpha * imi * dev);
}

}  // namespace

void LinearPeridynamicSolid::check(const PeridynamicBody& body) const {
  peridynamics::checkYoung(body, kind(), elasticity_);
  peridynamics::checkPoisson(body, kind(), elasticity_);
}

void LinearPeridynamicSolid::prepare(PeridynamicBody& body) const {
  check(body);
  std::vector<double> m(body.size(), 0.0);
  const double* X = body.X.data();
  const double* V = body.volume.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double s = 0.0;
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
      if (body.bondBroken[b]) continue;
      const std::size_t j = body.neighbour[b];
      double L2 = 0.0;
      for (int r = 0; r < 3; ++r)
        L2 += (X[3 * j + r] - X[3 * i + r]) * (X[3 * j + r] - X[3 * i + r]);
      s += static_cast<double>(body.bondFactor[b]) * L2 * V[j];
    }
    m[i] = s;
  });
  double scale = 1.0;
  if (elasticity_.calibration == PeridynamicCalibration::LatticeAxes) {
    // The deviatoric constant that gives the axial mode ε = diag(e, −e, 0) of a bulk point the
    // shear modulus G (with K exact: E and ν along the axes exact).
    const peridynamics::LatticeMoments mo(body, 2);
    const double axial = 2.0 * (mo.s4 - mo.s22);
    scale = peridynamics::planeBody(body) ? 0.5 * mo.s0 / axial : 4.0 * mo.s0 / (15.0 * axial);
  }
  m.push_back(scale);
  body.materialData() = std::move(m);
}

double LinearPeridynamicSolid::energy(const PeridynamicBody& body, const double* x) const {
  peridynamics::checkPrepared(body, kind(), body.size() + 1);
  const LpsConstants k(elasticity_, body);
  std::vector<double> theta;
  dilatations(body, x, k, theta);
  return sumPoints(body.size(), materialThreads(body),
                   [&](std::size_t i) { return lpsPoint(body, x, k, theta.data(), i, nullptr); });
}

void LinearPeridynamicSolid::pointEnergies(const PeridynamicBody& body, const double* x,
                                           double* w) const {
  peridynamics::checkPrepared(body, kind(), body.size() + 1);
  const LpsConstants k(elasticity_, body);
  std::vector<double> theta;
  dilatations(body, x, k, theta);
  forPoints(body.size(), materialThreads(body),
            [&](std::size_t i) { w[i] = lpsPoint(body, x, k, theta.data(), i, nullptr); });
}

double LinearPeridynamicSolid::forces(const PeridynamicBody& body, const double* x,
                                      double* f) const {
  peridynamics::checkPrepared(body, kind(), body.size() + 1);
  const LpsConstants k(elasticity_, body);
  std::vector<double> theta;
  dilatations(body, x, k, theta);
  const std::uint8_t* fixed = body.prescribed.data();
  return sumPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double F[3];
    const double w = lpsPoint(body, x, k, theta.data(), i, F);
    for (int r = 0; r < 3; ++r) f[3 * i + r] = fixed[i] ? 0.0 : F[r];
    return w;
  });
}

void LinearPeridynamicSolid::implicitStiffness(const PeridynamicBody& body, const double* x,
                                               double* a) const {
  peridynamics::checkPrepared(body, kind(), body.size() + 1);
  const LpsConstants k(elasticity_, body);
  std::vector<double> theta;
  dilatations(body, x, k, theta);
  const double* X = body.X.data();
  const double* V = body.volume.data();
  const double* m = body.materialData().data();
  const double cc = k.kappa * k.d * k.d + k.alpha;
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    const double imi = inverse(m[i]), ti = theta[i];
    double s = 0.0;
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
      if (body.bondBroken[b]) continue;
      const std::size_t j = body.neighbour[b];
      const Bond o = bondOf(X, x, i, j);
      const double w = static_cast<double>(body.bondFactor[b]);
      const double imj = inverse(m[j]), tj = theta[j], e = o.l - o.L;
      s += V[j] * w * cc * (imi + imj);
      const double tij =
          k.kappa * ti * k.d * imi * w * o.L + k.alpha * imi * w * (e - ti * o.L / k.d);
      const double tji =
          k.kappa * tj * k.d * imj * w * o.L + k.alpha * imj * w * (e - tj * o.L / k.d);
      if (tij + tji > 0.0 && o.l > 0.0) s += V[j] * (tij + tji) / o.l;
    }
    a[i] = V[i] * s;
  });
}

void LinearPeridynamicSolid::tangent(const PeridynamicBody& body, const double* x, double* K,
                                     double* diag) const {
  peridynamics::checkPrepared(body, kind(), body.size() + 1);
  const LpsConstants k(elasticity_, body);
  std::vector<double> theta;
  dilatations(body, x, k, theta);
  const double* X = body.X.data();
  const double* V = body.volume.data();
  const double* m = body.materialData().data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    const double imi = inverse(m[i]), ti = theta[i];
    double D[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
      double* Kb = K + 9 * static_cast<std::size_t>(b);
      if (body.bondBroken[b]) {
        std::fill(Kb, Kb + 9, 0.0);
        continue;
      }
      const std::size_t j = body.neighbour[b];
      const Bond o = bondOf(X, x, i, j);
      const double w = static_cast<double>(body.bondFactor[b]);
      const double imj = inverse(m[j]), tj = theta[j], e = o.l - o.L;
      const double L2 = o.L * o.L;
      // ∂²W_p/∂e² / (V_p V_q) of the end p (q the other end, of volume Vq).
      auto second = [&](double im, double Vq) {
        return k.kappa * k.d * k.d * w * w * L2 * Vq * im * im +
               k.alpha * w * im * (1.0 - w * L2 * Vq * im);
      };
      const double h = V[i] * V[j] * (second(imi, V[j]) + second(imj, V[i]));
      const double tij =
          k.kappa * ti * k.d * imi * w * o.L + k.alpha * imi * w * (e - ti * o.L / k.d);
      const double tji =
          k.kappa * tj * k.d * imj * w * o.L + k.alpha * imj * w * (e - tj * o.L / k.d);
      const double t = o.l > 0.0 ? std::max(0.0, V[i] * V[j] * (tij + tji) / o.l) : 0.0;
      double u[3] = {1.0, 0.0, 0.0};
      if (o.l > 0.0)
        for (int r = 0; r < 3; ++r) u[r] = o.y[r] / o.l;
      for (int r = 0; r < 3; ++r)
        for (int q = 0; q < 3; ++q) {
          const double v = (h - t) * u[r] * u[q] + (r == q ? t : 0.0);
          Kb[3 * r + q] = v;
          D[3 * r + q] -= v;
        }
    }
    std::copy(D, D + 9, diag + 9 * i);
  });
}

void LinearPeridynamicSolid::stress(const PeridynamicBody& body, const double* x,
                                    double* sigma) const {
  peridynamics::checkPrepared(body, kind(), body.size() + 1);
  const LpsConstants k(elasticity_, body);
  std::vector<double> theta;
  dilatations(body, x, k, theta);
  const double* X = body.X.data();
  const double* V = body.volume.data();
  const double* m = body.materialData().data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    const double imi = inverse(m[i]), ti = theta[i];
    double S[6] = {0, 0, 0, 0, 0, 0};
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
      if (body.bondBroken[b]) continue;
      const std::size_t j = body.neighbour[b];
      const Bond o = bondOf(X, x, i, j);
      if (!(o.l > 0.0)) continue;
      const double w = static_cast<double>(body.bondFactor[b]);
      const double e = o.l - o.L;
      const double tij =
          k.kappa * ti * k.d * imi * w * o.L + k.alpha * imi * w * (e - ti * o.L / k.d);
      const double g = V[j] * tij / o.l;
      S[0] += g * o.y[0] * o.y[0];
      S[1] += g * o.y[1] * o.y[1];
      S[2] += g * o.y[2] * o.y[2];
      S[3] += g * o.y[1] * o.y[2];
      S[4] += g * o.y[0] * o.y[2];
      S[5] += g * o.y[0] * o.y[1];
    }
    std::copy(S, S + 6, sigma + 6 * i);
  });
}

double LinearPeridynamicSolid::waveSpeed(double density) const {
  return std::sqrt(peridynamics::Isotropic(elasticity_).pWave(false) / density);
}

}  // namespace nsdyn
