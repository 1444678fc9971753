/// @file FirstOrderLinearDS.hpp
/// @brief First-order linear system ẋ = A(t) x + b(t) + r.
#ifndef NSDYN_KERNEL_FIRSTORDERLINEARDS_HPP
#define NSDYN_KERNEL_FIRSTORDERLINEARDS_HPP

#include <functional>
#include <memory>

#include "nsdyn/DynamicalSystem.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {

/// First-order linear system  ẋ = A(t) x + b(t) + r, with A and b constants
/// or functions of time (b optional, zero when not set). r is the nonsmooth
/// input from the interactions (r = B λ), written by the simulation; it is
/// treated as an impulse-free input: the integrator applies h r over a step.
class NSDYN_KERNEL_API FirstOrderLinearDS : public DynamicalSystem {
 public:
  /// A(t): n x n.
  using MatrixFunction = std::function<SimpleMatrix(double t)>;
  /// b(t): n entries.
  using VectorFunction = std::function<SiconosVector(double t)>;

  /// System with a constant A (n x n, n = x0.size()).
  FirstOrderLinearDS(SiconosVector x0, SimpleMatrix A);
  /// System with constant A and b.
  FirstOrderLinearDS(SiconosVector x0, SimpleMatrix A, SiconosVector b);
  /// System with A(t).
  FirstOrderLinearDS(SiconosVector x0, MatrixFunction A);

  DynamicalSystemKind kind() const override { return DynamicalSystemKind::FirstOrder; }
  std::string className() const override { return "FirstOrderLinearDS"; }
  std::size_t dimension() const override { return x_.size(); }
  void checkConsistency() const override;
  void swapInMemory() override;
  void resetNonSmoothInput() override { r_.zero(); }
  const SiconosVector& relationState() const override { return x_; }
  void addNonSmoothInput(const SiconosVector& part) override { r_ += part; }
  std::vector<SiconosVector*> checkpointState() override { return {&x_, &r_}; }
  bool isTimeInvariant() const override { return !aFunction_; }

  /// State x (current value) and mutable.
  const SiconosVector& x() const { return x_; }
  SiconosVector& xMutable() { return x_; }
  /// x at the start of the current step.
  const SiconosVector& xMemory() const { return xMemory_; }
  const SiconosVector& x0() const { return x0_; }
  /// Nonsmooth input r = B λ of the current step.
  const SiconosVector& r() const { return r_; }
  SiconosVector& rMutable() { return r_; }

  /// Constant A, or A(t) as last computed by computeA().
  const SimpleMatrix& A() const { return A_; }
  void setA(SimpleMatrix A);
  void setA(MatrixFunction A);
  void setb(SiconosVector b);
  void setb(VectorFunction b);
  bool hasb() const { return hasB_; }

  /// A(t) (the constant A when time invariant).
  SimpleMatrix computeA(double t) const;
  /// b(t) (zeros when no b).
  SiconosVector computeb(double t) const;
  /// The vector field A(t) x + b(t) + r at the current x and r.
  SiconosVector computeRhs(double t) const;

 protected:
  SiconosVector x0_, x_, xMemory_, r_;
  SimpleMatrix A_;
  MatrixFunction aFunction_;
  SiconosVector b_;
  VectorFunction bFunction_;
  bool hasB_ = false;
};

namespace SP {
using FirstOrderLinearDS = std::shared_ptr<nsdyn::FirstOrderLinearDS>;
}

}  // namespace nsdyn

#endif
