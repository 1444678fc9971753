// LagrangianLinearTIR: y = H q + b.
#include "nsdyn/LagrangianLinearTIR.hpp"

#include "nsdyn/Error.hpp"

namespace nsdyn {

LagrangianLinearTIR::LagrangianLinearTIR(SimpleMatrix H) : H_(std::move(H)), b_(H_.rows()) {}

LagrangianLinearTIR::LagrangianLinearTIR(SimpleMatrix H, SiconosVector b)
    : H_(std::move(H)), b_(std::move(b)) {
  if (b_.size() != H_.rows())
    throw Error("LagrangianLinearTIR", "b of size " + std::to_string(H_.rows()) + " (rows of H)",
                std::to_string(b_.size()));
}

void LagrangianLinearTIR::checkSizes(std::size_t interactionSize, std::size_t dof,
                                     const std::string& owner) const {
  if (H_.rows() != interactionSize)
    throw Error(owner, "H with " + std::to_string(interactionSize) + " rows (law size)",
                "H " + H_.shapeString());
  if (H_.cols() != dof)
    throw Error(owner, "H with " + std::to_string(dof) + " columns (dof of the linked systems)",
                "H " + H_.shapeString());
}

SiconosVector LagrangianLinearTIR::computeh(const SiconosVector& q, double /*t*/) const {
  SiconosVector y = H_ * q;
  y += b_;
  return y;
}

}  // namespace nsdyn
