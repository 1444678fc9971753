/// @file Checkpoint.hpp
/// @brief Checkpoint and restart of a run: the state of the Model and the
///        Simulation, the recorded outputs and the run totals, in nsdyn's own
///        checkpoint format 4 (binary or XML encoding; doc/robustness.md).
#ifndef NSDYN_IO_CHECKPOINT_HPP
#define NSDYN_IO_CHECKPOINT_HPP

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "nsdyn/io/IoExport.hpp"
#include "nsdyn/io/Outputs.hpp"
#include "nsdyn/io/XmlLoader.hpp"

namespace nsdyn::io {

/// Encoding of a checkpoint file.
enum class ArchiveFormat {
  Binary,  ///< compact little-endian records (the default)
  Xml      ///< the same records as XML elements, one a line (readable)
};

/// What a model "is" for a restart: named items, each with a 64-bit hash.
/// Items: the loaded time grid (t0, T, h, steps) and simulation type, then
/// one item per element of the model file's canonical XML tree (comments
/// and layout ignored): parameters/NAME, model/systems/NAME,
/// model/interactions/NAME, simulation, simulation/LCP, outputs/NAME, ...
struct NSDYN_IO_API ModelFingerprint {
  std::vector<std::pair<std::string, std::uint64_t>> items;
  /// One hash of every item.
  std::uint64_t digest() const;
};

/// The fingerprint of @p run as loaded. Call it before the first step (it
/// reads run.file again; a model loaded from a string has the loaded items only).
NSDYN_IO_API ModelFingerprint modelFingerprint(const LoadedModel& run);

/// Save the state of @p run after its step k (Simulation::currentStep()),
/// between two steps: every system's state and memory, every interaction's
/// y and λ at each level (and memories), the index sets, the step counter
/// and the per-step statistics, the outputs recorded so far (@p recorder: the
/// rows and frames in memory; of those in its spool files, only their count and
/// the spool's path, so the spool must still be there at restart),
/// @p totals and the model's @p fingerprint. The model itself is not stored:
/// a restart reloads the same model file first. Written to a temporary file
/// renamed when complete. nsdyn::Error on failure.
NSDYN_IO_API void saveCheckpoint(const std::string& path, ArchiveFormat format,
                                 const LoadedModel& run, const Recorder& recorder,
                                 const RunTotals& totals, const ModelFingerprint& fingerprint);
/// The same, with modelFingerprint(run) computed now.
NSDYN_IO_API void saveCheckpoint(const std::string& path, ArchiveFormat format,
                                 const LoadedModel& run, const Recorder& recorder,
                                 const RunTotals& totals);

/// How loadCheckpoint treats a model that differs from the one that wrote the file.
struct NSDYN_IO_API RestartOptions {
  /// Fingerprint of the model as loaded now (modelFingerprint(run) when empty).
  const ModelFingerprint* fingerprint = nullptr;
  /// Restart although the fingerprints differ (nsdyn run --force-restart); the
  /// differing items are then reported in @p differences.
  bool force = false;
  std::vector<std::string>* differences = nullptr;
};

/// Restore a checkpoint into @p run (freshly loaded from the same model
/// file), @p recorder and @p totals; the encoding is detected from the file.
/// Returns the step k the run continues from. nsdyn::Error, with the file
/// name and what is wrong, for a file that is not a checkpoint, is
/// truncated or corrupted (every count is bounded by the bytes left, every
/// bool and enum checked, then the checksum), was written by another model
/// file (the fingerprint: the differing items are named) unless
/// options.force, or does not match the model (name, number or sizes of
/// systems and interactions, outputs), or whose output spool files (the rows
/// not in the checkpoint) are missing or shorter than recorded. The spooled
/// rows are then restored (Recorder::resumeRows(): rows written after the
/// checkpoint dropped, copied into @p recorder's folder if it is another one).
/// Nothing of the run is changed on error.
NSDYN_IO_API long loadCheckpoint(const std::string& path, LoadedModel& run, Recorder& recorder,
                                 RunTotals& totals, const RestartOptions& options = {});

/// loadCheckpoint() of the bytes @p data (named @p path in messages).
NSDYN_IO_API long loadCheckpointData(const std::string& data, const std::string& path,
                                     LoadedModel& run, Recorder& recorder, RunTotals& totals,
                                     const RestartOptions& options = {});

/// Only decode and validate @p data as a checkpoint (no model): nsdyn::Error
/// as loadCheckpoint() for what the file alone shows; @p verifyChecksum false
/// lets the fuzzers reach past the checksum.
NSDYN_IO_API void checkCheckpointData(const std::string& data, const std::string& path,
                                      bool verifyChecksum = true);

}  // namespace nsdyn::io

#endif
