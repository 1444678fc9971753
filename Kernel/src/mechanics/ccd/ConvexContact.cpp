// Contact between two finite convex shapes through libccd (MPR).
// See nsdyn/ConvexContact.hpp for the method and the conventions.
#include "nsdyn/ConvexContact.hpp"

#include <ccd/ccd.h>

#include <cmath>
#include <sstream>

#include "nsdyn/Error.hpp"

namespace nsdyn {

namespace {

using narrowphase::ContactList;
using narrowphase::ContactPoint;
using narrowphase::Pose;
using Vec3 = quaternion::Vec3;

// What libccd's callbacks see: a placed shape inflated by `inflate`.
struct PlacedShape {
  const Shape* shape;
  const Pose* pose;
  double inflate;
};

void supportFn(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* vec) {
  const PlacedShape& s = *static_cast<const PlacedShape*>(obj);
  const Vec3 d{dir->v[0], dir->v[1], dir->v[2]};
  Vec3 p = s.shape->supportWorld(d, s.pose->position, s.pose->orientation);
  if (s.inflate > 0.0) {
    const double n = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (n > 0.0) {
      for (std::size_t k = 0; k < 3; ++k) p[k] += s.inflate * d[k] / n;
    }
  }
  for (std::size_t k = 0; k < 3; ++k) vec->v[k] = p[k];
}

void centerFn(const void* obj, ccd_vec3_t* center) {
  const PlacedShape& s = *static_cast<const PlacedShape*>(obj);
  const Vec3 c = s.pose->toWorld(s.shape->centroid());
  for (std::size_t k = 0; k < 3; ++k) center->v[k] = c[k];
}

// Fixed first direction (+x), as ccdFirstDirDefault, stated here so that the
// result does not depend on libccd's default.
void firstDirFn(const void*, const void*, ccd_vec3_t* dir) {
  dir->v[0] = 1.0;
  dir->v[1] = 0.0;
  dir->v[2] = 0.0;
}

void requireFinite(const Shape& s, const char* which) {
  if (!s.isFinite()) {
    throw Error(std::string("convexContact (shape ") + which + ")", "a finite convex shape",
                s.kindName() + " (use the plane closed forms of Narrowphase.hpp)");
  }
}

}  // namespace

int convexContact(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                  ContactList& out, const ConvexContactOptions& options) {
  requireFinite(a, "A");
  requireFinite(b, "B");
  if (!std::isfinite(margin) || margin < 0.0) {
    std::ostringstream s;
    s << "margin = " << margin;
    throw Error("convexContact", "margin finite and >= 0", s.str());
  }

  const PlacedShape sa{&a, &poseA, 0.5 * margin};
  const PlacedShape sb{&b, &poseB, 0.5 * margin};

  ccd_t ccd;
  CCD_INIT(&ccd);
  ccd.first_dir = firstDirFn;
  ccd.support1 = supportFn;
  ccd.support2 = supportFn;
  ccd.center1 = centerFn;
  ccd.center2 = centerFn;
  ccd.max_iterations = options.maxIterations;
  ccd.epa_tolerance = options.tolerance;
  ccd.mpr_tolerance = options.tolerance;
  ccd.dist_tolerance = options.distanceTolerance;

  ccd_real_t depth = 0.0;
  ccd_vec3_t dir;
  ccd_vec3_t pos;
  if (ccdMPRPenetration(&sa, &sb, &ccd, &depth, &dir, &pos) != 0) return 0;  // inflated shapes apart: gap > margin

  // libccd: translating B by depth along dir separates the shapes, so dir
  // points from A to B; the normal from B to A is −dir.
  Vec3 normal{-dir.v[0], -dir.v[1], -dir.v[2]};
  const double len = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
  if (!(len > 0.0) || !std::isfinite(depth)) {
    // Degenerate answer (no direction, e.g. coincident centres): fall back on the centre-to-centre direction, else +z.
    const Vec3 ca = poseA.toWorld(a.centroid());
    const Vec3 cb = poseB.toWorld(b.centroid());
    normal = {ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]};
    const double l2 = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    if (l2 > 0.0) {
      for (double& v : normal) v /= l2;
    } else {
      normal = {0.0, 0.0, 1.0};
    }
  } else {
    for (double& v : normal) v /= len;
  }

  // Refinement along the normal from the exact support functions (not
  // inflated): A's lowest level and B's highest level along n. Their difference
  // is the gap along n (exact for a face normal, second order in the normal's
  // error otherwise, and never worse than the portal depth); the points are
  // libccd's position projected onto the two support planes.
  const Vec3 minusN{-normal[0], -normal[1], -normal[2]};
  const Vec3 lowA = a.supportWorld(minusN, poseA.position, poseA.orientation);
  const Vec3 highB = b.supportWorld(normal, poseB.position, poseB.orientation);
  const double levelA = normal[0] * lowA[0] + normal[1] * lowA[1] + normal[2] * lowA[2];
  const double levelB = normal[0] * highB[0] + normal[1] * highB[1] + normal[2] * highB[2];
  const double gap = levelA - levelB;
  if (!(gap <= margin)) return 0;
  const double levelPos = normal[0] * pos.v[0] + normal[1] * pos.v[1] + normal[2] * pos.v[2];
  ContactPoint c;
  c.normal = normal;
  c.gap = gap;
  for (std::size_t k = 0; k < 3; ++k) {
    c.pointA[k] = pos.v[k] + (levelA - levelPos) * normal[k];
    c.pointB[k] = pos.v[k] + (levelB - levelPos) * normal[k];
  }
  c.featureA = 0;
  c.featureB = 0;
  out.push_back(c);
  return 1;
}

}  // namespace nsdyn
