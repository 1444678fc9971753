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

#include "nsdyn/Error.hpp"

namespace nsdyn::io {

/// Opens `path.part` (fopen @p mode); commit() closes it, checks that every write
/// succeeded and renames it to @p path; the destructor removes an uncommitted one.
/// Failures throw nsdyn::Error from @p who naming the path.
class PartFile {
 public:
  PartFile(std::string path, std::string who, const char* mode = "w")
      : path_(std::move(path)), tmp_(path_ + ".part"), who_(std::move(who)) {
    file_ = std::fopen(tmp_.c_str(), mode);
    if (!file_) throw Error(who_, "a writable file", path_ + " (" + std::strerror(errno) + ")");
  }
  ~PartFile() {
    if (file_) std::fclose(file_);
    if (!committed_) std::remove(tmp_.c_str());
  }
  PartFile(const PartFile&) = delete;
  PartFile& operator=(const PartFile&) = delete;

  std::FILE* get() const { return file_; }
  const std::string& path() const { return path_; }
  void commit() {
    const bool ok = !std::ferror(file_);
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!ok || !closed) throw Error(who_, "a complete file", path_ + " (write error)");
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0)
      throw Error(who_, "a file that can be renamed to " + path_, tmp_ + " (" + std::strerror(errno) + ")");
    committed_ = true;
  }

 private:
  std::string path_, tmp_, who_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
};

}  // namespace nsdyn::io

#endif
