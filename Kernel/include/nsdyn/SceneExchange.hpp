/// @file SceneExchange.hpp
/// @brief The seam between the scene engine's one time step and its distribution over
///        processes: the points of the step where parts of a scene exchange data. The
///        single-process implementation (this class) does nothing; an MPI implementation
///        (Parallel/) derives from it. No step of the engine switches on the rank count.
#ifndef NSDYN_SCENEEXCHANGE_HPP
#define NSDYN_SCENEEXCHANGE_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/SceneContacts.hpp"

namespace nsdyn {

class BodyStore;

/// What a persistent contact carries from one step to the next (warm start) and into a
/// checkpoint: its key, normal impulse and world tangential impulse, sorted by key.
struct NSDYN_KERNEL_API ContactMemory {
  std::vector<std::uint64_t> key;
  std::vector<double> normal;      ///< 1 per contact
  std::vector<double> tangential;  ///< 3 per contact (world)
  std::size_t size() const { return key.size(); }
  void clear() {
    key.clear();
    normal.clear();
    tangential.clear();
  }
};

/// Hooks of the scene step. Once, in SceneEngine::initialize(): initialize (the part's
/// bodies chosen from the whole scene). Then, in this order each step:
///  1. afterDetection: the detected contacts (sorted by key) reduced to the ones this part
///     keeps (owned contacts);
///  2. beforeSolve, with the step's contact arrays (e.g. the bodies shared with other
///     parts), then solveStart with the free velocities; for NSGS, stages() and
///     contactStages (the order of a sweep over the parts); during the solve: afterStage
///     between the stages of a sweep, afterSweep after each Gauss–Seidel sweep (ghost
///     velocities), afterTranspose after
///     each Jᵀx of the operator (halo sums of impulses to owners; also the final
///     v = v_free + M⁻¹ Jᵀ r of APGD over several parts), reduceSum / reduceMax for every
///     global figure of a solver (errors, norms, energies, faults);
///  3. afterStep: bodies and contact memory moved to their new owners (migration).
/// The base class is the whole scene on one process: every hook leaves its data as it is.
class NSDYN_KERNEL_API SceneExchange {
 public:
  virtual ~SceneExchange() = default;
  /// This part and the number of parts.
  virtual int rank() const { return 0; }
  virtual int size() const { return 1; }
  /// @p bodies: the whole scene, built alike on every part (same bodies, same order). A
  /// distributed implementation keeps this part's owned bodies, the ghost copies of other
  /// parts' bodies within its halo (BodyStore::ghost = 1) and every static body, sorted by
  /// global id, and its share of @p memory. @p reach: the distance beyond the shapes at
  /// which contacts are detected (the breaking distance), which the halo must cover.
  virtual void initialize(BodyStore& /*bodies*/, ContactMemory& /*memory*/, double /*reach*/) {}
  /// The contacts this part keeps (owned), sorted by key; keys may be rewritten to global
  /// ids (ContactDetector's layout with BodyStore::id in place of the indices; the order of
  /// the bodies in the store follows their ids, so the sort holds).
  virtual void afterDetection(const BodyStore& /*bodies*/,
                              std::vector<DetectedContact>& /*contacts*/) {}
  /// False when afterDetection keeps every contact unchanged (then it is not called and the
  /// engine reads the detector's list without a copy); an implementation that overrides
  /// afterDetection returns true.
  virtual bool filtersContacts() const { return false; }
  /// Before the solve, with the step's contacts (those in the problem: active[c] = 1).
  virtual void beforeSolve(const BodyStore& /*bodies*/, const SceneContacts& /*contacts*/) {}
  /// Just after beforeSolve: @p v, the velocities the solver starts from (the free
  /// velocities, 6 per body of the store, world linear and angular), from which afterSweep
  /// measures each sweep's changes.
  virtual void solveStart(const BodyStore& /*bodies*/, const double* /*v*/) {}
  /// Stages of an NSGS sweep over the parts (called after beforeSolve; the same on every
  /// part): each part sweeps its contacts of stage 0, then afterStage(0) exchanges, then
  /// stage 1, ..., then afterSweep. 1: one stage (one process; no exchange between stages).
  virtual int stages() const { return 1; }
  /// With stages() > 1, after beforeSolve: the stage in [0, stages()) of each of the
  /// @p count contacts @p entries[0..count) of @p contacts, written to @p stage. The engine
  /// sweeps the contacts stage by stage, in key order within a stage.
  virtual void contactStages(const BodyStore& /*bodies*/, const SceneContacts& /*contacts*/,
                             const std::int32_t* /*entries*/, std::size_t count,
                             std::int32_t* stage) const {
    for (std::size_t a = 0; a < count; ++a) stage[a] = 0;
  }
  /// After stage @p stage (< stages() - 1) of each NSGS sweep, with the velocities @p v.
  virtual void afterStage(const BodyStore& /*bodies*/, double* /*v*/, int /*stage*/) {}
  /// @p v: 6 values per body of the store (world linear and angular velocity).
  virtual void afterSweep(const BodyStore& /*bodies*/, double* /*v*/) {}
  virtual void afterTranspose(const BodyStore& /*bodies*/, double* /*v*/) {}
  /// Replace values[0..count) by their sum over the parts, added in rank order.
  virtual void reduceSum(double* /*values*/, int /*count*/) {}
  /// Replace values[0..count) by their largest value over the parts.
  virtual void reduceMax(double* /*values*/, int /*count*/) {}
  /// After the step: @p bodies' owned states are final (ghosts are not integrated); a
  /// distributed implementation migrates bodies to their new owners, refreshes the ghosts
  /// and sends each contact's memory to the owner of its keeper body.
  virtual void afterStep(BodyStore& /*bodies*/, ContactMemory& /*memory*/) {}
};

}  // namespace nsdyn

#endif
