// KneeJointR: ball joint between a body and the world or two bodies (MECHANICS.md §0.6).
#include "nsdyn/KneeJointR.hpp"

#include "JointMath.hpp"

namespace nsdyn {

using jointmath::Vec3;

KneeJointR::KneeJointR(const SiconosVector& P, bool absoluteRef, SP::NewtonEulerDS body1)
    : P_(P), absoluteRef_(absoluteRef), twoBodies_(false) {
  init(std::move(body1), nullptr);
}

KneeJointR::KneeJointR(const SiconosVector& P, bool absoluteRef, SP::NewtonEulerDS body1,
                       SP::NewtonEulerDS body2)
    : P_(P), absoluteRef_(absoluteRef), twoBodies_(true) {
  init(std::move(body1), std::move(body2));
}

void KneeJointR::init(SP::NewtonEulerDS body1, SP::NewtonEulerDS body2) {
  jointmath::checkBodies(className(), body1, body2, twoBodies_);
  const Vec3 p = jointmath::vec3Checked(P_, className(), "a point P");
  const jointmath::BodyState b1 = jointmath::bodyState(*body1);
  jointmath::BodyState b2{};
  if (twoBodies_) b2 = jointmath::bodyState(*body2);
  jointmath::anchorPoints(p, absoluteRef_, b1, twoBodies_ ? &b2 : nullptr, Pabs_, G1P0_, G2P0_);
  body1_ = body1;
  body2_ = body2;
}

void KneeJointR::checkSizes(std::size_t interactionSize, std::size_t dof,
                            const std::string& owner) const {
  jointmath::checkJointSizes(className(), 3, bodyCount(), interactionSize, dof, owner);
}

void KneeJointR::checkConsistency(const Interaction& inter) const {
  checkSizes(inter.size(), inter.positionDof(), inter.name());
  jointmath::checkLinkedBodies(inter, className(), body1_, body2_, twoBodies_);
}

SiconosVector KneeJointR::computeh(const SiconosVector& q, double /*t*/) const {
  jointmath::checkJointSizes(className(), 3, bodyCount(), 3, q.size(), className());
  return jointmath::toSiconos(jointmath::pointResidual(q, twoBodies_, G1P0_, G2P0_));
}

SimpleMatrix KneeJointR::computeJacobianQ(const SiconosVector& q, double /*t*/) const {
  jointmath::checkJointSizes(className(), 3, bodyCount(), 3, q.size(), className());
  SimpleMatrix J(3, 7 * bodyCount());
  jointmath::pointJacobian(J, 0, q, twoBodies_, G1P0_, G2P0_);
  return J;
}

SiconosVector KneeJointR::absolutePoint() const {
  return jointmath::toSiconos(Vec3(Pabs_));
}
SiconosVector KneeJointR::G1P0() const {
  return jointmath::toSiconos(Vec3(G1P0_));
}
SiconosVector KneeJointR::G2P0() const {
  return jointmath::toSiconos(Vec3(G2P0_));
}

}  // namespace nsdyn
