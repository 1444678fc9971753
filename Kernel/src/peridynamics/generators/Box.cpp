// peridynamics::box: the lattice filling an axis-aligned box exactly.
#include "Lattice.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"

namespace nsdyn::peridynamics {

std::unique_ptr<PeridynamicBody> box(const Vec3& centre, const Vec3& halfExtents,
                                     const PeridynamicBodyOptions& options,
                                     std::shared_ptr<const PeridynamicMaterial> material) {
  const char* names[3] = {"x extent", "y extent", "z extent"};
  std::array<long, 3> n{};
  for (int k = 0; k < 3; ++k)
    n[k] = lattice::cells(halfExtents[k], options.spacing, options, names[k]);
  std::vector<double> X;
  X.reserve(static_cast<std::size_t>(3 * n[0] * n[1] * n[2]));
  lattice::fill(
      centre, halfExtents, n, options.spacing, [](const double*) { return true; }, X);
  return lattice::make(std::move(X), options, std::move(material), "box");
}

}  // namespace nsdyn::peridynamics
