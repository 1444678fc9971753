// Fuzz target: the FCLIB HDF5 reader (nsd_read_fclib) on the input written to a temporary file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "nsdyn/nsd_io.h"
#include "nsdyn/nsd_problems.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/nsdyn-fuzz-fclib-" +
           std::to_string(::getpid()) + ".hdf5";
  }();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  const bool ok = std::fwrite(data, 1, size, f) == size;
  std::fclose(f);
  if (ok) {
    NsdProblem problem{};
    NsdReport report{};
    if (nsd_read_fclib(path.c_str(), &problem, &report) == NSD_OK) nsd_problem_clear(&problem);
  }
  std::remove(path.c_str());
  return 0;
}
