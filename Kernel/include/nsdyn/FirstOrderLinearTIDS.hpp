/// @file FirstOrderLinearTIDS.hpp
/// @brief First-order linear time-invariant system ẋ = A x + b + r.
#ifndef NSDYN_KERNEL_FIRSTORDERLINEARTIDS_HPP
#define NSDYN_KERNEL_FIRSTORDERLINEARTIDS_HPP

#include <memory>

#include "nsdyn/FirstOrderLinearDS.hpp"
#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// First-order linear system with constant A and b:  ẋ = A x + b + r.
class NSDYN_KERNEL_API FirstOrderLinearTIDS : public FirstOrderLinearDS {
 public:
  /// ẋ = A x + r.
  FirstOrderLinearTIDS(SiconosVector x0, SimpleMatrix A);
  /// ẋ = A x + b + r.
  FirstOrderLinearTIDS(SiconosVector x0, SimpleMatrix A, SiconosVector b);

  std::string className() const override { return "FirstOrderLinearTIDS"; }
};

namespace SP {
using FirstOrderLinearTIDS = std::shared_ptr<nsdyn::FirstOrderLinearTIDS>;
}

}  // namespace nsdyn

#endif
