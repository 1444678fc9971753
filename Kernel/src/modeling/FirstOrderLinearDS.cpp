// FirstOrderLinearDS: x' = A(t) x + b(t) + r.
#include "nsdyn/FirstOrderLinearDS.hpp"

#include "nsdyn/Error.hpp"

namespace nsdyn {

FirstOrderLinearDS::FirstOrderLinearDS(SiconosVector x0, SimpleMatrix A)
    : x0_(std::move(x0)), A_(std::move(A)) {
  x_ = x0_;
  xMemory_ = x0_;
  r_ = SiconosVector(x0_.size());
  checkConsistency();
}

FirstOrderLinearDS::FirstOrderLinearDS(SiconosVector x0, SimpleMatrix A, SiconosVector b)
    : FirstOrderLinearDS(std::move(x0), std::move(A)) {
  setb(std::move(b));
}

FirstOrderLinearDS::FirstOrderLinearDS(SiconosVector x0, MatrixFunction A)
    : x0_(std::move(x0)), aFunction_(std::move(A)) {
  if (!aFunction_) throw Error(name(), "a function A(t)", "an empty std::function");
  x_ = x0_;
  xMemory_ = x0_;
  r_ = SiconosVector(x0_.size());
  A_ = aFunction_(0.0);
  checkConsistency();
}

void FirstOrderLinearDS::checkConsistency() const {
  const std::size_t n = x0_.size();
  if (n == 0) throw Error(name(), "x0 with at least one entry", "an empty x0");
  if (A_.rows() != n || A_.cols() != n)
    throw Error(name(), "A " + std::to_string(n) + "x" + std::to_string(n), A_.shapeString());
  if (hasB_ && !bFunction_ && b_.size() != n)
    throw Error(name(), "b of size " + std::to_string(n), std::to_string(b_.size()));
}

void FirstOrderLinearDS::swapInMemory() {
  xMemory_ = x_;
}

void FirstOrderLinearDS::setA(SimpleMatrix A) {
  const std::size_t n = dimension();
  if (A.rows() != n || A.cols() != n)
    throw Error(name(), "A " + std::to_string(n) + "x" + std::to_string(n), A.shapeString());
  A_ = std::move(A);
  aFunction_ = nullptr;
}

void FirstOrderLinearDS::setA(MatrixFunction A) {
  aFunction_ = std::move(A);
}

void FirstOrderLinearDS::setb(SiconosVector b) {
  if (b.size() != dimension())
    throw Error(name(), "b of size " + std::to_string(dimension()), std::to_string(b.size()));
  b_ = std::move(b);
  bFunction_ = nullptr;
  hasB_ = true;
}

void FirstOrderLinearDS::setb(VectorFunction b) {
  bFunction_ = std::move(b);
  hasB_ = static_cast<bool>(bFunction_);
}

SimpleMatrix FirstOrderLinearDS::computeA(double t) const {
  if (!aFunction_) return A_;
  SimpleMatrix A = aFunction_(t);
  const std::size_t n = dimension();
  if (A.rows() != n || A.cols() != n)
    throw Error(name() + " A(t)", "a " + std::to_string(n) + "x" + std::to_string(n) + " matrix",
                A.shapeString());
  return A;
}

SiconosVector FirstOrderLinearDS::computeb(double t) const {
  if (!hasB_) return SiconosVector(dimension());
  if (!bFunction_) return b_;
  SiconosVector b = bFunction_(t);
  if (b.size() != dimension())
    throw Error(name() + " b(t)", "a vector of size " + std::to_string(dimension()),
                std::to_string(b.size()));
  return b;
}

SiconosVector FirstOrderLinearDS::computeRhs(double t) const {
  SiconosVector f = computeA(t) * x_;
  if (hasB_) f += computeb(t);
  f += r_;
  return f;
}

}  // namespace nsdyn
