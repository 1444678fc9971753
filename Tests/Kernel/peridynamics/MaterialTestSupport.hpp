// Shared checks of the peridynamic material tests (*MaterialTest.cpp): lattice bodies, forces
// against central finite differences of the energy, rigid motions, affine fields, the implicit
// stiffness bound, threads.
#ifndef NSDYN_TESTS_PERIDYNAMICS_MATERIALTESTSUPPORT_HPP
#define NSDYN_TESTS_PERIDYNAMICS_MATERIALTESTSUPPORT_HPP

#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <nsdyn/Error.hpp>
#include <nsdyn/PeridynamicBody.hpp>
#include <nsdyn/PeridynamicMaterial.hpp>

namespace material_test {

constexpr double kDx = 1e-3;  // lattice spacing (m)
constexpr double kRho = 1000.0;

/// A box lattice of nx × ny × nz points (nz = 1 with thickness > 0: a 2D sheet in z = 0).
/// Without surface correction every bond factor is 1 (the calibration tests of a bulk point).
inline std::unique_ptr<nsdyn::PeridynamicBody> lattice(
    int nx, int ny, int nz, std::shared_ptr<const nsdyn::PeridynamicMaterial> material,
    double thickness = 0.0, int threads = 1, const std::string& name = "block",
    bool surfaceCorrection = true) {
  std::vector<double> X, V;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        X.push_back(kDx * i);
        X.push_back(kDx * j);
        X.push_back(kDx * k);
        V.push_back(thickness > 0.0 ? kDx * kDx * thickness : kDx * kDx * kDx);
      }
  nsdyn::PeridynamicBodyOptions o;
  o.name = name;
  o.spacing = kDx;
  o.horizon = 3.0 * kDx;
  o.density = kRho;
  o.thickness = thickness;
  o.threads = threads;
  o.surfaceCorrection = surfaceCorrection;
  return std::make_unique<nsdyn::PeridynamicBody>(std::move(X), std::move(V), o,
                                                  std::move(material));
}

/// The index of lattice point (i, j, k) of an nx × ny lattice.
inline std::size_t at(int nx, int ny, int i, int j, int k) {
  return static_cast<std::size_t>((k * ny + j) * nx + i);
}

/// x = A X + t (A row-major 3×3).
inline std::vector<double> affine(const nsdyn::PeridynamicBody& b, const double* A,
                                  const double* t = nullptr) {
  std::vector<double> x(3 * b.size());
  for (std::size_t i = 0; i < b.size(); ++i)
    for (int r = 0; r < 3; ++r)
      x[3 * i + r] = A[3 * r] * b.X[3 * i] + A[3 * r + 1] * b.X[3 * i + 1] +
                     A[3 * r + 2] * b.X[3 * i + 2] + (t ? t[r] : 0.0);
  return x;
}

/// X + uniform random displacements of amplitude @p amp (seeded).
inline std::vector<double> perturbed(const nsdyn::PeridynamicBody& b, double amp,
                                     unsigned seed = 7) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-amp, amp);
  std::vector<double> x(b.X);
  for (double& v : x) v += u(rng);
  return x;
}

/// max_q |f_q + ∂W/∂x_q| / max_q |f_q| with central differences of step @p h, over the
/// free points; prescribed points must get exactly zero force (else returns 1).
inline double finiteDifferenceError(const nsdyn::PeridynamicBody& b, std::vector<double> x,
                                    double h) {
  const auto& m = b.material();
  std::vector<double> f(3 * b.size());
  const double W = m.forces(b, x.data(), f.data());
  if (std::abs(W - m.energy(b, x.data())) > 1e-14 * std::abs(W)) return 1.0;
  double err = 0.0, scale = 0.0;
  for (std::size_t q = 0; q < x.size(); ++q) {
    if (b.prescribed[q / 3]) {
      if (f[q] != 0.0) return 1.0;
      continue;
    }
    const double x0 = x[q];
    x[q] = x0 + h;
    const double Wp = m.energy(b, x.data());
    x[q] = x0 - h;
    const double Wm = m.energy(b, x.data());
    x[q] = x0;
    err = std::max(err, std::abs(f[q] + (Wp - Wm) / (2.0 * h)));
    scale = std::max(scale, std::abs(f[q]));
  }
  return err / scale;
}

/// A rotation (row-major) about a fixed oblique axis.
inline void rotation(double* R) {
  const double ax[3] = {0.36, -0.48, 0.8};  // unit
  const double a = 0.7, c = std::cos(a), s = std::sin(a);
  const double K[9] = {0, -ax[2], ax[1], ax[2], 0, -ax[0], -ax[1], ax[0], 0};
  for (int r = 0; r < 3; ++r)
    for (int q = 0; q < 3; ++q) {
      double kk = 0.0;
      for (int p = 0; p < 3; ++p) kk += K[3 * r + p] * K[3 * p + q];
      R[3 * r + q] = (r == q ? 1.0 : 0.0) + s * K[3 * r + q] + (1.0 - c) * kk;
    }
}

/// Relative change of W and of the forces (rotated back) under x → R x + t.
inline void rigidInvariance(const nsdyn::PeridynamicBody& b, const std::vector<double>& x,
                            double& energyChange, double& forceChange) {
  double R[9];
  rotation(R);
  const double t[3] = {0.3, -0.1, 0.2};
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < b.size(); ++i)
    for (int r = 0; r < 3; ++r)
      y[3 * i + r] =
          R[3 * r] * x[3 * i] + R[3 * r + 1] * x[3 * i + 1] + R[3 * r + 2] * x[3 * i + 2] + t[r];
  std::vector<double> f(x.size()), g(x.size());
  const double W = b.material().forces(b, x.data(), f.data());
  const double Wr = b.material().forces(b, y.data(), g.data());
  energyChange = std::abs(Wr - W) / std::abs(W);
  double err = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i)
    for (int r = 0; r < 3; ++r) {
      const double Rf =
          R[3 * r] * f[3 * i] + R[3 * r + 1] * f[3 * i + 1] + R[3 * r + 2] * f[3 * i + 2];
      err = std::max(err, std::abs(Rf - g[3 * i + r]));
      scale = std::max(scale, std::abs(f[3 * i + r]));
    }
  forceChange = err / scale;
}

/// The continuum energy density ½ ε:C:ε of the isotropic solid (λ, μ) at the symmetric ε.
inline double linearDensity(const double* e, double lambda, double mu) {
  const double tr = e[0] + e[4] + e[8];
  double ee = 0.0;
  for (int k = 0; k < 9; ++k) ee += e[k] * e[k];
  return 0.5 * lambda * tr * tr + mu * ee;
}

/// Young's modulus and Poisson's ratio along the lattice axes of point @p c, from its energy
/// under the small strains diag(e, 0, 0) and diag(e, e, 0) (C11, C12 of the cubic or square
/// lattice; plane stress for 2D bodies).
inline void axisModuli(const nsdyn::PeridynamicBody& b, std::size_t c, double& E, double& nu) {
  const double e = 1e-7;
  const double A1[9] = {1 + e, 0, 0, 0, 1, 0, 0, 0, 1}, A2[9] = {1 + e, 0, 0, 0, 1 + e, 0, 0, 0, 1};
  std::vector<double> w(b.size());
  b.material().pointEnergies(b, affine(b, A1).data(), w.data());
  const double C11 = 2.0 * w[c] / (b.volume[c] * e * e);
  b.material().pointEnergies(b, affine(b, A2).data(), w.data());
  const double C12 = w[c] / (b.volume[c] * e * e) - C11;
  if (b.options().thickness > 0.0) {
    E = (C11 * C11 - C12 * C12) / C11;
    nu = C12 / C11;
  } else {
    E = (C11 - C12) * (C11 + 2.0 * C12) / (C11 + C12);
    nu = C12 / (C11 + C12);
  }
}

/// The message of the nsdyn::Error thrown by @p make ("" when none).
template <class Make>
std::string errorOf(Make make) {
  try {
    make();
  } catch (const nsdyn::Error& e) {
    return e.what();
  }
  return "";
}

/// Energy and force bits equal between two bodies built alike (1 and 2 threads).
inline bool sameBits(const nsdyn::PeridynamicBody& a, const nsdyn::PeridynamicBody& b,
                     const std::vector<double>& x) {
  std::vector<double> fa(x.size()), fb(x.size()), sa(6 * a.size()), sb(6 * b.size());
  const double Wa = a.material().forces(a, x.data(), fa.data());
  const double Wb = b.material().forces(b, x.data(), fb.data());
  const double Ea = a.material().energy(a, x.data()), Eb = b.material().energy(b, x.data());
  a.material().stress(a, x.data(), sa.data());
  b.material().stress(b, x.data(), sb.data());
  return std::memcmp(&Wa, &Wb, sizeof Wa) == 0 && std::memcmp(&Ea, &Eb, sizeof Ea) == 0 &&
         std::memcmp(fa.data(), fb.data(), fa.size() * sizeof(double)) == 0 &&
         std::memcmp(sa.data(), sb.data(), sa.size() * sizeof(double)) == 0;
}

/// Forces and energy exactly zero at the reference of a 7×6×5 lattice of @p material, and W
/// and f invariant under a rigid motion of a perturbed state (printed after @p label).
inline void checkReferenceAndRigidMotion(std::shared_ptr<const nsdyn::PeridynamicMaterial> material,
                                         const char* label) {
  auto b = lattice(7, 6, 5, std::move(material));
  std::vector<double> f(3 * b->size(), 1.0);
  CPPUNIT_ASSERT_EQUAL(0.0, b->material().forces(*b, b->X.data(), f.data()));
  for (double v : f) CPPUNIT_ASSERT_EQUAL(0.0, v);
  double dW, dF;
  rigidInvariance(*b, perturbed(*b, 0.02 * kDx), dW, dF);
  std::printf("\n  %s rigid motion: dW/W = %.2e, df/f = %.2e\n", label, dW, dF);
  CPPUNIT_ASSERT(dW <= 1e-10 && dF <= 1e-8);
}

/// finiteDifferenceError of a perturbed 12×10 sheet (thickness 1 mm) of @p material.
inline double sheetFiniteDifferenceError(
    std::shared_ptr<const nsdyn::PeridynamicMaterial> material) {
  auto s = lattice(12, 10, 1, std::move(material), 1e-3, 1, "sheet");
  return finiteDifferenceError(*s, perturbed(*s, 0.02 * kDx), 1e-5 * kDx);
}

/// Energy @p w and volume @p volume of the centre point of a 13×13 sheet (thickness 2 mm,
/// no surface correction) of @p material under the equibiaxial strain diag(e, e, 0).
inline void planeEquibiaxial(std::shared_ptr<const nsdyn::PeridynamicMaterial> material, double e,
                             double& w, double& volume) {
  auto s = lattice(13, 13, 1, std::move(material), 2e-3, 1, "sheet", false);
  const double A[9] = {1 + e, 0, 0, 0, 1 + e, 0, 0, 0, 1};
  const auto x = affine(*s, A);
  std::vector<double> wp(s->size());
  s->material().pointEnergies(*s, x.data(), wp.data());
  const std::size_t c = at(13, 13, 6, 6, 0);
  w = wp[c];
  volume = s->volume[c];
}

/// The largest d·(−∂f_i/∂x_i)d / a_i over 4 random unit directions d (seeded) at every
/// @p stride-th point of @p b at state @p x, the curvature by central differences of the
/// forces of @p m: at most 1 when the implicit stiffness @p a bounds it.
inline double worstImplicitCurvature(const nsdyn::PeridynamicBody& b,
                                     const nsdyn::PeridynamicMaterial& m,
                                     const std::vector<double>& x, const std::vector<double>& a,
                                     std::size_t stride) {
  const std::size_t n = b.size();
  std::vector<double> fp(3 * n), fm(3 * n);
  std::mt19937 rng(5);
  std::normal_distribution<double> g;
  const double h = 1e-6 * kDx;
  double worst = 0.0;
  for (std::size_t p = 0; p < n; p += stride)
    for (int trial = 0; trial < 4; ++trial) {
      double d[3] = {g(rng), g(rng), g(rng)};
      const double nd = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      std::vector<double> y = x;
      for (int r = 0; r < 3; ++r) y[3 * p + r] += h * d[r] / nd;
      m.forces(b, y.data(), fp.data());
      for (int r = 0; r < 3; ++r) y[3 * p + r] -= 2.0 * h * d[r] / nd;
      m.forces(b, y.data(), fm.data());
      double curv = 0.0;
      for (int r = 0; r < 3; ++r) curv -= (fp[3 * p + r] - fm[3 * p + r]) / (2.0 * h) * d[r] / nd;
      worst = std::max(worst, curv / a[p]);
    }
  return worst;
}

/// sameBits of two 14×12×12 lattices of @p material (1 and 2 threads) at the state
/// @p state(body).
template <class State>
bool sameBitsOnTwoThreads(const std::shared_ptr<const nsdyn::PeridynamicMaterial>& material,
                          State state) {
  auto b1 = lattice(14, 12, 12, material, 0.0, 1);
  auto b2 = lattice(14, 12, 12, material, 0.0, 2);
  return sameBits(*b1, *b2, state(*b1));
}

}  // namespace material_test

#endif
