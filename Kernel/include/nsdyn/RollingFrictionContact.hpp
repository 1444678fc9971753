/// @file RollingFrictionContact.hpp
/// @brief Frictional contact with rolling resistance (Siconos's RollingFrictionContact) over
///        the active contacts of a ContactManager.
#ifndef NSDYN_KERNEL_ROLLINGFRICTIONCONTACT_HPP
#define NSDYN_KERNEL_ROLLINGFRICTIONCONTACT_HPP

#include <memory>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepNSProblem.hpp"

namespace nsdyn {

/// The rolling friction contact problem of Numerics (nsd_rfc.h, NSD_KIND_RFC3D) over the
/// active contacts of a ContactManager's ContactSet: per contact five unknowns
/// r = (r_N, r_T1, r_T2, r_R1, r_R2), the normal and tangential impulses (N·s) as in
/// FrictionContact(3) and the rolling moment impulses (N·m·s) about the contact's tangents
/// t1, t2, with ‖r_T‖ ≤ μ r_N and ‖r_R‖ ≤ μ_r r_N, μ_r = ContactMaterial::rolling (a length,
/// m: the rolling moment is bounded by rolling × the normal force; a sphere of radius R rests
/// on an incline of angle θ iff tan θ ≤ rolling / R).
///
/// The local velocity u = W r + q has five rows per contact: the normal and tangential
/// relative velocities of FrictionContact(3) and the rolling rows
/// u_R = [t1 t2]ᵀ (ω_A − ω_B), the relative angular velocity (world) of body A with respect
/// to body B projected on the tangents (A, B and the normal n from B to A as in ContactSet).
/// W = J M⁻¹ Jᵀ is assembled sparse-block with 5×5 blocks (J: the 3×6 contact blocks and
/// the 2×3 rolling blocks ContactSet::rollA/rollB on the angular columns); q = J v_free
/// (+ e u_n,k and the stabilisation bias on the normal rows, as FrictionContact). The
/// answer goes back to the bodies as Jᵀ λ plus the pure torques J_Rᵀ r_R (ContactManager::
/// computeInput) and into ContactSet::impulse and ContactSet::rollingImpulse; the contact
/// work (ContactManager::Statistics::contactWork) includes the rolling moments'.
///
/// Solvers of Numerics' rfc3d table: "nsgs" (the default) and "pg"; options, warm start,
/// fallback and solve mode as every OneStepNSProblem. With rolling = 0 on every contact the
/// rolling rows carry no moment and the answer is FrictionContact(3)'s. Detected contacts
/// only: a model with Interactions is refused (checkRelation).
class NSDYN_KERNEL_API RollingFrictionContact : public OneStepNSProblem {
 public:
  /// @param solverName empty: "nsgs"
  explicit RollingFrictionContact(std::string solverName = "");
  std::string className() const override { return "RollingFrictionContact"; }
  NsdProblemKind numericsKind() const override { return NSD_KIND_RFC3D; }
  /// Always nsdyn::Error: the problem holds a ContactManager's contacts only.
  void checkRelation(const UnitaryRelation& ur) const override;

 protected:
  NsdStatus solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active, SiconosVector& z,
                  SiconosVector& w, NsdReport& report) override;
  StepStatistics computeContacts(ContactSet& contacts, double tk1) override;
};

namespace SP {
using RollingFrictionContact = std::shared_ptr<nsdyn::RollingFrictionContact>;
}

}  // namespace nsdyn

#endif
