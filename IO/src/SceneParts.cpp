// The parts of a scene on one process (nsdyn/io/SceneParts.hpp): an owning frame's view, and
// the one-process answers of the collective calls (Parallel/ has the MPI ones).
#include "nsdyn/io/SceneParts.hpp"

#include "nsdyn/BodyStore.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SceneContacts.hpp"

namespace nsdyn::io {

namespace {

// The data of @p v, or null when @p v is not of @p entries entries (an optional array).
template <class T>
const T* optional(const std::vector<T>& v, std::size_t entries) {
  return !v.empty() && v.size() == entries ? v.data() : nullptr;
}

}  // namespace

SceneFrameView SceneFrameArrays::view() const {
  SceneFrameView v;
  v.part = 0;
  v.parts = 1;
  v.bodyCount = bodyCount();
  v.isStatic = isStatic.data();
  v.ghost = nullptr;
  v.id = id.data();
  v.q = q.data();
  v.velocity = velocity.data();
  v.shapes = shapes.data();
  v.shapeStart = shapeStart.data();
  v.mass = optional(mass, v.bodyCount);
  v.inertia = optional(inertia, 9 * v.bodyCount);
  const std::size_t n = contactCount();
  v.contactCount = n;
  v.active = active.data();
  v.bodyA = bodyA.data();
  v.bodyB = bodyB.data();
  v.key = optional(key, n);
  v.frame = frame.data();
  v.pointA = pointA.data();
  v.pointB = pointB.data();
  v.gap = gap.data();
  v.impulse = impulse.data();
  v.contactVelocity = optional(contactVelocity, 3 * n);
  v.mu = optional(mu, n);
  return v;
}

const SceneFrameView* SceneParts::gather(const BodyStore& bodies, const SceneContacts& contacts) {
  local_ = SceneFrameView::of(bodies, contacts);
  return gather(local_);
}

void SceneParts::agree(const std::string& fault) {
  if (!fault.empty()) throw Error(fault);
}

}  // namespace nsdyn::io
