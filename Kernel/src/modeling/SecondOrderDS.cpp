// SecondOrderDS: state and memories of mechanical systems, boundary conditions.
#include "nsdyn/SecondOrderDS.hpp"

#include <algorithm>

#include "nsdyn/Error.hpp"

namespace nsdyn {

SecondOrderDS::SecondOrderDS(SiconosVector q0, SiconosVector v0)
    : q0_(std::move(q0)), v0_(std::move(v0)) {
  q_ = q0_;
  v_ = v0_;
  qMemory_ = q0_;
  vMemory_ = v0_;
  p_ = SiconosVector(v0_.size());
  forces_ = SiconosVector(v0_.size());
  forcesMemory_ = SiconosVector(v0_.size());
}

void SecondOrderDS::swapInMemory() {
  qMemory_ = q_;
  vMemory_ = v_;
  forcesMemory_ = forces_;
}

std::vector<SiconosVector*> SecondOrderDS::checkpointState() {
  return {&q_, &v_, &p_, &forces_};
}

void SecondOrderDS::setBoundaryConditions(std::vector<std::size_t> indices,
                                          PrescribedVelocity values) {
  if (!values)
    throw Error(name() + " boundary conditions", "a prescribed-velocity function",
                "an empty std::function");
  if (indices.empty())
    throw Error(name() + " boundary conditions", "at least one velocity index", "none");
  std::vector<std::size_t> sorted = indices;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    if (sorted[k] >= dimension())
      throw Error(name() + " boundary conditions",
                  "velocity indices in [0, " + std::to_string(dimension() - 1) + "]",
                  std::to_string(sorted[k]));
    if (k > 0 && sorted[k] == sorted[k - 1])
      throw Error(name() + " boundary conditions", "distinct velocity indices",
                  std::to_string(sorted[k]) + " twice");
  }
  bcIndices_ = std::move(indices);
  bcValues_ = std::move(values);
  bcReaction_ = SiconosVector(bcIndices_.size());
}

SiconosVector SecondOrderDS::prescribedVelocity(double t) const {
  SiconosVector v = bcValues_(t);
  if (v.size() != bcIndices_.size())
    throw Error(name() + " prescribed velocity", std::to_string(bcIndices_.size()) + " values",
                std::to_string(v.size()));
  return v;
}

void SecondOrderDS::checkBoundaryConditions() const {
  for (std::size_t i : bcIndices_)
    if (i >= dimension())
      throw Error(name() + " boundary conditions",
                  "velocity indices in [0, " + std::to_string(dimension() - 1) + "]",
                  std::to_string(i));
}

SiconosVector SecondOrderDS::computeStepResidual(double tk1, double theta, double h) {
  SiconosVector F = stepForces(tk1, q_, v_);
  SiconosVector dv = v_;
  dv -= vMemory_;
  SiconosVector R = mass_ * dv;
  R -= (h * (1.0 - theta)) * forcesMemory_;
  R -= (h * theta) * F;
  forces_ = std::move(F);
  return R;
}

void SecondOrderDS::correctPosition(const SiconosVector& dq) {
  if (dq.size() != q_.size())
    throw Error(name() + " position correction", "a vector of size " + std::to_string(q_.size()),
                std::to_string(dq.size()));
  q_ += dq;
  normalizePosition();
}

SiconosVector SecondOrderDS::linearizedImpulse(double tk, double tk1, double theta,
                                               double h) const {
  SiconosVector f = computeForces(tk1, q_, v_);
  f *= theta;
  SiconosVector fk = computeForces(tk, q_, v_);
  fk *= 1.0 - theta;
  f += fk;
  f *= h;
  return f;
}

}  // namespace nsdyn
