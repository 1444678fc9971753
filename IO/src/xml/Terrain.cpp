// Terrain shapes of a <StaticBody>: <TriangleMeshShape> (an OBJ/STL file relative to the
// model file, or inline vertices and triangles) and <HeightfieldShape> (nx × ny heights,
// inline, from a text/CSV file, or an expression of the grid point's x and y; or the grey
// levels of a PNG image).

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
  // <HeightfieldShape image spacing spacing-y height-scale z-offset>: the grid of a PNG image
  if (n.attribute("image")) {
    for (const char* other : {"nx", "ny", "heights", "file", "height"})
      if (n.attribute(other))
        fail(n, std::string("attribute '") + other +
                    "': expected none with 'image' (the image gives the grid and its heights), "
                    "found it");
    const std::string given = trim(n.attribute("image").value());
    const std::string path = besideModel(given);
    if (given.empty() || !regularFile(path))
      fail(n, "attribute 'image': expected a readable PNG image, found '" + given + "' (" + path +
                  ": no such file)");
    const double dx = positive(n, "spacing", std::nullopt, "the grid spacing along x (m)");
    const double dy = positive(n, "spacing-y", dx, "the grid spacing along y (m)");
    const double scale =
        number(n, "height-scale", std::nullopt, "the height of the full grey level (m)");
    const double offset = number(n, "z-offset", 0.0, "the height of grey level 0 (m)");
    try {
      return HeightfieldShape::fromImage(path, dx, dy, scale, offset);
    } catch (const nsdyn::Error& e) {
      fail(n, std::string("attribute 'image': ") + e.what());
    }
  }
  for (const char* imageOnly : {"height-scale", "z-offset"})
    if (n.attribute(imageOnly))
      fail(n, std::string("attribute '") + imageOnly + "': expected with 'image' only, found it");
  // <HeightfieldShape nx ny spacing spacing-y heights|file|height>
  const long nx = integer(n, "nx", std::nullopt, 2, "grid points along x", 1L << 20);
  const long ny = integer(n, "ny", std::nullopt, 2, "grid points along y", 1L << 20);
  const std::size_t count = static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny);
  if (count > kMaxHeights)
    fail(n, "attributes 'nx', 'ny': expected at most " + std::to_string(kMaxHeights) +
                " heights, found " + std::to_string(count));
  const double dx = positive(n, "spacing", std::nullopt, "the grid spacing along x (m)");
  const double dy = positive(n, "spacing-y", dx, "the grid spacing along y (m)");
  const bool inlineHeights = n.attribute("heights"), file = n.attribute("file"),
             formula = n.attribute("height");
  if (int(inlineHeights) + int(file) + int(formula) != 1)
    fail(n, std::string("expected one of attributes 'heights', 'file' or 'height', found ") +
                (inlineHeights || file || formula ? "more than one" : "none"));
  std::vector<double> h;
  h.reserve(count);
  auto hole = [&](std::size_t k) {
    return "entry " + std::to_string(k) +
           " (i = " + std::to_string(k % static_cast<std::size_t>(nx)) +
           ", j = " + std::to_string(k / static_cast<std::size_t>(nx)) +
           "): expected a finite height, found ";
  };
  if (formula) {
    // height(x, y) at every grid point, x and y in the shape frame (the grid centred on it),
    // i and j the point's indices
    const std::string text = trim(n.attribute("height").value());
    Expression e;
    try {
      e = Expression::compile(text, [this](const Reference& r) {
        static const char* const names[] = {"x", "y", "i", "j"};
        for (std::size_t k = 0; k < 4; ++k)
          if (r.base == names[k] && r.field.empty() && !r.hasIndex && !r.norm) {
            Binding b;
            b.kind = Binding::Kind::Q;
            b.index = k;
            return b;
          }
        try {
          return parameterBinding(r);
        } catch (const ExpressionError&) {
          throw ExpressionError(
              "unknown name '" + r.text() +
              "' (expected x, y (the grid point), i, j (its indices) or a parameter)");
        }
      });
    } catch (const ExpressionError& err) {
      fail(n, "attribute 'height': " + std::string(err.what()));
    }
    const double x0 = -0.5 * dx * static_cast<double>(nx - 1),
                 y0 = -0.5 * dy * static_cast<double>(ny - 1);
    SiconosVector xy(4);
    for (long j = 0; j < ny; ++j)
      for (long i = 0; i < nx; ++i) {
        xy(0) = x0 + dx * static_cast<double>(i);
        xy(1) = y0 + dy * static_cast<double>(j);
        xy(2) = static_cast<double>(i);
        xy(3) = static_cast<double>(j);
        h.push_back(e.evaluate(Arguments{&xy, nullptr, 0.0}));
        if (!std::isfinite(h.back()))
          fail(n, "attribute 'height' ('" + text + "'): " + hole(h.size() - 1) +
                      numberText(h.back()) + " at x = " + numberText(xy(0)) +
                      ", y = " + numberText(xy(1)) + " (a heightfield has no hole)");
      }
  } else if (inlineHeights) {
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
