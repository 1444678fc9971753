// The records of a checkpoint in nsdyn's own format (format 4; Checkpoint.cpp's top comment
// has the encodings), their encoding and decoding (CheckpointFormat.cpp) and the comparison of
// two model fingerprints (CheckpointFingerprint.cpp). Private to IO.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "Fnv.hpp"
#include "nsdyn/Kernel.hpp"
#include "nsdyn/io/Checkpoint.hpp"

namespace nsdyn::io::ckpt {

// format 4's checksum and fingerprints: nsdyn's FNV-1a variant (Fnv.hpp), as written so far
using Fnv = detail::LegacyFnv;

// ---- the records of a checkpoint ------------------------------------------------------------
// State of one system: the vectors of DynamicalSystem::checkpointState(), in
// its order (mechanical systems q, v, p, forces; first order x, r).
struct SystemState {
  std::string name, className;
  std::vector<SiconosVector> vectors;
};
// y and λ of one interaction at each level.
struct InteractionState {
  std::string name;
  std::vector<SiconosVector> y, lambda;
};
// A unitary relation of an index set: interaction (file order) and first row.
struct IndexEntry {
  std::uint64_t interaction = 0, position = 0;
};
// Rows of one output so far, with its running sums: the first `spooled` rows are in the
// spool file `spool` (a streaming Recorder), the next ones here.
struct TableState {
  std::string name;
  std::vector<std::string> columns;
  std::string spool;
  std::uint64_t spooled = 0;
  std::vector<std::vector<double>> rows;
  std::vector<double> sums;
  bool pendingNext = false;
};
// Everything a checkpoint holds, in file order.
struct Payload {
  std::string model;
  ModelFingerprint fingerprint;
  long step = 0;
  double time = 0.0;
  std::vector<SystemState> systems;
  std::vector<InteractionState> interactions;
  std::vector<IndexEntry> indexSet1, indexSet2;
  std::vector<StepStatistics> statistics;
  std::string frameSpool;  // the first spooledFrames VTK frames, then `frames`
  std::uint64_t spooledFrames = 0;
  std::vector<TableState> tables;
  std::vector<VtkFrame> frames;
  RunTotals totals;
};

/// @p p in @p format: the binary records with header and checksum, or their XML rendering.
std::string encode(Payload& p, ArchiveFormat format);
/// Decode @p data into @p p; nsdyn::Error naming @p path and what is wrong.
void decode(const std::string& data, const std::string& path, Payload& p, bool verifyChecksum);
/// The bytes of the file @p path; nsdyn::Error naming it when it cannot be read.
std::string readFile(const std::string& path);

/// Items of @p a missing from @p b, or with another hash.
std::vector<std::string> differences(const ModelFingerprint& a, const ModelFingerprint& b);

}  // namespace nsdyn::io::ckpt
