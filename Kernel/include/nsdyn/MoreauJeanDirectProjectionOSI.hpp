/// @file MoreauJeanDirectProjectionOSI.hpp
/// @brief Moreau–Jean with a projection of the positions onto the constraints
///        (used with TimeSteppingDirectProjection).
#ifndef NSDYN_KERNEL_MOREAUJEANDIRECTPROJECTIONOSI_HPP
#define NSDYN_KERNEL_MOREAUJEANDIRECTPROJECTIONOSI_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/MoreauJeanOSI.hpp"

namespace nsdyn {

/// The Moreau–Jean θ-scheme of MoreauJeanOSI with the activation rule of the
/// projection variant (MECHANICS.md §0.9): a unilateral relation not in I1
/// enters when y + γ h ẏ ≤ activateThreshold() (1e-7); one in I1 leaves when
/// y + γ h ẏ > activateThreshold() and ẏ ≥ deactivateVelocityThreshold() (0).
/// TimeSteppingDirectProjection projects the positions after each step and
/// asks this integrator to re-evaluate the forces at the projected positions.
class NSDYN_KERNEL_API MoreauJeanDirectProjectionOSI : public MoreauJeanOSI {
 public:
  explicit MoreauJeanDirectProjectionOSI(double theta = 0.5) : MoreauJeanOSI(theta) {}
  std::string className() const override { return "MoreauJeanDirectProjectionOSI"; }

  double activateThreshold() const { return activate_; }
  void setActivateThreshold(double y) { activate_ = y; }
  double deactivateVelocityThreshold() const { return deactivateVelocity_; }
  void setDeactivateVelocityThreshold(double v) { deactivateVelocity_ = v; }

  /// F_k := F(t, q, v) at the (projected) positions, for every system.
  void refreshForces(double t);

 private:
  double activate_ = 1e-7;
  double deactivateVelocity_ = 0.0;
};

namespace SP {
using MoreauJeanDirectProjectionOSI = std::shared_ptr<nsdyn::MoreauJeanDirectProjectionOSI>;
}

}  // namespace nsdyn

#endif
