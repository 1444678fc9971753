// BodyStore: the bodies of a scene as arrays (nsdyn/BodyStore.hpp).
#include "nsdyn/BodyStore.hpp"

#include "nsdyn/BodyHandle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "nsdyn/Error.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/Quaternion.hpp"

namespace nsdyn {

namespace {

// Inverse of a symmetric positive definite 3x3 (row-major) by cofactors; false when singular.
bool invert3(const double* a, double* out) {
  const double c00 = a[4] * a[8] - a[5] * a[7], c01 = a[5] * a[6] - a[3] * a[8],
               c02 = a[3] * a[7] - a[4] * a[6];
  const double det = a[0] * c00 + a[1] * c01 + a[2] * c02;
  if (!(std::isfinite(det) && det > 0.0)) return false;
  const double s = 1.0 / det;
  out[0] = c00 * s;
  out[1] = (a[2] * a[7] - a[1] * a[8]) * s;
  out[2] = (a[1] * a[5] - a[2] * a[4]) * s;
  out[3] = c01 * s;
  out[4] = (a[0] * a[8] - a[2] * a[6]) * s;
  out[5] = (a[2] * a[3] - a[0] * a[5]) * s;
  out[6] = c02 * s;
  out[7] = (a[1] * a[6] - a[0] * a[7]) * s;
  out[8] = (a[0] * a[4] - a[1] * a[3]) * s;
  return true;
}

}  // namespace

std::string BodyStore::describe(std::size_t b) const {
  return "body '" + names_.at(b) + "' (#" + std::to_string(b) + ")";
}

void BodyStore::checkIndex(std::size_t b, const std::string& what) const {
  if (b >= size())
    throw Error(what, "a body index below " + std::to_string(size()), std::to_string(b));
}

std::size_t BodyStore::append(const std::vector<ShapeInstance>& bodyShapes, bool isStaticBody,
                              int bodyGroup, const std::string& bodyName) {
  const std::size_t b = size();
  const std::string object = bodyName.empty()
                                 ? (isStaticBody ? "static #" : "body #") + std::to_string(b)
                                 : "body '" + bodyName + "'";
  if (bodyGroup < 0) throw Error(object, "a material group >= 0", std::to_string(bodyGroup));
  if (bodyShapes.empty()) throw Error(object, "at least one shape", "no shape");
  if (bodyShapes.size() > 64)
    throw Error(object, "at most 64 shapes", std::to_string(bodyShapes.size()) + " shapes");
  if (b >= (std::size_t(1) << 21))
    throw Error(object, "at most 2^21 bodies in a scene", std::to_string(b + 1));
  double r2 = 0.0;
  for (std::size_t k = 0; k < bodyShapes.size(); ++k) {
    const ShapeInstance& s = bodyShapes[k];
    if (!s.shape) throw Error(object + " shape #" + std::to_string(k), "a shape", "null");
    if (!s.shape->isFinite()) {
      if (!isStaticBody)
        throw Error(object + " shape #" + std::to_string(k),
                    "a finite shape on a dynamic body (half-spaces are static)",
                    s.shape->kindName());
      continue;
    }
    const Shape::Aabb box =
        s.shape->boundingBox(s.worldPosition({0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}),
                             s.worldOrientation({1.0, 0.0, 0.0, 0.0}));
    double c2 = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double e = std::max(std::fabs(box.min[i]), std::fabs(box.max[i]));
      c2 += e * e;
    }
    r2 = std::max(r2, c2);
  }
  shapes.insert(shapes.end(), bodyShapes.begin(), bodyShapes.end());
  shapeStart.push_back(static_cast<std::uint32_t>(shapes.size()));
  q.insert(q.end(), 7, 0.0);
  q[7 * b + 3] = 1.0;
  v.insert(v.end(), 6, 0.0);
  mass.push_back(0.0);
  invMass.push_back(0.0);
  inertia.insert(inertia.end(), 9, 0.0);
  invInertia.insert(invInertia.end(), 9, 0.0);
  force.insert(force.end(), 3, 0.0);
  torque.insert(torque.end(), 3, 0.0);
  isStatic.push_back(isStaticBody ? 1 : 0);
  ghost.push_back(0);
  group.push_back(bodyGroup);
  family.push_back(0);
  id.push_back(static_cast<std::int64_t>(b));
  names_.push_back(bodyName.empty() ? (isStaticBody ? "static #" : "body #") + std::to_string(b)
                                    : bodyName);
  boundingRadius_.push_back(isStaticBody ? 0.0 : std::sqrt(r2));
  if (!isStaticBody) ++dynamic_;
  return b;
}

std::size_t BodyStore::appendFrom(const BodyStore& from, std::size_t b) {
  from.checkIndex(b, "BodyStore::appendFrom");
  if (&from == this) throw Error("BodyStore::appendFrom", "another store", "the store itself");
  const std::size_t k = size();
  const auto copy = [b](std::vector<double>& to, const std::vector<double>& src,
                        std::size_t width) {
    to.insert(to.end(), src.begin() + static_cast<std::ptrdiff_t>(width * b),
              src.begin() + static_cast<std::ptrdiff_t>(width * (b + 1)));
  };
  shapes.insert(shapes.end(), from.shapes.begin() + from.shapeStart[b],
                from.shapes.begin() + from.shapeStart[b + 1]);
  shapeStart.push_back(static_cast<std::uint32_t>(shapes.size()));
  copy(q, from.q, 7);
  copy(v, from.v, 6);
  mass.push_back(from.mass[b]);
  invMass.push_back(from.invMass[b]);
  copy(inertia, from.inertia, 9);
  copy(invInertia, from.invInertia, 9);
  copy(force, from.force, 3);
  copy(torque, from.torque, 3);
  isStatic.push_back(from.isStatic[b]);
  ghost.push_back(from.ghost[b]);
  group.push_back(from.group[b]);
  family.push_back(from.family[b]);
  id.push_back(from.id[b]);
  names_.push_back(from.names_[b]);
  boundingRadius_.push_back(from.boundingRadius_[b]);
  const auto fn = from.forceFunctions_.find(b);
  if (fn != from.forceFunctions_.end()) forceFunctions_[k] = fn->second;
  if (!from.isStatic[b]) ++dynamic_;
  return k;
}

void BodyStore::clear() {
  q.clear();
  v.clear();
  mass.clear();
  invMass.clear();
  inertia.clear();
  invInertia.clear();
  force.clear();
  torque.clear();
  shapeStart.assign(1, 0);
  shapes.clear();
  isStatic.clear();
  ghost.clear();
  group.clear();
  family.clear();
  id.clear();
  names_.clear();
  boundingRadius_.clear();
  forceFunctions_.clear();
  dynamic_ = 0;
}

std::size_t BodyStore::addBody(const BodySpec& spec, int bodyGroup) {
  // makeBody checks the spec and computes the mass properties
  return addDynamic(makeBody(spec), bodyGroup, spec.name);
}

std::size_t BodyStore::addBody(const BodyShapes& body, int bodyGroup) {
  if (body.isStatic())
    return addStatic(body.shapes(), body.position(), body.orientation(), bodyGroup);
  return addDynamic(body, bodyGroup, body.body()->name());
}

std::size_t BodyStore::addDynamic(const BodyShapes& body, int bodyGroup,
                                  const std::string& bodyName) {
  const NewtonEulerDS& ds = *body.body();
  const std::size_t b = append(body.shapes(), false, bodyGroup, bodyName);
  for (int i = 0; i < 7; ++i) q[7 * b + i] = ds.q()(static_cast<std::size_t>(i));
  for (int i = 0; i < 6; ++i) v[6 * b + i] = ds.velocity()(static_cast<std::size_t>(i));
  mass[b] = ds.scalarMass();
  invMass[b] = 1.0 / ds.scalarMass();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      inertia[9 * b + 3 * i + j] =
          ds.inertia()(static_cast<std::size_t>(i), static_cast<std::size_t>(j));
  if (!invert3(&inertia[9 * b], &invInertia[9 * b]))
    throw Error(describe(b), "a positive definite inertia", "a singular one");
  if (ds.hasFExt()) {
    const SiconosVector f = ds.computeFExt(0.0);
    for (int i = 0; i < 3; ++i) force[3 * b + i] = f(static_cast<std::size_t>(i));
  }
  if (ds.hasMExt()) {
    const SiconosVector m = ds.computeMExt(0.0);
    for (int i = 0; i < 3; ++i) torque[3 * b + i] = m(static_cast<std::size_t>(i));
  }
  return b;
}

std::size_t BodyStore::addStatic(const std::vector<ShapeInstance>& bodyShapes,
                                 const Shape::Vec3& position, const Shape::Quat& orientation,
                                 int bodyGroup) {
  const double n = std::sqrt(orientation[0] * orientation[0] + orientation[1] * orientation[1] +
                             orientation[2] * orientation[2] + orientation[3] * orientation[3]);
  if (!(std::fabs(n - 1.0) <= 1e-9))
    throw Error("static body #" + std::to_string(size()), "a unit quaternion",
                "norm " + std::to_string(n));
  for (int i = 0; i < 3; ++i)
    if (!std::isfinite(position[static_cast<std::size_t>(i)]))
      throw Error("static body #" + std::to_string(size()), "a finite position",
                  "a non-finite one");
  const std::size_t b = append(bodyShapes, true, bodyGroup, "");
  for (int i = 0; i < 3; ++i) q[7 * b + i] = position[static_cast<std::size_t>(i)];
  for (int i = 0; i < 4; ++i) q[7 * b + 3 + i] = orientation[static_cast<std::size_t>(i)];
  return b;
}

void BodyStore::setForce(std::size_t b, const Shape::Vec3& f, const Shape::Vec3& m) {
  checkIndex(b, "BodyStore::setForce");
  for (std::size_t i = 0; i < 3; ++i)
    if (!std::isfinite(f[i]) || !std::isfinite(m[i]))
      throw Error(describe(b), "a finite force and torque",
                  "force (" + std::to_string(f[0]) + ", " + std::to_string(f[1]) + ", " +
                      std::to_string(f[2]) + "), torque (" + std::to_string(m[0]) + ", " +
                      std::to_string(m[1]) + ", " + std::to_string(m[2]) + ")");
  if (isStatic[b]) throw Error(describe(b), "a dynamic body for an applied force", "a static body");
  for (int i = 0; i < 3; ++i) {
    force[3 * b + i] = f[static_cast<std::size_t>(i)];
    torque[3 * b + i] = m[static_cast<std::size_t>(i)];
  }
}

void BodyStore::setForceFunction(std::size_t b, ForceFunction f) {
  checkIndex(b, "BodyStore::setForceFunction");
  if (isStatic[b]) throw Error(describe(b), "a dynamic body for a force function", "a static body");
  if (f)
    forceFunctions_[b] = std::move(f);
  else
    forceFunctions_.erase(b);
}

void BodyStore::setFamily(std::size_t b, std::int32_t bodyFamily) {
  checkIndex(b, "BodyStore::setFamily");
  if (bodyFamily < 0)
    throw Error(describe(b), "a collision family >= 0 (0: none)", std::to_string(bodyFamily));
  family[b] = bodyFamily;
}

void BodyStore::lockRotation(std::size_t b) {
  checkIndex(b, "BodyStore::lockRotation");
  if (isStatic[b]) throw Error(describe(b), "a dynamic body to lock its rotation", "a static body");
  for (int i = 0; i < 9; ++i) invInertia[9 * b + i] = 0.0;
  for (int i = 3; i < 6; ++i) v[6 * b + i] = 0.0;
}

double BodyStore::kineticEnergy(std::size_t b) const {
  if (isStatic[b] || ghost[b]) return 0.0;
  const double* vb = &v[6 * b];
  const double* I = &inertia[9 * b];
  double e = mass[b] * (vb[0] * vb[0] + vb[1] * vb[1] + vb[2] * vb[2]);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e += vb[3 + i] * I[3 * i + j] * vb[3 + j];
  return 0.5 * e;
}

Shape::Vec3 BodyStore::angularVelocityWorld(std::size_t b) const {
  const Shape::Quat r{q[7 * b + 3], q[7 * b + 4], q[7 * b + 5], q[7 * b + 6]};
  return quaternion::rotate(r, {v[6 * b + 3], v[6 * b + 4], v[6 * b + 5]});
}

double BodyStore::smallestShapeSize() const {
  double smallest = std::numeric_limits<double>::infinity();
  for (const ShapeInstance& s : shapes)
    if (s.shape->isFinite()) smallest = std::min(smallest, s.shape->characteristicSize());
  return smallest;
}

void BodyStore::shrinkToFit() {
  for (auto* a : {&q, &v, &mass, &invMass, &inertia, &invInertia, &force, &torque})
    a->shrink_to_fit();
  shapeStart.shrink_to_fit();
  shapes.shrink_to_fit();
  isStatic.shrink_to_fit();
  ghost.shrink_to_fit();
  group.shrink_to_fit();
  family.shrink_to_fit();
  id.shrink_to_fit();
  names_.shrink_to_fit();
  boundingRadius_.shrink_to_fit();
}

void BodyStore::normalizeOrientations() {
  for (std::size_t b = 0; b < size(); ++b) {
    double* r = &q[7 * b + 3];
    const double n = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    if (!(n > 0.0 && std::isfinite(n)))
      throw Error(describe(b), "a non-zero finite quaternion", "norm " + std::to_string(n));
    for (int i = 0; i < 4; ++i) r[i] /= n;
  }
}

void BodyHandle::setState(const std::array<double, 7>& q, const std::array<double, 6>& v) {
  if (isStatic())
    throw Error(store_->describe(index_), "a dynamic body for setState", "a static body");
  for (double x : q)
    if (!std::isfinite(x))
      throw Error(store_->describe(index_), "a finite q", "a non-finite value");
  for (double x : v)
    if (!std::isfinite(x))
      throw Error(store_->describe(index_), "a finite v", "a non-finite value");
  const double n = std::sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
  if (!(n > 0.0)) throw Error(store_->describe(index_), "a non-zero quaternion", "0");
  for (std::size_t i = 0; i < 7; ++i) store_->q[7 * index_ + i] = i < 3 ? q[i] : q[i] / n;
  for (std::size_t i = 0; i < 6; ++i) store_->v[6 * index_ + i] = v[i];
}

}  // namespace nsdyn
