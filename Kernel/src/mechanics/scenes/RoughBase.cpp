// Rough base: static spheres touching on a square lattice over a disc.
#include <cmath>
#include <memory>

#include "SceneCommon.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SphereShape.hpp"

namespace nsdyn {
namespace scenes {

namespace {
const char* const generator = "roughBase";
/// Most spheres along a radius of the disc (a base of about 12.6 million spheres).
constexpr double maxCells = 2000.0;
}  // namespace

std::vector<StaticPart> roughBase(const RoughBaseSpec& b) {
  // Check the input before any work.
  detail::requirePositive(generator, "radius", b.radius);
  detail::requirePositive(generator, "reach", b.reach);
  detail::requireFinite(generator, "center", b.center);
  const double r = b.radius;
  const double cells = std::ceil(b.reach / (2.0 * r));
  if (!(cells <= maxCells))
    throw Error(generator, "at most 2000 spheres along a radius (reach / (2 radius))",
                "reach / (2 radius) = " + detail::number(b.reach / (2.0 * r)));

  // Sites (2r i, 2r j) within reach of the centre, i then j from -n to n.
  const long n = static_cast<long>(cells);
  const SP::Shape sphere = std::make_shared<SphereShape>(r);
  const Shape::Vec3& c = b.center;
  std::vector<StaticPart> parts;
  for (long i = -n; i <= n; ++i)
    for (long j = -n; j <= n; ++j) {
      const double x = 2.0 * r * static_cast<double>(i), y = 2.0 * r * static_cast<double>(j);
      if (std::hypot(x, y) > b.reach) continue;
      parts.push_back(detail::staticPart(b.namePrefix + std::to_string(parts.size()), sphere,
                                         {c[0] + x, c[1] + y, c[2] + r}));
    }
  return parts;
}

}  // namespace scenes
}  // namespace nsdyn
