// Fuzz target: the scene checkpoint reader (IO/src/SceneCheckpoint.cpp, SceneCheckpointFormat.cpp):
// the one format NSDYNSCP that one process and the ranks of `mpirun nsdyn run` write and read
// (the MPI load is this reader on every rank, then a vote), run records included. Each input is
// decoded without the checksum test (so that mutations reach every record and value check),
// then loaded as a restart does into a small SceneEngine (a floor, 4 spheres, 2 boxes; the
// scene of the seed corpus, corpus/scene_checkpoint), as it is and with its checksum
// recomputed (so that mutations reach the fingerprint, the engine checks and the restore).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "nsdyn/BoxShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/io/SceneCheckpoint.hpp"

namespace nsdyn::fuzz {

// The scene of the seed checkpoints (written by saveSceneCheckpoint after 0 and 20 steps).
std::unique_ptr<SceneEngine> sceneOfTheSeeds() {
  SceneEngineOptions options;
  options.h = 0.01;
  options.contacts.detection.threads = 1;
  auto engine = std::make_unique<SceneEngine>(options);
  engine->setMaterial(0, 1, {0.3, 0.0});
  engine->addStatic(
      {ShapeInstance{std::make_shared<HalfSpaceShape>(Shape::Vec3{0.0, 0.0, 1.0}, 0.0)}});
  const auto sphere = std::make_shared<SphereShape>(0.1);
  const auto box = std::make_shared<BoxShape>(Shape::Vec3{0.1, 0.08, 0.06});
  for (int k = 0; k < 6; ++k) {
    BodySpec spec;
    spec.density = 1000.0;
    spec.shapes = {ShapeInstance{k < 4 ? SP::Shape(sphere) : SP::Shape(box)}};
    spec.position = k < 4 ? Shape::Vec3{0.21 * (k % 2) + 0.01 * k, 0.21 * (k / 2), 0.1}
                          : Shape::Vec3{0.1 + 0.25 * (k - 4), 0.1, 0.27};
    spec.velocity = {0.1 * k, 0.0, 0.0, 0.0, 0.0, 0.5 * k};
    engine->addBody(spec, k < 4 ? 0 : 1);
  }
  return engine;
}

// @p bytes with its last 8 bytes replaced by the FNV-1a 64 of the others (the file's checksum:
// from the standard offset basis; format 1, from nsdyn's variant, 1469598103934665603).
std::string resealed(std::string bytes) {
  if (bytes.size() < 8) return bytes;
  const bool format1 = bytes.size() >= 12 && bytes.compare(8, 4, std::string("\1\0\0\0", 4)) == 0;
  std::uint64_t h = format1 ? 1469598103934665603ULL : 14695981039346656037ULL;
  for (std::size_t i = 0; i + 8 < bytes.size(); ++i) {
    h ^= static_cast<unsigned char>(bytes[i]);
    h *= 1099511628211ULL;
  }
  for (std::size_t i = 0; i < 8; ++i) bytes[bytes.size() - 8 + i] = static_cast<char>(h >> (8 * i));
  return bytes;
}

}  // namespace nsdyn::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::unique_ptr<nsdyn::SceneEngine> engine = nsdyn::fuzz::sceneOfTheSeeds();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    nsdyn::io::checkSceneCheckpointData(bytes, "fuzz.nsc", false);
  } catch (const nsdyn::Error&) {
  }
  for (const std::string& input : {bytes, nsdyn::fuzz::resealed(bytes)}) {
    try {
      nsdyn::io::loadSceneCheckpointData(*engine, input, "fuzz.nsc");
    } catch (const nsdyn::Error&) {
    }
  }
  return 0;
}
