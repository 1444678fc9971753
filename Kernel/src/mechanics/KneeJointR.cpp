// KneeJointR: ball joint between a body and the world or two bodies (MECHANICS.md §0.6).
#include "nsdyn/KneeJointR.hpp"

#include "JointMath.hpp"

namespace nsdyn {

using jointmath::Vec3;

KneeJointR::KneeJointR(const SiconosVector& P, bool absoluteRef, SP::NewtonEulerDS body1)
    : NewtonEulerJointR("KneeJointR", 3, body1), P_(P), absoluteRef_(absoluteRef) {
  init(*body1, nullptr);
}

KneeJointR::KneeJointR(const SiconosVector& P, bool absoluteRef, SP::NewtonEulerDS body1,
                       SP::NewtonEulerDS body2)
    : NewtonEulerJointR("KneeJointR", 3, body1, body2), P_(P), absoluteRef_(absoluteRef) {
  init(*body1, body2.get());
}

void KneeJointR::init(const NewtonEulerDS& body1, const NewtonEulerDS* body2) {
  const Vec3 p = jointmath::vec3Checked(P_, className(), "a point P");
  const jointmath::JointBodies s = jointmath::jointBodies(body1, body2);
  jointmath::anchorPoints(p, absoluteRef_, s.b1, s.second(), Pabs_, G1P0_, G2P0_);
}

SiconosVector KneeJointR::computeh(const SiconosVector& q, double /*t*/) const {
  checkQ(q);
  return jointmath::toSiconos(jointmath::pointResidual(q, twoBodies(), G1P0_, G2P0_));
}

SimpleMatrix KneeJointR::computeJacobianQ(const SiconosVector& q, double /*t*/) const {
  checkQ(q);
  SimpleMatrix J(3, 7 * bodyCount());
  jointmath::pointJacobian(J, 0, q, twoBodies(), G1P0_, G2P0_);
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
