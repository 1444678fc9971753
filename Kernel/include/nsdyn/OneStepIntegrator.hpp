/// @file OneStepIntegrator.hpp
/// @brief Base class of one-step integrators (time integration of the smooth
///        part and the pieces of the local nonsmooth problem that need W⁻¹).
#ifndef NSDYN_KERNEL_ONESTEPINTEGRATOR_HPP
#define NSDYN_KERNEL_ONESTEPINTEGRATOR_HPP

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/DynamicalSystem.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SimpleMatrix.hpp"
#include "nsdyn/UnitaryRelation.hpp"

namespace nsdyn {

/// A one-step integrator for a set of dynamical systems of one kind.
///
/// By default an integrator takes every system of the NSDS of its kind that
/// no other integrator claimed; insertDynamicalSystem() restricts it to given
/// systems. Per step, the simulation calls computeFreeState(), asks for the
/// local problem pieces (computeFreeOutput(), computeDelassusBlock()), writes
/// the nonsmooth inputs into the systems, then calls updateState().
class NSDYN_KERNEL_API OneStepIntegrator {
 public:
  virtual ~OneStepIntegrator() = default;
  OneStepIntegrator(const OneStepIntegrator&) = delete;
  OneStepIntegrator& operator=(const OneStepIntegrator&) = delete;

  virtual std::string className() const = 0;
  /// Whether this integrator can integrate @p ds (its kind).
  virtual bool accepts(const DynamicalSystem& ds) const = 0;
  /// Kind of relations handled together with the systems (Lagrangian or first order).
  virtual DynamicalSystemKind systemKind() const = 0;
  /// Level of y and λ in the velocity/state-level problem (1 Lagrangian, 0 first order).
  virtual unsigned levelForProblem() const = 0;

  /// θ of the θ-method.
  double theta() const { return theta_; }
  void setTheta(double theta) { theta_ = theta; }

  /// Restrict this integrator to @p ds (may be called several times).
  void insertDynamicalSystem(const SP::DynamicalSystem& ds);
  /// Systems given by insertDynamicalSystem() (empty: take all of its kind).
  const std::vector<SP::DynamicalSystem>& requestedSystems() const { return requested_; }
  /// Systems integrated, set by initialize().
  const std::vector<SP::DynamicalSystem>& dynamicalSystems() const { return systems_; }
  bool integrates(const DynamicalSystem& ds) const;

  /// Take @p systems, with step @p h and start time @p t0; checks and first W.
  /// nsdyn::Error on a system it cannot integrate or on θ outside [0, 1].
  virtual void initialize(const std::vector<SP::DynamicalSystem>& systems, double t0, double h);

  /// Free state of every system over [tk, tk1] (no nonsmooth input); also
  /// (re)computes the iteration matrices where they depend on the state.
  virtual void computeFreeState(double tk, double tk1) = 0;
  /// Local free output of @p ur for the step's problem (its size() rows):
  /// Lagrangian H v_free + e H v_k; first order C x_free + F u + e.
  virtual SiconosVector computeFreeOutput(const UnitaryRelation& ur, double tk1) const = 0;
  /// Delassus block coupling @p a (rows) and @p b (columns) through @p ds:
  /// Lagrangian H_a W⁻¹ H_bᵀ; first order h C_a W⁻¹ B_b (D is added by the problem).
  virtual SimpleMatrix computeDelassusBlock(const UnitaryRelation& a, const UnitaryRelation& b,
                                            const DynamicalSystem& ds, double tk1) const = 0;
  /// New state from the free state and the nonsmooth input stored in the systems.
  virtual void updateState(double tk1) = 0;

  // ---- Newton loop (TimeStepping, MECHANICS.md §0.4) ----------------------
  /// Whether some system has nonlinear step equations (then TimeStepping runs
  /// its Newton loop unless told to linearise).
  virtual bool isNonlinear() const { return false; }
  /// Whether the integrator must run inside the Newton loop (boundary conditions).
  virtual bool requiresNewton() const { return false; }
  /// Switch between the one-pass scheme (false, default) and Newton iterations
  /// (true): computeFreeState() then works from the current iterate and its residual.
  virtual void setNewtonIterations(bool on);
  bool newtonIterations() const { return newton_; }
  /// Newton: the prediction (q = q_k ⊕ h v_k, v = v_k) and its residual at t_{k+1}.
  virtual void prepareNewtonIteration(double tk, double tk1);
  /// Whether the Jacobians of the interactions are to be taken at the θ-point
  /// configuration (MoreauJeanOSI::setConstraintsAtMidpoint); default false.
  virtual bool jacobiansAtThetaPoint() const { return false; }
  /// Move every system to its θ-point configuration q_k ⊕ θh(θv + (1−θ)v_k)
  /// (@p on) or back to its current iterate (!@p on). Default nothing.
  virtual void moveToThetaPoint(bool /*on*/) {}
  /// Newton: the residual at the new iterate (after updateState()); true when
  /// every system has ‖R − p‖₂ ≤ @p tolerance.
  virtual bool computeResidual(double tk1, double tolerance);

  /// Iteration matrix W of @p ds (nsdyn::Error if not integrated here).
  const SimpleMatrix& W(const DynamicalSystem& ds) const;
  /// Free state of @p ds (v_free for Lagrangian, x_free for first order).
  const SiconosVector& freeState(const DynamicalSystem& ds) const;
  /// Time step h given at initialize() (0 before).
  double timeStep() const { return h_; }

 protected:
  explicit OneStepIntegrator(double theta) : theta_(theta) {}
  double theta_;
  double h_ = 0.0;
  bool newton_ = false;
  std::vector<SP::DynamicalSystem> requested_;
  std::vector<SP::DynamicalSystem> systems_;
  std::map<int, SimpleMatrix> W_;      // system number -> iteration matrix (factorised)
  std::map<int, SiconosVector> free_;  // system number -> free state
};

namespace SP {
using OneStepIntegrator = std::shared_ptr<nsdyn::OneStepIntegrator>;
}

}  // namespace nsdyn

#endif
