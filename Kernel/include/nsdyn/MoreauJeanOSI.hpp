/// @file MoreauJeanOSI.hpp
/// @brief Moreau–Jean θ-scheme for mechanical systems (Lagrangian systems and rigid bodies).
#ifndef NSDYN_KERNEL_MOREAUJEANOSI_HPP
#define NSDYN_KERNEL_MOREAUJEANOSI_HPP

#include <memory>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepIntegrator.hpp"

namespace nsdyn {

class SecondOrderDS;

/// Moreau–Jean time-stepping for every SecondOrderDS (LagrangianDS, NewtonEulerDS),
/// through the systems' virtual operations only.
///
/// One-pass scheme (the Siconos LINEAR mode; exact for LagrangianLinearTIDS):
/// with W = M + θh C + θ²h² K at the step start (SecondOrderDS::computeIterationMatrix),
///   v_free = v_k + W⁻¹ · linearizedImpulse(t_k, t_{k+1}),
///   v_{k+1} = v_free + W⁻¹ p,  q_{k+1} = q_k ⊕ h(θ v_{k+1} + (1−θ) v_k).
/// Newton iterations (TimeStepping's Newton loop, MECHANICS.md §0.4): from the
/// prediction q = q_k ⊕ h v_k, v = v_k, each iteration computes W at the current
/// iterate, v_free = v − W⁻¹ R with the residual
///   R = M(v − v_k) − h(1−θ) F_k − hθ F(t_{k+1}, q, v),
/// then v = v_free + W⁻¹ p, q = q_k ⊕ h(θ v + (1−θ) v_k); converged when
/// ‖R − p‖₂ ≤ tol for every system. Boundary conditions (prescribed velocity
/// components, §0.7) are enforced in the Newton iterations and their reaction
/// is stored in the system (SecondOrderDS::boundaryReaction()).
class NSDYN_KERNEL_API MoreauJeanOSI : public OneStepIntegrator {
 public:
  /// θ in [0, 1]; default 0.5.
  explicit MoreauJeanOSI(double theta = 0.5);
  ~MoreauJeanOSI() override;

  std::string className() const override { return "MoreauJeanOSI"; }
  bool accepts(const DynamicalSystem& ds) const override;
  DynamicalSystemKind systemKind() const override { return DynamicalSystemKind::Lagrangian; }
  unsigned levelForProblem() const override { return 1; }

  void initialize(const std::vector<SP::DynamicalSystem>& systems, double t0, double h) override;
  void computeFreeState(double tk, double tk1) override;
  SiconosVector computeFreeOutput(const UnitaryRelation& ur, double tk1) const override;
  SimpleMatrix computeDelassusBlock(const UnitaryRelation& a, const UnitaryRelation& b,
                                    const DynamicalSystem& ds, double tk1) const override;
  void updateState(double tk1) override;

  bool isNonlinear() const override;
  bool requiresNewton() const override;
  void setNewtonIterations(bool on) override { newton_ = on; }
  void prepareNewtonIteration(double tk, double tk1) override;
  bool computeResidual(double tk1, double tolerance) override;

  /// Energy-consistent constraints: bilateral rows (laws without impact, e.g.
  /// EqualityConditionNSL, on mechanical relations) hold on the θ-weighted
  /// velocity, H (θ v_{k+1} + (1−θ) v_k) = 0, with every Jacobian taken at the
  /// θ-point configuration q_k ⊕ θh(θ v_{k+1} + (1−θ) v_k), iterated by the
  /// Newton loop until the Jacobians agree with the iterate. With θ = 1/2 the
  /// joint impulses do no work: a double pendulum on hinges keeps its energy to
  /// the Newton tolerance (Examples/DoublePendulumHinges). Default off (the
  /// Siconos scheme of MECHANICS.md §0.4: H v_{k+1} = 0, H at the iterate).
  void setConstraintsAtMidpoint(bool on) { midpointConstraints_ = on; }
  bool constraintsAtMidpoint() const { return midpointConstraints_; }
  bool jacobiansAtThetaPoint() const override { return midpointConstraints_; }
  void moveToThetaPoint(bool on) override;

  /// Residual R of @p ds at the current Newton iterate (nsdyn::Error if not integrated here).
  const SiconosVector& residual(const DynamicalSystem& ds) const;

 private:
  struct System;
  System& data(const DynamicalSystem& ds);
  const System& data(const DynamicalSystem& ds) const;
  void computeW(System& s, double t);
  void residualOf(System& s, double tk1);
  std::vector<System> data_;          // one per integrated system, in the order of systems_
  std::map<int, std::size_t> index_;  // system number -> entry of data_
  bool midpointConstraints_ = false;
};

namespace SP {
using MoreauJeanOSI = std::shared_ptr<nsdyn::MoreauJeanOSI>;
}

}  // namespace nsdyn

#endif
