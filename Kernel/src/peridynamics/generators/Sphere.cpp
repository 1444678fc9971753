// peridynamics::sphere: the lattice points inside a ball.
#include "Lattice.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"

namespace nsdyn::peridynamics {

std::unique_ptr<PeridynamicBody> sphere(const Vec3& centre, double radius,
                                        const PeridynamicBodyOptions& options,
                                        std::shared_ptr<const PeridynamicMaterial> material) {
  if (!(radius > 0.0) || !std::isfinite(radius))
    throw Error(lattice::object(options), "a sphere radius > 0 (m)", lattice::text(radius));
  const double dx = options.spacing;
  if (!(dx > 0.0))
    throw Error(lattice::object(options), "a lattice spacing > 0 (m)",
                "spacing = " + lattice::text(dx));
  const long c = static_cast<long>(std::ceil(2.0 * radius / dx - 1e-9));
  const double h = 0.5 * dx * static_cast<double>(c);
  std::vector<double> X;
  lattice::fill(
      centre, {h, h, h}, {c, c, c}, dx,
      [&](const double* p) {
        const double a = p[0] - centre[0], b = p[1] - centre[1], d = p[2] - centre[2];
        return a * a + b * b + d * d <= radius * radius;
      },
      X);
  return lattice::make(std::move(X), options, std::move(material), "sphere");
}

}  // namespace nsdyn::peridynamics
