/// @file FirstOrderLinearR.hpp
/// @brief First-order linear relation y = C x + D λ + F u + e, r = B λ.
#ifndef NSDYN_KERNEL_FIRSTORDERLINEARR_HPP
#define NSDYN_KERNEL_FIRSTORDERLINEARR_HPP

#include <functional>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Relation.hpp"
#include "nsdyn/SimpleMatrix.hpp"

namespace nsdyn {

/// First-order linear relation  y = C(t) x + D(t) λ + F u(t) + e(t),  r = B(t) λ.
/// x is the concatenation of the linked systems' states. Sizes, with m the
/// interaction (law) size and n the total dimension of the linked systems:
/// C m x n, D m x m (square), B n x m, e m entries, F m x (size of u).
/// Every term except C and B is optional (zero). Each of C, D, B, e may be a
/// constant or a function of t (the time-invariant relation is FirstOrderLinearTIR).
class NSDYN_KERNEL_API FirstOrderLinearR : public Relation {
 public:
  using MatrixFunction = std::function<SimpleMatrix(double t)>;
  using VectorFunction = std::function<SiconosVector(double t)>;

  /// y = C x (+ ...), r = B λ, constants.
  FirstOrderLinearR(SimpleMatrix C, SimpleMatrix B);
  /// y = C(t) x (+ ...), r = B(t) λ.
  FirstOrderLinearR(MatrixFunction C, MatrixFunction B);

  RelationKind kind() const override { return RelationKind::FirstOrder; }
  std::string className() const override { return "FirstOrderLinearR"; }
  void checkSizes(std::size_t interactionSize, std::size_t dof,
                  const std::string& owner) const override;
  bool accepts(const DynamicalSystem& ds) const override;
  std::string acceptedSystems() const override { return "first-order systems"; }
  unsigned inputLevel() const override { return 0; }
  bool outputIsGap() const override { return false; }
  bool isLinear() const override { return true; }
  /// C(t) as the interaction's Jacobian.
  void computeJacobians(Interaction& inter, double t) const override;
  /// y(0) = C x + D λ(0) + F u + e.
  void computeOutput(Interaction& inter, double t, bool updateJacobians) const override;
  /// r = B(t) λ(0).
  SiconosVector computeInput(const Interaction& inter, double t) const override;
  /// The D block of rows @p a, columns @p b (same interaction).
  void addSelfCoupling(SimpleMatrix& block, const UnitaryRelation& a, const UnitaryRelation& b,
                       double t) const override;

  void setC(SimpleMatrix C);
  void setC(MatrixFunction C);
  void setD(SimpleMatrix D);
  void setD(MatrixFunction D);
  void setB(SimpleMatrix B);
  void setB(MatrixFunction B);
  void sete(SiconosVector e);
  void sete(VectorFunction e);
  /// The F u term: constant F and u(t).
  void setF(SimpleMatrix F, VectorFunction u);
  /// The F u term with a constant u.
  void setF(SimpleMatrix F, SiconosVector u);

  bool hasD() const { return hasD_; }
  bool hasE() const { return hasE_; }
  bool hasF() const { return hasF_; }
  bool isTimeInvariant() const { return !cFunction_ && !dFunction_ && !bFunction_; }

  /// C(t), D(t) (m x m zeros when none), B(t), e(t) (zeros when none) and F u(t) (zeros when none).
  /// @p m is the interaction size, used for the zero defaults.
  SimpleMatrix computeC(double t) const;
  SimpleMatrix computeD(double t, std::size_t m) const;
  SimpleMatrix computeB(double t) const;
  SiconosVector computee(double t, std::size_t m) const;
  SiconosVector computeFu(double t, std::size_t m) const;

 private:
  SimpleMatrix C_, D_, B_, F_;
  SiconosVector e_, u_;
  MatrixFunction cFunction_, dFunction_, bFunction_;
  VectorFunction eFunction_, uFunction_;
  bool hasD_ = false, hasE_ = false, hasF_ = false;
};

namespace SP {
using FirstOrderLinearR = std::shared_ptr<nsdyn::FirstOrderLinearR>;
}

}  // namespace nsdyn

#endif
