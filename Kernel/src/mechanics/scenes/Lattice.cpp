// Lattice packing: particles on a cubic lattice, filled layer by layer from the bottom.
#include <algorithm>
#include <cmath>

#include "SceneCommon.hpp"
#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/Error.hpp"

namespace nsdyn {
namespace scenes {

namespace {
const char* const generator = "latticePacking";

/// Sites along an axis of length @p length: the largest n with n·spacing − gap ≤ length.
double sitesAlong(double length, double spacing, double gap) {
  double n = std::floor((length + gap) / spacing);
  // The division rounds: correct n by one either way so that n sites fit exactly.
  if (n > 0.0 && n * spacing - gap > length) n -= 1.0;
  if ((n + 1.0) * spacing - gap <= length) n += 1.0;
  return std::max(n, 0.0);
}
}  // namespace

std::vector<BodySpec> latticePacking(const ParticleSpec& p, const Region& r, std::size_t count,
                                     double gap, std::uint64_t seed) {
  // Check the input before any work.
  detail::checkParticle(generator, p);
  detail::checkRegion(generator, "region", r);
  if (!(std::isfinite(gap) && gap >= 0.0))
    throw Error(generator, "gap finite and >= 0", "gap = " + detail::number(gap));
  if (count > kMaxSceneBodies)
    throw Error(generator, "count <= 2^21 = 2097152 (the bodies a scene may hold)",
                "count = " + std::to_string(count));

  detail::UniformRng rng(seed);
  detail::ParticleSampler sampler(p, rng);
  const double rmax = sampler.maxRadius();
  const double spacing = 2.0 * rmax + gap;

  // Sites per axis and capacity (in double: a huge region must not overflow).
  double n[3];
  double capacity = 1.0;
  for (std::size_t i = 0; i < 3; ++i) {
    n[i] = sitesAlong(r.upper[i] - r.lower[i], spacing, gap);
    capacity *= n[i];
  }
  if (static_cast<double>(count) > capacity) {
    throw Error(generator,
                "count <= capacity of the lattice (" + detail::number(n[0]) + " x " +
                    detail::number(n[1]) + " x " + detail::number(n[2]) + " = " +
                    detail::number(capacity) + " sites of spacing " + detail::number(spacing) + ")",
                "count = " + std::to_string(count));
  }

  // Lattice origin: centred in x and y, on the floor of the region in z.
  Shape::Vec3 first{};
  for (std::size_t i = 0; i < 3; ++i) {
    const double used = n[i] * spacing - gap;
    const double margin = i < 2 ? 0.5 * (r.upper[i] - r.lower[i] - used) : 0.0;
    first[i] = r.lower[i] + margin + rmax;
  }

  // Fill x fastest, then y, then z (layer by layer from the bottom).
  std::vector<BodySpec> out;
  out.reserve(count);
  const std::size_t nx = static_cast<std::size_t>(std::min(n[0], static_cast<double>(count)));
  const std::size_t ny = static_cast<std::size_t>(std::min(n[1], static_cast<double>(count)));
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t ix = k % nx, iy = (k / nx) % ny, iz = k / (nx * ny);
    sampler.draw();
    const Shape::Vec3 c{first[0] + static_cast<double>(ix) * spacing,
                        first[1] + static_cast<double>(iy) * spacing,
                        first[2] + static_cast<double>(iz) * spacing};
    out.push_back(sampler.body(k, c));
  }
  return out;
}

}  // namespace scenes
}  // namespace nsdyn
