/// @file BondBasedMaterial.hpp
/// @brief The prototype microelastic brittle (PMB) bond-based peridynamic material.
#ifndef NSDYN_BONDBASEDMATERIAL_HPP
#define NSDYN_BONDBASEDMATERIAL_HPP

#include <atomic>
#include <cstddef>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

/// Bond-based PMB material. Each intact bond i→j of reference vector ξ (length L = |ξ|, from
/// the reference positions X), deformed vector Y = x_j − x_i (length l) and stretch
/// s = (l − L)/L stores the energy ¼ β c s² L V_i V_j per direction (β = body.bondFactor, the
/// surface correction), so
///   W = Σ_i Σ_j ¼ β c s² L V_i V_j,   f_i = −∂W/∂x_i = Σ_j β c s (Y/l) V_i V_j.
/// The micromodulus c makes a bulk point hold exactly the continuum energy density under an
/// isotropic expansion: c = 18 K / body.bulkSum(1) in 3D (→ 18K/(πδ⁴) in the continuum
/// limit), c = 6 E / body.bulkSum(1) for a 2D body in plane stress (thickness t > 0;
/// → 9E/(π t δ³)). Deviatoric strains see the lattice: with δ = 3Δx on a cubic lattice, a
/// bulk point's shear modulus is 0.871 μ for the axial mode (ε_xx = −ε_yy) and 1.086 μ for
/// the shear mode (ε_xy), whose 2:3 mean is the isotropic μ = 2E/5 (MaterialTest figures).
/// The model holds ν = 1/4 in 3D and ν = 1/3 in 2D only.
/// materialData: { c }.
class NSDYN_KERNEL_API BondBasedMaterial : public PeridynamicMaterial {
 public:
  explicit BondBasedMaterial(const PeridynamicElasticity& e) : PeridynamicMaterial(e) {}

  std::string kind() const override { return "bond-based"; }
  /// E > 0, ν = 1/4 (3D body) or 1/3 (2D body), critical stretch > 0.
  void check(const PeridynamicBody& body) const override;
  /// materialData = { c } (see the class comment).
  void prepare(PeridynamicBody& body) const override;

  double energy(const PeridynamicBody& body, const double* x) const override;
  double forces(const PeridynamicBody& body, const double* x, double* f) const override;
  void pointEnergies(const PeridynamicBody& body, const double* x, double* w) const override;
  /// a_i = Σ_j β c V_i V_j / L: the axial stiffness of the bonds of i. The Hessian block of a
  /// bond is (β c V_i V_j)[ê⊗ê / L + (1/L − 1/l)(I − ê⊗ê)], whose eigenvalues never exceed
  /// β c V_i V_j / L (the transverse one is below it, negative in compression), so a_i bounds
  /// d·(∂²W/∂x_i²)d / |d|² for every direction d. The substitution's step −g_i / (m_i/(h²θ²)
  /// + a_i) is therefore a descent direction (a positive diagonal scaling of −∇Φ), and the
  /// line search on Φ makes every accepted step decrease Φ. Independent of x.
  void implicitStiffness(const PeridynamicBody& body, const double* x, double* a) const override;
  /// The exact Hessian blocks ∂f_i/∂x_j = β c V_i V_j [ê⊗ê / L + t (I − ê⊗ê)] with the
  /// transverse coefficient t = max(0, 1/L − 1/l) (clamped in compressed bonds), and
  /// ∂f_i/∂x_i = −Σ_j of them, so −K is positive semi-definite. Blocks of broken bonds are 0.
  /// Rows of prescribed points hold the Hessian's blocks too (the steppers drop those dofs).
  void tangent(const PeridynamicBody& body, const double* x, double* K,
               double* diag) const override;
  /// True when the last tangent() clamped no bond (no intact bond compressed): the blocks were
  /// then the exact Hessian of W.
  bool exactTangent() const override { return lastClamped_.load() == 0; }
  bool bondwiseTangent() const override { return true; }
  /// Bonds (directed) whose transverse term the last tangent() clamped.
  std::size_t clampedBonds() const { return lastClamped_.load(); }
  /// Virial stress σ_i = (1 / (2 V_i)) Σ_j f_ij ⊗ Y_ij (f_ij the force of bond i→j; reference
  /// volume): the linear stress of the lattice in the bulk at small strain.
  void stress(const PeridynamicBody& body, const double* x, double* sigma) const override;
  /// √(M/ρ): M = λ + 2μ = 6E/5 for ν = 1/4 (3D), E / (1 − ν²) = 9E/8 for ν = 1/3 (2D).
  double waveSpeed(double density) const override;

  /// The micromodulus c of @p body (after prepare).
  double micromodulus(const PeridynamicBody& body) const;
  /// Critical stretch from the fracture energy G₀ (J/m²): √(5 G₀ / (9 K δ)) in 3D (K = 2E/3 at
  /// ν = 1/4), √(4π G₀ / (9 E δ)) in 2D (@p dimension 2). Set it in
  /// PeridynamicElasticity::criticalStretch before building the material.
  static double criticalStretchFromEnergy(double fractureEnergy, double horizon,
                                          double youngModulus, int dimension = 3);

 private:
  mutable std::atomic<std::size_t> lastClamped_{0};
};

}  // namespace nsdyn

#endif
