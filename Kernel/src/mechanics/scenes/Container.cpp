// Open-top containers: a floor and four walls, static half-spaces or boxes.
#include <memory>

#include "SceneCommon.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/HalfSpaceShape.hpp"

namespace nsdyn {
namespace scenes {

namespace {
const char* const generator = "container";
}  // namespace

std::vector<StaticPart> container(const ContainerSpec& c) {
  // Check the input before any work.
  detail::checkRegion(generator, "inner", c.inner);
  const Shape::Vec3& lo = c.inner.lower;
  const Shape::Vec3& up = c.inner.upper;
  const double height = c.wallHeight == 0.0 ? up[2] - lo[2] : c.wallHeight;
  if (!c.planes) {
    detail::requirePositive(generator, "wallThickness", c.wallThickness);
    if (c.wallHeight != 0.0) detail::requirePositive(generator, "wallHeight", c.wallHeight);
  }

  const Shape::Vec3 mid{0.5 * (lo[0] + up[0]), 0.5 * (lo[1] + up[1]), 0.5 * (lo[2] + up[2])};
  const Shape::Vec3 half{0.5 * (up[0] - lo[0]), 0.5 * (up[1] - lo[1]), 0.5 * (up[2] - lo[2])};
  const std::string& name = c.namePrefix;
  std::vector<StaticPart> parts;
  parts.reserve(5);

  // Half-spaces: each body sits at the centre of its inner face, the normal pointing into the
  // container.
  if (c.planes) {
    auto plane = [&](const std::string& suffix, const Shape::Vec3& normal, const Shape::Vec3& at) {
      parts.push_back(
          detail::staticPart(name + suffix, std::make_shared<HalfSpaceShape>(normal, 0.0), at));
    };
    plane("_floor", {0.0, 0.0, 1.0}, {mid[0], mid[1], lo[2]});
    plane("_wall_-x", {1.0, 0.0, 0.0}, {lo[0], mid[1], mid[2]});
    plane("_wall_+x", {-1.0, 0.0, 0.0}, {up[0], mid[1], mid[2]});
    plane("_wall_-y", {0.0, 1.0, 0.0}, {mid[0], lo[1], mid[2]});
    plane("_wall_+y", {0.0, -1.0, 0.0}, {mid[0], up[1], mid[2]});
    return parts;
  }

  // Boxes outside the inner region: the floor under everything, the x walls over the corners.
  const double t = c.wallThickness, ht = 0.5 * t, hh = 0.5 * height;
  parts.push_back(detail::boxPart(name + "_floor", {half[0] + t, half[1] + t, ht},
                                  {mid[0], mid[1], lo[2] - ht}));
  parts.push_back(
      detail::boxPart(name + "_wall_-x", {ht, half[1] + t, hh}, {lo[0] - ht, mid[1], lo[2] + hh}));
  parts.push_back(
      detail::boxPart(name + "_wall_+x", {ht, half[1] + t, hh}, {up[0] + ht, mid[1], lo[2] + hh}));
  parts.push_back(
      detail::boxPart(name + "_wall_-y", {half[0], ht, hh}, {mid[0], lo[1] - ht, lo[2] + hh}));
  parts.push_back(
      detail::boxPart(name + "_wall_+y", {half[0], ht, hh}, {mid[0], up[1] + ht, lo[2] + hh}));
  return parts;
}

std::vector<BodyShapes> bodies(const std::vector<StaticPart>& parts) {
  std::vector<BodyShapes> out;
  out.reserve(parts.size());
  for (const StaticPart& part : parts) out.push_back(part.body);
  return out;
}

}  // namespace scenes
}  // namespace nsdyn
