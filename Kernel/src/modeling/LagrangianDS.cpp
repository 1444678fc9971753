// LagrangianDS: state, memories, mass and the user force callables.
#include "nsdyn/LagrangianDS.hpp"

#include "nsdyn/Error.hpp"

namespace nsdyn {

LagrangianDS::LagrangianDS(SiconosVector q0, SiconosVector v0, SimpleMatrix mass)
    : SecondOrderDS(std::move(q0), std::move(v0)) {
  mass_ = std::move(mass);
  checkConsistency();
}

LagrangianDS::LagrangianDS(SiconosVector q0, SiconosVector v0, MassFunction mass)
    : SecondOrderDS(std::move(q0), std::move(v0)), massFunction_(std::move(mass)) {
  if (!massFunction_) throw Error(name(), "a mass function", "an empty std::function");
  mass_ = massFunction_(q_);
  checkConsistency();
}

void LagrangianDS::checkConsistency() const {
  const std::size_t n = q0_.size();
  if (n == 0) throw Error(name(), "q0 with at least one entry", "an empty q0");
  if (v0_.size() != n)
    throw Error(name(), "v0 of size " + std::to_string(n) + " (size of q0)",
                std::to_string(v0_.size()));
  if (mass_.rows() != n || mass_.cols() != n)
    throw Error(name(), "mass matrix " + std::to_string(n) + "x" + std::to_string(n),
                mass_.shapeString());
}

void LagrangianDS::computeMass(const SiconosVector& q) {
  if (!massFunction_) return;
  mass_ = massFunction_(q);
  if (mass_.rows() != dimension() || mass_.cols() != dimension())
    throw Error(name() + " M(q)",
                "a " + std::to_string(dimension()) + "x" + std::to_string(dimension()) + " matrix",
                mass_.shapeString());
}

double LagrangianDS::kineticEnergy() const {
  return 0.5 * v_.dot(mass_ * v_);
}

void LagrangianDS::setInternalForces(InternalForcesFunction fInt) {
  fInt_ = std::move(fInt);
}
void LagrangianDS::setJacobianFIntq(JacobianFunction jacobian) {
  jacobianFIntq_ = std::move(jacobian);
}
void LagrangianDS::setJacobianFIntv(JacobianFunction jacobian) {
  jacobianFIntv_ = std::move(jacobian);
}
void LagrangianDS::setFExt(ExternalForceFunction fExt) {
  fExt_ = std::move(fExt);
}

void LagrangianDS::setFExt(SiconosVector fExt) {
  if (fExt.size() != dimension())
    throw Error(name() + " F_ext", "size " + std::to_string(dimension()),
                std::to_string(fExt.size()));
  fExt_ = [f = std::move(fExt)](double) { return f; };
}

namespace {
void checkVector(const SiconosVector& v, std::size_t n, const std::string& what) {
  if (v.size() != n)
    throw Error(what, "a vector of size " + std::to_string(n), std::to_string(v.size()));
}
void checkMatrix(const SimpleMatrix& m, std::size_t n, const std::string& what) {
  if (m.rows() != n || m.cols() != n)
    throw Error(what, "a " + std::to_string(n) + "x" + std::to_string(n) + " matrix",
                m.shapeString());
}
}  // namespace

SiconosVector LagrangianDS::computeFInt(const SiconosVector& q, const SiconosVector& v,
                                        double t) const {
  if (!fInt_) return SiconosVector(dimension());
  SiconosVector f = fInt_(q, v, t);
  checkVector(f, dimension(), name() + " F_int");
  return f;
}

SimpleMatrix LagrangianDS::computeJacobianFIntq(const SiconosVector& q, const SiconosVector& v,
                                                double t) const {
  if (!jacobianFIntq_) return SimpleMatrix(dimension(), dimension());
  SimpleMatrix K = jacobianFIntq_(q, v, t);
  checkMatrix(K, dimension(), name() + " dF_int/dq");
  return K;
}

SimpleMatrix LagrangianDS::computeJacobianFIntv(const SiconosVector& q, const SiconosVector& v,
                                                double t) const {
  if (!jacobianFIntv_) return SimpleMatrix(dimension(), dimension());
  SimpleMatrix C = jacobianFIntv_(q, v, t);
  checkMatrix(C, dimension(), name() + " dF_int/dv");
  return C;
}

SiconosVector LagrangianDS::computeFExt(double t) const {
  if (!fExt_) return SiconosVector(dimension());
  SiconosVector f = fExt_(t);
  checkVector(f, dimension(), name() + " F_ext");
  return f;
}

SiconosVector LagrangianDS::computeForces(double t, const SiconosVector& q,
                                          const SiconosVector& v) const {
  SiconosVector f = computeFExt(t);
  f -= computeFInt(q, v, t);
  return f;
}

SimpleMatrix LagrangianDS::computeIterationMatrix(double t, const SiconosVector& q,
                                                  const SiconosVector& v, double theta,
                                                  double h) const {
  SimpleMatrix W = mass_;
  const SimpleMatrix C = computeJacobianFIntv(q, v, t);
  const SimpleMatrix K = computeJacobianFIntq(q, v, t);
  if (C.normInf() > 0.0) W += (theta * h) * C;
  if (K.normInf() > 0.0) W += (theta * theta * h * h) * K;
  return W;
}

SiconosVector LagrangianDS::linearizedImpulse(double tk, double tk1, double theta, double h) const {
  SiconosVector rhs(dimension());
  if (hasFExt()) {
    SiconosVector f = theta * computeFExt(tk1);
    f += (1.0 - theta) * computeFExt(tk);
    rhs += h * f;
  }
  const SiconosVector fInt = computeFInt(q_, v_, tk);
  if (fInt.normInf() > 0.0) rhs -= h * fInt;
  const SimpleMatrix K = computeJacobianFIntq(q_, v_, tk);
  if (K.normInf() > 0.0) rhs -= (theta * h * h) * (K * v_);
  return rhs;
}

SiconosVector LagrangianDS::integratePosition(const SiconosVector& qk,
                                              const SiconosVector& dv) const {
  SiconosVector q = qk;
  q += dv;
  return q;
}

}  // namespace nsdyn
