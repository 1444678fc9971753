// Random packing by random sequential addition, overlaps tested on a uniform grid.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "SceneCommon.hpp"
#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/Error.hpp"

namespace nsdyn {
namespace scenes {

namespace {
const char* const generator = "randomPacking";
constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
/// Grid cells per particle at most (plus a constant), so a sparse scene in a large
/// region does not allocate a huge grid: the cells grow instead.
constexpr double cellsPerParticle = 8.0;
constexpr double minCells = 4096.0;

/// Uniform grid of cells at least one largest diameter wide, each holding a linked
/// list of the particles whose centre lies in it: a candidate's bounding sphere can
/// only overlap particles of its own and the 26 neighbouring cells.
class Grid {
 public:
  Grid(const Region& r, double minCell, std::size_t capacity) : lower_(r.lower) {
    const double volume =
        (r.upper[0] - r.lower[0]) * (r.upper[1] - r.lower[1]) * (r.upper[2] - r.lower[2]);
    const double maxCells = cellsPerParticle * static_cast<double>(capacity) + minCells;
    const double cell = std::max(minCell, std::cbrt(volume / maxCells));
    std::size_t total = 1;
    for (std::size_t i = 0; i < 3; ++i) {
      const double length = r.upper[i] - r.lower[i];
      n_[i] = static_cast<std::size_t>(std::max(1.0, std::floor(length / cell)));
      inverseCell_[i] = static_cast<double>(n_[i]) / length;  // cells are length/n ≥ cell wide
      total *= n_[i];
    }
    head_.assign(total, none);
    next_.reserve(capacity);
    center_.reserve(capacity);
    radius_.reserve(capacity);
  }

  /// True if the sphere (c, rc) overlaps (strictly) no sphere inserted so far.
  bool isFree(const Shape::Vec3& c, double rc) const {
    std::size_t lo[3], hi[3];
    for (std::size_t i = 0; i < 3; ++i) {
      const std::size_t k = index(c, i);
      lo[i] = k == 0 ? 0 : k - 1;
      hi[i] = std::min(k + 1, n_[i] - 1);
    }
    for (std::size_t z = lo[2]; z <= hi[2]; ++z)
      for (std::size_t y = lo[1]; y <= hi[1]; ++y)
        for (std::size_t x = lo[0]; x <= hi[0]; ++x)
          for (std::uint32_t j = head_[(z * n_[1] + y) * n_[0] + x]; j != none; j = next_[j]) {
            const Shape::Vec3& o = center_[j];
            const double dx = c[0] - o[0], dy = c[1] - o[1], dz = c[2] - o[2];
            const double sum = rc + radius_[j];
            if (dx * dx + dy * dy + dz * dz < sum * sum) return false;
          }
    return true;
  }

  void insert(const Shape::Vec3& c, double rc) {
    const std::size_t cell = (index(c, 2) * n_[1] + index(c, 1)) * n_[0] + index(c, 0);
    next_.push_back(head_[cell]);
    head_[cell] = static_cast<std::uint32_t>(center_.size());
    center_.push_back(c);
    radius_.push_back(rc);
  }

 private:
  std::size_t index(const Shape::Vec3& c, std::size_t i) const {
    const double t = std::floor((c[i] - lower_[i]) * inverseCell_[i]);
    return std::min(static_cast<std::size_t>(std::max(t, 0.0)), n_[i] - 1);
  }

  Shape::Vec3 lower_;
  std::size_t n_[3];
  double inverseCell_[3];
  std::vector<std::uint32_t> head_, next_;
  std::vector<Shape::Vec3> center_;
  std::vector<double> radius_;
};
}  // namespace

std::vector<BodySpec> randomPacking(const ParticleSpec& p, const Region& r, std::size_t count,
                                    std::uint64_t seed, std::size_t maxAttempts) {
  // Check the input before any work.
  detail::checkParticle(generator, p);
  detail::checkRegion(generator, "region", r);
  if (maxAttempts == 0) throw Error(generator, "maxAttempts >= 1", "maxAttempts = 0");
  if (count > kMaxSceneBodies)
    throw Error(generator, "count <= 2^21 = 2097152 (the bodies a scene may hold)",
                "count = " + std::to_string(count));
  detail::UniformRng rng(seed);
  detail::ParticleSampler sampler(p, rng);
  const double rmax = sampler.maxRadius();
  for (std::size_t i = 0; i < 3 && count > 0; ++i)
    if (!(2.0 * rmax <= r.upper[i] - r.lower[i]))
      throw Error(generator,
                  "a region at least the largest particle's bounding diameter " +
                      detail::number(2.0 * rmax) + " wide along each axis",
                  "region size " + detail::number(r.upper[i] - r.lower[i]) + " along " +
                      std::string(1, char('x' + i)));

  // Random sequential addition: per particle, its size and rotation, then centres
  // until one is free; the first particle that finds none ends the packing.
  Grid grid(r, 2.0 * rmax, count);
  std::vector<BodySpec> out;
  out.reserve(count);
  for (std::size_t k = 0; k < count; ++k) {
    sampler.draw();
    const double rk = sampler.radius();
    bool placed = false;
    for (std::size_t attempt = 0; attempt < maxAttempts && !placed; ++attempt) {
      Shape::Vec3 c;
      for (std::size_t i = 0; i < 3; ++i)
        c[i] = r.lower[i] + rk + rng.next() * (r.upper[i] - r.lower[i] - 2.0 * rk);
      if (!grid.isFree(c, rk)) continue;
      grid.insert(c, rk);
      out.push_back(sampler.body(k, c));
      placed = true;
    }
    if (!placed)
      throw Error(generator,
                  std::to_string(count) + " particles placed without overlap (" +
                      std::to_string(maxAttempts) + " attempts per particle)",
                  "only " + std::to_string(k) + " fitted; lower the count or enlarge the region");
  }
  return out;
}

}  // namespace scenes
}  // namespace nsdyn
