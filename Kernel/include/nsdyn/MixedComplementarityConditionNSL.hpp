/// @file MixedComplementarityConditionNSL.hpp
/// @brief n_eq equalities followed by n_comp complementarities.
#ifndef NSDYN_KERNEL_MIXEDCOMPLEMENTARITYCONDITIONNSL_HPP
#define NSDYN_KERNEL_MIXEDCOMPLEMENTARITYCONDITIONNSL_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NonSmoothLaw.hpp"

namespace nsdyn {

/// Rows 0 … n_eq−1: y = 0 with λ free; rows n_eq … n_eq+n_comp−1:
/// 0 ≤ y ⊥ λ ≥ 0. Each row is one UnitaryRelation. Solved by MLCP.
class NSDYN_KERNEL_API MixedComplementarityConditionNSL : public NonSmoothLaw {
 public:
  MixedComplementarityConditionNSL(std::size_t nEquality, std::size_t nComplementarity);
  NonSmoothLawKind kind() const override { return NonSmoothLawKind::MixedComplementarity; }
  std::string className() const override { return "MixedComplementarityConditionNSL"; }
  std::size_t equalitySize() const { return nEq_; }
  std::size_t complementaritySize() const { return size() - nEq_; }
  /// True for the complementarity rows (row ≥ n_eq).
  bool isComplementarityRow(std::size_t row) const { return row >= nEq_; }

 private:
  std::size_t nEq_;
};

namespace SP {
using MixedComplementarityConditionNSL = std::shared_ptr<nsdyn::MixedComplementarityConditionNSL>;
}

}  // namespace nsdyn

#endif
