/// @file SuccessiveSubstitution.hpp
/// @brief The default peridynamic stepper ("substitution"): the implicit θ-step as the
///        minimisation of the step energy Φ by semi-implicit successive substitution.
#ifndef NSDYN_SUCCESSIVESUBSTITUTION_HPP
#define NSDYN_SUCCESSIVESUBSTITUTION_HPP

#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicStepper.hpp"

namespace nsdyn {

/// Semi-implicit successive substitution (no Hessian). Each iteration moves every free
/// point along d_i = −g_i / (m_i + h²θ² a_i) (statics: −g_i / a_i), g = ∇Φ and a_i the
/// material's implicitStiffness (the implicit, always-positive part, refreshed every 10
/// iterations), so that the new x_i is a convex combination of y_i and its neighbours'
/// terms. With options.accelerate the directions are made conjugate (Polak–Ribière+ on the
/// scaled gradient) and restarted when one does not descend.
/// Line search (options.lineSearch): a trial step t (the last accepted one, 1 at first)
/// gives Φ(x + t d) and the directional derivative there; the secant on the directional
/// derivative (its first-order Taylor expansion) gives α; t is kept when it decreased Φ and α
/// is within 10 % of it, otherwise Φ(x + α d) is evaluated and the better of the two taken if
/// Φ decreases, else the step is halved until it does. A change of Φ within the round-off of
/// its evaluation (1e-13 relative) is accepted only when ‖∇Φ‖ decreases. So Φ never
/// increases beyond round-off (report.monotone); without the line search α = 1 and
/// report.monotone says what happened. Stops at the relative residual options.tolerance, or
/// when no step is accepted (round-off; status NSD_MAX_ITERATIONS if the tolerance is not
/// met). Measured (PeridynamicStepperTest, Benchmarks/peridynamics_solvers): the conjugate
/// directions take 3.5 to 5 times fewer iterations than Jacobi's (8³ block, h = 10 stable
/// steps: 47 against 249; 47³ block: 35 against 139) at about 1.9 force passes per
/// iteration. OpenMP over points; the reductions are summed over fixed chunks of points in
/// order: the same bits for any thread count.
class NSDYN_KERNEL_API SuccessiveSubstitution final : public PeridynamicStepper {
 public:
  std::string name() const override { return "substitution"; }
  PeridynamicStepReport freeStep(const PeridynamicBody& body, const PeridynamicStepOptions& options,
                                 double* x, double* v) override;

 private:
  std::vector<double> f_, g_, gPrev_, a_, d_, z_, xt_, ft_, gt_, xa_, fa_, ga_;
};

}  // namespace nsdyn

#endif
