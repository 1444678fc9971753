// One frame of a rigid-body scene in plain arrays, from either engine
// (nsdyn/io/SceneFrameView.hpp).
#include "nsdyn/io/SceneFrameView.hpp"

#include "SceneWriterChecks.hpp"
#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/BodyStore.hpp"
#include "nsdyn/ContactSet.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/SceneContacts.hpp"

namespace nsdyn::io {

namespace {

// The contact pointers of @p view from @p c (same field names in ContactSet and SceneContacts).
template <class Contacts>
void pointContacts(SceneFrameView& view, const Contacts& c, bool hasMu, bool hasVelocity) {
  view.contactCount = c.size();
  view.active = c.active.data();
  view.bodyA = c.bodyA.data();
  view.bodyB = c.bodyB.data();
  view.key = c.key.size() == c.size() ? c.key.data() : nullptr;
  view.frame = c.frame.data();
  view.pointA = c.pointA.data();
  view.pointB = c.pointB.data();
  view.gap = c.gap.data();
  view.impulse = c.impulse.data();
  view.contactVelocity = hasVelocity ? c.velocity.data() : nullptr;
  view.mu = hasMu ? c.mu.data() : nullptr;
}

}  // namespace

SceneFrameView SceneFrameView::of(const std::vector<BodyShapes>& bodies, const ContactSet& contacts,
                                  const std::string& who) {
  bool hasMu = false, hasVelocity = false;
  detail::checkContactArrays(contacts, bodies.size(), who, "ContactSet", hasMu, hasVelocity);
  SceneFrameView view;
  const std::size_t n = bodies.size();
  view.ownStatic_.resize(n);
  view.ownId_.resize(n);
  view.ownQ_.resize(7 * n);
  view.ownVelocity_.assign(6 * n, 0.0);
  view.ownMass_.assign(n, 0.0);
  view.ownInertia_.assign(9 * n, 0.0);
  view.ownShapeStart_.reserve(n + 1);
  view.ownShapeStart_.push_back(0);
  for (std::size_t b = 0; b < n; ++b) {
    const BodyShapes& body = bodies[b];
    view.ownStatic_[b] = body.isStatic() ? 1 : 0;
    view.ownId_[b] = static_cast<std::int64_t>(b);
    const Shape::Vec3 x = body.position();
    const Shape::Quat r = body.orientation();
    for (std::size_t i = 0; i < 3; ++i) view.ownQ_[7 * b + i] = x[i];
    for (std::size_t i = 0; i < 4; ++i) view.ownQ_[7 * b + 3 + i] = r[i];
    if (!body.isStatic()) {
      const NewtonEulerDS& ds = *body.body();
      const SiconosVector& v = ds.velocity();
      const SiconosVector w = ds.angularVelocityWorld();
      for (std::size_t i = 0; i < 3; ++i) {
        view.ownVelocity_[6 * b + i] = v(i);
        view.ownVelocity_[6 * b + 3 + i] = w(i);
      }
      view.ownMass_[b] = ds.scalarMass();
      for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j)
          view.ownInertia_[9 * b + 3 * i + j] = ds.inertia()(i, j);
    }
    view.ownShapes_.insert(view.ownShapes_.end(), body.shapes().begin(), body.shapes().end());
    view.ownShapeStart_.push_back(static_cast<std::uint32_t>(view.ownShapes_.size()));
  }
  view.bodyCount = n;
  view.isStatic = view.ownStatic_.data();
  view.id = view.ownId_.data();
  view.q = view.ownQ_.data();
  view.velocity = view.ownVelocity_.data();
  view.shapes = view.ownShapes_.data();
  view.shapeStart = view.ownShapeStart_.data();
  view.mass = view.ownMass_.data();
  view.inertia = view.ownInertia_.data();
  pointContacts(view, contacts, hasMu, hasVelocity);
  return view;
}

SceneFrameView SceneFrameView::of(const BodyStore& bodies, const SceneContacts& contacts,
                                  const std::string& who) {
  const std::size_t n = bodies.size();
  const std::string where = who + ": BodyStore";
  // the store's arrays of their sizes (a distributed implementation resizes them)
  detail::needEntries(where, "q", bodies.q.size(), 7, n);
  detail::needEntries(where, "v", bodies.v.size(), 6, n);
  detail::needEntries(where, "isStatic", bodies.isStatic.size(), 1, n);
  detail::needEntries(where, "ghost", bodies.ghost.size(), 1, n);
  detail::needEntries(where, "id", bodies.id.size(), 1, n);
  detail::needEntries(where, "shapeStart", bodies.shapeStart.size(), 1, n + 1);
  bool hasMu = false, hasVelocity = false;
  detail::checkContactArrays(contacts, n, who, "SceneContacts", hasMu, hasVelocity);
  SceneFrameView view;
  view.ownVelocity_.assign(6 * n, 0.0);
  for (std::size_t b = 0; b < n; ++b) {
    if (bodies.isStatic[b]) continue;
    const Shape::Vec3 w = bodies.angularVelocityWorld(b);
    for (std::size_t i = 0; i < 3; ++i) {
      view.ownVelocity_[6 * b + i] = bodies.v[6 * b + i];
      view.ownVelocity_[6 * b + 3 + i] = w[i];
    }
  }
  bool ghosts = false;
  for (std::uint8_t g : bodies.ghost) ghosts = ghosts || g != 0;
  view.bodyCount = n;
  view.isStatic = bodies.isStatic.data();
  view.ghost = ghosts ? bodies.ghost.data() : nullptr;
  view.id = bodies.id.data();
  view.q = bodies.q.data();
  view.velocity = view.ownVelocity_.data();
  view.shapes = bodies.shapes.data();
  view.shapeStart = bodies.shapeStart.data();
  view.mass = bodies.mass.size() == n ? bodies.mass.data() : nullptr;
  view.inertia = bodies.inertia.size() == 9 * n ? bodies.inertia.data() : nullptr;
  pointContacts(view, contacts, hasMu, hasVelocity);
  return view;
}

void SceneFrameView::check(const std::string& who, bool dynamics) const {
  if (part != 0 || parts != 1)
    throw Error(
        who, "a frame of one part (part 0 of 1; parts of a distributed scene are not written yet)",
        "part " + std::to_string(part) + " of " + std::to_string(parts));
  if (bodyCount > 0 && (!isStatic || !id || !q || !velocity || !shapes || !shapeStart))
    throw Error(who, "the body arrays of " + std::to_string(bodyCount) + " bodies", "a null array");
  for (std::size_t b = 0; b < bodyCount; ++b) {
    if (isGhost(b))
      throw Error(who + ": body " + std::to_string(b), "an owned body (one part has no ghost)",
                  "a ghost");
    if (!(shapeStart[b + 1] > shapeStart[b]))
      throw Error(who + ": body " + std::to_string(b), "at least one shape", "none");
  }
  const std::string where = who + ": contacts";
  if (contactCount > 0 &&
      (!active || !bodyA || !bodyB || !frame || !pointA || !pointB || !gap || !impulse))
    throw Error(where, "the contact arrays of " + std::to_string(contactCount) + " contacts",
                "a null array");
  if (dynamics && contactCount > 0 && !mu)
    throw Error(where,
                "mu of " + std::to_string(contactCount) + " entries (" +
                    std::to_string(contactCount) + " contacts)",
                "none");
  if (dynamics && contactCount > 0 && !contactVelocity)
    throw Error(where,
                "velocity of " + std::to_string(3 * contactCount) + " entries (" +
                    std::to_string(contactCount) + " contacts)",
                "none");
  detail::checkBodyIndices(bodyA, bodyB, contactCount, bodyCount, who);
}

}  // namespace nsdyn::io
