// FirstOrderLinearR: y = C x + D lambda + F u + e, r = B lambda.
#include "nsdyn/FirstOrderLinearR.hpp"

#include "nsdyn/Error.hpp"
#include "nsdyn/FirstOrderLinearDS.hpp"
#include "nsdyn/Interaction.hpp"
#include "nsdyn/UnitaryRelation.hpp"

namespace nsdyn {

FirstOrderLinearR::FirstOrderLinearR(SimpleMatrix C, SimpleMatrix B)
    : C_(std::move(C)), B_(std::move(B)) {}

FirstOrderLinearR::FirstOrderLinearR(MatrixFunction C, MatrixFunction B)
    : cFunction_(std::move(C)), bFunction_(std::move(B)) {
  if (!cFunction_ || !bFunction_)
    throw Error("FirstOrderLinearR", "functions C(t) and B(t)", "an empty std::function");
}

void FirstOrderLinearR::checkSizes(std::size_t m, std::size_t n, const std::string& owner) const {
  const std::string mn = std::to_string(m) + "x" + std::to_string(n);
  const SimpleMatrix C = computeC(0.0);
  if (C.rows() != m || C.cols() != n)
    throw Error(owner, "C " + mn + " (law size x dof of the linked systems)",
                "C " + C.shapeString());
  const SimpleMatrix B = computeB(0.0);
  if (B.rows() != n || B.cols() != m)
    throw Error(owner, "B " + std::to_string(n) + "x" + std::to_string(m) + " (dof x law size)",
                "B " + B.shapeString());
  if (hasD_) {
    const SimpleMatrix D = dFunction_ ? dFunction_(0.0) : D_;
    if (!D.isSquare()) throw Error(owner, "a square D", "D " + D.shapeString());
    if (D.rows() != m)
      throw Error(owner, "D " + std::to_string(m) + "x" + std::to_string(m) + " (law size)",
                  "D " + D.shapeString());
  }
  if (hasE_) {
    const SiconosVector e = eFunction_ ? eFunction_(0.0) : e_;
    if (e.size() != m)
      throw Error(owner, "e of size " + std::to_string(m), std::to_string(e.size()));
  }
  if (hasF_) {
    const SiconosVector u = uFunction_ ? uFunction_(0.0) : u_;
    if (F_.rows() != m || F_.cols() != u.size())
      throw Error(
          owner,
          "F " + std::to_string(m) + "x" + std::to_string(u.size()) + " (law size x size of u)",
          "F " + F_.shapeString());
  }
}

void FirstOrderLinearR::setC(SimpleMatrix C) {
  C_ = std::move(C);
  cFunction_ = nullptr;
}
void FirstOrderLinearR::setC(MatrixFunction C) {
  cFunction_ = std::move(C);
}
void FirstOrderLinearR::setD(SimpleMatrix D) {
  D_ = std::move(D);
  dFunction_ = nullptr;
  hasD_ = true;
}
void FirstOrderLinearR::setD(MatrixFunction D) {
  dFunction_ = std::move(D);
  hasD_ = static_cast<bool>(dFunction_);
}
void FirstOrderLinearR::setB(SimpleMatrix B) {
  B_ = std::move(B);
  bFunction_ = nullptr;
}
void FirstOrderLinearR::setB(MatrixFunction B) {
  bFunction_ = std::move(B);
}
void FirstOrderLinearR::sete(SiconosVector e) {
  e_ = std::move(e);
  eFunction_ = nullptr;
  hasE_ = true;
}
void FirstOrderLinearR::sete(VectorFunction e) {
  eFunction_ = std::move(e);
  hasE_ = static_cast<bool>(eFunction_);
}
void FirstOrderLinearR::setF(SimpleMatrix F, VectorFunction u) {
  F_ = std::move(F);
  uFunction_ = std::move(u);
  hasF_ = static_cast<bool>(uFunction_);
}
void FirstOrderLinearR::setF(SimpleMatrix F, SiconosVector u) {
  F_ = std::move(F);
  u_ = std::move(u);
  uFunction_ = nullptr;
  hasF_ = true;
}

SimpleMatrix FirstOrderLinearR::computeC(double t) const {
  return cFunction_ ? cFunction_(t) : C_;
}

SimpleMatrix FirstOrderLinearR::computeD(double t, std::size_t m) const {
  if (!hasD_) return SimpleMatrix(m, m);
  return dFunction_ ? dFunction_(t) : D_;
}

SimpleMatrix FirstOrderLinearR::computeB(double t) const {
  return bFunction_ ? bFunction_(t) : B_;
}

SiconosVector FirstOrderLinearR::computee(double t, std::size_t m) const {
  if (!hasE_) return SiconosVector(m);
  return eFunction_ ? eFunction_(t) : e_;
}

SiconosVector FirstOrderLinearR::computeFu(double t, std::size_t m) const {
  if (!hasF_) return SiconosVector(m);
  return F_ * (uFunction_ ? uFunction_(t) : u_);
}

bool FirstOrderLinearR::accepts(const DynamicalSystem& ds) const {
  return dynamic_cast<const FirstOrderLinearDS*>(&ds) != nullptr;
}

void FirstOrderLinearR::computeJacobians(Interaction& inter, double t) const {
  SimpleMatrix C = computeC(t);
  SimpleMatrix copy = C;
  inter.setJacobians(std::move(copy), std::move(C));
}

void FirstOrderLinearR::computeOutput(Interaction& inter, double t, bool updateJacobians) const {
  // y = C x + D lambda + F u + e
  if (updateJacobians) computeJacobians(inter, t);
  SiconosVector y = inter.jacobian() * inter.gatherQ();
  const std::size_t m = inter.size();
  if (hasD()) y += computeD(t, m) * inter.lambda(0);
  if (hasF()) y += computeFu(t, m);
  if (hasE()) y += computee(t, m);
  inter.yMutable(0) = y;
}

SiconosVector FirstOrderLinearR::computeInput(const Interaction& inter, double t) const {
  return computeB(t) * inter.lambda(0);  // r = B lambda
}

void FirstOrderLinearR::addSelfCoupling(SimpleMatrix& block, const UnitaryRelation& a,
                                        const UnitaryRelation& b, double t) const {
  if (!hasD()) return;
  block += computeD(t, a.interaction().size())
               .block(a.relativePosition(), b.relativePosition(), a.size(), b.size());
}

}  // namespace nsdyn
