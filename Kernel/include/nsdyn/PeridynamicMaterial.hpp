/// @file PeridynamicMaterial.hpp
/// @brief The material of a peridynamic body: energy, internal forces, the stiffness the
///        successive substitution keeps implicit, the bond tangent of Newton, stress, fracture.
///        One class per model (BondBasedMaterial, LinearPeridynamicSolid, NeoHookeanMaterial,
///        StVenantKirchhoffMaterial, SheetMaterial); a new model is a new class.
#ifndef NSDYN_PERIDYNAMICMATERIAL_HPP
#define NSDYN_PERIDYNAMICMATERIAL_HPP

#include <cstddef>
#include <limits>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

class PeridynamicBody;

/// How the bond-based and LPS models set their constants on the lattice, whose discrete
/// sums are cubic, not isotropic (at δ = 3Δx a bulk point's two deviatoric modes differ by
/// ~25 %): no choice makes every small strain exact.
enum class PeridynamicCalibration {
  /// The bulk modulus exact and the isotropic (orientation) mean of the deviatoric response
  /// exact. Along a lattice axis, at δ = 3Δx: E_axis = 0.890 E (bond-based 3D), 0.854 E (LPS
  /// 3D, ν = 0.3), 1.023 E (both in 2D).
  Isotropic,
  /// Young's modulus along the lattice axes exact (and, for LPS, the bulk modulus and the
  /// Poisson ratio along the axes too): bond-based c ×1.124 at δ = 3Δx in 3D (K +12 %, ν
  /// along the axes 0.278); LPS the deviatoric constant scaled so that the axial mode
  /// (ε_xx = −ε_yy) has G exactly.
  LatticeAxes
};

/// Elastic constants shared by the models (checked by each model's check()).
struct NSDYN_KERNEL_API PeridynamicElasticity {
  double youngModulus = 0.0;   ///< E (Pa, > 0)
  double poissonRatio = 0.25;  ///< ν (bond-based: 1/4 in 3D, 1/3 in 2D; others (−1, 1/2))
  /// Critical stretch s₀ of a bond (fracture); +∞: no fracture. Or set from the fracture
  /// energy G₀ by the model (BondBasedMaterial::criticalStretchFromEnergy).
  double criticalStretch = std::numeric_limits<double>::infinity();
  /// Bond-based and LPS models only (the correspondence models are isotropic). The default,
  /// LatticeAxes, makes E exact along the axes of the generators' lattice (bars and plates
  /// cut along them: the checks of doc/peridynamics.md); Isotropic keeps K exact instead.
  PeridynamicCalibration calibration = PeridynamicCalibration::LatticeAxes;
};

/// Abstract material. Every pass runs over points (OpenMP, static schedule, each point
/// written by one thread only): the same bits for any thread count. Prescribed points take
/// part in the bonds (their positions move the others) but receive no force.
class NSDYN_KERNEL_API PeridynamicMaterial {
 public:
  virtual ~PeridynamicMaterial() = default;
  /// "bond-based", "lps", "neo-hookean", "saint-venant-kirchhoff", "sheet".
  virtual std::string kind() const = 0;
  const PeridynamicElasticity& elasticity() const { return elasticity_; }
  double criticalStretch() const { return elasticity_.criticalStretch; }

  /// nsdyn::Error naming @p body.name(), the parameter and the value when the model does not
  /// accept the body or its constants (E ≤ 0, ν outside the model's range, a 2D model on a
  /// 3D body, ...).
  virtual void check(const PeridynamicBody& body) const = 0;
  /// Per-point data the model keeps in body.materialData() (weighted volumes, shape tensors,
  /// micromodulus...), computed at the reference configuration with the intact bonds.
  virtual void prepare(PeridynamicBody& body) const = 0;

  /// Elastic energy W(x) (J) of the body at positions @p x (3n).
  virtual double energy(const PeridynamicBody& body, const double* x) const = 0;
  /// Internal forces f = −∂W/∂x at @p x, written (not added) into @p f (3n); zero on
  /// prescribed points. Returns W(x) (computed on the way).
  virtual double forces(const PeridynamicBody& body, const double* x, double* f) const = 0;
  /// Per point i, a stiffness a_i ≥ 0 (N/m) such that (m_i/(h²θ²) + a_i) majorises the
  /// diagonal of the Hessian of W along any direction at @p x: the part of the force the
  /// successive substitution keeps implicit (x_i ← x_i + g_i / (m_i + h²θ² a_i), g the
  /// gradient of the step energy). Written into @p a (n).
  virtual void implicitStiffness(const PeridynamicBody& body, const double* x, double* a) const = 0;
  /// The Hessian of W at @p x as 3×3 blocks (Newton): for each directed bond b = (i→j), in
  /// the CSR order, K[9b..9b+9] = ∂f_i/∂x_j (row-major); the diagonal blocks ∂f_i/∂x_i into
  /// @p diag (9n). For models whose exact Hessian couples beyond bonds (state-based,
  /// correspondence) this is the bond part only and says so (exactTangent() false).
  virtual void tangent(const PeridynamicBody& body, const double* x, double* K,
                       double* diag) const = 0;
  virtual bool exactTangent() const = 0;
  /// True for the models whose energy is a sum over bonds, so that tangent() is their Hessian
  /// on the bond pattern (up to the clamping of the negative geometric stiffness of a
  /// compressed bond): the contact response of PeridynamicSceneSystem uses it. False for the
  /// state-based and correspondence models (their Hessian couples points two horizons apart).
  virtual bool bondwiseTangent() const { return false; }
  /// Cauchy stress at every point (6 per point: xx yy zz yz xz xy), for outputs.
  virtual void stress(const PeridynamicBody& body, const double* x, double* sigma) const = 0;
  /// Each point's share w_i of W(x) (J; Σ_i w_i = energy(x) up to round-off), into @p w (n):
  /// energy density fields for outputs, and the tests of the calibration (a bulk point under
  /// an affine deformation holds V_i × the continuum energy density).
  virtual void pointEnergies(const PeridynamicBody& body, const double* x, double* w) const {
    (void)body, (void)x, (void)w;
    throw Error("PeridynamicMaterial '" + kind() + "'", "pointEnergies() provided",
                "not implemented by this model");
  }
  /// The longitudinal (P-)wave speed √(M/ρ) of the continuum the model stands for (m/s).
  virtual double waveSpeed(double density) const = 0;

 protected:
  explicit PeridynamicMaterial(const PeridynamicElasticity& e) : elasticity_(e) {}
  PeridynamicElasticity elasticity_;
};

}  // namespace nsdyn

#endif
