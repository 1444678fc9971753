/// @file WriteFault.hpp
/// @brief The file operations of every result writer (CSV, HDF5, VTK, spool, checkpoints),
///        WriteError for their failures, and the write-failure test hook.
///
/// Every create, write, flush, close and rename of a file a run writes goes through
/// writeFault() first. Test hook (doc/robustness.md, "Write failures"): with the
/// environment variable `NSDYN_FAIL_WRITE_AT=k` the k-th such operation of the process
/// (counted from 1) fails as on a full disk (errno ENOSPC; `NSDYN_FAIL_WRITE_ERRNO` =
/// EACCES, EROFS, EIO, EFBIG or EDQUOT for another cause), and only that one; the writer
/// then takes the path it takes for a real failure. `NSDYN_WRITE_LOG=FILE` appends one
/// line "k operation path" per operation to FILE. Neither is meant for production runs.
#ifndef NSDYN_IO_WRITEFAULT_HPP
#define NSDYN_IO_WRITEFAULT_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/io/IoExport.hpp"

namespace nsdyn::io {

/// A result file that could not be written (full disk, folder not writable, file not
/// creatable): exit status 4 of `nsdyn run` (README.md, "Exit status").
class NSDYN_IO_API WriteError : public Error {
 public:
  using Error::Error;
};

/// Counts operation @p op ("open", "write", "close", "rename", "hdf5 create", ...) on
/// @p path; true, with errno set, when the test hook makes it fail.
NSDYN_IO_API bool writeFault(const char* op, const std::string& path);

/// The number of operations counted so far in this process.
NSDYN_IO_API long writeOperations();
/// Whether the last writeFault() call made its operation fail (then the library the
/// writer calls, HDF5, was not called and its state is clean).
NSDYN_IO_API bool lastWriteFaultInjected();

/// fopen(@p path, @p mode) through the hook; nullptr with errno set on failure.
NSDYN_IO_API std::FILE* openForWrite(const std::string& path, const char* mode);
/// fwrite of @p bytes bytes through the hook; false (errno set) unless all were written.
NSDYN_IO_API bool writeAll(std::FILE* f, const void* data, std::size_t bytes,
                           const std::string& path);
/// ferror, then fclose (always done) through the hook; false with errno set if a write
/// of @p f or its close failed.
NSDYN_IO_API bool closeWritten(std::FILE* f, const std::string& path);
/// rename(@p from, @p to) through the hook; false with errno set on failure.
NSDYN_IO_API bool renameWritten(const std::string& from, const std::string& to);

/// "path (reason)": @p path and strerror(errno), or "write error" when errno is 0.
NSDYN_IO_API std::string writeFailure(const std::string& path);

/// An HDF5 file (hid_t) whose write failed in the library: its file descriptor is pointed at
/// /dev/null, so that the library can close it (H5Fclose flushes again) without writing, without an
/// error and without the crash of a failed close at exit; the file on disk is then the caller's to
/// remove. Only for files of the default (sec2) driver; best effort.
NSDYN_IO_API void detachHdf5File(std::int64_t file);

}  // namespace nsdyn::io

#endif
