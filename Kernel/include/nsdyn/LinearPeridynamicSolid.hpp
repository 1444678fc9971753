/// @file LinearPeridynamicSolid.hpp
/// @brief The ordinary state-based linear peridynamic solid (LPS, Silling et al. 2007).
#ifndef NSDYN_LINEARPERIDYNAMICSOLID_HPP
#define NSDYN_LINEARPERIDYNAMICSOLID_HPP

#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

/// Linear peridynamic solid, any ν in (−1, 1/2). With the influence function ω_ij = β_ij (the
/// bond factor: 1 in the bulk; this is how the surface correction enters), the extension
/// e_ij = |Y| − |ξ| of an intact bond, the weighted volume m_i = Σ_j ω |ξ|² V_j (over the
/// intact bonds, at prepare()), the dilatation θ_i = (d/m_i) Σ_j ω |ξ| e V_j and the
/// deviatoric extension e^d = e − θ_i |ξ| / d, the energy is
///   W = Σ_i V_i [ κ θ_i² / 2 + (α / (2 m_i)) Σ_j ω (e^d_ij)² V_j ],
/// with d = 3, κ = K, α = 15 G in 3D and, for a 2D body (thickness > 0, plane stress),
/// d = 2, κ = E / (2(1 − ν)) (the plane-stress bulk modulus), α = 8 G. Its exact gradient is
/// f_i = Σ_j V_i V_j (t_ij + t_ji) Y/|Y|, t_ij = κ θ_i (d/m_i) ω |ξ| + (α/m_i) ω e^d_ij.
/// A bulk point holds exactly the continuum density under an isotropic expansion, and the
/// isotropic mean over deviatoric strains (cubic lattices: 2/5 of the axial mode, 3/5 of the
/// shear mode; at δ = 3Δx their shear moduli are 0.835 μ and 1.110 μ). Near a surface the
/// local m_i renormalises θ, and β weights the bonds within it. With
/// PeridynamicCalibration::LatticeAxes, α is scaled (×1.198 at δ = 3Δx in 3D) so that the
/// axial mode has G exactly: E and ν along the lattice axes exact. materialData: { m_i } (n
/// values), then the scale of α.
class NSDYN_KERNEL_API LinearPeridynamicSolid : public PeridynamicMaterial {
 public:
  explicit LinearPeridynamicSolid(const PeridynamicElasticity& e) : PeridynamicMaterial(e) {}

  std::string kind() const override { return "lps"; }
  /// E > 0, ν in (−1, 1/2), critical stretch > 0.
  void check(const PeridynamicBody& body) const override;
  void prepare(PeridynamicBody& body) const override;

  double energy(const PeridynamicBody& body, const double* x) const override;
  double forces(const PeridynamicBody& body, const double* x, double* f) const override;
  void pointEnergies(const PeridynamicBody& body, const double* x, double* w) const override;
  /// a_i = Σ_j V_i V_j ω (c_i + c_j) + Σ_j V_i V_j max(0, t_ij + t_ji) / |Y|, c_k =
  /// (κ d² + α) / m_k. By Cauchy–Schwarz, κθ²/2 ≤ (κ d²/(2m)) Σ ω e² V and the deviatoric sum
  /// is at most Σ ω e² V, so W_k ≤ ½ c_k Σ_j ω e² V_j: the first sum bounds the part of the
  /// Hessian block ∂²W/∂x_i² that comes from the extensions, the second its transverse
  /// (geometric) part. A majorant of the block along every direction: the substitution's
  /// step is a descent direction and the line search makes Φ decrease.
  void implicitStiffness(const PeridynamicBody& body, const double* x, double* a) const override;
  /// The bond part of the Hessian: per intact bond, the exact second derivative of W with
  /// respect to its own extension, h = V_i V_j [κ d² ω² |ξ|² V_j / m_i² + α ω (1 − ω|ξ|²V_j/m_i)
  /// / m_i] + (the same for j), along ê⊗ê, and the transverse V_i V_j max(0, t_ij + t_ji)/|Y|
  /// on I − ê⊗ê; the coupling of bonds through θ is left out (exactTangent() false). −K is
  /// positive semi-definite.
  void tangent(const PeridynamicBody& body, const double* x, double* K,
               double* diag) const override;
  bool exactTangent() const override { return false; }
  /// The stress of the point's own force state σ_i = Σ_j V_j t_ij Y ⊗ Y / |Y| (reference
  /// volume): the linear stress of a bulk point at small strain whatever its neighbours.
  void stress(const PeridynamicBody& body, const double* x, double* sigma) const override;
  /// √((λ + 2μ)/ρ) of the 3D solid (an upper bound of the plane-stress speed).
  double waveSpeed(double density) const override;
};

}  // namespace nsdyn

#endif
