/// @file TimeSteppingDirectProjection.hpp
/// @brief Time-stepping that projects positions onto the constraints after each step.
#ifndef NSDYN_KERNEL_TIMESTEPPINGDIRECTPROJECTION_HPP
#define NSDYN_KERNEL_TIMESTEPPINGDIRECTPROJECTION_HPP

#include <memory>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/MoreauJeanDirectProjectionOSI.hpp"
#include "nsdyn/TimeStepping.hpp"

namespace nsdyn {

/// TimeStepping with MoreauJeanDirectProjectionOSI integrators (MECHANICS.md §0.9).
/// After the velocity step (Newton loop included), while a unilateral relation
/// of I1 penetrates by more than unilateralTolerance() (max(0, −y) on its normal
/// row) or an equality one is violated by more than equalityTolerance() (‖y‖∞),
/// and at most projectionMaxIteration() times: solve the MLCP
///   w = J Jᵀ μ + y,  0 ≤ w ⊥ μ ≥ 0 (unilateral rows),  w = 0 (equality rows),
/// with J = ∂h/∂q of those rows at the current q (no mass weighting), move
/// q ← q + Jᵀ μ and renormalise quaternions. Velocities are not changed; the
/// forces are re-evaluated at the projected positions. Projections per step are
/// in StepStatistics::projectionIterations; a step that ends still violated
/// is counted in projectionFailures().
class NSDYN_KERNEL_API TimeSteppingDirectProjection : public TimeStepping {
 public:
  TimeSteppingDirectProjection(SP::TimeDiscretisation td,
                               const SP::MoreauJeanDirectProjectionOSI& osi,
                               const SP::OneStepNSProblem& problem);

  int projectionMaxIteration() const { return maxIterations_; }
  void setProjectionMaxIteration(int n) { maxIterations_ = n; }
  double unilateralTolerance() const { return tolUnilateral_; }
  void setConstraintTolUnilateral(double tol) { tolUnilateral_ = tol; }
  double equalityTolerance() const { return tolEquality_; }
  void setConstraintTol(double tol) { tolEquality_ = tol; }
  /// MLCP solver of the projection (default "enum").
  const std::string& projectionSolver() const { return solver_; }
  void setProjectionSolver(std::string name) { solver_ = std::move(name); }
  /// Steps that ended with a violation above the tolerances.
  long projectionFailures() const { return failures_; }

  void initialize(Model& model) override;
  void updateIndexSets() override;

 protected:
  void afterStep(StepStatistics& stats) override;

 private:
  bool violated(const IndexSet& set) const;
  int maxIterations_ = 20;
  double tolUnilateral_ = 1e-8;
  double tolEquality_ = 1e-8;
  std::string solver_ = "enum";
  long failures_ = 0;
};

namespace SP {
using TimeSteppingDirectProjection = std::shared_ptr<nsdyn::TimeSteppingDirectProjection>;
}

}  // namespace nsdyn

#endif
