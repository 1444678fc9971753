/// @file scene_output.hpp
/// @brief What the run loop of the scene examples (scene_run: SceneEngine) writes: the CSV
///        columns, the progress line, the figures of a run and the closing lines (files,
///        plot, failed solves).
#ifndef NSDYN_EXAMPLES_SCENE_OUTPUT_HPP
#define NSDYN_EXAMPLES_SCENE_OUTPUT_HPP

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "example_utils.hpp"

namespace nsdyn::examples {

/// Extra CSV columns of one example, sampled after each step.
struct SceneColumns {
  std::vector<std::string> names;
  std::function<std::vector<double>()> values;
};

/// What a run loop measured.
struct SceneRunResult {
  long steps = 0;
  long failedSteps = 0;      ///< steps whose friction solve did not converge
  long fallbackSteps = 0;    ///< steps where the fallback solver ran
  long coldRestarts = 0;     ///< APGD reruns from 0 after a stalled warm start (SceneEngine)
  long firstFailedStep = 0;  ///< 0: none
  std::string firstFailure;  ///< its solver message
  std::size_t maxContacts = 0;
  std::size_t maxActive = 0;
  double wallSeconds = 0.0;
  double detectionSeconds = 0.0;  ///< contact detection, all steps
  double solverSeconds = 0.0;     ///< the friction solves, all steps
  /// SceneEngine's other phases: contact arrays, free velocity, update (with the end of
  /// the step: u_{k+1}, work, energies, contact memory).
  double contactSeconds = 0.0, freeSeconds = 0.0, updateSeconds = 0.0;
  long solverIterations = 0;
  double recoverySeconds = 0.0;                    ///< overlap recovery (part of the update)
  long recoveryIterations = 0, recoverySteps = 0;  ///< its sweeps; steps that ran it
  double maxResidual = 0.0;
  double sumResidual = 0.0;  ///< the residuals of the steps summed (their mean: / steps)
  long aboveTolerance = 0;   ///< steps stopped at their budget above the tolerance
  /// Energy balance: E = kinetic + potential at t0 and at the end, W the work of the
  /// contact impulses summed over the steps, the largest |E(t) - E0 - W(t)| of the run.
  double initialEnergy = 0.0, finalEnergy = 0.0, contactWork = 0.0, maxImbalance = 0.0;
  double maxPenetration = 0.0;  ///< deepest overlap of a kept contact at a step start (m)
};

/// t, kinetic, potential, contact_work (cumulative), energy (kinetic + potential),
/// contacts, active, iterations, residual, then @p extra's names.
std::vector<std::string> sceneColumnNames(const SceneColumns& extra);

/// One CSV row: the 9 shared values, then @p extra's values (sampled now).
std::vector<double> sceneRow(const std::vector<double>& shared, const SceneColumns& extra);

/// Progress on stderr about once a second and at the last step, unless quiet (step, t,
/// steps/s, contacts, active, solver iterations): one rewritten line on a terminal.
class SceneProgress {
 public:
  SceneProgress(const std::string& name, long steps, bool quiet);
  void update(long done, double t, double seconds, std::size_t contacts, std::size_t active,
              int iterations);
  void finish();

 private:
  std::string name_;
  long steps_;
  bool active_, terminal_;
  double last_ = 0.0;
};

/// The lines of the files (csv, hdf5, vtk) and the plot NAME.png of @p curves (when
/// opt.plot); then, when solves failed, the message on stderr. Returns the exit status:
/// 0, or 1 when solves failed.
int finishSceneFiles(const SceneRunResult& run, const ExampleOptions& opt, const std::string& name,
                     const std::string& plotTitle, const std::vector<PlotCurve>& curves,
                     const std::vector<std::string>& panels);

}  // namespace nsdyn::examples

#endif
