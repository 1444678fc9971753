// PeridynamicBody: bonds broken by stretch (fracture) and removed across a pre-crack.
#include <array>
#include <cmath>
#include <sstream>

#include "../../mechanics/Threads.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

std::size_t PeridynamicBody::breakBonds() {
  const double s0 = material_->criticalStretch();
  if (!std::isfinite(s0)) return 0;
  const std::size_t n = size();
  std::vector<std::size_t> count(n, 0);
  const int nt = mechanics::threadsFor(options_.threads, n);
  (void)nt;
  // the stretch of i->j and j->i is computed from the same numbers: both break together
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t b = bondStart[i]; b < bondStart[i + 1]; ++b) {
      if (bondBroken[b]) continue;
      const std::uint32_t j = neighbour[b];
      const double dx = x[3 * j] - x[3 * i], dy = x[3 * j + 1] - x[3 * i + 1],
                   dz = x[3 * j + 2] - x[3 * i + 2];
      const double l0 = bondLength[b];
      if ((std::sqrt(dx * dx + dy * dy + dz * dz) - l0) / l0 > s0) {
        bondBroken[b] = 1;
        ++count[i];
      }
    }
  std::size_t total = 0;
  for (std::size_t c : count) total += c;
  if (total) {
    // the surface factors stay those of the reference body (and its pre-cracks): a bond that
    // breaks in the run does not stiffen the bonds that remain
    updateDamage();
    material_->prepare(*this);
  }
  return total;
}

std::size_t PeridynamicBody::precrack(const std::array<double, 3>& a,
                                      const std::array<double, 3>& b,
                                      const std::array<double, 3>& direction) {
  // the strip {a + s (b - a) + t d : s in [0, 1], t real}, d = direction made orthogonal
  // to b - a; a bond X_i -> X_j crosses it when its ends lie strictly on both sides of the
  // plane (normal (b - a) x d) and the crossing point has s in [0, 1]
  double e[3], d[3];
  for (int k = 0; k < 3; ++k) e[k] = b[k] - a[k];
  const double ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
  double de = 0.0;
  for (int k = 0; k < 3; ++k) de += direction[k] * e[k];
  for (int k = 0; k < 3; ++k) d[k] = direction[k] - (ee > 0.0 ? de / ee : 0.0) * e[k];
  const double nrm[3] = {e[1] * d[2] - e[2] * d[1], e[2] * d[0] - e[0] * d[2],
                         e[0] * d[1] - e[1] * d[0]};
  const double nn = std::sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
  auto text = [&]() {
    std::ostringstream s;
    s.precision(6);
    s << "segment (" << a[0] << ", " << a[1] << ", " << a[2] << ") - (" << b[0] << ", " << b[1]
      << ", " << b[2] << "), direction (" << direction[0] << ", " << direction[1] << ", "
      << direction[2] << ")";
    return s.str();
  };
  const std::string object = "PeridynamicBody '" + options_.name + "'";
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(a[k]) || !std::isfinite(b[k]) || !std::isfinite(direction[k]))
      throw Error(object, "a finite pre-crack segment and direction", text());
  if (!(ee > 0.0) || !(nn > 0.0) || !std::isfinite(nn))
    throw Error(object, "a pre-crack segment of non-zero length and a direction not along it",
                text());
  const std::size_t n = size();
  std::size_t removed = 0;
  // each pair is decided once (i < j) and both of its directions are removed together
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t q = bondStart[i]; q < bondStart[i + 1]; ++q) {
      const std::uint32_t j = neighbour[q];
      if (j < i || bondBroken[q]) continue;
      double si = 0.0, sj = 0.0;
      for (int k = 0; k < 3; ++k) {
        si += nrm[k] * (X[3 * i + k] - a[k]);
        sj += nrm[k] * (X[3 * j + k] - a[k]);
      }
      if (!((si < 0.0 && sj > 0.0) || (si > 0.0 && sj < 0.0))) continue;
      const double w = si / (si - sj);
      double p[3];
      for (int k = 0; k < 3; ++k) p[k] = X[3 * i + k] + w * (X[3 * j + k] - X[3 * i + k]) - a[k];
      const double s = (p[0] * e[0] + p[1] * e[1] + p[2] * e[2]) / ee;  // d is orthogonal to e
      if (s < 0.0 || s > 1.0) continue;
      bondBroken[q] = 1;
      bondBroken[reverseOf(static_cast<std::uint32_t>(i), j)] = 1;
      removed += 2;
    }
  if (removed == 0)
    throw Error(object, "a pre-crack that crosses at least one bond of the body",
                text() + " crosses none");
  refresh();
  return removed;
}

}  // namespace nsdyn
