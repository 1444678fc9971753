/// @file SceneEngine.hpp
/// @brief One time step of a rigid-body scene over arrays: the body store, contacts detected
///        every step and kept in arrays, the friction-contact problem solved on the operator
///        (NSGS in body-velocity form, APGD) or on an assembled W (every other FC3D solver),
///        Moreau–Jean on the store. The same step for one process and for N parts through a
///        SceneExchange (doc/design.md, "One scene engine").
#ifndef NSDYN_SCENEENGINE_HPP
#define NSDYN_SCENEENGINE_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nsdyn/BodyHandle.hpp"
#include "nsdyn/BodyStore.hpp"
#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/ContactManager.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OverlapRecovery.hpp"
#include "nsdyn/SceneContacts.hpp"
#include "nsdyn/SceneExchange.hpp"
#include "nsdyn/SceneSystem.hpp"
#include "nsdyn/StepStatistics.hpp"
#include "nsdyn/nsd_bodies.h"
#include "nsdyn/nsd_common.h"

namespace nsdyn {

namespace store {
class ResponseCoupling;
}

/// nsd_solver_options_default as a value.
inline NsdSolverOptions defaultSolverOptions() {
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  return o;
}

/// Options of SceneEngine.
struct NSDYN_KERNEL_API SceneEngineOptions {
  double h = 1e-3;     ///< time step (> 0)
  double theta = 0.5;  ///< Moreau–Jean θ in [0, 1] (positions; the impulses act at t_{k+1})
  double t0 = 0.0;
  std::array<double, 3> gravity{0.0, 0.0, -9.81};  ///< owned by the scene (m/s²)
  /// The contact rules of ContactManager: margin (or relativeMargin), breaking distance,
  /// relativeActivation, overlap warnings, warm start, swept detection, stabilisation,
  /// detection threads (detection.threads: also the threads of every pass of the step).
  ContactManagerOptions contacts;
  /// "nsgs" (Gauss–Seidel in body-velocity form, W never formed), "apgd" (the De Saxcé
  /// APGD on the operator J M⁻¹ Jᵀ), "auto" (the body-velocity NSGS with Anderson
  /// acceleration, NSD_AUTO_ANDERSON differences unless solverOptions.nsgs.anderson > 0;
  /// with coupled systems Numerics's auto on the assembled W), or any FC3D solver of the
  /// solver table (W assembled sparse-block): nsdyn solve --list-solvers.
  std::string solver = "nsgs";
  /// Solver run when the first one stops without an answer within tolerance (empty: none):
  /// an FC3D solver of the table, on the assembled W, started from the first one's
  /// impulses when finite (as OneStepNSProblem::setFallbackSolver). One process only.
  std::string fallback;
  /// The fallback's bound (tolerance mode): it runs at most fallbackTimeFactor times the wall
  /// time the first solver spent on the step (never less than 10 ms, and never more than
  /// solverOptions.time_limit when that is > 0; 0: no time bound) and at most
  /// fallbackIterations iterations (0: solverOptions.max_iterations). A fallback stopped at
  /// its bound leaves the step short of its tolerance: a failed step (status
  /// NSD_MAX_ITERATIONS, its residual in StepReport::solver), as without a fallback. The time
  /// bound makes such a step depend on the machine's speed; set it to 0 for bit-identical runs.
  double fallbackTimeFactor = 1.0;
  int fallbackIterations = 0;
  /// Tolerance on the Siconos error, iteration budget, ... (the defaults of
  /// nsd_solver_options_default). warm_start and threads are set by the engine
  /// (contacts.warmStart, contacts.detection.threads).
  NsdSolverOptions solverOptions = defaultSolverOptions();
  /// Tolerance (default): a solve short of solverOptions.tolerance is a failed step.
  /// Budget: solverOptions.max_iterations (and time_limit when > 0) are the step's fixed
  /// budget; a solve stopped there is accepted whatever its residual (StepReport::status
  /// NSD_OK, aboveTolerance set); no fallback and no APGD cold retry. See SolveMode.
  SolveMode solveMode = SolveMode::Tolerance;
  /// Gyroscopic term −Ω × IΩ in the free velocity (one linearised implicit step in the body
  /// frame; zero for bodies with isotropic inertia such as spheres).
  bool gyroscopic = true;
  /// Overlap recovery after the position update (split-impulse pseudo-velocities on the
  /// positions only; on by default, enabled = false: the step without it, bit for bit). Over
  /// several parts its sweeps go through the exchange like the NSGS solve (doc/parallel.md).
  OverlapRecoveryOptions recovery;
  /// Speculative contacts (default off; SceneEngineSpeculative.cpp, doc/design.md). A kept
  /// contact that the usual rule leaves out of the problem (gap + ½ h u_n,k > activation)
  /// and has no restitution enters it with the normal row u_n,k+1 ≥ −(gap + ½ h u_n,k) / h
  /// (< 0: it may approach, the end-of-step gap stays ≥ half of gap + ½ h u_n,k, and the
  /// next step can stop at the surface); inactive at the answer, it exerts no force. The
  /// detection is swept with twice the sweep of sweptDetection, so that a fast body is in
  /// the problem a step before it lands: a landing at speed U no longer penetrates ½ h U.
  bool speculativeContacts = false;
};

/// A scene of rigid bodies with shapes, stepped by Moreau–Jean over arrays.
///
/// One step from t_k to t_{k+1} = t_k + h:
///  1. detection at q_k (ContactDetector over the store; swept when asked), the owned
///     contacts kept (SceneExchange::afterDetection);
///  2. contact arrays (ContactRules.hpp, the rules of ContactManager): kept while gap ≤ margin
///     or known and gap ≤ breaking distance; frame and lever arms at q_k; u_k = J v_k; active
///     when gap + ½ h u_n,k ≤ activation; warm start from the last impulse of the same key
///     (normal kept, tangential turned into the new tangent plane);
///  3. free velocity: v_free = v_k + h (g + F/m), Ω_free from the body-frame Euler equation
///     (applied torque, gyroscopic term linearised implicitly with θ);
///  4. the active contacts' problem u = J v + q, q_n = e u_n,k + bias, solved for r with
///     v = v_free + M⁻¹ Jᵀ r (M⁻¹: 1/m and the world inverse inertia R I⁻¹ Rᵀ at q_k);
///  5. v_{k+1} = v (Ω back in the body frame with R_k), x_{k+1} = x_k + h (θ v_{k+1} + (1−θ) v_k),
///     q_{k+1} = q_k ⊗ exp(h (θ Ω_{k+1} + (1−θ) Ω_k));
///  6. u_{k+1} = J v_{k+1}, the work of the impulses Σ λ·(u_k + u_{k+1})/2, energies; the
///     memory of the kept contacts for the next warm start; SceneExchange::afterStep.
/// For spheres this is the step of TimeStepping + ContactManager + MoreauJeanOSI (one pass)
/// to round-off. Every pass runs over arrays (OpenMP), with no allocation once the arrays
/// have grown to the scene's size; results are the same bits for any thread count.
class NSDYN_KERNEL_API SceneEngine {
 public:
  using Options = SceneEngineOptions;

  /// What one step did (also the totals a run prints).
  struct StepReport {
    long step = 0;             ///< steps done
    double time = 0.0;         ///< t_{k+1}
    std::size_t contacts = 0;  ///< kept
    std::size_t active = 0;    ///< in the problem
    std::size_t warmStarted = 0;
    std::size_t stabilised = 0;
    std::size_t speculative = 0;  ///< of the active ones, speculative (speculativeContacts)
    NsdReport solver{};           ///< iterations, Siconos error, status, message
    NsdStatus status =
        NSD_OK;  ///< the step's verdict (NSD_OK for a budget-mode solve at its budget)
    /// The solve stopped at its budget with its residual (solver.residual) above the
    /// tolerance: accepted in budget mode, a failure (status) in tolerance mode.
    bool aboveTolerance = false;
    bool coldRestart = false;  ///< APGD stalled from the warm start and was rerun from 0
    bool fallback = false;     ///< the fallback solver ran (Options::fallback)
    /// The fallback's own iterations and seconds (also counted in solver), 0 without one.
    int fallbackIterations = 0;
    double fallbackSeconds = 0.0;
    double kineticEnergy = 0.0, potentialEnergy = 0.0;
    double contactWork = 0.0;     ///< Σ λ·(u_k + u_{k+1})/2 over the kept contacts
    double maxPenetration = 0.0;  ///< max(0, −min gap) over the kept contacts (at t_k)
    /// Overlap recovery: contacts in its problem (0: nothing to correct), its sweeps, the
    /// largest position correction of a body (m) and its seconds (also in updateSeconds).
    std::size_t recovered = 0;
    int recoveryIterations = 0;
    double recoveryShift = 0.0, recoverySeconds = 0.0;
    /// Seconds of each phase of the step.
    double detectSeconds = 0.0, contactSeconds = 0.0, freeSeconds = 0.0, solveSeconds = 0.0,
           updateSeconds = 0.0, totalSeconds = 0.0;
  };

  /// Checks h > 0, θ in [0, 1], finite gravity and t0, the contact options and the solver
  /// name (nsdyn::Error naming the option and value).
  explicit SceneEngine(const Options& options = Options());

  BodyStore& bodies() { return bodies_; }
  /// Body @p index as an object (nsdyn::Error naming the index when out of range).
  BodyHandle body(std::size_t index) { return BodyHandle(bodies_, index); }
  const BodyStore& bodies() const { return bodies_; }
  /// Bodies (BodyStore::addBody / addStatic); nsdyn::Error after the first step.
  std::size_t addBody(const BodySpec& spec, int group = 0) {
    refuseAfterStart("addBody");
    return bodies_.addBody(spec, group);
  }
  std::size_t addBody(const BodyShapes& body, int group = 0) {
    refuseAfterStart("addBody");
    return bodies_.addBody(body, group);
  }
  std::size_t addStatic(const std::vector<ShapeInstance>& shapes,
                        const Shape::Vec3& position = {0.0, 0.0, 0.0},
                        const Shape::Quat& orientation = {1.0, 0.0, 0.0, 0.0}, int group = 0) {
    refuseAfterStart("addStatic");
    return bodies_.addStatic(shapes, position, orientation, group);
  }

  /// A system kind that owns bodies of the store and gives their free velocity
  /// (SceneSystem.hpp): attached at once (it adds its bodies). nsdyn::Error after the first
  /// step, for a null system, and (at initialize) over several parts. None: the step of before.
  void addSystem(std::shared_ptr<SceneSystem> system);
  const std::vector<std::shared_ptr<SceneSystem>>& systems() const { return systems_; }

  /// Materials, as ContactManager's (μ ≥ 0, e in [0, 1]).
  void setDefaultMaterial(const ContactMaterial& material);
  void setMaterial(int groupA, int groupB, const ContactMaterial& material);
  ContactMaterial material(int groupA, int groupB) const;

  /// The distribution of the step (default: one process). Before initialize().
  void setExchange(std::shared_ptr<SceneExchange> exchange);
  const SceneExchange& exchange() const { return *exchange_; }

  /// Margins from the shapes, overlap warnings at t0, the detector over the store. Called by
  /// the first step(); bodies added later are refused.
  void initialize();
  bool initialized() const { return initialized_; }

  /// One step (see the class comment). A failed solve (status ≠ NSD_OK) still updates the
  /// state with the best answer found; the caller decides by the report.
  const StepReport& step();
  const StepReport& lastReport() const { return report_; }

  /// Write the friction-contact problem of the steps @p steps (numbers ≥ 1, the step
  /// being done: steps() + 1) that have active contacts as FCLIB files
  /// @p directory/problem_NNNNNN.hdf5 (W assembled, q = J v_free + e u_n,k + bias, μ), before
  /// solving, and beside each its global form problem_NNNNNN_global.hdf5 (M the bodies'
  /// mass blocks, H = Jᵀ, the velocities as unknowns: nsd_rigid_contacts_global), for the
  /// global solvers (ipm, admm); nsdyn solve FILE replays one. One process only. nsdyn::Error for a
  /// step < 1; a file that cannot be written throws from step().
  void setProblemDump(std::string directory, std::vector<long> steps);
  /// The FCLIB files written so far.
  const std::vector<std::string>& dumpedFiles() const { return dumped_; }

  const SceneContacts& contacts() const { return contacts_; }
  const ContactMemory& memory() const { return memory_; }
  /// Restart: the memory the next step warm-starts from (sorted by key, checked), and the
  /// steps done (time = t0 + steps h).
  void setMemory(ContactMemory memory);
  void setClock(long steps);
  double time() const { return time_; }
  long steps() const { return steps_; }
  const Options& options() const { return options_; }
  /// The absolute margin, breaking distance and activation threshold (after initialize()).
  double margin() const { return margin_; }
  double breakingDistance() const { return breaking_; }
  double activation() const { return activation_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

  /// Kinetic energy Σ ½ m |v|² + ½ Ωᵀ I Ω; potential of gravity and of the constant applied
  /// forces −Σ (m g + F)·x.
  double kineticEnergy() const;
  double potentialEnergy() const;

 private:
  void checkOptions() const;
  void refuseAfterStart(const char* what) const;
  void prepare();  // initialize() up to the exchange's part
  void fillMaterialTable();
  void detect();
  void dropSystemPairs();  // the pairs a system's keepsContact refuses, out of found_
  void fillContacts();
  /// The detection sweep per body speed × h: 0 (not swept), 1 (sweptDetection), 2
  /// (speculativeContacts). SceneEngineSpeculative.cpp.
  double sweepScale() const;
  void freeVelocity();
  void solve();
  NsdStatus solveAssembled(const NsdRigidContacts& p, const std::string& name, double* qw,
                           double* mu, double* r, double* u, NsdSolverOptions options,
                           NsdReport& report);
  /// W = J M⁻¹ Jᵀ (with the coupled systems' response when active), created into @p W.
  NsdStatus assemble(const NsdRigidContacts& p, NsdMatrix** W, NsdReport& report);
  /// v = v_free + M⁻¹ Jᵀ r, and the coupled systems' correction when active.
  void applyImpulses(const NsdRigidContacts& p, const double* r);
  void dumpIfAsked(const NsdRigidContacts& p);
  void writeDump(NsdProblem& problem, long step, const char* suffix, const char* kind);
  double normalOffset(std::size_t c) const;
  void freeLocalVelocity(const NsdRigidContacts& p, double* qw) const;
  void restoreContacts(std::size_t active);
  void orderByStage(NsdRigidContacts& p, double* r);
  void update();
  void recover();  // SceneEngineRecovery.cpp
  void finishStep();
  double reduced(double value) const;

  Options options_;
  BodyStore bodies_;
  ContactMaterial default_;
  std::map<std::pair<int, int>, ContactMaterial> materials_;
  std::shared_ptr<SceneExchange> exchange_;
  std::vector<std::shared_ptr<SceneSystem>> systems_;
  // the coupled systems' response in the contact problem (null: none is coupled)
  std::shared_ptr<store::ResponseCoupling> coupling_;
  bool filtersContacts_ = false;  // a system drops some pairs of its own bodies
  ContactDetector detector_;
  std::vector<DetectedContact> found_;
  SceneContacts contacts_;
  ContactMemory memory_;
  std::vector<std::int32_t> keep_, prev_;
  std::vector<double> sweep_;
  // per body, this step: world velocity (linear, angular) free then final, world angular
  // velocity at t_k (the linear one is bodies_.v's until update()), world inverse inertia,
  // applied load callables' values
  std::vector<double> vel_, omegaStart_, invInertiaWorld_, wrench_;
  std::vector<ContactMaterial> materialTable_;  // (maxGroup + 1)^2, filled at initialize()
  int groups_ = 0;
  // the active contacts' problem, read in place from contacts_ (NsdRigidContacts::index =
  // activeIndex_); during the solve their impulses (r) are moved to the front of
  // contacts_.impulse and q (NSGS) or q_W to the front of contacts_.velocity, put back after
  // (APGD and the assembled-W solvers also take a compact μ and u, for the solve only).
  std::vector<std::int32_t> activeIndex_;
  // NSGS over parts in stages (SceneExchange::stages() > 1): activeIndex_ and the compact r
  // reordered by stage for the solve (keyIndex_: the key order; stageOrder_[pos]: the key
  // slot of problem contact pos; stageEnd_: cumulative ends), put back by restoreContacts
  std::vector<std::int32_t> keyIndex_, stageOrder_, stageOf_, stageEnd_;
  std::vector<double> stageR_;
  bool staged_ = false;
  std::vector<double> jtr_, dvr_;  // APGD over several parts: J^T r (summed) and M^-1 J^T r
  std::vector<double> velFree_;    // v_free kept for a fallback solve
  // overlap recovery: its contacts (entries), q and pseudo-impulses (3 per contact), a zero
  // μ per entry, the pseudo-velocities (6 per body), a zero inverse inertia per body (the
  // correction translates: SceneEngineRecovery.cpp); the absolute slop (set by prepare);
  // over parts: the step's active flags kept aside, the stages of its contacts (one part:
  // the bands of the bottom-up order, or with many contacts the slab of each contact); the
  // side each contact holds (RecoveryOrder.hpp)
  std::vector<std::int32_t> recIndex_, recStage_, recStageEnd_, recBlock_;
  std::vector<double> recQ_, recR_, recMu_, recVel_;
  std::vector<std::uint8_t> recActive_, recHeld_;
  double recSlop_ = 0.0;
  double recMaxSpeed_ = 0.0;  // the recovery-speed cap (m/s): maxSpeed, or slopsPerStep slop / h
  std::string dumpDirectory_;
  std::vector<long> dumpSteps_;
  std::vector<std::string> dumped_;
  double margin_ = 0.0, breaking_ = 0.0, activation_ = 0.0;
  double time_ = 0.0;
  long steps_ = 0;
  bool initialized_ = false;
  std::vector<std::string> warnings_;
  StepReport report_;
};

}  // namespace nsdyn

#endif
