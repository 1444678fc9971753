// NewtonEulerJointR: what the joints share — their bodies, the constructor checks,
// the size and link checks.
#include "nsdyn/NewtonEulerJointR.hpp"

#include "nsdyn/Error.hpp"
#include "nsdyn/Interaction.hpp"

namespace nsdyn {

namespace {

std::string bodies(std::size_t nb) {
  return std::to_string(nb) + (nb == 1 ? " body" : " bodies");
}

}  // namespace

NewtonEulerJointR::NewtonEulerJointR(const std::string& jointName, std::size_t rows,
                                     SP::NewtonEulerDS body1)
    : rows_(rows), twoBodies_(false), body1_(body1) {
  if (!body1) throw Error(jointName, "a first body (NewtonEulerDS)", "a null pointer");
}

NewtonEulerJointR::NewtonEulerJointR(const std::string& jointName, std::size_t rows,
                                     SP::NewtonEulerDS body1, SP::NewtonEulerDS body2)
    : rows_(rows), twoBodies_(true), body1_(body1), body2_(body2) {
  if (!body1) throw Error(jointName, "a first body (NewtonEulerDS)", "a null pointer");
  if (!body2) throw Error(jointName, "a second body (NewtonEulerDS)", "a null pointer");
  if (body1 == body2)
    throw Error(jointName, "two different bodies", "the same body " + body1->name() + " twice");
}

void NewtonEulerJointR::checkSizes(std::size_t interactionSize, std::size_t dof,
                                   const std::string& owner) const {
  if (interactionSize != rows_)
    throw Error(owner, "law size " + std::to_string(rows_) + " for " + className(),
                std::to_string(interactionSize));
  const std::size_t nb = bodyCount();
  if (dof != 7 * nb)
    throw Error(owner,
                std::to_string(7 * nb) + " position coordinates for " + className() + " (" +
                    bodies(nb) + ")",
                std::to_string(dof));
}

void NewtonEulerJointR::checkQ(const SiconosVector& q) const {
  NewtonEulerJointR::checkSizes(rows_, q.size(), className());
}

void NewtonEulerJointR::checkConsistency(const Interaction& inter) const {
  checkSizes(inter.size(), inter.positionDof(), inter.name());
  const auto& systems = inter.dynamicalSystems();
  const std::size_t nb = bodyCount();
  if (systems.size() != nb)
    throw Error(inter.name(), bodies(nb) + " for " + className(),
                std::to_string(systems.size()) + " systems");
  const std::weak_ptr<NewtonEulerDS>* expected[2] = {&body1_, &body2_};
  for (std::size_t i = 0; i < nb; ++i) {
    const auto body = expected[i]->lock();
    if (body && static_cast<const DynamicalSystem*>(body.get()) != systems[i].get())
      throw Error(inter.name(),
                  (i == 0 ? "first system " : "second system ") + body->name() +
                      " (the body given to its " + className() + ")",
                  systems[i]->name());
  }
}

}  // namespace nsdyn
