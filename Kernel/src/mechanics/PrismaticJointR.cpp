// PrismaticJointR: slider joint of one body to the world or between two bodies (MECHANICS.md §0.6).
#include "nsdyn/PrismaticJointR.hpp"

#include "JointMath.hpp"

namespace nsdyn {

using jointmath::Quat;
using jointmath::Vec3;

PrismaticJointR::PrismaticJointR(const SiconosVector& axis, bool absoluteRef,
                                 SP::NewtonEulerDS body1)
    : NewtonEulerJointR("PrismaticJointR", 5, body1), axisGiven_(axis), absoluteRef_(absoluteRef) {
  init(*body1, nullptr);
}

PrismaticJointR::PrismaticJointR(const SiconosVector& axis, bool absoluteRef,
                                 SP::NewtonEulerDS body1, SP::NewtonEulerDS body2)
    : NewtonEulerJointR("PrismaticJointR", 5, body1, body2),
      axisGiven_(axis),
      absoluteRef_(absoluteRef) {
  init(*body1, body2.get());
}

void PrismaticJointR::init(const NewtonEulerDS& body1, const NewtonEulerDS* body2) {
  const jointmath::JointBodies s = jointmath::jointBodies(body1, body2);
  axis_ = jointmath::bodyAxis(axisGiven_, absoluteRef_, s.b1, className(), V1_, V2_);
  const Vec3 G2 = s.two ? s.b2.G : Vec3{0.0, 0.0, 0.0};
  D0_ = quaternion::rotateTranspose(s.b1.Q, jointmath::sub(G2, s.b1.G));
  c_ = jointmath::initialOrientation(s);
  cConj_ = quaternion::conjugate(c_);
}

SiconosVector PrismaticJointR::computeh(const SiconosVector& q, double /*t*/) const {
  checkQ(q);
  const jointmath::BodyState b1 = jointmath::bodyState(q, 0);
  const Vec3 G2 = jointmath::secondCentre(q, twoBodies());
  const Vec3 d = quaternion::rotateTranspose(b1.Q, jointmath::sub(G2, b1.G));
  SiconosVector h(5);
  h(0) = quaternion::dot(V1_, d) - quaternion::dot(V1_, D0_);
  h(1) = quaternion::dot(V2_, d) - quaternion::dot(V2_, D0_);
  jointmath::orientationResidual(h, 2, q, twoBodies(), cConj_);
  return h;
}

SimpleMatrix PrismaticJointR::computeJacobianQ(const SiconosVector& q, double /*t*/) const {
  checkQ(q);
  const jointmath::BodyState b1 = jointmath::bodyState(q, 0);
  const Vec3 d = jointmath::sub(jointmath::secondCentre(q, twoBodies()), b1.G);
  SimpleMatrix J(5, 7 * bodyCount());
  const Vec3* V[2] = {&V1_, &V2_};
  for (std::size_t row = 0; row < 2; ++row) {
    // h = (R(q1) V)·(G2 − G1) − const
    const Vec3 RV = quaternion::rotate(b1.Q, *V[row]);
    const SimpleMatrix D = quaternion::rotationDerivative(b1.Q, *V[row]);
    for (std::size_t k = 0; k < 3; ++k) {
      J(row, k) = -RV[k];
      if (twoBodies()) J(row, 7 + k) = RV[k];
    }
    for (std::size_t k = 0; k < 4; ++k)
      J(row, 3 + k) = d[0] * D(0, k) + d[1] * D(1, k) + d[2] * D(2, k);
  }
  jointmath::orientationJacobian(J, 2, q, twoBodies(), cConj_);
  return J;
}

SiconosVector PrismaticJointR::axis() const {
  return jointmath::toSiconos(Vec3(axis_));
}
SiconosVector PrismaticJointR::V1() const {
  return jointmath::toSiconos(Vec3(V1_));
}
SiconosVector PrismaticJointR::V2() const {
  return jointmath::toSiconos(Vec3(V2_));
}
SiconosVector PrismaticJointR::D0() const {
  return jointmath::toSiconos(Vec3(D0_));
}
SiconosVector PrismaticJointR::initialOrientation() const {
  return jointmath::toSiconos(Quat(c_));
}

}  // namespace nsdyn
