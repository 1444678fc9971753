/// @file TimeStepping.hpp
/// @brief Event-capturing time-stepping (Moreau–Jean / Euler–Moreau).
#ifndef NSDYN_KERNEL_TIMESTEPPING_HPP
#define NSDYN_KERNEL_TIMESTEPPING_HPP

#include <memory>

#include "nsdyn/Simulation.hpp"

namespace nsdyn {

/// Time-stepping: each step runs, in order (DESIGN.md, "one time step"):
///  1. computeFreeState() — every integrator's free state over [t_k, t_{k+1}];
///  2. updateIndexSets() — I1: for Lagrangian relations with an impact law,
///     the unitary relations whose predicted gap y + γ h ẏ ≤ 0 on the normal
///     row, γ = 1/2 (fixed), from the outputs at t_k; every other relation
///     (first-order, and laws without impact) is always active;
///  3. computeOneStepNSProblem() — assemble and solve over I1 (inactive
///     relations get λ = 0), statistics recorded;
///  4. update() — nonsmooth inputs p = Hᵀ λ / r = B λ into the systems,
///     new states, outputs recomputed at t_{k+1};
///  5. nextStep() — memories kept, k advanced.
/// computeOneStep() runs 1–4.
class TimeStepping : public Simulation {
 public:
  /// γ of the activation rule y + γ h ẏ ≤ 0.
  static constexpr double kActivationGamma = 0.5;

  explicit TimeStepping(SP::TimeDiscretisation td);
  /// With one integrator and the nonsmooth problem (either may be null and inserted later).
  TimeStepping(SP::TimeDiscretisation td, const SP::OneStepIntegrator& osi,
               const SP::OneStepNSProblem& problem);

  void computeFreeState();
  void updateIndexSets();
  void computeOneStepNSProblem();
  void update();
  void computeOneStep() override;

 private:
  StepStatistics pending_;
};

namespace SP {
using TimeStepping = std::shared_ptr<nsdyn::TimeStepping>;
}

}  // namespace nsdyn

#endif
