/// @file StagedHdf5File.hpp
/// @brief An HDF5 file written as `path.part` and renamed to `path` when complete, given up
///        cleanly on a write failure: the life of the scene and peridynamic HDF5 writers' files.
#ifndef NSDYN_IO_STAGEDHDF5FILE_HPP
#define NSDYN_IO_STAGEDHDF5FILE_HPP

#include <cstdint>
#include <functional>
#include <string>

#include "nsdyn/io/IoExport.hpp"

namespace nsdyn::io {

/// The file of an HDF5 writer. It is created as `path.part` and renamed to `path` by commit():
/// a run that fails or is killed leaves nothing under the final name. Every step that can
/// fail goes through the write-fault hooks (WriteFault.hpp: "hdf5 create", "hdf5 flush",
/// "hdf5 close"). The writer's own objects (datasets, groups) are closed by the function it
/// passes (@p closeObjects), always before the file. A failure gives the file up: detached
/// from the disk (closing it then writes nothing and cannot fail: a failed H5Fclose crashes
/// libhdf5 at exit; a failure the test hook injected happened before the library was called,
/// the file closes as usual), closed, `path.part` removed, and WriteError thrown naming
/// @p who, what was being done and the final path, errno kept.
class NSDYN_IO_API StagedHdf5File {
 public:
  /// Creates `path.part` (HDF5's own error printing off). WriteError(who, "a file that can be
  /// created", path) when it cannot.
  StagedHdf5File(std::string who, std::string path);
  /// Discards a file still open (a writer whose constructor failed after creating it).
  ~StagedHdf5File();
  StagedHdf5File(const StagedHdf5File&) = delete;
  StagedHdf5File& operator=(const StagedHdf5File&) = delete;

  std::int64_t id() const { return file_; }
  bool isOpen() const { return file_ >= 0; }
  /// A write failure gave the file up.
  bool failed() const { return failed_; }
  const std::string& path() const { return path_; }
  const std::string& partPath() const { return part_; }

  /// Gives the file up after a failure of @p what (see the class comment) and throws.
  [[noreturn]] void fail(const std::string& what, const std::function<void()>& closeObjects);
  /// H5Fflush; fail("a file flushed") when it fails.
  void flush(const std::function<void()>& closeObjects);
  /// Closes and removes `path.part` without renaming it (flushed first: a file whose flush
  /// fails is detached before it is closed). Idempotent; never throws.
  void discard(const std::function<void()>& closeObjects);
  /// Flushes, closes and renames `path.part` to `path`. Idempotent; WriteError on a failure.
  void commit(const std::function<void()>& closeObjects);

 private:
  std::string who_, path_, part_;
  std::int64_t file_ = -1;
  bool failed_ = false;
};

}  // namespace nsdyn::io

#endif
