// PivotJointR: hinge of one body to the world or between two bodies.
#include "nsdyn/PivotJointR.hpp"

#include "JointMath.hpp"

namespace nsdyn {

using jointmath::Quat;
using jointmath::Vec3;

PivotJointR::PivotJointR(const SiconosVector& P, const SiconosVector& axis, bool absoluteRef,
                         SP::NewtonEulerDS body1)
    : P_(P), axisGiven_(axis), absoluteRef_(absoluteRef), twoBodies_(false) {
  init(std::move(body1), nullptr);
}

PivotJointR::PivotJointR(const SiconosVector& P, const SiconosVector& axis, bool absoluteRef,
                         SP::NewtonEulerDS body1, SP::NewtonEulerDS body2)
    : P_(P), axisGiven_(axis), absoluteRef_(absoluteRef), twoBodies_(true) {
  init(std::move(body1), std::move(body2));
}

void PivotJointR::init(SP::NewtonEulerDS body1, SP::NewtonEulerDS body2) {
  jointmath::checkBodies(className(), body1, body2, twoBodies_);
  const Vec3 p = jointmath::vec3Checked(P_, className(), "a point P");
  const Vec3 a = jointmath::unitAxis(axisGiven_, className());
  const jointmath::BodyState b1 = jointmath::bodyState(*body1);
  jointmath::BodyState b2{};
  if (twoBodies_) b2 = jointmath::bodyState(*body2);
  jointmath::anchorPoints(p, absoluteRef_, b1, twoBodies_ ? &b2 : nullptr, Pabs_, G1P0_, G2P0_);
  axis_ = absoluteRef_ ? jointmath::toBodyFrame(b1.Q, a) : a;
  jointmath::perpendicularBase(axis_, V1_, V2_);
  c_ = twoBodies_ ? quaternion::multiply(quaternion::conjugate(b2.Q), b1.Q) : b1.Q;
  cConj_ = quaternion::conjugate(c_);
  body1_ = body1;
  body2_ = body2;
}

void PivotJointR::checkSizes(std::size_t interactionSize, std::size_t dof,
                             const std::string& owner) const {
  jointmath::checkJointSizes(className(), 5, bodyCount(), interactionSize, dof, owner);
}

void PivotJointR::checkConsistency(const Interaction& inter) const {
  checkSizes(inter.size(), inter.positionDof(), inter.name());
  jointmath::checkLinkedBodies(inter, className(), body1_, body2_, twoBodies_);
}

SiconosVector PivotJointR::computeh(const SiconosVector& q, double /*t*/) const {
  jointmath::checkJointSizes(className(), 5, bodyCount(), 5, q.size(), className());
  const Vec3 p = jointmath::pointResidual(q, twoBodies_, G1P0_, G2P0_);
  Quat Q2{1.0, 0.0, 0.0, 0.0};
  if (twoBodies_) Q2 = jointmath::bodyState(q, 1).Q;
  const jointmath::RelativeQuaternion r = jointmath::relativeQuaternion(
      &cConj_, jointmath::bodyState(q, 0).Q, twoBodies_ ? &Q2 : nullptr, nullptr);
  const Vec3 dv = jointmath::vecPart(r.value);
  SiconosVector h(5);
  for (std::size_t i = 0; i < 3; ++i) h(i) = p[i];
  h(3) = quaternion::dot(V1_, dv);
  h(4) = quaternion::dot(V2_, dv);
  return h;
}

SimpleMatrix PivotJointR::computeJacobianQ(const SiconosVector& q, double /*t*/) const {
  jointmath::checkJointSizes(className(), 5, bodyCount(), 5, q.size(), className());
  SimpleMatrix J(5, 7 * bodyCount());
  jointmath::pointJacobian(J, 0, q, twoBodies_, G1P0_, G2P0_);
  Quat Q2{1.0, 0.0, 0.0, 0.0};
  if (twoBodies_) Q2 = jointmath::bodyState(q, 1).Q;
  const jointmath::RelativeQuaternion r = jointmath::relativeQuaternion(
      &cConj_, jointmath::bodyState(q, 0).Q, twoBodies_ ? &Q2 : nullptr, nullptr);
  const Vec3* V[2] = {&V1_, &V2_};
  for (std::size_t row = 0; row < 2; ++row)
    for (std::size_t k = 0; k < 4; ++k) {
      J(3 + row, 3 + k) = quaternion::dot(*V[row], jointmath::vecPart(r.d1[k]));
      if (twoBodies_) J(3 + row, 10 + k) = quaternion::dot(*V[row], jointmath::vecPart(r.d2[k]));
    }
  return J;
}

SiconosVector PivotJointR::absolutePoint() const {
  return jointmath::toSiconos(Vec3(Pabs_));
}
SiconosVector PivotJointR::G1P0() const {
  return jointmath::toSiconos(Vec3(G1P0_));
}
SiconosVector PivotJointR::G2P0() const {
  return jointmath::toSiconos(Vec3(G2P0_));
}
SiconosVector PivotJointR::axis() const {
  return jointmath::toSiconos(Vec3(axis_));
}
SiconosVector PivotJointR::V1() const {
  return jointmath::toSiconos(Vec3(V1_));
}
SiconosVector PivotJointR::V2() const {
  return jointmath::toSiconos(Vec3(V2_));
}
SiconosVector PivotJointR::initialOrientation() const {
  return jointmath::toSiconos(Quat(c_));
}

SiconosVector PivotJointR::worldAxis(const SiconosVector& q) const {
  jointmath::bodyCount(q, className());
  return jointmath::toSiconos(quaternion::rotate(jointmath::bodyState(q, 0).Q, axis_));
}

}  // namespace nsdyn
