/// @file PeridynamicHdf5Writer.hpp
/// @brief One HDF5 file per run with the points of its peridynamic bodies: a group per body
///        with the reference configuration once and the positions, velocities and damage of
///        every output step (doc/scene-outputs.md, "Peridynamic bodies").
#ifndef NSDYN_IO_PERIDYNAMICHDF5WRITER_HPP
#define NSDYN_IO_PERIDYNAMICHDF5WRITER_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/io/IoExport.hpp"
#include "nsdyn/io/StagedHdf5File.hpp"

namespace nsdyn {
class PeridynamicBody;
}

namespace nsdyn::io {

/// Writes `path` (created, or truncated) with the root attribute "format"
/// (PeridynamicHdf5Writer::kFormat) and, for the bodies given to the first writeStep():
///  - `time` (steps): the time of each output step (float64, grows each step);
///  - `peridynamics/NAME/` per body NAME, with attributes "points", "bonds" (directed bonds),
///    "spacing", "horizon", "density", "thickness" and "material" (the model's kind), and
///    - `reference` (n × 3), `volume` (n), `prescribed` (n, uint8): written once;
///    - `positions` and `velocities` (steps × n × 3), `damage` (steps × n): one slab per
///      step (chunked: one step per chunk), row k of each at `time[k]`.
/// h5py reads them as arrays: f["peridynamics/block/positions"][k] is step k's n × 3 array.
/// The file is written as `path.part` and renamed to `path` by close() (or the destructor):
/// a run that fails or is killed leaves no partial file under the final name. It is flushed
/// after each step. Bad input throws nsdyn::Error naming the path; a write that fails throws
/// WriteError (WriteFault.hpp) after closing and removing `path.part`.
class NSDYN_IO_API PeridynamicHdf5Writer {
 public:
  static constexpr const char* kFormat = "nsdyn-peridynamics-hdf5-1";

  explicit PeridynamicHdf5Writer(const std::string& path);
  ~PeridynamicHdf5Writer();
  PeridynamicHdf5Writer(const PeridynamicHdf5Writer&) = delete;
  PeridynamicHdf5Writer& operator=(const PeridynamicHdf5Writer&) = delete;

  /// Append the state of @p bodies at @p time. The first call creates the groups (bodies
  /// with distinct names, each a valid HDF5 name without '/'); later calls must pass the
  /// same bodies (names and point counts, in order): nsdyn::Error otherwise, nothing written.
  void writeStep(double time, const std::vector<const PeridynamicBody*>& bodies);
  /// Flush, close and rename `path.part` to `path` (idempotent; the destructor does it
  /// too, silently). WriteError if that fails.
  void close();
  /// Close and remove `path.part` without renaming it. Idempotent; never throws.
  void discard();

  const std::string& path() const { return file_.path(); }
  std::size_t steps() const { return steps_; }

 private:
  struct BodySets {
    std::string name;
    std::size_t points;
    std::int64_t group, positions, velocities, damage;
  };
  void createBody(const PeridynamicBody& body);
  void closeObjects();
  [[noreturn]] void fail(const std::string& what);

  StagedHdf5File file_;
  std::int64_t top_ = -1, time_ = -1;
  std::vector<BodySets> bodies_;
  std::size_t steps_ = 0;
};

/// A dataset of the HDF5 file @p path as doubles (row-major) with its dimensions in
/// @p dims (tests, tools). nsdyn::Error naming the path and the dataset if it cannot be read.
NSDYN_IO_API std::vector<double> readHdf5Doubles(const std::string& path, const std::string& name,
                                                 std::vector<std::size_t>& dims);

}  // namespace nsdyn::io

#endif
