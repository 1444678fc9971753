/// @file ComplementarityConditionNSL.hpp
/// @brief Complementarity 0 ≤ y ⊥ λ ≥ 0.
#ifndef NSDYN_KERNEL_COMPLEMENTARITYCONDITIONNSL_HPP
#define NSDYN_KERNEL_COMPLEMENTARITYCONDITIONNSL_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NonSmoothLaw.hpp"

namespace nsdyn {

/// 0 ≤ y ⊥ λ ≥ 0 componentwise, on @p size rows (each row one UnitaryRelation).
/// For first-order systems the rows are always in the problem (no active set).
class NSDYN_KERNEL_API ComplementarityConditionNSL : public NonSmoothLaw {
 public:
  explicit ComplementarityConditionNSL(std::size_t size);
  NonSmoothLawKind kind() const override { return NonSmoothLawKind::Complementarity; }
  std::string className() const override { return "ComplementarityConditionNSL"; }
};

namespace SP {
using ComplementarityConditionNSL = std::shared_ptr<nsdyn::ComplementarityConditionNSL>;
}

}  // namespace nsdyn

#endif
