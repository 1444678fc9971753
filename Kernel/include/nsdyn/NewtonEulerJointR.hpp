/// @file NewtonEulerJointR.hpp
/// @brief Base of the joints: a fixed number of rows between one body and the world or two bodies.
#ifndef NSDYN_KERNEL_NEWTONEULERJOINTR_HPP
#define NSDYN_KERNEL_NEWTONEULERJOINTR_HPP

#include <memory>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/NewtonEulerR.hpp"

namespace nsdyn {

/// Abstract base of the joints (KneeJointR, PivotJointR, PrismaticJointR,
/// FixedJointR): @ref rows() equality rows, for EqualityConditionNSL(rows()), between
/// body 1 and the world (one body) or body 1 and body 2.
///
/// It keeps the bodies given at construction (weakly: a joint does not keep its
/// bodies alive) and makes the checks every joint shares:
/// * construction: a null body, or the same body twice, is an nsdyn::Error naming the joint;
/// * checkSizes: law size rows() and 7 × bodyCount() position coordinates;
/// * checkConsistency: the interaction links exactly body 1 (then body 2), in that order.
/// A joint gives className(), computeh and computeJacobianQ (exact, 7 columns per body).
class NSDYN_KERNEL_API NewtonEulerJointR : public NewtonEulerR {
 public:
  std::string className() const override = 0;
  /// Law size rows() and 7 × bodyCount() coordinates (@p owner names the errors).
  void checkSizes(std::size_t interactionSize, std::size_t dof,
                  const std::string& owner) const override;
  /// checkSizes and the linked bodies (body1, body2 in that order; a body that no
  /// longer exists is not checked).
  void checkConsistency(const Interaction& inter) const override;

  SiconosVector computeh(const SiconosVector& q, double t) const override = 0;
  SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const override = 0;

  /// Number of rows of the joint (its law size).
  std::size_t rows() const { return rows_; }
  /// 1 (body 1 to the world) or 2.
  std::size_t bodyCount() const { return twoBodies_ ? 2 : 1; }
  /// The bodies given at construction; null once a body no longer exists, and
  /// body2() null for a joint to the world.
  SP::NewtonEulerDS body1() const { return body1_.lock(); }
  SP::NewtonEulerDS body2() const { return body2_.lock(); }

 protected:
  /// Joint of @p rows rows named @p jointName (for the errors: the constructor
  /// cannot call className()) of @p body1 to the world; nsdyn::Error if it is null.
  NewtonEulerJointR(const std::string& jointName, std::size_t rows, SP::NewtonEulerDS body1);
  /// Joint between @p body1 and @p body2; nsdyn::Error for a null body or the same body twice.
  NewtonEulerJointR(const std::string& jointName, std::size_t rows, SP::NewtonEulerDS body1,
                    SP::NewtonEulerDS body2);

  bool twoBodies() const { return twoBodies_; }
  /// The check of computeh and computeJacobianQ: q of 7 × bodyCount() entries.
  void checkQ(const SiconosVector& q) const;

 private:
  std::size_t rows_;
  bool twoBodies_;
  std::weak_ptr<NewtonEulerDS> body1_, body2_;
};

namespace SP {
using NewtonEulerJointR = std::shared_ptr<nsdyn::NewtonEulerJointR>;
}

}  // namespace nsdyn

#endif
