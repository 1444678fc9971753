// Writes the scene HDF5 file of SiconosScene.hpp: siconos_tools_scene PATH [STEPS]
// (siconos_tools_check.py runs Siconos's tools on it).
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "SiconosScene.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: siconos_tools_scene PATH [STEPS]\n");
    return 2;
  }
  try {
    siconos_scene::write(argv[1], argc == 3 ? std::atoi(argv[2]) : 150);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "siconos_tools_scene: %s\n", e.what());
    return 1;
  }
  return 0;
}
