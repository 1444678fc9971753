#include "nsdyn/PeridynamicSimulation.hpp"

#include <algorithm>
#include <utility>

#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"

namespace nsdyn {

namespace {

// Adds one body's step report into the summed one (worst residual and status).
void accumulate(PeridynamicStepReport& sum, const PeridynamicStepReport& r) {
  if (r.status != NSD_OK && sum.status == NSD_OK) sum.status = r.status;
  sum.iterations += r.iterations;
  sum.residual = std::max(sum.residual, r.residual);
  sum.energyStart += r.energyStart;
  sum.energyEnd += r.energyEnd;
  sum.monotone = sum.monotone && r.monotone;
  sum.seconds += r.seconds;
  sum.bondUpdates += r.bondUpdates;
  if (r.stableStep > 0.0)
    sum.stableStep = sum.stableStep > 0.0 ? std::min(sum.stableStep, r.stableStep) : r.stableStep;
}

// −Σ (m g + F)·x over the free points: the potential of gravity and of the applied forces.
double loadPotential(const PeridynamicBody& b, const std::array<double, 3>& g) {
  double e = 0.0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.prescribed[i]) continue;
    for (int k = 0; k < 3; ++k) e -= (b.mass[i] * g[k] + b.force[3 * i + k]) * b.x[3 * i + k];
  }
  return e;
}

}  // namespace

PeridynamicSimulation::PeridynamicSimulation(const Options& options)
    : options_(options), stepper_(makePeridynamicStepper(options.method)) {}

std::size_t PeridynamicSimulation::add(std::shared_ptr<PeridynamicBody> body) {
  if (!body) throw Error("PeridynamicSimulation::add", "a body", "null");
  bodies_.push_back(std::move(body));
  return bodies_.size() - 1;
}

const PeridynamicSimulation::StepReport& PeridynamicSimulation::step() {
  StepReport r;
  for (auto& body : bodies_) {
    x_.resize(3 * body->size());
    v_.resize(3 * body->size());
    accumulate(r.solver, stepper_->freeStep(*body, options_.step, x_.data(), v_.data()));
    std::copy(x_.begin(), x_.end(), body->x.begin());
    std::copy(v_.begin(), v_.end(), body->v.begin());
    if (options_.fracture && body->material().criticalStretch() < 1e300) {
      // breakBonds updates damage and the material's data itself; refresh() would recompute
      // the surface factors from the intact bonds and stiffen the bonds left at a crack
      const std::size_t broken = body->breakBonds();
      r.bondsBroken += broken;
    }
  }
  ++steps_;
  time_ += options_.step.h;
  r.step = steps_;
  r.time = time_;
  return finishReport(r);
}

// The energies of the bodies summed into @p r, kept as the last report.
const PeridynamicSimulation::StepReport& PeridynamicSimulation::finishReport(StepReport& r) {
  for (const auto& body : bodies_) {
    r.kineticEnergy += body->kineticEnergy();
    r.elasticEnergy += body->elasticEnergy();
    r.potentialEnergy += loadPotential(*body, options_.step.gravity);
  }
  report_ = r;
  return report_;
}

const PeridynamicSimulation::StepReport& PeridynamicSimulation::equilibrium() {
  StepReport r;
  PeridynamicStepOptions statics = options_.step;
  statics.h = 0.0;
  for (auto& body : bodies_) {
    x_.resize(3 * body->size());
    v_.resize(3 * body->size());
    accumulate(r.solver, stepper_->freeStep(*body, statics, x_.data(), v_.data()));
    std::copy(x_.begin(), x_.end(), body->x.begin());
  }
  r.step = steps_;
  r.time = time_;
  return finishReport(r);
}

double PeridynamicSimulation::totalEnergy() const {
  double e = 0.0;
  for (const auto& body : bodies_)
    e +=
        body->kineticEnergy() + body->elasticEnergy() + loadPotential(*body, options_.step.gravity);
  return e;
}

}  // namespace nsdyn
