// Convex hull by Qhull (reentrant libqhull_r), mass properties by the divergence
// theorem over the triangulated facets.
#include "nsdyn/ConvexHullShape.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include "nsdyn/Error.hpp"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

namespace nsdyn {

namespace {

using Vec3 = Shape::Vec3;

Vec3 sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

/// Qhull's messages go to a memory stream, read back for the error.
class MessageStream {
 public:
  MessageStream() : file_(open_memstream(&buffer_, &size_)) {}
  ~MessageStream() {
    if (file_) std::fclose(file_);
    std::free(buffer_);
  }
  MessageStream(const MessageStream&) = delete;
  MessageStream& operator=(const MessageStream&) = delete;
  FILE* file() const { return file_; }
  std::string text() {
    if (!file_) return "";
    std::fflush(file_);
    return buffer_ ? std::string(buffer_, size_) : std::string();
  }

 private:
  char* buffer_ = nullptr;
  std::size_t size_ = 0;
  FILE* file_;
};

std::string firstLine(const std::string& s) {
  const auto start = s.find_first_not_of(" \n");
  if (start == std::string::npos) return "";
  const auto end = s.find('\n', start);
  return s.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace

ConvexHullShape::ConvexHullShape(const std::vector<Vec3>& points) {
  const std::string object = "ConvexHullShape";
  if (points.size() < 4) {
    throw Error(object, "at least 4 affinely independent points",
                std::to_string(points.size()) + " point" + (points.size() == 1 ? "" : "s"));
  }
  if (points.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 3)) {
    throw Error(object, "fewer than 2^31/3 points", std::to_string(points.size()) + " points");
  }
  std::vector<coordT> coords;
  coords.reserve(3 * points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t k = 0; k < 3; ++k) {
      if (!std::isfinite(points[i][k])) {
        std::ostringstream s;
        s << "point " << i << " = (" << points[i][0] << ", " << points[i][1] << ", " << points[i][2]
          << ")";
        throw Error(object, "finite point coordinates", s.str());
      }
      coords.push_back(points[i][k]);
    }
  }

  MessageStream messages;
  qhT qhData;
  qhT* qh = &qhData;
  qh_zero(qh, messages.file());
  char options[] = "qhull Qt";
  const int exitcode = qh_new_qhull(qh, 3, static_cast<int>(points.size()), coords.data(), False,
                                    options, nullptr, messages.file());
  std::string failure;
  if (exitcode != 0) {
    failure = firstLine(messages.text());
  } else {
    std::map<int, std::size_t> vertexIndex;  // input point id → index in vertices_, in input order
    facetT* facet;
    vertexT* vertex;
    vertexT** vertexp;
    FORALLvertices {
      vertexIndex.emplace(qh_pointid(qh, vertex->point), 0);
    }
    for (auto& [id, index] : vertexIndex) {
      index = vertices_.size();
      vertices_.push_back(points[static_cast<std::size_t>(id)]);
    }
    FORALLfacets {
      if (facet->upperdelaunay || !facet->simplicial) continue;
      std::array<std::size_t, 3> tri{};
      std::size_t k = 0;
      FOREACHvertex_(facet->vertices) {
        if (k < 3) tri[k] = vertexIndex.at(qh_pointid(qh, vertex->point));
        ++k;
      }
      if (k != 3) continue;
      const Vec3 e1 = sub(vertices_[tri[1]], vertices_[tri[0]]);
      const Vec3 e2 = sub(vertices_[tri[2]], vertices_[tri[0]]);
      const Vec3 n = quaternion::cross(e1, e2);
      const Vec3 outward{facet->normal[0], facet->normal[1], facet->normal[2]};
      if (quaternion::dot(n, outward) < 0.0) std::swap(tri[1], tri[2]);
      triangles_.push_back(tri);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (exitcode != 0) {
    throw Error(
        object,
        "at least 4 affinely independent points (not coplanar, collinear or all duplicates)",
        std::to_string(points.size()) + " points without a 3D hull (Qhull: " + failure + ")");
  }

  // Divergence theorem: tetrahedra (o, a, b, c) from the mean o of the vertices.
  Vec3 o{0.0, 0.0, 0.0};
  for (const Vec3& v : vertices_)
    for (std::size_t k = 0; k < 3; ++k) o[k] += v[k] / static_cast<double>(vertices_.size());
  double volume = 0.0;
  Vec3 first{0.0, 0.0, 0.0};
  Mat3 second{};  // ∫ x xᵀ dV about o
  for (const auto& tri : triangles_) {
    const Vec3 a = sub(vertices_[tri[0]], o), b = sub(vertices_[tri[1]], o),
               c = sub(vertices_[tri[2]], o);
    const double v = quaternion::dot(a, quaternion::cross(b, c)) / 6.0;
    const Vec3 s{a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]};
    volume += v;
    for (std::size_t i = 0; i < 3; ++i) {
      first[i] += v * s[i] / 4.0;
      for (std::size_t j = 0; j < 3; ++j)
        second[i][j] += v / 20.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j]);
    }
  }
  double extent = 0.0;
  for (const Vec3& v : vertices_)
    extent = std::max(extent, std::sqrt(quaternion::dot(sub(v, o), sub(v, o))));
  if (!(volume > 1e-12 * extent * extent * extent)) {
    std::ostringstream s;
    s.precision(17);
    s << points.size() << " points spanning a hull of volume " << volume;
    throw Error(object, "at least 4 affinely independent points (a hull of positive volume)",
                s.str());
  }
  volume_ = volume;
  const Vec3 d{first[0] / volume, first[1] / volume, first[2] / volume};
  centroid_ = {o[0] + d[0], o[1] + d[1], o[2] + d[2]};
  Mat3 cov{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) cov[i][j] = second[i][j] - volume * d[i] * d[j];
  const double trace = cov[0][0] + cov[1][1] + cov[2][2];
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) inertia_[i][j] = (i == j ? trace : 0.0) - cov[i][j];
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = i + 1; j < 3; ++j)
      inertia_[i][j] = inertia_[j][i] = 0.5 * (inertia_[i][j] + inertia_[j][i]);
  for (const Vec3& v : vertices_)
    size_ = std::max(size_, std::sqrt(quaternion::dot(sub(v, centroid_), sub(v, centroid_))));
}

Shape::Vec3 ConvexHullShape::support(const Vec3& d) const {
  std::size_t best = 0;
  double bestDot = quaternion::dot(vertices_[0], d);
  for (std::size_t i = 1; i < vertices_.size(); ++i) {
    const double p = quaternion::dot(vertices_[i], d);
    if (p > bestDot) {
      bestDot = p;
      best = i;
    }
  }
  return vertices_[best];
}

}  // namespace nsdyn
