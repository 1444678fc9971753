// LagrangianScleronomousR: y = h(q), G(q) from user callables.
#include "nsdyn/LagrangianScleronomousR.hpp"

#include "nsdyn/Error.hpp"
#include "nsdyn/Interaction.hpp"

namespace nsdyn {

LagrangianScleronomousR::LagrangianScleronomousR(OutputFunction h, JacobianFunction G)
    : h_(std::move(h)), G_(std::move(G)) {
  if (!h_ || !G_)
    throw Error("LagrangianScleronomousR", "functions h(q) and G(q)", "an empty std::function");
}

void LagrangianScleronomousR::checkSizes(std::size_t /*interactionSize*/, std::size_t /*dof*/,
                                         const std::string& /*owner*/) const {}

void LagrangianScleronomousR::checkSizesAt(const SiconosVector& q, std::size_t interactionSize,
                                           const std::string& owner) const {
  const SiconosVector y = h_(q);
  if (y.size() != interactionSize)
    throw Error(owner, "h(q) of size " + std::to_string(interactionSize) + " (law size)",
                std::to_string(y.size()));
  const SimpleMatrix G = G_(q);
  if (G.rows() != interactionSize || G.cols() != q.size())
    throw Error(owner,
                "G(q) " + std::to_string(interactionSize) + "x" + std::to_string(q.size()) +
                    " (law size x dof of the linked systems)",
                "G " + G.shapeString());
}

SiconosVector LagrangianScleronomousR::computeh(const SiconosVector& q, double /*t*/) const {
  return h_(q);
}

SimpleMatrix LagrangianScleronomousR::computeJacobianQ(const SiconosVector& q, double /*t*/) const {
  return G_(q);
}

void LagrangianScleronomousR::checkConsistency(const Interaction& inter) const {
  checkSizesAt(inter.gatherQ(), inter.size(), inter.name());
}

}  // namespace nsdyn
