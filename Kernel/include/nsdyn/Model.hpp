/// @file Model.hpp
/// @brief A Model: time interval, the nonsmooth dynamical system and its simulation.
#ifndef NSDYN_KERNEL_MODEL_HPP
#define NSDYN_KERNEL_MODEL_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NonSmoothDynamicalSystem.hpp"

namespace nsdyn {

class Simulation;

/// Simulation of a NonSmoothDynamicalSystem over [t0, T] (Siconos 3.x Model).
/// The model owns its NSDS and its simulation; the simulation refers back to
/// the model without owning it.
class NSDYN_KERNEL_API Model {
 public:
  /// Model over [t0, T] with a new, empty NSDS. T ≤ t0 is reported by initialize().
  Model(double t0, double T);
  /// Model over [t0, T] on a given NSDS (nsdyn::Error if null).
  Model(double t0, double T, SP::NonSmoothDynamicalSystem nsds);
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  double t0() const { return t0_; }
  double finalT() const { return T_; }
  void setFinalT(double T) { T_ = T; }

  const SP::NonSmoothDynamicalSystem& nonSmoothDynamicalSystem() const { return nsds_; }

  /// Attach @p simulation (replacing any previous one).
  void setSimulation(std::shared_ptr<Simulation> simulation);
  const std::shared_ptr<Simulation>& simulation() const { return simulation_; }

  /// Check the model (T > t0, every system and interaction consistent) and
  /// initialise the simulation; nsdyn::Error on the first inconsistency.
  void initialize();
  /// setSimulation(simulation) then initialize().
  void initialize(std::shared_ptr<Simulation> simulation);

  /// Time of the current state (t0 before any step; see Simulation::currentTime()).
  double currentTime() const;

 private:
  double t0_, T_;
  SP::NonSmoothDynamicalSystem nsds_;
  std::shared_ptr<Simulation> simulation_;
};

namespace SP {
using Model = std::shared_ptr<nsdyn::Model>;
}

}  // namespace nsdyn

#endif
