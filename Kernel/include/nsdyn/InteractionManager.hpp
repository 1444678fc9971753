/// @file InteractionManager.hpp
/// @brief Hook called by the simulation before the index sets are built, for
///        relations that appear and vanish during a run (contact detection).
#ifndef NSDYN_KERNEL_INTERACTIONMANAGER_HPP
#define NSDYN_KERNEL_INTERACTIONMANAGER_HPP

#include <memory>
#include <string>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

class ContactSet;
class Model;
class Simulation;

/// What a simulation calls, in this order, for each time step t_k → t_{k+1}
/// (TimeStepping, one pass or each Newton iteration for computeInput):
///  1. updateInteractions(sim, t_k): state at t_k; the manager updates its
///     relations (a ContactManager detects contacts and fills its ContactSet);
///  2. the integrators compute the free state; the nonsmooth problem takes the
///     manager's contactSet() (if any) beside the model's interactions;
///  3. computeInput(t_{k+1}): the manager adds its impulses to its systems'
///     nonsmooth input (after they are reset, before the new state);
///  4. afterStep(sim): state at t_{k+1}; outputs, statistics.
/// Siconos's InteractionManager inserts and removes heap Interactions; here a
/// manager keeps its relations in its own arrays (no object per contact).
class NSDYN_KERNEL_API InteractionManager {
 public:
  virtual ~InteractionManager() = default;
  InteractionManager() = default;
  InteractionManager(const InteractionManager&) = delete;
  InteractionManager& operator=(const InteractionManager&) = delete;

  virtual std::string className() const = 0;
  /// Called by Simulation::initialize after the integrators are set up;
  /// nsdyn::Error if the model does not fit (e.g. a body not in the model).
  virtual void initialize(Simulation& simulation) = 0;
  /// Step start (state at @p t = t_k).
  virtual void updateInteractions(Simulation& simulation, double t) = 0;
  /// The contacts handed to the nonsmooth problem (nullptr: none).
  virtual ContactSet* contactSet() { return nullptr; }
  /// Nonsmooth inputs of the manager's relations into their systems.
  virtual void computeInput(double t) = 0;
  /// Step end (state at t_{k+1}).
  virtual void afterStep(Simulation& simulation) = 0;
};

namespace SP {
using InteractionManager = std::shared_ptr<nsdyn::InteractionManager>;
}

}  // namespace nsdyn

#endif
