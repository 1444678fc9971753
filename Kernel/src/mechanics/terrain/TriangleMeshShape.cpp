// TriangleMeshShape: checks, adjacency and the BVH (see nsdyn/TriangleMeshShape.hpp).
#include "nsdyn/TriangleMeshShape.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <tuple>

#include "mechanics/narrowphase/NarrowphaseMath.hpp"
#include "mechanics/terrain/TriangleBvh.hpp"
#include "nsdyn/Error.hpp"

namespace nsdyn {

namespace {

using narrowphase::detail::cross;
using narrowphase::detail::dot;
using narrowphase::detail::norm;
using narrowphase::detail::sub;

std::string point(const Shape::Vec3& v) {
  std::ostringstream s;
  s.precision(17);
  s << "(" << v[0] << ", " << v[1] << ", " << v[2] << ")";
  return s.str();
}

// One directed edge of a triangle, keyed by its undirected ends.
struct EdgeRef {
  std::int32_t lo, hi;  // undirected ends, lo < hi
  std::int32_t t;
  int e;
  bool forward;  // the triangle runs lo → hi
};

}  // namespace

TriangleMeshShape::TriangleMeshShape(std::vector<Vec3> vertices, std::vector<Triangle> triangles,
                                     const std::string& name)
    : vertices_(std::move(vertices)), triangles_(std::move(triangles)) {
  const std::size_t nv = vertices_.size(), nt = triangles_.size();
  if (nv == 0 || nt == 0)
    throw Error(name, "a mesh with at least one vertex and one triangle",
                std::to_string(nv) + " vertices and " + std::to_string(nt) + " triangles");
  for (std::size_t v = 0; v < nv; ++v)
    for (double x : vertices_[v])
      if (!std::isfinite(x))
        throw Error(name + " vertex #" + std::to_string(v), "finite coordinates",
                    point(vertices_[v]));
  Aabb bounds{vertices_[0], vertices_[0]};
  for (const Vec3& p : vertices_)
    for (std::size_t k = 0; k < 3; ++k) {
      bounds.min[k] = std::min(bounds.min[k], p[k]);
      bounds.max[k] = std::max(bounds.max[k], p[k]);
    }
  setBounds(bounds);
  normals_.resize(nt);
  std::vector<Aabb> boxes(nt);
  std::vector<EdgeRef> edges;
  edges.reserve(3 * nt);
  for (std::size_t t = 0; t < nt; ++t) {
    const Triangle& tri = triangles_[t];
    const std::string object = name + " triangle #" + std::to_string(t);
    for (int k = 0; k < 3; ++k)
      if (tri[static_cast<std::size_t>(k)] < 0 ||
          static_cast<std::size_t>(tri[static_cast<std::size_t>(k)]) >= nv)
        throw Error(object, "vertex indices in [0, " + std::to_string(nv) + ")",
                    "index " + std::to_string(tri[static_cast<std::size_t>(k)]));
    const Vec3& a = vertices_[static_cast<std::size_t>(tri[0])];
    const Vec3& b = vertices_[static_cast<std::size_t>(tri[1])];
    const Vec3& c = vertices_[static_cast<std::size_t>(tri[2])];
    const Vec3 n = cross(sub(b, a), sub(c, a));
    const double longest =
        std::max({dot(sub(b, a), sub(b, a)), dot(sub(c, b), sub(c, b)), dot(sub(a, c), sub(a, c))});
    const double area2 = norm(n);
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] || !(area2 > 1e-12 * longest)) {
      std::ostringstream s;
      s.precision(17);
      s << "vertices " << tri[0] << ", " << tri[1] << ", " << tri[2] << " with area "
        << 0.5 * area2;
      throw Error(object, "a non-degenerate triangle (area > 1e-12 x longest edge^2 / 2)", s.str());
    }
    normals_[t] = {n[0] / area2, n[1] / area2, n[2] / area2};
    Aabb box{a, a};
    for (const Vec3* p : {&b, &c})
      for (std::size_t k = 0; k < 3; ++k) {
        box.min[k] = std::min(box.min[k], (*p)[k]);
        box.max[k] = std::max(box.max[k], (*p)[k]);
      }
    boxes[t] = box;
    for (int e = 0; e < 3; ++e) {
      const std::int32_t p = tri[static_cast<std::size_t>(e)];
      const std::int32_t q = tri[static_cast<std::size_t>((e + 1) % 3)];
      edges.push_back({std::min(p, q), std::max(p, q), static_cast<std::int32_t>(t), e, p < q});
    }
  }
  std::sort(edges.begin(), edges.end(), [](const EdgeRef& x, const EdgeRef& y) {
    return std::tie(x.lo, x.hi, x.t, x.e) < std::tie(y.lo, y.hi, y.t, y.e);
  });
  neighbours_.assign(3 * nt, -1);
  interior_.assign(nv, 1);
  for (std::size_t i = 0; i < edges.size();) {
    std::size_t j = i + 1;
    while (j < edges.size() && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi) ++j;
    const std::string edgeName =
        name + " edge (" + std::to_string(edges[i].lo) + ", " + std::to_string(edges[i].hi) + ")";
    if (j - i > 2) {
      std::string found = "triangles";
      for (std::size_t k = i; k < j; ++k) found += " #" + std::to_string(edges[k].t);
      throw Error(edgeName, "at most two triangles per edge (a manifold mesh)", found);
    }
    if (j - i == 2) {
      const EdgeRef& x = edges[i];
      const EdgeRef& y = edges[i + 1];
      if (x.forward == y.forward)
        throw Error(edgeName,
                    "consistently wound neighbours (their common edge in opposite directions)",
                    "triangles #" + std::to_string(x.t) + " and #" + std::to_string(y.t) +
                        " both run " + std::to_string(x.forward ? x.lo : x.hi) + " -> " +
                        std::to_string(x.forward ? x.hi : x.lo));
      neighbours_[3 * static_cast<std::size_t>(x.t) + static_cast<std::size_t>(x.e)] = y.t;
      neighbours_[3 * static_cast<std::size_t>(y.t) + static_cast<std::size_t>(y.e)] = x.t;
    } else {
      interior_[static_cast<std::size_t>(edges[i].lo)] = 0;
      interior_[static_cast<std::size_t>(edges[i].hi)] = 0;
    }
    i = j;
  }
  // triangles of each vertex (CSR, increasing triangle order)
  vertexStart_.assign(nv + 1, 0);
  for (const Triangle& tri : triangles_)
    for (std::int32_t v : tri) ++vertexStart_[static_cast<std::size_t>(v) + 1];
  for (std::size_t v = 0; v < nv; ++v) vertexStart_[v + 1] += vertexStart_[v];
  vertexTris_.resize(3 * nt);
  std::vector<std::int32_t> fill(vertexStart_.begin(), vertexStart_.end() - 1);
  for (std::size_t t = 0; t < nt; ++t)
    for (std::int32_t v : triangles_[t])
      vertexTris_[static_cast<std::size_t>(fill[static_cast<std::size_t>(v)]++)] =
          static_cast<std::int32_t>(t);
  for (std::size_t v = 0; v < nv; ++v)
    if (vertexStart_[v] == vertexStart_[v + 1]) interior_[v] = 0;  // unused vertex
  bvh_ = std::make_shared<const detail::TriangleBvh>(boxes);
}

void TriangleMeshShape::vertexTriangles(std::int32_t v, std::vector<std::int32_t>& out) const {
  const auto b = vertexTris_.begin() + vertexStart_[static_cast<std::size_t>(v)];
  const auto e = vertexTris_.begin() + vertexStart_[static_cast<std::size_t>(v) + 1];
  out.assign(b, e);
}

void TriangleMeshShape::queryTriangles(const Aabb& box, std::vector<std::int32_t>& out) const {
  bvh_->query(box, out);
}

Shape::Vec3 TriangleMeshShape::neighbourNormal(std::int32_t t, int e) const {
  const std::int32_t n = edgeNeighbour(t, e);
  return faceNormal(n >= 0 ? n : t);
}

std::size_t TriangleMeshShape::bvhNodeCount() const {
  return bvh_->nodeCount();
}

}  // namespace nsdyn
