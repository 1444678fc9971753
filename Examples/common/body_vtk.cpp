// BodyVtkWriter: one .vtp per frame with the bodies' poses, a .pvd index.
#include "body_vtk.hpp"

#include <cstdio>

#include "example_utils.hpp"
#include "nsdyn/Error.hpp"

namespace nsdyn::examples {

BodyVtkWriter::BodyVtkWriter(std::string dir, std::string name,
                             std::vector<std::shared_ptr<NewtonEulerDS>> bodies)
    : dir_(std::move(dir)), name_(std::move(name)), bodies_(std::move(bodies)) {}

namespace {
void writeArray(std::FILE* f, const char* name, int components, const std::vector<double>& values) {
  std::fprintf(f,
               "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%d\" "
               "format=\"ascii\">\n",
               name, components);
  for (std::size_t i = 0; i < values.size(); ++i)
    std::fprintf(f, "%s%.17g", (i % components == 0) ? (i ? "\n          " : "          ") : " ",
                 values[i]);
  std::fprintf(f, "\n        </DataArray>\n");
}
}  // namespace

void BodyVtkWriter::frame(double t) {
  char file[64];
  std::snprintf(file, sizeof file, "_%06zu.vtp", frames_.size());
  const std::string rel = name_ + file;
  const std::string path = joinPath(dir_, rel);
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw Error("VTK frame " + path, "a writable file", "cannot open");
  const std::size_t n = bodies_.size();
  std::vector<double> points, orientation, velocity, omega, index;
  for (std::size_t b = 0; b < n; ++b) {
    const NewtonEulerDS& ds = *bodies_[b];
    for (std::size_t i = 0; i < 3; ++i) points.push_back(ds.q()(i));
    for (std::size_t i = 3; i < 7; ++i) orientation.push_back(ds.q()(i));
    for (std::size_t i = 0; i < 3; ++i) velocity.push_back(ds.velocity()(i));
    const SiconosVector w = ds.angularVelocityWorld();
    for (std::size_t i = 0; i < 3; ++i) omega.push_back(w(i));
    index.push_back(static_cast<double>(b));
  }
  std::fprintf(f,
               "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" "
               "byte_order=\"LittleEndian\">\n");
  std::fprintf(f, "  <PolyData>\n    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\">\n", n, n);
  std::fprintf(f, "      <Points>\n");
  writeArray(f, "position", 3, points);
  std::fprintf(f, "      </Points>\n      <PointData Scalars=\"body\" Vectors=\"velocity\">\n");
  writeArray(f, "orientation", 4, orientation);
  writeArray(f, "velocity", 3, velocity);
  writeArray(f, "angular_velocity", 3, omega);
  writeArray(f, "body", 1, index);
  std::fprintf(f, "      </PointData>\n      <Verts>\n");
  std::fprintf(
      f, "        <DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n         ");
  for (std::size_t b = 0; b < n; ++b) std::fprintf(f, " %zu", b);
  std::fprintf(f,
               "\n        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" "
               "format=\"ascii\">\n         ");
  for (std::size_t b = 0; b < n; ++b) std::fprintf(f, " %zu", b + 1);
  std::fprintf(f,
               "\n        </DataArray>\n      </Verts>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
  const bool ok = std::fclose(f) == 0;
  if (!ok) throw Error("VTK frame " + path, "a complete write", "write error");
  frames_.emplace_back(t, rel);
}

std::string BodyVtkWriter::finish() {
  const std::string path = joinPath(dir_, name_ + ".pvd");
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw Error("VTK index " + path, "a writable file", "cannot open");
  std::fprintf(
      f,
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n");
  for (const auto& [t, file] : frames_)
    std::fprintf(f, "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", t, file.c_str());
  std::fprintf(f, "  </Collection>\n</VTKFile>\n");
  if (std::fclose(f) != 0) throw Error("VTK index " + path, "a complete write", "write error");
  return path;
}

}  // namespace nsdyn::examples
