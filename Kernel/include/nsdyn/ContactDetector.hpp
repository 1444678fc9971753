/// @file ContactDetector.hpp
/// @brief Contact detection for a scene of bodies with shapes: broadphase (uniform grid),
///        closed-form narrowphase or convexContact, contacts in plain arrays sorted by a stable
///        key.
#ifndef NSDYN_KERNEL_CONTACTDETECTOR_HPP
#define NSDYN_KERNEL_CONTACTDETECTOR_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/BodyStore.hpp"
#include "nsdyn/DetectionOptions.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Quaternion.hpp"

namespace nsdyn {

/// One detected contact (a plain struct, no padding: arrays of them compare with memcmp).
/// Body A has the lower body index (bodyA < bodyB); the normal is unit, from B to A
/// (world); pointA on A's surface, pointB on B's, pointA − pointB = gap·normal; gap < 0
/// when penetrating. Shapes are indices into BodyShapes::shapes(); features are those of
/// nsdyn/Narrowphase.hpp (convex pairs without a closed form: those of convexManifold, 0 for
/// a single point; hull and cylinder on a plane: hullPlane, cylinderPlane).
struct NSDYN_KERNEL_API DetectedContact {
  std::uint64_t key = 0;
  std::int32_t bodyA = 0, bodyB = 0;
  std::int32_t shapeA = 0, shapeB = 0;
  std::int32_t featureA = 0, featureB = 0;
  quaternion::Vec3 pointA{0.0, 0.0, 0.0};
  quaternion::Vec3 pointB{0.0, 0.0, 0.0};
  quaternion::Vec3 normal{0.0, 0.0, 1.0};
  double gap = 0.0;
};

/// Limits of a ContactDetector: its contact keys hold 21 bits of body index and 6 of
/// shape index; threads as the solvers' `threads` option (nsd_options), above which
/// libgomp crashes or stalls at start-up (100000: SIGSEGV, 30000: a hang).
inline constexpr std::size_t kMaxSceneBodies = std::size_t(1) << 21;
inline constexpr std::size_t kMaxBodyShapes = 64;
inline constexpr int kMaxDetectionThreads = 4096;

/// Options of ContactDetector.
struct NSDYN_KERNEL_API ContactDetectorOptions {
  double margin = 0.0;  ///< contact envelope (≥ 0): contacts with gap > margin are not reported
  double breakingDistance = 0.0;  ///< ≥ margin, for persistent contacts (see the class comment)
  int threads = 0;  ///< OpenMP threads, 0: omp_get_max_threads(); ignored without OpenMP
  BroadphaseOptions broadphase;  ///< its threads field is overridden by `threads`
  ConvexContactOptions ccd;
};

/// Contact detection over a scene of bodies (dynamic or static, each identified by its
/// index in the list given to the constructor / setBodies). Half-spaces are the
/// HalfSpaceShape instances of static bodies; terrains (TriangleMeshShape, HeightfieldShape,
/// static too) are paired with every dynamic shape whose AABB meets theirs, their triangles
/// found by their BVH or grid (narrowphase::terrainContacts, Kernel/API.md "Shapes").
///
/// detect():
/// 1. world pose of every shape = body pose ∘ shape offset (dynamic bodies read from q);
/// 2. world AABBs of the finite shapes, inflated by the margin, in an AabbArrays with
///    group = body index (a body's shapes are never paired); every static body shares one
///    group (= number of bodies), and half-spaces use it too, so static–static pairs are
///    never produced;
/// 3. UniformGridBroadphase::findPairs and findHalfSpacePairs;
/// 4. per pair, the closed forms of Narrowphase.hpp where one exists (sphere–sphere,
///    sphere–box, sphere–capsule, capsule–capsule, box–box; sphere, capsule and box on a
///    half-space, sphere–cylinder), convexContact (least overlap over directions, one point) for
///    the other finite pairs (hulls, cylinders with other shapes, capsule–box); a hull on a
///    half-space gets its vertices within the margin (up to 4, narrowphase::hullPlane), a
///    cylinder points of its cap rims (up to 4, narrowphase::cylinderPlane);
/// 5. contacts with gap ≤ margin (+ the two bodies' sweeps, see setSweep()) are kept, the
/// narrowphase loop runs in parallel (OpenMP,
///    static schedule, per-thread buffers concatenated in thread order = pair order),
///    and the result is stably sorted by key: bit-identical for any thread count.
///
/// Key layout (64 bits, most significant first):
///   bits 63..43  bodyA (lower body index, 21 bits)
///   bits 42..22  bodyB (higher body index, 21 bits)
///   bits 21..16  shapeA (6 bits)      bits 15..10 shapeB (6 bits)
///   bits  9..5   featureA (5 bits)    bits  4..0  featureB (5 bits)
/// so at most 2^21 bodies and 64 shapes per body (the constructor throws otherwise);
/// sorted by key means sorted by (bodyA, bodyB, shapeA, shapeB, featureA, featureB).
/// Keys are unique except in degenerate closed-form outputs (two points with the same
/// features); the stable sort keeps those in narrowphase order.
///
/// Breaking distance: detect() reports new contacts only up to the margin (envelope).
/// breakingDistance (≥ margin) is for the persistent-contact manager built on this
/// class: a contact already known from the previous step (same key) is to be kept
/// until its gap exceeds breakingDistance; it is validated and stored here, not used
/// by detect() itself.
class NSDYN_KERNEL_API ContactDetector {
 public:
  using Options = ContactDetectorOptions;
  struct Statistics {
    std::size_t shapes = 0;  ///< finite shape instances (AABBs)
    std::size_t halfSpaces = 0;
    std::size_t pairs = 0;           ///< broadphase shape pairs
    std::size_t halfSpacePairs = 0;  ///< broadphase (shape, half-space) pairs
    std::size_t closedFormPairs = 0;
    std::size_t ccdPairs = 0;
    std::size_t contacts = 0;
  };

  ContactDetector();
  ~ContactDetector();
  ContactDetector(const ContactDetector& other);
  ContactDetector(ContactDetector&& other) noexcept;
  ContactDetector& operator=(const ContactDetector& other);
  ContactDetector& operator=(ContactDetector&& other) noexcept;
  /// Throws nsdyn::Error for more than 2^21 bodies, a body with more than 64 shapes, a
  /// half-space on a dynamic body, margin < 0 or breakingDistance < margin (or non-finite).
  explicit ContactDetector(std::vector<BodyShapes> bodies, const Options& options = Options());

  void setBodies(std::vector<BodyShapes> bodies);
  const std::vector<BodyShapes>& bodies() const { return bodies_; }
  /// Detect over the bodies of a BodyStore instead (a scene engine's arrays): shapes, static
  /// flags and poses (q) are read from @p store at each detect(); it must outlive this
  /// detector or be replaced. Body indices are the store's. Same checks as setBodies
  /// (BodyStore already enforces them). setBodies() or setStore(nullptr) ends it.
  void setStore(const BodyStore* store);
  const BodyStore* store() const { return store_; }
  /// Bodies detected over (the store's or the BodyShapes list's).
  std::size_t bodyCount() const { return store_ ? store_->size() : bodies_.size(); }
  void setOptions(const Options& options);
  /// Per-body extra distance (m, one entry per body, each finite and >= 0; empty: none,
  /// the default): body b's AABBs are inflated by margin + sweep[b], and a pair of bodies
  /// (a, b) is reported while gap <= margin + sweep[a] + sweep[b] (swept detection: the
  /// distance each body may travel over the next step). Static bodies usually get 0.
  /// Throws nsdyn::Error for a wrong size or a negative / non-finite entry. setBodies()
  /// clears it.
  void setSweep(const std::vector<double>& sweep);
  const std::vector<double>& sweep() const { return sweep_; }
  /// The margin of the pair of bodies (a, b): margin + sweep[a] + sweep[b] (margin without a
  /// sweep).
  double pairMargin(std::int32_t a, std::int32_t b) const {
    return sweep_.empty() ? options_.margin
                          : options_.margin + sweep_[static_cast<std::size_t>(a)] +
                                sweep_[static_cast<std::size_t>(b)];
  }
  const Options& options() const { return options_; }

  /// Contacts at the current poses, sorted by key.
  const std::vector<DetectedContact>& detect();
  /// Same result from an all-pairs O(N²) loop (no broadphase, serial): for tests.
  std::vector<DetectedContact> detectBruteForce() const;

  const std::vector<DetectedContact>& contacts() const { return contacts_; }
  const Statistics& statistics() const { return stats_; }

  /// The key of (bodyA < bodyB, shapes, features); see the class comment.
  static std::uint64_t makeKey(std::uint32_t bodyA, std::uint32_t bodyB, std::uint32_t shapeA,
                               std::uint32_t shapeB, std::uint32_t featureA,
                               std::uint32_t featureB);

  /// Internal: one shape instance placed in the world (ContactDetector.cpp).
  struct PlacedShape;

 private:
  /// The stages' state and buffers: placed shapes, boxes, broadphase grid, pairs,
  /// per-thread narrowphase output, sort order (ContactDetector.cpp; the stages' headers are
  /// internal to the library).
  struct Stages;

  void place();
  void sortContacts(std::size_t finiteCount);

  std::vector<BodyShapes> bodies_;
  const BodyStore* store_ = nullptr;
  Options options_;
  std::vector<double> sweep_;  // per body, empty: none
  Statistics stats_;
  std::unique_ptr<Stages> stages_;  // never null
  std::vector<DetectedContact> contacts_;
};

}  // namespace nsdyn

#endif
