// PrismaticJointR: slider joint of one body to the world or between two bodies (MECHANICS.md §0.6).
#include "nsdyn/PrismaticJointR.hpp"

#include "JointMath.hpp"

namespace nsdyn {

using jointmath::Quat;
using jointmath::Vec3;

PrismaticJointR::PrismaticJointR(const SiconosVector& axis, bool absoluteRef,
                                 SP::NewtonEulerDS body1)
    : axisGiven_(axis), absoluteRef_(absoluteRef), twoBodies_(false) {
  init(std::move(body1), nullptr);
}

PrismaticJointR::PrismaticJointR(const SiconosVector& axis, bool absoluteRef,
                                 SP::NewtonEulerDS body1, SP::NewtonEulerDS body2)
    : axisGiven_(axis), absoluteRef_(absoluteRef), twoBodies_(true) {
  init(std::move(body1), std::move(body2));
}

void PrismaticJointR::init(SP::NewtonEulerDS body1, SP::NewtonEulerDS body2) {
  jointmath::checkBodies(className(), body1, body2, twoBodies_);
  const Vec3 a = jointmath::unitAxis(axisGiven_, className());
  const jointmath::BodyState b1 = jointmath::bodyState(*body1);
  axis_ = absoluteRef_ ? jointmath::toBodyFrame(b1.Q, a) : a;
  jointmath::perpendicularBase(axis_, V1_, V2_);
  Vec3 G2{0.0, 0.0, 0.0};
  c_ = b1.Q;
  if (twoBodies_) {
    const jointmath::BodyState b2 = jointmath::bodyState(*body2);
    G2 = b2.G;
    c_ = quaternion::multiply(quaternion::conjugate(b2.Q), b1.Q);
  }
  D0_ = quaternion::rotateTranspose(b1.Q, jointmath::sub(G2, b1.G));
  cConj_ = quaternion::conjugate(c_);
  body1_ = body1;
  body2_ = body2;
}

void PrismaticJointR::checkSizes(std::size_t interactionSize, std::size_t dof,
                                 const std::string& owner) const {
  jointmath::checkJointSizes(className(), 5, bodyCount(), interactionSize, dof, owner);
}

void PrismaticJointR::checkConsistency(const Interaction& inter) const {
  checkSizes(inter.size(), inter.positionDof(), inter.name());
  jointmath::checkLinkedBodies(inter, className(), body1_, body2_, twoBodies_);
}

SiconosVector PrismaticJointR::computeh(const SiconosVector& q, double /*t*/) const {
  jointmath::checkJointSizes(className(), 5, bodyCount(), 5, q.size(), className());
  const jointmath::BodyState b1 = jointmath::bodyState(q, 0);
  Vec3 G2{0.0, 0.0, 0.0};
  Quat Q2{1.0, 0.0, 0.0, 0.0};
  if (twoBodies_) {
    const jointmath::BodyState b2 = jointmath::bodyState(q, 1);
    G2 = b2.G;
    Q2 = b2.Q;
  }
  const Vec3 d = quaternion::rotateTranspose(b1.Q, jointmath::sub(G2, b1.G));
  const jointmath::RelativeQuaternion r =
      jointmath::relativeQuaternion(nullptr, b1.Q, twoBodies_ ? &Q2 : nullptr, &cConj_);
  SiconosVector h(5);
  h(0) = quaternion::dot(V1_, d) - quaternion::dot(V1_, D0_);
  h(1) = quaternion::dot(V2_, d) - quaternion::dot(V2_, D0_);
  for (std::size_t i = 0; i < 3; ++i) h(2 + i) = r.value[1 + i];
  return h;
}

SimpleMatrix PrismaticJointR::computeJacobianQ(const SiconosVector& q, double /*t*/) const {
  jointmath::checkJointSizes(className(), 5, bodyCount(), 5, q.size(), className());
  const jointmath::BodyState b1 = jointmath::bodyState(q, 0);
  Vec3 G2{0.0, 0.0, 0.0};
  Quat Q2{1.0, 0.0, 0.0, 0.0};
  if (twoBodies_) {
    const jointmath::BodyState b2 = jointmath::bodyState(q, 1);
    G2 = b2.G;
    Q2 = b2.Q;
  }
  const Vec3 d = jointmath::sub(G2, b1.G);
  SimpleMatrix J(5, 7 * bodyCount());
  const Vec3* V[2] = {&V1_, &V2_};
  for (std::size_t row = 0; row < 2; ++row) {
    // h = (R(q1) V)·(G2 − G1) − const
    const Vec3 RV = quaternion::rotate(b1.Q, *V[row]);
    const SimpleMatrix D = quaternion::rotationDerivative(b1.Q, *V[row]);
    for (std::size_t k = 0; k < 3; ++k) {
      J(row, k) = -RV[k];
      if (twoBodies_) J(row, 7 + k) = RV[k];
    }
    for (std::size_t k = 0; k < 4; ++k)
      J(row, 3 + k) = d[0] * D(0, k) + d[1] * D(1, k) + d[2] * D(2, k);
  }
  const jointmath::RelativeQuaternion r =
      jointmath::relativeQuaternion(nullptr, b1.Q, twoBodies_ ? &Q2 : nullptr, &cConj_);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t k = 0; k < 4; ++k) {
      J(2 + i, 3 + k) = r.d1[k][1 + i];
      if (twoBodies_) J(2 + i, 10 + k) = r.d2[k][1 + i];
    }
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
