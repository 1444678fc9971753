#include <memory>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/NewtonCholmod.hpp"
#include "nsdyn/PeridynamicStepper.hpp"
#include "nsdyn/SuccessiveSubstitution.hpp"
#include "nsdyn/VelocityVerlet.hpp"

namespace nsdyn {

std::unique_ptr<PeridynamicStepper> makePeridynamicStepper(const std::string& name) {
  if (name == "substitution" || name == "ss") return std::make_unique<SuccessiveSubstitution>();
  if (name == "newton") return std::make_unique<NewtonCholmod>();
  if (name == "verlet") return std::make_unique<VelocityVerlet>();
  throw Error("makePeridynamicStepper", "\"substitution\" (or \"ss\"), \"newton\" or \"verlet\"",
              "\"" + name + "\"");
}

}  // namespace nsdyn
