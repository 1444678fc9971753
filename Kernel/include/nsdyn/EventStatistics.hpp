/// @file EventStatistics.hpp
/// @brief What one event of an event-driven run did.
#ifndef NSDYN_KERNEL_EVENTSTATISTICS_HPP
#define NSDYN_KERNEL_EVENTSTATISTICS_HPP

#include <cstddef>

#include "nsdyn/Event.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/StepStatistics.hpp"

namespace nsdyn {

/// Statistics of one processed event, kept by EventDriven for the last events
/// (EventDriven::eventStatistics(); how many: Simulation::setStatisticsHistory).
struct NSDYN_KERNEL_API EventStatistics {
  long index = 0;     ///< 1 for the first event processed
  double time = 0.0;  ///< event time (s)
  EventType type = EventType::TimeDiscretisation;
  std::size_t closedRelations = 0;    ///< |I1| after the event (gap within the event tolerance)
  std::size_t restingRelations = 0;   ///< |I2| after the event (closed, at rest, force > 0)
  std::size_t impacts = 0;            ///< relations that hit (closed and approaching)
  std::size_t switchedToResting = 0;  ///< impacts ending an accumulation (plastic, then resting)
  std::size_t released = 0;           ///< relations that left I2 at this event
  double maxImpactVelocity = 0.0;     ///< largest |ẏ⁻| among the impacts (m/s)
  StepStatistics impactSolve;         ///< impact LCP (solved = false when there was none)
  StepStatistics accelerationSolve;   ///< acceleration LCP on the candidates for I2
  long integratorSteps = 0;           ///< CVODE internal steps since the previous event
  long rhsEvaluations = 0;            ///< right-hand-side evaluations since the previous event
};

/// Totals over every event since EventDriven::initialize(), kept whatever the history of
/// eventStatistics() holds (EventDriven::eventTotals()).
struct NSDYN_KERNEL_API EventTotals {
  long events = 0;           ///< processed events
  long solverCalls = 0;      ///< impact and acceleration LCPs solved
  long iterations = 0;       ///< their iterations
  int maxIterations = 0;     ///< the most iterations of one solve
  double maxResidual = 0.0;  ///< the largest residual of one solve
  long failedSolves = 0;     ///< solves whose status was not NSD_OK

  /// Adds the solves of @p e.
  void add(const EventStatistics& e) {
    ++events;
    for (const StepStatistics* solve : {&e.impactSolve, &e.accelerationSolve}) {
      if (!solve->solved) continue;
      ++solverCalls;
      iterations += solve->iterations;
      if (solve->iterations > maxIterations) maxIterations = solve->iterations;
      if (solve->residual > maxResidual) maxResidual = solve->residual;
      if (solve->status != NSD_OK) ++failedSolves;
    }
  }
};

}  // namespace nsdyn

#endif
