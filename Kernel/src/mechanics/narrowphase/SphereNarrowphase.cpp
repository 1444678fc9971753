// Narrowphase pairs with a sphere as body A: sphere–sphere, sphere–plane,
// sphere–box, sphere–capsule (see nsdyn/Narrowphase.hpp).
#include <cmath>

#include "NarrowphaseMath.hpp"
#include "nsdyn/Narrowphase.hpp"

namespace nsdyn {
namespace narrowphase {

using namespace detail;

int sphereSphere(const Vec3& centerA, double radiusA, const Vec3& centerB, double radiusB,
                 double margin, ContactList& out) {
  const ContactPoint cp = sphereContact(centerA, radiusA, centerB, radiusB, Vec3{0.0, 0.0, 1.0});
  if (!(cp.gap <= margin)) return 0;
  out.push_back(cp);
  return 1;
}

int spherePlane(const Vec3& center, double radius, const Plane& plane, double margin,
                ContactList& out) {
  const double height = dot(plane.normal, center) - plane.offset;  // signed distance of the centre
  ContactPoint cp;
  cp.normal = plane.normal;
  cp.gap = height - radius;
  if (!(cp.gap <= margin)) return 0;
  cp.pointA = axpy(center, -radius, plane.normal);
  cp.pointB = axpy(center, -height, plane.normal);
  out.push_back(cp);
  return 1;
}

int sphereBox(const Vec3& center, double radius, const Pose& box, const Vec3& halfExtents,
              double margin, ContactList& out) {
  const Vec3 c = box.toBody(center);
  Vec3 q = c;  // closest point of the box, body frame
  int sign[3] = {0, 0, 0};
  int clamped = 0;
  for (int k = 0; k < 3; ++k) {
    if (c[k] > halfExtents[k]) {
      q[k] = halfExtents[k];
      sign[k] = 1;
      ++clamped;
    } else if (c[k] < -halfExtents[k]) {
      q[k] = -halfExtents[k];
      sign[k] = -1;
      ++clamped;
    }
  }
  ContactPoint cp;
  Vec3 nBody{0.0, 0.0, 1.0};
  if (clamped > 0) {
    const Vec3 d = sub(c, q);
    const double dist = norm(d);
    nBody = scale(d, 1.0 / dist);
    cp.gap = dist - radius;
    int axis = 0;
    for (int k = 0; k < 3; ++k)
      if (sign[k] == 0) axis = k;
    if (clamped == 1) {
      for (int k = 0; k < 3; ++k)
        if (sign[k] != 0) cp.featureB = boxFaceId(k, sign[k]);
    } else if (clamped == 2) {
      cp.featureB = boxEdgeId(axis, sign);
    } else {
      cp.featureB = boxVertexId(sign);
    }
  } else {
    // Centre inside: push out through the face of least depth (lowest axis on ties).
    int best = 0;
    double bestDepth = halfExtents[0] - std::abs(c[0]);
    for (int k = 1; k < 3; ++k) {
      const double depth = halfExtents[k] - std::abs(c[k]);
      if (depth < bestDepth) {
        bestDepth = depth;
        best = k;
      }
    }
    const int s = c[best] >= 0.0 ? 1 : -1;
    nBody = Vec3{0.0, 0.0, 0.0};
    nBody[static_cast<std::size_t>(best)] = s;
    q[static_cast<std::size_t>(best)] = s * halfExtents[static_cast<std::size_t>(best)];
    cp.gap = -bestDepth - radius;
    cp.featureB = boxFaceId(best, s);
  }
  if (!(cp.gap <= margin)) return 0;
  cp.normal = box.rotate(nBody);
  cp.pointB = box.toWorld(q);
  cp.pointA = axpy(center, -radius, cp.normal);
  out.push_back(cp);
  return 1;
}

int sphereCapsule(const Vec3& center, double radius, const Pose& capsule, double capsuleRadius,
                  double halfLength, double margin, ContactList& out) {
  const Vec3 axis = capsule.rotate(Vec3{0.0, 0.0, 1.0});
  const Vec3 p0 = axpy(capsule.position, -halfLength, axis);
  double t = 0.0;
  if (halfLength > 0.0) t = clamp01(dot(sub(center, p0), axis) / (2.0 * halfLength));
  const Vec3 onAxis = axpy(p0, 2.0 * halfLength * t, axis);
  ContactPoint cp =
      sphereContact(center, radius, onAxis, capsuleRadius, capsule.rotate(Vec3{1.0, 0.0, 0.0}));
  if (!(cp.gap <= margin)) return 0;
  cp.featureB = t <= 0.0 ? 1 : (t >= 1.0 ? 2 : 0);
  out.push_back(cp);
  return 1;
}

}  // namespace narrowphase
}  // namespace nsdyn
