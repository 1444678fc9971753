/// @file PeridynamicSimulation.hpp
/// @brief Time stepping of peridynamic bodies on their own (no contact): free step by the
///        chosen stepper, bonds broken after each step, energies and the step statistics.
///        With contact, bodies join a SceneEngine through PeridynamicSceneSystem instead.
#ifndef NSDYN_PERIDYNAMICSIMULATION_HPP
#define NSDYN_PERIDYNAMICSIMULATION_HPP

#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicStepper.hpp"

namespace nsdyn {

/// Options of a PeridynamicSimulation.
struct NSDYN_KERNEL_API PeridynamicSimulationOptions {
  PeridynamicStepOptions step;          ///< h, θ, gravity, tolerance, iterations, threads
  std::string method = "substitution";  ///< makePeridynamicStepper
  bool fracture = true;                 ///< break bonds past the critical stretch after each step
};

/// Steps a list of bodies (each on its own: without contact they do not interact).
class NSDYN_KERNEL_API PeridynamicSimulation {
 public:
  using Options = PeridynamicSimulationOptions;
  /// What one step did, summed over the bodies.
  struct StepReport {
    long step = 0;
    double time = 0.0;
    PeridynamicStepReport solver;  ///< iterations / seconds / bond updates summed; worst residual
    std::size_t bondsBroken = 0;
    /// After the step; potentialEnergy = −Σ (m g + F)·x over the free points (gravity and the
    /// applied forces body.force, both constant).
    double kineticEnergy = 0.0, elasticEnergy = 0.0, potentialEnergy = 0.0;
  };

  explicit PeridynamicSimulation(const Options& options = Options());
  /// Adds a body (kept by the simulation); returns its index.
  std::size_t add(std::shared_ptr<PeridynamicBody> body);
  PeridynamicBody& body(std::size_t i) { return *bodies_.at(i); }
  std::size_t size() const { return bodies_.size(); }
  const Options& options() const { return options_; }
  const PeridynamicStepper& stepper() const { return *stepper_; }

  /// One step; a stepper short of its tolerance still advances (status in the report). With
  /// options.fracture and a finite critical stretch, body.breakBonds() after the step and
  /// body.refresh() when a bond broke.
  const StepReport& step();
  /// Static equilibrium of every body (step.h = 0), positions updated, velocities untouched.
  const StepReport& equilibrium();
  const StepReport& lastReport() const { return report_; }
  double time() const { return time_; }
  long steps() const { return steps_; }
  /// Kinetic + elastic + potential (gravity and applied forces) of all bodies: constant in
  /// time for θ = 1/2 on a linear body without prescribed motion or fracture.
  double totalEnergy() const;

 private:
  const StepReport& finishReport(StepReport& r);
  Options options_;
  std::unique_ptr<PeridynamicStepper> stepper_;
  std::vector<std::shared_ptr<PeridynamicBody>> bodies_;
  std::vector<double> x_, v_;
  StepReport report_;
  double time_ = 0.0;
  long steps_ = 0;
};

}  // namespace nsdyn

#endif
