/// @file PeridynamicBody.hpp
/// @brief A peridynamic body: material points with volume joined by bonds within a horizon δ,
///        in a struct of arrays (points) and one CSR list of directed bonds (doc/peridynamics.md).
#ifndef NSDYN_PERIDYNAMICBODY_HPP
#define NSDYN_PERIDYNAMICBODY_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

class PeridynamicMaterial;

/// Options of a PeridynamicBody (checked by the constructor: nsdyn::Error names the body and
/// the value).
struct NSDYN_KERNEL_API PeridynamicBodyOptions {
  std::string name = "PeridynamicBody";
  double spacing = 0.0;  ///< lattice spacing Δx (m, > 0)
  double horizon = 0.0;  ///< horizon δ (m, ≥ Δx; 3Δx is usual)
  double density = 0.0;  ///< ρ (kg/m³, > 0)
  /// Thickness of a 2D body (sheet, plate of one layer; m). 0: a 3D body. A sheet's points
  /// carry volume Δx² × thickness and its bonds lie in the sheet (virtual bonds along the
  /// normal are added by the sheet material, not here).
  double thickness = 0.0;
  /// Surface correction of the stiffness near free boundaries, computed once from the reference
  /// configuration. 3D bodies, the energy method per lattice axis: for point i and axis k,
  /// g_i^k = S_bulk / S_i^k with S_i^k = Σ_j V_j |ξ| (n_k² − ν (1 − n_k²))² over its bonds (the
  /// bond-based energy of a uniaxial stress along k) and S_bulk = bulkDirectionalSum(); bond
  /// factor
  /// β_ij = [Σ_k (n_k / ḡ^k)²]^(−1/2), n = ξ/|ξ|, ḡ^k = ½ (g_i^k + g_j^k). 2D bodies, the volume
  /// method: g_i = bulkSum(1) / Σ_j |ξ| V_j, β_ij = ½ (g_i + g_j). 1 in the bulk; off: all 1.
  /// The sums run over the intact bonds when refresh() runs (construction, pre-cracks: crack
  /// faces are free surfaces); bonds broken by breakBonds() in a run leave the factors as they
  /// were (the remaining bonds do not stiffen as a crack opens).
  bool surfaceCorrection = true;
  /// Radius of each point as a contact sphere (m); 0: Δx / 2.
  double contactRadius = 0.0;
  int threads = 0;  ///< OpenMP threads of the passes (0: automatic); results do not depend on it
};

/// Points and bonds of one peridynamic body.
///
/// Points (n): reference position X, current position x, velocity v (3 per point), volume V,
/// mass m = ρ V, applied force (3 per point, added to gravity), a "prescribed" flag (a
/// prescribed point moves with its own v and takes no internal or contact force: grips,
/// supports) and a damage value (broken share of its initial bonds).
/// Bonds: for each point i, bondStart[i]..bondStart[i+1] its neighbours j with |X_j − X_i| ≤ δ
/// (each pair stored twice, i→j and j→i, sorted by j), found with the Kernel's uniform-grid
/// broadphase; per directed bond the reference length |ξ| (float), the surface-correction
/// factor (float) and a broken flag: 4 + 4 + 4 + 1 bytes (memoryPerBond()). A broken bond
/// stays in the list with its flag set (both directions), so that damage is its share.
class NSDYN_KERNEL_API PeridynamicBody {
 public:
  using Options = PeridynamicBodyOptions;

  /// Points at @p reference (3n), each of volume @p volume[i] (m³, > 0); the bonds are built
  /// here (δ from options). nsdyn::Error (naming options.name and the value) for Δx ≤ 0,
  /// δ < Δx, ρ ≤ 0, a non-finite position, a volume ≤ 0, sizes that do not match, a point
  /// whose horizon holds no neighbour, a material rejected by PeridynamicMaterial::check.
  PeridynamicBody(std::vector<double> reference, std::vector<double> volume, const Options& options,
                  std::shared_ptr<const PeridynamicMaterial> material);

  const Options& options() const { return options_; }
  const std::string& name() const { return options_.name; }
  std::size_t size() const { return volume.size(); }
  std::size_t bondCount() const { return neighbour.size(); }  ///< directed bonds (2 per pair)
  std::size_t brokenBonds() const;                            ///< directed
  /// Bytes held per directed bond by the bond arrays (neighbour, length, factor, flag).
  static constexpr std::size_t memoryPerBond() { return 4 + 4 + 4 + 1; }

  const PeridynamicMaterial& material() const { return *material_; }
  std::shared_ptr<const PeridynamicMaterial> materialPtr() const { return material_; }
  /// The per-point quantities the material keeps (weighted volume, shape tensor, ...), made
  /// by PeridynamicMaterial::prepare after the bonds are built or changed; the material owns
  /// their meaning.
  std::vector<double>& materialData() { return materialData_; }
  const std::vector<double>& materialData() const { return materialData_; }

  /// A pre-crack: remove (flag broken, both directions) every intact bond whose reference
  /// segment X_i–X_j crosses the strip S = {a + s (b − a) + t d : s in [0, 1], t real}, where
  /// d is @p direction made orthogonal to b − a (S is infinite along d: a notch through the
  /// whole body along d, e.g. through a plate's thickness). A bond crosses S when X_i and X_j
  /// lie strictly on opposite sides of the plane of S (normal (b − a) × d; an end on the plane
  /// does not cut) and the segment meets the plane at a point with s in [0, 1]. Then
  /// refresh() (damage, surface factors: the crack faces are free surfaces, material data).
  /// Returns the directed bonds removed (2 per pair). nsdyn::Error naming the body and the
  /// segment when no intact bond crosses S (the crack misses the body), when a = b, when d
  /// is along b − a or a number is not finite.
  std::size_t precrack(const std::array<double, 3>& a, const std::array<double, 3>& b,
                       const std::array<double, 3>& direction);
  /// Break every intact bond whose stretch (|x_j − x_i| − |ξ|)/|ξ| exceeds the material's
  /// critical stretch (both directions at once: the two are computed from the same numbers);
  /// update damage and call material().prepare(*this) (the surface factors are kept). Returns
  /// the directed bonds broken (0 with an infinite critical stretch).
  std::size_t breakBonds();
  /// Recompute the surface-correction factors over the intact bonds and damage (the broken
  /// share of each point's bonds), then call material().prepare(*this).
  void refresh();

  /// Total mass, centre of mass, linear momentum, kinetic energy ½ Σ m |v|².
  double totalMass() const;
  std::array<double, 3> centreOfMass() const;
  std::array<double, 3> momentum() const;
  double kineticEnergy() const;
  /// Elastic energy W(x) of the material at the current positions.
  double elasticEnergy() const;

  /// Translate / set the velocity of every point (generators, examples).
  void translate(const std::array<double, 3>& d);
  void setVelocity(const std::array<double, 3>& velocity);
  /// Prescribe (or free) the points whose reference position satisfies @p inside.
  template <class Predicate>
  std::size_t prescribe(Predicate inside, bool on = true) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < size(); ++i)
      if (inside(&X[3 * i])) {
        prescribed[i] = on ? 1 : 0;
        ++count;
      }
    return count;
  }

  // The arrays (see the class comment); sizes are fixed after construction.
  std::vector<double> X, x, v, volume, mass, force, damage;
  std::vector<std::uint8_t> prescribed;
  std::vector<std::uint32_t> bondStart, neighbour;  // CSR: n + 1 offsets, directed bonds
  std::vector<float> bondLength, bondFactor;
  std::vector<std::uint8_t> bondBroken;
  /// Index of the reverse bond (j→i) of each directed bond i→j: 4 more bytes per bond when
  /// built (materials that need it call buildReverse()).
  std::vector<std::uint32_t> reverse;
  void buildReverse();
  /// Contact radius of each point (options.contactRadius or Δx / 2).
  double contactRadius() const;
  /// Σ over the full lattice neighbourhood of one interior point (offsets k Δx, k ≠ 0 integer,
  /// |k Δx| ≤ δ; the planar lattice for 2D bodies) of |ξ|^power × the neighbour volume (Δx³,
  /// or Δx² t in 2D). Materials calibrate their constants with it, so that a bulk point has the
  /// continuum energy density exactly (the discrete sums differ from the integrals by a few % at
  /// δ = 3Δx).
  double bulkSum(int power) const;
  /// Σ over the same neighbourhood of V |ξ| (n_x² − ν (1 − n_x²))², n = ξ/|ξ|, ν the material's
  /// Poisson ratio: the bond-based energy of a uniaxial stress along an axis of the lattice
  /// (bond stretch s = ε (n_x² − ν (1 − n_x²))), up to the material's constant; the bulk
  /// reference of the surface correction.
  double bulkDirectionalSum() const;

 private:
  void buildBonds();
  void surfaceFactors();  ///< bondFactor from the intact bonds (options.surfaceCorrection)
  void updateDamage();    ///< damage from bondBroken
  /// The index of bond j→i in j's (sorted) list, for the bond i→j.
  std::uint32_t reverseOf(std::uint32_t i, std::uint32_t j) const;
  Options options_;
  std::shared_ptr<const PeridynamicMaterial> material_;
  std::vector<double> materialData_;
};

}  // namespace nsdyn

#endif
