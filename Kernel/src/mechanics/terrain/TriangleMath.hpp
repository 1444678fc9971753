// Triangle helpers of the terrain narrowphase (internal).
#ifndef NSDYN_KERNEL_TRIANGLE_MATH_HPP
#define NSDYN_KERNEL_TRIANGLE_MATH_HPP

#include "mechanics/narrowphase/NarrowphaseMath.hpp"
#include "mechanics/narrowphase/SupportFeature.hpp"
#include "nsdyn/TriangleNarrowphase.hpp"

namespace nsdyn {
namespace narrowphase {
namespace detail {

/// Sine of the angle within which faces are flat against each other (as convexManifold).
constexpr double kTriangleFlatSine = 0.05;

/// The triangle's feature farthest along the unit @p n (f its unit normal): its face (n within
/// kTriangleFlatSine of ±f), else an edge perpendicular to n within it, else the vertex; labels
/// vertex 0..2, edge 3..5, face 6 (BoxTriangle.cpp).
void triangleFeature(const TriangleVertices& tri, const Vec3& f, const Vec3& n,
                     SupportFeature& out);

/// Unit outward normal (v1 − v0) × (v2 − v0) / |…|.
inline Vec3 triangleNormal(const TriangleVertices& t) {
  const Vec3 n = cross(sub(t[1], t[0]), sub(t[2], t[0]));
  return scale(n, 1.0 / norm(n));
}

/// Closest point of the triangle to p and its feature (vertex 0..2, edge 3..5, face 6), by the
/// Voronoi regions of the vertices, then the edges, then the face.
inline Vec3 closestOnTriangle(const Vec3& p, const TriangleVertices& t, int& feature) {
  const Vec3 &a = t[0], &b = t[1], &c = t[2];
  const Vec3 ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) {
    feature = 0;
    return a;
  }
  const Vec3 bp = sub(p, b);
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) {
    feature = 1;
    return b;
  }
  const Vec3 cp = sub(p, c);
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) {
    feature = 2;
    return c;
  }
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    feature = kTriangleEdge + 0;
    return axpy(a, d1 / (d1 - d3), ab);
  }
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    feature = kTriangleEdge + 2;
    return axpy(a, d2 / (d2 - d6), ac);
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    feature = kTriangleEdge + 1;
    return axpy(b, (d4 - d3) / ((d4 - d3) + (d5 - d6)), sub(c, b));
  }
  feature = kTriangleFace;
  const double denom = 1.0 / (va + vb + vc);
  return axpy(axpy(a, vb * denom, ab), vc * denom, ac);
}

}  // namespace detail
}  // namespace narrowphase
}  // namespace nsdyn

#endif
