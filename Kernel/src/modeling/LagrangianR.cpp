// LagrangianR: outputs y = h(q), ẏ = H v and input p = Hᵀ λ of mechanical relations.
#include "nsdyn/LagrangianR.hpp"

#include "nsdyn/Interaction.hpp"
#include "nsdyn/SecondOrderDS.hpp"

namespace nsdyn {

bool LagrangianR::accepts(const DynamicalSystem& ds) const {
  return dynamic_cast<const SecondOrderDS*>(&ds) != nullptr;
}

SimpleMatrix LagrangianR::computeJacobianV(const SiconosVector& /*q*/, const SimpleMatrix& jachq,
                                           const SimpleMatrix& T, double /*t*/) const {
  if (T.rows() == 0) return jachq;
  return jachq * T;
}

void LagrangianR::computeJacobians(Interaction& inter, double t) const {
  const SiconosVector q = inter.gatherQ();
  SimpleMatrix jachq = computeJacobianQ(q, t);
  SimpleMatrix H = computeJacobianV(q, jachq, inter.kinematicMatrix(), t);
  inter.setJacobians(std::move(jachq), std::move(H));
}

void LagrangianR::computeOutput(Interaction& inter, double t, bool updateJacobians) const {
  // y = h(q) first (it may refresh a contact geometry the Jacobians use), then H, ydot = H v
  inter.yMutable(0) = computeh(inter.gatherQ(), t);
  if (updateJacobians) computeJacobians(inter, t);
  inter.yMutable(1) = inter.jacobian() * inter.gatherVelocity();
}

SiconosVector LagrangianR::computeInput(const Interaction& inter, double /*t*/) const {
  return inter.jacobian().transposeTimes(inter.lambda(1));  // p = H^T lambda
}

}  // namespace nsdyn
