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
// into @p to by the byte of @p field at @p shift. False (nothing moved) when every key
// has the same byte there.
template <typename Field>
bool radixPass(const std::vector<RecoveryKey>& from, std::vector<RecoveryKey>& to, Field field,
               int shift) {
  std::size_t count[257] = {0};
  for (const RecoveryKey& k : from) ++count[((field(k) >> shift) & 0xffu) + 1];
  for (std::size_t d = 0; d < 256; ++d)
    if (count[d + 1] == from.size()) return false;
  for (std::size_t d = 1; d <= 256; ++d) count[d] += count[d - 1];
  for (const RecoveryKey& k : from) to[count[(field(k) >> shift) & 0xffu]++] = k;
  return true;
}
}  // namespace

std::uint64_t heightBits(double height) {
  double h = height + 0.0;  // -0 as +0
  std::uint64_t u = 0;
  std::memcpy(&u, &h, sizeof u);
  return u >> 63 ? ~u : u | (std::uint64_t{1} << 63);
}

void sortRecoveryKeys(std::vector<RecoveryKey>& keys) {
  // least significant digit first, each pass stable: the entries' bytes (skipped when the
  // keys come in entry order, as the recovery builds them), then the heights'
  std::vector<RecoveryKey> other(keys.size());
  const auto entry = [](const RecoveryKey& k) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.entry) ^ 0x80000000u);
  };
  const auto height = [](const RecoveryKey& k) { return k.height; };
  const bool inEntryOrder =
      std::is_sorted(keys.begin(), keys.end(),
                     [](const RecoveryKey& x, const RecoveryKey& y) { return x.entry < y.entry; });
  for (int shift = 0; !inEntryOrder && shift < 32; shift += 8)
    if (radixPass(keys, other, entry, shift)) keys.swap(other);
  for (int shift = 0; shift < 64; shift += 8)
    if (radixPass(keys, other, height, shift)) keys.swap(other);
}

void orderForRecovery(const BodyStore& bodies, const SceneContacts& cs,
                      const std::array<double, 3>& gravity, bool bands,
                      std::vector<std::int32_t>& index, std::vector<double>& q,
                      std::vector<std::uint8_t>& held, std::vector<std::int32_t>& bandEnd,
                      int threads) {
  held.clear();
  bandEnd.clear();
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
  // bottom-up, ties in entry order: the same order on any part
  sortRecoveryKeys(keys);
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
  if (!bands) return;
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

void blocksForRecovery(const BodyStore& bodies, const SceneContacts& cs,
                       const std::array<double, 3>& gravity, const std::vector<std::int32_t>& index,
                       std::vector<std::int32_t>& block, int threads) {
  const std::size_t n = index.size(), nb = bodies.size();
  block.assign(n, -1);
  // the moving bodies (all of the store's: those of no contact take a slab they never use)
  std::vector<std::int32_t> moving;
  for (std::size_t b = 0; b < nb; ++b)
    if (!bodies.isStatic[b]) moving.push_back(static_cast<std::int32_t>(b));
  if (moving.empty()) return;
  // the axis: the widest extent of the bodies across gravity
  const double g =
      std::sqrt(gravity[0] * gravity[0] + gravity[1] * gravity[1] + gravity[2] * gravity[2]);
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  for (const std::int32_t b : moving)
    for (int k = 0; k < 3; ++k) {
      const double x = bodies.q[7 * static_cast<std::size_t>(b) + static_cast<std::size_t>(k)];
      lo[k] = std::min(lo[k], x);
      hi[k] = std::max(hi[k], x);
    }
  int axis = 0;
  double widest = -1.0;
  for (int k = 0; k < 3; ++k) {
    const double up = g > 0.0 && std::isfinite(g) ? gravity[static_cast<std::size_t>(k)] / g : 0.0;
    const double across = (hi[k] - lo[k]) * (1.0 - up * up);
    if (across > widest) {  // NaN never: the first axis stays
      widest = across;
      axis = k;
    }
  }
  // the cuts: the coordinates of ranks m k / kRecoveryBlocks, k = 1 .. kRecoveryBlocks - 1
  const std::size_t m = moving.size();
  std::vector<double> sorted(m);
  for (std::size_t i = 0; i < m; ++i)
    sorted[i] = bodies.q[7 * static_cast<std::size_t>(moving[i]) + static_cast<std::size_t>(axis)];
  std::vector<double> cut;
  auto from = sorted.begin();
  for (int k = 1; k < kRecoveryBlocks; ++k) {
    const auto at = sorted.begin() + static_cast<std::ptrdiff_t>(m * k / kRecoveryBlocks);
    std::nth_element(from, at, sorted.end());
    cut.push_back(*at);
    from = at;
  }
  // each contact's block: the slab (the cuts at or below a body) of its moving bodies
  const auto slab = [&](std::int32_t b) -> std::int32_t {
    const std::size_t u = static_cast<std::size_t>(b);
    if (bodies.isStatic[u]) return -1;
    const double x = bodies.q[7 * u + static_cast<std::size_t>(axis)];
    return static_cast<std::int32_t>(std::upper_bound(cut.begin(), cut.end(), x) - cut.begin());
  };
  const int nt = mechanics::threadsFor(threads, n);
  const std::ptrdiff_t sn = static_cast<std::ptrdiff_t>(n);
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::ptrdiff_t sa = 0; sa < sn; ++sa) {
    const std::size_t a = static_cast<std::size_t>(sa);
    const std::size_t c = static_cast<std::size_t>(index[a]);
    const std::int32_t sA = slab(cs.bodyA[c]), sB = slab(cs.bodyB[c]);
    block[a] = sA < 0 ? sB : sB < 0 || sB == sA ? sA : -1;
  }
}

}  // namespace store
}  // namespace nsdyn
