/// @file Checkpoint.hpp
/// @brief Checkpoint and restart of a run (Boost.Serialization, binary or
///        XML archives): the state of the Model and the Simulation, the
///        recorded outputs and the run totals.
#ifndef NSDYN_IO_CHECKPOINT_HPP
#define NSDYN_IO_CHECKPOINT_HPP

#include <string>

#include "nsdyn/io/Outputs.hpp"
#include "nsdyn/io/XmlLoader.hpp"

namespace nsdyn::io {

/// Archive kind of a checkpoint file.
enum class ArchiveFormat {
  Binary,  ///< boost::archive::binary_oarchive (compact, same machine)
  Xml      ///< boost::archive::xml_oarchive (readable, portable)
};

/// Save the state of @p run after its step k (Simulation::currentStep()),
/// between two steps: every system's state and memory, every interaction's
/// y and λ at each level (and memories), the index sets, the step counter
/// and the per-step statistics, the outputs recorded so far (@p recorder)
/// and @p totals. The model itself is not stored: a restart reloads the
/// same model file first. Written to a temporary file renamed when
/// complete. nsdyn::Error on failure.
void saveCheckpoint(const std::string& path, ArchiveFormat format, const LoadedModel& run,
                    const Recorder& recorder, const RunTotals& totals);

/// Restore a checkpoint into @p run (freshly loaded from the same model
/// file), @p recorder and @p totals; the format is detected from the file.
/// Returns the step k the run continues from. nsdyn::Error, with the file
/// name and what is wrong, for a file that is not a checkpoint, is
/// truncated or corrupted (checksum), or does not match the model (name,
/// number or sizes of systems and interactions, outputs).
long loadCheckpoint(const std::string& path, LoadedModel& run, Recorder& recorder,
                    RunTotals& totals);

}  // namespace nsdyn::io

#endif
