// Rough base: static spheres touching on a square lattice over a disc.
#include <cmath>
#include <memory>

#include "SceneCommon.hpp"
#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SphereShape.hpp"

namespace nsdyn {
namespace scenes {

namespace {
const char* const generator = "roughBase";
/// Most spheres along a radius of the disc (a base of about 12.6 million spheres).
constexpr double maxCells = 2000.0;
/// Most spheres of a base: a scene's body limit.
constexpr std::size_t kMaxRoughBaseSpheres = kMaxSceneBodies;
/// Memory of one static sphere of a base in `nsdyn run` (measured, doc/robustness.md).
constexpr std::size_t kRoughBaseBytesPerSphere = 1700;
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

  // Sites (2r i, 2r j) within reach of the centre, i then j from -n to n: counted first,
  // so that a base larger than a scene may hold is refused before anything is allocated
  // (2000 spheres along the radius would be 12.6 million spheres, about 21 GB).
  const long n = static_cast<long>(cells);
  auto kept = [&](long i, long j) {
    const double x = 2.0 * r * static_cast<double>(i), y = 2.0 * r * static_cast<double>(j);
    return std::hypot(x, y) <= b.reach;
  };
  std::size_t total = 0;
  for (long i = -n; i <= n; ++i)
    for (long j = -n; j <= n; ++j) total += kept(i, j) ? 1 : 0;
  if (total > kMaxRoughBaseSpheres)
    throw Error(generator,
                "at most " + std::to_string(kMaxRoughBaseSpheres) +
                    " spheres (a scene holds at most 2^21 bodies)",
                std::to_string(total) + " spheres (reach / (2 radius) = " +
                    detail::number(b.reach / (2.0 * r)) + ", about " +
                    detail::number(std::ceil(static_cast<double>(total) *
                                             static_cast<double>(kRoughBaseBytesPerSphere) / 1e6)) +
                    " MB)");
  const SP::Shape sphere = std::make_shared<SphereShape>(r);
  const Shape::Vec3& c = b.center;
  std::vector<StaticPart> parts;
  parts.reserve(total);
  for (long i = -n; i <= n; ++i)
    for (long j = -n; j <= n; ++j) {
      if (!kept(i, j)) continue;
      const double x = 2.0 * r * static_cast<double>(i), y = 2.0 * r * static_cast<double>(j);
      parts.push_back(detail::staticPart(b.namePrefix + std::to_string(parts.size()), sphere,
                                         {c[0] + x, c[1] + y, c[2] + r}));
    }
  return parts;
}

}  // namespace scenes
}  // namespace nsdyn
