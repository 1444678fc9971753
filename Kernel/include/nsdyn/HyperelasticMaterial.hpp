/// @file HyperelasticMaterial.hpp
/// @brief Isotropic hyperelastic materials in the correspondence formulation, through the
///        principal stretches (base of NeoHookeanMaterial and StVenantKirchhoffMaterial).
#ifndef NSDYN_HYPERELASTICMATERIAL_HPP
#define NSDYN_HYPERELASTICMATERIAL_HPP

#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

/// Correspondence model of an isotropic hyperelastic solid of stored energy W(λ1, λ2, λ3)
/// (per unit reference volume; λ_a the principal stretches), 3D bodies only.
///
/// With the influence function ω_ij = 1 / |ξ|²:
///   K_i = Σ_j ω ξ⊗ξ V_j,  F_i = (Σ_j ω Y⊗ξ V_j) K_i⁻¹  (the weighted least-squares fit),
///   C = FᵀF = Σ_a λ_a² N_a⊗N_a (symmetric 3×3 Jacobi), F = RU,
///   P_i = R Σ_a ∂W/∂λ_a N_a⊗N_a = F_i Σ_a (∂W/∂λ_a / λ_a) N_a⊗N_a,
/// and the stabilisation energy E_s = ½ G_s Σ_i Σ_j ω |Y − F_i ξ|² V_i V_j against the
/// zero-energy modes (its gradient through F vanishes because F is the fit with the same
/// weights; it is zero for every affine field). The energy and its exact gradient:
///   W = Σ_i V_i W(F_i) + E_s,
///   f_i = Σ_j V_i V_j (T_ij − T_ji),  T_ij = ω [P_i K_i⁻¹ ξ + G_s (Y − F_i ξ)].
/// G_s = stabilisation × μ / body.bulkSum(0): a non-affine bond field of relative size r
/// costs about ½ stabilisation μ r² per unit volume. Default stabilisation 1.
/// The surface correction (body.bondFactor) is not used by W: K_i⁻¹ already normalises each
/// point's neighbourhood, so an affine field x = A X gives F_i = A exactly at every point, the
/// surface points included, and zero force at every point whose horizon lies inside the body
/// (the patch test, which bond factors in ω would break); only tangent() scales its bond
/// blocks by β. det F_i ≤ 0 (or a non-finite W) makes the energy +∞ (the line search rejects the
/// step). A point whose K_i is singular (fewer than three independent intact bonds) carries no
/// energy and no force. materialData: per point K_i⁻¹ (9) and a flag (1 = regular), then
/// G_s and the equivalent micromodulus of the tangent (10 n + 2 values).
class NSDYN_KERNEL_API HyperelasticMaterial : public PeridynamicMaterial {
 public:
  /// W(λ) per unit reference volume (+∞ allowed outside the domain).
  virtual double strainEnergy(const double* lambda) const = 0;
  /// ∂W/∂λ_a into @p dW (3).
  virtual void stretchDerivatives(const double* lambda, double* dW) const = 0;
  /// ∂²W/∂λ_a∂λ_b into @p H (9, row-major).
  virtual void stretchHessian(const double* lambda, double* H) const = 0;

  double shearModulus() const;  ///< μ = E / (2(1 + ν))
  double lameLambda() const;    ///< Λ = E ν / ((1 + ν)(1 − 2ν))
  double stabilisation() const { return stabilisation_; }

  /// E > 0, ν in (−1, 1/2), a 3D body (thickness 0), stabilisation ≥ 0.
  void check(const PeridynamicBody& body) const override;
  void prepare(PeridynamicBody& body) const override;
  double energy(const PeridynamicBody& body, const double* x) const override;
  double forces(const PeridynamicBody& body, const double* x, double* f) const override;
  void pointEnergies(const PeridynamicBody& body, const double* x, double* w) const override;
  /// F is linear in x, so d·(∂²W/∂x_i²)d = Σ_k V_k δF_k : 𝔸_k : δF_k + (stabilisation), with
  /// δF_k = d ⊗ K_k⁻¹ g_ki (g_ii = −Σ_j ω V_j ξ_ij, g_ji = ω V_i ξ_ji). The largest
  /// eigenvalue of the isotropic tangent 𝔸_k is bounded from the principal stretches (the
  /// 3×3 Hessian ∂²W/∂λ² by Gershgorin, and the pair terms (W_a ± W_b)/(λ_a ± λ_b)), so
  /// a_i = Σ_k V_k A_k |K_k⁻¹ g_ki|² + 2 G_s Σ_j ω V_i V_j is a majorant of the block: the
  /// substitution's step is a descent direction and the line search makes Φ decrease.
  void implicitStiffness(const PeridynamicBody& body, const double* x, double* a) const override;
  /// Not the Hessian (correspondence couples points through every shared neighbour): per
  /// bond the PSD block V_i V_j β [c_eq/|ξ| ê⊗ê + 2 G_s / |ξ|² I], c_eq = 18 K / bulkSum(1)
  /// (the bond-based micromodulus of the same bulk modulus), ê along the current bond.
  /// A preconditioner for Newton's line search; exactTangent() is false.
  void tangent(const PeridynamicBody& body, const double* x, double* K,
               double* diag) const override;
  bool exactTangent() const override { return false; }
  /// Cauchy stress P Fᵀ / det F of each point (0 for a singular point or det F ≤ 0).
  void stress(const PeridynamicBody& body, const double* x, double* sigma) const override;
  /// √((Λ + 2μ)/ρ) at the reference state.
  double waveSpeed(double density) const override;

  /// F_i of every point at x (9 per point, row-major; zeros for singular points).
  void deformationGradients(const PeridynamicBody& body, const double* x, double* F) const;
  /// First Piola–Kirchhoff stress P(F) of the model (9, row-major); false when det F ≤ 0.
  bool firstPiola(const double* F, double* P) const;

 protected:
  HyperelasticMaterial(const PeridynamicElasticity& e, double stabilisation)
      : PeridynamicMaterial(e), stabilisation_(stabilisation) {}
  double stabilisation_;
};

}  // namespace nsdyn

#endif
