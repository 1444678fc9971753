/// @file EqualityConditionNSL.hpp
/// @brief Equality y = 0 with a free multiplier λ.
#ifndef NSDYN_KERNEL_EQUALITYCONDITIONNSL_HPP
#define NSDYN_KERNEL_EQUALITYCONDITIONNSL_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NonSmoothLaw.hpp"

namespace nsdyn {

/// y = 0, λ free, on @p size rows (each row one UnitaryRelation). Solved by MLCP.
class NSDYN_KERNEL_API EqualityConditionNSL : public NonSmoothLaw {
 public:
  explicit EqualityConditionNSL(std::size_t size);
  NonSmoothLawKind kind() const override { return NonSmoothLawKind::Equality; }
  std::string className() const override { return "EqualityConditionNSL"; }
};

namespace SP {
using EqualityConditionNSL = std::shared_ptr<nsdyn::EqualityConditionNSL>;
}

}  // namespace nsdyn

#endif
