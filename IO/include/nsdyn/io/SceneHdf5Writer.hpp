/// @file SceneHdf5Writer.hpp
/// @brief One HDF5 file per run of a rigid-body scene, in the layout of Siconos's
///        mechanics I/O (group `data`: dynamic, velocities, static, cf, solv, and the
///        shapes, objects and laws ref, input, nslaws) plus nsdyn's `data/energy`;
///        datasets are chunked and grow each step.
#ifndef NSDYN_IO_SCENEHDF5WRITER_HPP
#define NSDYN_IO_SCENEHDF5WRITER_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/ContactSet.hpp"
#include "nsdyn/io/IoExport.hpp"
#include "nsdyn/io/SceneFrameView.hpp"
#include "nsdyn/io/StagedHdf5File.hpp"

namespace nsdyn::io {

/// Writes `path` (created, or truncated) with root attributes "format"
/// (SceneHdf5Writer::kFormat), "dimension" (3), "h", and, from the first
/// writeStep(), "number_of_bodies", "number_of_dynamic_bodies",
/// "number_of_static_bodies". Datasets (doubles, one row per record; each has a
/// string attribute "info" and a string-array attribute "columns"):
///  - data/dynamic    (9):  time, id, x, y, z, qw, qx, qy, qz — each dynamic body, each step;
///  - data/velocities (8):  time, id, vx, vy, vz, wx, wy, wz — world frame;
///  - data/static     (9):  0, id, x, y, z, qw, qx, qy, qz — each static body, once;
///  - data/cf         (26): time, mu, pointA (3), pointB (3), normal n (3, from B to A),
///    force (3, world, (λn n + λt1 t1 + λt2 t2)/h), gap (3: gap, 0, 0), local
///    velocity u after the step (3), local impulse λ (3), contact index in the step,
///    id of body A, id of body B — each active contact, each step;
///  - data/solv       (4):  time, iterations, residual, local precision (0 if none);
///  - data/energy     (5):  time, kinetic, potential (gravity), contact work, total.
/// For Siconos's tools (siconos_vview, siconos_vexport, siconos_info open the file): the
/// groups data/ref (the shapes: Sphere, Box, Capsule, Cylinder primitives, convex vertex
/// lists, a half-space drawn as a thin Box), data/input (one group per body "body<global
/// id>": id, type, mass, inertia, first pose and velocity, one contactor per shape) written
/// at the first writeStep(), data/nslaws (one friction law per μ of the contacts written) at
/// close(), and an empty data/log (doc/scene-outputs.md, "Siconos's tools on our files").
/// Body ids follow Siconos: the dynamic bodies, in the order of their global ids (for the
/// Kernel path and a SceneEngine on one process: the order of the body list), get
/// 1, 2, 3, ...; the static ones −1, −2, ... (bodyId()). doc/scene-outputs.md has the
/// details and the differences from Siconos (force instead of impulse in cf 11:13).
/// The writer reads a SceneFrameView (one frame in arrays); the overloads taking the
/// Kernel's body list and ContactSet, or a SceneEngine's BodyStore and SceneContacts,
/// make that view and write it, so both engines write the same file for the same state.
/// The file is written as `path.part` and renamed to `path` by close() (or the
/// destructor): a run that fails or is killed leaves no partial file under the final
/// name. It is flushed after each call, so `path.part` can be read while the run goes on.
/// Bad input throws nsdyn::Error naming the path; a write that fails (full disk, ...)
/// throws WriteError (WriteFault.hpp) after closing and removing `path.part`: the writer
/// then writes nothing more.
class NSDYN_IO_API SceneHdf5Writer {
 public:
  /// Layout version written in the "format" attribute.
  static constexpr const char* kFormat = "nsdyn-scene-hdf5-1 (siconos mechanics data/ layout)";

  /// Create @p path for a run with time step @p h (finite, > 0).
  SceneHdf5Writer(const std::string& path, double h);
  ~SceneHdf5Writer();
  SceneHdf5Writer(const SceneHdf5Writer&) = delete;
  SceneHdf5Writer& operator=(const SceneHdf5Writer&) = delete;

  /// Append the rows of time @p time: dynamic and velocities (one row per dynamic body,
  /// in the order of the Siconos ids), and cf for the active contacts (in the frame's
  /// order); at the first call, data/static and the body-count attributes. The frame
  /// must keep its bodies (count, global ids, static or dynamic) from call to call, and
  /// be of one part (SceneFrameView::check, with mu and the contact velocities):
  /// nsdyn::Error otherwise, nothing written.
  void writeStep(double time, const SceneFrameView& frame);
  /// writeStep(time, SceneFrameView::of(bodies, contacts)): a ContactManager's bodies()
  /// and contacts(). The body list must keep its length and order from call to call.
  void writeStep(double time, const std::vector<BodyShapes>& bodies, const ContactSet& contacts);
  /// writeStep(time, SceneFrameView::of(bodies, contacts)): a SceneEngine's bodies() and
  /// contacts() after a step.
  void writeStep(double time, const BodyStore& bodies, const SceneContacts& contacts);
  /// Append one row to data/solv.
  void writeSolver(double time, int iterations, double residual, double localPrecision = 0.0);
  /// Append one row to data/energy (the numbers are the caller's).
  void writeEnergy(double time, double kinetic, double potential, double contactWork, double total);
  /// For writers that form the rows themselves (the distributed writer of
  /// nsdyn_parallel, which gathers them from the ranks): append @p rows (row-major, the
  /// columns of data/@p name each) and flush. nsdyn::Error for an unknown dataset or a
  /// size that is not a whole number of rows.
  void appendRows(const std::string& name, const std::vector<double>& rows);
  /// Write the integer attribute @p name of the file (overwritten if present): the body
  /// counts ("number_of_bodies", ...) for such writers, or their own ("mpi_ranks").
  void writeAttribute(const std::string& name, std::int64_t value);
  /// Flush and close the file, then rename `path.part` to `path` (idempotent; the
  /// destructor does it too, silently). WriteError if that fails (nothing under `path`).
  void close();
  /// Close the file and remove `path.part` without renaming it (a run that stops on an
  /// error: no file under `path`). Idempotent; never throws.
  void discard();

  const std::string& path() const { return file_.path(); }
  /// Rows appended so far to data/@p name (0 for an unknown name).
  std::size_t rows(const std::string& name) const;
  /// The Siconos id of body @p index of @p bodies: 1 + (number of dynamic bodies
  /// before it) for a dynamic body, −(1 + number of static bodies before it) for a
  /// static one. nsdyn::Error for an index out of range.
  static int bodyId(const std::vector<BodyShapes>& bodies, std::size_t index);

 private:
  struct Dataset {
    std::string name;
    std::size_t columns;
    std::int64_t id;
    std::size_t rows;
  };
  void append(Dataset& set, const std::vector<double>& rows);
  Dataset& dataset(const std::string& name);
  void flush();
  void closeObjects();
  void noteFriction(const std::vector<double>& cfRows);
  [[noreturn]] void fail(const std::string& what);

  StagedHdf5File file_;
  double h_;
  std::int64_t group_ = -1;
  std::vector<Dataset> sets_;
  std::size_t bodyCount_ = 0;
  bool started_ = false;
  // global ids of the first step, sorted: Siconos ids 1, 2, ... and −1, −2, ...
  std::vector<std::int64_t> dynamicIds_, staticIds_;
  // this step: Siconos id of each body of the frame, the frame's bodies in Siconos order
  std::vector<int> ids_;
  std::vector<std::size_t> order_;
  // the friction coefficients of the contacts written (sorted, distinct): data/nslaws
  std::vector<double> mus_;
};

/// The rows of dataset @p name (e.g. "data/cf") of the HDF5 file @p path, as
/// written by SceneHdf5Writer (2-D doubles). nsdyn::Error naming the path and the
/// dataset if the file or the dataset cannot be read.
NSDYN_IO_API std::vector<std::vector<double>> readSceneHdf5Dataset(const std::string& path,
                                                                   const std::string& name);

}  // namespace nsdyn::io

#endif
