// The overlap recovery's held sides and bottom-up order (RecoveryOrder.hpp).
#include "RecoveryOrder.hpp"

#include "../Threads.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>

namespace nsdyn {
namespace store {

namespace {
double heightOf(const BodyStore& bodies, std::int32_t b, const double* up) {
  const double* x = &bodies.q[7 * static_cast<std::size_t>(b)];
  return x[0] * up[0] + x[1] * up[1] + x[2] * up[2];
}

// One pass of the least-significant-digit radix sort: a stable counting sort of @p from
// into @p to (n keys each) by the byte of @p field at @p shift. False (nothing moved) when
// every key has the same byte there.
template <typename Field>
bool radixPass(const RecoveryKey* from, RecoveryKey* to, std::size_t n, Field field, int shift) {
  std::size_t count[257] = {0};
  for (std::size_t i = 0; i < n; ++i) ++count[((field(from[i]) >> shift) & 0xffu) + 1];
  for (std::size_t d = 0; d < 256; ++d)
    if (count[d + 1] == n) return false;
  for (std::size_t d = 1; d <= 256; ++d) count[d] += count[d - 1];
  for (std::size_t i = 0; i < n; ++i) to[count[(field(from[i]) >> shift) & 0xffu]++] = from[i];
  return true;
}

// sortRecoveryKeys on keys[0, n), @p other as room for n keys.
void sortKeys(RecoveryKey* keys, RecoveryKey* other, std::size_t n) {
  // least significant digit first, each pass stable: the entries' bytes (skipped when the
  // keys come in entry order, as the recovery builds them), then the heights'
  const auto entry = [](const RecoveryKey& k) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.entry) ^ 0x80000000u);
  };
  const auto height = [](const RecoveryKey& k) { return k.height; };
  const bool inEntryOrder = std::is_sorted(
      keys, keys + n, [](const RecoveryKey& x, const RecoveryKey& y) { return x.entry < y.entry; });
  RecoveryKey *at = keys, *spare = other;
  for (int shift = 0; !inEntryOrder && shift < 32; shift += 8)
    if (radixPass(at, spare, n, entry, shift)) std::swap(at, spare);
  for (int shift = 0; shift < 64; shift += 8)
    if (radixPass(at, spare, n, height, shift)) std::swap(at, spare);
  if (at != keys) std::copy(at, at + n, keys);
}

// The slabs of orderForRecovery: the cuts of the moving bodies' coordinate along @p axis.
struct Slabs {
  int axis = 0;
  std::vector<double> cut;  // kRecoveryBlocks - 1, non-decreasing
  // the slab of body b (the cuts at or below it), -1 for a static body
  std::int32_t of(const BodyStore& bodies, std::int32_t b) const {
    const std::size_t u = static_cast<std::size_t>(b);
    if (bodies.isStatic[u]) return -1;
    const double x = bodies.q[7 * u + static_cast<std::size_t>(axis)];
    return static_cast<std::int32_t>(std::upper_bound(cut.begin(), cut.end(), x) - cut.begin());
  }
};

// The axis of the widest extent of the moving bodies across @p up (up zero: the widest), and
// the quantiles 1/kRecoveryBlocks ... of their coordinate along it, from every body below
// 4,096 moving bodies, else from an evenly spaced sample of about 2,048 (deterministic).
Slabs cutSlabs(const BodyStore& bodies, const double* up) {
  Slabs slabs;
  std::vector<std::int32_t> moving;
  for (std::size_t b = 0; b < bodies.size(); ++b)
    if (!bodies.isStatic[b]) moving.push_back(static_cast<std::int32_t>(b));
  if (moving.empty()) return slabs;
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (const std::int32_t b : moving)
    for (int k = 0; k < 3; ++k) {
      const double x = bodies.q[7 * static_cast<std::size_t>(b) + static_cast<std::size_t>(k)];
      lo[k] = std::min(lo[k], x);
      hi[k] = std::max(hi[k], x);
    }
  double widest = -1.0;
  for (int k = 0; k < 3; ++k) {
    const double across = (hi[k] - lo[k]) * (1.0 - up[k] * up[k]);
    if (across > widest) {  // NaN never: the first axis stays
      widest = across;
      slabs.axis = k;
    }
  }
  const std::size_t stride = moving.size() > 4096 ? moving.size() / 2048 : 1;
  std::vector<double> x;
  for (std::size_t i = 0; i < moving.size(); i += stride)
    x.push_back(
        bodies.q[7 * static_cast<std::size_t>(moving[i]) + static_cast<std::size_t>(slabs.axis)]);
  const std::size_t m = x.size();
  auto from = x.begin();
  for (int k = 1; k < kRecoveryBlocks; ++k) {
    const auto at =
        x.begin() + static_cast<std::ptrdiff_t>(m * static_cast<std::size_t>(k) / kRecoveryBlocks);
    std::nth_element(from, at, x.end());
    slabs.cut.push_back(*at);
    from = at;
  }
  return slabs;
}
}  // namespace

std::uint64_t heightBits(double height) {
  double h = height + 0.0;  // -0 as +0
  std::uint64_t u = 0;
  std::memcpy(&u, &h, sizeof u);
  return u >> 63 ? ~u : u | (std::uint64_t{1} << 63);
}

void sortRecoveryKeys(std::vector<RecoveryKey>& keys) {
  std::vector<RecoveryKey> other(keys.size());
  sortKeys(keys.data(), other.data(), keys.size());
}

void orderForRecovery(const BodyStore& bodies, const SceneContacts& cs,
                      const std::array<double, 3>& gravity, bool bands,
                      std::vector<std::int32_t>& index, std::vector<double>& q,
                      std::vector<std::uint8_t>& held, std::vector<std::int32_t>& bandEnd,
                      std::vector<std::int32_t>* slab, int threads) {
  held.clear();
  bandEnd.clear();
  if (slab) slab->clear();
  const double g =
      std::sqrt(gravity[0] * gravity[0] + gravity[1] * gravity[1] + gravity[2] * gravity[2]);
  if (!(g > 0.0) || !std::isfinite(g)) return;
  const double up[3] = {-gravity[0] / g, -gravity[1] / g, -gravity[2] / g};
  const std::size_t n = index.size();
  // each contact's held side and the height of the body it moves (the higher of two)
  // (the keys in entry order already: their height filled in over threads)
  std::vector<std::uint8_t> side(n, 0);
  std::vector<RecoveryKey> keys(n);
  const int nt = mechanics::threadsFor(threads, n);
  const std::ptrdiff_t sn = static_cast<std::ptrdiff_t>(n);
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::ptrdiff_t sa = 0; sa < sn; ++sa) {
    const std::size_t a = static_cast<std::size_t>(sa);
    const std::size_t c = static_cast<std::size_t>(index[a]);
    double height = 0.0;
    const std::int32_t A = cs.bodyA[c], B = cs.bodyB[c];
    const bool dynA = !bodies.isStatic[static_cast<std::size_t>(A)];
    const bool dynB = !bodies.isStatic[static_cast<std::size_t>(B)];
    const double* nrm = &cs.frame[9 * c];  // from B to A
    const double s = nrm[0] * up[0] + nrm[1] * up[1] + nrm[2] * up[2];
    if (dynA && dynB && s >= kRecoveryHoldCosine) {
      side[a] = 2;  // A above: B held
      height = heightOf(bodies, A, up);
    } else if (dynA && dynB && s <= -kRecoveryHoldCosine) {
      side[a] = 1;
      height = heightOf(bodies, B, up);
    } else {
      const double hA = dynA ? heightOf(bodies, A, up) : -HUGE_VAL;
      const double hB = dynB ? heightOf(bodies, B, up) : -HUGE_VAL;
      height = std::max(hA, hB);
    }
    keys[a] = RecoveryKey{heightBits(height), index[a], static_cast<std::int32_t>(a)};
  }
  // bottom-up, ties in entry order: the same order on any part; in slabs, the keys
  // grouped by slab (-1 last) in entry order and each group sorted on its own, side by side
  std::vector<RecoveryKey> other(n);
  std::vector<std::size_t> groupEnd(1, n);
  if (slab) {
    const Slabs slabs = cutSlabs(bodies, up);
    std::vector<std::int32_t> group(n);
    NSD_OMP(omp parallel for schedule(static) num_threads(nt))
    for (std::ptrdiff_t sa = 0; sa < sn; ++sa) {
      const std::size_t a = static_cast<std::size_t>(sa);
      const std::size_t c = static_cast<std::size_t>(index[a]);
      const std::int32_t sA = slabs.of(bodies, cs.bodyA[c]), sB = slabs.of(bodies, cs.bodyB[c]);
      const std::int32_t k = sA < 0 ? sB : sB < 0 || sB == sA ? sA : -1;
      group[a] = k < 0 ? kRecoveryBlocks : k;
    }
    groupEnd.assign(kRecoveryBlocks + 1, 0);
    for (std::int32_t k : group) ++groupEnd[static_cast<std::size_t>(k)];
    std::size_t start = 0;
    for (std::size_t& e : groupEnd) {
      const std::size_t count = e;
      e = start;  // the group's start, its end after the filling
      start += count;
    }
    for (std::size_t a = 0; a < n; ++a)
      other[groupEnd[static_cast<std::size_t>(group[a])]++] = keys[a];
    keys.swap(other);
    const std::ptrdiff_t groups = static_cast<std::ptrdiff_t>(groupEnd.size());
    NSD_OMP(omp parallel for schedule(dynamic, 1) num_threads(nt))
    for (std::ptrdiff_t k = 0; k < groups; ++k) {
      const std::size_t begin = k > 0 ? groupEnd[static_cast<std::size_t>(k) - 1] : 0;
      sortKeys(keys.data() + begin, other.data() + begin,
               groupEnd[static_cast<std::size_t>(k)] - begin);
    }
    slab->resize(n);
    for (std::size_t k = 0, a = 0; k < groupEnd.size(); ++k)
      for (; a < groupEnd[k]; ++a)
        (*slab)[a] =
            k < static_cast<std::size_t>(kRecoveryBlocks) ? static_cast<std::int32_t>(k) : -1;
  } else {
    sortKeys(keys.data(), other.data(), n);
  }
  std::vector<std::int32_t> sortedIndex(n);
  std::vector<double> sortedQ(3 * n);
  held.resize(n);
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::ptrdiff_t sa = 0; sa < sn; ++sa) {
    const std::size_t a = static_cast<std::size_t>(sa);
    const std::size_t from = static_cast<std::size_t>(keys[a].from);
    sortedIndex[a] = index[from];
    for (std::size_t k = 0; k < 3; ++k) sortedQ[3 * a + k] = q[3 * from + k];
    held[a] = side[from];
  }
  index.swap(sortedIndex);
  q.swap(sortedQ);
  if (!bands || slab) return;
  // bands: a new one where a contact would hold a body moved earlier in the current band
  std::vector<std::int32_t> movedIn(bodies.size(), -1);
  std::int32_t band = 0;
  for (std::size_t a = 0; a < n; ++a) {
    const std::size_t c = static_cast<std::size_t>(index[a]);
    const std::int32_t A = cs.bodyA[c], B = cs.bodyB[c];
    const std::int32_t kept = held[a] == 1 ? A : held[a] == 2 ? B : -1;
    if (kept >= 0 && movedIn[static_cast<std::size_t>(kept)] == band) {
      bandEnd.push_back(static_cast<std::int32_t>(a));
      ++band;
    }
    if (held[a] != 1 && !bodies.isStatic[static_cast<std::size_t>(A)])
      movedIn[static_cast<std::size_t>(A)] = band;
    if (held[a] != 2 && !bodies.isStatic[static_cast<std::size_t>(B)])
      movedIn[static_cast<std::size_t>(B)] = band;
  }
  bandEnd.push_back(static_cast<std::int32_t>(n));
}

}  // namespace store
}  // namespace nsdyn
