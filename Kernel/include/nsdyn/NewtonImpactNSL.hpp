/// @file NewtonImpactNSL.hpp
/// @brief Newton impact law: 0 ≤ ẏ⁺ + e ẏ⁻ ⊥ λ ≥ 0 on active contacts.
#ifndef NSDYN_KERNEL_NEWTONIMPACTNSL_HPP
#define NSDYN_KERNEL_NEWTONIMPACTNSL_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NonSmoothLaw.hpp"

namespace nsdyn {

/// Unilateral contact with Newton's impact law, restitution coefficient e in
/// [0, 1]: for an active contact 0 ≤ ẏ_{k+1} + e ẏ_k ⊥ λ ≥ 0. Each row is one
/// UnitaryRelation. nsdyn::Error if e < 0 or size = 0.
class NSDYN_KERNEL_API NewtonImpactNSL : public NonSmoothLaw {
 public:
  explicit NewtonImpactNSL(double e, std::size_t size = 1);
  NonSmoothLawKind kind() const override { return NonSmoothLawKind::NewtonImpact; }
  std::string className() const override { return "NewtonImpactNSL"; }
  bool isImpactLaw() const override { return true; }
  double restitution(std::size_t /*row*/) const override { return e_; }
  double e() const { return e_; }

 private:
  double e_;
};

namespace SP {
using NewtonImpactNSL = std::shared_ptr<nsdyn::NewtonImpactNSL>;
}

}  // namespace nsdyn

#endif
