// NeoHookeanMaterial and StVenantKirchhoffMaterial (correspondence; Kernel/src/peridynamics/
// materials): forces = −∇W by central differences at large strain, zero at the reference
// state, rigid motions, affine fields exact (F = A at every point, the energy and the first
// Piola stress of the closed forms at λ = 2), the linear stress at small strain, an inverted
// body at +∞ energy, the implicit stiffness as a majorant, bad input, thread independence.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <vector>

#include <nsdyn/NeoHookeanMaterial.hpp>
#include <nsdyn/StVenantKirchhoffMaterial.hpp>

#include "MaterialTestSupport.hpp"

using namespace nsdyn;
using namespace material_test;

namespace {

constexpr double kE = 1e7;
constexpr double kNu = 0.3;
const double kMu = kE / (2.0 * (1.0 + kNu));
const double kLa = kE * kNu / ((1.0 + kNu) * (1.0 - 2.0 * kNu));

PeridynamicElasticity elastic(double nu = kNu, double E = kE) {
  PeridynamicElasticity e;
  e.youngModulus = E;
  e.poissonRatio = nu;
  return e;
}
std::shared_ptr<HyperelasticMaterial> neo(double nu = kNu, double stab = 1.0) {
  return std::make_shared<NeoHookeanMaterial>(elastic(nu), stab);
}
std::shared_ptr<HyperelasticMaterial> svk() {
  return std::make_shared<StVenantKirchhoffMaterial>(elastic());
}

/// A rotated, stretched and randomly perturbed configuration (large strain).
std::vector<double> largeStrain(const PeridynamicBody& b) {
  double R[9], A[9];
  rotation(R);
  const double S[9] = {1.3, 0.1, 0.0, 0.0, 0.85, 0.05, 0.0, 0.0, 1.1};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      A[3 * r + c] = R[3 * r] * S[c] + R[3 * r + 1] * S[3 + c] + R[3 * r + 2] * S[6 + c];
  auto x = affine(b, A);
  const auto p = perturbed(b, 0.03 * kDx);
  for (std::size_t q = 0; q < x.size(); ++q) x[q] += p[q] - b.X[q];
  return x;
}

}  // namespace

class HyperelasticMaterialTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(HyperelasticMaterialTest);
  CPPUNIT_TEST(testFiniteDifferences);
  CPPUNIT_TEST(testReferenceAndRigidMotion);
  CPPUNIT_TEST(testUniaxialStretch);
  CPPUNIT_TEST(testSmallStrain);
  CPPUNIT_TEST(testInverted);
  CPPUNIT_TEST(testImplicitStiffness);
  CPPUNIT_TEST(testBadInput);
  CPPUNIT_TEST(testThreads);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testFiniteDifferences() {
    for (auto m : {neo(), svk()}) {
      auto b = lattice(7, 6, 5, m);
      b->prescribe([](const double* X) { return X[2] < 0.5 * kDx; });
      const double err = finiteDifferenceError(*b, largeStrain(*b), 1e-5 * kDx);
      std::printf("\n  %s: |f + dW/dx| / |f| = %.2e", m->kind().c_str(), err);
      CPPUNIT_ASSERT(err <= 1e-5);
    }
    std::printf("\n");
  }

  void testReferenceAndRigidMotion() {
    for (auto m : {neo(), svk()}) {
      auto b = lattice(7, 6, 5, m);
      std::vector<double> f(3 * b->size());
      const double W = m->forces(*b, b->X.data(), f.data());
      double fmax = 0.0, vol = 0.0;
      for (double v : f) fmax = std::max(fmax, std::abs(v));
      for (double v : b->volume) vol += v;
      CPPUNIT_ASSERT(std::abs(W) <= 1e-20 * kE * vol);
      CPPUNIT_ASSERT(fmax <= 1e-10 * kE * kDx * kDx);
      double dW, dF;
      rigidInvariance(*b, largeStrain(*b), dW, dF);
      std::printf("\n  %s rigid motion: dW/W = %.2e, df/f = %.2e", m->kind().c_str(), dW, dF);
      CPPUNIT_ASSERT(dW <= 1e-10 && dF <= 1e-8);
    }
    std::printf("\n");
  }

  void testUniaxialStretch() {
    const double L = 2.0, lnL = std::log(L);
    const double Wneo = 0.5 * kMu * (L * L - 1.0) - kMu * lnL + 0.5 * kLa * lnL * lnL;
    const double Eg = 0.5 * (L * L - 1.0);
    const double Wsvk = 0.5 * kLa * Eg * Eg + kMu * Eg * Eg;
    const double A[9] = {L, 0, 0, 0, 1, 0, 0, 0, 1};
    for (auto m : {neo(), svk()}) {
      const double Wc = m->kind() == "neo-hookean" ? Wneo : Wsvk;
      auto b = lattice(9, 8, 7, m);
      const auto x = affine(*b, A);
      std::vector<double> w(b->size()), F(9 * b->size());
      m->pointEnergies(*b, x.data(), w.data());
      m->deformationGradients(*b, x.data(), F.data());
      double worst = 0.0, fworst = 0.0;
      for (std::size_t i = 0; i < b->size(); ++i) {
        worst = std::max(worst, std::abs(w[i] / (b->volume[i] * Wc) - 1.0));
        for (int k = 0; k < 9; ++k) fworst = std::max(fworst, std::abs(F[9 * i + k] - A[k]));
      }
      std::printf("\n  %s at lambda = 2: max |w_i / (V_i W) - 1| = %.2e, max |F - A| = %.2e",
                  m->kind().c_str(), worst, fworst);
      CPPUNIT_ASSERT(worst <= 1e-10 && fworst <= 1e-12);
      // First Piola stress: diagonal closed forms, and P(R F) = R P(F).
      double P[9], PR[9], R[9], RA[9];
      CPPUNIT_ASSERT(m->firstPiola(A, P));
      const double P11 = m->kind() == "neo-hookean" ? kMu * (L - 1.0 / L) + kLa * lnL / L
                                                    : (kLa * Eg + 2.0 * kMu * Eg) * L;
      const double P22 = m->kind() == "neo-hookean" ? kLa * lnL : kLa * Eg;
      CPPUNIT_ASSERT(std::abs(P[0] / P11 - 1.0) <= 1e-12);
      CPPUNIT_ASSERT(std::abs(P[4] / P22 - 1.0) <= 1e-12 && std::abs(P[8] / P22 - 1.0) <= 1e-12);
      CPPUNIT_ASSERT(std::abs(P[1]) + std::abs(P[2]) + std::abs(P[5]) <= 1e-12 * P11);
      rotation(R);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) RA[3 * r + c] = R[3 * r + c] * A[4 * c];
      CPPUNIT_ASSERT(m->firstPiola(RA, PR));
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
          const double want = R[3 * r] * P[c] + R[3 * r + 1] * P[3 + c] + R[3 * r + 2] * P[6 + c];
          CPPUNIT_ASSERT(std::abs(PR[3 * r + c] - want) <= 1e-12 * P11);
        }
      // A point whose neighbours all have full horizons carries no force in a homogeneous
      // field (closer to the surface, K_j⁻¹ of the neighbours differ: the correspondence
      // models' surface effect).
      auto big = lattice(13, 13, 13, m);
      const auto xb = affine(*big, A);
      std::vector<double> f(3 * big->size());
      m->forces(*big, xb.data(), f.data());
      const std::size_t c = at(13, 13, 6, 6, 6);
      for (int r = 0; r < 3; ++r) CPPUNIT_ASSERT(std::abs(f[3 * c + r]) <= 1e-9 * P11 * kDx * kDx);
    }
    std::printf("\n");
  }

  void testSmallStrain() {
    const double e = 1e-4;
    const double eps[9] = {e,       0.5 * e,  -0.3 * e, 0.5 * e, -0.4 * e,
                           0.2 * e, -0.3 * e, 0.2 * e,  0.7 * e};
    double A[9];
    for (int k = 0; k < 9; ++k) A[k] = (k % 4 == 0 ? 1.0 : 0.0) + eps[k];
    auto b = lattice(9, 9, 9, neo(), 0.0, 1, "block", false);
    const auto x = affine(*b, A);
    const std::size_t c = at(9, 9, 4, 4, 4);
    std::vector<double> w(b->size()), s(6 * b->size());
    b->material().pointEnergies(*b, x.data(), w.data());
    b->material().stress(*b, x.data(), s.data());
    const double ratio = w[c] / (b->volume[c] * linearDensity(eps, kLa, kMu));
    const double tr = eps[0] + eps[4] + eps[8];
    const int rc[6][2] = {{0, 0}, {1, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}};
    double worst = 0.0, scale = 0.0;
    for (int k = 0; k < 6; ++k) {
      const int r = rc[k][0], q = rc[k][1];
      const double lin = kLa * tr * (r == q ? 1.0 : 0.0) + 2.0 * kMu * eps[3 * r + q];
      worst = std::max(worst, std::abs(s[6 * c + k] - lin));
      scale = std::max(scale, std::abs(lin));
    }
    std::printf(
        "\n  neo-hookean small strain: energy / linear %.6f, stress error %.2e "
        "(relative)\n",
        ratio, worst / scale);
    CPPUNIT_ASSERT(std::abs(ratio - 1.0) <= 1e-3);
    CPPUNIT_ASSERT(worst <= 1e-2 * scale);
  }

  void testInverted() {
    auto b = lattice(5, 5, 5, neo());
    std::vector<double> x(b->X), f(x.size());
    for (std::size_t i = 0; i < b->size(); ++i) x[3 * i] = -x[3 * i];  // det F = −1
    CPPUNIT_ASSERT(std::isinf(b->material().energy(*b, x.data())));
    CPPUNIT_ASSERT(std::isinf(b->material().forces(*b, x.data(), f.data())));
  }

  void testImplicitStiffness() {
    for (auto m : {neo(), svk()}) {
      auto b = lattice(6, 5, 5, m);
      const auto x = largeStrain(*b);
      std::vector<double> a(b->size());
      m->implicitStiffness(*b, x.data(), a.data());
      const double worst = worstImplicitCurvature(*b, *m, x, a, 5);
      std::printf("\n  %s max d.H_ii.d / a_i = %.3f (<= 1)", m->kind().c_str(), worst);
      CPPUNIT_ASSERT(worst <= 1.0 + 1e-6);
    }
    std::printf("\n");
  }

  void testBadInput() {
    auto msg = errorOf([] { lattice(5, 5, 5, neo(0.5)); });
    CPPUNIT_ASSERT(msg.find("'block'") != std::string::npos &&
                   msg.find("nu = 0.5") != std::string::npos);
    msg = errorOf([] { lattice(6, 6, 1, neo(), 1e-3, 1, "cloth"); });
    CPPUNIT_ASSERT(msg.find("'cloth'") != std::string::npos &&
                   msg.find("thickness = 0.001") != std::string::npos);
    msg = errorOf([] { lattice(5, 5, 5, neo(0.3, -1.0)); });
    CPPUNIT_ASSERT(msg.find("stabilisation = -1") != std::string::npos);
    msg = errorOf(
        [] { lattice(5, 5, 5, std::make_shared<StVenantKirchhoffMaterial>(elastic(0.3, -5.0))); });
    CPPUNIT_ASSERT(msg.find("E = -5") != std::string::npos);
  }

  void testThreads() {
    for (auto m : {neo(), svk()}) CPPUNIT_ASSERT(sameBitsOnTwoThreads(m, largeStrain));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(HyperelasticMaterialTest);
