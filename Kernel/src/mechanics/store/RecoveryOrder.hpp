// The overlap recovery's shock propagation (internal header of Kernel/src/mechanics/store):
// which side of each pseudo-impulse contact stays put, and the order of the sweeps.
//
// The recovery asks every overlapping contact for up to maxSpeed of separation. On a stack
// resting under gravity the exact answer adds these up the stack (the top of a 50-high
// column moves 50 maxSpeed h), and Gauss–Seidel started from zero needs of the order of
// n² sweeps on an n-chain: cut at its sweep cap, it leaves the lower contacts approaching,
// and the stacks sink step after step (measured: the race column 3.7 → 9.4 mm in 100
// steps). Shock propagation (Guendelman, Bridson and Fedkiw, "Nonconvex rigid bodies with
// stacking", SIGGRAPH 2003) pushes the upper body of a contact away from the lower one and
// never the lower one: a contact whose normal is within 60° of "up" (−gravity) holds its
// lower body (NsdRigidContacts::sweep_held); the others (side contacts, contacts with a
// static body) move both sides as before. Swept bottom-up — the contacts sorted by the
// height of the body they move, cut into bands where a contact would hold a body moved
// earlier in its band (the sweep's stages) — one sweep carries a column's correction from
// the floor to its top. Only the positions move (pseudo-velocities): the held body keeps
// its place, no momentum is made or lost. Without gravity nothing is held or reordered.
#ifndef NSDYN_KERNEL_STORE_RECOVERYORDER_HPP
#define NSDYN_KERNEL_STORE_RECOVERYORDER_HPP

#include <array>
#include <cstdint>
#include <vector>

#include "nsdyn/BodyStore.hpp"
#include "nsdyn/SceneContacts.hpp"

namespace nsdyn {
namespace store {

/// The cosine of the largest angle between a contact's normal and "up" at which the lower
/// body is held (60°: a sphere resting in the pocket of three below, 35° off vertical, is
/// held by them; side contacts are not).
constexpr double kRecoveryHoldCosine = 0.5;

/// A contact of the recovery problem as the bottom-up sort sees it: the height of the body
/// it moves (heightBits), its entry in the scene's contacts, its position before the sort.
struct RecoveryKey {
  std::uint64_t height;
  std::int32_t entry, from;
};

/// @p height as an unsigned key in the order of the doubles (-0 as +0; -inf first).
std::uint64_t heightBits(double height);

/// Sorts @p keys by (height, entry): a least-significant-digit radix sort, a byte a pass,
/// passes on bytes every key shares skipped (measured on the race's 10,000-sphere shallow
/// pile, 22,000 keys: 0.3 ms against std::sort's 1.8 ms). The order is total (entries are
/// unique), so it is the order of any correct sort.
void sortRecoveryKeys(std::vector<RecoveryKey>& keys);

/// Sorts the recovery problem's contacts @p index (entries of @p cs) and their @p q (3 per
/// contact) bottom-up along @p gravity, by the height of the centre of the body each moves
/// (ties: entry order, the contacts' key order), and gives each its @p held side, 1 per
/// contact in the new order: 0 both sides move, 1 body A held, 2 body B held
/// (NsdRigidContacts::sweep_held); with @p bands, @p bandEnd the cumulative ends of the
/// bands (the sweeps' stages), else empty. Positions are read from @p bodies. Gravity zero:
/// nothing changes, @p held, @p bandEnd and @p slab empty.
///
/// With @p slab (not null; no bands then), the contacts in slabs (NsdRigidContacts::
/// sweep_block, 1 per contact in the new order): the moving bodies cut into kRecoveryBlocks
/// slabs of about equal counts at the quantiles of their coordinate along the world axis of
/// their widest spread across gravity (ties in the slab above); a contact whose moving bodies
/// lie in one slab is in it, the others in -1. The order is then slab 0, slab 1, ..., slab -1,
/// each bottom-up as above: the sweeps run the slabs side by side, each carrying a column's
/// correction to its top within one sweep, and the contacts between slabs after them.
///
/// The heights, the slabs, the sorts of the slabs and the reordering run over @p threads
/// (mechanics::threadsFor), the bands on one: the same result on any count.
void orderForRecovery(const BodyStore& bodies, const SceneContacts& cs,
                      const std::array<double, 3>& gravity, bool bands,
                      std::vector<std::int32_t>& index, std::vector<double>& q,
                      std::vector<std::uint8_t>& held, std::vector<std::int32_t>& bandEnd,
                      std::vector<std::int32_t>* slab, int threads);

/// Recovery problems of this many contacts or more, on one part, are swept in slabs
/// (orderForRecovery with @p slab) instead of bands: below it a sweep is short for threads.
constexpr std::size_t kRecoveryBlocksMin = 4096;

/// The slabs of orderForRecovery (fixed: they never depend on the thread count).
constexpr int kRecoveryBlocks = 8;

}  // namespace store
}  // namespace nsdyn

#endif
