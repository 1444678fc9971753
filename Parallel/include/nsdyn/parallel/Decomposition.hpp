/// @file Decomposition.hpp
/// @brief Bodies distributed over the ranks of an MPI communicator: Zoltan RCB subdomains,
///        migration to the owner, ghost copies within a halo (doc/parallel.md).
#ifndef NSDYN_PARALLEL_DECOMPOSITION_HPP
#define NSDYN_PARALLEL_DECOMPOSITION_HPP

#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nsdyn/parallel/BodyArrays.hpp"
#include "nsdyn/parallel/ParallelExport.hpp"

struct Zoltan_Struct;

namespace nsdyn {
namespace parallel {

/// Options of Decomposition.
struct NSDYN_PARALLEL_API DecompositionOptions {
  /// Ghost distance (m), finite and ≥ the largest bounding radius: a body is copied as a
  /// ghost to every other rank whose subdomain meets its bounding box inflated by halo.
  /// Detection with a margin m needs halo ≥ max radius + m (MpiSceneExchange sets and checks
  /// its halo so).
  double halo = 0.0;
  /// migrate() repartitions when max/mean of the owned counts exceeds this (≥ 1).
  double imbalanceThreshold = 1.25;
  /// Zoltan IMBALANCE_TOL of the RCB cuts (≥ 1).
  double imbalanceTolerance = 1.05;
};

/// The bodies of a scene distributed over the ranks of @p comm (a duplicate is kept).
///
/// Ownership: rank p owns the bodies whose centre lies in its RCB subdomain (Zoltan
/// RCB, KEEP_CUTS, AVERAGE_CUTS; the subdomains tile space, the outer ones unbounded).
/// partition() cuts from the current bodies' centres; migrate() keeps the cuts, sends
/// each body to the rank whose subdomain holds its new centre (Zoltan_LB_Point_Assign),
/// and repartitions when the imbalance passes the threshold. Both then recompute the
/// ghosts: owned body b goes, as a copy, to every other rank whose subdomain meets the box
/// centre ± (radius + halo) (Zoltan_LB_Box_Assign). Bodies travel, with their state values
/// (BodyArrays::width per body, the same on every rank), as packed records by
/// MPI_Alltoallv with their global ids; after each call owned() and ghosts() are sorted by
/// id, so results depend only on the input and the rank count (bit-identical reruns).
///
/// Every public member that communicates is collective: all ranks call it, in the same
/// order. Input is checked first, collectively (throwIfAnyFault), so a fault anywhere
/// makes every rank throw the same nsdyn::Error and none hangs:
///   - a body with a negative id, a non-finite centre, or a radius not finite and > 0;
///   - fewer bodies in all than ranks (partition);
///   - halo not finite, or smaller than the largest bounding radius;
///   - duplicate global ids (found after the exchange).
class NSDYN_PARALLEL_API Decomposition {
 public:
  using Options = DecompositionOptions;
  struct Statistics {
    std::size_t partitions = 0;     ///< RCB partitions so far (partition() and automatic)
    std::size_t migrated = 0;       ///< bodies this rank sent to another rank in the last call
    std::size_t ghostsSent = 0;     ///< ghost copies this rank sent in the last call
    std::size_t bytesSent = 0;      ///< bytes of body records this rank sent in the last call
    double imbalance = 1.0;         ///< max / mean owned count after the last call
    std::int64_t globalBodies = 0;  ///< bodies over all ranks
  };

  /// Local; throws nsdyn::Error if MPI is not initialised, or for a bad option value
  /// (the same on every rank given the same options).
  Decomposition(MPI_Comm comm, const Options& options);
  ~Decomposition();
  Decomposition(const Decomposition&) = delete;
  Decomposition& operator=(const Decomposition&) = delete;

  /// Collective. @p owned: the bodies this rank holds now (any split over the ranks, e.g.
  /// all on rank 0, or slices of the id range). Cuts RCB subdomains from their centres,
  /// migrates every body to its owner, computes the ghosts.
  void partition(BodyArrays owned);
  /// Collective. @p owned: this rank's owned() with the centres moved (bodies may be added
  /// or removed, ids staying unique). Sends each body to the owner of its new centre under
  /// the kept cuts, repartitions if the imbalance exceeds Options::imbalanceThreshold or
  /// @p forcePartition, then computes the ghosts. Throws if partition() was never called.
  void migrate(BodyArrays owned, bool forcePartition = false);

  /// Bodies this rank owns, sorted by id.
  const BodyArrays& owned() const { return owned_; }
  /// Copies of other ranks' bodies within the halo of this rank's subdomain, sorted by id.
  const BodyArrays& ghosts() const { return ghosts_; }
  /// The rank owning ghosts()[k] (the rank it was copied from), aligned with ghosts().
  const std::vector<int>& ghostOwners() const { return ghostOwners_; }

  /// The rank owning a centre at @p p under the current cuts (local; after partition()).
  int ownerOf(const std::array<double, 3>& p) const;
  /// Subdomain of @p rank: {xmin, ymin, zmin, xmax, ymax, zmax}, ±DBL_MAX on open sides
  /// (local; after partition()).
  std::array<double, 6> subdomain(int rank) const;

  MPI_Comm comm() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  const Options& options() const { return options_; }
  const Statistics& statistics() const { return stats_; }
  bool partitioned() const { return partitioned_; }

 private:
  void checkInput(const BodyArrays& owned, bool needPartition);
  void repartition();
  void exchange(const std::vector<int>& destination);  // owned_ → owners
  void computeGhosts();
  void finish();

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  Options options_;
  Zoltan_Struct* zz_ = nullptr;
  bool partitioned_ = false;
  BodyArrays owned_;
  BodyArrays ghosts_;
  std::vector<int> ghostOwners_;
  Statistics stats_;
};

}  // namespace parallel
}  // namespace nsdyn

#endif
