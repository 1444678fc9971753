// The cubic lattice the generators fill shapes with: points centre − extent + Δx (k + ½) of
// a box around the shape, kept when inside; each point of volume Δx³ (Δx² t for sheets).
#ifndef NSDYN_PERIDYNAMICS_GENERATORS_LATTICE_HPP
#define NSDYN_PERIDYNAMICS_GENERATORS_LATTICE_HPP

#include <array>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"

namespace nsdyn::peridynamics::lattice {

inline std::string text(double v) {
  std::ostringstream s;
  s.precision(9);
  s << v;
  return s.str();
}

inline std::string object(const PeridynamicBodyOptions& o) {
  return "PeridynamicBody '" + o.name + "'";
}

/// Cells along an extent 2 @p half, refusing an extent that is not a multiple of Δx.
inline long cells(double half, double dx, const PeridynamicBodyOptions& o, const char* what) {
  if (!(dx > 0.0) || !std::isfinite(dx))
    throw Error(object(o), "a lattice spacing > 0 (m)", "spacing = " + text(dx));
  if (!(half > 0.0) || !std::isfinite(half))
    throw Error(object(o), std::string("a ") + what + " > 0 (m)", text(half));
  const double c = 2.0 * half / dx;
  const long n = std::lround(c);
  if (n < 1 || std::fabs(c - static_cast<double>(n)) > 1e-6 * c)
    throw Error(object(o),
                std::string("a ") + what +
                    " (twice the half-extent) that is a multiple of the spacing " + text(dx) + " m",
                text(2.0 * half) + " m = " + text(c) + " spacings");
  return n;
}

/// Points of the lattice filling [centre − half, centre + half] (counts per axis @p n) for
/// which @p inside(p) holds.
template <class Inside>
void fill(const std::array<double, 3>& centre, const std::array<double, 3>& half,
          const std::array<long, 3>& n, double dx, Inside inside, std::vector<double>& X) {
  for (long a = 0; a < n[0]; ++a)
    for (long b = 0; b < n[1]; ++b)
      for (long c = 0; c < n[2]; ++c) {
        const double p[3] = {centre[0] - half[0] + dx * (a + 0.5),
                             centre[1] - half[1] + dx * (b + 0.5),
                             centre[2] - half[2] + dx * (c + 0.5)};
        if (inside(p)) X.insert(X.end(), p, p + 3);
      }
}

/// The body from the points, each of volume Δx³; refuses an empty set.
inline std::unique_ptr<PeridynamicBody> make(std::vector<double> X, const PeridynamicBodyOptions& o,
                                             std::shared_ptr<const PeridynamicMaterial> material,
                                             const std::string& shape) {
  if (X.empty())
    throw Error(object(o), "a " + shape + " holding at least one lattice point",
                "none at spacing " + text(o.spacing) + " m");
  const double v =
      o.thickness > 0.0 ? o.spacing * o.spacing * o.thickness : o.spacing * o.spacing * o.spacing;
  std::vector<double> V(X.size() / 3, v);
  return std::make_unique<PeridynamicBody>(std::move(X), std::move(V), o, std::move(material));
}

}  // namespace nsdyn::peridynamics::lattice

#endif
