/// @file MpiSceneParts.hpp
/// @brief io::SceneParts over the ranks of an MPI communicator: the files of a SceneEngine
///        distributed by MpiSceneExchange (one frame gathered on rank 0 for the scene writers,
///        checkpoints, faults and figures agreed by every rank).
#ifndef NSDYN_PARALLEL_MPISCENEPARTS_HPP
#define NSDYN_PARALLEL_MPISCENEPARTS_HPP

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/io/SceneParts.hpp"
#include "nsdyn/parallel/MpiSceneExchange.hpp"
#include "nsdyn/parallel/ParallelExport.hpp"

namespace nsdyn {
namespace parallel {

/// The parts of a scene stepped by a SceneEngine with @p exchange, one per rank of its
/// communicator (duplicated here: these collectives never mix with the exchange's):
///
///     auto exchange = std::make_shared<MpiSceneExchange>(MPI_COMM_WORLD);
///     engine.setExchange(exchange);
///     MpiSceneParts parts(*exchange);
///     io::SceneHdf5Writer* h5 = parts.writer() ? ... : nullptr;   // rank 0 writes
///     engine.step();
///     if (const io::SceneFrameView* frame = parts.gather(engine.bodies(), engine.contacts()))
///       h5->writeStep(engine.time(), *frame);                        // rank 0 only
///     io::saveSceneCheckpoint(engine, path, parts);                  // collective
///
/// - gather: MPI_Gatherv to rank 0 of every rank's owned dynamic bodies (id, static flag, q,
///   world velocities; ghosts dropped; rank 0 adds the static bodies, which every rank holds)
///   and of every rank's contacts (each kept by one rank); on rank 0 the bodies sorted by
///   global id, their shapes from the exchange's whole scene (by global id), the contacts'
///   bodies turned into indices of that list and the contacts sorted by their global key
///   (body ids, shapes, features): the frame, and so the files, of the one-process engine in
///   the same state, whatever the rank count. A body held identically by several ranks (an
///   engine before its first step holds the whole scene on every rank) is taken once; one
///   held with different states, or a contact on a body not gathered, is a fault (agree).
///   One rank: the local view itself (nothing copied).
/// - agree: MPI_Allreduce (MIN) of the lowest faulty rank, then that rank's message broadcast;
///   every rank throws nsdyn::Error("<message> (rank r of n)") (one rank: the message alone).
/// - sum: MPI_Gather to rank 0, added there in rank order, MPI_Bcast (the same bits on every
///   rank and from run to run, whatever MPI's reduction order); max: MPI_Allreduce(MAX).
/// - gatherBytes: MPI_Gather of the sizes, MPI_Gatherv of the bytes.
/// Every member but rank() and size() is collective over the communicator. @p exchange must
/// outlive this object (its wholeScene() gives the shapes after its initialize()).
class NSDYN_PARALLEL_API MpiSceneParts : public io::SceneParts {
 public:
  /// Local (MPI_Comm_dup is collective over the exchange's communicator: every rank
  /// constructs its MpiSceneParts at the same point).
  explicit MpiSceneParts(const MpiSceneExchange& exchange);
  ~MpiSceneParts() override;
  MpiSceneParts(const MpiSceneParts&) = delete;
  MpiSceneParts& operator=(const MpiSceneParts&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const io::SceneFrameView* gather(const io::SceneFrameView& local) override;
  const io::SceneFrameView* gather(const BodyStore& bodies, const SceneContacts& contacts) override;
  std::vector<std::string> gatherBytes(const std::string& bytes) override;
  void agree(const std::string& fault) override;
  void sum(double* values, int count) override;
  void max(double* values, int count) override;

  MPI_Comm comm() const { return comm_; }

 private:
  // gather() of @p local (contact bodies from the keys when the view has them, else from its
  // body indices), after @p fault (a fault of this rank found before: agreed first)
  const io::SceneFrameView* gatherFrame(const io::SceneFrameView& local, std::string fault);

  const MpiSceneExchange& exchange_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  io::SceneFrameView local_;      // gather(bodies, contacts): this rank's view
  io::SceneFrameArrays frame_;    // rank 0: the gathered frame
  io::SceneFrameView frameView_;  // rank 0: frame_.view()
};

}  // namespace parallel
}  // namespace nsdyn

#endif
