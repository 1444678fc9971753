/// @file FixedJointR.hpp
/// @brief Fixed (weld) joint: no relative motion at all.
#ifndef NSDYN_KERNEL_FIXEDJOINTR_HPP
#define NSDYN_KERNEL_FIXEDJOINTR_HPP

#include <array>
#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NewtonEulerJointR.hpp"

namespace nsdyn {

/// Fixed joint, 6 rows, for EqualityConditionNSL(6).
///
/// Rows 0..2: the ball joint of KneeJointR at the centre of mass of body 2 (one
/// body: of body 1), i.e. h = G1 + R(q1)·G1G2 − G2 with G1G2 = q1⁻¹⊗(G2 − G1)⊗q1
/// at construction (one body: h = G1 − G1 at construction).
/// Rows 3..5: the relative orientation rows of PrismaticJointR, vec(q2*⊗q1⊗c*)
/// with c = q2*⊗q1 at construction (one body: vec(q1⊗c*), c = q1 at construction).
/// jachq exact, H = jachq·T. h = 0 at construction. The interaction must link
/// body1 (then body2), in that order.
class NSDYN_KERNEL_API FixedJointR : public NewtonEulerJointR {
 public:
  /// @p body1 welded to the world.
  explicit FixedJointR(SP::NewtonEulerDS body1);
  /// @p body1 and @p body2 welded together; nsdyn::Error naming the joint for a
  /// null body or the same body twice.
  FixedJointR(SP::NewtonEulerDS body1, SP::NewtonEulerDS body2);

  std::string className() const override { return "FixedJointR"; }
  SiconosVector computeh(const SiconosVector& q, double t) const override;
  SimpleMatrix computeJacobianQ(const SiconosVector& q, double t) const override;

  /// Centre of body 2 in the body-1 frame at construction (one body: zeros).
  SiconosVector G1P0() const;
  /// Zeros (two bodies) or the centre of body 1 at construction (one body, world).
  SiconosVector G2P0() const;
  /// Relative orientation c at construction (4 entries; one body: q1).
  SiconosVector initialOrientation() const;

 private:
  void init(const NewtonEulerDS& body1, const NewtonEulerDS* body2);

  std::array<double, 3> G1P0_{}, G2P0_{};
  std::array<double, 4> c_{}, cConj_{};
};

namespace SP {
using FixedJointR = std::shared_ptr<nsdyn::FixedJointR>;
}

}  // namespace nsdyn

#endif
