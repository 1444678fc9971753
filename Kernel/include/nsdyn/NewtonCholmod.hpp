/// @file NewtonCholmod.hpp
/// @brief The Newton peridynamic stepper ("newton"): the step energy Φ minimised by Newton
///        iterations with a sparse Cholesky (CHOLMOD, through the Numerics factor API).
#ifndef NSDYN_NEWTONCHOLMOD_HPP
#define NSDYN_NEWTONCHOLMOD_HPP

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicStepper.hpp"

namespace nsdyn {

namespace peridynamics {
class StepMatrix;
}

/// Newton on Φ: H = M/(h²θ²) + K (statics: K), K = −∂f/∂x from material().tangent (bond
/// blocks and diagonal blocks), over the free points only (prescribed ones are held), stored
/// as the lower triangle of a symmetric CSC matrix. The pattern holds every bond, broken ones
/// included (as zeros), so CHOLMOD's symbolic analysis is made once per body, bond list and
/// prescribed set; each iteration refactors. A matrix that is not positive definite (a
/// tangent that is not, a floating body in statics) is shifted by a growing multiple of its
/// diagonal until it factors (CHOLMOD's own threads: options.threads; 0: one per 2048 points
/// at most).
/// Backtracking (Armijo) line search on Φ. Memory beyond the body:
/// the tangent blocks (72 bytes per directed bond), the CSC matrix (54 bytes per directed
/// bond: half the blocks, values and row indices) and the Cholesky factor.
class NSDYN_KERNEL_API NewtonCholmod final : public PeridynamicStepper {
 public:
  NewtonCholmod();
  ~NewtonCholmod() override;
  NewtonCholmod(const NewtonCholmod&) = delete;
  NewtonCholmod& operator=(const NewtonCholmod&) = delete;
  std::string name() const override { return "newton"; }
  PeridynamicStepReport freeStep(const PeridynamicBody& body, const PeridynamicStepOptions& options,
                                 double* x, double* v) override;
  /// Symbolic analyses made so far (one per bond pattern).
  int analyses() const;

 private:
  std::unique_ptr<peridynamics::StepMatrix> matrix_;  // H, its pattern and its factor
  std::vector<double> f_, g_, gt_, d_, xt_, ft_;
};

}  // namespace nsdyn

#endif
