// SceneEngine's per-step arrays: growth without resize()'s doubling (internal header of
// Kernel/src/mechanics/store).
#ifndef NSDYN_KERNEL_STORE_SCENEENGINEARRAYS_HPP
#define NSDYN_KERNEL_STORE_SCENEENGINEARRAYS_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nsdyn/BodyStore.hpp"
#include "nsdyn/SceneContacts.hpp"
#include "nsdyn/nsd_bodies.h"

namespace nsdyn {
namespace store {

/// Capacity for @p n entries plus 1/16 when short (resize() alone doubles a vector that
/// grows by one entry).
template <class T>
void growTo(std::vector<T>& v, std::size_t n) {
  if (v.capacity() < n) v.reserve(n + n / 16 + 16);
}

/// The problem u = J v + q over the contacts @p index of @p cs, read in place (no copy of
/// frames, arms or bodies; static bodies as -1), with the friction coefficients @p mu (one
/// per entry of @p cs) and the world inverse inertia @p invInertiaWorld of @p bodies. The
/// caller sets q and the hooks. The step's solve and the overlap recovery both use it.
inline NsdRigidContacts contactsInPlace(const BodyStore& bodies, const SceneContacts& cs,
                                        const std::vector<double>& invInertiaWorld,
                                        const std::vector<std::int32_t>& index, const double* mu) {
  static_assert(sizeof(std::int32_t) == sizeof(int), "body and contact indices as int");
  NsdRigidContacts p{};
  p.n_contacts = static_cast<int>(index.size());
  p.n_bodies = static_cast<int>(bodies.size());
  p.index = index.data();
  p.n_entries = static_cast<int>(cs.size());
  p.body_a = cs.bodyA.data();
  p.body_b = cs.bodyB.data();
  p.body_fixed = bodies.isStatic.data();
  p.frame = cs.frame.data();
  p.arm_a = cs.armA.data();
  p.arm_b = cs.armB.data();
  p.inv_mass = bodies.invMass.data();
  p.inv_inertia = invInertiaWorld.data();
  p.mu = mu;
  return p;
}

}  // namespace store
}  // namespace nsdyn

#endif
