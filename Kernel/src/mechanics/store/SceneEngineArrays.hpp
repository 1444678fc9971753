// SceneEngine's per-step arrays: growth without resize()'s doubling (internal header of
// Kernel/src/mechanics/store).
#ifndef NSDYN_KERNEL_STORE_SCENEENGINEARRAYS_HPP
#define NSDYN_KERNEL_STORE_SCENEENGINEARRAYS_HPP

#include <cstddef>
#include <vector>

namespace nsdyn {
namespace store {

/// Capacity for @p n entries plus 1/16 when short (resize() alone doubles a vector that
/// grows by one entry).
template <class T>
void growTo(std::vector<T>& v, std::size_t n) {
  if (v.capacity() < n) v.reserve(n + n / 16 + 16);
}

}  // namespace store
}  // namespace nsdyn

#endif
