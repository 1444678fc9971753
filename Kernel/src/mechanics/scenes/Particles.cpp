// Particles of the packings: sizes, bounding radii, shapes, checks, random rotations;
// the shared helpers of the scene generators.
#include <cmath>
#include <memory>
#include <sstream>

#include "SceneCommon.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SphereShape.hpp"

namespace nsdyn {
namespace scenes {

namespace {
constexpr double twoPi = 2.0 * M_PI;
}  // namespace

namespace detail {

std::string number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

std::string vector(const Shape::Vec3& v) {
  return "(" + number(v[0]) + ", " + number(v[1]) + ", " + number(v[2]) + ")";
}

void requirePositive(const std::string& generator, const std::string& what, double value) {
  if (!(std::isfinite(value) && value > 0.0))
    throw Error(generator, what + " finite and > 0", what + " = " + number(value));
}

void requireFinite(const std::string& generator, const std::string& what, const Shape::Vec3& v) {
  if (!(std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2])))
    throw Error(generator, what + " finite", what + " = " + vector(v));
}

void checkRegion(const std::string& generator, const std::string& what, const Region& r) {
  requireFinite(generator, what + ".lower", r.lower);
  requireFinite(generator, what + ".upper", r.upper);
  for (std::size_t i = 0; i < 3; ++i)
    if (!(r.lower[i] < r.upper[i]))
      throw Error(generator,
                  what + ".lower < " + what + ".upper componentwise (a non-empty region)",
                  what + " = " + vector(r.lower) + " to " + vector(r.upper));
}

void checkParticle(const std::string& generator, const ParticleSpec& p) {
  switch (p.kind) {
    case ParticleKind::Sphere:
      requirePositive(generator, "particle radius", p.radius);
      break;
    case ParticleKind::Box:
      requirePositive(generator, "particle halfExtents x", p.halfExtents[0]);
      requirePositive(generator, "particle halfExtents y", p.halfExtents[1]);
      requirePositive(generator, "particle halfExtents z", p.halfExtents[2]);
      break;
    case ParticleKind::Capsule:
    case ParticleKind::Cylinder:
      requirePositive(generator, "particle radius", p.radius);
      requirePositive(generator, "particle length", p.length);
      break;
  }
  if (!(p.sizeSpread >= 0.0 && p.sizeSpread < 1.0))
    throw Error(generator, "particle sizeSpread in [0, 1)", "sizeSpread = " + number(p.sizeSpread));
  requirePositive(generator, "particle density", p.density);
  // The largest particle must have finite sizes too.
  requirePositive(generator, "largest particle bounding radius",
                  boundingRadius(p) * (1.0 + p.sizeSpread));
}

ParticleSampler::ParticleSampler(const ParticleSpec& p, UniformRng& rng)
    : spec_(p),
      rng_(rng),
      nominalRadius_(boundingRadius(p)),
      maxRadius_(nominalRadius_ * (1.0 + p.sizeSpread)) {
  if (p.sizeSpread == 0.0) shared_ = makeParticleShape(p, 1.0);
}

void ParticleSampler::draw() {
  // Scale uniform in [1 − s, 1 + s].
  const double s = spec_.sizeSpread;
  scale_ = 1.0 - s + 2.0 * s * rng_.next();
  radius_ = nominalRadius_ * scale_;
  if (!spec_.randomOrientation) return;
  // Uniform rotation (K. Shoemake, "Uniform random rotations", Graphics Gems III, 1992):
  // q = (√(1−u₁) sin 2πu₂, √(1−u₁) cos 2πu₂, √u₁ sin 2πu₃, √u₁ cos 2πu₃).
  const double u1 = rng_.next(), u2 = rng_.next(), u3 = rng_.next();
  const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
  orientation_ = quaternion::normalized({a * std::sin(twoPi * u2), a * std::cos(twoPi * u2),
                                         b * std::sin(twoPi * u3), b * std::cos(twoPi * u3)});
}

BodySpec ParticleSampler::body(std::size_t index, const Shape::Vec3& position) const {
  BodySpec b;
  b.name = spec_.namePrefix + std::to_string(index);
  ShapeInstance inst;
  inst.shape = shared_ ? shared_ : makeParticleShape(spec_, scale_);
  b.shapes.push_back(std::move(inst));
  b.density = spec_.density;
  b.position = position;
  b.orientation = orientation_;
  return b;
}

StaticPart staticPart(const std::string& name, const SP::Shape& shape, const Shape::Vec3& position,
                      const Shape::Quat& orientation) {
  ShapeInstance inst;
  inst.shape = shape;
  return StaticPart{name, makeStaticBody({inst}, position, orientation)};
}

StaticPart boxPart(const std::string& name, const Shape::Vec3& half, const Shape::Vec3& position,
                   const Shape::Quat& orientation) {
  return staticPart(name, std::make_shared<BoxShape>(half), position, orientation);
}

}  // namespace detail

double boundingRadius(const ParticleSpec& p) {
  switch (p.kind) {
    case ParticleKind::Sphere:
      detail::requirePositive("boundingRadius", "particle radius", p.radius);
      return p.radius;
    case ParticleKind::Box:
      for (std::size_t i = 0; i < 3; ++i)
        detail::requirePositive("boundingRadius",
                                "particle halfExtents " + std::string(1, char('x' + i)),
                                p.halfExtents[i]);
      return std::sqrt(quaternion::dot(p.halfExtents, p.halfExtents));
    case ParticleKind::Capsule:
      detail::requirePositive("boundingRadius", "particle radius", p.radius);
      detail::requirePositive("boundingRadius", "particle length", p.length);
      return p.radius + 0.5 * p.length;
    case ParticleKind::Cylinder:
      detail::requirePositive("boundingRadius", "particle radius", p.radius);
      detail::requirePositive("boundingRadius", "particle length", p.length);
      return std::hypot(p.radius, 0.5 * p.length);
  }
  throw Error("boundingRadius", "a ParticleKind",
              "kind = " + std::to_string(static_cast<int>(p.kind)));
}

SP::Shape makeParticleShape(const ParticleSpec& p, double scale) {
  detail::requirePositive("makeParticleShape", "scale", scale);
  switch (p.kind) {
    case ParticleKind::Sphere:
      return std::make_shared<SphereShape>(scale * p.radius);
    case ParticleKind::Box:
      return std::make_shared<BoxShape>(Shape::Vec3{
          scale * p.halfExtents[0], scale * p.halfExtents[1], scale * p.halfExtents[2]});
    case ParticleKind::Capsule:
      return std::make_shared<CapsuleShape>(scale * p.radius, 0.5 * scale * p.length);
    case ParticleKind::Cylinder:
      return std::make_shared<CylinderShape>(scale * p.radius, 0.5 * scale * p.length);
  }
  throw Error("makeParticleShape", "a ParticleKind",
              "kind = " + std::to_string(static_cast<int>(p.kind)));
}

}  // namespace scenes
}  // namespace nsdyn
