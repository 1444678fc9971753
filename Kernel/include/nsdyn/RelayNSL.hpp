/// @file RelayNSL.hpp
/// @brief Relay law −y ∈ N_[lb,ub](λ).
#ifndef NSDYN_KERNEL_RELAYNSL_HPP
#define NSDYN_KERNEL_RELAYNSL_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NonSmoothLaw.hpp"

namespace nsdyn {

/// Relay (set-valued sign) on @p size rows with bounds lb < ub (the same for
/// every row): λ = lb ⇒ y ≥ 0, λ = ub ⇒ y ≤ 0, lb < λ < ub ⇒ y = 0.
/// Defaults lb = −1, ub = 1. Each row is one UnitaryRelation. Solved by Relay.
class NSDYN_KERNEL_API RelayNSL : public NonSmoothLaw {
 public:
  explicit RelayNSL(std::size_t size, double lb = -1.0, double ub = 1.0);
  NonSmoothLawKind kind() const override { return NonSmoothLawKind::Relay; }
  std::string className() const override { return "RelayNSL"; }
  double lb() const { return lb_; }
  double ub() const { return ub_; }

 private:
  double lb_, ub_;
};

namespace SP {
using RelayNSL = std::shared_ptr<nsdyn::RelayNSL>;
}

}  // namespace nsdyn

#endif
