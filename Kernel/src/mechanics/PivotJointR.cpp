// PivotJointR: hinge of one body to the world or between two bodies.
#include "nsdyn/PivotJointR.hpp"

#include "JointMath.hpp"

namespace nsdyn {

using jointmath::Quat;
using jointmath::Vec3;

PivotJointR::PivotJointR(const SiconosVector& P, const SiconosVector& axis, bool absoluteRef,
                         SP::NewtonEulerDS body1)
    : NewtonEulerJointR("PivotJointR", 5, body1),
      P_(P),
      axisGiven_(axis),
      absoluteRef_(absoluteRef) {
  init(*body1, nullptr);
}

PivotJointR::PivotJointR(const SiconosVector& P, const SiconosVector& axis, bool absoluteRef,
                         SP::NewtonEulerDS body1, SP::NewtonEulerDS body2)
    : NewtonEulerJointR("PivotJointR", 5, body1, body2),
      P_(P),
      axisGiven_(axis),
      absoluteRef_(absoluteRef) {
  init(*body1, body2.get());
}

void PivotJointR::init(const NewtonEulerDS& body1, const NewtonEulerDS* body2) {
  const Vec3 p = jointmath::vec3Checked(P_, className(), "a point P");
  const jointmath::JointBodies s = jointmath::jointBodies(body1, body2);
  axis_ = jointmath::bodyAxis(axisGiven_, absoluteRef_, s.b1, className(), V1_, V2_);
  jointmath::anchorPoints(p, absoluteRef_, s.b1, s.second(), Pabs_, G1P0_, G2P0_);
  c_ = jointmath::initialOrientation(s);
  cConj_ = quaternion::conjugate(c_);
}

namespace {

/// Rows 3..4: the deviation δ = c* ⊗ q2* ⊗ q1 projected on V1, V2 (δ a rotation about the axis).
struct AxisRows {
  const Vec3* V[2];
  double operator()(std::size_t i, const Quat& x) const {
    return quaternion::dot(*V[i], jointmath::vecPart(x));
  }
};

}  // namespace

SiconosVector PivotJointR::computeh(const SiconosVector& q, double /*t*/) const {
  checkQ(q);
  const Vec3 p = jointmath::pointResidual(q, twoBodies(), G1P0_, G2P0_);
  SiconosVector h(5);
  for (std::size_t i = 0; i < 3; ++i) h(i) = p[i];
  jointmath::quaternionRows(h, 3, 2,
                            jointmath::relativeQuaternion(&cConj_, q, twoBodies(), nullptr),
                            AxisRows{{&V1_, &V2_}});
  return h;
}

SimpleMatrix PivotJointR::computeJacobianQ(const SiconosVector& q, double /*t*/) const {
  checkQ(q);
  SimpleMatrix J(5, 7 * bodyCount());
  jointmath::pointJacobian(J, 0, q, twoBodies(), G1P0_, G2P0_);
  jointmath::quaternionRowsJacobian(J, 3, 2,
                                    jointmath::relativeQuaternion(&cConj_, q, twoBodies(), nullptr),
                                    twoBodies(), AxisRows{{&V1_, &V2_}});
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
