/// @file DistributedScene.hpp
/// @brief Moreau–Jean time stepping of a rigid-body scene over MPI ranks: spheres owned by
///        the rank of their subdomain, static bodies on every rank, contacts detected across
///        subdomains, persistent contacts migrated with their owner, the friction-contact
///        problem solved over the ranks (APGD or NSGS) (doc/parallel.md).
#ifndef NSDYN_PARALLEL_DISTRIBUTEDSCENE_HPP
#define NSDYN_PARALLEL_DISTRIBUTEDSCENE_HPP

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/ContactManager.hpp"
#include "nsdyn/nsd_fc.h"
#include "nsdyn/parallel/BodyArrays.hpp"
#include "nsdyn/parallel/Decomposition.hpp"
#include "nsdyn/parallel/DistributedContactProblem.hpp"
#include "nsdyn/parallel/DistributedDetector.hpp"

namespace nsdyn {
namespace parallel {

/// The state values a dynamic body carries in BodyArrays::data (DistributedScene::kWidth
/// per body): pose q (x, y, z, then the unit quaternion w, x, y, z, body → world), twist
/// v (world linear velocity, body angular velocity: the Kernel's NewtonEulerDS), mass,
/// isotropic moment of inertia, group.
struct SceneState {
  static constexpr int kQ = 0;        ///< 7 values
  static constexpr int kV = 7;        ///< 6 values
  static constexpr int kMass = 13;
  static constexpr int kInertia = 14;
  static constexpr int kGroup = 15;
  static constexpr int kWidth = 16;
};

/// Everything a distributed run needs, in plain values (no Kernel objects per body).
struct DistributedSceneSpec {
  /// Dynamic spheres. Any split over the ranks (all on rank 0, slices, ...): the
  /// constructor partitions. radius = the sphere radius; width SceneState::kWidth.
  BodyArrays bodies;
  /// Static bodies (walls, floors, half-spaces), the same on every rank, with their ids
  /// (distinct from the spheres') and groups.
  std::vector<std::int64_t> staticIds;
  std::vector<BodyShapes> statics;
  std::vector<int> staticGroups;
  /// Material of a pair of groups (μ, e).
  std::function<ContactMaterial(int, int)> material;
  std::array<double, 3> gravity{0.0, 0.0, -9.81};
  double h = 1e-3;       ///< time step (> 0)
  double theta = 0.5;    ///< Moreau–Jean θ in [0, 1]
  double t0 = 0.0;
  /// Contact rules of the Kernel's ContactManager (absolute values): detection margin
  /// (envelope), breaking distance (≥ margin), activation threshold (gap + ½ h u_n ≤ it),
  /// warm start, Baumgarte factor and cap.
  double margin = 0.0;
  double breakingDistance = 0.0;
  double activation = 0.0;
  bool warmStart = true;
  double stabilisationFactor = 0.0;
  double maxRecoverySpeed = 0.1;
  /// "apgd" (distributed nsd_fc3d_apgd_operator) or "nsgs" (rank-local sweeps with ghost
  /// velocity exchange); options: tolerance on the global Siconos error, iterations, ...
  std::string solver = "apgd";
  NsdSolverOptions solverOptions{};
  /// Decomposition: halo 0 = the largest radius + max(margin, breaking distance) (the
  /// least that keeps detection complete); repartition every @p rebalanceEvery steps (0:
  /// only when the imbalance passes the threshold).
  DecompositionOptions decomposition{};
  long rebalanceEvery = 0;
  /// OpenMP threads of the detection (0: the OpenMP default).
  int threads = 0;
};

/// Moreau–Jean time stepping of spheres with frictional contacts over the ranks of a
/// communicator. One step (the Kernel's TimeStepping + ContactManager + MoreauJeanOSI on
/// NewtonEulerDS spheres, the same formulas):
///  1. contacts detected at q_k across subdomains (DistributedDetector; statics on every
///     rank), each owned by the owner of its lower-id dynamic body;
///  2. persistent contacts: kept while gap ≤ margin, or known from the last step (same
///     global key) and gap ≤ breaking distance; warm start from the last impulse (normal
///     kept, tangential part turned into the new tangent plane, magnitude kept);
///  3. u_k = J v_k; a contact is active when gap + ½ h u_n,k ≤ activation; q_n += e u_n,k
///     (+ the Baumgarte bias);
///  4. v_free = v_k + h g; the active contacts' problem solved over the ranks to the
///     tolerance on the global Siconos error;
///  5. v_{k+1} = v_free + M⁻¹ Jᵀ r, x_{k+1} = x_k + h (θ v_{k+1} + (1 − θ) v_k),
///     quaternion q_{k+1} = q_k ⊗ exp(h (θ Ω_{k+1} + (1 − θ) Ω_k));
///  6. bodies migrate to the owners of their new centres (repartition by rule); the
///     contacts' memory (keys, frames, impulses) goes to the new owner of its keeper body.
/// Results depend on the input and the rank count only (bit-identical reruns).
/// Every member that communicates is collective; faults make every rank throw the same
/// nsdyn::Error (Collective.hpp).
class DistributedScene {
 public:
  /// Per step, the same on every rank (global figures).
  struct StepReport {
    long step = 0;                  ///< steps done
    double time = 0.0;              ///< t_{k+1}
    std::uint64_t contacts = 0;     ///< kept contacts over the ranks
    std::uint64_t active = 0;       ///< in the problem
    std::uint64_t warmStarted = 0;
    NsdReport solver{};             ///< iterations, residual (global Siconos error), status
    NsdStatus status = NSD_OK;
    double kineticEnergy = 0.0, potentialEnergy = 0.0, contactWork = 0.0;
    double maxZ = 0.0;              ///< highest sphere centre (the Kernel's scene.max_z)
    std::uint64_t migrated = 0;     ///< bodies that changed rank this step
    bool repartitioned = false;
    /// Slowest rank's seconds per phase this step.
    double detectSeconds = 0.0, assembleSeconds = 0.0, solveSeconds = 0.0, updateSeconds = 0.0,
           migrateSeconds = 0.0, totalSeconds = 0.0;
    /// Bytes this step, summed over the ranks: body records (migration, ghosts), contact
    /// memory, halo messages of the solve.
    std::uint64_t bytesSent = 0;
    double imbalance = 1.0;         ///< max/mean owned bodies
  };

  /// One saved contact: its global key and last frame and impulse (for warm start and
  /// checkpoints).
  struct ContactMemory {
    std::vector<std::int64_t> idA, idB, sub;  ///< key: body ids and the shape/feature bits
    std::vector<double> frame;                ///< 9 per contact
    std::vector<double> impulse;              ///< 3 per contact (local frame)
    std::vector<std::int64_t> keeper;         ///< the dynamic body whose owner keeps it
    std::size_t size() const { return idA.size(); }
    void clear();
    void append(const ContactMemory& other, std::size_t k);
  };

  /// Collective: checks the spec (every rank the same message on a fault), partitions.
  /// @p memory: contacts to warm-start from (a restart), any split over the ranks.
  DistributedScene(MPI_Comm comm, DistributedSceneSpec spec, const ContactMemory& memory = {});
  ~DistributedScene();
  DistributedScene(const DistributedScene&) = delete;
  DistributedScene& operator=(const DistributedScene&) = delete;

  /// Collective: one time step.
  const StepReport& step();

  /// Owned spheres, sorted by id, with their SceneState values (after the last step's
  /// migration).
  const BodyArrays& owned() const { return decomposition_->owned(); }
  const Decomposition& decomposition() const { return *decomposition_; }
  /// The contacts this rank kept at the last step (in key order): memory (keys, frames,
  /// impulses), world points and gaps, activity.
  const ContactMemory& contacts() const { return current_; }
  const std::vector<double>& contactPoints() const { return points_; }  ///< 6: pointA, pointB
  const std::vector<double>& contactGaps() const { return gaps_; }
  const std::vector<char>& contactActive() const { return active_; }
  /// 3 per kept contact: u_{k+1} = J v_{k+1} in the local frame (the step-start Jacobians,
  /// as the Kernel's ContactSet::velocity).
  const std::vector<double>& contactVelocities() const { return velocities_; }
  /// The memory the next step warm-starts from (held by this rank).
  const ContactMemory& memory() const { return memory_; }
  const StepReport& lastReport() const { return report_; }
  double time() const { return time_; }
  long steps() const { return steps_; }
  const DistributedSceneSpec& spec() const { return spec_; }
  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Set the time and step count (a restart).
  void setClock(double time, long steps);

  /// Sums of @p count values over the ranks, added in rank order (the same bits on every
  /// rank, independent of message timing). Collective.
  void sumInRankOrder(double* values, int count) const;

 private:
  void checkSpec();
  void rehomeMemory(const std::vector<std::array<double, 3>>& keeperCentre);

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  DistributedSceneSpec spec_;
  std::unique_ptr<Decomposition> decomposition_;
  std::unique_ptr<DistributedDetector> detector_;
  std::unique_ptr<DistributedContactProblem> problem_;
  std::vector<int> staticGroup_;  // by position in the sorted static ids
  ContactMemory memory_, current_;
  std::vector<double> points_, gaps_, velocities_;
  std::vector<char> active_;
  StepReport report_;
  double time_ = 0.0;
  long steps_ = 0;
};

}  // namespace parallel
}  // namespace nsdyn

#endif
