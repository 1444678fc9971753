// The stages of ContactDetector and the contacts of one pair of placed shapes (internal to
// Kernel/src/mechanics/detection: ContactDetector.cpp runs the pipeline, PairContacts.cpp holds
// the pair functions).
#ifndef NSDYN_KERNEL_DETECTION_STAGES_HPP
#define NSDYN_KERNEL_DETECTION_STAGES_HPP

#include <array>
#include <cstdint>
#include <vector>

#include "nsdyn/Broadphase.hpp"
#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/ConvexContact.hpp"
#include "nsdyn/Narrowphase.hpp"

namespace nsdyn {

struct ContactDetector::PlacedShape {
  const Shape* shape = nullptr;
  narrowphase::Pose pose;
  std::int32_t body = 0;
  std::int32_t shapeIndex = 0;
  bool isStatic = false;
};

struct ContactDetector::Stages {
  /// A contact's key and its index in the narrowphase output (the sort of detect()).
  struct KeyIndex {
    std::uint64_t key;
    std::uint64_t index;
  };
  std::vector<PlacedShape> finite_;       // one per AABB
  std::vector<PlacedShape> planes_;       // half-spaces (world pose of the shape)
  std::vector<std::uint8_t> finiteKind_;  // ShapeKind of finite_[k]
  std::vector<double> finiteRadius_;      // radius of finite_[k] when a sphere (0 otherwise)
  AabbArrays aabbs_;
  std::vector<BroadphaseHalfSpace> halfSpaces_;  // also the world plane of planes_[k]
  UniformGridBroadphase broadphase_;
  std::vector<BroadphasePair> pairs_;
  std::vector<BoxHalfSpacePair> hsPairs_;
  // several threads: the contacts of threads 1.. (thread 0 writes into contacts_)
  std::vector<std::vector<DetectedContact>> threadContacts_;
  std::vector<std::vector<narrowphase::ContactPoint>> threadScratch_;
  std::vector<std::size_t> threadFinite_;  // per thread: contacts of finite pairs first
  std::vector<KeyIndex> order_;
  std::vector<DetectedContact> tail_;      // the half-space contacts, sorted, to merge
  std::vector<PlacedShape> terrains_;      // triangle meshes and heightfields
  std::vector<Shape::Aabb> terrainBoxes_;  // their world AABBs
  std::vector<std::array<std::uint32_t, 2>> terrainPairs_;  // (finite_ index, terrains_ index)
};

namespace detection {

using Placed = ContactDetector::PlacedShape;

/// Shape::boundingBox with the stack rotations of NarrowphaseMath.hpp (the same bits).
Shape::Aabb boundingBoxExact(const Shape& shape, const narrowphase::Pose& pose);

/// The world plane of a placed half-space.
narrowphase::Plane worldPlane(const Placed& p);

/// Contacts of the pair (p, q) appended to @p out with A the lower body index (q a half-space
/// when @p qPlane, its world plane, is given or q's kind says so). True for a closed form.
bool collide(const Placed& p, const Placed& q, const narrowphase::Plane* qPlane, double margin,
             const ConvexContactOptions& ccd, narrowphase::ContactList& scratch,
             std::vector<DetectedContact>& out);

/// Two spheres of radii rp, rq: what collide() gives, without the scratch list and the virtual
/// calls.
void collideSpheres(const Placed& p, double rp, const Placed& q, double rq, double margin,
                    std::vector<DetectedContact>& out);

}  // namespace detection
}  // namespace nsdyn

#endif
