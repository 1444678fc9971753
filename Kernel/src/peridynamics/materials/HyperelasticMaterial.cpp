#include "nsdyn/HyperelasticMaterial.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "peridynamics/materials/BondLoops.hpp"
#include "peridynamics/materials/MaterialSupport.hpp"
#include "peridynamics/materials/SymmetricEigen3.hpp"

namespace nsdyn {

using peridynamics::forPoints;
using peridynamics::materialThreads;
using peridynamics::sumPoints;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Reference and deformed vectors of bond i→j and ω = 1 / |ξ|² (no bond factor: see the header).
struct Bond {
  double e[3], y[3];
  double w;
};

inline Bond bondOf(const PeridynamicBody& body, const double* x, std::size_t i, std::uint32_t b) {
  const std::size_t j = body.neighbour[b];
  const double* X = body.X.data();
  Bond o;
  for (int r = 0; r < 3; ++r) {
    o.e[r] = X[3 * j + r] - X[3 * i + r];
    o.y[r] = x[3 * j + r] - x[3 * i + r];
  }
  o.w = 1.0 / (o.e[0] * o.e[0] + o.e[1] * o.e[1] + o.e[2] * o.e[2]);
  return o;
}

/// Per point data of materialData.
struct Data {
  const double* base;
  std::size_t n;
  const double* Kinv(std::size_t i) const { return base + 10 * i; }
  bool regular(std::size_t i) const { return base[10 * i + 9] != 0.0; }
  double Gs() const { return base[10 * n]; }
  double ceq() const { return base[10 * n + 1]; }
};

/// The per point data of a prepared body (nsdyn::Error naming it when it is not).
inline Data preparedData(const PeridynamicBody& body, const std::string& kind) {
  peridynamics::checkPrepared(body, kind, 10 * body.size() + 2);
  return Data{body.materialData().data(), body.size()};
}

/// G = Σ ω Y⊗ξ V_j over the intact bonds of point i (at x = X: the shape tensor K_i).
inline void momentOf(const PeridynamicBody& body, const double* x, std::size_t i, double* G) {
  std::fill(G, G + 9, 0.0);
  const double* V = body.volume.data();
  for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
    if (body.bondBroken[b]) continue;
    const Bond o = bondOf(body, x, i, b);
    const double wv = o.w * V[body.neighbour[b]];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) G[3 * r + c] += wv * o.y[r] * o.e[c];
  }
}

/// F_i = (Σ ω Y⊗ξ V_j) K_i⁻¹.
inline void gradientOf(const PeridynamicBody& body, const double* x, const Data& d, std::size_t i,
                       double* F) {
  double G[9];
  momentOf(body, x, i, G);
  peridynamics::mul3(G, d.Kinv(i), F);
}

/// ½ G_s Σ_j ω V_j |Y − F ξ|² (to be multiplied by V_i).
inline double stabilisationOf(const PeridynamicBody& body, const double* x, std::size_t i,
                              const double* F, double Gs) {
  if (Gs == 0.0) return 0.0;
  const double* V = body.volume.data();
  double s = 0.0;
  for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
    if (body.bondBroken[b]) continue;
    const Bond o = bondOf(body, x, i, b);
    double r2 = 0.0;
    for (int r = 0; r < 3; ++r) {
      const double d = o.y[r] - (F[3 * r] * o.e[0] + F[3 * r + 1] * o.e[1] + F[3 * r + 2] * o.e[2]);
      r2 += d * d;
    }
    s += o.w * V[body.neighbour[b]] * r2;
  }
  return 0.5 * Gs * s;
}

/// Principal stretches and directions of F (false when det F ≤ 0).
inline bool principal(const double* F, double* lambda, double* N) {
  if (!(peridynamics::det3(F) > 0.0)) return false;
  double C[9];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      C[3 * r + c] = F[r] * F[c] + F[3 + r] * F[3 + c] + F[6 + r] * F[6 + c];
  double w[3];
  peridynamics::symmetricEigen3(C, w, N);
  for (int a = 0; a < 3; ++a) {
    if (!(w[a] > 0.0)) return false;
    lambda[a] = std::sqrt(w[a]);
  }
  return true;
}

}  // namespace

double HyperelasticMaterial::shearModulus() const {
  return peridynamics::Isotropic(elasticity_).mu;
}
double HyperelasticMaterial::lameLambda() const {
  return peridynamics::Isotropic(elasticity_).lambda;
}

void HyperelasticMaterial::check(const PeridynamicBody& body) const {
  peridynamics::checkYoung(body, kind(), elasticity_);
  peridynamics::checkPoisson(body, kind(), elasticity_);
  if (peridynamics::planeBody(body))
    throw Error(peridynamics::materialWho(body, kind()), "a 3D body (thickness 0)",
                "thickness = " + peridynamics::num(body.options().thickness));
  if (!(stabilisation_ >= 0.0) || !std::isfinite(stabilisation_))
    throw Error(peridynamics::materialWho(body, kind()), "stabilisation >= 0",
                "stabilisation = " + peridynamics::num(stabilisation_));
}

void HyperelasticMaterial::prepare(PeridynamicBody& body) const {
  check(body);
  const std::size_t n = body.size();
  std::vector<double> data(10 * n + 2, 0.0);
  const double* X = body.X.data();
  forPoints(n, materialThreads(body), [&](std::size_t i) {
    double K[9];
    momentOf(body, X, i, K);
    if (peridynamics::inverse3(K, &data[10 * i])) data[10 * i + 9] = 1.0;
  });
  const double s0 = body.bulkSum(0), s1 = body.bulkSum(1);
  if (!(s0 > 0.0 && s1 > 0.0))
    throw Error(peridynamics::materialWho(body, kind()), "a bulk neighbourhood (bulkSum > 0)",
                "bulkSum(0) = " + peridynamics::num(s0));
  const peridynamics::Isotropic iso(elasticity_);
  data[10 * n] = stabilisation_ * iso.mu / s0;
  data[10 * n + 1] = 18.0 * iso.bulk / s1;
  body.materialData() = std::move(data);
}

bool HyperelasticMaterial::firstPiola(const double* F, double* P) const {
  double lambda[3], N[9], dW[3];
  if (!principal(F, lambda, N)) return false;
  stretchDerivatives(lambda, dW);
  double S[9];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      double v = 0.0;
      for (int a = 0; a < 3; ++a) v += dW[a] / lambda[a] * N[3 * r + a] * N[3 * c + a];
      S[3 * r + c] = v;
    }
  peridynamics::mul3(F, S, P);
  return true;
}

void HyperelasticMaterial::deformationGradients(const PeridynamicBody& body, const double* x,
                                                double* F) const {
  const Data d = preparedData(body, kind());
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    if (d.regular(i))
      gradientOf(body, x, d, i, F + 9 * i);
    else
      std::fill(F + 9 * i, F + 9 * i + 9, 0.0);
  });
}

void HyperelasticMaterial::pointEnergies(const PeridynamicBody& body, const double* x,
                                         double* w) const {
  const Data d = preparedData(body, kind());
  const double* V = body.volume.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    if (!d.regular(i)) {
      w[i] = 0.0;
      return;
    }
    double F[9], lambda[3], N[9];
    gradientOf(body, x, d, i, F);
    const double W = principal(F, lambda, N) ? strainEnergy(lambda) : kInf;
    w[i] = std::isfinite(W) ? V[i] * (W + stabilisationOf(body, x, i, F, d.Gs())) : kInf;
  });
}

double HyperelasticMaterial::energy(const PeridynamicBody& body, const double* x) const {
  std::vector<double> w(body.size());
  pointEnergies(body, x, w.data());
  return sumPoints(body.size(), materialThreads(body), [&](std::size_t i) { return w[i]; });
}

double HyperelasticMaterial::forces(const PeridynamicBody& body, const double* x, double* f) const {
  const std::size_t n = body.size();
  const int threads = materialThreads(body);
  const Data d = preparedData(body, kind());
  const double Gs = d.Gs();
  const double* V = body.volume.data();
  // Pass 1: F_i, Q_i = P_i K_i⁻¹ and the point energies.
  std::vector<double> FQ(18 * n, 0.0);
  const double W = sumPoints(n, threads, [&](std::size_t i) -> double {
    if (!d.regular(i)) return 0.0;
    double* F = &FQ[18 * i];
    double* Q = F + 9;
    gradientOf(body, x, d, i, F);
    double lambda[3], N[9], P[9];
    if (!principal(F, lambda, N)) return kInf;
    const double Wi = strainEnergy(lambda);
    if (!std::isfinite(Wi)) return kInf;
    firstPiola(F, P);
    peridynamics::mul3(P, d.Kinv(i), Q);
    return V[i] * (Wi + stabilisationOf(body, x, i, F, Gs));
  });
  // Pass 2: f_i = Σ_j V_i V_j (T_ij − T_ji).
  forPoints(n, threads, [&](std::size_t i) {
    double s[3] = {0.0, 0.0, 0.0};
    if (!body.prescribed[i]) {
      const bool ri = d.regular(i);
      for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
        if (body.bondBroken[b]) continue;
        const std::size_t j = body.neighbour[b];
        const Bond o = bondOf(body, x, i, b);
        double T[3] = {0.0, 0.0, 0.0};
        // T_ij = ω [Q_i ξ + G_s (Y − F_i ξ)]; − T_ji = − ω [Q_j (−ξ) + G_s (−Y + F_j ξ)] adds
        // the same form with the F, Q of j.
        auto add = [&](std::size_t p) {
          const double* F = &FQ[18 * p];
          const double* Q = F + 9;
          for (int r = 0; r < 3; ++r) {
            const double Qe = Q[3 * r] * o.e[0] + Q[3 * r + 1] * o.e[1] + Q[3 * r + 2] * o.e[2];
            const double Fe = F[3 * r] * o.e[0] + F[3 * r + 1] * o.e[1] + F[3 * r + 2] * o.e[2];
            T[r] += Qe + Gs * (o.y[r] - Fe);
          }
        };
        if (ri) add(i);
        if (d.regular(j)) add(j);
        const double wv = o.w * V[j];
        for (int r = 0; r < 3; ++r) s[r] += wv * T[r];
      }
    }
    for (int r = 0; r < 3; ++r) f[3 * i + r] = V[i] * s[r];
  });
  return W;
}

void HyperelasticMaterial::implicitStiffness(const PeridynamicBody& body, const double* x,
                                             double* a) const {
  const std::size_t n = body.size();
  const int threads = materialThreads(body);
  const Data d = preparedData(body, kind());
  const double Gs = d.Gs();
  const double* V = body.volume.data();
  // Pass 1: a bound A_k of the tangent modulus of each point at its F.
  std::vector<double> A(n, 0.0);
  forPoints(n, threads, [&](std::size_t k) {
    if (!d.regular(k)) return;
    double F[9], lambda[3], N[9], dW[3], H[9];
    gradientOf(body, x, d, k, F);
    if (!principal(F, lambda, N)) {  // inverted: the reference modulus
      lambda[0] = lambda[1] = lambda[2] = 1.0;
    }
    stretchDerivatives(lambda, dW);
    stretchHessian(lambda, H);
    double bound = 0.0;
    for (int r = 0; r < 3; ++r)
      bound = std::max(bound, std::abs(H[3 * r]) + std::abs(H[3 * r + 1]) + std::abs(H[3 * r + 2]));
    for (int p = 0; p < 3; ++p)
      for (int q = p + 1; q < 3; ++q) {
        bound = std::max(bound, std::abs((dW[p] + dW[q]) / (lambda[p] + lambda[q])));
        const double gap = lambda[p] - lambda[q];
        if (std::abs(gap) > 1e-6 * (lambda[p] + lambda[q]))
          bound = std::max(bound, std::abs((dW[p] - dW[q]) / gap));
        else
          bound = std::max(bound, std::abs(H[4 * p]) + std::abs(H[3 * p + q]));
      }
    A[k] = std::isfinite(bound) ? bound : 0.0;
  });
  // Pass 2: a_i = Σ_k V_k A_k |K_k⁻¹ g_ki|² + 2 G_s Σ_j ω V_i V_j.
  forPoints(n, threads, [&](std::size_t i) {
    double g[3] = {0.0, 0.0, 0.0}, s = 0.0, stab = 0.0;
    for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
      if (body.bondBroken[b]) continue;
      const std::size_t j = body.neighbour[b];
      const Bond o = bondOf(body, x, i, b);
      stab += o.w * V[j];
      for (int r = 0; r < 3; ++r) g[r] -= o.w * V[j] * o.e[r];
      if (d.regular(j)) {  // δF_j = d ⊗ ω V_i K_j⁻¹ ξ_ji, ξ_ji = −ξ
        const double* Ki = d.Kinv(j);
        double q2 = 0.0;
        for (int r = 0; r < 3; ++r) {
          const double v = Ki[3 * r] * o.e[0] + Ki[3 * r + 1] * o.e[1] + Ki[3 * r + 2] * o.e[2];
          q2 += v * v;
        }
        s += V[j] * A[j] * o.w * o.w * V[i] * V[i] * q2;
      }
    }
    if (d.regular(i)) {
      const double* Ki = d.Kinv(i);
      double q2 = 0.0;
      for (int r = 0; r < 3; ++r) {
        const double v = Ki[3 * r] * g[0] + Ki[3 * r + 1] * g[1] + Ki[3 * r + 2] * g[2];
        q2 += v * v;
      }
      s += V[i] * A[i] * q2;
    }
    a[i] = s + 2.0 * Gs * V[i] * stab;
  });
}

void HyperelasticMaterial::tangent(const PeridynamicBody& body, const double* x, double* K,
                                   double* diag) const {
  const Data d = preparedData(body, kind());
  const double Gs = d.Gs(), ceq = d.ceq();
  const double* V = body.volume.data();
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double D[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    peridynamics::forTangentBonds(body, K, i, [&](std::uint32_t b, std::size_t j, double* Kb) {
      const Bond o = bondOf(body, x, i, b);
      const double beta = static_cast<double>(body.bondFactor[b]);
      const double L = std::sqrt(1.0 / o.w);
      const double l = std::sqrt(o.y[0] * o.y[0] + o.y[1] * o.y[1] + o.y[2] * o.y[2]);
      double u[3];
      peridynamics::bondDirection(o.y, l, u);
      const double vv = V[i] * V[j];
      const double axial = vv * beta * ceq / L, iso = vv * 2.0 * Gs * o.w;
      peridynamics::writeBondBlock(1.0, axial, iso, u, Kb, D);
    });
    std::copy(D, D + 9, diag + 9 * i);
  });
}

void HyperelasticMaterial::stress(const PeridynamicBody& body, const double* x,
                                  double* sigma) const {
  const Data d = preparedData(body, kind());
  forPoints(body.size(), materialThreads(body), [&](std::size_t i) {
    double* s = sigma + 6 * i;
    std::fill(s, s + 6, 0.0);
    if (!d.regular(i)) return;
    double F[9], P[9];
    gradientOf(body, x, d, i, F);
    if (!firstPiola(F, P)) return;
    const double J = peridynamics::det3(F);
    auto sig = [&](int r, int c) {  // (P Fᵀ)_rc / J
      return (P[3 * r] * F[3 * c] + P[3 * r + 1] * F[3 * c + 1] + P[3 * r + 2] * F[3 * c + 2]) / J;
    };
    s[0] = sig(0, 0);
    s[1] = sig(1, 1);
    s[2] = sig(2, 2);
    s[3] = sig(1, 2);
    s[4] = sig(0, 2);
    s[5] = sig(0, 1);
  });
}

double HyperelasticMaterial::waveSpeed(double density) const {
  return std::sqrt(peridynamics::Isotropic(elasticity_).pWave(false) / density);
}

}  // namespace nsdyn
