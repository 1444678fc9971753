/// @file scene_run.hpp
/// @brief The time loop, outputs and summary shared by the rigid-body scene examples
///        (bodies with shapes, contacts detected by a ContactManager).
#ifndef NSDYN_EXAMPLES_SCENE_RUN_HPP
#define NSDYN_EXAMPLES_SCENE_RUN_HPP

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "example_utils.hpp"
#include "nsdyn/ContactManager.hpp"
#include "nsdyn/FrictionContact.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "nsdyn/TimeStepping.hpp"

namespace nsdyn::examples {

/// @p shape at the body's origin, unrotated.
ShapeInstance instance(std::shared_ptr<const Shape> shape);
/// The floor z = 0: a static body with HalfSpaceShape(e_z, 0).
BodyShapes groundPlane();

/// `--threads N`: detection and solver threads @p threads, in [0, 1024] (0: the OpenMP default).
ExtraOption threadsOption(int& threads);
/// Its help line, with the default @p threads.
std::string threadsHelp(int threads);

/// The friction solver of a scene example: its defaults are the example's, its
/// command-line options (solverOptions) overwrite them.
struct SolverChoice {
  std::string solver = "nsgs";  ///< FrictionContact(3) solver name
  double tolerance = 1e-4;      ///< on the Siconos error
  int iterations = 1000;        ///< iteration cap (max_iterations)
  bool shuffle = false;         ///< NSGS visits the contacts in a new random order each sweep
  std::string fallback;         ///< solver run when the first stops short (empty: none)
};

/// Which options of a SolverChoice an example offers, and how it spells them;
/// `--solver NAME` always.
struct SolverFlags {
  bool tolerance = true;  ///< `--tolerance E`, in (0, 1)
  /// The iteration cap: "--iterations" or "--max-iterations"; empty: not offered.
  std::string iterations = "--iterations";
  int minIterations = 10;       ///< the accepted caps: [minIterations, maxIterations]
  int maxIterations = 1000000;
  bool shuffle = true;  ///< `--shuffle`
};

/// The options of @p flags, writing into @p choice (for parseArguments).
std::vector<ExtraOption> solverOptions(SolverChoice& choice, const SolverFlags& flags = SolverFlags());
/// Their help lines, with the defaults of @p defaults: --solver, --tolerance, the
/// iteration cap, --shuffle (those offered).
std::string solverHelp(const SolverChoice& defaults, const SolverFlags& flags = SolverFlags());
/// Sets @p choice on @p problem: solver name, tolerance, iteration cap, NSGS shuffle.
void applySolverChoice(const SolverChoice& choice, FrictionContact& problem);

/// A scene under construction: a Model over [0, T], TimeStepping with
/// MoreauJeanOSI(θ = ½) on the step h, FrictionContact(3) with @p solver, and a
/// ContactManager. Bodies get gravity −g e_z (addBody).
struct Scene {
  std::shared_ptr<Model> model;
  SP::TimeStepping simulation;
  SP::FrictionContact problem;
  SP::ContactManager contacts;
  double gravity = 9.81;

  Scene(double T, double h, const std::string& solver, double tolerance,
        const ContactManager::Options& options = ContactManager::Options());
  /// The scene with the solver of @p solver (applySolverChoice).
  Scene(double T, double h, const SolverChoice& solver,
        const ContactManager::Options& options = ContactManager::Options());
  /// Adds @p body in @p group (its NewtonEulerDS into the model, with gravity unless static).
  std::size_t addBody(BodyShapes body, int group = 0);
  /// Adds the bodies of @p parts in @p group, in order; returns how many.
  std::size_t addParts(std::vector<scenes::StaticPart> parts, int group = 0);
  /// Threads of the contact detection and of the friction solver (0: the OpenMP default).
  void setThreads(int threads);
  /// Model::initialize with the simulation.
  void initialize();
};

/// Extra CSV columns of one example, sampled after each step.
struct SceneColumns {
  std::vector<std::string> names;
  std::function<std::vector<double>()> values;
};

/// What runScene measured.
struct SceneRunResult {
  long steps = 0;
  long failedSteps = 0;       ///< steps whose friction solve did not converge
  long fallbackSteps = 0;     ///< steps solved by the fallback solver
  long firstFailedStep = 0;   ///< 0: none
  std::string firstFailure;   ///< its solver message
  std::size_t maxContacts = 0;
  double wallSeconds = 0.0;
  double detectionSeconds = 0.0;  ///< ContactManager detection, all steps
  double solverSeconds = 0.0;
  long solverIterations = 0;
  double maxResidual = 0.0;
};

/// Run @p steps steps of @p scene, writing into opt.outputDir:
///  - NAME.csv: t, kinetic, potential, contact_work (cumulative), energy (kinetic +
///    potential), contacts, active, iterations, residual, then @p extra's columns;
///  - NAME_bodies.pvd / NAME_contacts.pvd (VTK, a frame every @p vtkEvery steps and the last);
///  - NAME.hdf5 (the Siconos mechanics layout, doc/scene-outputs.md) every @p vtkEvery steps.
/// Progress on stderr about once a second unless quiet (step, t, steps/s, contacts,
/// active, solver iterations).
SceneRunResult runScene(Scene& scene, long steps, const ExampleOptions& opt, const std::string& name,
                        const SceneColumns& extra = SceneColumns(), int vtkEvery = 10);

/// The summary lines (steps, contacts, iterations, residual, time per step and
/// share of detection, files) and the plot NAME.png of @p plot; returns the exit
/// status: 0, or 1 with a message on stderr when solves failed.
int finishScene(const Scene& scene, const SceneRunResult& run, const ExampleOptions& opt, const std::string& name,
                const std::string& plotTitle, const std::vector<PlotCurve>& curves,
                const std::vector<std::string>& panels);

}  // namespace nsdyn::examples

#endif
