// Contact detection over a scene (see nsdyn/ContactDetector.hpp for the pipeline and the key layout).
#include "nsdyn/ContactDetector.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/SphereShape.hpp"

#include "mechanics/Threads.hpp"

namespace nsdyn {

namespace {

using narrowphase::ContactList;
using narrowphase::ContactPoint;
using narrowphase::Plane;
using Vec3 = quaternion::Vec3;
using Placed = ContactDetector::PlacedShape;

constexpr std::size_t kMaxBodies = std::size_t(1) << 21;
constexpr std::size_t kMaxShapes = 64;

using mechanics::threadId;

Plane worldPlane(const Placed& p) {
  const auto& hs = static_cast<const HalfSpaceShape&>(*p.shape);
  Plane plane;
  plane.normal = quaternion::rotate(p.pose.orientation, hs.normal());
  plane.offset = hs.offset() + quaternion::dot(plane.normal, p.pose.position);
  return plane;
}

// Contacts with A = a, B = b (b may be a half-space; a is finite). Returns true for a closed form.
bool rawContacts(const Placed& a, const Placed& b, double margin, const ConvexContactOptions& ccd, ContactList& out) {
  const ShapeKind ka = a.shape->kind(), kb = b.shape->kind();
  const std::size_t first = out.size();
  auto swapFrom = [&](std::size_t from) {
    for (std::size_t k = from; k < out.size(); ++k) out[k] = out[k].swapped();
  };
  if (kb == ShapeKind::HalfSpace) {
    const Plane plane = worldPlane(b);
    switch (ka) {
      case ShapeKind::Sphere:
        narrowphase::spherePlane(a.pose.position, static_cast<const SphereShape&>(*a.shape).radius(), plane, margin,
                                 out);
        return true;
      case ShapeKind::Capsule: {
        const auto& c = static_cast<const CapsuleShape&>(*a.shape);
        narrowphase::capsulePlane(a.pose, c.radius(), c.halfLength(), plane, margin, out);
        return true;
      }
      case ShapeKind::Box:
        narrowphase::boxPlane(a.pose, static_cast<const BoxShape&>(*a.shape).halfExtents(), plane, margin, out);
        return true;
      default: {
        // Exact: the support point in −n is the deepest point of a convex shape.
        const Vec3 minusN{-plane.normal[0], -plane.normal[1], -plane.normal[2]};
        const Vec3 p = a.shape->supportWorld(minusN, a.pose.position, a.pose.orientation);
        const double gap = quaternion::dot(plane.normal, p) - plane.offset;
        if (!(gap <= margin)) return true;
        ContactPoint cp;
        cp.pointA = p;
        cp.pointB = {p[0] - gap * plane.normal[0], p[1] - gap * plane.normal[1], p[2] - gap * plane.normal[2]};
        cp.normal = plane.normal;
        cp.gap = gap;
        out.push_back(cp);
        return true;
      }
    }
  }
  auto sphereR = [](const Placed& p) { return static_cast<const SphereShape&>(*p.shape).radius(); };
  auto boxH = [](const Placed& p) { return static_cast<const BoxShape&>(*p.shape).halfExtents(); };
  auto cap = [](const Placed& p) -> const CapsuleShape& { return static_cast<const CapsuleShape&>(*p.shape); };
  if (ka == ShapeKind::Sphere && kb == ShapeKind::Sphere) {
    narrowphase::sphereSphere(a.pose.position, sphereR(a), b.pose.position, sphereR(b), margin, out);
    return true;
  }
  if (ka == ShapeKind::Box && kb == ShapeKind::Box) {
    narrowphase::boxBox(a.pose, boxH(a), b.pose, boxH(b), margin, out);
    return true;
  }
  if (ka == ShapeKind::Capsule && kb == ShapeKind::Capsule) {
    const auto& ca = cap(a);
    const auto& cb = cap(b);
    narrowphase::capsuleCapsule(a.pose, ca.radius(), ca.halfLength(), b.pose, cb.radius(), cb.halfLength(), margin,
                                out);
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
        narrowphase::sphereCylinder(s.pose.position, sphereR(s), o.pose, c.radius(), c.halfLength(), margin, out);
      } else {
        const auto& c = cap(o);
        narrowphase::sphereCapsule(s.pose.position, sphereR(s), o.pose, c.radius(), c.halfLength(), margin, out);
      }
      if (!aSphere) swapFrom(first);
      return true;
    }
  }
  convexContact(*a.shape, a.pose, *b.shape, b.pose, margin, out, ccd);
  return false;
}

// Contacts of the pair (p, q) appended to @p out with A the lower body index.
bool collide(const Placed& p, const Placed& q, double margin, const ConvexContactOptions& ccd, ContactList& scratch,
             std::vector<DetectedContact>& out) {
  scratch.clear();
  const bool qPlane = q.shape->kind() == ShapeKind::HalfSpace;
  // A half-space is always second in rawContacts; otherwise the lower body first.
  const bool swap = qPlane ? (q.body < p.body) : (p.body > q.body);
  const Placed& first = (!qPlane && swap) ? q : p;
  const Placed& second = (!qPlane && swap) ? p : q;
  const bool closed = rawContacts(first, second, margin, ccd, scratch);
  const bool flip = qPlane && swap;  // computed as (finite, plane) but the plane's body is lower
  const Placed& A = flip ? q : first;
  const Placed& B = flip ? p : second;
  for (const ContactPoint& c0 : scratch) {
    const ContactPoint c = flip ? c0.swapped() : c0;
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
    d.key = ContactDetector::makeKey(static_cast<std::uint32_t>(d.bodyA), static_cast<std::uint32_t>(d.bodyB),
                                     static_cast<std::uint32_t>(d.shapeA), static_cast<std::uint32_t>(d.shapeB),
                                     static_cast<std::uint32_t>(d.featureA), static_cast<std::uint32_t>(d.featureB));
    out.push_back(d);
  }
  return closed;
}

void sortByKey(std::vector<DetectedContact>& c) {
  std::stable_sort(c.begin(), c.end(),
                   [](const DetectedContact& a, const DetectedContact& b) { return a.key < b.key; });
}

}  // namespace

std::uint64_t ContactDetector::makeKey(std::uint32_t bodyA, std::uint32_t bodyB, std::uint32_t shapeA,
                                       std::uint32_t shapeB, std::uint32_t featureA, std::uint32_t featureB) {
  return (std::uint64_t(bodyA & 0x1FFFFFu) << 43) | (std::uint64_t(bodyB & 0x1FFFFFu) << 22) |
         (std::uint64_t(shapeA & 0x3Fu) << 16) | (std::uint64_t(shapeB & 0x3Fu) << 10) |
         (std::uint64_t(featureA & 0x1Fu) << 5) | std::uint64_t(featureB & 0x1Fu);
}

ContactDetector::ContactDetector(std::vector<BodyShapes> bodies, const Options& options) {
  setOptions(options);
  setBodies(std::move(bodies));
}

void ContactDetector::setBodies(std::vector<BodyShapes> bodies) {
  if (bodies.size() > kMaxBodies)
    throw Error("ContactDetector", "at most 2^21 bodies", std::to_string(bodies.size()) + " bodies");
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const auto& shapes = bodies[b].shapes();
    if (shapes.size() > kMaxShapes)
      throw Error("ContactDetector", "at most 64 shapes per body",
                  "body " + std::to_string(b) + " has " + std::to_string(shapes.size()));
    if (!bodies[b].isStatic())
      for (const auto& s : shapes)
        if (s.shape->kind() == ShapeKind::HalfSpace)
          throw Error("ContactDetector", "half-spaces on static bodies only",
                      "body " + std::to_string(b) + " is dynamic");
  }
  bodies_ = std::move(bodies);
  sweep_.clear();
  contacts_.clear();
}

void ContactDetector::setSweep(const std::vector<double>& sweep) {
  if (!sweep.empty() && sweep.size() != bodies_.size())
    throw Error("ContactDetector::setSweep", "one sweep distance per body (" + std::to_string(bodies_.size()) + ")",
                std::to_string(sweep.size()) + " entries");
  for (std::size_t b = 0; b < sweep.size(); ++b)
    if (!(std::isfinite(sweep[b]) && sweep[b] >= 0.0))
      throw Error("ContactDetector::setSweep", "sweep distances finite and >= 0",
                  "body " + std::to_string(b) + ": " + std::to_string(sweep[b]));
  sweep_ = sweep;
}

void ContactDetector::setOptions(const Options& options) {
  if (!(std::isfinite(options.margin) && options.margin >= 0.0))
    throw Error("ContactDetector", "margin finite and >= 0", "margin = " + std::to_string(options.margin));
  if (!(std::isfinite(options.breakingDistance) && options.breakingDistance >= options.margin))
    throw Error("ContactDetector", "breakingDistance finite and >= margin",
                "breakingDistance = " + std::to_string(options.breakingDistance));
  options_ = options;
}

void ContactDetector::place() {
  finite_.clear();
  planes_.clear();
  aabbs_.clear();
  halfSpaces_.clear();
  const std::int64_t staticGroup = static_cast<std::int64_t>(bodies_.size());
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    const double m = sweep_.empty() ? options_.margin : options_.margin + sweep_[b];
    const BodyShapes& body = bodies_[b];
    const Shape::Vec3 bp = body.position();
    const Shape::Quat bq = body.orientation();
    const auto& shapes = body.shapes();
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      Placed p;
      p.shape = shapes[s].shape.get();
      p.pose.position = shapes[s].worldPosition(bp, bq);
      p.pose.orientation = shapes[s].worldOrientation(bq);
      p.body = static_cast<std::int32_t>(b);
      p.shapeIndex = static_cast<std::int32_t>(s);
      p.isStatic = body.isStatic();
      if (p.shape->kind() == ShapeKind::HalfSpace) {
        const Plane plane = worldPlane(p);
        halfSpaces_.push_back({plane.normal, plane.offset, staticGroup});
        planes_.push_back(p);
      } else {
        Shape::Aabb box = p.shape->boundingBox(p.pose.position, p.pose.orientation);
        for (int k = 0; k < 3; ++k) {
          box.min[k] -= m;
          box.max[k] += m;
        }
        aabbs_.push_back(box, p.isStatic ? staticGroup : static_cast<std::int64_t>(b));
        finite_.push_back(p);
      }
    }
  }
}

const std::vector<DetectedContact>& ContactDetector::detect() {
  place();
  const int nt = mechanics::threadsFor(options_.threads, finite_.size() + planes_.size());
  UniformGridBroadphase::Options bo = options_.broadphase;
  bo.threads = nt;
  broadphase_.setOptions(bo);
  if (aabbs_.size() > 0)
    broadphase_.findPairs(aabbs_, pairs_);
  else
    pairs_.clear();
  const std::vector<BoxHalfSpacePair> hsPairs =
      aabbs_.size() > 0 && !halfSpaces_.empty()
          ? UniformGridBroadphase::findHalfSpacePairs(aabbs_, halfSpaces_, 0.0, nt)
          : std::vector<BoxHalfSpacePair>();

  stats_ = Statistics();
  stats_.shapes = finite_.size();
  stats_.halfSpaces = planes_.size();
  stats_.pairs = pairs_.size();
  stats_.halfSpacePairs = hsPairs.size();

  threadContacts_.resize(static_cast<std::size_t>(nt));
  for (auto& t : threadContacts_) t.clear();
  const std::int64_t nPairs = static_cast<std::int64_t>(pairs_.size());
  const std::int64_t nTasks = nPairs + static_cast<std::int64_t>(hsPairs.size());
  const double margin = options_.margin;
  const bool swept = !sweep_.empty();
  std::size_t closedCount = 0, ccdCount = 0;
  NSD_OMP(omp parallel num_threads(nt) reduction(+ : closedCount, ccdCount)) {
    std::vector<DetectedContact>& local = threadContacts_[static_cast<std::size_t>(threadId())];
    ContactList scratch;
    NSD_OMP(omp for schedule(static))
    for (std::int64_t t = 0; t < nTasks; ++t) {
      bool closed;
      if (t < nPairs) {
        const BroadphasePair& pr = pairs_[static_cast<std::size_t>(t)];
        const Placed& a = finite_[pr.i];
        const Placed& b = finite_[pr.j];
        closed = collide(a, b, swept ? pairMargin(a.body, b.body) : margin, options_.ccd, scratch, local);
      } else {
        const BoxHalfSpacePair& pr = hsPairs[static_cast<std::size_t>(t - nPairs)];
        const Placed& a = finite_[pr.box];
        const Placed& p = planes_[pr.halfSpace];
        closed = collide(a, p, swept ? pairMargin(a.body, p.body) : margin, options_.ccd, scratch, local);
      }
      if (closed)
        ++closedCount;
      else
        ++ccdCount;
    }
  }
  stats_.closedFormPairs = closedCount;
  stats_.ccdPairs = ccdCount;

  contacts_.clear();
  std::size_t total = 0;
  for (const auto& t : threadContacts_) total += t.size();
  contacts_.reserve(total);
  for (const auto& t : threadContacts_) contacts_.insert(contacts_.end(), t.begin(), t.end());
  sortByKey(contacts_);
  stats_.contacts = contacts_.size();
  return contacts_;
}

std::vector<DetectedContact> ContactDetector::detectBruteForce() const {
  ContactDetector copy(bodies_, options_);
  copy.sweep_ = sweep_;
  copy.place();
  std::vector<DetectedContact> out;
  ContactList scratch;
  const auto& f = copy.finite_;
  for (std::size_t i = 0; i < f.size(); ++i) {
    for (std::size_t j = i + 1; j < f.size(); ++j) {
      if (f[i].body == f[j].body || (f[i].isStatic && f[j].isStatic)) continue;
      collide(f[i], f[j], pairMargin(f[i].body, f[j].body), options_.ccd, scratch, out);
    }
    if (f[i].isStatic) continue;
    for (const Placed& p : copy.planes_) collide(f[i], p, pairMargin(f[i].body, p.body), options_.ccd, scratch, out);
  }
  sortByKey(out);
  return out;
}

}  // namespace nsdyn
