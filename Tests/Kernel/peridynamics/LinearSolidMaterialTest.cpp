// LinearPeridynamicSolid (LPS; Kernel/src/peridynamics/materials): forces = −∇W by central
// differences (3D at ν = 0.3 and −0.5, 2D plane stress), zero at the reference state, rigid
// motions, the bulk calibration (ν = 0.3: isotropic exact, deviatoric cubic mean), the virial
// stress, the implicit stiffness as a majorant, bad constants refused, thread independence.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include <nsdyn/LinearPeridynamicSolid.hpp>

#include "MaterialTestSupport.hpp"

using namespace nsdyn;
using namespace material_test;

namespace {

constexpr double kE = 1e9;

std::shared_ptr<LinearPeridynamicSolid> lps(
    double nu = 0.3, double E = kE,
    PeridynamicCalibration calibration = PeridynamicCalibration::Isotropic) {
  PeridynamicElasticity e;
  e.calibration = calibration;
  e.youngModulus = E;
  e.poissonRatio = nu;
  return std::make_shared<LinearPeridynamicSolid>(e);
}

}  // namespace

class LinearSolidMaterialTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LinearSolidMaterialTest);
  CPPUNIT_TEST(testFiniteDifferences);
  CPPUNIT_TEST(testReferenceAndRigidMotion);
  CPPUNIT_TEST(testBulkCalibration);
  CPPUNIT_TEST(testLatticeAxes);
  CPPUNIT_TEST(testImplicitStiffness);
  CPPUNIT_TEST(testBadInput);
  CPPUNIT_TEST(testThreads);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testFiniteDifferences() {
    for (double nu : {0.3, -0.5}) {
      auto b = lattice(7, 6, 5, lps(nu));
      b->prescribe([](const double* X) { return X[1] < 0.5 * kDx; });
      const double err = finiteDifferenceError(*b, perturbed(*b, 0.02 * kDx), 1e-5 * kDx);
      std::printf("\n  LPS 3D nu = %.1f: |f + dW/dx| / |f| = %.2e", nu, err);
      CPPUNIT_ASSERT(err <= 1e-5);
    }
    const double err = sheetFiniteDifferenceError(lps(0.3));
    std::printf("\n  LPS 2D: |f + dW/dx| / |f| = %.2e\n", err);
    CPPUNIT_ASSERT(err <= 1e-5);
  }

  void testReferenceAndRigidMotion() { checkReferenceAndRigidMotion(lps(), "LPS"); }

  void testBulkCalibration() {
    const double nu = 0.3, mu = kE / (2.0 * (1.0 + nu)),
                 la = kE * nu / ((1.0 + nu) * (1.0 - 2.0 * nu));
    auto b = lattice(9, 9, 9, lps(nu), 0.0, 1, "block", false);
    const std::size_t c = at(9, 9, 4, 4, 4);
    const double e = 1e-6;
    const double strains[3][9] = {
        {e, 0, 0, 0, e, 0, 0, 0, e}, {e, 0, 0, 0, -e, 0, 0, 0, 0}, {0, e, 0, e, 0, 0, 0, 0, 0}};
    double ratio[3], sig[3][6];
    for (int s = 0; s < 3; ++s) {
      double A[9];
      for (int k = 0; k < 9; ++k) A[k] = (k % 4 == 0 ? 1.0 : 0.0) + strains[s][k];
      const auto x = affine(*b, A);
      std::vector<double> w(b->size()), st(6 * b->size());
      b->material().pointEnergies(*b, x.data(), w.data());
      b->material().stress(*b, x.data(), st.data());
      ratio[s] = w[c] / (b->volume[c] * linearDensity(strains[s], la, mu));
      for (int k = 0; k < 6; ++k) sig[s][k] = st[6 * c + k];
    }
    const double mean = 0.4 * ratio[1] + 0.6 * ratio[2];
    std::printf(
        "\n  LPS bulk point / continuum (nu = 0.3): isotropic %.9f, axial-deviatoric "
        "%.5f, shear %.5f, cubic mean %.7f\n",
        ratio[0], ratio[1], ratio[2], mean);
    CPPUNIT_ASSERT(std::abs(ratio[0] - 1.0) <= 1e-6);
    CPPUNIT_ASSERT(std::abs(mean - 1.0) <= 1e-4);
    const double p = (3.0 * la + 2.0 * mu) * e;
    for (int k = 0; k < 3; ++k) CPPUNIT_ASSERT(std::abs(sig[0][k] / p - 1.0) <= 1e-5);
    const double GE = sig[1][0] / (2.0 * e), GT = sig[2][5] / (2.0 * e);
    std::printf("  LPS stress: G_axial / mu = %.5f, G_shear / mu = %.5f, mean %.6f\n", GE / mu,
                GT / mu, (0.4 * GE + 0.6 * GT) / mu);
    CPPUNIT_ASSERT(std::abs((0.4 * GE + 0.6 * GT) / mu - 1.0) <= 1e-2);
    // 2D plane stress, equibiaxial: E ε² / (1 − ν) per unit volume.
    double w, volume;
    planeEquibiaxial(lps(nu), e, w, volume);
    const double r2 = w / (volume * kE * e * e / (1.0 - nu));
    std::printf("  LPS 2D bulk point / plane-stress continuum (equibiaxial): %.9f\n", r2);
    CPPUNIT_ASSERT(std::abs(r2 - 1.0) <= 1e-6);
  }

  void testLatticeAxes() {
    // LatticeAxes: E and ν along the axes exact (3D and plane stress); isotropic: E soft.
    double E[4], nu[4];
    int k = 0;
    for (auto cal : {PeridynamicCalibration::Isotropic, PeridynamicCalibration::LatticeAxes}) {
      auto b = lattice(9, 9, 9, lps(0.3, kE, cal), 0.0, 1, "block", false);
      axisModuli(*b, at(9, 9, 4, 4, 4), E[k], nu[k]);
      auto s = lattice(13, 13, 1, lps(0.3, kE, cal), 2e-3, 1, "sheet", false);
      axisModuli(*s, at(13, 13, 6, 6, 0), E[k + 2], nu[k + 2]);
      ++k;
    }
    std::printf(
        "\n  LPS along the lattice axes, E_axis / E (nu_axis): 3D isotropic %.4f (%.4f), "
        "axes %.6f (%.6f); 2D isotropic %.4f (%.4f), axes %.6f (%.6f)\n",
        E[0] / kE, nu[0], E[1] / kE, nu[1], E[2] / kE, nu[2], E[3] / kE, nu[3]);
    for (int q : {1, 3}) {
      CPPUNIT_ASSERT(std::abs(E[q] / kE - 1.0) <= 1e-5);
      CPPUNIT_ASSERT(std::abs(nu[q] - 0.3) <= 1e-5);
    }
    CPPUNIT_ASSERT(E[0] < 0.9 * kE);
  }

  void testImplicitStiffness() {
    auto b = lattice(6, 5, 5, lps());
    const auto& m = b->material();
    const auto x = perturbed(*b, 0.05 * kDx, 11);
    std::vector<double> a(b->size());
    m.implicitStiffness(*b, x.data(), a.data());
    const double worst = worstImplicitCurvature(*b, m, x, a, 5);
    std::printf("\n  LPS max d.H_ii.d / a_i = %.3f (<= 1)\n", worst);
    CPPUNIT_ASSERT(worst <= 1.0 + 1e-6);
    CPPUNIT_ASSERT(worst >= 0.05);  // not a useless bound
    CPPUNIT_ASSERT(!m.exactTangent());
  }

  void testBadInput() {
    auto msg = errorOf([] { lattice(5, 5, 5, lps(0.5)); });
    CPPUNIT_ASSERT(msg.find("'block'") != std::string::npos &&
                   msg.find("nu = 0.5") != std::string::npos);
    msg = errorOf([] { lattice(5, 5, 5, lps(-1.0)); });
    CPPUNIT_ASSERT(msg.find("nu = -1") != std::string::npos);
    msg = errorOf([] { lattice(5, 5, 5, lps(0.3, 0.0), 0.0, 1, "slab"); });
    CPPUNIT_ASSERT(msg.find("'slab'") != std::string::npos &&
                   msg.find("E = 0") != std::string::npos);
  }

  void testThreads() {
    CPPUNIT_ASSERT(sameBitsOnTwoThreads(
        lps(), [](const PeridynamicBody& b) { return perturbed(b, 0.02 * kDx); }));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LinearSolidMaterialTest);
