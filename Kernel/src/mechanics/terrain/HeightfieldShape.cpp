// HeightfieldShape: the grid's triangles, neighbours and queries by index arithmetic.
#include "nsdyn/HeightfieldShape.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "mechanics/narrowphase/NarrowphaseMath.hpp"
#include "nsdyn/Error.hpp"

namespace nsdyn {

HeightfieldShape::HeightfieldShape(std::size_t nx, std::size_t ny, double dx, double dy,
                                   std::vector<double> heights, const std::string& name)
    : nx_(nx), ny_(ny), dx_(dx), dy_(dy), heights_(std::move(heights)) {
  if (nx < 2 || ny < 2)
    throw Error(name, "a grid of at least 2 x 2 heights",
                "nx = " + std::to_string(nx) + ", ny = " + std::to_string(ny));
  requirePositive(name, "dx", dx);
  requirePositive(name, "dy", dy);
  if (nx > (std::size_t(1) << 15) || ny > (std::size_t(1) << 15))
    throw Error(name, "at most 32768 heights along x and y",
                "nx = " + std::to_string(nx) + ", ny = " + std::to_string(ny));
  if (heights_.size() != nx * ny)
    throw Error(name, "nx * ny = " + std::to_string(nx * ny) + " heights",
                std::to_string(heights_.size()));
  for (std::size_t k = 0; k < heights_.size(); ++k)
    if (!std::isfinite(heights_[k])) {
      std::ostringstream s;
      s << "height (" << k % nx << ", " << k / nx << ") = " << heights_[k];
      throw Error(name, "finite heights (a heightfield has no hole)", s.str());
    }
  x0_ = -0.5 * static_cast<double>(nx - 1) * dx;
  y0_ = -0.5 * static_cast<double>(ny - 1) * dy;
  const auto [lo, hi] = std::minmax_element(heights_.begin(), heights_.end());
  setBounds(
      Aabb{{x0_, y0_, *lo},
           {x0_ + static_cast<double>(nx - 1) * dx, y0_ + static_cast<double>(ny - 1) * dy, *hi}});
}

Shape::Vec3 HeightfieldShape::vertex(std::int32_t v) const {
  const auto i = static_cast<std::size_t>(v) % nx_, j = static_cast<std::size_t>(v) / nx_;
  return {x0_ + static_cast<double>(i) * dx_, y0_ + static_cast<double>(j) * dy_,
          heights_[static_cast<std::size_t>(v)]};
}

TerrainShape::Triangle HeightfieldShape::triangleVertices(std::int32_t t) const {
  const std::size_t c = static_cast<std::size_t>(t) / 2, i = c % (nx_ - 1), j = c / (nx_ - 1);
  const auto v00 = static_cast<std::int32_t>(j * nx_ + i);
  const std::int32_t v10 = v00 + 1, v01 = v00 + static_cast<std::int32_t>(nx_), v11 = v01 + 1;
  if (t % 2 == 0) return {v00, v10, v11};
  return {v00, v11, v01};
}

Shape::Vec3 HeightfieldShape::faceNormal(std::int32_t t) const {
  using namespace narrowphase::detail;
  const Triangle v = triangleVertices(t);
  const Vec3 a = vertex(v[0]);
  const Vec3 n = cross(sub(vertex(v[1]), a), sub(vertex(v[2]), a));
  return scale(n, 1.0 / norm(n));
}

std::int32_t HeightfieldShape::edgeNeighbour(std::int32_t t, int e) const {
  const auto cells = static_cast<std::int32_t>(nx_ - 1);
  const std::int32_t c = t / 2, i = c % cells, j = c / cells;
  const auto rows = static_cast<std::int32_t>(ny_ - 1);
  if (t % 2 == 0) {  // (v00, v10, v11): bottom, right, diagonal
    if (e == 0) return j > 0 ? 2 * (c - cells) + 1 : -1;
    if (e == 1) return i + 1 < cells ? 2 * (c + 1) + 1 : -1;
    return t + 1;
  }
  // (v00, v11, v01): diagonal, top, left
  if (e == 0) return t - 1;
  if (e == 1) return j + 1 < rows ? 2 * (c + cells) : -1;
  return i > 0 ? 2 * (c - 1) : -1;
}

void HeightfieldShape::vertexTriangles(std::int32_t v, std::vector<std::int32_t>& out) const {
  out.clear();
  const auto i = static_cast<std::int64_t>(static_cast<std::size_t>(v) % nx_);
  const auto j = static_cast<std::int64_t>(static_cast<std::size_t>(v) / nx_);
  const auto cells = static_cast<std::int64_t>(nx_ - 1), rows = static_cast<std::int64_t>(ny_ - 1);
  for (std::int64_t cj = j - 1; cj <= j; ++cj)
    for (std::int64_t ci = i - 1; ci <= i; ++ci) {
      if (ci < 0 || cj < 0 || ci >= cells || cj >= rows) continue;
      for (int k = 0; k < 2; ++k) {
        const auto t = static_cast<std::int32_t>(2 * (cj * cells + ci) + k);
        const Triangle tv = triangleVertices(t);
        if (tv[0] == v || tv[1] == v || tv[2] == v) out.push_back(t);
      }
    }
}

bool HeightfieldShape::interiorVertex(std::int32_t v) const {
  const std::size_t i = static_cast<std::size_t>(v) % nx_, j = static_cast<std::size_t>(v) / nx_;
  return i > 0 && j > 0 && i + 1 < nx_ && j + 1 < ny_;
}

void HeightfieldShape::queryTriangles(const Aabb& box, std::vector<std::int32_t>& out) const {
  out.clear();
  const auto cells = static_cast<std::int64_t>(nx_ - 1), rows = static_cast<std::int64_t>(ny_ - 1);
  auto range = [](double lo, double hi, double origin, double step, std::int64_t n, std::int64_t& a,
                  std::int64_t& b) {
    const double fa = std::floor((lo - origin) / step), fb = std::floor((hi - origin) / step);
    if (!(fb >= 0.0) || !(fa < static_cast<double>(n))) return false;  // NaN: nothing
    a = fa < 0.0 ? 0 : static_cast<std::int64_t>(fa);
    b = fb >= static_cast<double>(n) ? n - 1 : static_cast<std::int64_t>(fb);
    // a box ending exactly on a grid line also meets the cell before it
    if (a > 0 && lo - origin == static_cast<double>(a) * step) --a;
    return a <= b;
  };
  std::int64_t i0, i1, j0, j1;
  if (!range(box.min[0], box.max[0], x0_, dx_, cells, i0, i1)) return;
  if (!range(box.min[1], box.max[1], y0_, dy_, rows, j0, j1)) return;
  for (std::int64_t j = j0; j <= j1; ++j)
    for (std::int64_t i = i0; i <= i1; ++i)
      for (int k = 0; k < 2; ++k) {
        const auto t = static_cast<std::int32_t>(2 * (j * cells + i) + k);
        const Triangle tv = triangleVertices(t);
        Aabb tb{vertex(tv[0]), vertex(tv[0])};
        for (int m = 1; m < 3; ++m) {
          const Vec3 p = vertex(tv[static_cast<std::size_t>(m)]);
          for (std::size_t d = 0; d < 3; ++d) {
            tb.min[d] = std::min(tb.min[d], p[d]);
            tb.max[d] = std::max(tb.max[d], p[d]);
          }
        }
        bool meets = true;
        for (std::size_t d = 0; d < 3; ++d)
          if (tb.max[d] < box.min[d] || box.max[d] < tb.min[d]) meets = false;
        if (meets) out.push_back(t);
      }
}

}  // namespace nsdyn
