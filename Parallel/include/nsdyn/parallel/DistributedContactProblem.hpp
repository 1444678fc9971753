/// @file DistributedContactProblem.hpp
/// @brief One friction-contact problem over the ranks: the matrix-free Delassus operator
///        J M^-1 J^T with halo sums of body impulses, deterministic reductions, and the
///        distributed APGD solve (doc/parallel.md).
#ifndef NSDYN_PARALLEL_DISTRIBUTEDCONTACTPROBLEM_HPP
#define NSDYN_PARALLEL_DISTRIBUTEDCONTACTPROBLEM_HPP

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nsdyn/nsd_fc.h"
#include "nsdyn/parallel/Decomposition.hpp"
#include "nsdyn/parallel/DistributedDetector.hpp"

namespace nsdyn {
namespace parallel {

/// The FC3D problem u = J M^-1 J^T r + q, r in the Coulomb cones, of the contacts of a
/// DistributedDetector, each rank holding the contacts it owns (those of the lower global
/// id) and solving its slice with nsd_fc3d_apgd_operator through the NsdDelassus
/// callbacks and reduction hooks:
///  - bodies: spheres of the decomposition (centre, radius = bounding radius, an orientation
///    and an isotropic inverse inertia, by default identity and I = 2/5 m r^2), twist (world v, world ω = body Ω for the identity orientation) in 6
///    slots per body of the local set (owned ∪ ghosts, sorted by id: the detector's
///    localIds()); M^-1 = diag(1/m, 1/m, 1/m, 1/I, 1/I, 1/I), I = 2/5 m r^2, from the
///    inverse mass of each owned body (0: a fixed body);
///  - contact c (owned): frame rows n, t1, t2 (n from B to A; the Kernel's
///    ContactManager frame), 3x6 blocks J_A = [C, R_A^T ((p_A - x_A) × C)] and
///    J_B = -[C, R_B^T ((p_B - x_B) × C)] (rows C_i of the frame; nsdyn/ContactFrame.hpp);
///    contacts between two fixed bodies are left out;
///  - apply_jt: v = J^T x over the owned contacts into owned and ghost slots, then the
///    halo sum: each ghost slot's 6 values go to the ghost's owner (one message per
///    neighbour rank, bodies in global id order), which adds them to its own slot in rank
///    order of the senders;
///  - apply_minv: M^-1 on the owned slots (ghost slots zero);
///  - apply_j: the ghost slots refreshed from their owners (one message per neighbour),
///    then y = J w over the owned contacts;
///  - reduce_sum: MPI_Allgather of the per-rank partial values, added in rank order on
///    every rank (the same bits everywhere, independent of message timing);
///    reduce_max: MPI_Allreduce(MAX) (exact in any order).
/// Results depend only on the input and the rank count; on one rank the hooks change
/// nothing (the solve is the one of a whole problem, bit for bit).
class DistributedContactProblem {
 public:
  /// A contact across the ranks: the global ids of its bodies (idA < idB) and its
  /// ordinal among the contacts of that pair (0 for spheres).
  using Key = std::array<std::int64_t, 3>;

  /// Per owned body (d.owned() order) for the general build().
  struct BodyTerms {
    std::vector<double> inverseMass;     ///< 1 per body (≥ 0; 0 with inverseInertia 0: fixed)
    std::vector<double> inverseInertia;  ///< 1 per body (isotropic, ≥ 0); empty: sphere of the bounding radius, I = 2/5 m r^2
    std::vector<double> orientation;     ///< 4 per body (unit quaternion w x y z, body → world); empty: identity
    std::vector<double> freeVelocity;    ///< 6 per body: world v, body Ω (the Kernel's twist)
  };
  /// The contacts of the problem for the general build(): a subset of the detector's.
  struct ContactTerms {
    std::vector<std::int32_t> index;  ///< into detector.contacts(), increasing
    std::vector<double> mu;           ///< 1 per contact (finite, ≥ 0)
    std::vector<double> normalShift;  ///< 1 per contact added to q_n (e u_n,k, a bias); empty: 0
    std::vector<double> impulse;      ///< 3 per contact: the initial r (warm start); empty: 0
  };

  /// Local; @p comm is duplicated (the decomposition's communicator, or one congruent to it).
  explicit DistributedContactProblem(MPI_Comm comm);
  ~DistributedContactProblem();
  DistributedContactProblem(const DistributedContactProblem&) = delete;
  DistributedContactProblem& operator=(const DistributedContactProblem&) = delete;

  /// Collective. Builds the problem from @p detector's last detect() on @p d:
  /// @p inverseMass[k] (≥ 0, finite) and @p freeVelocity[6k..6k+6) (v, ω; e.g. v + h g)
  /// of owned body k (d.owned() order), friction coefficient @p mu (≥ 0) for every
  /// contact. q = J v_free (ghosts' v_free from their owners). The impulses start from
  /// the last solve's, matched by key (normal kept, tangential impulse projected on the
  /// new tangent plane with its magnitude kept), else 0. Throws nsdyn::Error on every
  /// rank for bad input on any rank.
  void build(const Decomposition& d, const DistributedDetector& detector,
             const std::vector<double>& inverseMass, const std::vector<double>& freeVelocity,
             double frictionCoefficient);

  /// Collective. The general form (time stepping): the contacts @p contacts of the
  /// detector's last detect() on @p d, bodies with orientations and inverse inertias,
  /// q = J v_free + normal shift, r starting from the given impulses (no memory of its own).
  /// Static bodies of the detector (setStaticBodies) are fixed slots on every rank.
  void build(const Decomposition& d, const DistributedDetector& detector, const BodyTerms& bodies,
             const ContactTerms& contacts);

  /// Collective: nsd_fc3d_apgd_operator on the distributed operator from the impulses of
  /// build() (options.warm_start) or 0. The report (status, iterations, residual = the
  /// global Siconos error) is the same on every rank. Then the velocity change
  /// M^-1 J^T r of the owned bodies (one more halo sum).
  NsdStatus solve(const NsdSolverOptions& options, NsdReport& report);

  /// Contacts this rank owns (those of the problem), in the detector's order.
  std::size_t size() const { return keys_.size(); }
  const std::vector<Key>& keys() const { return keys_; }
  /// 3 per owned contact: local frame rows n, t1, t2 (9 per contact).
  const std::vector<double>& frames() const { return frame_; }
  const std::vector<double>& q() const { return q_; }
  const std::vector<double>& mu() const { return mu_; }
  /// The impulses r (3 per owned contact, normal first) and u = N r + q after solve().
  const std::vector<double>& impulses() const { return r_; }
  const std::vector<double>& velocities() const { return u_; }
  /// 6 per owned body (d.owned() order): M^-1 J^T r after solve().
  const std::vector<double>& velocityChange() const { return dv_; }
  /// The operator with its callbacks and hooks (user = this object).
  const NsdDelassus& delassus() const { return op_; }
  /// Neighbour ranks of the halo exchanges (ranks this one sends to or receives from).
  std::size_t neighbours() const { return neighbours_.size(); }

  /// Collective: values[0..count) replaced on every rank by their sum over the ranks,
  /// added in rank order (MPI_Allgather), or by their maximum.
  void reduceSum(double* values, int count);
  void reduceMax(double* values, int count);

  // y = J^T x (owned slots after the halo sum), w = M^-1 v, y = J w (see the class
  // comment). Collective; the NsdDelassus callbacks.
  void applyJt(const double* x, double* v);
  void applyMinv(const double* v, double* w) const;
  void applyJ(const double* w, double* y);

  // The problem's arrays, for solvers written on them (distributed NSGS):
  /// Local bodies (owned ∪ ghosts ∪ statics, the detector's local set), 6 slots each.
  std::size_t slots() const { return slots_; }
  /// Per slot: 1 if this rank owns the body.
  const std::vector<char>& ownedSlots() const { return owned_; }
  /// Per slot: the body's index in d.owned(), or -1.
  const std::vector<std::int32_t>& ownedIndex() const { return ownedIndex_; }
  /// Per slot: inverse mass and isotropic inverse inertia (ghosts' from their owners; 0 for statics).
  const std::vector<double>& inverseMass() const { return invMass_; }
  const std::vector<double>& inverseInertia() const { return invInertia_; }
  /// Per contact: the slots of bodies A and B, and the blocks J_A, J_B (36 doubles, 3x6 row-major each).
  const std::vector<std::int32_t>& slotA() const { return slotA_; }
  const std::vector<std::int32_t>& slotB() const { return slotB_; }
  const std::vector<double>& jacobians() const { return jac_; }
  /// Impulses and velocities, writable by such a solver (3 per contact).
  std::vector<double>& impulsesMutable() { return r_; }
  std::vector<double>& velocitiesMutable() { return u_; }
  /// Collective. Forward exchange: each owned slot's @p stride values of @p slots copied
  /// into the ranks holding that body as a ghost. Reverse: each ghost slot's 6 values of
  /// @p slots added to its owner's slot (senders in rank order), ghost slots left as they were.
  void forward(double* slots, int stride);
  void reverse(double* slots);
  /// Per slot: the number of ranks holding a copy of an owned body (1 + the ranks holding it
  /// as a ghost); 0 for ghost and static slots. Local (the halo plan of the last build()).
  std::vector<int> copiesOfOwned() const;
  /// OpenMP threads of the operator callbacks (0: the OpenMP default, fewer for small
  /// problems); results do not depend on it.
  void setThreads(int threads) { threads_ = threads; }
  /// Bytes this rank sent in halo messages (forward and reverse) since construction.
  std::uint64_t haloBytes() const { return haloBytes_; }

 private:
  void buildFrom(const Decomposition& d, const DistributedDetector& detector,
                 const BodyTerms& bodies, const ContactTerms& contacts, bool ownWarmStart);

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::size_t slots_ = 0;                     // local bodies (owned ∪ ghosts)
  std::vector<char> owned_;                   // per slot
  std::vector<std::int32_t> ownedIndex_;      // per slot: index in d.owned(), or -1
  std::vector<double> invMass_, invInertia_;  // per slot (owned, and ghosts after build)
  // contacts
  std::vector<Key> keys_;
  std::vector<std::int32_t> slotA_, slotB_;
  std::vector<double> jac_;  // 36 per contact: J_A then J_B (3x6 row-major)
  std::vector<double> frame_, q_, mu_, r_, u_, dv_;
  // halo plan: per neighbour, the slots exchanged (in global id order)
  std::vector<int> neighbours_;
  std::vector<std::vector<std::int32_t>> ghostSlots_;  // per rank: my ghost slots it owns
  std::vector<std::vector<std::int32_t>> ownedSlots_;  // per rank: my owned slots it needs
  std::vector<std::vector<double>> sendBuffer_, recvBuffer_;
  std::vector<MPI_Request> requests_;
  std::uint64_t haloBytes_ = 0;
  int threads_ = 0;
  int threadsFor(std::size_t items) const;
  // per slot, its (contact << 1 | side) entries in contact order (CSR), fixed sides left out
  std::vector<std::int32_t> slotStart_, slotContacts_;
  std::vector<double> wFull_;     // w with ghost slots refreshed
  std::vector<double> gathered_;  // reduceSum workspace
  // warm start: keys, frames and impulses of the last solve (sorted by key)
  std::vector<Key> prevKeys_;
  std::vector<double> prevFrame_, prevImpulse_;
  NsdDelassus op_{};
};

}  // namespace parallel
}  // namespace nsdyn

#endif
