/// @file StepStatistics.hpp
/// @brief What one time step did: active relations and the solver's report.
#ifndef NSDYN_KERNEL_STEPSTATISTICS_HPP
#define NSDYN_KERNEL_STEPSTATISTICS_HPP

#include <cstddef>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/nsd_common.h"

namespace nsdyn {

/// How a time step judges its nonsmooth solve (OneStepNSProblem::setSolveMode,
/// SceneEngineOptions::solveMode; XML mode="..." on the problem element).
enum class SolveMode {
  /// The default: a solve that stops short of its tolerance (at max_iterations or
  /// time_limit) is a failed step (StepStatistics::status NSD_MAX_ITERATIONS).
  Tolerance,
  /// max_iterations (and time_limit when > 0) are the step's fixed budget: a solve that
  /// stops there is accepted whatever its residual (status NSD_OK, aboveTolerance set,
  /// the residual reported); no fallback solver and no cold retry run. A breakdown
  /// (NSD_FAILED: a singular pivot, a non-finite answer) still fails the step.
  Budget
};

/// "tolerance" or "budget".
inline const char* solveModeName(SolveMode mode) {
  return mode == SolveMode::Budget ? "budget" : "tolerance";
}

/// @p name ("tolerance" or "budget") into @p mode; false (mode untouched) for another name.
inline bool parseSolveMode(const std::string& name, SolveMode& mode) {
  if (name != "tolerance" && name != "budget") return false;
  mode = name == "budget" ? SolveMode::Budget : SolveMode::Tolerance;
  return true;
}

/// Statistics of one step t_k → t_{k+1}, kept by the Simulation for every step.
/// When no problem had to be solved (no active relation), solved is false,
/// status is NSD_OK and iterations, residual and seconds are 0.
struct NSDYN_KERNEL_API StepStatistics {
  long step = 0;                    ///< k + 1: index of the time reached
  double time = 0.0;                ///< t_{k+1}
  std::size_t activeRelations = 0;  ///< unitary relations in the problem (|I1|)
  std::size_t problemSize = 0;      ///< unknowns of the nonsmooth problem
  bool solved = false;              ///< a nonsmooth problem was solved this step
  NsdStatus status = NSD_OK;        ///< solver status (failures are recorded, not thrown)
  int iterations = 0;               ///< solver iterations (pivots for Lemke)
  double residual = 0.0;            ///< solver's error measure of the returned solution
  double seconds = 0.0;             ///< solver wall time
  std::string solver;               ///< solver name
  std::string message;              ///< solver message when status != NSD_OK
  /// The solve stopped at its budget (max_iterations or time_limit) with its residual above
  /// the tolerance: accepted in budget mode (status NSD_OK), a failure in tolerance mode.
  bool aboveTolerance = false;
  int newtonIterations = 0;  ///< Newton iterations of the step (0: one-pass scheme)
  bool newtonConverged =
      true;  ///< the Newton loop met its tolerance (false: stopped at its maximum)
  int projectionIterations = 0;  ///< position projections (TimeSteppingDirectProjection)
  int coldRestarts = 0;          ///< solves retried from λ = 0 after a failed warm-started one
  int fallbacks =
      0;  ///< solves handed to the fallback solver (OneStepNSProblem::setFallbackSolver)
  std::size_t detectedContacts =
      0;  ///< contacts of the InteractionManager (gap ≤ margin), 0 without one
  /// Wall time of the step's phases (TimeStepping), seconds: contact detection and the
  /// contact arrays (InteractionManager::updateInteractions), building the nonsmooth
  /// problem (its compute() minus the solver), the solver (= seconds), integration
  /// (free state, inputs, new state, outputs, Newton residuals) and the whole step.
  /// Work of the impulses over the step, λ·(ẏ_k + ẏ_{k+1})/2 summed over the Interactions
  /// by kind, and the detected contacts' (ContactManager::Statistics::contactWork), J. With
  /// θ = 1/2 and no applied load but conservative ones, the energy balance of the step reads
  /// ΔK + ΔP = motors + joints + unilateral + contacts. Filled by TimeStepping.
  struct Work {
    double motors = 0.0;      ///< velocity motors (JointAxisR::motor): energy they put in
    double joints = 0.0;      ///< equality rows (joints): 0 for ideal joints, to the tolerance
    double unilateral = 0.0;  ///< every other Interaction: limits, impacts, friction, relays
    double contacts = 0.0;    ///< the ContactManager's detected contacts
    double total() const { return motors + joints + unilateral + contacts; }
  } work;
  struct Phases {
    double interactions = 0.0;
    double build = 0.0;
    double solve = 0.0;
    double integration = 0.0;
    double total = 0.0;
  } phases;
};

}  // namespace nsdyn

#endif
