/// @file NonSmoothDynamicalSystem.hpp
/// @brief Dynamical systems plus the interactions between them.
#ifndef NSDYN_KERNEL_NONSMOOTHDYNAMICALSYSTEM_HPP
#define NSDYN_KERNEL_NONSMOOTHDYNAMICALSYSTEM_HPP

#include <memory>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Topology.hpp"

namespace nsdyn {

/// The modelled world: dynamical systems and interactions, organised in a
/// Topology. Interactions may be linked and removed at any time, also during
/// a run (the simulation initialises new interactions at the next step).
class NSDYN_KERNEL_API NonSmoothDynamicalSystem {
 public:
  NonSmoothDynamicalSystem() = default;
  NonSmoothDynamicalSystem(const NonSmoothDynamicalSystem&) = delete;
  NonSmoothDynamicalSystem& operator=(const NonSmoothDynamicalSystem&) = delete;

  /// Add a system (nsdyn::Error if null).
  void insertDynamicalSystem(const SP::DynamicalSystem& ds);
  /// Link @p inter to @p ds1 (and @p ds2 when given) and add it to the topology.
  void link(const SP::Interaction& inter, const SP::DynamicalSystem& ds1,
            const SP::DynamicalSystem& ds2 = nullptr);
  /// Add an interaction without linking it: kept aside, and rejected by
  /// checkConsistency() (an interaction must be linked to a system).
  void insertInteraction(const SP::Interaction& inter);
  /// Remove an interaction (linked or not); false if unknown.
  bool removeInteraction(const SP::Interaction& inter);

  std::size_t numberOfDynamicalSystems() const { return topology_.numberOfDynamicalSystems(); }
  std::size_t numberOfInteractions() const {
    return topology_.numberOfInteractions() + unlinked_.size();
  }
  /// Systems, ordered by number.
  std::vector<SP::DynamicalSystem> dynamicalSystems() const { return topology_.dynamicalSystems(); }
  /// Linked interactions, ordered by number.
  std::vector<SP::Interaction> interactions() const { return topology_.interactions(); }
  /// The system numbered @p number (nsdyn::Error if absent).
  SP::DynamicalSystem dynamicalSystem(int number) const;

  const Topology& topology() const { return topology_; }
  /// Mutable topology (simulations set the index sets).
  Topology& topologyMutable() { return topology_; }

  /// Check every system and interaction; nsdyn::Error naming the first at fault.
  void checkConsistency() const;

 private:
  Topology topology_;
  std::vector<SP::Interaction> unlinked_;
};

namespace SP {
using NonSmoothDynamicalSystem = std::shared_ptr<nsdyn::NonSmoothDynamicalSystem>;
}

}  // namespace nsdyn

#endif
