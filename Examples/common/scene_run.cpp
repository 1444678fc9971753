// The SceneEngine scene of the rigid-body scene examples: time loop, outputs and summary.
#include "scene_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "nsdyn/Error.hpp"
#include "nsdyn/io/SceneHdf5Writer.hpp"
#include "nsdyn/io/SceneVtkWriter.hpp"

namespace nsdyn::examples {

namespace {
constexpr double kGravity = 9.81;  // m/s², along −e_z
}  // namespace

EngineScene::EngineScene(double T, double h, const SolverChoice& solver,
                         const ContactManager::Options& options)
    : T_(T) {
  options_.h = h;
  options_.theta = 0.5;
  options_.gravity = {0.0, 0.0, -kGravity};
  options_.contacts = options;
  options_.solver = solver.solver;
  options_.fallback = solver.fallback;
  options_.solverOptions = defaultSolverOptions();
  options_.solverOptions.tolerance = solver.tolerance;
  options_.solverOptions.max_iterations = solver.iterations;
  options_.solverOptions.nsgs.shuffle = solver.shuffle ? 1 : 0;
  options_.solverOptions.pgs.check_every = solver.checkEvery;
  options_.solverOptions.nsgs.anderson = solver.anderson;
  options_.solveMode = solver.budget ? SolveMode::Budget : SolveMode::Tolerance;
  options_.recovery.enabled = solver.recovery;
  options_.recovery.iterations = solver.recoveryIterations;
  options_.recovery.tolerance = solver.recoveryTolerance;
  options_.speculativeContacts = solver.speculative;
  SceneEngine check(options_);  // the options (solver name, contact rules) refused now
}

SceneEngine& EngineScene::engine() {
  if (!engine_) engine_ = std::make_unique<SceneEngine>(options_);
  return *engine_;
}

const SceneEngine& EngineScene::engine() const {
  if (!engine_) throw Error("EngineScene", "a scene with bodies", "no body added");
  return *engine_;
}

void EngineScene::setThreads(int threads) {
  if (engine_)
    throw Error("EngineScene::setThreads", "before the first body or material",
                "after them (the engine is built)");
  options_.contacts.detection.threads = threads;
}

void EngineScene::setDefaultMaterial(const ContactMaterial& material) {
  engine().setDefaultMaterial(material);
}

void EngineScene::setMaterial(int groupA, int groupB, const ContactMaterial& material) {
  engine().setMaterial(groupA, groupB, material);
}

std::size_t EngineScene::addBody(const BodyShapes& body, int group) {
  return engine().addBody(body, group);
}

std::size_t EngineScene::addParts(const std::vector<scenes::StaticPart>& parts, int group) {
  for (const scenes::StaticPart& part : parts) addBody(part.body, group);
  return parts.size();
}

std::string EngineScene::solverDescription() const {
  const NsdSolverOptions& o = options_.solverOptions;
  std::string s = options_.solver + " (tolerance " + shortNumber(o.tolerance) + ", at most " +
                  std::to_string(o.max_iterations) + " iterations";
  if (o.nsgs.shuffle && options_.solver == "nsgs") s += ", shuffled";
  if (o.pgs.check_every > 1) s += ", error every " + std::to_string(o.pgs.check_every) + " sweeps";
  if (o.nsgs.anderson > 0) s += ", Anderson " + std::to_string(o.nsgs.anderson);
  if (options_.solveMode == SolveMode::Budget) s += ", budget mode";
  if (!options_.fallback.empty()) s += ", fallback " + options_.fallback;
  if (options_.recovery.enabled)
    s += ", overlap recovery to " + shortNumber(options_.recovery.tolerance);
  if (options_.speculativeContacts) s += ", speculative contacts";
  return s + ")";
}

SceneRunResult runScene(EngineScene& scene, long steps, const ExampleOptions& opt,
                        const std::string& name, const SceneColumns& extra, int vtkEvery) {
  SceneEngine& engine = scene.engine();
  engine.initialize();
  const double h = scene.h();
  CsvWriter csv(joinPath(opt.outputDir, name + ".csv"), sceneColumnNames(extra));
  io::SceneVtkWriter vtk(opt.outputDir, name);
  io::SceneHdf5Writer hdf5(joinPath(opt.outputDir, name + ".hdf5"), h);

  SceneRunResult run;
  double work = 0.0;
  auto frame = [&](double t, int iterations, double residual, double kinetic, double potential) {
    vtk.writeFrame(t, h, engine.bodies(), engine.contacts());
    hdf5.writeStep(t, engine.bodies(), engine.contacts());
    hdf5.writeSolver(t, iterations, residual);
    hdf5.writeEnergy(t, kinetic, potential, work, kinetic + potential);
  };
  const double K0 = engine.kineticEnergy(), P0 = engine.potentialEnergy();
  run.initialEnergy = run.finalEnergy = K0 + P0;
  csv.row(sceneRow({engine.time(), K0, P0, 0.0, K0 + P0, 0.0, 0.0, 0.0, 0.0}, extra));
  frame(engine.time(), 0, 0.0, K0, P0);

  WallClock clock;
  SceneProgress progress(name, steps, opt.quiet);
  for (long k = 0; k < steps; ++k) {
    const SceneEngine::StepReport& r = engine.step();
    work += r.contactWork;
    const double E = r.kineticEnergy + r.potentialEnergy;
    run.steps = k + 1;
    run.maxContacts = std::max(run.maxContacts, r.contacts);
    run.maxActive = std::max(run.maxActive, r.active);
    run.detectionSeconds += r.detectSeconds;
    run.contactSeconds += r.contactSeconds;
    run.freeSeconds += r.freeSeconds;
    run.solverSeconds += r.solveSeconds;
    run.updateSeconds += r.updateSeconds;
    if (r.recoveryIterations > 0) {
      run.recoverySeconds += r.recoverySeconds;
      run.recoveryIterations += r.recoveryIterations;
      ++run.recoverySteps;
    }
    run.solverIterations += r.solver.iterations;
    run.maxResidual = std::max(run.maxResidual, r.solver.residual);
    run.sumResidual += r.solver.residual;
    run.aboveTolerance += r.aboveTolerance ? 1 : 0;
    run.coldRestarts += r.coldRestart ? 1 : 0;
    run.fallbackSteps += r.fallback ? 1 : 0;
    run.maxPenetration = std::max(run.maxPenetration, r.maxPenetration);
    run.finalEnergy = E;
    run.contactWork = work;
    run.maxImbalance = std::max(run.maxImbalance, std::fabs(E - run.initialEnergy - work));
    if (r.status != NSD_OK) {
      if (run.failedSteps == 0) {
        run.firstFailedStep = r.step;
        run.firstFailure = r.solver.message;
      }
      ++run.failedSteps;
    }
    csv.row(sceneRow({r.time, r.kineticEnergy, r.potentialEnergy, work, E,
                      static_cast<double>(r.contacts), static_cast<double>(r.active),
                      static_cast<double>(r.solver.iterations), r.solver.residual},
                     extra));
    if ((k + 1) % vtkEvery == 0 || k + 1 == steps)
      frame(r.time, r.solver.iterations, r.solver.residual, r.kineticEnergy, r.potentialEnergy);
    progress.update(k + 1, r.time, clock.seconds(), r.contacts, r.active, r.solver.iterations);
  }
  progress.finish();
  run.wallSeconds = clock.seconds();
  vtk.finish();
  hdf5.close();
  return run;
}

int finishScene(const EngineScene& scene, const SceneRunResult& run, const ExampleOptions& opt,
                const std::string& name, const std::string& plotTitle,
                const std::vector<PlotCurve>& curves, const std::vector<std::string>& panels) {
  const BodyStore& bodies = scene.bodies();
  const SceneEngine& engine = scene.engine();
  const SceneEngine::StepReport& last = engine.lastReport();
  std::printf("%s: %zu bodies (%zu static), %ld steps of h = %g with %s (SceneEngine)\n",
              name.c_str(), bodies.size(), bodies.size() - bodies.dynamicCount(), run.steps,
              scene.h(), scene.solverDescription().c_str());
  std::printf("  contacts:                at most %zu, last step %zu (at most %zu active, %zu)\n",
              run.maxContacts, last.contacts, run.maxActive, last.active);
  std::printf(
      "  solver:                  %ld iterations in all (%.1f per step), residual max %.3g mean "
      "%.3g, %ld steps above the tolerance, %ld failed steps%s%s\n",
      run.solverIterations,
      run.steps > 0 ? static_cast<double>(run.solverIterations) / static_cast<double>(run.steps)
                    : 0.0,
      run.maxResidual, run.steps > 0 ? run.sumResidual / static_cast<double>(run.steps) : 0.0,
      run.aboveTolerance, run.failedSteps,
      run.fallbackSteps > 0
          ? (", " + std::to_string(run.fallbackSteps) + " solved by the fallback").c_str()
          : "",
      run.coldRestarts > 0
          ? (", " + std::to_string(run.coldRestarts) + " APGD cold restarts").c_str()
          : "");
  // E - E0 - W: 0 to round-off for Moreau-Jean with theta = 1/2, e = 0, no position
  // correction, bodies with isotropic inertia and no applied load other than gravity and
  // constant forces; the linearised gyroscopic term and applied torques add their share
  const double imbalance = run.finalEnergy - run.initialEnergy - run.contactWork;
  std::printf(
      "  energy:                  E0 = %.6g J, E = %.6g J, work of the contact impulses W = "
      "%.6g J; E - E0 - W = %.3g J at the end, at most %.3g J (%.3g of |W|)\n",
      run.initialEnergy, run.finalEnergy, run.contactWork, imbalance, run.maxImbalance,
      run.contactWork != 0.0 ? run.maxImbalance / std::fabs(run.contactWork) : 0.0);
  std::printf("  penetration:             deepest %.3g m (kept contacts at a step start)\n",
              run.maxPenetration);
  const double perStep = run.steps > 0 ? run.wallSeconds / static_cast<double>(run.steps) : 0.0;
  const double wall = run.wallSeconds > 0.0 ? run.wallSeconds : 1.0;
  std::printf(
      "  time:                    %.3f s (%.3g ms/step; detection %.0f%%, solver %.0f%%; contact "
      "arrays %.0f%%, free velocity %.0f%%, update %.0f%%)\n",
      run.wallSeconds, 1e3 * perStep, 100.0 * run.detectionSeconds / wall,
      100.0 * run.solverSeconds / wall, 100.0 * run.contactSeconds / wall,
      100.0 * run.freeSeconds / wall, 100.0 * run.updateSeconds / wall);
  if (run.recoverySteps > 0)
    std::printf(
        "  overlap recovery:        %ld steps, %.1f sweeps per step that ran it, %.0f%% of the "
        "time\n",
        run.recoverySteps,
        static_cast<double>(run.recoveryIterations) / static_cast<double>(run.recoverySteps),
        100.0 * run.recoverySeconds / wall);
  return finishSceneFiles(run, opt, name, plotTitle, curves, panels);
}

}  // namespace nsdyn::examples
