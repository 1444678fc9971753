/// @file NewtonEulerR.hpp
/// @brief Relations of rigid bodies (NewtonEulerDS): y = h(q, t), ẏ = H v, p = Hᵀ λ.
#ifndef NSDYN_KERNEL_NEWTONEULERR_HPP
#define NSDYN_KERNEL_NEWTONEULERR_HPP

#include <functional>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/LagrangianR.hpp"

namespace nsdyn {

/// Relation between one or two rigid bodies (MECHANICS.md §0.6), and the base
/// of the rigid-body contacts (NewtonEuler1DR, NewtonEuler3DR) and, through NewtonEulerJointR, of
/// the joints (KneeJointR, PrismaticJointR, PivotJointR, FixedJointR).
///
/// @p q is (q1) or (q1; q2), each a body's 7-vector (centre of mass, quaternion);
/// jachq = ∂h/∂q has 7 columns per body; the velocity Jacobian is by default
/// H = jachq · blockdiag(T(q1), T(q2)) (6 columns per body, body 1 first).
///
/// Two forms:
/// * user callables h(q, t) and jachq(q, t) (sizes checked at link time by
///   evaluating them at the interaction's q);
/// * constant: h = C q + e, jachq = C (e.g. a floor under body 3 of
///   MECHANICS.md §4: C = (0,0,1,0,0,0,0), e = (2.3)).
/// Linked systems must be NewtonEulerDS. isLinear() is false (H depends on q through T).
class NSDYN_KERNEL_API NewtonEulerR : public LagrangianR {
 public:
  using OutputFunction = std::function<SiconosVector(const SiconosVector& q, double t)>;
  using JacobianFunction = std::function<SimpleMatrix(const SiconosVector& q, double t)>;

  /// User relation: y = h(q, t), jachq = jachq(q, t); nsdyn::Error if either is empty.
  NewtonEulerR(OutputFunction h, JacobianFunction jachq);
  /// Constant relation y = C q + e (C: law size × 7·bodies, e: law size entries);
  /// nsdyn::Error if the sizes differ.
  NewtonEulerR(SimpleMatrix C, SiconosVector e);
  /// Constant relation y = C q.
  explicit NewtonEulerR(SimpleMatrix C);

  std::string className() const override { return "NewtonEulerR"; }
  /// NewtonEulerDS only.
  bool accepts(const DynamicalSystem& ds) const override;
  std::string acceptedSystems() const override { return "rigid bodies (NewtonEulerDS)"; }
  /// Constant form: C is interactionSize × dof. Every form: dof is 7 or 14.
  void checkSizes(std::size_t interactionSize, std::size_t dof,
                  const std::string& owner) const override;
  /// checkSizes, and for the user form h and jachq evaluated at the interaction's q and checked.
  void checkConsistency(const Interaction& inter) const override;
  bool isLinear() const override { return false; }

  SiconosVector computeh(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const override;

  /// Whether this is the constant form (C, e).
  bool isConstant() const { return constant_; }
  /// C and e of the constant form (empty otherwise).
  const SimpleMatrix& C() const { return C_; }
  const SiconosVector& e() const { return e_; }

 protected:
  /// For derived relations that override computeh and computeJacobianQ.
  NewtonEulerR() = default;

 private:
  OutputFunction h_;
  JacobianFunction jachq_;
  SimpleMatrix C_;
  SiconosVector e_;
  bool constant_ = false;
};

namespace SP {
using NewtonEulerR = std::shared_ptr<nsdyn::NewtonEulerR>;
}

}  // namespace nsdyn

#endif
