// LagrangianLinearTIDS: F_int = C v + K q with constant K, C.
#include "nsdyn/LagrangianLinearTIDS.hpp"

#include "nsdyn/Error.hpp"

namespace nsdyn {

LagrangianLinearTIDS::LagrangianLinearTIDS(SiconosVector q0, SiconosVector v0, SimpleMatrix mass)
    : LagrangianDS(std::move(q0), std::move(v0), std::move(mass)) {
  K_ = SimpleMatrix(dimension(), dimension());
  C_ = SimpleMatrix(dimension(), dimension());
}

LagrangianLinearTIDS::LagrangianLinearTIDS(SiconosVector q0, SiconosVector v0, SimpleMatrix mass,
                                           SimpleMatrix K, SimpleMatrix C)
    : LagrangianLinearTIDS(std::move(q0), std::move(v0), std::move(mass)) {
  setK(std::move(K));
  setC(std::move(C));
}

void LagrangianLinearTIDS::checkConsistency() const {
  LagrangianDS::checkConsistency();
  const std::size_t n = dimension();
  const std::string nn = std::to_string(n) + "x" + std::to_string(n);
  if (K_.rows() != n || K_.cols() != n) throw Error(name(), "stiffness K " + nn, K_.shapeString());
  if (C_.rows() != n || C_.cols() != n) throw Error(name(), "damping C " + nn, C_.shapeString());
}

void LagrangianLinearTIDS::setK(SimpleMatrix K) {
  const std::size_t n = dimension();
  if (K.rows() != n || K.cols() != n)
    throw Error(name(), "stiffness K " + std::to_string(n) + "x" + std::to_string(n),
                K.shapeString());
  K_ = std::move(K);
  hasK_ = true;
}

void LagrangianLinearTIDS::setC(SimpleMatrix C) {
  const std::size_t n = dimension();
  if (C.rows() != n || C.cols() != n)
    throw Error(name(), "damping C " + std::to_string(n) + "x" + std::to_string(n),
                C.shapeString());
  C_ = std::move(C);
  hasC_ = true;
}

SiconosVector LagrangianLinearTIDS::computeFInt(const SiconosVector& q, const SiconosVector& v,
                                                double t) const {
  SiconosVector f = LagrangianDS::computeFInt(q, v, t);
  if (hasC_) f += C_ * v;
  if (hasK_) f += K_ * q;
  return f;
}

SimpleMatrix LagrangianLinearTIDS::computeJacobianFIntq(const SiconosVector& q,
                                                        const SiconosVector& v, double t) const {
  SimpleMatrix K = LagrangianDS::computeJacobianFIntq(q, v, t);
  if (hasK_) K += K_;
  return K;
}

SimpleMatrix LagrangianLinearTIDS::computeJacobianFIntv(const SiconosVector& q,
                                                        const SiconosVector& v, double t) const {
  SimpleMatrix C = LagrangianDS::computeJacobianFIntv(q, v, t);
  if (hasC_) C += C_;
  return C;
}

}  // namespace nsdyn
