// DynamicalSystem: numbering and names.
#include "nsdyn/DynamicalSystem.hpp"

#include <atomic>

namespace nsdyn {

namespace {
std::atomic<int> nextSystemNumber{0};
}

DynamicalSystem::DynamicalSystem() : number_(nextSystemNumber++) {}

std::string DynamicalSystem::name() const { return className() + " #" + std::to_string(number_); }

}  // namespace nsdyn
