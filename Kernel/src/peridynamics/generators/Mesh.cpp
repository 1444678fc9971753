// peridynamics::mesh / meshFile: the lattice points inside a closed triangle mesh (ray parity),
// the mesh read by the Kernel's mesh loader (TriangleMeshShape::fromFile, Assimp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>

#include "Lattice.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"
#include "nsdyn/TriangleMeshShape.hpp"

namespace nsdyn::peridynamics {

namespace {

/// The x of the crossings of the line {(t, y, z)} with the triangles (ray parity along x),
/// sorted. A triangle counts when (y, z) lies in its projection on the y-z plane (closed);
/// triangles parallel to x (zero projected area) do not. The callers shift (y, z) off the
/// lattice by an irrational fraction of Δx, so that no line meets an edge or a vertex of a
/// mesh built on round numbers.
void crossings(double y, double z, const std::vector<double>& v, const std::vector<int>& t,
               const std::vector<double>& box, std::vector<double>& xs) {
  xs.clear();
  for (std::size_t f = 0; f < t.size() / 3; ++f) {
    const double* bb = &box[4 * f];  // yz bounding box of the triangle
    if (y < bb[0] || y > bb[1] || z < bb[2] || z > bb[3]) continue;
    const double* a = &v[3 * t[3 * f]];
    const double* b = &v[3 * t[3 * f + 1]];
    const double* c = &v[3 * t[3 * f + 2]];
    const double d = (b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]);
    if (d == 0.0) continue;
    // barycentric coordinates of (y, z) in the projected triangle
    const double wb = ((y - a[1]) * (c[2] - a[2]) - (z - a[2]) * (c[1] - a[1])) / d;
    const double wc = ((b[1] - a[1]) * (z - a[2]) - (b[2] - a[2]) * (y - a[1])) / d;
    const double wa = 1.0 - wb - wc;
    if (wa < 0.0 || wb < 0.0 || wc < 0.0) continue;
    xs.push_back(wa * a[0] + wb * b[0] + wc * c[0]);
  }
  std::sort(xs.begin(), xs.end());
}

}  // namespace

std::unique_ptr<PeridynamicBody> mesh(const std::vector<double>& vertices,
                                      const std::vector<int>& triangles,
                                      const PeridynamicBodyOptions& options,
                                      std::shared_ptr<const PeridynamicMaterial> material) {
  const std::string object = lattice::object(options);
  const std::size_t nv = vertices.size() / 3;
  if (vertices.size() % 3 != 0 || nv == 0)
    throw Error(object, "mesh vertices as 3 coordinates each",
                std::to_string(vertices.size()) + " numbers");
  if (triangles.empty() || triangles.size() % 3 != 0)
    throw Error(object, "mesh triangles as 3 vertex indices each",
                std::to_string(triangles.size()) + " indices");
  for (std::size_t t = 0; t < triangles.size(); ++t)
    if (triangles[t] < 0 || static_cast<std::size_t>(triangles[t]) >= nv)
      throw Error(object, "triangle vertex indices in [0, " + std::to_string(nv) + ")",
                  "triangle " + std::to_string(t / 3) + " has " + std::to_string(triangles[t]));
  for (double c : vertices)
    if (!std::isfinite(c)) throw Error(object, "finite mesh vertices", lattice::text(c));
  // closed: every edge shared by exactly two triangles
  std::map<std::pair<int, int>, int> edges;
  for (std::size_t t = 0; t < triangles.size(); t += 3)
    for (int e = 0; e < 3; ++e) {
      int a = triangles[t + e], b = triangles[t + (e + 1) % 3];
      if (a > b) std::swap(a, b);
      ++edges[{a, b}];
    }
  for (const auto& [edge, count] : edges)
    if (count != 2)
      throw Error(object, "a closed mesh (every edge shared by exactly two triangles)",
                  "edge (" + std::to_string(edge.first) + ", " + std::to_string(edge.second) +
                      ") shared by " + std::to_string(count));
  double lo[3], hi[3];
  for (int k = 0; k < 3; ++k) {
    lo[k] = std::numeric_limits<double>::infinity();
    hi[k] = -lo[k];
  }
  for (std::size_t v = 0; v < nv; ++v)
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], vertices[3 * v + k]);
      hi[k] = std::max(hi[k], vertices[3 * v + k]);
    }
  const double dx = options.spacing;
  if (!(dx > 0.0))
    throw Error(object, "a lattice spacing > 0 (m)", "spacing = " + lattice::text(dx));
  std::array<long, 3> n{};
  Vec3 centre{}, half{};
  for (int k = 0; k < 3; ++k) {
    n[k] = std::max(1L, static_cast<long>(std::ceil((hi[k] - lo[k]) / dx - 1e-9)));
    half[k] = 0.5 * dx * static_cast<double>(n[k]);
    centre[k] = lo[k] + half[k];
  }
  // inside by ray parity along +x, one line per lattice column (y, z): O(columns × triangles
  // + points). The lines are shifted off the lattice by irrational fractions of Δx.
  const double shiftY = 1.3e-7 * dx * std::sqrt(2.0), shiftZ = 0.7e-7 * dx * std::sqrt(3.0);
  std::vector<double> box(4 * (triangles.size() / 3));
  for (std::size_t f = 0; f < triangles.size() / 3; ++f)
    for (int k = 1; k < 3; ++k) {
      const double p = vertices[3 * triangles[3 * f] + k],
                   q = vertices[3 * triangles[3 * f + 1] + k],
                   r = vertices[3 * triangles[3 * f + 2] + k];
      box[4 * f + 2 * (k - 1)] = std::min({p, q, r});
      box[4 * f + 2 * (k - 1) + 1] = std::max({p, q, r});
    }
  std::vector<std::uint8_t> inside(static_cast<std::size_t>(n[0] * n[1] * n[2]), 0);
  std::vector<double> xs;
  for (long b = 0; b < n[1]; ++b)
    for (long c = 0; c < n[2]; ++c) {
      const double y = centre[1] - half[1] + dx * (b + 0.5) + shiftY;
      const double z = centre[2] - half[2] + dx * (c + 0.5) + shiftZ;
      crossings(y, z, vertices, triangles, box, xs);
      if (xs.empty()) continue;
      for (long a = 0; a < n[0]; ++a) {
        const double x = centre[0] - half[0] + dx * (a + 0.5);
        const auto beyond = xs.end() - std::upper_bound(xs.begin(), xs.end(), x);
        inside[static_cast<std::size_t>((a * n[1] + b) * n[2] + c)] = beyond % 2 == 1;
      }
    }
  std::vector<double> X;
  std::size_t cell = 0;
  lattice::fill(
      centre, half, n, dx, [&](const double*) { return inside[cell++] != 0; }, X);
  return lattice::make(std::move(X), options, std::move(material), "mesh");
}

std::unique_ptr<PeridynamicBody> meshFile(const std::string& path, double scale,
                                          const PeridynamicBodyOptions& options,
                                          std::shared_ptr<const PeridynamicMaterial> material) {
  const auto shape = TriangleMeshShape::fromFile(path, scale);
  std::vector<double> vertices;
  std::vector<int> triangles;
  for (const auto& v : shape->vertices()) vertices.insert(vertices.end(), v.begin(), v.end());
  for (const auto& t : shape->triangles())
    for (int k = 0; k < 3; ++k) triangles.push_back(static_cast<int>(t[k]));
  PeridynamicBodyOptions o = options;
  if (o.name == PeridynamicBodyOptions().name) o.name = path;
  return mesh(vertices, triangles, o, std::move(material));
}

}  // namespace nsdyn::peridynamics
