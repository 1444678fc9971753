// VTK XML PolyData frames of a peridynamic body: its points with their fields.
#include "nsdyn/io/PeridynamicVtkWriter.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"
#include "nsdyn/io/PartFile.hpp"
#include "nsdyn/io/Writers.hpp"

namespace nsdyn::io {

namespace {

// One Float64 array of @p components per point, values from value(point, component);
// @p names: the ComponentName attributes (empty: none).
template <class Value>
void floatArray(std::FILE* f, const char* name, std::size_t components, std::size_t n, Value value,
                const std::vector<const char*>& names = {}) {
  std::fprintf(f, "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%zu\"",
               name, components);
  for (std::size_t c = 0; c < names.size(); ++c)
    std::fprintf(f, " ComponentName%zu=\"%s\"", c, names[c]);
  std::fprintf(f, " format=\"ascii\">\n");
  for (std::size_t i = 0; i < n; ++i) {
    std::fprintf(f, "         ");
    for (std::size_t c = 0; c < components; ++c) std::fprintf(f, " %.17g", value(i, c));
    std::fprintf(f, "\n");
  }
  std::fprintf(f, "        </DataArray>\n");
}

// The material's stress order (xx yy zz yz xz xy) → ParaView's symmetric tensor order
// (xx yy zz xy yz xz).
constexpr std::size_t kToParaView[6] = {0, 1, 2, 5, 3, 4};

double vonMises(const double* s) {  // s in the material's order
  const double a = s[0] - s[1], b = s[1] - s[2], c = s[2] - s[0];
  return std::sqrt(0.5 * (a * a + b * b + c * c) + 3.0 * (s[3] * s[3] + s[4] * s[4] + s[5] * s[5]));
}

}  // namespace

PeridynamicVtkWriter::PeridynamicVtkWriter(std::string dir, std::string name)
    : dir_(std::move(dir)), name_(std::move(name)) {
  if (name_.empty() || name_.find('/') != std::string::npos)
    throw Error("peridynamic VTK writer", "a file name prefix, not empty and without '/'",
                "'" + name_ + "'");
  makeDirectories(dir_);
}

std::string PeridynamicVtkWriter::pvdPath() const {
  return joinPath(dir_, name_ + ".pvd");
}

void PeridynamicVtkWriter::writeFrame(double time, const PeridynamicBody& body) {
  const std::string who = "peridynamic VTK writer (" + name_ + ")";
  const std::size_t n = body.size();
  if (!times_.empty() && n != points_)
    throw Error(who, "the " + std::to_string(points_) + " points of the first frame",
                std::to_string(n) + " points (body " + body.name() + ")");
  if (!std::isfinite(time)) throw Error(who, "a finite time", std::to_string(time));
  std::vector<double> sigma(6 * n, 0.0);
  if (n > 0) body.material().stress(body, body.x.data(), sigma.data());

  char suffix[32];
  std::snprintf(suffix, sizeof suffix, "_%06zu.vtp", times_.size());
  const std::string file = name_ + suffix;
  const std::string path = joinPath(dir_, file);
  {
    PartFile part(path, who);
    std::FILE* f = part.get();
    std::fprintf(
        f,
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" "
        "byte_order=\"LittleEndian\">\n  <PolyData>\n    <Piece NumberOfPoints=\"%zu\" "
        "NumberOfVerts=\"%zu\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n",
        n, n);
    std::fprintf(f,
                 "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" "
                 "format=\"ascii\">\n");
    for (std::size_t i = 0; i < n; ++i)
      std::fprintf(f, "          %.17g %.17g %.17g\n", body.x[3 * i], body.x[3 * i + 1],
                   body.x[3 * i + 2]);
    std::fprintf(f, "        </DataArray>\n      </Points>\n      <PointData>\n");
    floatArray(f, "displacement", 3, n,
               [&](std::size_t i, std::size_t c) { return body.x[3 * i + c] - body.X[3 * i + c]; });
    floatArray(f, "velocity", 3, n,
               [&](std::size_t i, std::size_t c) { return body.v[3 * i + c]; });
    floatArray(f, "damage", 1, n, [&](std::size_t i, std::size_t) { return body.damage[i]; });
    floatArray(f, "stress", 6, n,
               [&](std::size_t i, std::size_t c) { return sigma[6 * i + kToParaView[c]]; },
               {"XX", "YY", "ZZ", "XY", "YZ", "XZ"});
    floatArray(f, "von_mises", 1, n,
               [&](std::size_t i, std::size_t) { return vonMises(&sigma[6 * i]); });
    std::fprintf(f, "        <DataArray type=\"Int32\" Name=\"prescribed\" format=\"ascii\">\n");
    for (std::size_t i = 0; i < n; ++i)
      std::fprintf(f, "          %d\n", body.prescribed[i] ? 1 : 0);
    std::fprintf(f, "        </DataArray>\n");
    floatArray(f, "volume", 1, n, [&](std::size_t i, std::size_t) { return body.volume[i]; });
    floatArray(f, "reference", 3, n,
               [&](std::size_t i, std::size_t c) { return body.X[3 * i + c]; });
    std::fprintf(f,
                 "      </PointData>\n      <Verts>\n        <DataArray type=\"Int64\" "
                 "Name=\"connectivity\" format=\"ascii\">\n");
    for (std::size_t i = 0; i < n; ++i) std::fprintf(f, "          %zu\n", i);
    std::fprintf(f,
                 "        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" "
                 "format=\"ascii\">\n");
    for (std::size_t i = 0; i < n; ++i) std::fprintf(f, "          %zu\n", i + 1);
    std::fprintf(f,
                 "        </DataArray>\n      </Verts>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
    part.commit();
  }
  files_.push_back(path);
  points_ = n;
  times_.push_back(time);
  frames_.push_back(file);
}

std::string PeridynamicVtkWriter::finish() {
  const std::string path = pvdPath();
  PartFile part(path, "peridynamic VTK writer (" + name_ + ")");
  std::FILE* f = part.get();
  std::fprintf(
      f,
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n");
  for (std::size_t i = 0; i < times_.size(); ++i)
    std::fprintf(f, "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", times_[i],
                 frames_[i].c_str());
  std::fprintf(f, "  </Collection>\n</VTKFile>\n");
  part.commit();
  bool listed = false;
  for (const std::string& p : files_) listed = listed || p == path;
  if (!listed) files_.push_back(path);
  return path;
}

}  // namespace nsdyn::io
