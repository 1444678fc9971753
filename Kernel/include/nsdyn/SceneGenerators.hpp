/// @file SceneGenerators.hpp
/// @brief Generators of rigid-body scenes: lattice and random packings of particles,
/// containers, hoppers, chutes and rough bases made of static bodies.
///
/// Every generator is declarative (a spec struct of plain numbers, the XML can express
/// each field), checks all its input first and throws nsdyn::Error naming the generator
/// and the bad value; nothing is returned partially. Lengths in metres, angles in
/// radians, densities in kg/m³. Randomness comes from std::mt19937_64 seeded with the
/// given seed, its 64-bit outputs mapped to [0, 1) by (x >> 11)·2⁻⁵³ (no standard
/// distribution, which is implementation-defined): the same seed gives the same scene,
/// bit for bit for positions and sizes, on every platform.
#ifndef NSDYN_KERNEL_SCENEGENERATORS_HPP
#define NSDYN_KERNEL_SCENEGENERATORS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Shape.hpp"

namespace nsdyn {
namespace scenes {

/// The particle shapes the packings generate.
enum class ParticleKind { Sphere, Box, Capsule, Cylinder };

/// One family of particles. A particle of scale k (k = 1 nominal) has all its
/// dimensions multiplied by k; k is uniform in [1 − sizeSpread, 1 + sizeSpread].
struct NSDYN_KERNEL_API ParticleSpec {
  ParticleKind kind = ParticleKind::Sphere;
  /// Sphere, capsule and cylinder radius (m).
  double radius = 0.05;
  /// Capsule and cylinder length along the shape z axis (m): the cylinder height, and
  /// the capsule's segment (halfLength = length/2, total capsule length = length + 2·radius).
  double length = 0.1;
  /// Box half-extents (m); the full sizes are twice these.
  Shape::Vec3 halfExtents{0.05, 0.05, 0.05};
  /// Relative size spread s in [0, 1); 0: all particles nominal (one shared shape).
  double sizeSpread = 0.0;
  /// Density (kg/m³), finite and > 0.
  double density = 1000.0;
  /// True: each particle gets a uniformly distributed random rotation (seeded);
  /// false: the identity orientation.
  bool randomOrientation = false;
  /// Particle k is named namePrefix + k ("grain0", "grain1", ...).
  std::string namePrefix = "grain";
};

/// Axis-aligned box [lower, upper] (m); lower < upper componentwise.
struct NSDYN_KERNEL_API Region {
  Shape::Vec3 lower{0.0, 0.0, 0.0};
  Shape::Vec3 upper{1.0, 1.0, 1.0};
};

/// A static body with its name (walls, floors, plates).
struct NSDYN_KERNEL_API StaticPart {
  std::string name;
  BodyShapes body;
};

/// Radius of the smallest sphere about the centre containing a particle of @p p at
/// scale 1 (sphere r; box |h|; capsule r + length/2; cylinder √(r² + (length/2)²)).
/// Throws nsdyn::Error for invalid sizes (as the generators do).
NSDYN_KERNEL_API double boundingRadius(const ParticleSpec& p);

/// Shape of a particle of @p p at scale @p scale (finite and > 0).
NSDYN_KERNEL_API SP::Shape makeParticleShape(const ParticleSpec& p, double scale);

/// Lattice packing: a cubic lattice of spacing D = 2·R·(1 + s) + @p gap (R the
/// boundingRadius, s the spread), so no two bounding spheres overlap whatever the
/// sizes and rotations. The lattice has nᵢ = ⌊(Lᵢ + gap)/D⌋ sites along axis i (Lᵢ the
/// region size), is centred in x and y, rests on the bottom z of the region, and is
/// filled layer by layer from the bottom (z, then y, then x fastest). Sizes and
/// orientations are drawn from @p seed. Throws nsdyn::Error if @p count exceeds the
/// capacity n_x·n_y·n_z (the message gives both), or for bad input (gap < 0 or not finite, ...).
/// @return @p count BodySpecs (density, no velocity) for makeBody.
NSDYN_KERNEL_API std::vector<BodySpec> latticePacking(const ParticleSpec& p, const Region& r,
                                                      std::size_t count, double gap = 0.0,
                                                      std::uint64_t seed = 1);

/// Random packing by random sequential addition: each particle in turn draws its
/// scale (and rotation), then up to @p maxAttempts centres uniform in the region
/// shrunk by its bounding radius, and is kept at the first centre where its bounding
/// sphere overlaps no bounding sphere placed before (tested on a uniform grid, O(1)
/// per attempt). Throws nsdyn::Error naming the generator, the count asked and how
/// many fitted if one particle finds no place (random sequential addition jams near a
/// volume fraction 0.38 of bounding spheres), or for bad input (count > 2^21, a scene's limit).
NSDYN_KERNEL_API std::vector<BodySpec> randomPacking(const ParticleSpec& p, const Region& r,
                                                     std::size_t count, std::uint64_t seed,
                                                     std::size_t maxAttempts = 1000);

/// Open-top container around the region @p inner: a floor at inner.lower z and four
/// walls at the x and y faces of @p inner.
struct NSDYN_KERNEL_API ContainerSpec {
  Region inner;
  /// True: static half-spaces (infinite, wallHeight and wallThickness unused);
  /// false: static boxes of thickness wallThickness outside @p inner.
  bool planes = true;
  /// Box wall and floor thickness (m), finite and > 0.
  double wallThickness = 0.05;
  /// Box wall height above the floor (m); 0: the height of @p inner.
  double wallHeight = 0.0;
  /// Parts are named namePrefix + "_floor", "_wall_-x", "_wall_+x", "_wall_-y", "_wall_+y".
  std::string namePrefix = "container";
};

/// The five static parts of @p c, in the order floor, −x, +x, −y, +y. A half-space
/// part has its body at the centre of the inner face and the shape
/// HalfSpaceShape(n, 0), n the normal into the container. Box parts: the floor covers
/// the walls' footprint, the ±x walls cover the corners.
NSDYN_KERNEL_API std::vector<StaticPart> container(const ContainerSpec& c);

/// Hopper: a funnel of inclined static box plates whose inner faces converge to an
/// outlet at height outletHeight above the floor. The outlet is centred at
/// (center x, center y); the floor's top face is at center z.
struct NSDYN_KERNEL_API HopperSpec {
  /// Floor centre: (outlet centre x, outlet centre y, floor top z) (m).
  Shape::Vec3 center{0.0, 0.0, 0.0};
  /// Outlet width (m), finite and > 0: the gap between the lower inner edges of opposite plates.
  double outletWidth = 0.1;
  /// Width at the top of the plates (m), > outletWidth.
  double topWidth = 1.0;
  /// Plate angle from the horizontal (rad), in (0, π/2); the plates rise to
  /// (topWidth − outletWidth)/2 · tan(angle) above the outlet.
  double angle = 1.0471975511965976;
  /// Height of the outlet above the floor top (m), finite and > 0.
  double outletHeight = 0.5;
  /// 4: a square funnel (plates at ±x and ±y, square outlet); 2: a wedge (plates at
  /// ±x only, slot outlet outletWidth × depth).
  int plates = 4;
  /// Extent along y of a two-plate hopper (m), finite and > 0; unused for 4 plates.
  double depth = 0.5;
  /// Two-plate hopper: add vertical walls closing the wedge at y = ±depth/2.
  bool sideWalls = true;
  /// Plate, wall and floor thickness (m), finite and > 0.
  double wallThickness = 0.02;
  /// Add a floor: a box slab, top face at center z, thickness wallThickness, of
  /// (topWidth + 2·wallThickness) × (topWidth or depth + 2·wallThickness).
  bool floor = true;
  /// Parts are named namePrefix + "_plate_+x", "_plate_-x", "_plate_+y", "_plate_-y",
  /// "_side_-y", "_side_+y", "_floor".
  std::string namePrefix = "hopper";
};

/// The static parts of @p h: the plates (+x, −x, then +y, −y for 4 plates), the side
/// walls (−y, +y, two plates with sideWalls), the floor last (if any). A plate is a
/// BoxShape with half-extents (slant length/2, half width, thickness/2) whose local x
/// runs up the slope and local z is the inner normal; its inner face's lower edge
/// lies at height center z + outletHeight, outletWidth/2 from the outlet centre.
NSDYN_KERNEL_API std::vector<StaticPart> hopper(const HopperSpec& h);

/// The volume the funnel of @p h holds (m³): the space between the plates' inner faces
/// from the outlet plane up to their top edges, (topWidth³ − outletWidth³)·tan(angle)/6
/// for 4 plates, depth·(topWidth² − outletWidth²)·tan(angle)/4 for 2 (the wedge closed at
/// y = ±depth/2, as its side walls do). Throws nsdyn::Error for the input hopper() rejects.
NSDYN_KERNEL_API double hopperVolume(const HopperSpec& h);

/// The topWidth at which the funnel of @p h (its outletWidth, angle, plates and depth;
/// h.topWidth is not read) holds @p volume (m³, finite and ≥ 0): the inverse of
/// hopperVolume, cbrt(outletWidth³ + 6·volume/tan(angle)) for 4 plates,
/// sqrt(outletWidth² + 4·volume/(depth·tan(angle))) for 2. To size a funnel that holds
/// N particles of mean volume v settling at packing fraction φ (about 0.6 for spheres),
/// ask for N·v/φ with a margin. Throws nsdyn::Error for bad input, naming the value.
NSDYN_KERNEL_API double hopperTopWidth(const HopperSpec& h, double volume);

/// Inclined chute: a bed descending along +x at @p angle from the horizontal, from
/// @p origin (the centre line of the top end of the bed surface), with two side walls.
struct NSDYN_KERNEL_API ChuteSpec {
  /// Top end of the bed surface, on its centre line (m).
  Shape::Vec3 origin{0.0, 0.0, 0.0};
  /// Inclination from the horizontal (rad), in (0, π/2).
  double angle = 0.5235987755982988;
  /// Bed length along the slope (m), finite and > 0 (unused by the half-space bed).
  double length = 2.0;
  /// Width between the side walls (m), finite and > 0.
  double width = 0.5;
  /// Side wall height above the bed (m), finite and > 0 (unused for half-spaces).
  double wallHeight = 0.2;
  /// Bed and wall thickness (m), finite and > 0 (unused for half-spaces).
  double thickness = 0.05;
  /// True: the bed and walls are static half-spaces (infinite); false: box slabs.
  bool planes = false;
  /// Parts are named namePrefix + "_bed", "_wall_-y", "_wall_+y".
  std::string namePrefix = "chute";
};

/// The three static parts of @p c: bed, wall −y, wall +y. Every part's body has the
/// rotation about y by @p angle (its local x = (cos θ, 0, −sin θ) down the slope,
/// local z = (sin θ, 0, cos θ) the bed normal); a box bed lies below the surface,
/// the box walls stand on it outside [−width/2, width/2]; half-spaces are HalfSpaceShape(n, 0)
/// with the body on the surface they bound.
NSDYN_KERNEL_API std::vector<StaticPart> chute(const ChuteSpec& c);

/// Rough base: static spheres of one radius, touching, on a square lattice resting on a
/// horizontal plane over a disc (the base of a heap, which spheres without rolling
/// resistance would otherwise roll off). The plane itself is not included.
struct NSDYN_KERNEL_API RoughBaseSpec {
  /// Sphere radius r (m), finite and > 0; the lattice spacing is 2r.
  double radius = 0.05;
  /// Radius of the disc covered (m), finite and > 0, with ⌈reach / 2r⌉ ≤ 2000.
  double reach = 1.0;
  /// Disc centre (x, y) and the plane's z (m).
  Shape::Vec3 center{0.0, 0.0, 0.0};
  /// Spheres are named namePrefix + k ("bump0", "bump1", ...).
  std::string namePrefix = "bump";
};

/// The spheres of @p b: centres (c_x + 2r i, c_y + 2r j, c_z + r) for i, then j, from −n
/// to n (n = ⌈reach / 2r⌉), kept where √((2ri)² + (2rj)²) ≤ reach, in that order,
/// named namePrefix + k (k from 0); all share one SphereShape. Throws nsdyn::Error for
/// a radius or reach not finite and > 0, a centre not finite, n > 2000, or more than
/// 2^21 spheres (a scene's limit; counted before any is made, the message gives the count).
NSDYN_KERNEL_API std::vector<StaticPart> roughBase(const RoughBaseSpec& b);

/// The bodies of @p parts, in order (for code that wants BodyShapes alone).
NSDYN_KERNEL_API std::vector<BodyShapes> bodies(const std::vector<StaticPart>& parts);

}  // namespace scenes
}  // namespace nsdyn

#endif
