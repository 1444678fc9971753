// NewtonEuler1DR: user point contact between rigid bodies (MECHANICS.md §0.6).
#include "nsdyn/NewtonEuler1DR.hpp"

#include <cmath>

#include "JointMath.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/Quaternion.hpp"

namespace nsdyn {

using jointmath::Quat;
using jointmath::Vec3;

NewtonEuler1DR::NewtonEuler1DR(GapFunction gap) : NewtonEuler1DR(std::move(gap), 1) {}

NewtonEuler1DR::NewtonEuler1DR(GapFunction gap, std::size_t rows)
    : gapFunction_(std::move(gap)), rows_(rows) {
  if (!gapFunction_)
    throw Error(rows == 1 ? "NewtonEuler1DR" : "NewtonEuler3DR",
                "a gap function gap(q, t, geometry)", "an empty std::function");
}

void NewtonEuler1DR::checkSizes(std::size_t interactionSize, std::size_t dof,
                                const std::string& owner) const {
  if (interactionSize != rows_)
    throw Error(owner, "law size " + std::to_string(rows_) + " for " + className(),
                std::to_string(interactionSize));
  if (dof != 7 && dof != 14)
    throw Error(owner, "7 or 14 position coordinates for " + className() + " (one or two bodies)",
                std::to_string(dof));
}

double NewtonEuler1DR::computeGap(const SiconosVector& q, double t, Geometry& g) const {
  if (!gapFunction_)
    throw Error(className(), "a gap function or an override of computeGap(q, t, geometry)", "none");
  return gapFunction_(q, t, g);
}

void NewtonEuler1DR::refreshGeometry(const SiconosVector& q, double t) const {
  const std::size_t nb = jointmath::bodyCount(q, className());
  Geometry g;
  if (hasGeometry_) {
    g.N = jointmath::toSiconos(Vec3(N_));
    g.Pc1 = jointmath::toSiconos(Vec3(Pc1_));
    if (hasPc2_) g.Pc2 = jointmath::toSiconos(Vec3(Pc2_));
  }
  const double gap = computeGap(q, t, g);
  const std::string who = className() + " (gap function)";
  const Vec3 N = jointmath::vec3Checked(g.N, who, "a normal N");
  const double n = jointmath::norm(N);
  if (!(n > 0.0) || !std::isfinite(n))
    throw Error(who, "a normal N of non-zero finite length", g.N.toString());
  const Vec3 Pc1 = jointmath::vec3Checked(g.Pc1, who, "a contact point Pc1");
  Vec3 Pc2{};
  if (nb == 2) Pc2 = jointmath::vec3Checked(g.Pc2, who, "a contact point Pc2 on the second body");
  N_ = {N[0] / n, N[1] / n, N[2] / n};
  Pc1_ = Pc1;
  Pc2_ = Pc2;
  hasPc2_ = nb == 2;
  gap_ = gap;
  hasGeometry_ = true;
}

SiconosVector NewtonEuler1DR::computeh(const SiconosVector& q, double t) const {
  refreshGeometry(q, t);
  SiconosVector y(rows_);
  y(0) = gap_;
  return y;
}

SimpleMatrix NewtonEuler1DR::computeJacobianQ(const SiconosVector& q, double t) const {
  const std::size_t nb = jointmath::bodyCount(q, className());
  if (!hasGeometry_ || (nb == 2 && !hasPc2_)) refreshGeometry(q, t);
  SimpleMatrix J(rows_, 7 * nb);
  const Vec3 N(N_);
  for (std::size_t i = 0; i < nb; ++i) {
    const double s = i == 0 ? 1.0 : -1.0;
    const jointmath::BodyState b = jointmath::bodyState(q, i);
    const Vec3 P = i == 0 ? Vec3(Pc1_) : Vec3(Pc2_);
    const Vec3 gp = jointmath::sub(P, b.G);
    const Quat GP = jointmath::pure(gp);
    const Quat& Q = b.Q;
    const Quat Qc = quaternion::conjugate(Q);
    for (std::size_t k = 0; k < 3; ++k) J(0, 7 * i + k) = s * N[k];
    // column q0: vec(GP⊗Q + Q*⊗GP − 2 q0 GP)
    {
      const Vec3 a = jointmath::vecPart(quaternion::multiply(GP, Q));
      const Vec3 c = jointmath::vecPart(quaternion::multiply(Qc, GP));
      const Vec3 d = jointmath::sub(jointmath::add(a, c), jointmath::scale(2.0 * Q[0], gp));
      J(0, 7 * i + 3) = s * quaternion::dot(N, d);
    }
    // columns q_j: vec(e_j⊗Q*⊗GP − GP⊗Q⊗e_j − 2 q_j GP)
    for (std::size_t j = 1; j <= 3; ++j) {
      const Quat e = jointmath::basis(j);
      const Vec3 a = jointmath::vecPart(quaternion::multiply(quaternion::multiply(e, Qc), GP));
      const Vec3 c = jointmath::vecPart(quaternion::multiply(quaternion::multiply(GP, Q), e));
      const Vec3 d = jointmath::sub(jointmath::sub(a, c), jointmath::scale(2.0 * Q[j], gp));
      J(0, 7 * i + 3 + j) = s * quaternion::dot(N, d);
    }
  }
  return J;
}

SimpleMatrix NewtonEuler1DR::computeJacobianV(const SiconosVector& q, const SimpleMatrix& /*jachq*/,
                                              const SimpleMatrix& /*T*/, double t) const {
  const std::size_t nb = jointmath::bodyCount(q, className());
  if (!hasGeometry_) refreshGeometry(q, t);
  const SimpleMatrix frame = localFrameOf(jointmath::toSiconos(Vec3(N_)));
  const SimpleMatrix Rc = frame.block(0, 0, rows_, 3);
  SimpleMatrix H(rows_, 6 * nb);
  for (std::size_t i = 0; i < nb; ++i) {
    const double s = i == 0 ? 1.0 : -1.0;
    const jointmath::BodyState b = jointmath::bodyState(q, i);
    const SimpleMatrix rot =
        Rc * quaternion::skew(jointmath::sub(b.G, Vec3(Pc1_))) * quaternion::rotationMatrix(b.Q);
    for (std::size_t r = 0; r < rows_; ++r)
      for (std::size_t k = 0; k < 3; ++k) {
        H(r, 6 * i + k) = s * Rc(r, k);
        H(r, 6 * i + 3 + k) = s * rot(r, k);
      }
  }
  return H;
}

SimpleMatrix NewtonEuler1DR::localFrameOf(const SiconosVector& N) {
  const Vec3 raw = jointmath::vec3Checked(N, "NewtonEuler1DR::localFrameOf", "a normal");
  const double n = jointmath::norm(raw);
  if (!(n > 0.0) || !std::isfinite(n))
    throw Error("NewtonEuler1DR::localFrameOf", "a normal of non-zero finite length", N.toString());
  const double nx = raw[0] / n, ny = raw[1] / n, nz = raw[2] / n;
  const double s = nz >= 0.0 ? 1.0 : -1.0;
  const double a = -1.0 / (s + nz);
  const double b = nx * ny * a;
  return SimpleMatrix{
      {nx, ny, nz}, {1.0 + s * nx * nx * a, s * b, -s * nx}, {b, s + ny * ny * a, -ny}};
}

SiconosVector NewtonEuler1DR::normal() const {
  return hasGeometry_ ? jointmath::toSiconos(Vec3(N_)) : SiconosVector();
}
SiconosVector NewtonEuler1DR::contactPoint1() const {
  return hasGeometry_ ? jointmath::toSiconos(Vec3(Pc1_)) : SiconosVector();
}
SiconosVector NewtonEuler1DR::contactPoint2() const {
  return hasPc2_ ? jointmath::toSiconos(Vec3(Pc2_)) : SiconosVector();
}
SimpleMatrix NewtonEuler1DR::localFrame() const {
  if (!hasGeometry_) return SimpleMatrix();
  return localFrameOf(jointmath::toSiconos(Vec3(N_)));
}

}  // namespace nsdyn
