// FixedJointR: weld of one body to the world or of two bodies.
#include "nsdyn/FixedJointR.hpp"

#include "JointMath.hpp"

namespace nsdyn {

using jointmath::Quat;
using jointmath::Vec3;

FixedJointR::FixedJointR(SP::NewtonEulerDS body1) : twoBodies_(false) {
  init(std::move(body1), nullptr);
}

FixedJointR::FixedJointR(SP::NewtonEulerDS body1, SP::NewtonEulerDS body2) : twoBodies_(true) {
  init(std::move(body1), std::move(body2));
}

void FixedJointR::init(SP::NewtonEulerDS body1, SP::NewtonEulerDS body2) {
  jointmath::checkBodies(className(), body1, body2, twoBodies_);
  const jointmath::BodyState b1 = jointmath::bodyState(*body1);
  if (twoBodies_) {
    const jointmath::BodyState b2 = jointmath::bodyState(*body2);
    G1P0_ = jointmath::toBodyFrame(b1.Q, jointmath::sub(b2.G, b1.G));
    G2P0_ = {0.0, 0.0, 0.0};
    c_ = quaternion::multiply(quaternion::conjugate(b2.Q), b1.Q);
  } else {
    G1P0_ = {0.0, 0.0, 0.0};
    G2P0_ = b1.G;
    c_ = b1.Q;
  }
  cConj_ = quaternion::conjugate(c_);
  body1_ = body1;
  body2_ = body2;
}

void FixedJointR::checkSizes(std::size_t interactionSize, std::size_t dof,
                             const std::string& owner) const {
  jointmath::checkJointSizes(className(), 6, bodyCount(), interactionSize, dof, owner);
}

void FixedJointR::checkConsistency(const Interaction& inter) const {
  checkSizes(inter.size(), inter.positionDof(), inter.name());
  jointmath::checkLinkedBodies(inter, className(), body1_, body2_, twoBodies_);
}

SiconosVector FixedJointR::computeh(const SiconosVector& q, double /*t*/) const {
  jointmath::checkJointSizes(className(), 6, bodyCount(), 6, q.size(), className());
  const Vec3 p = jointmath::pointResidual(q, twoBodies_, G1P0_, G2P0_);
  Quat Q2{1.0, 0.0, 0.0, 0.0};
  if (twoBodies_) Q2 = jointmath::bodyState(q, 1).Q;
  const jointmath::RelativeQuaternion r = jointmath::relativeQuaternion(
      nullptr, jointmath::bodyState(q, 0).Q, twoBodies_ ? &Q2 : nullptr, &cConj_);
  SiconosVector h(6);
  for (std::size_t i = 0; i < 3; ++i) {
    h(i) = p[i];
    h(3 + i) = r.value[1 + i];
  }
  return h;
}

SimpleMatrix FixedJointR::computeJacobianQ(const SiconosVector& q, double /*t*/) const {
  jointmath::checkJointSizes(className(), 6, bodyCount(), 6, q.size(), className());
  SimpleMatrix J(6, 7 * bodyCount());
  jointmath::pointJacobian(J, 0, q, twoBodies_, G1P0_, G2P0_);
  Quat Q2{1.0, 0.0, 0.0, 0.0};
  if (twoBodies_) Q2 = jointmath::bodyState(q, 1).Q;
  const jointmath::RelativeQuaternion r = jointmath::relativeQuaternion(
      nullptr, jointmath::bodyState(q, 0).Q, twoBodies_ ? &Q2 : nullptr, &cConj_);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t k = 0; k < 4; ++k) {
      J(3 + i, 3 + k) = r.d1[k][1 + i];
      if (twoBodies_) J(3 + i, 10 + k) = r.d2[k][1 + i];
    }
  return J;
}

SiconosVector FixedJointR::G1P0() const {
  return jointmath::toSiconos(Vec3(G1P0_));
}
SiconosVector FixedJointR::G2P0() const {
  return jointmath::toSiconos(Vec3(G2P0_));
}
SiconosVector FixedJointR::initialOrientation() const {
  return jointmath::toSiconos(Quat(c_));
}

}  // namespace nsdyn
