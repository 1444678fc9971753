// DynamicalSystem: numbering and names.
#include "nsdyn/DynamicalSystem.hpp"

#include <atomic>

#include "nsdyn/Error.hpp"

namespace nsdyn {

namespace {
std::atomic<int> nextSystemNumber{0};
}

DynamicalSystem::DynamicalSystem() : number_(nextSystemNumber++) {}

std::string DynamicalSystem::name() const {
  return name_.empty() ? className() + " #" + std::to_string(number_)
                       : className() + " '" + name_ + "'";
}

const SiconosVector& DynamicalSystem::relationVelocity() const {
  throw Error(name(), "a mechanical system (velocities) for a mechanical relation", className());
}

const SiconosVector& DynamicalSystem::relationVelocityMemory() const {
  throw Error(name(), "a mechanical system (velocities) for a mechanical relation", className());
}

}  // namespace nsdyn
