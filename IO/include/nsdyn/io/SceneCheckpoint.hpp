/// @file SceneCheckpoint.hpp
/// @brief Checkpoint and restart of a SceneEngine, on one process or over the parts (ranks) of
///        a distributed scene: the dynamic state of every body by global id, the contact memory
///        (warm start) by global ids, the step count and the scene's fingerprint, in a checked
///        binary file (doc/robustness.md, "Scene checkpoints"). A restart continues
///        bit-identically on the same build (on one process; over N parts, when the restart
///        partitions the bodies as the run did at the step saved).
#ifndef NSDYN_IO_SCENECHECKPOINT_HPP
#define NSDYN_IO_SCENECHECKPOINT_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "nsdyn/io/IoExport.hpp"

namespace nsdyn {
class SceneEngine;
}

namespace nsdyn::io {

class SceneParts;

/// What makes a scene "the same" for a restart: named items, each a 64-bit hash.
/// Items, in this order:
///  - "h", "theta", "t0", "gravity" (bit patterns), "solver" (the name, and "+fallback" when one is
///  set), "gyroscopic";
///  - "contact options": margin, breaking distance, relativeMargin, relativeActivation,
///    warmStart, sweptDetection, stabilisationFactor, maxRecoverySpeed, the libccd options
///    (not the thread counts, the overlap warnings or the broadphase's cell size: they do not
///    change the result);
///  - "materials": μ and e of every pair of material groups present;
///  - "body count";
///  - "bodies": the sum (mod 2^64) over the bodies of sceneBodyHash(): independent of the order
///    of the bodies in the store, so that a distributed scene can form it with one reduction.
/// Not included: the dynamic state (q, v, contact memory, clock), the solver's tolerance,
/// iteration budget and threads (a restart may change them; the bits of the continuation then
/// differ), the bodies' names, and what force callables compute (only which bodies have one).
struct NSDYN_IO_API SceneFingerprint {
  std::vector<std::pair<std::string, std::uint64_t>> items;
  /// One hash (FNV-1a 64, the standard offset basis) of every item, name and value.
  std::uint64_t digest() const;
};

/// What `nsdyn run` keeps of a scene run besides the engine, in its checkpoints (format 2), so
/// that a restart continues as if never stopped: per output its rows so far (the spooled ones
/// by the spool file's path and count), its running sums (`sum="true"` columns) and whether
/// its row 0 waits for the next row; the run loop's accumulators (the summary's totals, the
/// summed contact work) and the message of its first failed step.
struct NSDYN_IO_API SceneRunRecord {
  struct Output {
    std::string name;
    std::uint64_t columns = 0;
    std::string spool;  ///< the spool file of the first `spooled` rows (streaming)
    std::uint64_t spooled = 0;
    std::vector<std::vector<double>> rows;  ///< the rows after the spooled ones
    std::vector<double> sums;               ///< one per column
    bool pendingNext = false;
  };
  std::vector<Output> outputs;
  std::vector<double> values;  ///< the run loop's accumulators, in its own order (finite)
  std::string message;         ///< the first failed step's, or empty
};

/// The fingerprint of @p engine as it is now (any time: the state is not part of it), from
/// its store: the whole scene on one process (a distributed engine's checkpoint forms it from
/// the records of every part, saveSceneCheckpoint(engine, path, parts)).
NSDYN_IO_API SceneFingerprint sceneFingerprintItems(const SceneEngine& engine);
/// sceneFingerprintItems(engine).digest().
NSDYN_IO_API std::uint64_t sceneFingerprint(const SceneEngine& engine);
/// Hash of body @p b of @p engine's store: global id, static flag, group, mass, inertia,
/// applied force and torque, whether it has a force callable, and per shape its kind
/// (Shape::kindName()), characteristic size, volume, centroid, inertia per unit density,
/// local half-extents (a half-space: its normal and offset; a hull: its vertices) and its
/// offset pose in the body; the pose of a static body. nsdyn::Error for b out of range.
NSDYN_IO_API std::uint64_t sceneBodyHash(const SceneEngine& engine, std::size_t b);

/// Save the state of @p engine between two steps (or before the first one) to @p path:
///
///     offset  size            content (little-endian; doubles as their IEEE bits)
///     0       8               "NSDYNSCP"
///     8       4, 4            format version (u32, 2; 1 is still read), reserved (u32, 0)
///     16      8               fingerprint (sceneFingerprint)
///     24      8 + ...         item count n, then n × (u64 length, name bytes, u64 hash)
///             8, 8            steps done (i64 >= 0), time (f64, = t0 + steps h)
///             8 + 120 nb      body count nb, then per body sorted by global id:
///                             id (i64), sceneBodyHash (u64), q (7 f64), v (6 f64)
///             8 + 56 nm       memory count nm, then per persistent contact sorted by
///                             (idA, idB, sub): idA < idB (global ids, i64), sub (u64: the
///                             22 low bits of the contact key, shapes and features of A
///                             then B), normal impulse (f64), world tangential impulse (3 f64)
///             8 + ...         run record flag (u64, 0 or 1), then when 1 the SceneRunRecord:
///                             output count, per output: name (u64 length, bytes), columns
///                             c >= 1 (u64), spool (u64 length, bytes), spooled rows (u64),
///                             row count r (u64), r × c f64, c sums (f64), pending row 0 (u64
///                             0 or 1); value count and values (f64); message (length, bytes)
///     end−8   8               FNV-1a 64 of every byte before it (the standard offset basis
///                             14695981039346656037; format 1: 1469598103934665603, nsdyn's
///                             variant, also used by its fingerprint)
///
/// The contact memory's keys hold body indices in the store (ContactDetector's layout); the
/// file holds the two bodies' global ids instead, the lower id first (a pair whose lower id
/// is on the higher index has its shapes and features swapped and its tangential impulse
/// negated: the same contact seen from the other body), and keys are rebuilt from the ids at
/// load, so that a store holding the bodies in another order (another rank count) maps them.
/// Of two memory entries with the same key only the first one is written (the only one the
/// engine warm-starts from). Written to `path.part`, renamed to @p path when complete.
/// nsdyn::Error naming @p path for a state that is not finite or a quaternion not unit
/// within 1e-9 (a checkpoint that could not be loaded), repeated global ids, an engine
/// distributed over several processes (see the overload with the parts), or a write
/// failure; no file is left then.
NSDYN_IO_API void saveSceneCheckpoint(const SceneEngine& engine, const std::string& path);

/// Collective over @p parts: the checkpoint of an engine whose scene is spread over the
/// parts (a SceneEngine with MpiSceneExchange, and nsdyn::parallel::MpiSceneParts over the
/// same communicator), the same file, bit for bit, as the one-process save of the same state:
/// every part collects its records (its owned dynamic bodies, rank 0 also every static
/// body; its contact memory, whose keys hold global ids), rank 0 gathers them
/// (SceneParts::gatherBytes), sorts them by global id, forms the fingerprint from them (body
/// count, the sum of the body hashes and the material groups of every part: exact, in
/// integers) and writes `path.part`, renamed to @p path when complete. An engine that still
/// holds the whole scene (one process, or several parts before the first step) is written by
/// rank 0 from its own store. Errors as the one-process save, and for parts that do not match
/// the engine's exchange or a body id written by two parts: the same nsdyn::Error on every
/// part (SceneParts::agree), no file left.
NSDYN_IO_API void saveSceneCheckpoint(const SceneEngine& engine, const std::string& path,
                                      SceneParts& parts);
/// The same with @p run (rank 0's is written; null: none) after the contact memory.
NSDYN_IO_API void saveSceneCheckpoint(const SceneEngine& engine, const std::string& path,
                                      SceneParts& parts, const SceneRunRecord* run);

/// Load the checkpoint @p path into @p engine, built as the one that saved it (same bodies,
/// ids, shapes, materials and options; the thread counts may differ), before its first step
/// or at any time. An engine over several parts (SceneEngine::setExchange) is loaded before
/// its first step, while it still holds the whole scene: its initialize() then gives each
/// part its bodies and its share of the contact memory (each part loads the same file; the
/// overload with the parts below makes every part fail together); nsdyn::Error after. Checks, in
/// this order, and stops at the first problem: the magic, the format version, every record (a count
/// that cannot fit in the bytes left is refused before anything is allocated; nothing may follow
/// the last record), the checksum, the values (steps >= 0, finite time, q and v; unit quaternions
/// within 1e-9; ids >= 0 and strictly increasing; memory entries strictly increasing, idA < idB,
/// among the file's bodies, sub below 2^22, finite impulses), the fingerprint (a difference is
/// "another scene (fingerprint X, this scene Y)" and names the differing items, bodies by id), then
/// the engine: same body count, every id of the file once in the engine with the same body
/// hash, static bodies at their pose, memory shapes within the bodies' shapes, the time equal
/// to t0 + steps h. The values include the fingerprint's `body count` and `bodies` items
/// equal to the body records' count and the sum of their hashes, and a run record's counts
/// (format 2). Format 1 files are read with nsdyn's FNV-1a variant (their checksum,
/// fingerprint and body hashes).
/// Then sets q and v of the dynamic bodies, the contact memory (SceneEngine::setMemory,
/// keys rebuilt from the ids) and the clock (SceneEngine::setClock). nsdyn::Error naming the
/// file and what is wrong; @p engine is not changed on error.
NSDYN_IO_API void loadSceneCheckpoint(SceneEngine& engine, const std::string& path);

/// Collective over @p parts: loadSceneCheckpoint() on every part into an engine that holds
/// the whole scene, a restart on any number of parts: every part builds the whole scene (and
/// may have set its exchange), loads @p path (each part reads the file), then the first step's
/// initialize() gives each part its bodies and its share of the contact memory; the clock is
/// the engine's. When a part fails (another scene, a missing or damaged file), every part
/// throws the same nsdyn::Error (that of the lowest faulty rank) and no engine is changed.
/// nsdyn::Error also for an engine already distributed (after its first step over several
/// parts: it no longer holds the whole scene).
NSDYN_IO_API void loadSceneCheckpoint(SceneEngine& engine, const std::string& path,
                                      SceneParts& parts);
/// The same, and the file's run record into @p run (every part): true when it has one (format
/// 2 written by `nsdyn run`). The record is checked for what the file alone shows (at most a
/// row a step and row 0, finite values); the caller checks it against its outputs.
NSDYN_IO_API bool loadSceneCheckpoint(SceneEngine& engine, const std::string& path,
                                      SceneParts& parts, SceneRunRecord* run);

/// loadSceneCheckpoint() of the bytes @p data (named @p path in messages).
NSDYN_IO_API void loadSceneCheckpointData(SceneEngine& engine, const std::string& data,
                                          const std::string& path);

/// What a scene checkpoint holds, as far as the file alone shows.
struct NSDYN_IO_API SceneCheckpointInfo {
  std::uint32_t format = 0;
  std::uint64_t fingerprint = 0;
  long steps = 0;
  double time = 0.0;
  std::size_t bodies = 0;
  std::size_t contacts = 0;  ///< entries of the contact memory
  bool run = false;          ///< a run record (format 2)
};

/// Only decode and validate @p data as a scene checkpoint (no engine): nsdyn::Error as
/// loadSceneCheckpoint() for what the file alone shows; @p verifyChecksum false lets a
/// fuzzer reach past the checksum.
NSDYN_IO_API SceneCheckpointInfo checkSceneCheckpointData(const std::string& data,
                                                          const std::string& path,
                                                          bool verifyChecksum = true);

}  // namespace nsdyn::io

#endif
