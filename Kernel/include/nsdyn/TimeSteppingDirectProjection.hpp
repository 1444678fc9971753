/// @file TimeSteppingDirectProjection.hpp
/// @brief Time-stepping that projects positions onto the constraints after each step.
#ifndef NSDYN_KERNEL_TIMESTEPPINGDIRECTPROJECTION_HPP
#define NSDYN_KERNEL_TIMESTEPPINGDIRECTPROJECTION_HPP

#include <map>
#include <memory>
#include <string>
#include <vector>

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
/// The contacts of a ContactManager (InteractionManager::contactSet()) take part as
/// unilateral rows too: each contact in the step's problem or overlapping at the step's
/// end, its gap at the end linearised from the step start, gap_k + h (θ u_n,k+1 + (1 − θ)
/// u_n,k), its normal Jacobian row (at the step start) in q space, the gap following the
/// corrections linearly; so joint drift and penetration are corrected together.
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
  /// contactRows_, contactGaps_: the ContactManager's contacts in the projection.
  void contactRows(const std::map<int, std::size_t>& offset, std::size_t nq);
  std::vector<std::vector<double>> contactRows_;
  std::vector<double> contactGaps_;
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
