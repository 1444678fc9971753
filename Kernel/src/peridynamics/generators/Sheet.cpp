// peridynamics::sheet: one layer of points on a rectangle (cloth, membranes), volume Δx² t.
#include "Lattice.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"

namespace nsdyn::peridynamics {

std::unique_ptr<PeridynamicBody> sheet(const Vec3& centre, const Vec3& u, const Vec3& w,
                                       double halfU, double halfW,
                                       const PeridynamicBodyOptions& options,
                                       std::shared_ptr<const PeridynamicMaterial> material) {
  const std::string object = lattice::object(options);
  if (!(options.thickness > 0.0))
    throw Error(object, "a sheet thickness > 0 (m)",
                "thickness = " + lattice::text(options.thickness));
  const double nu = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  const double nw = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  const double uw = u[0] * w[0] + u[1] * w[1] + u[2] * w[2];
  if (std::fabs(nu - 1.0) > 1e-9 || std::fabs(nw - 1.0) > 1e-9 || std::fabs(uw) > 1e-9)
    throw Error(object, "two unit, orthogonal in-plane directions u and w",
                "|u| = " + lattice::text(nu) + ", |w| = " + lattice::text(nw) +
                    ", u.w = " + lattice::text(uw));
  const double dx = options.spacing;
  const long a = lattice::cells(halfU, dx, options, "sheet size along u");
  const long b = lattice::cells(halfW, dx, options, "sheet size along w");
  std::vector<double> X;
  X.reserve(static_cast<std::size_t>(3 * a * b));
  for (long i = 0; i < a; ++i)
    for (long j = 0; j < b; ++j) {
      const double s = -halfU + dx * (i + 0.5), t = -halfW + dx * (j + 0.5);
      for (int k = 0; k < 3; ++k) X.push_back(centre[k] + s * u[k] + t * w[k]);
    }
  return lattice::make(std::move(X), options, std::move(material), "sheet");
}

}  // namespace nsdyn::peridynamics
