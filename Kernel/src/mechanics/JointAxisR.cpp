// JointAxisR: the free axis of a hinge or a slider (coordinate, limits, motors, torques).
#include "nsdyn/JointAxisR.hpp"

#include <cmath>

#include "nsdyn/Error.hpp"
#include "nsdyn/NewtonImpactNSL.hpp"
#include "nsdyn/PivotJointR.hpp"
#include "nsdyn/PrismaticJointR.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/RelayNSL.hpp"

namespace nsdyn {

using quaternion::Quat;
using quaternion::Vec3;

namespace {
std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}

std::string jointName(const NewtonEulerJointR& joint) {
  const auto b1 = joint.body1();
  const auto b2 = joint.body2();
  std::string s = joint.className() + " of " + (b1 ? b1->name() : std::string("?"));
  if (joint.bodyCount() == 2) s += " and " + (b2 ? b2->name() : std::string("?"));
  return s;
}

Vec3 toVec3(const SiconosVector& v) {
  return {v(0), v(1), v(2)};
}

/// The body's 7 entries of the stacked q (body 0 or 1).
Quat quatOf(const SiconosVector& q, std::size_t body) {
  return quaternion::fromVector(q, 7 * body + 3);
}
Vec3 centreOf(const SiconosVector& q, std::size_t body) {
  return quaternion::vec3(q, 7 * body);
}

/// Xi(q) (4 x 3), T_rot = Xi / 2: row i, column k.
double xi(const Quat& q, int i, int k) {
  static const int sign[4][3] = {{-1, -1, -1}, {1, -1, 1}, {1, 1, -1}, {-1, 1, 1}};
  static const int index[4][3] = {{1, 2, 3}, {0, 3, 2}, {3, 0, 1}, {2, 1, 0}};
  return sign[i][k] * q[static_cast<std::size_t>(index[i][k])];
}
}  // namespace

JointAxisR::JointAxisR(SP::NewtonEulerJointR joint, Row row, double bound)
    : joint_(std::move(joint)), row_(row), bound_(bound) {
  if (!joint_) throw Error("JointAxisR", "a joint", "null");
  if (!std::isfinite(bound_))
    throw Error("JointAxisR on " + jointName(*joint_), "a finite limit", num(bound_));
  const auto b1 = joint_->body1();
  const auto b2 = joint_->body2();
  if (!b1)
    throw Error("JointAxisR on " + joint_->className(), "a joint whose bodies exist",
                "body 1 gone");
  twoBodies_ = joint_->bodyCount() == 2;
  if (twoBodies_ && !b2)
    throw Error("JointAxisR on " + joint_->className(), "a joint whose bodies exist",
                "body 2 gone");
  SiconosVector q(7 * joint_->bodyCount());
  q.setSegment(0, b1->q());
  if (twoBodies_) q.setSegment(7, b2->q());
  if (const auto* pivot = dynamic_cast<const PivotJointR*>(joint_.get())) {
    rotary_ = true;
    axis_ = toVec3(pivot->axis());
    if (twoBodies_) {
      q0_ = quaternion::multiply(quaternion::conjugate(quatOf(q, 0)), quatOf(q, 1));
      axis2_ = quaternion::rotateTranspose(q0_, axis_);
    } else {
      q0_ = quatOf(q, 0);
      axis2_ = axis_;
    }
  } else if (const auto* slider = dynamic_cast<const PrismaticJointR*>(joint_.get())) {
    rotary_ = false;
    axis_ = toVec3(slider->axis());
    s0_ = 0.0;
    s0_ = coordinate(q);
  } else {
    throw Error("JointAxisR",
                "a joint with a free axis: PivotJointR (hinge) or PrismaticJointR (slider)",
                jointName(*joint_) + " (no free axis)");
  }
}

void JointAxisR::checkSizes(std::size_t interactionSize, std::size_t dof,
                            const std::string& owner) const {
  if (interactionSize != 1)
    throw Error(owner, "a law of size 1 for JointAxisR", std::to_string(interactionSize));
  if (dof != 7 * joint_->bodyCount())
    throw Error(owner,
                std::to_string(7 * joint_->bodyCount()) +
                    " position coordinates for JointAxisR on " + jointName(*joint_),
                std::to_string(dof));
}

void JointAxisR::checkConsistency(const Interaction& inter) const {
  checkSizes(inter.size(), inter.positionDof(), inter.name());
  const auto& systems = inter.dynamicalSystems();
  const SP::NewtonEulerDS expected[2] = {joint_->body1(), joint_->body2()};
  for (std::size_t i = 0; i < joint_->bodyCount(); ++i)
    if (expected[i] &&
        static_cast<const DynamicalSystem*>(expected[i].get()) != systems.at(i).get())
      throw Error(inter.name(), "the bodies of its " + jointName(*joint_) + " in that order",
                  systems.at(i)->name() + " as system " + std::to_string(i + 1));
}

double JointAxisR::coordinate(const SiconosVector& q) const {
  if (rotary_) {
    const Quat Q = twoBodies_
                       ? quaternion::multiply(quaternion::conjugate(quatOf(q, 0)), quatOf(q, 1))
                       : quatOf(q, 0);
    const Quat E = quaternion::multiply(quaternion::conjugate(q0_), Q);
    const double s = axis2_[0] * E[1] + axis2_[1] * E[2] + axis2_[2] * E[3];
    return 2.0 * std::atan2(s, E[0]);
  }
  const Vec3 a = quaternion::rotate(quatOf(q, 0), axis_);
  Vec3 d = centreOf(q, 0);
  if (twoBodies_) {
    const Vec3 g2 = centreOf(q, 1);
    for (int i = 0; i < 3; ++i) d[i] = g2[i] - d[i];
  }
  return quaternion::dot(a, d) - s0_;
}

SimpleMatrix JointAxisR::coordinateJacobian(const SiconosVector& q) const {
  SimpleMatrix H(1, 6 * joint_->bodyCount());
  if (rotary_) {
    if (twoBodies_) {
      const Quat Q = quaternion::multiply(quaternion::conjugate(quatOf(q, 0)), quatOf(q, 1));
      const Vec3 a1 = quaternion::rotate(Q, axis2_);
      for (int k = 0; k < 3; ++k) {
        H(0, 3 + k) = -a1[static_cast<std::size_t>(k)];
        H(0, 9 + k) = axis2_[static_cast<std::size_t>(k)];
      }
    } else {
      for (int k = 0; k < 3; ++k) H(0, 3 + k) = axis_[static_cast<std::size_t>(k)];
    }
    return H;
  }
  const Quat q1 = quatOf(q, 0);
  const Vec3 a = quaternion::rotate(q1, axis_);
  Vec3 d = centreOf(q, 0);
  if (twoBodies_) {
    const Vec3 g2 = centreOf(q, 1);
    for (int i = 0; i < 3; ++i) d[i] = g2[i] - d[i];
  }
  const Vec3 w = quaternion::rotateTranspose(q1, quaternion::cross(a, d));
  for (int k = 0; k < 3; ++k) {
    const std::size_t K = static_cast<std::size_t>(k);
    H(0, k) = twoBodies_ ? -a[K] : a[K];
    H(0, 3 + k) = w[K];
    if (twoBodies_) H(0, 6 + k) = a[K];
  }
  return H;
}

double JointAxisR::rate(const SiconosVector& q, const SiconosVector& v) const {
  const SimpleMatrix H = coordinateJacobian(q);
  double r = 0.0;
  for (std::size_t j = 0; j < H.cols(); ++j) r += H(0, j) * v(j);
  return r;
}

SiconosVector JointAxisR::computeh(const SiconosVector& q, double /*t*/) const {
  const double c = coordinate(q);
  return SiconosVector{row_ == Row::Coordinate ? c : row_ == Row::Lower ? c - bound_ : bound_ - c};
}

SimpleMatrix JointAxisR::computeJacobianV(const SiconosVector& q, const SimpleMatrix& /*jachq*/,
                                          const SimpleMatrix& /*T*/, double /*t*/) const {
  SimpleMatrix H = coordinateJacobian(q);
  if (row_ == Row::Upper)
    for (std::size_t j = 0; j < H.cols(); ++j) H(0, j) = -H(0, j);
  return H;
}

SimpleMatrix JointAxisR::computeJacobianQ(const SiconosVector& q, double t) const {
  const SimpleMatrix H = computeJacobianV(q, SimpleMatrix(), SimpleMatrix(), t);
  SimpleMatrix J(1, 7 * joint_->bodyCount());
  for (std::size_t b = 0; b < joint_->bodyCount(); ++b) {
    const Quat qb = quatOf(q, b);
    for (std::size_t k = 0; k < 3; ++k) J(0, 7 * b + k) = H(0, 6 * b + k);
    for (int i = 0; i < 4; ++i) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s += H(0, 6 * b + 3 + static_cast<std::size_t>(k)) * xi(qb, i, k);
      J(0, 7 * b + 3 + static_cast<std::size_t>(i)) = 2.0 * s;
    }
  }
  return J;
}

SP::Interaction JointAxisR::motor(const SP::NewtonEulerJointR& joint, TargetFunction target,
                                  double maxForce) {
  auto relation = std::make_shared<JointAxisR>(joint);
  const std::string what = relation->rotary() ? "torque" : "force";
  if (!(maxForce >= 0.0) || !std::isfinite(maxForce))
    throw Error("motor on " + jointName(*joint), "a " + what + " limit >= 0 (finite)",
                num(maxForce));
  if (!target)
    throw Error("motor on " + jointName(*joint), "a target velocity", "an empty function");
  relation->setMotor(std::move(target), maxForce);
  return std::make_shared<Interaction>(std::make_shared<RelayNSL>(1, -1.0, 1.0), relation);
}

SP::Interaction JointAxisR::motor(const SP::NewtonEulerJointR& joint, double target,
                                  double maxForce) {
  if (!std::isfinite(target))
    throw Error("motor on " + (joint ? jointName(*joint) : std::string("null")),
                "a finite target velocity", num(target));
  return motor(
      joint, [target](double) { return target; }, maxForce);
}

SP::Interaction JointAxisR::lowerLimit(const SP::NewtonEulerJointR& joint, double lower, double e) {
  return std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(e),
                                       std::make_shared<JointAxisR>(joint, Row::Lower, lower));
}

SP::Interaction JointAxisR::upperLimit(const SP::NewtonEulerJointR& joint, double upper, double e) {
  return std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(e),
                                       std::make_shared<JointAxisR>(joint, Row::Upper, upper));
}

void JointAxisR::applyTorque(const SP::NewtonEulerJointR& joint, TorqueFunction torque) {
  auto axis = std::make_shared<JointAxisR>(joint);
  if (!axis->rotary())
    throw Error("applyTorque on " + jointName(*joint), "a hinge (PivotJointR)", "a slider");
  if (!torque)
    throw Error("applyTorque on " + jointName(*joint), "a torque function", "an empty function");
  const std::size_t nb = joint->bodyCount();
  std::weak_ptr<NewtonEulerDS> w1 = joint->body1(), w2 = joint->body2();
  // the state of the joint's bodies, stacked, at their current q and v
  auto evaluate = [axis, torque, nb, w1, w2](double t) {
    const auto b1 = w1.lock();
    const auto b2 = w2.lock();
    SiconosVector q(7 * nb), v(6 * nb);
    q.setSegment(0, b1->q());
    v.setSegment(0, b1->velocity());
    if (nb == 2) {
      q.setSegment(7, b2->q());
      v.setSegment(6, b2->velocity());
    }
    return std::make_pair(torque(t, axis->coordinate(q), axis->rate(q, v)), q);
  };
  // body 1: -tau A (one body: +tau A), in its frame
  joint->body1()->setMExt([axis, evaluate, nb](double t) {
    const auto tq = evaluate(t);
    const double s = nb == 2 ? -tq.first : tq.first;
    return SiconosVector{s * axis->axis_[0], s * axis->axis_[1], s * axis->axis_[2]};
  });
  if (nb == 2)  // body 2: +tau A2 in its frame
    joint->body2()->setMExt([axis, evaluate](double t) {
      const auto tq = evaluate(t);
      return SiconosVector{tq.first * axis->axis2_[0], tq.first * axis->axis2_[1],
                           tq.first * axis->axis2_[2]};
    });
}

double JointAxisR::work(const Interaction& inter) {
  if (inter.size() != 1) throw Error("JointAxisR::work", "a one-row interaction", inter.name());
  return inter.lambda(1)(0) * 0.5 * (inter.yMemory(1)(0) + inter.y(1)(0));
}

}  // namespace nsdyn
