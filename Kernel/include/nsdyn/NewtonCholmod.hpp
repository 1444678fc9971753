/// @file NewtonCholmod.hpp
/// @brief The Newton peridynamic stepper ("newton"): the step energy Φ minimised by Newton
///        iterations with a sparse Cholesky (CHOLMOD, through the Numerics factor API).
#ifndef NSDYN_NEWTONCHOLMOD_HPP
#define NSDYN_NEWTONCHOLMOD_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicStepper.hpp"

struct NsdFactor;

namespace nsdyn {

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
  NewtonCholmod() = default;
  ~NewtonCholmod() override;
  NewtonCholmod(const NewtonCholmod&) = delete;
  NewtonCholmod& operator=(const NewtonCholmod&) = delete;
  std::string name() const override { return "newton"; }
  PeridynamicStepReport freeStep(const PeridynamicBody& body, const PeridynamicStepOptions& options,
                                 double* x, double* v) override;
  /// Symbolic analyses made so far (one per bond pattern).
  int analyses() const { return analyses_; }

 private:
  void buildPattern(const PeridynamicBody& body);
  // pattern key
  const PeridynamicBody* patternBody_ = nullptr;
  std::size_t patternPoints_ = 0, patternBonds_ = 0;
  std::vector<std::uint8_t> patternFixed_;
  // CSC lower triangle over the free dofs
  std::vector<int> freeIndex_, colStart_, rowIndex_, diagPos_;
  std::vector<double> values_;
  NsdFactor* factor_ = nullptr;
  int analyses_ = 0;
  std::vector<double> K_, diag_, f_, g_, gt_, d_, xt_, ft_, rhs_;
};

}  // namespace nsdyn

#endif
