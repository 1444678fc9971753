/// @file BodyHandle.hpp
/// @brief A body of a BodyStore seen as one object: its state, loads and energy, read and
///        written in the store's arrays (no copy, no heap object per body).
#ifndef NSDYN_BODYHANDLE_HPP
#define NSDYN_BODYHANDLE_HPP

#include <array>
#include <cstddef>

#include "nsdyn/BodyStore.hpp"
#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// Handle of body @p index of a BodyStore (valid while the store lives; indices are stable
/// on one process). The state follows NewtonEulerDS's conventions: q = (centre of mass,
/// unit quaternion body → world), v = (world linear velocity, body angular velocity Ω).
class NSDYN_KERNEL_API BodyHandle {
 public:
  /// nsdyn::Error naming the index and the body count when @p index is out of range.
  BodyHandle(BodyStore& store, std::size_t index) : store_(&store), index_(index) {
    store.checkIndex(index, "BodyHandle");
  }
  std::size_t index() const { return index_; }
  const std::string& name() const { return store_->name(index_); }
  bool isStatic() const { return store_->isStatic[index_] != 0; }
  double mass() const { return store_->mass[index_]; }

  std::array<double, 7> q() const {
    std::array<double, 7> out{};
    for (std::size_t i = 0; i < 7; ++i) out[i] = store_->q[7 * index_ + i];
    return out;
  }
  std::array<double, 6> v() const {
    std::array<double, 6> out{};
    for (std::size_t i = 0; i < 6; ++i) out[i] = store_->v[6 * index_ + i];
    return out;
  }
  Shape::Vec3 position() const {
    return {store_->q[7 * index_], store_->q[7 * index_ + 1], store_->q[7 * index_ + 2]};
  }
  Shape::Quat orientation() const {
    return {store_->q[7 * index_ + 3], store_->q[7 * index_ + 4], store_->q[7 * index_ + 5],
            store_->q[7 * index_ + 6]};
  }
  /// World angular velocity R Ω.
  Shape::Vec3 angularVelocityWorld() const { return store_->angularVelocityWorld(index_); }
  /// Set the state (a dynamic body; the quaternion is normalised, non-finite values refused).
  void setState(const std::array<double, 7>& q, const std::array<double, 6>& v);
  /// Constant applied force (world) and torque (body frame), added to the scene's gravity.
  void setForce(const Shape::Vec3& force, const Shape::Vec3& torque = {0.0, 0.0, 0.0}) {
    store_->setForce(index_, force, torque);
  }
  /// Applied wrench as a callable of (t, q, v), added to the constant load.
  void setForceFunction(BodyStore::ForceFunction f) {
    store_->setForceFunction(index_, std::move(f));
  }
  double kineticEnergy() const { return store_->kineticEnergy(index_); }

 private:
  BodyStore* store_;
  std::size_t index_;
};

}  // namespace nsdyn

#endif
