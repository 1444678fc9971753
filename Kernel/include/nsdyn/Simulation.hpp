/// @file Simulation.hpp
/// @brief Base class of simulation strategies (TimeStepping, EventDriven).
#ifndef NSDYN_KERNEL_SIMULATION_HPP
#define NSDYN_KERNEL_SIMULATION_HPP

#include <memory>
#include <vector>

#include "nsdyn/InteractionManager.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepIntegrator.hpp"
#include "nsdyn/OneStepNSProblem.hpp"
#include "nsdyn/StepStatistics.hpp"
#include "nsdyn/TimeDiscretisation.hpp"

namespace nsdyn {

class Model;
class NonSmoothDynamicalSystem;

/// A simulation of a Model on a TimeDiscretisation with one or more
/// integrators and one nonsmooth problem.
///
/// Time bookkeeping: the step index k starts at 0 (t_0 = t0 of the
/// discretisation). computeOneStep() brings the state from startingTime()
/// = t_k to nextTime() = t_{k+1}; nextStep() then advances k. currentTime()
/// is the time of the state the systems hold. hasNextEvent() is true while
/// t_{k+1} ≤ T (exact comparison of t0 + (k+1) h with T).
class NSDYN_KERNEL_API Simulation {
 public:
  virtual ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// Add an integrator (systems are shared out among them at initialize()).
  void insertIntegrator(const SP::OneStepIntegrator& osi);
  /// Set the nonsmooth problem (one per simulation).
  void insertNonSmoothProblem(const SP::OneStepNSProblem& problem);
  /// Set the interaction manager (contact detection; one per simulation,
  /// before Model::initialize()). TimeStepping calls it each step; EventDriven
  /// refuses it.
  void insertInteractionManager(const SP::InteractionManager& manager);
  const SP::InteractionManager& interactionManager() const { return manager_; }
  const std::vector<SP::OneStepIntegrator>& integrators() const { return integrators_; }
  const SP::OneStepNSProblem& oneStepNSProblem() const { return problem_; }
  const TimeDiscretisation& timeDiscretisation() const { return *td_; }

  /// Check everything and compute the initial outputs (λ = 0). Called by
  /// Model::initialize(). nsdyn::Error on: h ≤ 0, T ≤ t0, no integrator,
  /// a system no integrator accepts, an interaction whose relation or law
  /// does not fit its systems or the problem, an unknown solver name.
  virtual void initialize(Model& model);
  bool isInitialized() const { return model_ != nullptr; }

  long currentStep() const { return k_; }
  virtual double startingTime() const { return td_->time(k_); }
  virtual double nextTime() const { return td_->time(k_ + 1); }
  virtual double currentTime() const { return stepDone_ ? nextTime() : startingTime(); }
  double timeStep() const { return td_->h(); }
  virtual bool hasNextEvent() const;

  /// One step t_k → t_{k+1} (state at nextTime() on return). If the
  /// previous step was computed but not advanced, nextStep() is called first.
  virtual void computeOneStep() = 0;
  /// Keep memories and advance k (computes the step first if it was not).
  virtual void nextStep();
  /// computeOneStep() + nextStep() while hasNextEvent().
  void run();
  /// Restart support (nsdyn::io checkpoints): set the step counter to @p k
  /// (between two steps) and the statistics of the steps done. The caller
  /// restores the systems' and interactions' state; nothing is recomputed.
  void restoreProgress(long k, std::vector<StepStatistics> statistics) {
    k_ = k;
    stepDone_ = false;
    statistics_ = std::move(statistics);
  }

  /// Statistics of the steps done, in order: every step (the default), or the last
  /// statisticsHistory() of them.
  const std::vector<StepStatistics>& statistics() const { return statistics_; }
  /// How many steps statistics() keeps: 0 (the default) every step; N > 0 the last N
  /// only (at most 2N are held between trims), so that memory does not grow with the
  /// number of steps of a long run (`nsdyn run` keeps 1: it sums the steps as they go).
  void setStatisticsHistory(std::size_t steps);
  std::size_t statisticsHistory() const { return history_; }
  /// Statistics of the last step (nsdyn::Error before any step).
  const StepStatistics& lastStatistics() const;

  /// The model (nsdyn::Error before initialize()).
  Model& model() const;
  NonSmoothDynamicalSystem& nonSmoothDynamicalSystem() const;
  /// The integrator of @p ds, nullptr if none (after initialize()).
  const OneStepIntegrator* integratorOf(const DynamicalSystem& ds) const;

 protected:
  explicit Simulation(SP::TimeDiscretisation td);
  /// Initialise interactions that are new since the last call (added during a run).
  void initializeNewInteractions(double t);
  /// Appends the statistics of a step, dropping the oldest beyond statisticsHistory().
  void recordStatistics(const StepStatistics& step);

  SP::TimeDiscretisation td_;
  std::vector<SP::OneStepIntegrator> integrators_;
  SP::OneStepNSProblem problem_;
  SP::InteractionManager manager_;
  Model* model_ = nullptr;  // not owned: the model owns the simulation
  long k_ = 0;
  bool stepDone_ = false;
  unsigned long topologyRevision_ = 0;
  std::vector<StepStatistics> statistics_;
  std::size_t history_ = 0;
};

namespace SP {
using Simulation = std::shared_ptr<nsdyn::Simulation>;
}

}  // namespace nsdyn

#endif
