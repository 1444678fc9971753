/// @file FirstOrderLinearTIR.hpp
/// @brief First-order linear time-invariant relation y = C x + D λ + F u + e, r = B λ.
#ifndef NSDYN_KERNEL_FIRSTORDERLINEARTIR_HPP
#define NSDYN_KERNEL_FIRSTORDERLINEARTIR_HPP

#include <memory>

#include "nsdyn/FirstOrderLinearR.hpp"
#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// FirstOrderLinearR with constant C, D, B (and e): y = C x + D λ + e, r = B λ.
class NSDYN_KERNEL_API FirstOrderLinearTIR : public FirstOrderLinearR {
 public:
  /// y = C x, r = B λ.
  FirstOrderLinearTIR(SimpleMatrix C, SimpleMatrix B);
  /// y = C x + D λ, r = B λ.
  FirstOrderLinearTIR(SimpleMatrix C, SimpleMatrix D, SimpleMatrix B);
  /// y = C x + D λ + e, r = B λ.
  FirstOrderLinearTIR(SimpleMatrix C, SimpleMatrix D, SimpleMatrix B, SiconosVector e);

  std::string className() const override { return "FirstOrderLinearTIR"; }
};

namespace SP {
using FirstOrderLinearTIR = std::shared_ptr<nsdyn::FirstOrderLinearTIR>;
}

}  // namespace nsdyn

#endif
