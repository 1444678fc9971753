/// @file scene_run.hpp
/// @brief The scene of the rigid-body scene examples, stepped by nsdyn::SceneEngine (bodies
///        in a BodyStore, contacts in arrays, Moreau–Jean over arrays), with the shared time
///        loop, outputs and summary (every scene example: SpherePile, CapsulePile,
///        ColumnCollapse, HopperDischarge, RoverWheel, InclineRolling, NewtonsCradle, BoxStack,
///        KaplaTower; MixedPile drives the engine itself).
#ifndef NSDYN_EXAMPLES_SCENE_RUN_HPP
#define NSDYN_EXAMPLES_SCENE_RUN_HPP

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/ContactManager.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "scene_options.hpp"
#include "scene_output.hpp"

namespace nsdyn::examples {

/// A scene under construction, then run, over a SceneEngine: time step h, Moreau–Jean with
/// θ = ½, gravity −g e_z owned by the scene (g = 9.81 m/s²; not an f_ext per body), the
/// contact rules of @p options (margin, breaking distance, activation, warm start, ...),
/// the friction solver of @p solver:
///  - "nsgs" (Gauss–Seidel in body-velocity form) and "apgd" run on the contact operator,
///    any other FC3D solver name on the assembled W (an unknown name: nsdyn::Error listing
///    the names);
///  - tolerance, iteration cap and shuffle (NSGS) go to the solver options;
///  - the fallback solver (an FC3D solver name, on the assembled W) takes a step over from
///    the first solver's impulses when that one stops short; without one (or when it stops
///    short too) the state is still updated with the best answer, the step counted failed.
/// The engine is built at the first body or material (setThreads comes before).
class EngineScene {
 public:
  EngineScene(double T, double h, const SolverChoice& solver,
              const ContactManager::Options& options = ContactManager::Options());

  /// Threads of every pass of the step: detection, solver, free velocity, update (0: the
  /// OpenMP default; the results are the same bits for any count). Before the first body
  /// or material: nsdyn::Error after.
  void setThreads(int threads);
  /// Materials of the groups, as ContactManager's (μ ≥ 0, e in [0, 1]).
  void setDefaultMaterial(const ContactMaterial& material);
  void setMaterial(int groupA, int groupB, const ContactMaterial& material);

  /// Adds @p body (dynamic or static: its pose, velocity, mass properties and constant loads
  /// are copied into the store) in @p group; returns its index in the store.
  std::size_t addBody(const BodyShapes& body, int group = 0);
  /// Adds the bodies of @p parts in @p group, in order; returns how many.
  std::size_t addParts(const std::vector<scenes::StaticPart>& parts, int group = 0);
  /// Body @p index as an object (state, constant loads, load callable).
  BodyHandle body(std::size_t index) { return engine().body(index); }
  /// SceneEngine::initialize (margins, overlap warnings at t0); the first step calls it too.
  void initialize() { engine().initialize(); }

  SceneEngine& engine();
  const SceneEngine& engine() const;
  BodyStore& bodies() { return engine().bodies(); }
  const BodyStore& bodies() const { return engine().bodies(); }
  const SceneContacts& contacts() const { return engine().contacts(); }
  const SceneEngine::Options& options() const { return options_; }
  double T() const { return T_; }
  double h() const { return options_.h; }
  /// g of the gravity −g e_z (m/s²).
  double gravity() const { return -options_.gravity[2]; }
  /// "nsgs (tolerance 1e-4, at most 1000 iterations, shuffled)".
  std::string solverDescription() const;

 private:
  double T_;
  SceneEngine::Options options_;
  std::unique_ptr<SceneEngine> engine_;
};

/// Run @p steps steps of @p scene, writing into opt.outputDir:
///  - NAME.csv: t, kinetic, potential, contact_work (cumulative), energy (kinetic +
///    potential), contacts, active, iterations, residual (SceneEngine::StepReport), then
///    @p extra's columns;
///  - NAME_bodies.pvd / NAME_contacts.pvd (VTK, a frame every @p vtkEvery steps and the last);
///  - NAME.hdf5 (the Siconos mechanics layout, doc/scene-outputs.md) every @p vtkEvery steps.
/// Progress on stderr about once a second unless quiet (SceneProgress).
SceneRunResult runScene(EngineScene& scene, long steps, const ExampleOptions& opt,
                        const std::string& name, const SceneColumns& extra = SceneColumns(),
                        int vtkEvery = 10);

/// The summary lines (bodies, steps, solver; contacts; iterations, residual, failed steps;
/// the energy balance E − E0 − W; time per step and share of each phase; files) and the
/// plot NAME.png of @p curves; returns the exit status: 0, or 1 with a message on stderr
/// when solves failed.
int finishScene(const EngineScene& scene, const SceneRunResult& run, const ExampleOptions& opt,
                const std::string& name, const std::string& plotTitle,
                const std::vector<PlotCurve>& curves, const std::vector<std::string>& panels);

}  // namespace nsdyn::examples

#endif
