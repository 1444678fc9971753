// peridynamics::cylinder: the lattice points inside a cylinder along a coordinate axis.
#include "Lattice.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"

namespace nsdyn::peridynamics {

std::unique_ptr<PeridynamicBody> cylinder(const Vec3& centre, double radius, double length,
                                          int axis, const PeridynamicBodyOptions& options,
                                          std::shared_ptr<const PeridynamicMaterial> material) {
  if (axis < 0 || axis > 2)
    throw Error(lattice::object(options), "a cylinder axis 0, 1 or 2 (x, y, z)",
                std::to_string(axis));
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw Error(lattice::object(options), "a cylinder radius > 0 (m)", lattice::text(radius));
  const double dx = options.spacing;
  std::array<long, 3> n{};
  Vec3 half{};
  for (int k = 0; k < 3; ++k) {
    if (k == axis) {
      n[k] = lattice::cells(0.5 * length, dx, options, "cylinder length");
      half[k] = 0.5 * length;
    } else {
      n[k] = static_cast<long>(std::ceil(2.0 * radius / dx - 1e-9));
      half[k] = 0.5 * dx * static_cast<double>(n[k]);
    }
  }
  const int u = (axis + 1) % 3, w = (axis + 2) % 3;
  std::vector<double> X;
  lattice::fill(
      centre, half, n, dx,
      [&](const double* p) {
        const double a = p[u] - centre[u], b = p[w] - centre[w];
        return a * a + b * b <= radius * radius;
      },
      X);
  return lattice::make(std::move(X), options, std::move(material), "cylinder");
}

}  // namespace nsdyn::peridynamics
