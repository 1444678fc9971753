// Fuzz target: the checkpoint reader. Each input is decoded twice: without the checksum
// test (so that mutations reach every record), then as `nsdyn run --restart` does, into
// Examples/BouncingBallTS/BouncingBallTS.xml (fingerprint, model checks, restore).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "nsdyn/io/Checkpoint.hpp"
#include "nsdyn/io/XmlLoader.hpp"

#ifndef NSDYN_SOURCE_DIR
#error NSDYN_SOURCE_DIR must name the source tree (the model of the checkpoints)
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace nsdyn::io;
  static std::unique_ptr<LoadedModel> run =
      XmlLoader().loadFile(NSDYN_SOURCE_DIR "/Examples/BouncingBallTS/BouncingBallTS.xml");
  static const ModelFingerprint fingerprint = modelFingerprint(*run);
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    checkCheckpointData(bytes, "fuzz.checkpoint", false);
  } catch (const nsdyn::Error&) {
  }
  try {
    Recorder recorder(run->outputs);
    RunTotals totals;
    RestartOptions options;
    options.fingerprint = &fingerprint;
    loadCheckpointData(bytes, "fuzz.checkpoint", *run, recorder, totals, options);
  } catch (const nsdyn::Error&) {
  }
  return 0;
}
