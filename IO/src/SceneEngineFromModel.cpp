// The SceneEngine of a model file's <scene> (nsdyn run), and the copy of the bodies that
// output columns read back into their NewtonEulerDS.
#include "nsdyn/io/SceneEngineFromModel.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "nsdyn/Error.hpp"
#include "nsdyn/FrictionContact.hpp"
#include "nsdyn/MoreauJeanOSI.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/OneStepIntegrator.hpp"
#include "nsdyn/PeridynamicSceneSystem.hpp"

namespace nsdyn::io {

namespace {

// The model's options for the engine (Error naming the file for what it does not step).
SceneEngineOptions engineOptions(const LoadedModel& model) {
  const std::string who = model.file + ": <scene> on the scene engine";
  const LoadedScene& scene = *model.scene;
  const std::size_t sceneSystems = static_cast<std::size_t>(
      std::count_if(scene.contacts->bodies().begin(), scene.contacts->bodies().end(),
                    [](const BodyShapes& b) { return !b.isStatic(); }));
  if (model.systems.size() != sceneSystems)
    throw Error(
        who, "the scene's bodies as the only systems",
        std::to_string(model.systems.size() - sceneSystems) + " other system(s) in <systems>");
  const auto& integrators = model.simulation->integrators();
  const auto* osi = integrators.size() == 1
                        ? dynamic_cast<const MoreauJeanOSI*>(integrators.front().get())
                        : nullptr;
  if (!osi)
    throw Error(who, "one <MoreauJeanOSI>",
                std::to_string(integrators.size()) + " integrator(s)" +
                    (integrators.empty() ? "" : ", the first " + integrators.front()->className()));
  const auto* problem =
      dynamic_cast<const FrictionContact*>(model.simulation->oneStepNSProblem().get());
  if (!problem || problem->dim() != 3)
    throw Error(who, "a <FrictionContact dim=\"3\">", "another problem");
  SceneEngineOptions o;
  o.h = model.h;
  o.t0 = model.t0;
  o.theta = osi->theta();
  o.gravity = scene.gravity;
  // with peridynamic bodies the engine sizes a relative margin over all its bodies, their
  // points included (the ContactManager saw the rigid and static shapes only)
  o.contacts = scene.peridynamicBodies.empty() ? scene.contacts->options()
                                               : scene.contacts->declaredOptions();
  o.solver = problem->solverName();
  o.fallback = problem->fallbackSolver();
  o.solverOptions = problem->options();
  o.solveMode = problem->solveMode();
  o.recovery = scene.recovery;
  o.speculativeContacts = scene.speculativeContacts;
  o.fallbackTimeFactor = scene.fallbackTimeFactor;
  o.fallbackIterations = scene.fallbackIterations;
  return o;
}

// The index of the body of global id @p id in @p bodies (sorted by id), or -1.
long indexOf(const BodyStore& bodies, std::int64_t id) {
  const auto at = std::lower_bound(bodies.id.begin(), bodies.id.end(), id);
  if (at == bodies.id.end() || *at != id) return -1;
  return static_cast<long>(at - bodies.id.begin());
}

}  // namespace

std::shared_ptr<SceneEngine> makeSceneEngine(const LoadedModel& model) {
  if (!model.scene) throw Error(model.file, "a model with a <scene>", "none");
  const LoadedScene& scene = *model.scene;
  auto engine = std::make_shared<SceneEngine>(engineOptions(model));
  const ContactManager& cm = *scene.contacts;
  engine->setDefaultMaterial(cm.defaultMaterial());
  for (const auto& m : cm.materials()) engine->setMaterial(m.first.first, m.first.second, m.second);
  const std::vector<BodyShapes>& list = cm.bodies();
  for (std::size_t b = 0; b < list.size(); ++b) {
    const std::size_t k = engine->addBody(list[b], cm.group(b));
    if (list[b].isStatic()) continue;
    // the body's own loads: its f_ext holds m g too, which the engine owns
    const auto loads = scene.loads.find(b);
    if (loads == scene.loads.end()) {
      engine->bodies().setForce(k, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0});
      continue;
    }
    const SceneBodyLoads& l = loads->second;
    engine->bodies().setForce(k, l.forceOfTime ? Shape::Vec3{0.0, 0.0, 0.0} : l.force,
                              l.momentOfTime ? Shape::Vec3{0.0, 0.0, 0.0} : l.moment);
    if (l.forceOfTime || l.momentOfTime) {
      const auto force = l.forceOfTime;
      const auto moment = l.momentOfTime;
      engine->bodies().setForceFunction(
          k, [force, moment](double t, const double*, const double*, double* wrench) {
            for (int i = 0; i < 6; ++i) wrench[i] = 0.0;
            if (force) {
              const SiconosVector f = force(t);
              for (std::size_t i = 0; i < 3; ++i) wrench[i] = f(i);
            }
            if (moment) {
              const SiconosVector m = moment(t);
              for (std::size_t i = 0; i < 3; ++i) wrench[3 + i] = m(i);
            }
          });
    }
  }
  // the <PeridynamicBody> elements: their points join the store after the bodies above
  for (const LoadedPeridynamicBody& p : scene.peridynamicBodies) {
    PeridynamicSceneOptions o;
    o.stepper = p.method;
    o.step = p.step;  // h, θ and gravity: the engine's
    o.group = p.group;
    o.fracture = p.fracture;
    o.exactResponse = p.exactResponse;
    o.selfContact = p.selfContact;
    try {
      engine->addSystem(std::make_shared<PeridynamicSceneSystem>(p.body, o));
    } catch (const Error& e) {
      throw Error(model.file + ":" + std::to_string(p.line) + ": <PeridynamicBody> '" +
                  p.body->name() + "': " + e.what());
    }
  }
  return engine;
}

std::vector<double> sceneOutputState(const LoadedModel& model, const SceneEngine& engine) {
  const std::vector<std::size_t>& list = model.scene->outputBodies;
  std::vector<double> values(13 * list.size(), 0.0);
  const BodyStore& bodies = engine.bodies();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const long k = indexOf(bodies, static_cast<std::int64_t>(list[i]));
    if (k < 0 || bodies.ghost[static_cast<std::size_t>(k)]) continue;
    const auto b = static_cast<std::size_t>(k);
    std::copy(&bodies.q[7 * b], &bodies.q[7 * b] + 7, &values[13 * i]);
    std::copy(&bodies.v[6 * b], &bodies.v[6 * b] + 6, &values[13 * i + 7]);
  }
  return values;
}

void copyOutputBodies(const LoadedModel& model, const std::vector<double>& values) {
  const std::vector<std::size_t>& list = model.scene->outputBodies;
  const std::vector<BodyShapes>& all = model.scene->contacts->bodies();
  if (values.size() != 13 * list.size())
    throw Error("copyOutputBodies", std::to_string(13 * list.size()) + " values",
                std::to_string(values.size()));
  for (std::size_t i = 0; i < list.size(); ++i) {
    NewtonEulerDS& ds = *all.at(list[i]).body();
    for (std::size_t j = 0; j < 7; ++j) ds.qMutable()(j) = values[13 * i + j];
    for (std::size_t j = 0; j < 6; ++j) ds.velocityMutable()(j) = values[13 * i + 7 + j];
  }
}

void fillSceneFigures(const LoadedModel& model, const SceneEngine& engine, long firstStep,
                      SceneParts& parts) {
  const SceneEngine::StepReport& r = engine.lastReport();
  const BodyStore& bodies = engine.bodies();
  double top = 0.0;
  for (std::size_t b = 0; b < bodies.size(); ++b)
    if (!bodies.isStatic[b] && !bodies.ghost[b]) top = std::max(top, bodies.q[7 * b + 2]);
  double counts[2] = {static_cast<double>(engine.contacts().size()),
                      static_cast<double>(engine.contacts().activeCount)};
  parts.sum(counts, 2);
  parts.max(&top, 1);
  double deepest = -INFINITY;  // -(smallest gap), a max over the parts
  for (const double gap : engine.contacts().gap) deepest = std::max(deepest, -gap);
  parts.max(&deepest, 1);
  SceneFigures& f = *model.scene->figures;
  const bool stepped = engine.steps() > firstStep;
  f.kineticEnergy = stepped ? r.kineticEnergy : engine.kineticEnergy();
  f.potentialEnergy = stepped ? r.potentialEnergy : engine.potentialEnergy();
  f.contactWork = stepped ? r.contactWork : 0.0;
  f.contacts = counts[0];
  f.bodies = static_cast<double>(model.scene->contacts->bodies().size());
  f.maxZ = top;
  f.minGap = -deepest;
  StepStatistics& s = f.step;
  s.step = engine.steps();
  s.time = engine.time();
  s.activeRelations = static_cast<std::size_t>(counts[1]);
  s.problemSize = 3 * s.activeRelations;
  s.solved = stepped && counts[1] > 0;
  s.status = s.solved ? r.status : NSD_OK;
  s.iterations = s.solved ? r.solver.iterations : 0;
  s.residual = s.solved ? r.solver.residual : 0.0;
  s.seconds = r.solveSeconds;
  s.solver = engine.options().solver;
  s.message = s.solved && r.status != NSD_OK ? r.solver.message : "";
  s.aboveTolerance = s.solved && r.aboveTolerance;
  s.coldRestarts = r.coldRestart ? 1 : 0;
  s.fallbacks = r.fallback ? 1 : 0;
  s.detectedContacts = static_cast<std::size_t>(counts[0]);
  if (!model.scene->outputBodies.empty()) {
    std::vector<double> state = sceneOutputState(model, engine);
    parts.sum(state.data(), static_cast<int>(state.size()));
    copyOutputBodies(model, state);
  }
}

}  // namespace nsdyn::io
