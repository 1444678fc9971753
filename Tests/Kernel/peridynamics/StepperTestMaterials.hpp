// The material of the stepper tests: the prototype microelastic brittle (bond-based) one.
#ifndef NSDYN_TESTS_PERIDYNAMICS_STEPPERTESTMATERIALS_HPP
#define NSDYN_TESTS_PERIDYNAMICS_STEPPERTESTMATERIALS_HPP

#include <limits>
#include <memory>

#include <nsdyn/BondBasedMaterial.hpp>

namespace stepper_test {

/// PMB of Young's modulus @p E (ν = 1/4) and critical stretch @p s0 (∞: no fracture);
/// @p horizon is unused (the micromodulus comes from the body).
inline std::shared_ptr<const nsdyn::PeridynamicMaterial> pmb(
    double E, double horizon, double s0 = std::numeric_limits<double>::infinity()) {
  (void)horizon;
  nsdyn::PeridynamicElasticity e;
  e.youngModulus = E;
  e.poissonRatio = 0.25;
  e.criticalStretch = s0;
  return std::make_shared<nsdyn::BondBasedMaterial>(e);
}

}  // namespace stepper_test

#endif
