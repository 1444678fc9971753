// An HDF5 file written as path.part and renamed when complete (nsdyn/io/StagedHdf5File.hpp).
#include "nsdyn/io/StagedHdf5File.hpp"

#include <hdf5.h>

#include <cerrno>
#include <cstdio>
#include <utility>

#include "nsdyn/io/WriteFault.hpp"

namespace nsdyn::io {

StagedHdf5File::StagedHdf5File(std::string who, std::string path)
    : who_(std::move(who)), path_(std::move(path)), part_(path_ + ".part") {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  file_ = writeFault("hdf5 create", part_)
              ? -1
              : H5Fcreate(part_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (file_ < 0) throw WriteError(who_, "a file that can be created", writeFailure(path_));
}

StagedHdf5File::~StagedHdf5File() {
  discard([] {});
}

void StagedHdf5File::fail(const std::string& what, const std::function<void()>& closeObjects) {
  const int error = errno;
  if (file_ >= 0 && !lastWriteFaultInjected()) detachHdf5File(file_);
  closeObjects();
  if (file_ >= 0) H5Fclose(file_);
  file_ = -1;
  std::remove(part_.c_str());
  failed_ = true;
  errno = error;
  throw WriteError(who_, what, writeFailure(path_));
}

void StagedHdf5File::flush(const std::function<void()>& closeObjects) {
  if (writeFault("hdf5 flush", part_) || H5Fflush(file_, H5F_SCOPE_LOCAL) < 0)
    fail("a file flushed", closeObjects);
}

void StagedHdf5File::discard(const std::function<void()>& closeObjects) {
  if (file_ < 0) return;
  if (writeFault("hdf5 flush", part_) || H5Fflush(file_, H5F_SCOPE_LOCAL) < 0)
    if (!lastWriteFaultInjected()) detachHdf5File(file_);
  closeObjects();
  H5Fclose(file_);
  file_ = -1;
  std::remove(part_.c_str());
}

void StagedHdf5File::commit(const std::function<void()>& closeObjects) {
  if (file_ < 0) return;
  flush(closeObjects);
  if (writeFault("hdf5 close", part_)) fail("a file closed without error", closeObjects);
  closeObjects();
  const bool closed = H5Fclose(file_) >= 0;
  file_ = -1;
  if (!closed || !renameWritten(part_, path_)) {
    const int error = errno;
    std::remove(part_.c_str());
    failed_ = true;
    errno = error;
    throw WriteError(who_, "a complete file renamed to " + path_, writeFailure(part_));
  }
}

}  // namespace nsdyn::io
