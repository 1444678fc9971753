// Contacts of one pair of placed shapes, by kind: the closed forms of the narrowphase, the
// triangle contacts of terrains, the convex contact otherwise (ContactDetector's narrowphase
// stage; DetectorStages.hpp).
#include "mechanics/detection/DetectorStages.hpp"

#include <algorithm>
#include <cmath>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include "mechanics/narrowphase/NarrowphaseMath.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ConvexContact.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/Narrowphase.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/TerrainShape.hpp"
#include "nsdyn/TriangleNarrowphase.hpp"

namespace nsdyn {
namespace detection {
namespace {

using narrowphase::ContactList;
using narrowphase::ContactPoint;
using narrowphase::Plane;
using Vec3 = quaternion::Vec3;

}  // namespace

/// Shape::boundingBox (six support points, each rotated into the body frame and back) with
/// the stack rotations of NarrowphaseMath.hpp: the same bits without the twelve heap
/// matrices of quaternion::rotate / rotateTranspose per shape and step.
Shape::Aabb boundingBoxExact(const Shape& shape, const narrowphase::Pose& pose) {
  Shape::Aabb box{};
  for (std::size_t i = 0; i < 3; ++i) {
    for (const double sign : {1.0, -1.0}) {
      Vec3 e{0.0, 0.0, 0.0};
      e[i] = sign;
      const Vec3 local =
          shape.support(narrowphase::detail::rotateTransposeExact(pose.orientation, e));
      const Vec3 w = narrowphase::detail::rotateExact(pose.orientation, local);
      (sign > 0.0 ? box.max : box.min)[i] = pose.position[i] + w[i];
    }
  }
  return box;
}

Plane worldPlane(const Placed& p) {
  const auto& hs = static_cast<const HalfSpaceShape&>(*p.shape);
  Plane plane;
  plane.normal = narrowphase::detail::rotateExact(p.pose.orientation, hs.normal());
  plane.offset = hs.offset() + quaternion::dot(plane.normal, p.pose.position);
  return plane;
}

// Contacts with A = a, B = b (b may be a half-space, its world plane @p bPlane; a is finite).
// Returns true for a closed form.
static bool rawContacts(const Placed& a, const Placed& b, const Plane* bPlane, double margin,
                        const ConvexContactOptions& ccd, ContactList& out) {
  const ShapeKind ka = a.shape->kind(), kb = b.shape->kind();
  const std::size_t first = out.size();
  auto swapFrom = [&](std::size_t from) {
    for (std::size_t k = from; k < out.size(); ++k) out[k] = out[k].swapped();
  };
  if (kb == ShapeKind::TriangleMesh || kb == ShapeKind::Heightfield) {  // terrains: B
    narrowphase::terrainContacts(*a.shape, a.pose, static_cast<const TerrainShape&>(*b.shape),
                                 b.pose, margin, out, ccd);
    return true;
  }
  if (ka == ShapeKind::TriangleMesh || ka == ShapeKind::Heightfield) {
    narrowphase::terrainContacts(*b.shape, b.pose, static_cast<const TerrainShape&>(*a.shape),
                                 a.pose, margin, out, ccd);
    swapFrom(first);
    return true;
  }
  if (kb == ShapeKind::HalfSpace) {
    const Plane plane = bPlane ? *bPlane : worldPlane(b);
    switch (ka) {
      case ShapeKind::Sphere:
        narrowphase::spherePlane(a.pose.position,
                                 static_cast<const SphereShape&>(*a.shape).radius(), plane, margin,
                                 out);
        return true;
      case ShapeKind::Capsule: {
        const auto& c = static_cast<const CapsuleShape&>(*a.shape);
        narrowphase::capsulePlane(a.pose, c.radius(), c.halfLength(), plane, margin, out);
        return true;
      }
      case ShapeKind::Box:
        narrowphase::boxPlane(a.pose, static_cast<const BoxShape&>(*a.shape).halfExtents(), plane,
                              margin, out);
        return true;
      case ShapeKind::ConvexHull:
        narrowphase::hullPlane(a.pose, static_cast<const ConvexHullShape&>(*a.shape).vertices(),
                               plane, margin, out);
        return true;
      case ShapeKind::Cylinder: {
        const auto& c = static_cast<const CylinderShape&>(*a.shape);
        narrowphase::cylinderPlane(a.pose, c.radius(), c.halfLength(), plane, margin, out);
        return true;
      }
      default: {
        // Exact: the support point in −n is the deepest point of a convex shape.
        const Vec3 minusN{-plane.normal[0], -plane.normal[1], -plane.normal[2]};
        const Vec3 p = a.shape->supportWorld(minusN, a.pose.position, a.pose.orientation);
        const double gap = quaternion::dot(plane.normal, p) - plane.offset;
        if (!(gap <= margin)) return true;
        ContactPoint cp;
        cp.pointA = p;
        cp.pointB = {p[0] - gap * plane.normal[0], p[1] - gap * plane.normal[1],
                     p[2] - gap * plane.normal[2]};
        cp.normal = plane.normal;
        cp.gap = gap;
        out.push_back(cp);
        return true;
      }
    }
  }
  auto sphereR = [](const Placed& p) { return static_cast<const SphereShape&>(*p.shape).radius(); };
  auto boxH = [](const Placed& p) { return static_cast<const BoxShape&>(*p.shape).halfExtents(); };
  auto cap = [](const Placed& p) -> const CapsuleShape& {
    return static_cast<const CapsuleShape&>(*p.shape);
  };
  if (ka == ShapeKind::Sphere && kb == ShapeKind::Sphere) {
    narrowphase::sphereSphere(a.pose.position, sphereR(a), b.pose.position, sphereR(b), margin,
                              out);
    return true;
  }
  if (ka == ShapeKind::Box && kb == ShapeKind::Box) {
    narrowphase::boxBox(a.pose, boxH(a), b.pose, boxH(b), margin, out);
    return true;
  }
  if (ka == ShapeKind::Capsule && kb == ShapeKind::Capsule) {
    const auto& ca = cap(a);
    const auto& cb = cap(b);
    narrowphase::capsuleCapsule(a.pose, ca.radius(), ca.halfLength(), b.pose, cb.radius(),
                                cb.halfLength(), margin, out);
    return true;
  }
  // Sphere against box or capsule, either order.
  const bool aSphere = ka == ShapeKind::Sphere, bSphere = kb == ShapeKind::Sphere;
  if (aSphere || bSphere) {
    const Placed& s = aSphere ? a : b;
    const Placed& o = aSphere ? b : a;
    const ShapeKind ko = o.shape->kind();
    if (ko == ShapeKind::Box || ko == ShapeKind::Capsule || ko == ShapeKind::Cylinder) {
      if (ko == ShapeKind::Box) {
        narrowphase::sphereBox(s.pose.position, sphereR(s), o.pose, boxH(o), margin, out);
      } else if (ko == ShapeKind::Cylinder) {
        const auto& c = static_cast<const CylinderShape&>(*o.shape);
        narrowphase::sphereCylinder(s.pose.position, sphereR(s), o.pose, c.radius(), c.halfLength(),
                                    margin, out);
      } else {
        const auto& c = cap(o);
        narrowphase::sphereCapsule(s.pose.position, sphereR(s), o.pose, c.radius(), c.halfLength(),
                                   margin, out);
      }
      if (!aSphere) swapFrom(first);
      return true;
    }
  }
  convexManifold(*a.shape, a.pose, *b.shape, b.pose, margin, out, ccd);
  return false;
}

// The contact of the pair (p, q) appended to @p out with A the lower body index.
static DetectedContact detected(const Placed& A, const Placed& B, const ContactPoint& c) {
  DetectedContact d;
  d.bodyA = A.body;
  d.bodyB = B.body;
  d.shapeA = A.shapeIndex;
  d.shapeB = B.shapeIndex;
  d.featureA = c.featureA;
  d.featureB = c.featureB;
  d.pointA = c.pointA;
  d.pointB = c.pointB;
  d.normal = c.normal;
  d.gap = c.gap;
  d.key = ContactDetector::makeKey(
      static_cast<std::uint32_t>(d.bodyA), static_cast<std::uint32_t>(d.bodyB),
      static_cast<std::uint32_t>(d.shapeA), static_cast<std::uint32_t>(d.shapeB),
      static_cast<std::uint32_t>(d.featureA), static_cast<std::uint32_t>(d.featureB));
  return d;
}

// Contacts of the pair (p, q) appended to @p out with A the lower body index (q a half-space
// when @p qPlane, its world plane, is given or q's kind says so).
bool collide(const Placed& p, const Placed& q, const Plane* qPlane, double margin,
             const ConvexContactOptions& ccd, ContactList& scratch,
             std::vector<DetectedContact>& out) {
  scratch.clear();
  const bool isPlane = qPlane != nullptr || q.shape->kind() == ShapeKind::HalfSpace;
  // A half-space is always second in rawContacts; otherwise the lower body first.
  const bool swap = isPlane ? (q.body < p.body) : (p.body > q.body);
  const Placed& first = (!isPlane && swap) ? q : p;
  const Placed& second = (!isPlane && swap) ? p : q;
  const bool closed = rawContacts(first, second, qPlane, margin, ccd, scratch);
  const bool flip = isPlane && swap;  // computed as (finite, plane) but the plane's body is lower
  const Placed& A = flip ? q : first;
  const Placed& B = flip ? p : second;
  for (const ContactPoint& c0 : scratch) out.push_back(detected(A, B, flip ? c0.swapped() : c0));
  return closed;
}

// Two spheres of radii rp, rq: what collide() gives (rawContacts' sphereSphere), without
// the scratch list and the virtual calls.
void collideSpheres(const Placed& p, double rp, const Placed& q, double rq, double margin,
                    std::vector<DetectedContact>& out) {
  const bool swap = p.body > q.body;
  const Placed& A = swap ? q : p;
  const Placed& B = swap ? p : q;
  const ContactPoint c = narrowphase::detail::sphereContact(
      A.pose.position, swap ? rq : rp, B.pose.position, swap ? rp : rq, Vec3{0.0, 0.0, 1.0});
  if (!(c.gap <= margin)) return;
  out.push_back(detected(A, B, c));
}

}  // namespace detection
}  // namespace nsdyn
