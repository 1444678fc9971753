// The file operations of the result writers and the write-failure test hook
// (NSDYN_FAIL_WRITE_AT, NSDYN_FAIL_WRITE_ERRNO, NSDYN_WRITE_LOG; doc/robustness.md).
#include "nsdyn/io/WriteFault.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace nsdyn::io {

namespace {

struct Hook {
  long failAt = 0;  // 0: no operation fails
  int error = ENOSPC;
  std::string log;
};

const Hook& hook() {
  static const Hook h = [] {
    Hook k;
    if (const char* at = std::getenv("NSDYN_FAIL_WRITE_AT")) k.failAt = std::atol(at);
    if (const char* e = std::getenv("NSDYN_FAIL_WRITE_ERRNO")) {
      const struct {
        const char* name;
        int value;
      } names[] = {{"ENOSPC", ENOSPC}, {"EACCES", EACCES}, {"EROFS", EROFS},
                   {"EIO", EIO},       {"EFBIG", EFBIG},   {"EDQUOT", EDQUOT}};
      for (const auto& n : names)
        if (std::strcmp(e, n.name) == 0) k.error = n.value;
    }
    if (const char* log = std::getenv("NSDYN_WRITE_LOG")) k.log = log;
    return k;
  }();
  return h;
}

std::atomic<long> counted{0};
std::atomic<bool> injected{false};

}  // namespace

bool writeFault(const char* op, const std::string& path) {
  const Hook& h = hook();
  const long k = ++counted;
  if (!h.log.empty()) {
    if (std::FILE* f = std::fopen(h.log.c_str(), "a")) {
      std::fprintf(f, "%ld %s %s\n", k, op, path.c_str());
      std::fclose(f);
    }
  }
  injected = h.failAt == k;
  if (!injected) return false;
  errno = h.error;
  return true;
}

bool lastWriteFaultInjected() {
  return injected.load();
}

long writeOperations() {
  return counted.load();
}

std::FILE* openForWrite(const std::string& path, const char* mode) {
  if (writeFault("open", path)) return nullptr;
  return std::fopen(path.c_str(), mode);
}

bool writeAll(std::FILE* f, const void* data, std::size_t bytes, const std::string& path) {
  if (writeFault("write", path)) return false;
  errno = 0;
  return std::fwrite(data, 1, bytes, f) == bytes;
}

bool closeWritten(std::FILE* f, const std::string& path) {
  errno = 0;
  const bool wrote = !std::ferror(f);
  const int writeErrno = errno;
  const bool closed = std::fclose(f) == 0;
  if (!wrote) {
    errno = writeErrno;
    return false;
  }
  if (!closed) return false;
  return !writeFault("close", path);
}

bool renameWritten(const std::string& from, const std::string& to) {
  if (writeFault("rename", to)) return false;
  return std::rename(from.c_str(), to.c_str()) == 0;
}

std::string writeFailure(const std::string& path) {
  const int e = errno;
  return path + " (" + (e ? std::strerror(e) : "write error") + ")";
}

void detachHdf5File(std::int64_t file) {
  if (file < 0) return;
  const hid_t fapl = H5Fget_access_plist(file);
  const bool sec2 = fapl >= 0 && H5Pget_driver(fapl) == H5FD_SEC2;
  void* handle = nullptr;
  if (sec2 && H5Fget_vfd_handle(file, fapl, &handle) >= 0 && handle) {
    const int fd = *static_cast<int*>(handle);
    const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
      ::dup2(null, fd);
      ::close(null);
    }
  }
  if (fapl >= 0) H5Pclose(fapl);
}

}  // namespace nsdyn::io
