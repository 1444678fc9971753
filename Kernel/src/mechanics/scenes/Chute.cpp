// Inclined chute: a bed at an angle with two side walls, static boxes or half-spaces.
#include <cmath>
#include <memory>

#include "SceneCommon.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/HalfSpaceShape.hpp"

namespace nsdyn {
namespace scenes {

namespace {
const char* const generator = "chute";
}  // namespace

std::vector<StaticPart> chute(const ChuteSpec& c) {
  // Check the input before any work.
  detail::requireFinite(generator, "origin", c.origin);
  if (!(c.angle > 0.0 && c.angle < 0.5 * M_PI))
    throw Error(generator, "angle in (0, pi/2) rad", "angle = " + detail::number(c.angle) + " rad");
  detail::requirePositive(generator, "width", c.width);
  if (!c.planes) {
    detail::requirePositive(generator, "length", c.length);
    detail::requirePositive(generator, "wallHeight", c.wallHeight);
    detail::requirePositive(generator, "thickness", c.thickness);
  }

  // Chute frame: rotation about y by θ, local x down the slope, local z the bed normal.
  const Shape::Quat q{std::cos(0.5 * c.angle), 0.0, std::sin(0.5 * c.angle), 0.0};
  auto place = [&](const Shape::Vec3& local) {
    const Shape::Vec3 w = quaternion::rotate(q, local);
    return Shape::Vec3{c.origin[0] + w[0], c.origin[1] + w[1], c.origin[2] + w[2]};
  };
  const std::string& name = c.namePrefix;
  const double hw = 0.5 * c.width;
  std::vector<StaticPart> parts;
  parts.reserve(3);

  // Half-spaces: the bed through the origin, the walls through the lines y = ±width/2.
  if (c.planes) {
    auto plane = [&](const std::string& suffix, const Shape::Vec3& normal,
                     const Shape::Vec3& local) {
      parts.push_back(detail::staticPart(
          name + suffix, std::make_shared<HalfSpaceShape>(normal, 0.0), place(local), q));
    };
    plane("_bed", {0.0, 0.0, 1.0}, {0.0, 0.0, 0.0});
    plane("_wall_-y", {0.0, 1.0, 0.0}, {0.0, -hw, 0.0});
    plane("_wall_+y", {0.0, -1.0, 0.0}, {0.0, hw, 0.0});
    return parts;
  }

  // Boxes: the bed slab under the surface, the walls standing on it outside the width.
  const double hl = 0.5 * c.length, ht = 0.5 * c.thickness, hh = 0.5 * c.wallHeight;
  parts.push_back(
      detail::boxPart(name + "_bed", {hl, hw + c.thickness, ht}, place({hl, 0.0, -ht}), q));
  parts.push_back(detail::boxPart(name + "_wall_-y", {hl, ht, hh}, place({hl, -hw - ht, hh}), q));
  parts.push_back(detail::boxPart(name + "_wall_+y", {hl, ht, hh}, place({hl, hw + ht, hh}), q));
  return parts;
}

}  // namespace scenes
}  // namespace nsdyn
