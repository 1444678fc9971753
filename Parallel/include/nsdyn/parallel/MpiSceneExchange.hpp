/// @file MpiSceneExchange.hpp
/// @brief The seam of the scene engine (nsdyn/SceneExchange.hpp) over the ranks of an MPI
///        communicator: a SceneEngine steps its part of the scene (owned bodies, ghost copies
///        within a halo, every static body) with its own time step, contact rules and
///        solvers; this class partitions (Zoltan RCB), keeps the owned contacts, exchanges
///        ghost velocities and halo sums during the solve, sums in rank order and migrates
///        bodies and contact memory after each step (doc/parallel.md "SceneEngine over ranks").
#ifndef NSDYN_PARALLEL_MPISCENEEXCHANGE_HPP
#define NSDYN_PARALLEL_MPISCENEEXCHANGE_HPP

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "nsdyn/BodyStore.hpp"
#include "nsdyn/SceneExchange.hpp"
#include "nsdyn/parallel/Decomposition.hpp"
#include "nsdyn/parallel/ParallelExport.hpp"

namespace nsdyn {
namespace parallel {

/// Options of MpiSceneExchange.
struct NSDYN_PARALLEL_API MpiSceneExchangeOptions {
  /// Skin (m): bodies migrate, and ghosts are chosen again, only once some body has moved
  /// more than skin / 2 since the last migration (or at a repartition); between migrations
  /// the owners send the ghosts' new states to their copies (one neighbour exchange). The
  /// halo grows by the skin, so detection stays complete. < 0: automatic, a quarter of the
  /// largest bounding radius of a dynamic body; 0: migrate after every step.
  double skin = -1.0;
  /// Ghost distance (m). 0: the least that keeps detection complete, the largest bounding
  /// radius of a dynamic body + the engine's reach (breaking distance) + the skin; otherwise
  /// finite and at least that (checked at initialize). With swept detection, add twice the
  /// largest distance a body travels in one step.
  double halo = 0.0;
  /// Repartition (RCB from the current centres) every N steps; 0: only when the imbalance
  /// passes imbalanceThreshold.
  int rebalanceEvery = 0;
  double imbalanceThreshold = 1.25;  ///< max / mean owned count that triggers a repartition (≥ 1)
  double imbalanceTolerance = 1.05;  ///< Zoltan IMBALANCE_TOL of the cuts (≥ 1)
};

/// SceneExchange over MPI (one instance per rank, all built with the same options):
///
///     MpiSceneExchange::Options o;               // halo 0: automatic
///     auto exchange = std::make_shared<MpiSceneExchange>(MPI_COMM_WORLD, o);
///     SceneEngine engine(options);               // the same on every rank
///     ... the same bodies, in the same order, on every rank ...
///     engine.setExchange(exchange);
///     engine.step();                             // collective
///
/// - initialize: checks that every rank built the same scene (a hash of the store), keeps it
///   as the template of every body (shapes, mass, loads, name by global id = index in the
///   whole scene), partitions the dynamic bodies (Decomposition: RCB on the centres of mass,
///   bounding radius from the store) and leaves in the engine's store this rank's owned
///   bodies, the ghost copies of other ranks' bodies within the halo (ghost = 1) and every
///   static body, sorted by global id, and the contact memory entries it keeps;
/// - afterDetection: a contact belongs to the owner of its first dynamic body (the lower
///   id; a static–dynamic pair: the dynamic body); keys are rewritten with global ids;
/// - beforeSolve: a body touched by the contacts of several ranks is shared (the owner
///   counts the touching ranks and forwards the count to the ghost copies); two ranks that
///   touch a common shared body are neighbours; the ranks are coloured by a greedy colouring
///   in rank order of the neighbour graph (gathered on every rank: the same colours and the
///   same number K of colours everywhere), so that ranks of one colour share no body;
/// - stages / contactStages (NSGS): K stages per sweep; stage 0 holds a rank's interior
///   contacts (no shared body) and, for colour 0, its boundary contacts (a shared body);
///   stage k its boundary contacts for colour k. A sweep over all ranks is then one
///   Gauss–Seidel sweep in the order (interior and colour-0 boundary contacts, colour-1
///   boundary contacts, ...): the iterations of one process, not of a Jacobi-like split;
/// - afterStage (NSGS): the changes of the shared bodies since the last exchange (one rank
///   changed each) are added on the owners and the new velocities sent to every copy;
/// - afterSweep (NSGS): each rank's velocity change since the last exchange goes to the
///   owner, is added there (own change first, then senders in rank order), and the new
///   velocity comes back to every rank whose contacts touch the body;
/// - afterTranspose (APGD): the partial Jᵀx of ghost copies go to the owners, are added
///   there in the same order, and the totals come back to the touching ranks;
/// - reduceSum: MPI_Allgather, added in rank order (the same bits on every rank, and from
///   run to run); reduceMax: MPI_Allreduce(MAX);
/// - afterStep: once a body has moved by half the skin since the last migration (or at a
///   repartition), bodies migrate to the owners of their new centres (repartition rules of
///   Decomposition), the store is refilled (owned + fresh ghosts + statics, sorted by id),
///   each memory entry goes to the new owner of its keeper body (memory sorted by key);
///   otherwise the owners only send their new states to the ghost copies.
/// Every hook is collective. A fault on any rank makes every rank throw the same
/// nsdyn::Error (no rank left waiting). On one rank (size 1) every hook leaves the engine's
/// data as it is: the run is the one-process run bit for bit.
///
/// After a step, the engine's contacts() hold global keys and the local indices of the
/// store before migration; the store's body indices change with migration (global id:
/// BodyStore::id).
class NSDYN_PARALLEL_API MpiSceneExchange : public SceneExchange {
 public:
  using Options = MpiSceneExchangeOptions;

  /// Statistics of the last step (this rank unless said).
  struct Statistics {
    std::size_t owned = 0, ghosts = 0, statics = 0;
    std::size_t migrated = 0;      ///< bodies this rank sent away in the last afterStep
    std::size_t partitions = 0;    ///< RCB partitions so far
    double imbalance = 1.0;        ///< max / mean owned count (same on every rank)
    std::size_t sharedBodies = 0;  ///< owned bodies touched by contacts of other ranks (last solve)
    std::size_t splitBodies =
        0;            ///< owned bodies touched by the contacts of several ranks (shared: in stages)
    int colours = 1;  ///< colours of the ranks, NSGS stages per sweep (same on every rank)
    int colour = 0;   ///< this rank's colour
    std::size_t boundaryContacts = 0;  ///< this rank's contacts on a shared body (last solve)
    std::size_t neighbours = 0;        ///< ranks this rank exchanges ghost data with
    std::size_t bytesSent = 0;         ///< bytes sent to neighbours since the last beforeSolve
    std::size_t memoryMoved = 0;       ///< memory entries sent to other ranks in the last afterStep
    std::size_t migrations =
        0;                     ///< afterStep calls that migrated (the others refreshed ghosts only)
    double haloSeconds = 0.0;  ///< seconds in neighbour exchanges since the last beforeSolve
    double afterStepSeconds = 0.0;  ///< seconds of the last afterStep
  };

  /// Local; MPI must be initialised. Checks the options (nsdyn::Error naming the option).
  /// The communicator is duplicated.
  MpiSceneExchange(MPI_Comm comm, const Options& options = Options());
  ~MpiSceneExchange() override;
  MpiSceneExchange(const MpiSceneExchange&) = delete;
  MpiSceneExchange& operator=(const MpiSceneExchange&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void initialize(BodyStore& bodies, ContactMemory& memory, double reach) override;
  void afterDetection(const BodyStore& bodies, std::vector<DetectedContact>& contacts) override;
  bool filtersContacts() const override { return true; }
  void beforeSolve(const BodyStore& bodies, const SceneContacts& contacts) override;
  void solveStart(const BodyStore& bodies, const double* v) override;
  int stages() const override { return size_ > 1 ? colours_ : 1; }
  void contactStages(const BodyStore& bodies, const SceneContacts& contacts,
                     const std::int32_t* entries, std::size_t count,
                     std::int32_t* stage) const override;
  void afterStage(const BodyStore& bodies, double* v, int stage) override;
  void afterSweep(const BodyStore& bodies, double* v) override;
  void afterTranspose(const BodyStore& bodies, double* v) override;
  void reduceSum(double* values, int count) override;
  void reduceMax(double* values, int count) override;
  void afterStep(BodyStore& bodies, ContactMemory& memory) override;

  MPI_Comm comm() const { return comm_; }
  const Options& options() const { return options_; }
  /// The ghost distance and the skin in use (after initialize).
  double halo() const { return halo_; }
  double skin() const { return skin_; }
  const Statistics& statistics() const { return stats_; }
  /// The whole scene as built on every rank (after initialize): body k has global id k.
  const BodyStore& wholeScene() const { return whole_; }

 private:
  // one neighbour of the halo plan: the local indices (store order = id order) of this
  // rank's ghosts it owns, and of this rank's owned bodies it holds as ghosts
  struct Neighbour {
    int rank = 0;
    std::vector<std::uint32_t> ghosts, owned;
  };

  // set-up and store (MpiSceneExchange.cpp)
  void checkSameScene(const BodyStore& bodies) const;
  void refill(BodyStore& bodies, const Decomposition& d);
  // halo plan and exchanges (MpiSceneExchangeHalo.cpp)
  void buildPlan(const BodyStore& bodies);
  void transfer(const std::vector<Neighbour>& plan, int width, const double* values, bool reverse);
  void reverseSum(const std::vector<Neighbour>& plan, int width, double* values);
  void forward(const std::vector<Neighbour>& plan, int width, double* values);
  // NSGS stages (MpiSceneExchangeStages.cpp): shared bodies, their plan, the colouring
  void findShared(const BodyStore& bodies, const SceneContacts& contacts,
                  std::vector<std::pair<std::uint32_t, int>> touchedBy);
  void colourRanks(const std::vector<int>& edges);
  // migration (MpiSceneExchangeMigrate.cpp)
  void routeMemory(ContactMemory& memory);
  std::int64_t keeperOf(std::uint64_t key) const;

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  Options options_;
  double halo_ = 0.0, skin_ = 0.0;
  long steps_ = 0;
  BodyStore whole_;  // the template, global id = index
  std::unique_ptr<Decomposition> decomposition_;
  std::vector<std::int64_t> statics_;  // global ids of the static bodies
  // the local store: 0 static, 1 owned, 2 ghost; for ghosts, the owner rank
  std::vector<std::uint8_t> kind_;
  std::vector<int> ghostOwner_;
  std::vector<Neighbour> plan_;        // every ghost and every copied owned body
  std::vector<Neighbour> touched_;     // the bodies touched by the last solve's contacts
  std::vector<double> touching_;       // per local owned body: the ranks whose contacts touch it
  std::vector<std::uint8_t> mine_;     // per local body: touched by this rank's contacts
  std::vector<std::uint8_t> shared_;   // per local body: touched by the contacts of >= 2 ranks
  std::vector<Neighbour> sharedPlan_;  // touched_ reduced to the shared bodies
  std::vector<std::uint32_t> sharedActive_;  // local shared bodies touched here or owned
  int colours_ = 1, colour_ = 0;             // NSGS stages: number of colours, this rank's
  std::vector<std::uint32_t>
      active_;                  // local bodies touched locally, or owned and touched elsewhere
  std::vector<double> base_;    // 6 per local body: velocities at the last afterSweep
  std::vector<double> anchor_;  // 3 per local body: owned centres at the last migration
  std::vector<double> work_;    // 6 per local body: scratch
  std::vector<double> gather_;  // reduceSum buffer
  std::vector<double> sendBuffer_, recvBuffer_;
  std::vector<MPI_Request> requests_;
  Statistics stats_;
};

}  // namespace parallel
}  // namespace nsdyn

#endif
