// FixedJointR: weld of one body to the world or of two bodies.
#include "nsdyn/FixedJointR.hpp"

#include "JointMath.hpp"

namespace nsdyn {

using jointmath::Quat;
using jointmath::Vec3;

FixedJointR::FixedJointR(SP::NewtonEulerDS body1) : NewtonEulerJointR("FixedJointR", 6, body1) {
  init(*body1, nullptr);
}

FixedJointR::FixedJointR(SP::NewtonEulerDS body1, SP::NewtonEulerDS body2)
    : NewtonEulerJointR("FixedJointR", 6, body1, body2) {
  init(*body1, body2.get());
}

void FixedJointR::init(const NewtonEulerDS& body1, const NewtonEulerDS* body2) {
  const jointmath::JointBodies s = jointmath::jointBodies(body1, body2);
  if (s.two) {
    G1P0_ = jointmath::toBodyFrame(s.b1.Q, jointmath::sub(s.b2.G, s.b1.G));
    G2P0_ = {0.0, 0.0, 0.0};
  } else {
    G1P0_ = {0.0, 0.0, 0.0};
    G2P0_ = s.b1.G;
  }
  c_ = jointmath::initialOrientation(s);
  cConj_ = quaternion::conjugate(c_);
}

SiconosVector FixedJointR::computeh(const SiconosVector& q, double /*t*/) const {
  checkQ(q);
  const Vec3 p = jointmath::pointResidual(q, twoBodies(), G1P0_, G2P0_);
  SiconosVector h(6);
  for (std::size_t i = 0; i < 3; ++i) h(i) = p[i];
  jointmath::orientationResidual(h, 3, q, twoBodies(), cConj_);
  return h;
}

SimpleMatrix FixedJointR::computeJacobianQ(const SiconosVector& q, double /*t*/) const {
  checkQ(q);
  SimpleMatrix J(6, 7 * bodyCount());
  jointmath::pointJacobian(J, 0, q, twoBodies(), G1P0_, G2P0_);
  jointmath::orientationJacobian(J, 3, q, twoBodies(), cConj_);
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
