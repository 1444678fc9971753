// PeridynamicSceneSystem: the points of a peridynamic body as spheres of a SceneEngine's
// store, their free velocity from a PeridynamicStepper (nsdyn/PeridynamicSceneSystem.hpp).
#include "nsdyn/PeridynamicSceneSystem.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"

namespace nsdyn {

PeridynamicSceneSystem::PeridynamicSceneSystem(std::shared_ptr<PeridynamicBody> body,
                                               const Options& options)
    : body_(std::move(body)), options_(options) {
  if (!body_) throw Error("PeridynamicSceneSystem", "a peridynamic body", "null");
  if (options_.group < 0)
    throw Error("PeridynamicSceneSystem of '" + body_->name() + "'", "a material group >= 0",
                std::to_string(options_.group));
  stepper_ = makePeridynamicStepper(options_.stepper);
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
  family_ = largest + 1;
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
    store.setFamily(k, family_);
    store.setForce(k, {b.force[3 * i], b.force[3 * i + 1], b.force[3 * i + 2]});
  }
  xFree_.assign(3 * b.size(), 0.0);
  vFree_.assign(3 * b.size(), 0.0);
  attached_ = true;
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
  report_.contactPoints = touched;
  if (options_.fracture) {
    // breakBonds updates damage and the material's data itself; refresh() would recompute the
    // surface factors from the intact bonds and stiffen the bonds left at a crack
    report_.bondsBroken = b.breakBonds();
    broken_ += report_.bondsBroken;
  }
}

}  // namespace nsdyn
