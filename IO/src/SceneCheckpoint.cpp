// Checkpoints of a SceneEngine (nsdyn/io/SceneCheckpoint.hpp, doc/robustness.md "Scene
// checkpoints"). The file holds bodies by global id and the contact memory by pairs of global
// ids, so that keys (which hold body indices) are rebuilt for the store that loads it. A save
// collects records (one process: every body of the store; over several parts: each part's
// owned bodies and memory, gathered on rank 0 through io::SceneParts), then sorts them and
// writes one file, the same for both. The reader trusts nothing: every count is bounded by
// the bytes left before anything is allocated, then the checksum, the values, the fingerprint
// and the engine are checked, and only then is the engine changed (over several parts: on
// every part, or on none).
//
// This file loads (and checks) checkpoints; SceneCheckpointSave.cpp saves them,
// SceneCheckpointFingerprint.cpp computes the fingerprint, SceneCheckpointFormat.cpp encodes
// and decodes the file, SceneCheckpointInternal.hpp declares what they share.
#include "nsdyn/io/SceneCheckpoint.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <numeric>
#include <sstream>
#include <tuple>

#include "Fnv.hpp"
#include "SceneCheckpointFormat.hpp"
#include "SceneCheckpointInternal.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/io/PartFile.hpp"
#include "nsdyn/io/SceneParts.hpp"

namespace nsdyn::io {
namespace {

using namespace scenecp;  // the file's records, encode, decode (SceneCheckpointFormat.hpp)
using detail::bitsOf;
using detail::doubleOf;
using detail::Fnv;

// A load needs the whole scene in the store: one process, or several parts before the first
// step (initialize() then gives each part its share of what was loaded).
void requireWholeScene(const SceneEngine& engine, const std::string& where) {
  if (distributed(engine))
    throw Error(where,
                "the whole scene: one process, or an engine over several parts before its first "
                "step (initialize() then gives each part its share of the state loaded)",
                "an engine already distributed over " + std::to_string(engine.exchange().size()) +
                    " processes");
}

}  // namespace

namespace scenecp {

// True when @p engine's store holds only its part of a scene spread over several parts (its
// memory keys then hold global ids); false for one process and, before the first step, for
// an engine still holding the whole scene on every part.
bool distributed(const SceneEngine& engine) {
  return engine.initialized() && engine.exchange().size() > 1;
}

// The engine's bodies by global id: (id, index) sorted by id; nsdyn::Error for a repeated id.
std::vector<std::pair<std::int64_t, std::size_t>> bodiesById(const BodyStore& s,
                                                             const std::string& where) {
  std::vector<std::pair<std::int64_t, std::size_t>> byId(s.size());
  for (std::size_t b = 0; b < s.size(); ++b) byId[b] = {s.id[b], b};
  std::sort(byId.begin(), byId.end());
  for (std::size_t k = 1; k < byId.size(); ++k)
    if (byId[k].first == byId[k - 1].first)
      throw Error(where, "a scene whose bodies have distinct global ids",
                  "id " + std::to_string(byId[k].first) + " for " + s.describe(byId[k - 1].second) +
                      " and " + s.describe(byId[k].second));
  return byId;
}

}  // namespace scenecp

// ---------------------------------------------------------------- load

SceneCheckpointInfo checkSceneCheckpointData(const std::string& data, const std::string& path,
                                             bool verifyChecksum) {
  const Content c = decode(data, "scene checkpoint " + path, verifyChecksum);
  SceneCheckpointInfo info;
  info.format = c.format;
  info.fingerprint = c.fingerprint;
  info.steps = static_cast<long>(c.steps);
  info.time = c.time;
  info.bodies = c.bodies.size();
  info.contacts = c.memory.size();
  info.run = c.hasRun;
  return info;
}

namespace {

// What prepareLoad() found: the memory with keys for this store, the step count, and the file's
// bodies with their store indices.
struct Prepared {
  ContactMemory memory;
  long steps = 0;
  std::vector<std::size_t> storeIndex;  // file record k -> store index
  std::vector<BodyRecord> bodies;
  bool hasRun = false;
  SceneRunRecord run;
};

// Decodes @p data and checks it against @p engine (every check of loadSceneCheckpointData);
// @p engine is not changed.
Prepared prepareLoad(const SceneEngine& engine, const std::string& data, const std::string& where) {
  Content c = decode(data, where, true);

  // the same scene
  // (format 1: both with nsdyn's FNV-1a variant)
  const std::uint64_t basis = basisOf(c.format);
  const SceneFingerprint now = itemsOf(engine, basis);
  if (digestOf(now, basis) != c.fingerprint)
    throw Error(where, "a checkpoint of this scene",
                "another scene (fingerprint " + hex(c.fingerprint) + ", this scene " +
                    hex(digestOf(now, basis)) +
                    "; differing: " + describeDifferences(engine, now, c) + ")");

  // the bodies: each id of the file once in the engine, static ones where they are
  const BodyStore& s = engine.bodies();
  const std::size_t n = s.size();
  if (c.bodies.size() != n)
    throw Error(where, std::to_string(n) + " bodies (this scene)", std::to_string(c.bodies.size()));
  const auto byId = bodiesById(s, where);
  std::vector<std::size_t> storeIndex(n);  // file record k -> store index
  for (std::size_t k = 0; k < n; ++k) {
    const BodyRecord& r = c.bodies[k];
    if (byId[k].first != r.id)  // both sorted by id, the same count: the same ids or a missing one
      throw Error(where, "the body ids of this scene",
                  "body id " + std::to_string(r.id) +
                      " of the checkpoint where this scene has id " +
                      std::to_string(byId[k].first));
    const std::size_t b = byId[k].second;
    storeIndex[k] = b;
    if (r.hash != bodyHash(engine, b, basis))  // (their sum is the fingerprint's, checked above)
      throw Error(where,
                  s.describe(b) + " of this scene (static flag, group, mass, inertia, " +
                      "loads, shapes or static pose)",
                  "body id " + std::to_string(r.id) + " with another hash, " + hex(r.hash) +
                      " (a corrupted file)");
    if (s.isStatic[b]) {
      bool same = true;
      for (std::size_t i = 0; i < 7; ++i) same = same && bitsOf(r.q[i]) == bitsOf(s.q[7 * b + i]);
      for (std::size_t i = 0; i < 6; ++i) same = same && bitsOf(r.v[i]) == bitsOf(s.v[6 * b + i]);
      if (!same)
        throw Error(where, s.describe(b) + " (static) with the pose and velocity of this scene",
                    "other values in the checkpoint (a corrupted file)");
    }
  }
  const SceneEngineOptions& o = engine.options();
  const double time = o.t0 + static_cast<double>(c.steps) * o.h;
  if (bitsOf(time) != bitsOf(c.time))
    throw Error(
        where,
        "the time t0 + steps h = " + number(time) + " after " + std::to_string(c.steps) + " steps",
        "time " + number(c.time) + " (a corrupted file)");

  // the contact memory, keys rebuilt from the ids for this store
  const auto indexOf = [&](std::int64_t id) {
    const auto it = std::lower_bound(c.bodies.begin(), c.bodies.end(), id,
                                     [](const BodyRecord& b, std::int64_t x) { return b.id < x; });
    return storeIndex[static_cast<std::size_t>(it -
                                               c.bodies.begin())];  // decode() checked it is there
  };
  const std::size_t nm = c.memory.size();
  std::vector<std::pair<std::uint64_t, std::size_t>> keys(nm);  // key, record
  for (std::size_t k = 0; k < nm; ++k) {
    const MemoryRecord& r = c.memory[k];
    const std::size_t a = indexOf(r.idA), b = indexOf(r.idB);
    const bool swap = a > b;
    const std::uint64_t sub = swap ? swapSides(r.sub) : r.sub;
    const std::size_t lo = swap ? b : a, hi = swap ? a : b;
    const std::uint64_t shapeA = (sub >> 16) & 0x3F, shapeB = (sub >> 10) & 0x3F;
    const std::size_t countA = s.shapeStart[lo + 1] - s.shapeStart[lo],
                      countB = s.shapeStart[hi + 1] - s.shapeStart[hi];
    if (shapeA >= countA || shapeB >= countB)
      throw Error(where, "contacts between shapes of the bodies",
                  "contact memory entry " + std::to_string(k) + ": shape " +
                      std::to_string(shapeA) + " of " + s.describe(lo) + " (" +
                      std::to_string(countA) + " shapes), shape " + std::to_string(shapeB) +
                      " of " + s.describe(hi) + " (" + std::to_string(countB) + ")");
    if (s.isStatic[lo] && s.isStatic[hi])
      throw Error(where, "contacts with a dynamic body",
                  "contact memory entry " + std::to_string(k) +
                      " between two static bodies (a corrupted file)");
    keys[k] = {(std::uint64_t(lo) << 43) | (std::uint64_t(hi) << 22) | sub, k};
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t j = 1; j < nm; ++j)
    if (keys[j].first == keys[j - 1].first)
      throw Error(where, "distinct contacts",
                  "contact memory entries " + std::to_string(keys[j - 1].second) + " and " +
                      std::to_string(keys[j].second) + " of the same contact");
  ContactMemory memory;
  memory.key.resize(nm);
  memory.normal.resize(nm);
  memory.tangential.resize(3 * nm);
  for (std::size_t j = 0; j < nm; ++j) {
    const MemoryRecord& r = c.memory[keys[j].second];
    const bool swap = indexOf(r.idA) > indexOf(r.idB);
    memory.key[j] = keys[j].first;
    memory.normal[j] = r.normal;
    for (std::size_t i = 0; i < 3; ++i)
      memory.tangential[3 * j + i] = swap ? -r.tangential[i] : r.tangential[i];
  }

  Prepared p;
  p.memory = std::move(memory);
  p.steps = static_cast<long>(c.steps);
  p.storeIndex = std::move(storeIndex);
  p.bodies = std::move(c.bodies);
  p.hasRun = c.hasRun;
  p.run = std::move(c.run);
  return p;
}

// Sets @p engine's memory, clock and dynamic states from @p p (prepareLoad's checks passed).
void applyLoad(SceneEngine& engine, Prepared p) {
  // the memory (setMemory checks it again, and changes nothing when it throws), the clock,
  // then the state
  engine.setMemory(std::move(p.memory));
  engine.setClock(p.steps);
  BodyStore& store = engine.bodies();
  for (std::size_t k = 0; k < p.bodies.size(); ++k) {
    const std::size_t b = p.storeIndex[k];
    if (store.isStatic[b]) continue;
    std::copy(p.bodies[k].q, p.bodies[k].q + 7,
              store.q.begin() + static_cast<std::ptrdiff_t>(7 * b));
    std::copy(p.bodies[k].v, p.bodies[k].v + 6,
              store.v.begin() + static_cast<std::ptrdiff_t>(6 * b));
  }
}

}  // namespace

void loadSceneCheckpoint(SceneEngine& engine, const std::string& path) {
  const std::string where = "scene checkpoint " + path;
  requireWholeScene(engine, where);
  loadSceneCheckpointData(engine, readFile(path, where), path);
}

void loadSceneCheckpointData(SceneEngine& engine, const std::string& data,
                             const std::string& path) {
  const std::string where = "scene checkpoint " + path;
  requireWholeScene(engine, where);
  applyLoad(engine, prepareLoad(engine, data, where));
}

void loadSceneCheckpoint(SceneEngine& engine, const std::string& path, SceneParts& parts) {
  loadSceneCheckpoint(engine, path, parts, nullptr);
}

bool loadSceneCheckpoint(SceneEngine& engine, const std::string& path, SceneParts& parts,
                         SceneRunRecord* run) {
  const std::string where = "scene checkpoint " + path;
  std::string fault;
  Prepared p;
  try {
    requireWholeScene(engine, where);
    p = prepareLoad(engine, readFile(path, where), where);
  } catch (const std::exception& e) {
    fault = e.what();
  }
  parts.agree(fault);  // every part loads, or none
  const bool hasRun = p.hasRun;
  if (run) *run = std::move(p.run);
  applyLoad(engine, std::move(p));
  return hasRun;
}

}  // namespace nsdyn::io
