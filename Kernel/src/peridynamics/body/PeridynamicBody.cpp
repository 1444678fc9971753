// PeridynamicBody: checks, the points' arrays and the bonds (CSR, both directions) found with
// the Kernel's uniform-grid broadphase over boxes of half-size δ/2 around the points.
#include "nsdyn/PeridynamicBody.hpp"

#include <cmath>
#include <sstream>
#include <utility>

#include "../../mechanics/Threads.hpp"
#include "nsdyn/Broadphase.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

namespace {

std::string number(double value) {
  std::ostringstream s;
  s.precision(9);
  s << value;
  return s.str();
}

std::string objectName(const PeridynamicBodyOptions& o) {
  return "PeridynamicBody '" + o.name + "'";
}

void checkOptions(const PeridynamicBodyOptions& o) {
  const std::string object = objectName(o);
  if (!(o.spacing > 0.0) || !std::isfinite(o.spacing))
    throw Error(object, "a lattice spacing > 0 (m)", "spacing = " + number(o.spacing));
  if (!(o.horizon >= o.spacing) || !std::isfinite(o.horizon))
    throw Error(object,
                "a horizon >= the spacing " + number(o.spacing) + " m (3 spacings is usual)",
                "horizon = " + number(o.horizon));
  if (!(o.density > 0.0) || !std::isfinite(o.density))
    throw Error(object, "a density > 0 (kg/m^3)", "density = " + number(o.density));
  if (!(o.thickness >= 0.0) || !std::isfinite(o.thickness))
    throw Error(object, "a thickness >= 0 (m; 0: a 3D body)", "thickness = " + number(o.thickness));
  if (!(o.contactRadius >= 0.0) || !std::isfinite(o.contactRadius))
    throw Error(object, "a contact radius >= 0 (m; 0: half the spacing)",
                "contactRadius = " + number(o.contactRadius));
}

}  // namespace

PeridynamicBody::PeridynamicBody(std::vector<double> reference, std::vector<double> vol,
                                 const Options& options,
                                 std::shared_ptr<const PeridynamicMaterial> material)
    : X(std::move(reference)),
      volume(std::move(vol)),
      options_(options),
      material_(std::move(material)) {
  checkOptions(options_);
  const std::string object = objectName(options_);
  if (!material_) throw Error(object, "a material", "none");
  const std::size_t n = volume.size();
  if (n == 0) throw Error(object, "at least one point", "none");
  if (X.size() != 3 * n)
    throw Error(object, "3 reference coordinates per point (" + std::to_string(3 * n) + ")",
                std::to_string(X.size()));
  if (n >= 0xffffffffu) throw Error(object, "fewer than 2^32 - 1 points", std::to_string(n));
  for (std::size_t i = 0; i < n; ++i) {
    if (!(volume[i] > 0.0) || !std::isfinite(volume[i]))
      throw Error(object, "a volume > 0 at every point",
                  "volume[" + std::to_string(i) + "] = " + number(volume[i]));
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(X[3 * i + k]))
        throw Error(object, "finite reference positions",
                    "X[" + std::to_string(i) + "] = (" + number(X[3 * i]) + ", " +
                        number(X[3 * i + 1]) + ", " + number(X[3 * i + 2]) + ")");
  }
  x = X;
  v.assign(3 * n, 0.0);
  mass.resize(n);
  for (std::size_t i = 0; i < n; ++i) mass[i] = options_.density * volume[i];
  force.assign(3 * n, 0.0);
  damage.assign(n, 0.0);
  prescribed.assign(n, 0);
  buildBonds();
  for (std::size_t i = 0; i < n; ++i)
    if (bondStart[i + 1] == bondStart[i])
      throw Error(
          object,
          "a neighbour within the horizon " + number(options_.horizon) + " m of every point",
          "point " + std::to_string(i) + " at (" + number(X[3 * i]) + ", " + number(X[3 * i + 1]) +
              ", " + number(X[3 * i + 2]) + ") has none");
  material_->check(*this);
  refresh();
}

void PeridynamicBody::buildBonds() {
  const std::size_t n = size();
  // boxes of half-size δ/2 (a hair more, so that bonds of length exactly δ are not lost to
  // the rounding of touching boxes)
  const double delta = options_.horizon, half = 0.5 * delta * (1.0 + 1e-6);
  const double limit2 = delta * delta * (1.0 + 1e-10);
  AabbArrays boxes;
  boxes.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    boxes.minX.push_back(X[3 * i] - half);
    boxes.minY.push_back(X[3 * i + 1] - half);
    boxes.minZ.push_back(X[3 * i + 2] - half);
    boxes.maxX.push_back(X[3 * i] + half);
    boxes.maxY.push_back(X[3 * i + 1] + half);
    boxes.maxZ.push_back(X[3 * i + 2] + half);
  }
  BroadphaseOptions bo;
  bo.threads = options_.threads;
  UniformGridBroadphase grid(bo);
  std::vector<BroadphasePair> pairs;
  grid.findPairs(boxes, pairs);
  // keep the pairs within the horizon; count per point (both directions)
  std::vector<std::uint8_t> keep(pairs.size(), 0);
  const int threads = mechanics::threadsFor(options_.threads, pairs.size());
  (void)threads;
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const double* a = &X[3 * pairs[p].i];
    const double* b = &X[3 * pairs[p].j];
    const double dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    keep[p] = dx * dx + dy * dy + dz * dz <= limit2 ? 1 : 0;
  }
  bondStart.assign(n + 1, 0);
  for (std::size_t p = 0; p < pairs.size(); ++p)
    if (keep[p]) {
      ++bondStart[pairs[p].i + 1];
      ++bondStart[pairs[p].j + 1];
    }
  for (std::size_t i = 0; i < n; ++i) bondStart[i + 1] += bondStart[i];
  neighbour.assign(bondStart[n], 0);
  // pairs are sorted by (i, j): point i's partners j > i arrive in increasing order, and the
  // partners j < i of point i arrive in increasing j as the outer index grows. Fill the lower
  // ones first (they come earlier in pair order), then the upper ones.
  std::vector<std::uint32_t> fill(bondStart.begin(), bondStart.end() - 1);
  for (std::size_t p = 0; p < pairs.size(); ++p)
    if (keep[p]) neighbour[fill[pairs[p].j]++] = pairs[p].i;  // j's lower partner i
  for (std::size_t p = 0; p < pairs.size(); ++p)
    if (keep[p]) neighbour[fill[pairs[p].i]++] = pairs[p].j;  // i's upper partner j
  bondLength.resize(neighbour.size());
  const int nt = mechanics::threadsFor(options_.threads, n);
  (void)nt;
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t b = bondStart[i]; b < bondStart[i + 1]; ++b) {
      const std::uint32_t j = neighbour[b];
      const double dx = X[3 * j] - X[3 * i], dy = X[3 * j + 1] - X[3 * i + 1],
                   dz = X[3 * j + 2] - X[3 * i + 2];
      bondLength[b] = static_cast<float>(std::sqrt(dx * dx + dy * dy + dz * dz));
    }
  bondFactor.assign(neighbour.size(), 1.0f);
  bondBroken.assign(neighbour.size(), 0);
  reverse.clear();
}

void PeridynamicBody::buildReverse() {
  const std::size_t n = size();
  reverse.assign(neighbour.size(), 0);
  // bond i->j sits in j's list at the position of i: lists are sorted, binary search
  const int nt = mechanics::threadsFor(options_.threads, n);
  (void)nt;
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::size_t i = 0; i < n; ++i)
    for (std::uint32_t b = bondStart[i]; b < bondStart[i + 1]; ++b)
      reverse[b] = reverseOf(static_cast<std::uint32_t>(i), neighbour[b]);
}

std::uint32_t PeridynamicBody::reverseOf(std::uint32_t i, std::uint32_t j) const {
  std::uint32_t lo = bondStart[j], hi = bondStart[j + 1];
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    if (neighbour[mid] < i)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

double PeridynamicBody::contactRadius() const {
  return options_.contactRadius > 0.0 ? options_.contactRadius : 0.5 * options_.spacing;
}

void PeridynamicBody::refresh() {
  surfaceFactors();
  updateDamage();
  material_->prepare(*this);
}

void PeridynamicBody::updateDamage() {
  const std::size_t n = size();
  const int nt = mechanics::threadsFor(options_.threads, n);
  (void)nt;
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t total = bondStart[i + 1] - bondStart[i];
    std::uint32_t broken = 0;
    for (std::uint32_t b = bondStart[i]; b < bondStart[i + 1]; ++b) broken += bondBroken[b];
    damage[i] = total ? static_cast<double>(broken) / total : 0.0;
  }
}

std::size_t PeridynamicBody::brokenBonds() const {
  std::size_t count = 0;
  for (std::uint8_t b : bondBroken) count += b;
  return count;
}

}  // namespace nsdyn
