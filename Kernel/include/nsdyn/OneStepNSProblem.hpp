/// @file OneStepNSProblem.hpp
/// @brief Base class of the nonsmooth problems solved at each time step.
#ifndef NSDYN_KERNEL_ONESTEPNSPROBLEM_HPP
#define NSDYN_KERNEL_ONESTEPNSPROBLEM_HPP

#include <functional>
#include <memory>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SimpleMatrix.hpp"
#include "nsdyn/StepStatistics.hpp"
#include "nsdyn/Topology.hpp"
#include "nsdyn/nsd_problems.h"

namespace nsdyn {

class ContactSet;
class OneStepIntegrator;

/// A one-step nonsmooth problem over the active unitary relations.
///
/// compute() assembles, for the relations of the index set given:
///  - the Delassus matrix, one block per pair of relations coupled through
///    a system (H_a W⁻¹ H_bᵀ, or D + h C W⁻¹ B for first order), stored as
///    an ::NsdMatrix, sparse-block (default; one block per coupled pair) or
///    dense (a choice for small problems: at 10,000 contacts it needs gigabytes);
///  - the local vector q (free output, restitution included);
/// then solves it with the Numerics solver named solverName() (options
/// options(); warm start from the previous λ of each relation unless
/// disabled) and writes λ back into the interactions (level given by the
/// integrator: 1 Lagrangian, 0 first order). A failed solve is recorded in
/// the returned statistics, never thrown; its λ is kept when finite, else 0.
class NSDYN_KERNEL_API OneStepNSProblem {
 public:
  /// Storage of the assembled Delassus matrix.
  enum class MatrixStorage { Dense, SparseBlock };
  /// Finds the integrator of a system (set by the simulation).
  using IntegratorLookup = std::function<const OneStepIntegrator*(const DynamicalSystem&)>;

  virtual ~OneStepNSProblem() = default;
  OneStepNSProblem(const OneStepNSProblem&) = delete;
  OneStepNSProblem& operator=(const OneStepNSProblem&) = delete;

  virtual std::string className() const = 0;
  /// The Numerics problem kind whose solver table is used for the name.
  virtual NsdProblemKind numericsKind() const = 0;
  /// nsdyn::Error (naming @p ur and its law) if this problem cannot hold @p ur.
  virtual void checkRelation(const UnitaryRelation& ur) const = 0;

  /// Solver name, as in Numerics' solver table (nsd_solver_find).
  const std::string& solverName() const { return solverName_; }
  void setSolverName(std::string name) { solverName_ = std::move(name); }
  /// Fallback solver (empty: none, the default): when the solver stops without an answer
  /// within tolerance (its iteration cap, its time limit, a failure other than bad input),
  /// the same problem is solved again by this one, started from the first solver's λ
  /// (when finite), with the same options; the step's statistics then report the
  /// fallback's status and residual, both solvers' iterations and time, and
  /// StepStatistics::fallbacks = 1. Checked against the solver table at initialize().
  /// A robust direct or Newton solver behind a fast iterative one (e.g. "nsgs" then
  /// "newton_ac"): a Gauss-Seidel sweep can cycle on a granular step at a residual 3× the
  /// tolerance for any number of sweeps, where the global Newton solves it in 36 iterations.
  const std::string& fallbackSolver() const { return fallbackSolver_; }
  void setFallbackSolver(std::string name) { fallbackSolver_ = std::move(name); }
  /// The fallback's bound: at most fallbackTimeFactor() times the first solver's wall time
  /// on the step (never under 10 ms, never over options().time_limit when > 0; 0: no time
  /// bound, for runs bit-identical across machines; default 1) and at most
  /// fallbackIterations() iterations (0, the default: options().max_iterations). Stopped
  /// there, the step is short of its tolerance: a failed step with its residual reported.
  double fallbackTimeFactor() const { return fallbackTimeFactor_; }
  int fallbackIterations() const { return fallbackIterations_; }
  /// nsdyn::Error unless @p factor is finite and ≥ 0 and @p iterations ≥ 0.
  void setFallbackBound(double factor, int iterations);
  /// Tolerance mode (the default: a solve short of its tolerance is a failed step) or budget
  /// mode (options().max_iterations, and time_limit when > 0, are the step's fixed budget: a
  /// solve stopped there is accepted, StepStatistics::aboveTolerance set; no fallback, no
  /// cold retry). See SolveMode. Time stepping only (EventDriven ignores it).
  SolveMode solveMode() const { return solveMode_; }
  void setSolveMode(SolveMode mode) { solveMode_ = mode; }
  /// Solver options (Numerics defaults at construction, unless noted by the subclass).
  const NsdSolverOptions& options() const { return options_; }
  /// Mutable options (changes apply from the next solve).
  NsdSolverOptions& optionsMutable() { return options_; }
  /// Warm start from the previous λ (default true). It is passed only to the
  /// solvers whose entry in Numerics' solver table says they iterate from a start
  /// (NsdSolverEntry::warm_start): the direct ones (lemke, enum) start from their
  /// own basis, so their answer does not depend on the previous step (a warm
  /// start within tolerance would otherwise be returned as is).
  bool warmStart() const { return warmStart_; }
  void setWarmStart(bool on) { warmStart_ = on; }
  MatrixStorage matrixStorage() const { return storage_; }
  void setMatrixStorage(MatrixStorage storage) { storage_ = storage; }

  /// Checks the solver name (nsdyn::Error listing the kind and name if
  /// unknown) and stores how to find integrators and the problem level.
  virtual void initialize(IntegratorLookup lookup, unsigned level);
  unsigned level() const { return level_; }

  /// Assemble and solve over @p active at the end time @p tk1 of the step;
  /// with an empty set nothing is solved. Returns the step's solver statistics.
  /// With @p contacts (a ContactManager's ContactSet), the problem is over its
  /// active contacts instead (computeContacts); nsdyn::Error if @p active is
  /// not empty then (contacts and Interactions in one problem: GenericMechanical only,
  /// which overrides this).
  virtual StepStatistics compute(const Topology& topology, const IndexSet& active, double tk1,
                                 ContactSet* contacts = nullptr);

  /// Last assembled problem, dense copies (for inspection and tests; the
  /// matrix is empty when the storage is sparse-block).
  const SimpleMatrix& lastMatrix() const { return lastM_; }
  const SiconosVector& lastQ() const { return lastQ_; }
  /// Last solution (λ stacked over the active relations) and w = M λ + q.
  const SiconosVector& lastLambda() const { return lastZ_; }
  const SiconosVector& lastW() const { return lastW_; }
  /// Number k + 1 of the step being solved (set by the simulation before compute()).
  void setStepNumber(long step) { step_ = step; }
  long stepNumber() const { return step_; }

 protected:
  explicit OneStepNSProblem(std::string solverName);
  /// Solve the assembled problem: @p z holds the warm start (or 0) on entry
  /// and λ on return, @p w receives M λ + q. Takes ownership of @p M.
  /// Whether the solver named solverName() gets the warm start (see warmStart()).
  bool passWarmStart() const;
  /// The problem over the active contacts of @p contacts (impulses read as the
  /// warm start and written back). Default: nsdyn::Error (only FrictionContact(3)).
  virtual StepStatistics computeContacts(ContactSet& contacts, double tk1);
  virtual NsdStatus solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active,
                          SiconosVector& z, SiconosVector& w, NsdReport& report) = 0;
  /// nsd_solve by solverName(), then by fallbackSolver() if the first did not converge
  /// (see setFallbackSolver); sets fallbackUsed_. Every subclass solves through this.
  NsdStatus solveNumerics(const NsdProblem& problem, double* x, double* y,
                          NsdSolverOptions& options, NsdReport& report);
  /// The step's verdict on a solve that returned @p status: stats.aboveTolerance set when it
  /// stopped at its budget (NSD_MAX_ITERATIONS); NSD_OK for such a solve in budget mode.
  NsdStatus judge(NsdStatus status, StepStatistics& stats) const;
  /// solve() on the assembled (@p M, @p q) of @p active, then the step's record: λ in @p z
  /// (zeroed unless finite), w = M λ + q in @p w, lastQ/lastZ/lastW, and in @p stats the
  /// solver (with its fallback), the verdict (judge) and the figures. Shared by every
  /// subclass that assembles its own W.
  void solveAndRecord(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active,
                      SiconosVector& z, SiconosVector& w, StepStatistics& stats);
  /// Whether a fallback or a cold retry may follow a solve short of its tolerance.
  bool retries() const { return solveMode_ == SolveMode::Tolerance; }
  SolveMode solveMode_ = SolveMode::Tolerance;
  /// Whether the last solveNumerics() call ran the fallback.
  bool fallbackUsed_ = false;
  std::string fallbackSolver_;
  double fallbackTimeFactor_ = 1.0;
  int fallbackIterations_ = 0;
  /// The fallback's options @p fallback bounded after a first solve of @p firstSeconds.
  void boundFallback(NsdSolverOptions& fallback, double firstSeconds) const;

  std::string solverName_;
  NsdSolverOptions options_;
  bool warmStart_ = true;
  MatrixStorage storage_ = MatrixStorage::SparseBlock;
  IntegratorLookup lookup_;
  unsigned level_ = 1;
  long step_ = 0;
  SimpleMatrix lastM_;
  SiconosVector lastQ_, lastZ_, lastW_;
};

namespace SP {
using OneStepNSProblem = std::shared_ptr<nsdyn::OneStepNSProblem>;
}

}  // namespace nsdyn

#endif
