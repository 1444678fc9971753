/// @file DistributedSceneFiles.hpp
/// @brief Files of a distributed run (doc/parallel.md "Outputs and checkpoints of a
///        distributed run"): VTK pieces per rank with .pvtp/.pvd collections, HDF5 in the
///        layout of nsdyn::io::SceneHdf5Writer gathered by rank 0, and checkpoints that a
///        run on any number of ranks can restart from.
#ifndef NSDYN_PARALLEL_DISTRIBUTEDSCENEFILES_HPP
#define NSDYN_PARALLEL_DISTRIBUTEDSCENEFILES_HPP

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/parallel/BodyArrays.hpp"
#include "nsdyn/parallel/DistributedScene.hpp"

namespace nsdyn {
namespace parallel {

/// VTK XML frames of a distributed scene, one piece per rank:
///  - every rank: `dir/name_bodies_NNNNNN_pR.vtp` (its owned spheres: a vertex at each
///    centre; point data "body" (Int64, global id), "orientation" (4: w x y z, body → world),
///    "velocity" (3, world), "angular_velocity" (3, world: R Ω), "radius", "shape_kind"
///    (Int32, 0: sphere), "rank" (Int32, the owner)) and `dir/name_contacts_NNNNNN_pR.vtp`
///    (its active contacts at (pointA + pointB)/2: "normal" (3, from B to A), "force" (3,
///    world impulse / h, on A), "normal_force", "gap", "bodyA", "bodyB" (Int64, global ids));
///  - rank 0: `dir/name_bodies_NNNNNN.pvtp` and `dir/name_contacts_NNNNNN.pvtp` (PPolyData
///    listing the pieces of every rank), once `dir/name_statics.vtp` (the static bodies
///    with a finite first shape; half-spaces are left out, as SceneVtkWriter does);
///  - finish(), rank 0: `dir/name_bodies.pvd` and `dir/name_contacts.pvd` (the .pvtp of
///    every frame with its time).
/// ASCII, 17 significant digits; every file under a temporary name renamed when complete.
/// Every member is collective over the communicator (duplicated); a failure on any rank
/// makes every rank throw the same nsdyn::Error naming the path. @p dir must be the same
/// directory on every rank (one node, or a shared file system).
class DistributedSceneVtk {
 public:
  /// Collective: rank 0 creates @p dir (and its parents).
  DistributedSceneVtk(MPI_Comm comm, std::string dir, std::string name);
  ~DistributedSceneVtk();
  DistributedSceneVtk(const DistributedSceneVtk&) = delete;
  DistributedSceneVtk& operator=(const DistributedSceneVtk&) = delete;

  /// Collective: frame number frameCount() at scene.time() (the scene's communicator must
  /// have the writer's ranks, in the same order).
  void writeFrame(const DistributedScene& scene);
  /// Collective: rank 0 writes (or rewrites) the two .pvd files; returns their paths
  /// (bodies, contacts) on rank 0, nothing on the other ranks.
  std::vector<std::string> finish();

  std::size_t frameCount() const { return times_.size(); }
  /// Files written so far: this rank's pieces; on rank 0 also every other rank's pieces,
  /// the .pvtp files, name_statics.vtp and the .pvd files.
  const std::vector<std::string>& files() const { return files_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::string dir_, name_;
  std::vector<double> times_;
  std::vector<std::string> files_;
  bool staticsWritten_ = false;
};

/// One HDF5 file of a distributed run in the layout of nsdyn::io::SceneHdf5Writer (the
/// Siconos mechanics `data/` group: dynamic, velocities, static, cf, solv, energy; the
/// same attributes, columns and body ids: dynamic bodies 1, 2, ... in global id order,
/// statics −1, −2, ...), written by rank 0 alone with the serial HDF5 library from rows
/// gathered with MPI_Gatherv. Collective members; failures throw the same nsdyn::Error
/// on every rank.
class DistributedSceneHdf5 {
 public:
  /// Collective: rank 0 creates (or truncates) @p path; h from scene.spec().
  DistributedSceneHdf5(MPI_Comm comm, const std::string& path, const DistributedScene& scene);
  ~DistributedSceneHdf5();
  DistributedSceneHdf5(const DistributedSceneHdf5&) = delete;
  DistributedSceneHdf5& operator=(const DistributedSceneHdf5&) = delete;

  /// Collective: the rows of scene.time(): data/dynamic and data/velocities (every body,
  /// by global id), data/cf (the active contacts, in key order), one row of data/solv and
  /// of data/energy from scene.lastReport(); at the first call data/static and the body
  /// counts. The set of body ids must stay the same (an error otherwise).
  void writeStep(const DistributedScene& scene);
  /// Collective: rank 0 closes the file (idempotent).
  void close();
  const std::string& path() const { return path_; }
  /// Rows appended to data/@p name (rank 0; 0 elsewhere).
  std::size_t rows(const std::string& name) const;

 private:
  struct Impl;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::string path_;
  Impl* impl_ = nullptr;  // rank 0 only
};

/// Collective: a hash of what makes a scene "the same" for a restart, independent of how
/// the bodies are split over the ranks: per dynamic body a hash of (id, radius, mass,
/// inertia, group) summed modulo 2^64 (MPI_Allreduce) and the body count; the statics'
/// ids, groups and poses; h, θ, t0, gravity, margin, breaking distance, activation
/// threshold, warm start, stabilisation; the materials of the groups present (up to 1024).
/// Positions and velocities are not in it (they change).
std::uint64_t sceneFingerprint(MPI_Comm comm, const DistributedSceneSpec& spec);
/// The same for a constructed scene (its owned bodies and spec; the spec's bodies are
/// held by the decomposition once the scene exists).
std::uint64_t sceneFingerprint(const DistributedScene& scene);

/// A checkpoint as loaded: on rank 0 every body (sorted by id, SceneState values) and
/// every contact memory record; on the other ranks empty arrays of the same width.
struct DistributedCheckpoint {
  double time = 0.0;
  long steps = 0;
  std::uint64_t fingerprint = 0;
  BodyArrays bodies;
  DistributedScene::ContactMemory memory;
};

/// Collective: the owned bodies and the contact memory (scene.memory()) gathered on rank 0,
/// which writes @p path (little-endian binary: magic, format version, fingerprint, time,
/// steps, counts, body and contact records, FNV-1a checksum; temporary file renamed).
/// Any failure: the same nsdyn::Error naming the path on every rank.
void saveCheckpoint(const DistributedScene& scene, const std::string& path, std::uint64_t fingerprint);

/// Collective: rank 0 reads and checks @p path (magic, version, size against the counts,
/// checksum, finite values, ids, fingerprint == @p expectedFingerprint: otherwise "checkpoint
/// <path> is of another scene (...)"); every rank throws the same nsdyn::Error on a fault.
/// Restart: spec.bodies = cp.bodies; DistributedScene scene(comm, spec, cp.memory);
/// scene.setClock(cp.time, cp.steps).
DistributedCheckpoint loadCheckpoint(MPI_Comm comm, const std::string& path, std::uint64_t expectedFingerprint);

}  // namespace parallel
}  // namespace nsdyn

#endif
