// NewtonEulerR: rigid-body relations from user callables or constant y = C q + e.
#include "nsdyn/NewtonEulerR.hpp"

#include "nsdyn/Error.hpp"
#include "nsdyn/Interaction.hpp"
#include "nsdyn/NewtonEulerDS.hpp"

namespace nsdyn {

NewtonEulerR::NewtonEulerR(OutputFunction h, JacobianFunction jachq)
    : h_(std::move(h)), jachq_(std::move(jachq)) {
  if (!h_ || !jachq_)
    throw Error("NewtonEulerR", "functions h(q, t) and jachq(q, t)", "an empty std::function");
}

NewtonEulerR::NewtonEulerR(SimpleMatrix C, SiconosVector e)
    : C_(std::move(C)), e_(std::move(e)), constant_(true) {
  if (C_.rows() == 0 || C_.cols() == 0)
    throw Error("NewtonEulerR", "a non-empty matrix C", "C " + C_.shapeString());
  if (e_.size() != C_.rows())
    throw Error("NewtonEulerR", "e with " + std::to_string(C_.rows()) + " entries (rows of C)",
                std::to_string(e_.size()) + " entries");
}

NewtonEulerR::NewtonEulerR(SimpleMatrix C) : NewtonEulerR(C, SiconosVector(C.rows())) {}

bool NewtonEulerR::accepts(const DynamicalSystem& ds) const {
  return dynamic_cast<const NewtonEulerDS*>(&ds) != nullptr;
}

void NewtonEulerR::checkSizes(std::size_t interactionSize, std::size_t dof,
                              const std::string& owner) const {
  if (dof != 7 && dof != 14)
    throw Error(owner, "7 or 14 position coordinates for " + className() + " (one or two bodies)",
                std::to_string(dof));
  if (constant_) {
    if (C_.rows() != interactionSize || C_.cols() != dof)
      throw Error(owner,
                  "C " + std::to_string(interactionSize) + "x" + std::to_string(dof) +
                      " (law size x position coordinates of the linked bodies)",
                  "C " + C_.shapeString());
  }
}

void NewtonEulerR::checkConsistency(const Interaction& inter) const {
  const std::size_t dof = inter.positionDof();
  checkSizes(inter.size(), dof, inter.name());
  if (!h_) return;
  const SiconosVector q = inter.gatherQ();
  const SiconosVector y = h_(q, 0.0);
  if (y.size() != inter.size())
    throw Error(inter.name(), "h(q, t) of size " + std::to_string(inter.size()) + " (law size)",
                std::to_string(y.size()));
  const SimpleMatrix J = jachq_(q, 0.0);
  if (J.rows() != inter.size() || J.cols() != dof)
    throw Error(inter.name(),
                "jachq(q, t) " + std::to_string(inter.size()) + "x" + std::to_string(dof) +
                    " (law size x position coordinates of the linked bodies)",
                "jachq " + J.shapeString());
}

SiconosVector NewtonEulerR::computeh(const SiconosVector& q, double t) const {
  if (constant_) return C_ * q + e_;
  if (!h_)
    throw Error(className(), "an override of computeh (or the functions of NewtonEulerR)", "none");
  return h_(q, t);
}

SimpleMatrix NewtonEulerR::computeJacobianQ(const SiconosVector& q, double t) const {
  if (constant_) return C_;
  if (!jachq_)
    throw Error(className(), "an override of computeJacobianQ (or the functions of NewtonEulerR)",
                "none");
  return jachq_(q, t);
}

}  // namespace nsdyn
