// Terrain shapes of a <StaticBody>: <TriangleMeshShape> (an OBJ/STL file relative to the
// model file, or inline vertices and triangles) and <HeightfieldShape> (nx × ny heights,
// inline or from a text/CSV file).

#include <sys/stat.h>
#include <cerrno>
#include <cstdlib>
#include <fstream>

#include "Loader.hpp"

namespace nsdyn::io::xml {

namespace {

// the most heights a heightfield may have (a grid of 4096 × 4096)
constexpr std::size_t kMaxHeights = 4096 * 4096;
// the most vertices and triangles of an inline mesh
constexpr std::size_t kMaxInlineMeshItems = 1000000;

bool regularFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

// A path of the model file: relative to the model file's folder.
std::string Loader::besideModel(const std::string& path) const {
  if (!path.empty() && path[0] != '/' && file_.find('/') != std::string::npos)
    return file_.substr(0, file_.find_last_of('/') + 1) + path;
  return path;
}

std::shared_ptr<const Shape> Loader::terrainShape(const Node& n) const {
  const std::string kind = n.name();
  auto fileOf = [&](const char* what) {
    const std::string given = trim(n.attribute("file").value());
    if (given.empty())
      fail(n, std::string("attribute 'file': expected the path of ") + what + ", found ''");
    const std::string path = besideModel(given);
    if (!regularFile(path))
      fail(n, std::string("attribute 'file': expected a readable ") + what + ", found '" + given +
                  "' (" + path + ": no such file)");
    return path;
  };
  if (kind == "TriangleMeshShape") {
    const bool file = n.attribute("file"), vertices = n.attribute("vertices"),
               triangles = n.attribute("triangles");
    if (file && (vertices || triangles))
      fail(n, "expected either attribute 'file' or 'vertices' and 'triangles', found both");
    if (!file && !(vertices && triangles))
      fail(n, std::string("expected attribute 'file' (OBJ, STL) or both 'vertices' and "
                          "'triangles', found ") +
                  (vertices    ? "'vertices' only"
                   : triangles ? "'triangles' only"
                               : "neither"));
    if (file) {
      const std::string path = fileOf("mesh file (OBJ, STL)");
      const double scale = positive(n, "scale", 1.0, "the factor on the file's coordinates");
      try {
        return TriangleMeshShape::fromFile(path, scale);
      } catch (const nsdyn::Error& e) {
        fail(n, std::string("attribute 'file': ") + e.what());
      }
    }
    if (n.attribute("scale"))
      fail(n, "attribute 'scale': expected with 'file' only, found it with 'vertices'");
    auto entries = [&](const char* attr, const std::string& meaning) {
      const std::string text = requiredAttribute(n, attr, meaning);
      const std::size_t rows =
          1 + static_cast<std::size_t>(std::count(text.begin(), text.end(), ';'));
      if (rows > kMaxInlineMeshItems)
        fail(n, std::string("attribute '") + attr + "': expected at most " +
                    std::to_string(kMaxInlineMeshItems) + " rows, found " + std::to_string(rows));
      std::vector<double> flat;
      for (const auto& row : splitEntries(text)) {
        if (row.size() != 3)
          fail(n, std::string("attribute '") + attr + "': expected " + meaning +
                      ", 3 entries per row, found a row of " + std::to_string(row.size()) + " ('" +
                      join(row, " ") + "')");
        for (const auto& e : row)
          flat.push_back(evaluate(
              n, e, std::string("attribute '") + attr + "' entry " + std::to_string(flat.size())));
      }
      return flat;
    };
    const std::vector<double> v = entries("vertices", "the vertices x y z separated by ';'");
    const std::vector<double> t = entries("triangles", "the triangles i j k separated by ';'");
    std::vector<TerrainShape::Vec3> points;
    for (std::size_t k = 0; k < v.size(); k += 3) points.push_back({v[k], v[k + 1], v[k + 2]});
    std::vector<TerrainShape::Triangle> tris;
    for (std::size_t k = 0; k < t.size(); k += 3) {
      TerrainShape::Triangle tri{};
      for (std::size_t c = 0; c < 3; ++c) {
        const double x = t[k + c];
        if (!(x >= 0.0 && x < static_cast<double>(points.size()) && x == std::floor(x)))
          fail(n, "attribute 'triangles': triangle " + std::to_string(k / 3) +
                      ": expected vertex indices from 0 to " +
                      std::to_string(static_cast<long>(points.size()) - 1) + ", found " +
                      numberText(x));
        tri[c] = static_cast<std::int32_t>(x);
      }
      tris.push_back(tri);
    }
    try {
      return std::make_shared<TriangleMeshShape>(
          std::move(points), std::move(tris),
          "TriangleMeshShape at line " + std::to_string(lineOf(n)));
    } catch (const nsdyn::Error& e) {
      fail(n, e.what());
    }
  }
  // <HeightfieldShape nx ny spacing spacing-y heights|file>
  const long nx = integer(n, "nx", std::nullopt, 2, "grid points along x", 1L << 20);
  const long ny = integer(n, "ny", std::nullopt, 2, "grid points along y", 1L << 20);
  const std::size_t count = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  if (count > kMaxHeights)
    fail(n, "attributes 'nx', 'ny': expected at most " + std::to_string(kMaxHeights) +
                " heights, found " + std::to_string(count));
  const double dx = positive(n, "spacing", std::nullopt, "the grid spacing along x (m)");
  const double dy = positive(n, "spacing-y", dx, "the grid spacing along y (m)");
  const bool inlineHeights = n.attribute("heights"), file = n.attribute("file");
  if (inlineHeights == file)
    fail(n, std::string("expected attribute 'heights' or 'file', found ") +
                (file ? "both" : "neither"));
  std::vector<double> h;
  h.reserve(count);
  auto hole = [&](std::size_t k) {
    return "entry " + std::to_string(k) +
           " (i = " + std::to_string(k % static_cast<std::size_t>(nx)) +
           ", j = " + std::to_string(k / static_cast<std::size_t>(nx)) +
           "): expected a finite height, found ";
  };
  if (inlineHeights) {
    const std::string text = n.attribute("heights").value();
    for (const auto& row : splitEntries(text))
      for (const auto& e : row) {
        if (h.size() >= count)
          fail(n, "attribute 'heights': expected nx × ny = " + std::to_string(count) +
                      " heights, found more");
        const std::string lower = [&] {
          std::string s = e;
          for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
          return s;
        }();
        if (lower == "nan")
          fail(n, "attribute 'heights': " + hole(h.size()) + "NaN (a heightfield has no hole)");
        h.push_back(evaluate(n, e, "attribute 'heights' entry " + std::to_string(h.size())));
        if (!std::isfinite(h.back()))
          fail(n, "attribute 'heights': " + hole(h.size() - 1) + numberText(h.back()) +
                      " (a heightfield has no hole)");
      }
    if (h.size() != count)
      fail(n, "attribute 'heights': expected nx × ny = " + std::to_string(count) +
                  " heights, found " + std::to_string(h.size()));
  } else {
    const std::string path = fileOf("heights file (text or CSV)");
    const std::string given = trim(n.attribute("file").value());
    std::ifstream in(path);
    std::string line;
    for (long number = 1; std::getline(in, line); ++number) {
      const std::size_t first = line.find_first_not_of(" \t\r");
      if (first == std::string::npos || line[first] == '#') continue;
      for (char& c : line)
        if (c == ',' || c == ';' || c == '\t' || c == '\r') c = ' ';
      std::istringstream words(line);
      for (std::string w; words >> w;) {
        const std::string where = given + ":" + std::to_string(number) + ": ";
        if (h.size() >= count)
          fail(n, "attribute 'file': " + where + "expected nx × ny = " + std::to_string(count) +
                      " heights, found more");
        errno = 0;
        char* end = nullptr;
        const double x = std::strtod(w.c_str(), &end);
        if (end == w.c_str() || *end != '\0' || errno == ERANGE)
          fail(n, "attribute 'file': " + where + "expected a number, found '" + w + "'");
        if (!std::isfinite(x))
          fail(n,
               "attribute 'file': " + where + hole(h.size()) + w + " (a heightfield has no hole)");
        h.push_back(x);
      }
    }
    if (h.size() != count)
      fail(n, "attribute 'file': " + given + ": expected nx × ny = " + std::to_string(count) +
                  " heights, found " + std::to_string(h.size()));
  }
  try {
    return std::make_shared<HeightfieldShape>(
        static_cast<std::size_t>(nx), static_cast<std::size_t>(ny), dx, dy, std::move(h),
        "HeightfieldShape at line " + std::to_string(lineOf(n)));
  } catch (const nsdyn::Error& e) {
    fail(n, e.what());
  }
}

}  // namespace nsdyn::io::xml
