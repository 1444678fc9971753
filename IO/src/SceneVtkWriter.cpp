// VTK XML PolyData frames of rigid-body scenes: bodies and contacts.
#include "nsdyn/io/SceneVtkWriter.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>

#include "SceneWriterChecks.hpp"
#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/BodyStore.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/SceneContacts.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/io/PartFile.hpp"
#include "nsdyn/io/Writers.hpp"

namespace nsdyn::io {

namespace {

using Vec3 = Shape::Vec3;

// What the bodies file says about one body.
struct BodyRow {
  int index = 0;
  Vec3 position{};
  Shape::Quat orientation{};
  Vec3 velocity{}, angularVelocity{};
  int kind = 0;
  double size = 0.0, radius = 0.0, halfLength = 0.0;
  Vec3 halfExtents{};
  double tensor[9] = {};  // column-major R_s diag(2 half-extents)
};

BodyRow bodyRow(const SceneFrameView& frame, std::size_t b) {
  BodyRow r;
  r.index = static_cast<int>(b);
  const double* q = &frame.q[7 * b];
  const double* v = &frame.velocity[6 * b];
  r.position = {q[0], q[1], q[2]};
  r.orientation = {q[3], q[4], q[5], q[6]};
  if (!frame.isStaticBody(b)) {
    for (std::size_t i = 0; i < 3; ++i) {
      r.velocity[i] = v[i];
      r.angularVelocity[i] = v[3 + i];
    }
  }
  const ShapeInstance& first = frame.firstShape(b);
  const Shape& shape = *first.shape;
  r.kind = static_cast<int>(shape.kind());
  r.size = shape.characteristicSize();
  r.halfExtents = shape.localHalfExtents();
  if (shape.kind() == ShapeKind::Sphere) {
    r.radius = static_cast<const SphereShape&>(shape).radius();
  } else if (shape.kind() == ShapeKind::Capsule) {
    r.radius = static_cast<const CapsuleShape&>(shape).radius();
    r.halfLength = static_cast<const CapsuleShape&>(shape).halfLength();
  } else if (shape.kind() == ShapeKind::Cylinder) {
    r.radius = static_cast<const CylinderShape&>(shape).radius();
    r.halfLength = static_cast<const CylinderShape&>(shape).halfLength();
  }
  const Shape::Quat qs = first.worldOrientation(r.orientation);
  for (std::size_t j = 0; j < 3; ++j) {
    Vec3 e{0.0, 0.0, 0.0};
    e[j] = 2.0 * r.halfExtents[j];
    const Vec3 column = quaternion::rotate(qs, e);
    for (std::size_t i = 0; i < 3; ++i) r.tensor[3 * j + i] = column[i];
  }
  return r;
}

void beginPolyData(std::FILE* f, std::size_t n) {
  std::fprintf(
      f,
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" "
      "byte_order=\"LittleEndian\">\n  <PolyData>\n    <Piece NumberOfPoints=\"%zu\" "
      "NumberOfVerts=\"%zu\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n",
      n, n);
}

// Points, then the point data (written by @p data), then one vertex per point.
template <class Points, class Data>
void writePolyData(std::FILE* f, std::size_t n, Points points, Data data) {
  beginPolyData(f, n);
  std::fprintf(f,
               "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" "
               "format=\"ascii\">\n");
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 p = points(i);
    std::fprintf(f, "          %.17g %.17g %.17g\n", p[0], p[1], p[2]);
  }
  std::fprintf(f, "        </DataArray>\n      </Points>\n      <PointData>\n");
  data();
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
}

// One Float64 array of @p components per point, values from value(point, component).
template <class Value>
void floatArray(std::FILE* f, const char* name, std::size_t components, std::size_t n,
                Value value) {
  std::fprintf(f,
               "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%zu\" "
               "format=\"ascii\">\n",
               name, components);
  for (std::size_t i = 0; i < n; ++i) {
    std::fprintf(f, "         ");
    for (std::size_t c = 0; c < components; ++c) std::fprintf(f, " %.17g", value(i, c));
    std::fprintf(f, "\n");
  }
  std::fprintf(f, "        </DataArray>\n");
}

template <class Value>
void intArray(std::FILE* f, const char* name, std::size_t n, Value value) {
  std::fprintf(f, "        <DataArray type=\"Int32\" Name=\"%s\" format=\"ascii\">\n", name);
  for (std::size_t i = 0; i < n; ++i) std::fprintf(f, "          %d\n", value(i));
  std::fprintf(f, "        </DataArray>\n");
}

}  // namespace

SceneVtkWriter::SceneVtkWriter(std::string dir, std::string name)
    : dir_(std::move(dir)), name_(std::move(name)) {
  if (name_.empty() || name_.find('/') != std::string::npos)
    throw Error("scene VTK writer", "a file name prefix, not empty and without '/'",
                "'" + name_ + "'");
  makeDirectories(dir_);
}

std::string SceneVtkWriter::bodiesPvdPath() const {
  return joinPath(dir_, name_ + "_bodies.pvd");
}
std::string SceneVtkWriter::contactsPvdPath() const {
  return joinPath(dir_, name_ + "_contacts.pvd");
}

void SceneVtkWriter::writeFrame(double time, double h, const std::vector<BodyShapes>& bodies,
                                const ContactSet& contacts) {
  writeFrame(time, h, SceneFrameView::of(bodies, contacts, "scene writer"));
}

void SceneVtkWriter::writeFrame(double time, double h, const BodyStore& bodies,
                                const SceneContacts& contacts) {
  writeFrame(time, h, SceneFrameView::of(bodies, contacts, "scene writer"));
}

void SceneVtkWriter::writeFrame(double time, double h, const SceneFrameView& frame) {
  if (!(h > 0.0) || !std::isfinite(h))
    throw Error("scene VTK writer", "a time step h finite and > 0", "h = " + std::to_string(h));
  frame.check("scene writer", false);

  // bodies with a finite first shape
  std::vector<BodyRow> rows;
  rows.reserve(frame.bodyCount);
  for (std::size_t b = 0; b < frame.bodyCount; ++b)
    if (frame.firstShape(b).shape->isFinite()) rows.push_back(bodyRow(frame, b));

  std::vector<std::size_t> active;
  for (std::size_t c = 0; c < frame.contactCount; ++c)
    if (frame.active[c]) active.push_back(c);

  char suffix[32];
  std::snprintf(suffix, sizeof suffix, "_%06zu.vtp", times_.size());
  const std::string bodyName = name_ + "_bodies" + suffix;
  const std::string contactName = name_ + "_contacts" + suffix;
  const std::string bodyPath = joinPath(dir_, bodyName);
  const std::string contactPath = joinPath(dir_, contactName);

  {
    PartFile file(bodyPath, "scene VTK writer");
    std::FILE* f = file.get();
    const std::size_t n = rows.size();
    writePolyData(
        f, n, [&](std::size_t i) { return rows[i].position; },
        [&] {
          intArray(f, "body", n, [&](std::size_t i) { return rows[i].index; });
          floatArray(f, "orientation", 4, n,
                     [&](std::size_t i, std::size_t c) { return rows[i].orientation[c]; });
          floatArray(f, "velocity", 3, n,
                     [&](std::size_t i, std::size_t c) { return rows[i].velocity[c]; });
          floatArray(f, "angular_velocity", 3, n,
                     [&](std::size_t i, std::size_t c) { return rows[i].angularVelocity[c]; });
          intArray(f, "shape_kind", n, [&](std::size_t i) { return rows[i].kind; });
          floatArray(f, "shape_size", 1, n,
                     [&](std::size_t i, std::size_t) { return rows[i].size; });
          floatArray(f, "half_extents", 3, n,
                     [&](std::size_t i, std::size_t c) { return rows[i].halfExtents[c]; });
          floatArray(f, "radius", 1, n, [&](std::size_t i, std::size_t) { return rows[i].radius; });
          floatArray(f, "half_length", 1, n,
                     [&](std::size_t i, std::size_t) { return rows[i].halfLength; });
          floatArray(f, "glyph_tensor", 9, n,
                     [&](std::size_t i, std::size_t c) { return rows[i].tensor[c]; });
        });
    file.commit();
  }
  files_.push_back(bodyPath);

  {
    PartFile file(contactPath, "scene VTK writer");
    std::FILE* f = file.get();
    const std::size_t n = active.size();
    const SceneFrameView& cs = frame;
    writePolyData(
        f, n,
        [&](std::size_t i) {
          const std::size_t c = active[i];
          return Vec3{0.5 * (cs.pointA[3 * c] + cs.pointB[3 * c]),
                      0.5 * (cs.pointA[3 * c + 1] + cs.pointB[3 * c + 1]),
                      0.5 * (cs.pointA[3 * c + 2] + cs.pointB[3 * c + 2])};
        },
        [&] {
          floatArray(f, "normal", 3, n,
                     [&](std::size_t i, std::size_t k) { return cs.frame[9 * active[i] + k]; });
          floatArray(f, "force", 3, n, [&](std::size_t i, std::size_t k) {
            const std::size_t c = active[i];
            const double* fr = &cs.frame[9 * c];
            const double* l = &cs.impulse[3 * c];
            return (l[0] * fr[k] + l[1] * fr[3 + k] + l[2] * fr[6 + k]) / h;
          });
          floatArray(f, "normal_force", 1, n,
                     [&](std::size_t i, std::size_t) { return cs.impulse[3 * active[i]] / h; });
          floatArray(f, "gap", 1, n, [&](std::size_t i, std::size_t) { return cs.gap[active[i]]; });
          intArray(f, "bodyA", n,
                   [&](std::size_t i) { return static_cast<int>(cs.bodyA[active[i]]); });
          intArray(f, "bodyB", n,
                   [&](std::size_t i) { return static_cast<int>(cs.bodyB[active[i]]); });
        });
    file.commit();
  }
  files_.push_back(contactPath);

  times_.push_back(time);
  bodyFiles_.push_back(bodyName);
  contactFiles_.push_back(contactName);
}

std::vector<std::string> SceneVtkWriter::finish() {
  const std::vector<std::string> paths{bodiesPvdPath(), contactsPvdPath()};
  const std::vector<std::string>* lists[] = {&bodyFiles_, &contactFiles_};
  for (std::size_t k = 0; k < 2; ++k) {
    PartFile file(paths[k], "scene VTK writer");
    std::FILE* f = file.get();
    std::fprintf(
        f,
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n");
    for (std::size_t i = 0; i < times_.size(); ++i)
      std::fprintf(f, "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", times_[i],
                   (*lists[k])[i].c_str());
    std::fprintf(f, "  </Collection>\n</VTKFile>\n");
    file.commit();
    bool listed = false;
    for (const std::string& p : files_) listed = listed || p == paths[k];
    if (!listed) files_.push_back(paths[k]);
  }
  return paths;
}

}  // namespace nsdyn::io
