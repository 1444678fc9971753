// PeridynamicSceneSystem: the points of a peridynamic body as spheres of a SceneEngine's
// store, their free velocity from a PeridynamicStepper (nsdyn/PeridynamicSceneSystem.hpp).
#include "nsdyn/PeridynamicSceneSystem.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"
#include "peridynamics/steppers/StepMatrix.hpp"

namespace nsdyn {

PeridynamicSceneSystem::PeridynamicSceneSystem(std::shared_ptr<PeridynamicBody> body,
                                               const Options& options)
    : body_(std::move(body)), options_(options) {
  if (!body_) throw Error("PeridynamicSceneSystem", "a peridynamic body", "null");
  if (options_.group < 0)
    throw Error("PeridynamicSceneSystem of '" + body_->name() + "'", "a material group >= 0",
                std::to_string(options_.group));
  stepper_ = makePeridynamicStepper(options_.stepper);
  matrix_ = std::make_unique<peridynamics::StepMatrix>();
}

PeridynamicSceneSystem::~PeridynamicSceneSystem() = default;

std::string PeridynamicSceneSystem::name() const {
  return "peridynamic body '" + body_->name() + "'";
}

void PeridynamicSceneSystem::attach(SceneEngine& engine) {
  if (attached_) throw Error(name(), "attached to one scene engine once", "a second attach");
  const double theta = engine.options().theta;
  if (!(theta >= 0.5))
    throw Error(name(), "the scene engine's theta in [1/2, 1] (the implicit stepper's range)",
                "theta = " + std::to_string(theta));
  BodyStore& store = engine.bodies();
  std::int32_t largest = 0;
  for (std::int32_t f : store.family) largest = std::max(largest, f);
  family_ = options_.selfContact ? 0 : largest + 1;
  const PeridynamicBody& b = *body_;
  const auto sphere = std::make_shared<SphereShape>(b.contactRadius());
  first_ = store.size();
  for (std::size_t i = 0; i < b.size(); ++i) {
    BodySpec spec;
    spec.name = b.name() + " point " + std::to_string(i);
    ShapeInstance s;
    s.shape = sphere;
    spec.shapes.push_back(s);
    spec.mass = b.mass[i];
    spec.position = {b.x[3 * i], b.x[3 * i + 1], b.x[3 * i + 2]};
    for (std::size_t k = 0; k < 3; ++k) spec.velocity[k] = b.v[3 * i + k];
    const std::size_t k = engine.addBody(spec, options_.group);
    store.lockRotation(k);
    if (family_ > 0) store.setFamily(k, family_);
    store.setForce(k, {b.force[3 * i], b.force[3 * i + 1], b.force[3 * i + 2]});
  }
  xFree_.assign(3 * b.size(), 0.0);
  vFree_.assign(3 * b.size(), 0.0);
  xSeen_ = b.x;
  vSeen_ = b.v;
  attached_ = true;
}

// Between steps both the store and the body hold the state: what a user changed on the body
// (x or v of a point) goes into the store here; what was changed on the store is read back by
// freeVelocity.
void PeridynamicSceneSystem::beginStep(SceneEngine& engine) {
  PeridynamicBody& b = *body_;
  BodyStore& store = engine.bodies();
  for (std::size_t i = 0; i < b.size(); ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      const std::size_t q = 3 * i + k;
      if (b.x[q] != xSeen_[q]) store.q[7 * (first_ + i) + k] = b.x[q];
      if (b.v[q] != vSeen_[q]) store.v[6 * (first_ + i) + k] = b.v[q];
    }
}

void PeridynamicSceneSystem::freeVelocity(const SceneEngine& engine, double* vel) {
  PeridynamicBody& b = *body_;
  const BodyStore& store = engine.bodies();
  const std::size_t n = b.size();
  // the state at t_k is the store's (a user or the recovery may have moved the points)
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < 3; ++k) {
      b.x[3 * i + k] = store.q[7 * (first_ + i) + k];
      b.v[3 * i + k] = store.v[6 * (first_ + i) + k];
    }
  PeridynamicStepOptions o = options_.step;
  o.h = engine.options().h;
  o.theta = engine.options().theta;
  o.gravity = engine.options().gravity;
  report_ = Report();
  responding_ = false;
  report_.step = stepper_->freeStep(b, o, xFree_.data(), vFree_.data());
  iterations_ += report_.step.iterations;
  for (std::size_t i = 0; i < n; ++i) {
    double* vw = vel + 6 * (first_ + i);
    for (std::size_t k = 0; k < 3; ++k) {
      vw[k] = vFree_[3 * i + k];
      vw[3 + k] = 0.0;
    }
  }
}

void PeridynamicSceneSystem::endStep(SceneEngine& engine) {
  PeridynamicBody& b = *body_;
  BodyStore& store = engine.bodies();
  const std::size_t n = b.size();
  std::size_t touched = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double* q = &store.q[7 * (first_ + i)];
    double* v = &store.v[6 * (first_ + i)];
    bool changed = false;
    for (std::size_t k = 0; k < 3; ++k) {
      if (v[k] != vFree_[3 * i + k]) changed = true;
      if (b.prescribed[i]) {  // back on the prescribed motion
        q[k] = xFree_[3 * i + k];
        v[k] = vFree_[3 * i + k];
      }
      b.x[3 * i + k] = q[k];
      b.v[3 * i + k] = v[k];
    }
    if (changed) ++touched;
  }
  report_.contactPoints = responding_ ? report_.impulsePoints : touched;
  xSeen_ = b.x;
  vSeen_ = b.v;
  if (options_.fracture) {
    // breakBonds updates damage and the material's data itself; refresh() would recompute the
    // surface factors from the intact bonds and stiffen the bonds left at a crack
    report_.bondsBroken = b.breakBonds();
    broken_ += report_.bondsBroken;
  }
}

bool PeridynamicSceneSystem::keepsContact(std::size_t a, std::size_t b) const {
  const PeridynamicBody& body = *body_;
  const std::size_t i = a - first_, j = b - first_;
  if (i >= body.size() || j >= body.size()) return true;
  // the bonds of i, sorted by neighbour
  const auto begin = body.neighbour.begin() + body.bondStart[i];
  const auto end = body.neighbour.begin() + body.bondStart[i + 1];
  const auto it = std::lower_bound(begin, end, static_cast<std::uint32_t>(j));
  if (it == end || *it != j) return true;
  return body.bondBroken[static_cast<std::size_t>(it - body.neighbour.begin())] != 0;
}

// an explicit stepper (verlet) answers an impulse within the step by the mass alone: the lumped
// response is its exact one
bool PeridynamicSceneSystem::coupled() const {
  return options_.exactResponse && stepper_->implicit();
}

std::size_t PeridynamicSceneSystem::bodyCount() const {
  return attached_ ? body_->size() : 0;
}

// A = M + h²θ² K at the free end positions x̃ (the engine moves the body by x̃ + hθ Δv, and
// M Δv = Jᵀr − hθ K (hθ Δv) to first order): H = M/(h²θ²) + K factored, A⁻¹ = H⁻¹/(h²θ²);
// its columns at the touched points, less the store's lumped M⁻¹.
bool PeridynamicSceneSystem::beginResponse(const SceneEngine& engine, const std::size_t* touched,
                                           std::size_t count) {
  const auto start = std::chrono::steady_clock::now();
  const PeridynamicBody& b = *body_;
  const std::size_t n = b.size();
  touched_.assign(touched, touched + count);
  responding_ = false;
  report_.responsePoints = count;
  // the tangent of the state-based and correspondence models is the bond part of their
  // Hessian (which couples points two horizons apart): a response from it would be wrong, and
  // a body at rest would settle where f(x̃) − K (x_k − x̃), not f(x_k), balances its load
  if (count > options_.exactResponseLimit || !b.material().bondwiseTangent()) {
    report_.lumpedResponse = true;
    return false;
  }
  const double h = engine.options().h, theta = engine.options().theta;
  responseScale_ = 1.0 / (h * h * theta * theta);
  if (!matrix_->factor(b, xFree_.data(), responseScale_, options_.step.threads)) {
    report_.lumpedResponse = true;
    return false;
  }
  const BodyStore& store = engine.bodies();
  // columns_[(3a + k) 3 count + 3c + r]: velocity r of touched point c per unit impulse k on
  // touched point a, less the lumped δ_ac invMass
  columns_.assign(9 * count * count, 0.0);
  for (std::size_t a = 0; a < count; ++a)
    for (std::size_t k = 0; k < 3; ++k) {
      work_.assign(3 * n, 0.0);
      work_[3 * (touched_[a] - first_) + k] = 1.0;
      if (!matrix_->solve(work_.data())) {
        report_.lumpedResponse = true;
        return false;
      }
      double* col = &columns_[(3 * a + k) * 3 * count];
      for (std::size_t c = 0; c < count; ++c)
        for (std::size_t r = 0; r < 3; ++r)
          col[3 * c + r] = work_[3 * (touched_[c] - first_) + r] * responseScale_;
      col[3 * a + k] -= store.invMass[touched_[a]];
    }
  responding_ = true;
  report_.responseSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return true;
}

void PeridynamicSceneSystem::responseBlock(std::size_t a, std::size_t b, double* out) const {
  if (!responding_) {
    std::fill(out, out + 9, 0.0);
    return;
  }
  const std::size_t t3 = 3 * touched_.size();
  // out[r][k]: velocity r of touched point a per unit impulse k on touched point b
  for (std::size_t k = 0; k < 3; ++k)
    for (std::size_t r = 0; r < 3; ++r) out[3 * r + k] = columns_[(3 * b + k) * t3 + 3 * a + r];
}

void PeridynamicSceneSystem::correctVelocity(const SceneEngine& engine, const double* impulse,
                                             double* vel) {
  if (!responding_) return;
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = body_->size();
  report_.impulsePoints = 0;
  for (std::size_t a = 0; a < touched_.size(); ++a)
    if (impulse[3 * a] != 0.0 || impulse[3 * a + 1] != 0.0 || impulse[3 * a + 2] != 0.0)
      ++report_.impulsePoints;
  // Δv = (A⁻¹ − M⁻¹) Jᵀr on every point: one more solve with the factor
  const BodyStore& store = engine.bodies();
  work_.assign(3 * n, 0.0);
  for (std::size_t a = 0; a < touched_.size(); ++a)
    for (std::size_t k = 0; k < 3; ++k) work_[3 * (touched_[a] - first_) + k] = impulse[3 * a + k];
  if (!matrix_->solve(work_.data())) {
    report_.lumpedResponse = true;
    return;
  }
  for (std::size_t q = 0; q < 3 * n; ++q) work_[q] *= responseScale_;
  for (std::size_t a = 0; a < touched_.size(); ++a)
    for (std::size_t k = 0; k < 3; ++k)
      work_[3 * (touched_[a] - first_) + k] -= store.invMass[touched_[a]] * impulse[3 * a + k];
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < 3; ++k) vel[6 * (first_ + i) + k] += work_[3 * i + k];
  report_.responseSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace nsdyn
