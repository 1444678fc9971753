// OneStepIntegrator: system bookkeeping shared by the integrators.
#include "nsdyn/OneStepIntegrator.hpp"

#include <algorithm>
#include <cstdio>

#include "nsdyn/Error.hpp"

namespace nsdyn {

void OneStepIntegrator::insertDynamicalSystem(const SP::DynamicalSystem& ds) {
  if (!ds) throw Error(className() + "::insertDynamicalSystem", "a dynamical system", "null");
  if (!accepts(*ds)) throw Error(className(), "a system it can integrate", ds->name());
  if (std::find(requested_.begin(), requested_.end(), ds) == requested_.end())
    requested_.push_back(ds);
}

bool OneStepIntegrator::integrates(const DynamicalSystem& ds) const {
  return W_.count(ds.number()) != 0;
}

void OneStepIntegrator::initialize(const std::vector<SP::DynamicalSystem>& systems, double /*t0*/,
                                   double h) {
  if (!(theta_ >= 0.0 && theta_ <= 1.0)) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "theta = %.17g", theta_);
    throw Error(className(), "theta in [0, 1]", buf);
  }
  for (const auto& ds : systems)
    if (!accepts(*ds)) throw Error(className(), "a system it can integrate", ds->name());
  h_ = h;
  systems_ = systems;
  W_.clear();
  free_.clear();
}

const SimpleMatrix& OneStepIntegrator::W(const DynamicalSystem& ds) const {
  auto it = W_.find(ds.number());
  if (it == W_.end()) throw Error(className() + "::W", "a system it integrates", ds.name());
  return it->second;
}

const SiconosVector& OneStepIntegrator::freeState(const DynamicalSystem& ds) const {
  auto it = free_.find(ds.number());
  if (it == free_.end())
    throw Error(className() + "::freeState", "a system it integrates", ds.name());
  return it->second;
}

void OneStepIntegrator::setNewtonIterations(bool on) {
  if (on)
    throw Error(className(), "the one-pass scheme (no Newton iterations)",
                "Newton iterations requested");
  newton_ = false;
}

void OneStepIntegrator::prepareNewtonIteration(double /*tk*/, double /*tk1*/) {}

bool OneStepIntegrator::computeResidual(double /*tk1*/, double /*tolerance*/) {
  return true;
}

}  // namespace nsdyn
