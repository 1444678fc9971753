// Model: [t0, T], the NSDS and its simulation.
#include "nsdyn/Model.hpp"

#include <cmath>
#include <cstdio>

#include "nsdyn/Error.hpp"
#include "nsdyn/Simulation.hpp"

namespace nsdyn {

Model::Model(double t0, double T)
    : t0_(t0), T_(T), nsds_(std::make_shared<NonSmoothDynamicalSystem>()) {}

Model::Model(double t0, double T, SP::NonSmoothDynamicalSystem nsds)
    : t0_(t0), T_(T), nsds_(std::move(nsds)) {
  if (!nsds_) throw Error("Model", "a NonSmoothDynamicalSystem", "null");
}

Model::~Model() = default;

void Model::setSimulation(std::shared_ptr<Simulation> simulation) {
  simulation_ = std::move(simulation);
}

void Model::initialize() {
  if (!(T_ > t0_) || !std::isfinite(T_) || !std::isfinite(t0_)) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "t0 = %.17g, T = %.17g", t0_, T_);
    throw Error("Model", "final time T > t0", buf);
  }
  if (!simulation_) throw Error("Model", "a simulation (setSimulation)", "none");
  nsds_->checkConsistency();
  simulation_->initialize(*this);
}

void Model::initialize(std::shared_ptr<Simulation> simulation) {
  setSimulation(std::move(simulation));
  initialize();
}

double Model::currentTime() const {
  return simulation_ && simulation_->isInitialized() ? simulation_->currentTime() : t0_;
}

}  // namespace nsdyn
