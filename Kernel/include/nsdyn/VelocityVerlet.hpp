/// @file VelocityVerlet.hpp
/// @brief The explicit peridynamic stepper ("verlet"): velocity Verlet.
#ifndef NSDYN_VELOCITYVERLET_HPP
#define NSDYN_VELOCITYVERLET_HPP

#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicStepper.hpp"

namespace nsdyn {

/// Velocity Verlet: v_{k+½} = v_k + h/2 a(x_k), x_{k+1} = x_k + h v_{k+½},
/// v_{k+1} = v_{k+½} + h/2 a(x_{k+1}), a = (f + F)/m + g; prescribed points move with their
/// velocity. One force pass per step: the forces at the end of a step are kept and reused when
/// the next step starts from the same body at the same positions. Refuses h = 0 (statics) and
/// θ is ignored. report.stableStep is the bound estimated for the body,
/// min(Δx / c_p, min_i √(2 m_i / a_i)) with c_p the material's P-wave speed and a_i its
/// implicit stiffness (the Silling–Askari bound for bond-based bodies); a larger h is taken
/// as given (it will blow up).
class NSDYN_KERNEL_API VelocityVerlet final : public PeridynamicStepper {
 public:
  std::string name() const override { return "verlet"; }
  bool implicit() const override { return false; }
  PeridynamicStepReport freeStep(const PeridynamicBody& body, const PeridynamicStepOptions& options,
                                 double* x, double* v) override;
  /// The stable step estimate of @p body (s), as in the class comment.
  static double stableStep(const PeridynamicBody& body);

 private:
  const PeridynamicBody* cachedBody_ = nullptr;
  std::vector<double> cachedX_, cachedF_, f_;
  std::size_t cachedBroken_ = 0;
  double cachedStable_ = 0.0;
};

}  // namespace nsdyn

#endif
