// Private helpers of the scene generators (Kernel/src/mechanics/scenes): the portable
// uniform random numbers, input checks, particle sampling, static parts.
#ifndef NSDYN_KERNEL_SCENES_SCENECOMMON_HPP
#define NSDYN_KERNEL_SCENES_SCENECOMMON_HPP

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "nsdyn/SceneGenerators.hpp"

namespace nsdyn {
namespace scenes {
namespace detail {

/// Uniform doubles in [0, 1) from std::mt19937_64: the 53 high bits of each output
/// times 2⁻⁵³, exact, so the same seed gives the same numbers everywhere.
class UniformRng {
 public:
  explicit UniformRng(std::uint64_t seed) : engine_(seed) {}
  double next() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

 private:
  std::mt19937_64 engine_;
};

/// x with 17 significant digits.
std::string number(double x);
/// "(x, y, z)" with 17 significant digits.
std::string vector(const Shape::Vec3& v);

/// Throws Error(generator, "<what> finite and > 0", "<what> = v") unless v is finite and > 0.
void requirePositive(const std::string& generator, const std::string& what, double value);
/// Throws unless every component of @p v is finite.
void requireFinite(const std::string& generator, const std::string& what, const Shape::Vec3& v);
/// Throws unless the region is finite with lower < upper componentwise.
void checkRegion(const std::string& generator, const std::string& what, const Region& r);
/// Throws for an invalid particle spec (the sizes its kind uses, spread, density).
void checkParticle(const std::string& generator, const ParticleSpec& p);

/// Draws the particles' scales and rotations in a fixed order from one UniformRng:
/// per particle, one number for the scale, then three for the rotation when
/// randomOrientation (Shoemake's uniform quaternion).
class ParticleSampler {
 public:
  /// @p p checked by checkParticle.
  ParticleSampler(const ParticleSpec& p, UniformRng& rng);
  /// Bounding radius of the largest particle (scale 1 + spread).
  double maxRadius() const { return maxRadius_; }
  /// Draw the next particle's scale and rotation.
  void draw();
  double radius() const { return radius_; }
  const Shape::Quat& orientation() const { return orientation_; }
  /// BodySpec of the particle drawn last, named namePrefix + @p index, at @p position.
  BodySpec body(std::size_t index, const Shape::Vec3& position) const;

 private:
  const ParticleSpec& spec_;
  UniformRng& rng_;
  double nominalRadius_, maxRadius_;
  SP::Shape shared_;  // the one shape when sizeSpread = 0
  double scale_ = 1.0, radius_ = 0.0;
  Shape::Quat orientation_{1.0, 0.0, 0.0, 0.0};
};

/// A static part named @p name: the shapes given at their offsets, the body at (@p position, @p
/// orientation).
StaticPart staticPart(const std::string& name, const SP::Shape& shape, const Shape::Vec3& position,
                      const Shape::Quat& orientation = {1.0, 0.0, 0.0, 0.0});
/// A static box part of half-extents @p half centred at @p position.
StaticPart boxPart(const std::string& name, const Shape::Vec3& half, const Shape::Vec3& position,
                   const Shape::Quat& orientation = {1.0, 0.0, 0.0, 0.0});

}  // namespace detail
}  // namespace scenes
}  // namespace nsdyn

#endif
