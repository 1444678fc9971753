#include "nsdyn/LinearPeridynamicSolid.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "peridynamics/materials/BondLoops.hpp"
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

using peridynamics::BondVectors;
using peridynamics::forIntactBonds;

/// The scalar force state t_ij of bond (i, j) seen from the end p (θ_p, 1/m_p): κ θ d w L / m +
/// α w (e − θ L / d) / m, with β = w the bond factor and e = l − L.
inline double forceState(const LpsConstants& k, double theta, double im, double w, double L,
                         double e) {
  return k.kappa * theta * k.d * im * w * L + k.alpha * im * w * (e - theta * L / k.d);
}

inline double inverse(double m) {
  return m > 0.0 ? 1.0 / m : 0.0;
}

/// Dilatations θ (n) at x.
void dilatations(const PeridynamicBody& body, const double* x, const LpsConstants& k,
                 std::vector<double>& theta) {
  theta.assign(body.size(), 0.0);
  const double* V = body.volume.data();
  const double* m = body.materialData().data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double s = 0.0;
    forIntactBonds(body, x, i, [&](std::uint32_t b, std::size_t j, const BondVectors& o) {
      s += static_cast<double>(body.bondFactor[b]) * o.L * (o.l - o.L) * V[j];
    });
    theta[i] = k.d * inverse(m[i]) * s;
  });
}

/// What every pass needs: the constants, the dilatations θ at x, the volumes and the weighted
/// volumes m (nsdyn::Error when the body is not prepared).
struct LpsPass {
  LpsConstants k;
  std::vector<double> theta;
  const double* V;
  const double* m;
  LpsPass(const PeridynamicElasticity& e, const PeridynamicBody& body, const double* x,
          const std::string& kind)
      : k(e, checked(body, kind)), V(body.volume.data()), m(body.materialData().data()) {
    dilatations(body, x, k, theta);
  }

 private:
  static const PeridynamicBody& checked(const PeridynamicBody& body, const std::string& kind) {
    peridynamics::checkPrepared(body, kind, body.size() + 1);
    return body;
  }
};

/// W_i and (F != nullptr) the force on i (before zeroing prescribed points).
inline double lpsPoint(const PeridynamicBody& body, const double* x, const LpsConstants& k,
                       const double* theta, std::size_t i, double* F) {
  const double* V = body.volume.data();
  const double* m = body.materialData().data();
  const double imi = inverse(m[i]), ti = theta[i];
  double dev = 0.0, f[3] = {0.0, 0.0, 0.0};
  forIntactBonds(body, x, i, [&](std::uint32_t b, std::size_t j, const BondVectors& o) {
    const double w = static_cast<double>(body.bondFactor[b]);
    const double e = o.l - o.L;
    const double edi = e - ti * o.L / k.d;
    dev += w * edi * edi * V[j];
    if (F && o.l > 0.0) {
      const double tij = forceState(k, ti, imi, w, o.L, e);
      const double tji = forceState(k, theta[j], inverse(m[j]), w, o.L, e);
      const double g = V[j] * (tij + tji) / o.l;
      for (int r = 0; r < 3; ++r) f[r] += g * o.y[r];
    }
  });
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
  const double* V = body.volume.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double s = 0.0;
    // The bonds at the reference positions: y = X_j − X_i.
    forIntactBonds(body, body.X.data(), i,
                   [&](std::uint32_t b, std::size_t j, const BondVectors& o) {
                     double L2 = 0.0;
                     for (int r = 0; r < 3; ++r) L2 += o.y[r] * o.y[r];
                     s += static_cast<double>(body.bondFactor[b]) * L2 * V[j];
                   });
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
  const LpsPass p(elasticity_, body, x, kind());
  return sumPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    return lpsPoint(body, x, p.k, p.theta.data(), i, nullptr);
  });
}

void LinearPeridynamicSolid::pointEnergies(const PeridynamicBody& body, const double* x,
                                           double* w) const {
  const LpsPass p(elasticity_, body, x, kind());
  forPoints(body.size(), materialThreads(body),
            [&](std::size_t i) { w[i] = lpsPoint(body, x, p.k, p.theta.data(), i, nullptr); });
}

double LinearPeridynamicSolid::forces(const PeridynamicBody& body, const double* x,
                                      double* f) const {
  const LpsPass p(elasticity_, body, x, kind());
  const std::uint8_t* fixed = body.prescribed.data();
  return sumPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double F[3];
    const double w = lpsPoint(body, x, p.k, p.theta.data(), i, F);
    for (int r = 0; r < 3; ++r) f[3 * i + r] = fixed[i] ? 0.0 : F[r];
    return w;
  });
}

void LinearPeridynamicSolid::implicitStiffness(const PeridynamicBody& body, const double* x,
                                               double* a) const {
  const LpsPass p(elasticity_, body, x, kind());
  const double cc = p.k.kappa * p.k.d * p.k.d + p.k.alpha;
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    const double imi = inverse(p.m[i]), ti = p.theta[i];
    double s = 0.0;
    forIntactBonds(body, x, i, [&](std::uint32_t b, std::size_t j, const BondVectors& o) {
      const double w = static_cast<double>(body.bondFactor[b]);
      const double imj = inverse(p.m[j]), e = o.l - o.L;
      s += p.V[j] * w * cc * (imi + imj);
      const double tij = forceState(p.k, ti, imi, w, o.L, e);
      const double tji = forceState(p.k, p.theta[j], imj, w, o.L, e);
      if (tij + tji > 0.0 && o.l > 0.0) s += p.V[j] * (tij + tji) / o.l;
    });
    a[i] = p.V[i] * s;
  });
}

void LinearPeridynamicSolid::tangent(const PeridynamicBody& body, const double* x, double* K,
                                     double* diag) const {
  const LpsPass p(elasticity_, body, x, kind());
  const double* X = body.X.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    const double imi = inverse(p.m[i]), ti = p.theta[i];
    double D[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    peridynamics::forTangentBonds(body, K, i, [&](std::uint32_t b, std::size_t j, double* Kb) {
      const BondVectors o = peridynamics::bondVectors(X, x, i, j);
      const double w = static_cast<double>(body.bondFactor[b]);
      const double imj = inverse(p.m[j]), e = o.l - o.L;
      const double L2 = o.L * o.L;
      // ∂²W_p/∂e² / (V_p V_q) of the end p (q the other end, of volume Vq).
      auto second = [&](double im, double Vq) {
        return p.k.kappa * p.k.d * p.k.d * w * w * L2 * Vq * im * im +
               p.k.alpha * w * im * (1.0 - w * L2 * Vq * im);
      };
      const double h = p.V[i] * p.V[j] * (second(imi, p.V[j]) + second(imj, p.V[i]));
      const double tij = forceState(p.k, ti, imi, w, o.L, e);
      const double tji = forceState(p.k, p.theta[j], imj, w, o.L, e);
      const double t = o.l > 0.0 ? std::max(0.0, p.V[i] * p.V[j] * (tij + tji) / o.l) : 0.0;
      double u[3];
      peridynamics::bondDirection(o.y, o.l, u);
      peridynamics::writeBondBlock(1.0, h - t, t, u, Kb, D);
    });
    std::copy(D, D + 9, diag + 9 * i);
  });
}

void LinearPeridynamicSolid::stress(const PeridynamicBody& body, const double* x,
                                    double* sigma) const {
  const LpsPass p(elasticity_, body, x, kind());
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    const double imi = inverse(p.m[i]), ti = p.theta[i];
    double S[6] = {0, 0, 0, 0, 0, 0};
    forIntactBonds(body, x, i, [&](std::uint32_t b, std::size_t j, const BondVectors& o) {
      if (!(o.l > 0.0)) return;
      const double w = static_cast<double>(body.bondFactor[b]);
      const double tij = forceState(p.k, ti, imi, w, o.L, o.l - o.L);
      peridynamics::addBondStress(p.V[j] * tij / o.l, o.y, S);
    });
    std::copy(S, S + 6, sigma + 6 * i);
  });
}

double LinearPeridynamicSolid::waveSpeed(double density) const {
  return std::sqrt(peridynamics::Isotropic(elasticity_).pWave(false) / density);
}

}  // namespace nsdyn
