// The shape and object descriptions of Siconos's mechanics I/O in a scene HDF5 file
// (SceneHdf5Siconos.hpp). The layout is the one Siconos's MechanicsHdf5 reads
// (siconos/siconos io/swig/io/mechanics_hdf5.py: add_primitive_shape, add_convex_shape,
// add_object; vview.py: init_shape, init_contactor); the code is nsdyn's.
#include "SceneHdf5Siconos.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/SphereShape.hpp"

namespace nsdyn::io::detail {

namespace {

using Vec3 = Shape::Vec3;
using Quat = Shape::Quat;
namespace qt = quaternion;

// Object headers without modification times: the same run writes the same bytes.
hid_t untimed(hid_t propertyClass) {
  hid_t p = H5Pcreate(propertyClass);
  H5Pset_obj_track_times(p, false);
  return p;
}

hid_t createGroup(hid_t parent, const std::string& name) {
  hid_t props = untimed(H5P_GROUP_CREATE);
  hid_t g = H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, props, H5P_DEFAULT);
  H5Pclose(props);
  return g;
}

// A variable-length UTF-8 string: what h5py writes for a Python str and reads back as a
// str (a fixed-length one reads back as bytes, which Siconos's comparisons miss).
bool textAttribute(hid_t object, const char* name, const std::string& value) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  const char* text = value.c_str();
  const bool ok = attr >= 0 && H5Awrite(attr, type, &text) >= 0;
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  return ok;
}

// Doubles: a scalar (rank 0), a vector (rank 1) or a matrix (rank 2, row-major).
bool numbersAttribute(hid_t object, const char* name, const double* values, int rank,
                      const hsize_t* dims) {
  hid_t space = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims, nullptr);
  hid_t attr = H5Acreate2(object, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  const bool ok = attr >= 0 && H5Awrite(attr, H5T_NATIVE_DOUBLE, values) >= 0;
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  return ok;
}

bool numberAttribute(hid_t object, const char* name, double value) {
  return numbersAttribute(object, name, &value, 0, nullptr);
}

template <std::size_t N>
bool arrayAttribute(hid_t object, const char* name, const std::array<double, N>& values) {
  const hsize_t n = N;
  return numbersAttribute(object, name, values.data(), 1, &n);
}

bool integerAttribute(hid_t object, const char* name, std::int64_t value) {
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(object, name, H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
  const long long v = value;
  const bool ok = attr >= 0 && H5Awrite(attr, H5T_NATIVE_LLONG, &v) >= 0;
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  return ok;
}

// A rows × cols dataset of doubles (rows = 0: an empty one, as Siconos's contactors).
hid_t createNumbers(hid_t parent, const std::string& name, const std::vector<double>& values,
                    hsize_t rows, hsize_t cols) {
  const hsize_t dims[2] = {rows, cols};
  hid_t space = H5Screate_simple(2, dims, nullptr);
  hid_t props = untimed(H5P_DATASET_CREATE);
  hid_t set =
      H5Dcreate2(parent, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, props, H5P_DEFAULT);
  H5Pclose(props);
  H5Sclose(space);
  if (set >= 0 && rows * cols > 0 &&
      H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) < 0) {
    H5Dclose(set);
    return -1;
  }
  return set;
}

// The rotation taking +z to the unit vector @p n.
Quat zTo(const Vec3& n) {
  const Vec3 z{0.0, 0.0, 1.0};
  const Vec3 axis = qt::cross(z, n);
  const double s = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  const double angle = std::atan2(s, n[2]);
  if (s < 1e-12) return n[2] > 0.0 ? Quat{1.0, 0.0, 0.0, 0.0} : Quat{0.0, 1.0, 0.0, 0.0};
  return qt::fromAxisAngle({axis[0] / s, axis[1] / s, axis[2] / s}, angle);
}

// VTK and Siconos's viewer draw cylinders and capsules along y; ours are along z: the
// contactor turns y onto z (+90° about x).
const Quat kYToZ{std::sqrt(0.5), std::sqrt(0.5), 0.0, 0.0};

struct ShapeRef {
  std::string name;
  bool alongY = false;  // a cylinder or capsule: the contactor adds kYToZ
};

// The shapes written so far, by kind and parameters (equal shapes share one entry).
class RefTable {
 public:
  explicit RefTable(hid_t ref) : ref_(ref) {}

  // The entry of @p shape (written on first use); empty name if a write failed.
  ShapeRef of(const Shape& shape) {
    std::string kind, primitive;
    std::vector<double> params;
    hsize_t rows = 1;
    ShapeRef r;
    switch (shape.kind()) {
      case ShapeKind::Sphere:
        kind = "sphere";
        primitive = "Sphere";
        params = {static_cast<const SphereShape&>(shape).radius()};
        break;
      case ShapeKind::Box: {
        kind = "box";
        primitive = "Box";
        const Vec3& h = static_cast<const BoxShape&>(shape).halfExtents();
        params = {2.0 * h[0], 2.0 * h[1], 2.0 * h[2]};
        break;
      }
      case ShapeKind::Capsule: {
        const auto& c = static_cast<const CapsuleShape&>(shape);
        kind = "capsule";
        primitive = "Capsule";  // radius, length of the segment
        params = {c.radius(), 2.0 * c.halfLength()};
        r.alongY = true;
        break;
      }
      case ShapeKind::Cylinder: {
        const auto& c = static_cast<const CylinderShape&>(shape);
        kind = "cylinder";
        primitive = "Cylinder";  // radius, height
        params = {c.radius(), 2.0 * c.halfLength()};
        r.alongY = true;
        break;
      }
      case ShapeKind::ConvexHull: {
        kind = "convex";
        const auto& v = static_cast<const ConvexHullShape&>(shape).vertices();
        for (const Vec3& p : v) params.insert(params.end(), p.begin(), p.end());
        rows = v.size();
        break;
      }
      case ShapeKind::HalfSpace:
        return r;  // a Box per contactor (plane())
      case ShapeKind::TriangleMesh:
      case ShapeKind::Heightfield:
        return r;  // terrains are not written to the Siconos file (skipped by the caller)
    }
    const auto key = std::make_pair(kind, params);
    const auto at = known_.find(key);
    if (at != known_.end()) {
      r.name = at->second;
      return r;
    }
    r.name = add(kind, primitive, params, rows);
    if (!r.name.empty()) known_.emplace(key, r.name);
    return r;
  }

  // A Box primitive of @p extents for a half-space.
  std::string plane(const Vec3& extents) {
    return add("plane", "Box", {extents[0], extents[1], extents[2]}, 1);
  }

 private:
  std::string add(const std::string& kind, const std::string& primitive,
                  const std::vector<double>& params, hsize_t rows) {
    const std::string name = kind + std::to_string(count_);
    const hsize_t cols = rows > 0 ? params.size() / rows : 0;
    hid_t set = createNumbers(ref_, name, params, rows, cols);
    bool ok = set >= 0 && integerAttribute(set, "id", static_cast<std::int64_t>(count_));
    ok = ok && textAttribute(set, "type", primitive.empty() ? "convex" : "primitive");
    if (!primitive.empty()) ok = ok && textAttribute(set, "primitive", primitive);
    if (set >= 0) H5Dclose(set);
    ++count_;
    return ok ? name : std::string();
  }

  hid_t ref_;
  std::size_t count_ = 0;
  std::map<std::pair<std::string, std::vector<double>>, std::string> known_;
};

// Where the half-spaces are drawn: the centre and size of the scene's finite shapes.
struct SceneBox {
  Vec3 centre{0.0, 0.0, 0.0};
  double size = 1.0;
};

SceneBox sceneBox(const SceneFrameView& f) {
  Vec3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  bool any = false;
  for (std::size_t b = 0; b < f.bodyCount; ++b) {
    const Vec3 x{f.q[7 * b], f.q[7 * b + 1], f.q[7 * b + 2]};
    const Quat r{f.q[7 * b + 3], f.q[7 * b + 4], f.q[7 * b + 5], f.q[7 * b + 6]};
    for (std::uint32_t s = f.shapeStart[b]; s < f.shapeStart[b + 1]; ++s) {
      if (!f.shapes[s].shape || !f.shapes[s].shape->isFinite()) continue;
      const Shape::Aabb box = f.shapes[s].boundingBox(x, r);
      for (std::size_t i = 0; i < 3; ++i) {
        lo[i] = std::min(lo[i], box.min[i]);
        hi[i] = std::max(hi[i], box.max[i]);
      }
      any = true;
    }
  }
  SceneBox s;
  if (!any) return s;
  double d2 = 0.0;
  for (std::size_t i = 0; i < 3; ++i) {
    s.centre[i] = 0.5 * (lo[i] + hi[i]);
    d2 += (hi[i] - lo[i]) * (hi[i] - lo[i]);
  }
  s.size = std::max(2.0 * std::sqrt(d2), 1e-3);
  return s;
}

// One contactor dataset (empty, attributes only) of the object group @p object.
bool contactor(hid_t object, const std::string& name, const std::string& shape, const Vec3& t,
               const Quat& r) {
  hid_t set = createNumbers(object, name, {}, 0, 0);
  bool ok = set >= 0 && textAttribute(set, "instance_name", name);
  ok = ok && textAttribute(set, "shape_name", shape);
  ok = ok && integerAttribute(set, "group", 0);
  ok = ok && arrayAttribute(set, "translation", t);
  ok = ok && arrayAttribute(set, "orientation", r);
  if (set >= 0) H5Dclose(set);
  return ok;
}

double finiteVolume(const SceneFrameView& f, std::size_t b) {
  double v = 0.0;
  for (std::uint32_t s = f.shapeStart[b]; s < f.shapeStart[b + 1]; ++s)
    if (f.shapes[s].shape && f.shapes[s].shape->isFinite()) v += f.shapes[s].shape->volume();
  return v;
}

}  // namespace

bool createSiconosGroups(hid_t data) {
  bool ok = true;
  for (const char* name : {"ref", "input", "nslaws", "log"}) {
    hid_t g = createGroup(data, name);
    ok = ok && g >= 0;
    if (g >= 0) H5Gclose(g);
  }
  return ok;
}

bool writeSiconosObjects(hid_t data, double time, const SceneFrameView& f,
                         const std::vector<int>& ids, const std::vector<std::size_t>& order) {
  hid_t ref = H5Gopen2(data, "ref", H5P_DEFAULT);
  hid_t input = H5Gopen2(data, "input", H5P_DEFAULT);
  bool ok = ref >= 0 && input >= 0;
  RefTable table(ref);
  const SceneBox scene = ok ? sceneBox(f) : SceneBox{};
  for (std::size_t k = 0; k < order.size() && ok; ++k) {
    const std::size_t b = order[k];
    const bool isStatic = f.isStaticBody(b);
    const Vec3 x{f.q[7 * b], f.q[7 * b + 1], f.q[7 * b + 2]};
    const Quat r{f.q[7 * b + 3], f.q[7 * b + 4], f.q[7 * b + 5], f.q[7 * b + 6]};
    hid_t object = createGroup(input, "body" + std::to_string(f.id[b]));
    ok = object >= 0 && integerAttribute(object, "id", ids[b]);
    ok = ok && textAttribute(object, "type", isStatic ? "static" : "dynamic");
    // mass: the body's; a frame without masses (one made by hand) gets the volume of
    // the finite shapes (density 1), what Siconos's viewer needs for a dynamic body
    const double mass = isStatic ? 0.0 : f.mass ? f.mass[b] : finiteVolume(f, b);
    ok = ok && numberAttribute(object, "mass", mass);
    if (ok && !isStatic && f.inertia) {
      const hsize_t dims[2] = {3, 3};
      ok = numbersAttribute(object, "inertia", &f.inertia[9 * b], 2, dims);
    }
    ok = ok && arrayAttribute(object, "translation", x);
    ok = ok && arrayAttribute(object, "orientation", r);
    std::array<double, 6> v{};
    for (std::size_t i = 0; i < 6; ++i) v[i] = f.velocity[6 * b + i];
    ok = ok && arrayAttribute(object, "velocity", v);
    ok = ok && arrayAttribute(object, "center_of_mass", Vec3{0.0, 0.0, 0.0});
    ok = ok && numberAttribute(object, "time_of_birth", time);
    for (std::uint32_t s = f.shapeStart[b]; s < f.shapeStart[b + 1] && ok; ++s) {
      const ShapeInstance& in = f.shapes[s];
      const std::size_t num = s - f.shapeStart[b];
      if (!in.shape) continue;
      if (in.shape->kind() == ShapeKind::HalfSpace) {
        // a Box of the scene's size, its top face on the plane, under the scene's centre
        const auto& h = static_cast<const HalfSpaceShape&>(*in.shape);
        const Quat rw = qt::multiply(r, in.orientation);
        const Vec3 n = qt::rotate(rw, h.normal());
        const Vec3 p0 = qt::rotate(r, in.position);
        Vec3 onPlane;
        double dist = 0.0;
        for (std::size_t i = 0; i < 3; ++i)
          dist += (scene.centre[i] - (x[i] + p0[i] + h.offset() * n[i])) * n[i];
        const double thick = 0.02 * scene.size;
        for (std::size_t i = 0; i < 3; ++i)
          onPlane[i] = scene.centre[i] - (dist + 0.5 * thick) * n[i] - x[i];
        const std::string name = table.plane({scene.size, scene.size, thick});
        ok = !name.empty() &&
             contactor(object, name + "-" + std::to_string(num), name,
                       qt::rotateTranspose(r, onPlane), qt::multiply(qt::conjugate(r), zTo(n)));
        continue;
      }
      if (in.shape->kind() == ShapeKind::TriangleMesh || in.shape->kind() == ShapeKind::Heightfield)
        continue;  // terrains: no Siconos primitive written yet
      const ShapeRef sr = table.of(*in.shape);
      ok = !sr.name.empty() &&
           contactor(object, sr.name + "-" + std::to_string(num), sr.name, in.position,
                     sr.alongY ? qt::multiply(in.orientation, kYToZ) : in.orientation);
    }
    if (object >= 0) H5Gclose(object);
  }
  if (ref >= 0) H5Gclose(ref);
  if (input >= 0) H5Gclose(input);
  return ok;
}

bool writeSiconosLaws(hid_t data, const std::vector<double>& mus) {
  hid_t laws = H5Gopen2(data, "nslaws", H5P_DEFAULT);
  bool ok = laws >= 0;
  for (std::size_t k = 0; k < mus.size() && ok; ++k) {
    hid_t set = createNumbers(laws, "contact-law" + std::to_string(k), {}, 0, 0);
    if (set < 0) {
      ok = false;
      break;
    }
    // (Siconos's datasets of laws are 1-D and empty; a 0 × 0 one reads the same)
    ok = textAttribute(set, "type", "NewtonImpactFrictionNSL");
    ok = ok && numberAttribute(set, "mu", mus[k]);
    ok = ok && integerAttribute(set, "gid1", 0) && integerAttribute(set, "gid2", 0);
    H5Dclose(set);
  }
  if (laws >= 0) H5Gclose(laws);
  return ok;
}

}  // namespace nsdyn::io::detail
