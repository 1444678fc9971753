// A scratch folder of the peridynamic IO tests (PeridynamicWritersTest, PeridynamicRunTest).
#ifndef NSDYN_TESTS_IO_PERIDYNAMICS_PD_SCRATCH_HPP
#define NSDYN_TESTS_IO_PERIDYNAMICS_PD_SCRATCH_HPP

#include <unistd.h>

#include <filesystem>
#include <string>

namespace pd_io_test {

/// An empty folder build/Tests/IO/peridynamics/scratch-@p name-<pid>, made anew.
inline std::string scratch(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(NSDYN_BINARY_DIR) / "Tests" / "IO" / "peridynamics" /
                       ("scratch-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

}  // namespace pd_io_test

#endif
