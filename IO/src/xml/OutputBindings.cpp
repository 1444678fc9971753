// Names that output expressions read: t, k, h, parameters, SYSTEM.FIELD[i],
// INTERACTION.FIELD[i], step.FIELD, event.FIELD, scene.FIELD.

#include "Loader.hpp"

namespace nsdyn::io::xml {

namespace {

// A vector of the model that outputs read: a live vector (read in place) or
// one computed when read.
struct Source {
  const SiconosVector* live = nullptr;
  std::function<SiconosVector()> compute;
  std::size_t size = 0;
};

Source liveSource(const SiconosVector& v) {
  return {&v, nullptr, v.size()};
}

Source computedSource(std::function<SiconosVector()> f, std::size_t size) {
  return {nullptr, std::move(f), size};
}

// Entry r.index of @p src, or its norm for norm(...).
Binding sourceBinding(const Reference& r, const Source& src) {
  Binding b;
  b.kind = Binding::Kind::Getter;
  if (r.norm) {
    if (src.live) {
      const SiconosVector* p = src.live;
      b.getter = [p] { return p->norm2(); };
    } else {
      auto f = src.compute;
      b.getter = [f] { return f().norm2(); };
    }
    return b;
  }
  if (!r.hasIndex)
    throw ExpressionError("'" + r.text() + "': expected an index [i], i < " +
                          std::to_string(src.size) + " (or norm(" + r.text() + "))");
  if (r.index >= src.size)
    throw ExpressionError("'" + r.text() + "': expected an index below " +
                          std::to_string(src.size) + ", found " + std::to_string(r.index));
  const std::size_t i = r.index;
  if (src.live) {
    const SiconosVector* p = src.live;
    b.getter = [p, i] { return (*p)(i); };
  } else {
    auto f = src.compute;
    b.getter = [f, i] { return f()(i); };
  }
  return b;
}

// A scalar of the model (no index, no norm).
Binding scalarBinding(const Reference& r, std::function<double()> getter) {
  if (r.hasIndex || r.norm)
    throw ExpressionError("'" + r.text() + "': " + r.field + " is a number (no index, no norm)");
  Binding b;
  b.kind = Binding::Kind::Getter;
  b.getter = std::move(getter);
  return b;
}

// The detected contacts of a scene run on the Kernel's TimeStepping (a <GenericMechanical> or
// <RollingFrictionContact> problem); false for one on the scene engine, whose contacts are its
// own arrays (not the ContactManager's).
bool kernelContacts(const std::shared_ptr<Simulation>& sim) {
  const SP::OneStepNSProblem problem = sim ? sim->oneStepNSProblem() : nullptr;
  return std::dynamic_pointer_cast<GenericMechanical>(problem) ||
         std::dynamic_pointer_cast<RollingFrictionContact>(problem);
}

// `scene.min_gap`, `B.min_gap`, `B.contacts`: the smallest gap (+inf when none) or the count
// of the contacts detected for the last step (at the step's start), of every pair (@p body < 0:
// the ContactManager's, or the scene engine's through SceneFigures) or of those of scene body
// @p body (the ContactManager's only).
Binding contactBinding(const Reference& r, const LoadedScene* scene, long body,
                       const std::shared_ptr<Simulation>& sim) {
  if (r.hasIndex || r.norm)
    throw ExpressionError("'" + r.text() + "': " + r.field + " is a number (no index, no norm)");
  if (body >= 0 && !kernelContacts(sim))
    throw ExpressionError("'" + r.text() + "': " + r.field +
                          " reads the contacts of a scene run on the Kernel's TimeStepping "
                          "(a <GenericMechanical> or <RollingFrictionContact> problem); this "
                          "scene runs on the scene engine (scene.min_gap and scene.contacts "
                          "read its contacts)");
  const bool count = r.field == "contacts";
  const ContactManager* cm = scene->contacts.get();
  Binding b;
  b.kind = Binding::Kind::Getter;
  b.getter = [cm, scene, body, count]() -> double {
    if (body < 0 && scene->figures) return scene->figures->minGap;  // stepped by a SceneEngine
    const ContactSet& cs = cm->contacts();
    double gap = INFINITY, n = 0.0;
    for (std::size_t c = 0; c < cs.size(); ++c) {
      if (body >= 0 && cs.bodyA[c] != body && cs.bodyB[c] != body) continue;
      gap = std::min(gap, cs.gap[c]);
      n += 1.0;
    }
    return count ? n : gap;
  };
  return b;
}

}  // namespace

// A scene body read by an output column (LoadedScene::outputBodies).
void Loader::noteOutputBody(const std::string& name) const {
  LoadedScene& scene = *out_->scene;
  const auto at = bodyIndex_.find(name);
  if (at == bodyIndex_.end()) return;
  const std::size_t index = at->second;
  if (outputNoted_.size() <= index) outputNoted_.resize(scene.bodyNames.size(), false);
  if (!outputNoted_[index]) {
    outputNoted_[index] = true;
    scene.outputBodies.push_back(index);
  }
}

// `scene.FIELD`: totals over the scene's bodies and contacts.
Binding Loader::sceneBinding(const Reference& r) const {
  static const std::vector<std::string> names = {
      "kinetic_energy", "potential_energy", "contact_work", "contacts", "bodies",
      "max_z",          "rolling_impulse",  "min_gap"};
  if (r.hasIndex || std::find(names.begin(), names.end(), r.field) == names.end())
    throw ExpressionError("'" + r.text() + "': expected scene.FIELD, FIELD one of " + join(names));
  const ContactManager* cm = out_->scene->contacts.get();
  if (r.field == "min_gap") return contactBinding(r, out_->scene.get(), -1, out_->simulation);
  const std::shared_ptr<OutputClock> clock = out_->outputs.clock;
  const std::string field = r.field;
  const LoadedScene* scene = out_->scene.get();
  Binding b;
  b.kind = Binding::Kind::Getter;
  b.getter = [cm, clock, field, scene]() -> double {
    if (const SceneFigures* f = scene->figures.get()) {  // stepped by a SceneEngine
      if (field == "kinetic_energy") return f->kineticEnergy;
      if (field == "potential_energy") return f->potentialEnergy;
      if (field == "contact_work") return f->contactWork;
      if (field == "contacts") return f->contacts;
      if (field == "bodies") return f->bodies;
      if (field == "rolling_impulse") return 0.0;  // the scene engine has no rolling resistance
      return f->maxZ;
    }
    if (field == "contact_work") return cm->statistics().contactWork;
    if (field == "contacts") return static_cast<double>(cm->contacts().size());
    if (field == "bodies") return static_cast<double>(cm->bodies().size());
    if (field == "rolling_impulse") {  // sum of |r_R| over the contacts (RollingFrictionContact)
      const ContactSet& cs = cm->contacts();
      double total = 0.0;
      for (std::size_t c = 0; c < cs.size(); ++c)
        total += std::hypot(cs.rollingImpulse[2 * c], cs.rollingImpulse[2 * c + 1]);
      return total;
    }
    double sum = 0.0;
    for (const BodyShapes& body : cm->bodies()) {
      if (body.isStatic()) continue;
      if (field == "kinetic_energy")
        sum += body.body()->kineticEnergy();
      else if (field == "potential_energy")
        sum += body.body()->potentialEnergy(clock->t);
      else
        sum = std::max(sum, body.body()->q()(2));
    }
    return sum;
  };
  return b;
}

Binding Loader::systemBinding(const Reference& r, const SP::DynamicalSystem& ds) const {
  std::shared_ptr<OutputClock> clock = out_->outputs.clock;
  if (auto body = std::dynamic_pointer_cast<NewtonEulerDS>(ds)) {
    NewtonEulerDS* raw = body.get();
    if (r.field == "kinetic_energy")
      return scalarBinding(r, [raw] { return raw->kineticEnergy(); });
    if (r.field == "potential_energy")
      return scalarBinding(r, [raw, clock] { return raw->potentialEnergy(clock->t); });
    // only the source asked for is made (a scene's default VTK bodies ask 14 per body)
    const std::string& f = r.field;
    Source src;
    if (f == "q")
      src = liveSource(raw->q());
    else if (f == "v")
      src = liveSource(raw->velocity());
    else if (f == "p")
      src = liveSource(raw->p());
    else if (f == "q_prev")
      src = liveSource(raw->qMemory());
    else if (f == "v_prev")
      src = liveSource(raw->velocityMemory());
    else if (f == "forces")
      src = liveSource(raw->forces());
    else if (f == "bc_reaction" && raw->hasBoundaryConditions())
      src = liveSource(raw->boundaryReaction());
    else if (f == "bc_reaction")
      throw ExpressionError("'" + r.text() +
                            "': bc_reaction exists for bodies with a <boundaryCondition>");
    else if (f == "omega_world")
      src = computedSource([raw] { return raw->angularVelocityWorld(); }, 3);
    else if (f == "momentum")
      src = computedSource([raw] { return raw->linearMomentum(); }, 3);
    else if (f == "angular_momentum")
      src = computedSource([raw] { return raw->angularMomentumWorld(); }, 3);
    else if (f == "rotation")
      src = computedSource(
          [raw] {
            const SimpleMatrix R = raw->rotationMatrix();
            SiconosVector flat(9);
            for (std::size_t i = 0; i < 3; ++i)
              for (std::size_t j = 0; j < 3; ++j) flat(3 * i + j) = R(i, j);
            return flat;
          },
          9);
    else
      throw ExpressionError("'" + r.text() +
                            "': expected a field of a rigid body: q, v, p, q_prev, v_prev, "
                            "forces, bc_reaction, omega_world, momentum, angular_momentum, "
                            "rotation, kinetic_energy, potential_energy (a scene body: also "
                            "min_gap, contacts)");
    return sourceBinding(r, src);
  }
  if (auto l = std::dynamic_pointer_cast<LagrangianDS>(ds)) {
    LagrangianDS* raw = l.get();
    if (r.field == "kinetic_energy")
      return scalarBinding(r, [raw] { return raw->kineticEnergy(); });
    std::map<std::string, Source> fields = {{"q", liveSource(raw->q())},
                                            {"v", liveSource(raw->velocity())},
                                            {"p", liveSource(raw->p())},
                                            {"q_prev", liveSource(raw->qMemory())},
                                            {"v_prev", liveSource(raw->velocityMemory())}};
    if (auto ed = std::dynamic_pointer_cast<EventDriven>(out_->simulation)) {
      EventDriven* sim = ed.get();
      fields["contact_force"] =
          computedSource([sim, raw] { return sim->contactForce(*raw); }, raw->dimension());
    } else if (r.field == "contact_force") {
      throw ExpressionError("'" + r.text() +
                            "': contact_force exists in EventDriven simulations only");
    }
    auto it = fields.find(r.field);
    if (it == fields.end())
      throw ExpressionError(
          "'" + r.text() +
          "': expected a field of a Lagrangian system: q, v, p, q_prev, v_prev, contact_force, "
          "kinetic_energy");
    return sourceBinding(r, it->second);
  }
  auto f = std::dynamic_pointer_cast<FirstOrderLinearDS>(ds);
  if (!f) throw ExpressionError("'" + r.text() + "': no fields for a " + ds->className());
  FirstOrderLinearDS* raw = f.get();
  const std::map<std::string, Source> fields = {
      {"x", liveSource(raw->x())},
      {"r", liveSource(raw->r())},
      {"x_prev", liveSource(raw->xMemory())},
      {"rhs",
       computedSource([raw, clock] { return raw->computeRhs(clock->t); }, raw->dimension())}};
  auto it = fields.find(r.field);
  if (it == fields.end())
    throw ExpressionError("'" + r.text() +
                          "': expected a field of a first-order system: x, r, x_prev, rhs");
  return sourceBinding(r, it->second);
}

Binding Loader::interactionBinding(const Reference& r, const SP::Interaction& inter) const {
  std::shared_ptr<OutputClock> clock = out_->outputs.clock;
  static const std::vector<std::string> names = {
      "y0",      "y1",      "y2",      "lambda0",      "lambda1",      "lambda2",
      "y0_prev", "y1_prev", "y2_prev", "lambda0_prev", "lambda1_prev", "lambda2_prev"};
  if (r.field == "contact_force") {
    Interaction* raw = inter.get();
    return sourceBinding(
        r, computedSource([raw, clock] { return raw->contactForce(clock->t); }, inter->dof()));
  }
  auto it = std::find(names.begin(), names.end(), r.field);
  if (it == names.end())
    throw ExpressionError("'" + r.text() + "': expected a field of an interaction: " + join(names) +
                          ", contact_force");
  const bool lambda = r.field[0] == 'l';
  const bool prev = r.field.find("_prev") != std::string::npos;
  const unsigned level = static_cast<unsigned>(r.field[lambda ? 6 : 1] - '0');
  const SiconosVector& v = lambda ? (prev ? inter->lambdaMemory(level) : inter->lambda(level))
                                  : (prev ? inter->yMemory(level) : inter->y(level));
  return sourceBinding(r, liveSource(v));
}

Binding Loader::outputBinding(const Reference& r) const {
  Binding b;
  b.kind = Binding::Kind::Getter;
  std::shared_ptr<OutputClock> clock = out_->outputs.clock;
  if (r.field.empty() && !r.hasIndex && !r.norm) {
    if (r.base == "t") {
      b.getter = [clock] { return clock->t; };
      return b;
    }
    if (r.base == "k") {
      b.getter = [clock] { return static_cast<double>(clock->k); };
      return b;
    }
    if (r.base == "h") {
      b.getter = [clock] { return clock->h; };
      return b;
    }
    if (parameters_.count(r.base)) return parameterBinding(r);
  }
  if (r.norm && r.field.empty() && parameters_.count(r.base)) return parameterBinding(r);
  // a scene body's contacts (static bodies too: they are not systems)
  if (out_->scene && (r.field == "min_gap" || r.field == "contacts")) {
    if (auto at = bodyIndex_.find(r.base); at != bodyIndex_.end())
      return contactBinding(r, out_->scene.get(), static_cast<long>(at->second), out_->simulation);
  }
  if (SP::DynamicalSystem ds = systemNamed(r.base)) {
    if (out_->scene) noteOutputBody(r.base);
    return systemBinding(r, ds);
  }
  if (auto at = interactionIndex_.find(r.base); at != interactionIndex_.end())
    return interactionBinding(r, out_->interactions[at->second].second);
  if (r.base == "event" && !r.norm) return eventBinding(r);
  if (r.base == "step" && !r.norm) return stepBinding(r);
  if (r.base == "scene" && out_->scene && !r.norm) return sceneBinding(r);
  std::vector<std::string> known = {"t", "k", "h"};
  for (const auto& p : parameters_) known.push_back(p.first);
  for (const auto& s : out_->systems) known.push_back(s.first + ".FIELD[i]");
  for (const auto& i : out_->interactions) known.push_back(i.first + ".FIELD[i]");
  if (std::dynamic_pointer_cast<EventDriven>(out_->simulation))
    known.push_back("event.FIELD");
  else
    known.push_back("step.FIELD");
  if (out_->scene) known.push_back("scene.FIELD");
  throw ExpressionError("unknown name '" + r.text() + "' (expected one of: " + join(known) + ")");
}

// `step.FIELD`: statistics of the last step of a time-stepping run (0 before the first).
Binding Loader::stepBinding(const Reference& r) const {
  if (std::dynamic_pointer_cast<EventDriven>(out_->simulation))
    throw ExpressionError("'" + r.text() + "': step statistics exist in time-stepping runs only");
  static const std::vector<std::string> names = {
      "newton_iterations", "newton_converged", "projections",     "active",
      "solver_iterations", "residual",         "above_tolerance", "motor_work",
      "joint_work",        "unilateral_work",  "contact_work",    "work"};
  if (r.hasIndex || std::find(names.begin(), names.end(), r.field) == names.end())
    throw ExpressionError("'" + r.text() + "': expected step.FIELD, FIELD one of " + join(names));
  double (*read)(const StepStatistics&) = nullptr;
  if (r.field == "newton_iterations")
    read = [](const StepStatistics& s) { return static_cast<double>(s.newtonIterations); };
  else if (r.field == "newton_converged")
    read = [](const StepStatistics& s) { return s.newtonConverged ? 1.0 : 0.0; };
  else if (r.field == "projections")
    read = [](const StepStatistics& s) { return static_cast<double>(s.projectionIterations); };
  else if (r.field == "active")
    read = [](const StepStatistics& s) { return static_cast<double>(s.activeRelations); };
  else if (r.field == "solver_iterations")
    read = [](const StepStatistics& s) { return static_cast<double>(s.iterations); };
  else if (r.field == "above_tolerance")
    read = [](const StepStatistics& s) { return s.aboveTolerance ? 1.0 : 0.0; };
  else if (r.field == "motor_work")
    read = [](const StepStatistics& s) { return s.work.motors; };
  else if (r.field == "joint_work")
    read = [](const StepStatistics& s) { return s.work.joints; };
  else if (r.field == "unilateral_work")
    read = [](const StepStatistics& s) { return s.work.unilateral; };
  else if (r.field == "contact_work")
    read = [](const StepStatistics& s) { return s.work.contacts; };
  else if (r.field == "work")
    read = [](const StepStatistics& s) { return s.work.total(); };
  else
    read = [](const StepStatistics& s) { return s.residual; };
  const Simulation* sim = out_->simulation.get();
  const LoadedScene* scene = out_->scene.get();
  Binding b;
  b.kind = Binding::Kind::Getter;
  b.getter = [sim, scene, read] {
    if (scene && scene->figures) return read(scene->figures->step);  // a SceneEngine's step
    const std::vector<StepStatistics>& steps = sim->statistics();
    return steps.empty() ? 0.0 : read(steps.back());
  };
  return b;
}

// `event.FIELD`: statistics of the last processed event of an EventDriven
// run (FIELD_prev: of the event before it); 0 while there is none.
Binding Loader::eventBinding(const Reference& r) const {
  auto ed = std::dynamic_pointer_cast<EventDriven>(out_->simulation);
  if (!ed)
    throw ExpressionError("'" + r.text() +
                          "': event statistics exist in EventDriven simulations only");
  static const std::vector<std::string> names = {
      "nonsmooth",           "closed",   "resting",        "impacts",
      "switched_to_resting", "released", "impact_velocity"};
  std::string field = r.field;
  std::size_t back = 1;  // 1: the last event, 2: the one before it
  const std::string suffix = "_prev";
  if (field.size() > suffix.size() &&
      field.compare(field.size() - suffix.size(), suffix.size(), suffix) == 0) {
    field.resize(field.size() - suffix.size());
    back = 2;
  }
  if (r.hasIndex || std::find(names.begin(), names.end(), field) == names.end())
    throw ExpressionError("'" + r.text() +
                          "': expected event.FIELD or event.FIELD_prev, FIELD one of " +
                          join(names));
  double (*read)(const EventStatistics&) = nullptr;
  if (field == "nonsmooth")
    read = [](const EventStatistics& e) { return e.type == EventType::NonSmooth ? 1.0 : 0.0; };
  else if (field == "closed")
    read = [](const EventStatistics& e) { return static_cast<double>(e.closedRelations); };
  else if (field == "resting")
    read = [](const EventStatistics& e) { return static_cast<double>(e.restingRelations); };
  else if (field == "impacts")
    read = [](const EventStatistics& e) { return static_cast<double>(e.impacts); };
  else if (field == "switched_to_resting")
    read = [](const EventStatistics& e) { return static_cast<double>(e.switchedToResting); };
  else if (field == "released")
    read = [](const EventStatistics& e) { return static_cast<double>(e.released); };
  else
    read = [](const EventStatistics& e) { return e.maxImpactVelocity; };
  const EventDriven* sim = ed.get();
  Binding b;
  b.kind = Binding::Kind::Getter;
  b.getter = [sim, back, read] {
    const std::vector<EventStatistics>& events = sim->eventStatistics();
    return events.size() < back ? 0.0 : read(events[events.size() - back]);
  };
  return b;
}

}  // namespace nsdyn::io::xml
