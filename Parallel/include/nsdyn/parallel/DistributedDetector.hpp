/// @file DistributedDetector.hpp
/// @brief Contact detection across subdomains: the Kernel's ContactDetector on a rank's
///        owned + ghost bodies, each contact kept by exactly one rank.
#ifndef NSDYN_PARALLEL_DISTRIBUTEDDETECTOR_HPP
#define NSDYN_PARALLEL_DISTRIBUTEDDETECTOR_HPP

#include <cstdint>
#include <functional>
#include <vector>

#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/ShapeInstance.hpp"
#include "nsdyn/parallel/Decomposition.hpp"

namespace nsdyn {
namespace parallel {

/// A contact found on this rank: the global ids of its bodies (idA < idB) and the
/// Kernel's contact, whose bodyA / bodyB are indices into the rank's local set
/// (DistributedDetector::localIds()) and whose key is built from those indices.
struct DistributedContact {
  std::int64_t idA = 0, idB = 0;
  DetectedContact contact;
};

/// Detection over a Decomposition. detect():
///  1. the local set = owned() ∪ ghosts(), sorted by global id, so that local index order
///     is global id order and ContactDetector's bodyA < bodyB means idA < idB;
///  2. one dynamic body per local body (makeBody, unit density, identity orientation,
///     the shapes of the shape function: by default one sphere of the bounding radius);
///  3. ContactDetector::detect() (uniform grid, closed forms / libccd, OpenMP);
///  4. a contact is kept iff this rank owns body A (the lower global id) — or, when A is
///     one of the static bodies (setStaticBodies: on every rank), body B: the owner of
///     A sees B, since B's box inflated by halo ≥ radius(A) + margin reaches A's centre,
///     which lies in the owner's subdomain. So every pair of the single-process detection
///     is kept by exactly one rank, with the same contact data bit for bit.
/// Result sorted by (idA, idB, shapes, features).
class DistributedDetector {
 public:
  /// Shapes of the body with global id @p id and bounding radius @p radius (in the body
  /// frame at the centre; they must fit in the ball of that radius).
  using ShapeFunction = std::function<std::vector<ShapeInstance>(std::int64_t id, double radius)>;

  explicit DistributedDetector(const ContactDetectorOptions& options = ContactDetectorOptions(),
                               ShapeFunction shapes = ShapeFunction());

  /// Static bodies (walls, floors, half-spaces; BodyShapes::isStatic()) held by every rank
  /// with their global ids (≥ 0, distinct from each other and from the decomposition's
  /// bodies): merged into every rank's local set by id. A static–dynamic contact is kept
  /// by the dynamic body's owner; static–static pairs are never produced. Local; checked
  /// (nsdyn::Error) here: sizes, negative or repeated ids, a body that is not static.
  void setStaticBodies(std::vector<std::int64_t> ids, std::vector<BodyShapes> bodies);
  const std::vector<std::int64_t>& staticIds() const { return staticIds_; }

  /// Collective over decomposition.comm(). Throws nsdyn::Error on every rank if the halo
  /// is below the largest bounding radius + margin, or before partition().
  const std::vector<DistributedContact>& detect(const Decomposition& decomposition);

  const std::vector<DistributedContact>& contacts() const { return contacts_; }
  /// Global ids of the local set of the last detect() (owned and ghosts, sorted).
  const std::vector<std::int64_t>& localIds() const { return localIds_; }
  /// Per local body of the last detect(): 1 for a static body, else 0.
  const std::vector<char>& localStatic() const { return localStatic_; }
  /// Contacts over all ranks in the last detect() (set by detect: one MPI_Allreduce).
  std::uint64_t globalCount() const { return globalCount_; }
  const ContactDetector& detector() const { return detector_; }

 private:
  ContactDetectorOptions options_;
  ShapeFunction shapes_;
  ContactDetector detector_;
  std::vector<std::int64_t> localIds_;
  std::vector<char> localStatic_;
  // dynamic bodies of the last detect(), by id (reused with their pose updated)
  std::vector<std::int64_t> cachedIds_;
  std::vector<double> cachedRadius_;
  std::vector<BodyShapes> cachedBodies_;
  std::vector<std::int64_t> staticIds_;
  std::vector<BodyShapes> statics_;
  std::vector<DistributedContact> contacts_;
  std::uint64_t globalCount_ = 0;
};

}  // namespace parallel
}  // namespace nsdyn

#endif
