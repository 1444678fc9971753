// NewtonEulerDS: rigid body with a quaternion (MECHANICS.md §0.1–§0.3):
// checks, wrench with the gyroscopic term and its Jacobian, Lie-group
// position update, kinematic matrix T(q), energies and momenta.
#include "nsdyn/NewtonEulerDS.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/Quaternion.hpp"

namespace nsdyn {

namespace q4 = quaternion;

namespace {

std::string formatNumber(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

SiconosVector toVector(const q4::Vec3& a) {
  return SiconosVector{a[0], a[1], a[2]};
}

q4::Vec3 times(const SimpleMatrix& A, const q4::Vec3& x) {
  q4::Vec3 r{};
  for (std::size_t i = 0; i < 3; ++i) r[i] = A(i, 0) * x[0] + A(i, 1) * x[1] + A(i, 2) * x[2];
  return r;
}

// Callers test the size first: the message (with the system name) is built only on failure.
void checkSize(const SiconosVector& v, std::size_t n, const std::string& what) {
  if (v.size() != n)
    throw Error(what, "a vector of size " + std::to_string(n), "size " + std::to_string(v.size()));
}

}  // namespace

NewtonEulerDS::NewtonEulerDS(SiconosVector q0, SiconosVector v0, double mass, SimpleMatrix inertia)
    : SecondOrderDS(std::move(q0), std::move(v0)), m_(mass), inertia_(std::move(inertia)) {
  mass_ = SimpleMatrix(6, 6);
  mass_(0, 0) = mass_(1, 1) = mass_(2, 2) = m_;
  if (inertia_.rows() == 3 && inertia_.cols() == 3) mass_.setBlock(3, 3, inertia_);
  checkConsistency();
}

void NewtonEulerDS::checkConsistency() const {
  if (q0_.size() != 7)
    throw Error(name(), "q0 of size 7 (position, quaternion)",
                "size " + std::to_string(q0_.size()));
  if (v0_.size() != 6)
    throw Error(name(), "v0 of size 6 (linear velocity, angular velocity)",
                "size " + std::to_string(v0_.size()));
  if (!(m_ > 0.0) || !std::isfinite(m_))
    throw Error(name(), "a finite positive mass m", "m = " + formatNumber(m_));

  if (inertia_.rows() != 3 || inertia_.cols() != 3)
    throw Error(name(), "a 3x3 inertia matrix", inertia_.shapeString());
  double scale = 0.0;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      if (!std::isfinite(inertia_(i, j)))
        throw Error(name(), "a finite inertia matrix",
                    "I(" + std::to_string(i) + "," + std::to_string(j) +
                        ") = " + formatNumber(inertia_(i, j)));
      scale = std::max(scale, std::abs(inertia_(i, j)));
    }
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = i + 1; j < 3; ++j)
      if (std::abs(inertia_(i, j) - inertia_(j, i)) > 1e-12 * scale)
        throw Error(name(), "a symmetric inertia matrix (relative 1e-12)",
                    "I(" + std::to_string(i) + "," + std::to_string(j) +
                        ") = " + formatNumber(inertia_(i, j)) + ", I(" + std::to_string(j) + "," +
                        std::to_string(i) + ") = " + formatNumber(inertia_(j, i)));
  // Sylvester's criterion on the (symmetric) inertia: all leading principal minors > 0.
  const SimpleMatrix& I = inertia_;
  const double m1 = I(0, 0);
  const double m2 = I(0, 0) * I(1, 1) - I(0, 1) * I(1, 0);
  const double m3 = I(0, 0) * (I(1, 1) * I(2, 2) - I(1, 2) * I(2, 1)) -
                    I(0, 1) * (I(1, 0) * I(2, 2) - I(1, 2) * I(2, 0)) +
                    I(0, 2) * (I(1, 0) * I(2, 1) - I(1, 1) * I(2, 0));
  if (!(m1 > 0.0) || !(m2 > 0.0) || !(m3 > 0.0))
    throw Error(name(), "a positive definite inertia matrix (leading principal minors > 0)",
                "minors " + formatNumber(m1) + ", " + formatNumber(m2) + ", " + formatNumber(m3));

  const double n = q4::norm(q4::fromVector(q0_, 3));
  if (!(n > 0.0) || !std::isfinite(n))
    throw Error(name(), "a unit quaternion q0[3:7]", "norm " + formatNumber(n));
  if (std::abs(n - 1.0) > 1e-8)
    throw Error(name(), "a unit quaternion q0[3:7] (|norm - 1| <= 1e-8)",
                "norm " + formatNumber(n));

  checkBoundaryConditions();
}

SimpleMatrix NewtonEulerDS::kinematicMatrix(const SiconosVector& q) {
  if (q.size() != 7)
    throw Error("NewtonEulerDS::kinematicMatrix", "q of size 7",
                "size " + std::to_string(q.size()));
  const double q0 = q(3), q1 = q(4), q2 = q(5), q3 = q(6);
  SimpleMatrix T(7, 6);
  T(0, 0) = T(1, 1) = T(2, 2) = 1.0;
  const double rows[4][3] = {{-q1, -q2, -q3}, {q0, -q3, q2}, {q3, q0, -q1}, {-q2, q1, q0}};
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) T(3 + i, 3 + j) = 0.5 * rows[i][j];
  return T;
}

// ---- external forces --------------------------------------------------------

void NewtonEulerDS::setFExt(SiconosVector f) {
  if (f.size() != 3) checkSize(f, 3, name() + " f_ext");
  fExt_ = [f = std::move(f)](double) { return f; };
}

void NewtonEulerDS::setFExt(VectorFunction f) {
  fExt_ = std::move(f);
}

void NewtonEulerDS::setMExt(SiconosVector m) {
  if (m.size() != 3) checkSize(m, 3, name() + " m_ext");
  mExt_ = [m = std::move(m)](double) { return m; };
}

void NewtonEulerDS::setMExt(VectorFunction m) {
  mExt_ = std::move(m);
}

SiconosVector NewtonEulerDS::computeFExt(double t) const {
  if (!fExt_) return SiconosVector(3);
  SiconosVector f = fExt_(t);
  if (f.size() != 3) checkSize(f, 3, name() + " f_ext(t)");
  return f;
}

SiconosVector NewtonEulerDS::computeMExt(double t) const {
  if (!mExt_) return SiconosVector(3);
  SiconosVector m = mExt_(t);
  if (m.size() != 3) checkSize(m, 3, name() + " m_ext(t)");
  return m;
}

// ---- what the integrator needs ---------------------------------------------

SiconosVector NewtonEulerDS::computeForces(double t, const SiconosVector&,
                                           const SiconosVector& v) const {
  if (v.size() != 6) checkSize(v, 6, name() + " computeForces: v");
  SiconosVector F(6);
  F.setSegment(0, computeFExt(t));
  SiconosVector moment = computeMExt(t);
  if (gyroscopic_) {
    const q4::Vec3 omega = q4::vec3(v, 3);
    const q4::Vec3 gyro = q4::cross(omega, times(inertia_, omega));
    for (std::size_t i = 0; i < 3; ++i) moment(i) -= gyro[i];
  }
  F.setSegment(3, moment);
  return F;
}

SimpleMatrix NewtonEulerDS::computeJacobianForcesV(const SiconosVector& v) const {
  if (v.size() != 6) checkSize(v, 6, name() + " computeJacobianForcesV: v");
  SimpleMatrix C(6, 6);
  if (!gyroscopic_) return C;
  // ∂(−Ω × IΩ)/∂Ω = −(skew(Ω) I − skew(IΩ)).
  const q4::Vec3 omega = q4::vec3(v, 3);
  SimpleMatrix block = q4::skew(omega) * inertia_;
  block -= q4::skew(times(inertia_, omega));
  block *= -1.0;
  C.setBlock(3, 3, block);
  return C;
}

SimpleMatrix NewtonEulerDS::computeIterationMatrix(double, const SiconosVector&,
                                                   const SiconosVector& v, double theta,
                                                   double h) const {
  SimpleMatrix W = mass_;
  if (!gyroscopic_) return W;
  if (scheme_ == GyroscopicScheme::EnergyMomentum) {
    // d/dOmega [-exp(-h Omega_theta^) I Omega_k] = -theta h skew(I Omega_k) to first order in h
    const q4::Vec3 pik = times(inertia_, q4::vec3(vMemory_, 3));
    const SimpleMatrix S = q4::skew(pik);
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) W(3 + i, 3 + j) -= theta * h * S(i, j);
    return W;
  }
  W -= (theta * h) * computeJacobianForcesV(v);
  return W;
}

SiconosVector NewtonEulerDS::stepForces(double t, const SiconosVector& q,
                                        const SiconosVector& v) const {
  if (!gyroscopic_ || scheme_ == GyroscopicScheme::Trapezoidal) return computeForces(t, q, v);
  SiconosVector F(6);
  F.setSegment(0, computeFExt(t));
  F.setSegment(3, computeMExt(t));
  return F;
}

SiconosVector NewtonEulerDS::computeStepResidual(double tk1, double theta, double h) {
  if (!gyroscopic_ || scheme_ == GyroscopicScheme::Trapezoidal)
    return SecondOrderDS::computeStepResidual(tk1, theta, h);
  // linear rows: m (v - v_k) - h (1 - theta) f_k - h theta f(t_{k+1});
  // angular rows: I Omega - exp(-h Omega_theta^) I Omega_k - h ((1 - theta) m_k + theta m(t_{k+1}))
  SiconosVector F = stepForces(tk1, q_, v_);
  SiconosVector R(6);
  for (std::size_t i = 0; i < 3; ++i) R(i) = m_ * (v_(i) - vMemory_(i));
  q4::Vec3 omegaTheta{};
  for (std::size_t i = 0; i < 3; ++i)
    omegaTheta[i] = -h * (theta * v_(3 + i) + (1.0 - theta) * vMemory_(3 + i));
  // balance in the end-of-step body frame: I Omega - exp(-h Omega_theta^) I Omega_k, or,
  // when the impulses act at the theta point, in that frame:
  // exp((1 - theta) h Omega_theta^) I Omega - exp(-theta h Omega_theta^) I Omega_k
  const double before = impulseAtThetaPoint_ ? theta : 1.0,
               after = impulseAtThetaPoint_ ? 1.0 - theta : 0.0;
  q4::Vec3 back{}, ahead{};
  for (std::size_t i = 0; i < 3; ++i) {
    back[i] = before * omegaTheta[i];
    ahead[i] = -after * omegaTheta[i];
  }
  const q4::Vec3 pik = times(inertia_, q4::vec3(vMemory_, 3));
  const q4::Vec3 carried = q4::rotate(q4::exponential(back), pik);
  const q4::Vec3 pi = q4::rotate(q4::exponential(ahead), times(inertia_, q4::vec3(v_, 3)));
  for (std::size_t i = 0; i < 3; ++i) R(3 + i) = pi[i] - carried[i];
  for (std::size_t i = 0; i < 6; ++i) R(i) -= h * ((1.0 - theta) * forcesMemory_(i) + theta * F(i));
  forces_ = std::move(F);
  return R;
}

SiconosVector NewtonEulerDS::integratePosition(const SiconosVector& qk,
                                               const SiconosVector& dv) const {
  if (qk.size() != 7) checkSize(qk, 7, name() + " integratePosition: q_k");
  if (dv.size() != 6) checkSize(dv, 6, name() + " integratePosition: increment");
  SiconosVector q(7);
  for (std::size_t i = 0; i < 3; ++i) q(i) = qk(i) + dv(i);
  const q4::Quat r = q4::multiply(q4::fromVector(qk, 3), q4::exponential(q4::vec3(dv, 3)));
  for (std::size_t i = 0; i < 4; ++i) q(3 + i) = r[i];
  return q;
}

// ---- derived quantities -----------------------------------------------------

SiconosVector NewtonEulerDS::position() const {
  return q_.segment(0, 3);
}

SimpleMatrix NewtonEulerDS::rotationMatrix() const {
  return q4::rotationMatrix(q4::fromVector(q_, 3));
}

SiconosVector NewtonEulerDS::angularVelocityWorld() const {
  return toVector(q4::rotate(q4::fromVector(q_, 3), q4::vec3(v_, 3)));
}

double NewtonEulerDS::kineticEnergy() const {
  const q4::Vec3 lin = q4::vec3(v_, 0);
  const q4::Vec3 omega = q4::vec3(v_, 3);
  return 0.5 * m_ * q4::dot(lin, lin) + 0.5 * q4::dot(omega, times(inertia_, omega));
}

double NewtonEulerDS::potentialEnergy(double t) const {
  if (!fExt_) return 0.0;
  return -q4::dot(q4::vec3(computeFExt(t), 0), q4::vec3(q_, 0));
}

SiconosVector NewtonEulerDS::linearMomentum() const {
  return m_ * v_.segment(0, 3);
}

SiconosVector NewtonEulerDS::angularMomentumWorld() const {
  return toVector(q4::rotate(q4::fromVector(q_, 3), times(inertia_, q4::vec3(v_, 3))));
}

void NewtonEulerDS::normalizePosition() {
  const quaternion::Quat n = quaternion::normalized(quaternion::fromVector(q_));
  for (std::size_t i = 0; i < 4; ++i) q_(3 + i) = n[i];
}

}  // namespace nsdyn
