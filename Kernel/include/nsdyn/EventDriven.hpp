/// @file EventDriven.hpp
/// @brief Event-driven simulation of Lagrangian systems with unilateral
///        contacts and Newton impacts (the Siconos EventDriven + LsodarOSI pair).
#ifndef NSDYN_KERNEL_EVENTDRIVEN_HPP
#define NSDYN_KERNEL_EVENTDRIVEN_HPP

#include <cfloat>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/CvodeOSI.hpp"
#include "nsdyn/EventStatistics.hpp"
#include "nsdyn/EventsManager.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/Simulation.hpp"

namespace nsdyn {

/// Event-driven strategy. Between events the smooth dynamics
///   M(q) v̇ = F_ext − F_int + Gᵀ λ(2),  q̇ = v,
/// with λ(2) from the acceleration-level LCP on index set I2 (contacts that
/// rest: 0 ≤ ÿ ⊥ λ(2) ≥ 0), are integrated by a CvodeOSI up to the next event:
///  - a TimeDiscretisationEvent at t0 + k h (the output grid), or
///  - a NonSmoothEvent: a root, decreasing through 0 (its time refined by
///    one Newton step on the gap for an impact), of
///      g = y (the gap)             for the contacts not in I2,
///      g = λ(2) − ÿ                for those in I2 (it equals λ(2) while the
///                                  contact holds and turns negative when the
///                                  LCP would let it go).
/// processEvents() at a nonsmooth event:
///  1. I1 = contacts with y ≤ eventTolerance; impacts = those of I1 with
///     ẏ < −eventTolerance;
///  2. if there are impacts: the impact LCP on I1 with the Newton law,
///       ẏ⁺ = ẏ⁻ + G M⁻¹ Gᵀ P,  0 ≤ ẏ⁺ + e ẏ⁻ ⊥ P ≥ 0,
///     P stored as λ(1), p = Gᵀ P in the systems, v⁺ = v⁻ + M⁻¹ p. An impact
///     with |ẏ⁻| < impactVelocityThreshold, or closer than minImpactInterval
///     to the previous impact of the same contact, ends an accumulation of
///     impacts: its restitution is taken as 0 so the contact can rest;
///  3. candidates for I2 = contacts of I1 with |ẏ⁺| ≤ eventTolerance, minus
///     those whose force root fired (released); the acceleration LCP on them
///     keeps in I2 those with λ(2) > 0;
///  4. the integrator restarts from the new state.
/// Grid events change nothing but are where outputs are read.
///
/// At every event the systems' and interactions' memories (qMemory(),
/// velocityMemory(), yMemory()) hold the state just before the event, and
/// p() and λ(1) are reset to 0 (so they are non-zero only just after an impact).
///
/// Supported: Lagrangian systems (LagrangianDS, LagrangianLinearTIDS),
/// Lagrangian relations (LagrangianLinearTIR, LagrangianScleronomousR; the
/// term Ġ v of a nonlinear relation is a central difference of G along v),
/// NewtonImpactNSL laws, one CvodeOSI, LCP problems. Anything else (friction
/// laws, first-order systems, other integrators) is refused at initialisation.
class NSDYN_KERNEL_API EventDriven : public Simulation {
 public:
  /// Settings of the event handling (inputs only).
  struct Options {
    /// Gap (m) and velocity (m/s) below which a contact counts as closed /
    /// at rest; default 1000 · 10 ε ≈ 2.2e-12 (Siconos' event tolerance).
    double eventTolerance = 1.0e4 * DBL_EPSILON;
    /// Impacts with |ẏ⁻| below this (m/s) end an accumulation: the contact
    /// is made to rest (restitution 0). Default 1e-6; 0 disables the test.
    double impactVelocityThreshold = 1e-6;
    /// Impacts of one contact closer than this (s) end an accumulation as
    /// above. Default 1e-9; 0 disables the test.
    double minImpactInterval = 1e-9;
    /// The run stops (status MaxEvents) after this many events. Default 1e6.
    long maxEvents = 1000000;
  };

  /// How a run stands.
  enum class RunStatus {
    Running,          ///< events are left
    Finished,         ///< every event up to T was processed
    MaxEvents,        ///< stopped at Options::maxEvents
    IntegratorFailed  ///< CVODE failed (statusMessage() says why); the state is the last one
                      ///< reached
  };

  /// Simulation on the output grid of @p td; integrator and problems inserted later.
  explicit EventDriven(SP::TimeDiscretisation td);
  /// With the smooth integrator and the impact and acceleration problems
  /// (nullptr: an LCP solved by "lemke").
  EventDriven(SP::TimeDiscretisation td, const SP::OneStepIntegrator& osi,
              const SP::OneStepNSProblem& impactProblem = nullptr,
              const SP::OneStepNSProblem& accelerationProblem = nullptr);

  /// Velocity-level impact problem (also Simulation::oneStepNSProblem()).
  void setImpactProblem(const SP::OneStepNSProblem& problem) { insertNonSmoothProblem(problem); }
  const SP::OneStepNSProblem& impactProblem() const { return problem_; }
  /// Acceleration-level problem on I2.
  void setAccelerationProblem(const SP::OneStepNSProblem& problem);
  const SP::OneStepNSProblem& accelerationProblem() const { return accelerationProblem_; }

  const Options& options() const { return options_; }
  /// Mutable options (set them before Model::initialize()).
  Options& optionsMutable() { return options_; }

  /// Checks (see the class comment), first outputs, index sets I1 and I2 at
  /// t0, the integrator started. nsdyn::Error on an unsupported system, law,
  /// relation, integrator or problem, or a bad option.
  void initialize(Model& model) override;

  /// Time of the current event (the state the systems hold).
  double startingTime() const override;
  /// Time of the next event (the current one when none is left).
  double nextTime() const override;
  double currentTime() const override { return startingTime(); }
  /// True while the run is Running.
  bool hasNextEvent() const override;

  /// Integrate to the next event (a grid time or a root found on the way,
  /// which is then inserted). False when the run has stopped or stops now
  /// (CVODE failure: status IntegratorFailed, the systems keep the last
  /// state reached).
  bool advanceToEvent();
  /// Process the next event (see the class comment); false if none was
  /// reached. Updates the status (Finished, MaxEvents).
  bool processEvents();
  /// advanceToEvent() then processEvents().
  void computeOneStep() override;
  /// Nothing to do: every event is complete after processEvents().
  void nextStep() override {}

  RunStatus status() const { return status_; }
  /// "finished at t = 8.5", or why the run stopped.
  const std::string& statusMessage() const { return statusMessage_; }

  const EventsManager& eventsManager() const { return events_; }
  /// The last processed events, in order: all of them by default; with
  /// setStatisticsHistory(N), N > 0, at least the last max(N, 2) (at most twice that), so
  /// that memory does not grow with a long run (`nsdyn run` keeps 1).
  const std::vector<EventStatistics>& eventStatistics() const { return eventStats_; }
  /// Statistics of the last processed event (nsdyn::Error before any).
  const EventStatistics& lastEventStatistics() const;
  /// Totals over every event since initialize() (solver calls, iterations, failed solves).
  const EventTotals& eventTotals() const { return totals_; }
  /// Processed events and impacts since initialize().
  long numberOfEvents() const { return totals_.events; }
  long numberOfImpacts() const { return impacts_; }

  /// Contact force Gᵀ λ(2) on @p ds at the current state.
  SiconosVector contactForce(const DynamicalSystem& ds) const;
  /// The smooth integrator.
  CvodeOSI& integrator() const;

 private:
  void checkSupported(Model& model) const;
  void computeContactForces(double t);
  void computeRoots(double t, double* g) const;
  void updateOutputs(double t);
  SimpleMatrix assembleDelassus(const IndexSet& set) const;
  StepStatistics solveLcp(const OneStepNSProblem& problem, const SimpleMatrix& M,
                          const SiconosVector& q, SiconosVector& z, SiconosVector& w) const;
  /// Acceleration LCP at the current state on @p set: λ(2), ÿ written; returns the solve report.
  StepStatistics solveAcceleration(const IndexSet& set, double t, bool record);
  SiconosVector accelerationFreeOutput(const UnitaryRelation& ur) const;
  void handleNonSmoothEvent(const NonSmoothEvent& event, EventStatistics& stats);
  void restartIntegrator(double t);
  /// Largest impact-time correction of refineImpactTime(), in units of eps max(1, |t|).
  static constexpr double kRootRefinementFactor = 1e4;
  void refineImpactTime(const std::vector<std::size_t>& roots, double tout);
  void stop(RunStatus status, const std::string& message);

  SP::OneStepNSProblem accelerationProblem_;
  CvodeOSI* osi_ = nullptr;
  Options options_;
  EventsManager events_;
  RunStatus status_ = RunStatus::Running;
  std::string statusMessage_;
  std::vector<EventStatistics> eventStats_;
  EventTotals totals_;
  long impacts_ = 0;
  long stepsAtLastEvent_ = 0, rhsAtLastEvent_ = 0;
  bool reached_ = false;               // the state is at the next event's time
  unsigned long revisionAtStart_ = 0;  // topology revision at initialize()
  StepStatistics lastAcceleration_;    // last acceleration solve at an event
  // per position in I0:
  std::vector<double>
      gapOffset_;  // root g = y - offset (offset <= 0: the gap left by the last event)
  std::vector<double> lastImpact_;  // time of the last impact (-inf: none)
  std::vector<char> resting_;       // in I2
};

namespace SP {
using EventDriven = std::shared_ptr<nsdyn::EventDriven>;
}

}  // namespace nsdyn

#endif
