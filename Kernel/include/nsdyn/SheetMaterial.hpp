/// @file SheetMaterial.hpp
/// @brief Cloth and thin plates: a bond-based membrane in the sheet plus bending resistance
///        from virtual bonds along the normal (second differences over straight point
///        triplets), with tearing by critical stretch of the in-plane bonds.
#ifndef NSDYN_SHEETMATERIAL_HPP
#define NSDYN_SHEETMATERIAL_HPP

#include <atomic>
#include <cstddef>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

/// Options of the sheet model beyond the elastic constants.
struct NSDYN_KERNEL_API SheetMaterialOptions {
  /// Multiplies the plate bending stiffness D = E t³ / (12 (1 − ν²)) (≥ 0, finite). 0: a pure
  /// membrane (no bending resistance; see SheetMaterial on what then holds it).
  double bendingScale = 1.0;
};

/// A sheet (a PeridynamicBody of one layer of points, options.thickness = t > 0, such as
/// peridynamics::sheet makes) in plane stress, ν = 1/3. W = W_m + W_b, both with exact
/// gradients and Hessians.
///
/// **Membrane** (bond-based in the sheet): each intact bond i→j (reference length L, deformed
/// length l) stores ½ k_ij (l − L)² per pair, k_ij = c β_ij w_ij V_i V_j / L, so
///   W_m = Σ_i Σ_j ¼ k_ij (l − L)²,   f_i = Σ_j k_ij (l − L) (x_j − x_i) / l.
/// c = 6 E / body.bulkSum(1) (→ 9E/(π t δ³) in the continuum limit) makes a bulk point hold
/// the continuum density 3E s²/2 under an isotropic stretch s; β is the body's surface
/// correction. w_ij = ½ (w_i + w_j) is a lattice isotropy weight: each point i weights its
/// bonds by w_i(ê) = 1 + Σ_m μ_m g_m(φ), g ∈ {cos 2φ, sin 2φ, cos 4φ, sin 4φ} (φ the bond angle
/// in the point's plane), solved so that Σ_j w |ξ| V_j is unchanged and the 2φ and 4φ
/// harmonics of the weighted bonds (w |ξ| V_j) vanish: the membrane is then isotropic with the
/// continuum constants
/// (E/(1 − ν²) t in-plane stiffness, uniaxial energy E ε²/(2(1 − ν²)) at ν = 1/3) in the bulk.
/// Without them a bulk point of a square lattice with δ = 3Δx misses the continuum energy by
/// up to 3.4 % (shear −3.4 %, uniaxial stress +2.3 %); with them by 2e-6 (SheetMaterialTest).
/// The weights are taken only where they solve the moments exactly and stay ≥ 1/4 (else 1);
/// in the bulk of a square lattice they lie in [0.954, 1.049], near edges in [0.62, 1.31].
///
/// **Bending** (virtual bonds along the normal): for every straight triplet i–j–k of the
/// reference (X_i = X_j − ξ, X_k = X_j + ξ, |ξ| ≤ 1.5 Δx: the nearest and diagonal
/// neighbours of the lattice, bonds j–i, j–k and i–k intact), the virtual bond from x_j to the
/// midpoint of x_i and x_k, 2(mid − x_j) = x_i + x_k − 2 x_j, has zero length in the flat
/// reference and length ≈ κ|ξ|² along the normal when the sheet bends with curvature κ. It
/// stores
///   W_b = Σ_triplets ½ K_p |x_i + x_k − 2 x_j|²,   K_p = (8/3) D (V_j / t) g_p w_p / (P |ξ|⁴),
/// a quadratic form: its gradient and Hessian are exact and constant, it vanishes under every
/// affine map (rigid motions, uniform stretch) and equals the Kirchhoff plate energy
/// ½ D [ν (tr κ)² + (1 − ν) κ:κ] per area at ν = 1/3 for small curvatures in the bulk. D =
/// bendingScale × E t³ / (12 (1 − ν²)) = (3/32) bendingScale E t³ (N·m); P = the bulk number
/// of triplets of a point (4 on a square lattice, a 3×3 stencil that is isotropic to fourth
/// order, so w_p = 1 there); w_p the same isotropy weights as above over a point's triplets
/// where they exist; g_p = min(4, M_bulk(n_p) / M_j(n_p)) a directional surface correction
/// (M(m) = Σ_q w_q (n_q·m)⁴ the point's fourth moment along the triplet's direction n_p; 1 in
/// the bulk, 3/2 for the one triplet left along a free edge, so that an edge row bends along
/// the edge with the bulk stiffness). In-plane, the same term is a small strain-gradient
/// penalty (relative size (t/λ)² for a wavelength λ). A triplet whose bonds break drops out
/// with them. The bending horizon needs δ ≥ 2√2 Δx (the i–k bond of a diagonal triplet).
///
/// **Stability**: with D > 0 the only zero-energy modes of the flat sheet are the rigid
/// motions: W_b's null space on a connected stencil is the affine fields, and of those the
/// membrane resists every one but the rigid ones. With bendingScale = 0 the flat sheet keeps
/// only the physical softness of a slack membrane: a transverse displacement stretches the
/// bonds at second order (energy ∝ w⁴), and since bonds up to δ long span every fold line no
/// deformation but the rigid motions stores zero energy (no lattice mechanism). The implicit
/// steps stay well posed through the mass term (a hanging membrane converges with both
/// steppers, SheetMaterialTest); a static solve needs D > 0 or tension. The bonds' chords
/// also resist curvature at fourth order (rolled on R = 20 Δx with t = Δx/5 they add 4 % to
/// W_b): a bond-based membrane is not exactly bending-free.
///
/// **Fracture**: body.breakBonds() breaks the in-plane bonds beyond the critical stretch
/// (elasticity().criticalStretch); the triplets over a broken bond stop acting, so cloth tears
/// along the line of broken bonds.
///
/// materialData (doubles): a header {c, D, P, n, bonds}, k_ij per directed bond, then per point
/// the offsets and entries {bond, bond, bond, ±K_p} of the triplets it is the centre (+) or an
/// end (−) of (stored at each of the three points so that every pass writes its own point).
class NSDYN_KERNEL_API SheetMaterial : public PeridynamicMaterial {
 public:
  explicit SheetMaterial(const PeridynamicElasticity& e, const SheetMaterialOptions& o = {})
      : PeridynamicMaterial(e), options_(o) {}

  std::string kind() const override { return "sheet"; }
  const SheetMaterialOptions& options() const { return options_; }
  /// A 2D body (options.thickness > 0), E > 0, ν = 1/3, critical stretch > 0, bendingScale
  /// ≥ 0 and finite, horizon ≥ 2√2 Δx when bendingScale > 0: else nsdyn::Error naming the
  /// body and the value.
  void check(const PeridynamicBody& body) const override;
  /// The micromodulus, the isotropy weights, the bond stiffnesses and the triplets (class
  /// comment), from the reference positions and the intact bonds.
  void prepare(PeridynamicBody& body) const override;

  double energy(const PeridynamicBody& body, const double* x) const override;
  double forces(const PeridynamicBody& body, const double* x, double* f) const override;
  /// The membrane energy of each point's bonds (¼ k (l − L)² each) plus the bending energy of
  /// the triplets it is the centre of.
  void pointEnergies(const PeridynamicBody& body, const double* x, double* w) const override;
  /// a_i = Σ_j k_ij + Σ_{triplets centred at i} 4 K_p + Σ_{triplets ending at i} K_p: the bond
  /// Hessian's eigenvalues never exceed k_ij (BondBasedMaterial), and a triplet adds c_i² K_p
  /// I to ∂²W/∂x_i² (c = 1, 1, −2), so a_i bounds the Hessian's diagonal block along every
  /// direction. Independent of x.
  void implicitStiffness(const PeridynamicBody& body, const double* x, double* a) const override;
  /// Bond blocks ∂f_i/∂x_j = k_ij [u⊗u + t (I − u⊗u)] (u = Y/l, t = max(0, 1 − L/l):
  /// compressed bonds clamped, as BondBasedMaterial) plus the exact triplet blocks
  /// −c_a c_b K_p I (the i–k coupling of a triplet sits in the i–k bond, which the triplet
  /// requires). −K is positive semi-definite. Blocks of broken bonds are 0.
  void tangent(const PeridynamicBody& body, const double* x, double* K,
               double* diag) const override;
  /// True when the last tangent() clamped no compressed bond (then it was the exact Hessian).
  bool exactTangent() const override { return lastClamped_.load() == 0; }
  bool bondwiseTangent() const override { return true; }
  /// Virial stress of the membrane bonds, (1/(2 V_i)) Σ_j f_ij ⊗ Y_ij (plane stress in the
  /// sheet; the bending moments are not in it).
  void stress(const PeridynamicBody& body, const double* x, double* sigma) const override;
  /// √(E / ((1 − ν²) ρ)): the in-plane P-wave speed of the membrane.
  double waveSpeed(double density) const override;

  /// W_m and W_b separately (J).
  double membraneEnergy(const PeridynamicBody& body, const double* x) const;
  double bendingEnergy(const PeridynamicBody& body, const double* x) const;
  /// The plate bending stiffness D of @p body (N·m; bendingScale × E t³/(12(1 − ν²))).
  double bendingStiffness(const PeridynamicBody& body) const;
  /// The in-plane stiffness E t / (1 − ν²) (N/m) and the micromodulus c (after prepare).
  double membraneStiffness(const PeridynamicBody& body) const;
  double micromodulus(const PeridynamicBody& body) const;
  /// Active triplets (centres counted) in @p body: the virtual bonds along the normal.
  std::size_t triplets(const PeridynamicBody& body) const;
  /// Directed bonds whose transverse term the last tangent() clamped.
  std::size_t clampedBonds() const { return lastClamped_.load(); }

 private:
  SheetMaterialOptions options_;
  mutable std::atomic<std::size_t> lastClamped_{0};
};

}  // namespace nsdyn

#endif
