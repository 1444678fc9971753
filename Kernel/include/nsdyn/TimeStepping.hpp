/// @file TimeStepping.hpp
/// @brief Event-capturing time-stepping (Moreau–Jean / Euler–Moreau), with a
///        Newton loop for nonlinear systems.
#ifndef NSDYN_KERNEL_TIMESTEPPING_HPP
#define NSDYN_KERNEL_TIMESTEPPING_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Simulation.hpp"

namespace nsdyn {

/// How TimeStepping treats nonlinear systems (Siconos SICONOS_TS_LINEAR / NONLINEAR).
enum class NewtonMode {
  Auto,      ///< Newton iterations when an integrator has a nonlinear system or boundary conditions
             ///< (default)
  Linear,    ///< one pass, linearised at the step start (refused with boundary conditions)
  Nonlinear  ///< Newton iterations always
};

/// Time-stepping. One-pass scheme, each step (DESIGN.md, "one time step"):
///  1. computeFreeState() — every integrator's free state over [t_k, t_{k+1}];
///  2. updateIndexSets() — I1: for gap relations with an impact law, the
///     unitary relations whose predicted gap y + γ h ẏ ≤ 0 on the normal row,
///     γ = 1/2, from the outputs at t_k; every other relation always;
///  3. computeOneStepNSProblem() — assemble and solve over I1 (inactive
///     relations get λ = 0), statistics recorded;
///  4. update() — nonsmooth inputs p = Hᵀ λ / r = B λ into the systems,
///     new states, outputs recomputed at t_{k+1};
///  5. nextStep() — memories kept, k advanced.
/// Newton scheme (MECHANICS.md §0.4): outputs and Jacobians at q_k, I1 as
/// above, prediction q = q_k ⊕ h v_k, then until ‖R − p‖ ≤ tolerance for every
/// system (at most maxIterations): free state from the residual, Jacobians at
/// the current q, the nonsmooth problem, inputs, new state, outputs, residual.
/// The iterations are in StepStatistics::newtonIterations.
class NSDYN_KERNEL_API TimeStepping : public Simulation {
 public:
  /// γ of the activation rule y + γ h ẏ ≤ 0.
  static constexpr double kActivationGamma = 0.5;

  explicit TimeStepping(SP::TimeDiscretisation td);
  /// With one integrator and the nonsmooth problem (either may be null and inserted later).
  TimeStepping(SP::TimeDiscretisation td, const SP::OneStepIntegrator& osi,
               const SP::OneStepNSProblem& problem);

  /// Newton options (before Model::initialize()): mode, tolerance on ‖R − p‖₂
  /// (default 1e-6) and maximum iterations per step (default 50).
  void setNewtonOptions(NewtonMode mode) { newtonMode_ = mode; }
  NewtonMode newtonOptions() const { return newtonMode_; }
  void setNewtonTolerance(double tolerance) { newtonTolerance_ = tolerance; }
  double newtonTolerance() const { return newtonTolerance_; }
  void setNewtonMaxIteration(int iterations) { newtonMaxIterations_ = iterations; }
  int newtonMaxIteration() const { return newtonMaxIterations_; }
  /// Whether the steps run the Newton loop (decided at initialisation).
  bool usesNewton() const { return newton_; }

  void initialize(Model& model) override;
  void computeFreeState();
  virtual void updateIndexSets();
  void computeOneStepNSProblem();
  void update();
  void computeOneStep() override;

 protected:
  /// Called after the Newton loop (or the one-pass update) of each step; the
  /// projection variant projects positions there. Default nothing.
  virtual void afterStep(StepStatistics& stats);
  StepStatistics pending_;
  double problemSeconds_ = 0.0;  // the step's nonsmooth problems, build and solve

 private:
  void newtonStep();
  /// pending_.work from the step's impulses and outputs (after the update and afterStep).
  void recordWork();
  /// Jacobians of every interaction at the current iterate, or at the θ point
  /// for integrators that ask for it (OneStepIntegrator::jacobiansAtThetaPoint).
  void computeJacobiansForNewton(double t);
  NewtonMode newtonMode_ = NewtonMode::Auto;
  double newtonTolerance_ = 1e-6;
  int newtonMaxIterations_ = 50;
  bool newton_ = false;
};

namespace SP {
using TimeStepping = std::shared_ptr<nsdyn::TimeStepping>;
}

}  // namespace nsdyn

#endif
