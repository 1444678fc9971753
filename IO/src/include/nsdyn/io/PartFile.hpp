/// @file PartFile.hpp
/// @brief A file written under a temporary name (`path.part`) and renamed to its path once
///        complete, so that a path a program reports is always a whole file.
#ifndef NSDYN_IO_PARTFILE_HPP
#define NSDYN_IO_PARTFILE_HPP

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "nsdyn/io/WriteFault.hpp"

namespace nsdyn::io {

/// Opens `path.part` (fopen @p mode); commit() closes it, checks that every write
/// succeeded and renames it to @p path; the destructor removes an uncommitted one.
/// Every operation goes through the write-failure hook (WriteFault.hpp). Failures throw
/// WriteError from @p who naming the path and the cause.
class PartFile {
 public:
  PartFile(std::string path, std::string who, const char* mode = "w")
      : path_(std::move(path)), tmp_(path_ + ".part"), who_(std::move(who)) {
    file_ = openForWrite(tmp_, mode);
    if (!file_) throw WriteError(who_, "a writable file", writeFailure(path_));
  }
  ~PartFile() {
    if (file_) std::fclose(file_);
    if (!committed_) std::remove(tmp_.c_str());
  }
  PartFile(const PartFile&) = delete;
  PartFile& operator=(const PartFile&) = delete;

  std::FILE* get() const { return file_; }
  const std::string& path() const { return path_; }
  /// Write @p bytes bytes (through the hook); WriteError on failure.
  void write(const void* data, std::size_t bytes) {
    if (!writeAll(file_, data, bytes, tmp_))
      throw WriteError(who_, "a complete file", writeFailure(path_));
  }
  void commit() {
    std::FILE* f = file_;
    file_ = nullptr;
    if (!closeWritten(f, tmp_)) throw WriteError(who_, "a complete file", writeFailure(path_));
    if (!renameWritten(tmp_, path_))
      throw WriteError(who_, "a file that can be renamed to " + path_, writeFailure(tmp_));
    committed_ = true;
  }

 private:
  std::string path_, tmp_, who_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace nsdyn::io

#endif
