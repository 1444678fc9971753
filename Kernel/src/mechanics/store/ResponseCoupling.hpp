// The coupled response of the bodies of SceneSystems that declare it (SceneSystem::coupled, a
// deformable body's iteration matrix) in a SceneEngine's contact problem: which contacts
// touch them, W = J M⁻¹ Jᵀ plus the systems' corrections, the same correction applied by the
// operator (APGD) after M⁻¹, and the velocities after the solve (internal header of
// Kernel/src/mechanics/store).
#ifndef NSDYN_KERNEL_STORE_RESPONSECOUPLING_HPP
#define NSDYN_KERNEL_STORE_RESPONSECOUPLING_HPP

#include <cstddef>
#include <memory>
#include <vector>

#include "nsdyn/nsd_bodies.h"
#include "nsdyn/nsd_matrix.h"

namespace nsdyn {

class SceneEngine;
class SceneSystem;

namespace store {

class ResponseCoupling {
 public:
  /// The coupled systems among @p systems (none: any() is false and the engine's step is
  /// unchanged).
  explicit ResponseCoupling(const std::vector<std::shared_ptr<SceneSystem>>& systems);
  bool any() const { return !systems_.empty(); }
  /// This step's problem @p p: the touched bodies of each coupled system, beginResponse on
  /// those with some, their correction blocks. Returns active(): some contact touches one.
  bool begin(const SceneEngine& engine, const NsdRigidContacts& p);
  bool active() const { return active_; }
  /// W = @p lumped (nsd_rigid_contacts_assemble of @p p) plus Σ J_a (A⁻¹ − M⁻¹) J_bᵀ over the
  /// pairs of contacts on the touched bodies of one system: a new sparse-block matrix, exactly
  /// symmetric (NULL: no memory).
  NsdMatrix* corrected(const NsdRigidContacts& p, const NsdMatrix* lumped) const;
  /// w += (A⁻¹ − M⁻¹) v on the linear velocities of the touched bodies (6 per body of the
  /// store): the operator's M⁻¹ made A⁻¹ where it is read.
  void addResponse(const double* v, double* w) const;
  /// After v = v_free + M⁻¹ Jᵀ r: each system's correctVelocity with its bodies' Jᵀ r.
  void correct(const SceneEngine& engine, const NsdRigidContacts& p, const double* r, double* vel);

 private:
  struct Coupled {
    SceneSystem* system = nullptr;
    std::size_t first = 0, count = 0;
    std::vector<std::size_t> touched;  // store indices, sorted
    std::vector<int> slot;             // per body of the system: its touched index, or -1
    std::vector<double> blocks;        // 9 per (a, b) of touched, row-major 3×3
  };
  /// The system and touched slot of store body @p body, or nullptr.
  const Coupled* owner(int body, int* slot) const;
  std::vector<Coupled> systems_;
  bool active_ = false;
  std::vector<double> impulse_;
};

}  // namespace store
}  // namespace nsdyn

#endif
