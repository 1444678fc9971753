/// @file LagrangianLinearTIDS.hpp
/// @brief Linear time-invariant Lagrangian system M v̇ + C v + K q = F_ext(t) + p.
#ifndef NSDYN_KERNEL_LAGRANGIANLINEARTIDS_HPP
#define NSDYN_KERNEL_LAGRANGIANLINEARTIDS_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/LagrangianDS.hpp"

namespace nsdyn {

/// Linear time-invariant Lagrangian system  M v̇ + C v + K q = F_ext(t) + p
/// with constant M, C (damping) and K (stiffness), i.e. F_int = C v + K q.
/// C and K are optional (zero when not set). F_ext is constant or a function
/// of time (LagrangianDS::setFExt).
class NSDYN_KERNEL_API LagrangianLinearTIDS : public LagrangianDS {
 public:
  /// System without stiffness and damping.
  LagrangianLinearTIDS(SiconosVector q0, SiconosVector v0, SimpleMatrix mass);
  /// System with stiffness K and damping C (both n x n).
  LagrangianLinearTIDS(SiconosVector q0, SiconosVector v0, SimpleMatrix mass, SimpleMatrix K,
                       SimpleMatrix C);

  std::string className() const override { return "LagrangianLinearTIDS"; }
  void checkConsistency() const override;

  void setK(SimpleMatrix K);
  void setC(SimpleMatrix C);
  bool hasK() const { return hasK_; }
  bool hasC() const { return hasC_; }
  /// Stiffness (n x n zeros when not set).
  const SimpleMatrix& K() const { return K_; }
  /// Damping (n x n zeros when not set).
  const SimpleMatrix& C() const { return C_; }

  SiconosVector computeFInt(const SiconosVector& q, const SiconosVector& v,
                            double t) const override;
  SimpleMatrix computeJacobianFIntq(const SiconosVector& q, const SiconosVector& v,
                                    double t) const override;
  SimpleMatrix computeJacobianFIntv(const SiconosVector& q, const SiconosVector& v,
                                    double t) const override;

 private:
  SimpleMatrix K_, C_;
  bool hasK_ = false, hasC_ = false;
};

namespace SP {
using LagrangianLinearTIDS = std::shared_ptr<nsdyn::LagrangianLinearTIDS>;
}

}  // namespace nsdyn

#endif
