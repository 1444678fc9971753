// Saving a SceneEngine to a scene checkpoint (nsdyn/io/SceneCheckpoint.hpp): the records of
// the store (one process: every body; over several parts: each part's owned bodies and memory),
// gathered on rank 0 through io::SceneParts, sorted, checked and written as one file.
#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

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

void requireOneProcess(const SceneEngine& engine, const std::string& where) {
  if (engine.exchange().size() != 1)
    throw Error(
        where,
        "a scene on one process (over several parts: saveSceneCheckpoint and "
        "loadSceneCheckpoint with the parts)",
        "a scene distributed over " + std::to_string(engine.exchange().size()) + " processes");
}

// What one part writes into a checkpoint: its bodies and its contact memory by global ids, and
// the material groups of its store (the fingerprint's materials are those of the groups
// present in the whole scene).
struct PartRecords {
  std::vector<int> groups;
  std::vector<BodyRecord> bodies;
  std::vector<MemoryRecord> memory;
};

// Which bodies of the store a part writes.
enum class Share {
  Whole,           // every body: the store is the whole scene, keys hold store indices
  Owned,           // the owned dynamic bodies (no ghost, no static); keys hold global ids
  OwnedAndStatics  // the same and every static body (rank 0 of a distributed engine)
};

// The records of @p engine's store for @p share (nsdyn::Error naming @p where for a state that
// could not be loaded: not finite, a quaternion not unit, a negative or repeated id, a memory
// key that names no pair of bodies).
PartRecords collectRecords(const SceneEngine& engine, Share share, const std::string& where) {
  const BodyStore& s = engine.bodies();
  const std::size_t n = s.size();
  if (s.q.size() != 7 * n || s.v.size() != 6 * n || s.id.size() != n || s.ghost.size() != n)
    throw Error(where, "a body store of consistent arrays",
                std::to_string(n) + " bodies, " + std::to_string(s.q.size()) + " positions, " +
                    std::to_string(s.v.size()) + " velocities");
  PartRecords part;
  part.groups = groupsOf(s);
  for (const auto& [id, b] : bodiesById(s, where)) {
    if (share != Share::Whole && (s.ghost[b] || (s.isStatic[b] && share == Share::Owned))) continue;
    BodyRecord r;
    r.id = id;
    if (r.id < 0)
      throw Error(where, "global ids >= 0", "id " + std::to_string(r.id) + " of " + s.describe(b));
    r.hash = sceneBodyHash(engine, b);
    for (std::size_t i = 0; i < 7; ++i) r.q[i] = s.q[7 * b + i];
    for (std::size_t i = 0; i < 6; ++i) r.v[i] = s.v[6 * b + i];
    for (std::size_t i = 0; i < 13; ++i) {
      const double x = i < 7 ? r.q[i] : r.v[i - 7];
      if (!std::isfinite(x))
        throw Error(where, "a finite state to save",
                    s.describe(b) + ": " + (i < 7 ? "q" : "v") + " = " + number(x));
    }
    if (!unitQuaternion(r.q + 3))
      throw Error(where, "unit quaternions (within 1e-9) to save",
                  s.describe(b) + ": norm " + number(quaternionNorm(r.q + 3)));
    part.bodies.push_back(r);
  }
  // the memory by global ids, the lower id first
  const ContactMemory& m = engine.memory();
  const std::size_t nm = m.key.size();
  if (m.normal.size() != nm || m.tangential.size() != 3 * nm)
    throw Error(where, "a contact memory of 1 normal and 3 tangential values per key",
                std::to_string(m.normal.size()) + " and " + std::to_string(m.tangential.size()) +
                    " for " + std::to_string(nm) + " keys");
  part.memory.resize(nm);
  for (std::size_t j = 0; j < nm; ++j) {
    const std::uint64_t key = m.key[j];
    const std::uint64_t a = (key >> 43) & kBodyMask, b = (key >> 22) & kBodyMask;
    std::int64_t idA = static_cast<std::int64_t>(a), idB = static_cast<std::int64_t>(b);
    std::string pair = "bodies with global ids " + std::to_string(a) + " and " + std::to_string(b);
    if (share == Share::Whole) {  // store indices, the lower one first
      if (!(a < b && b < n))
        throw Error(where, "contact memory keys of two bodies of the scene, the lower index first",
                    "key #" + std::to_string(j) + " of bodies #" + std::to_string(a) + " and #" +
                        std::to_string(b));
      idA = s.id[a];
      idB = s.id[b];
      pair = s.describe(a) + " and " + s.describe(b);
    } else if (a == b) {  // global ids (the keys of a distributed engine)
      throw Error(where, "contact memory keys of two bodies",
                  "key #" + std::to_string(j) + " of body id " + std::to_string(a) + " twice");
    }
    MemoryRecord& r = part.memory[j];
    r.normal = m.normal[j];
    bool finite = std::isfinite(r.normal);
    const bool swap = idA > idB;
    r.idA = swap ? idB : idA;
    r.idB = swap ? idA : idB;
    r.sub = swap ? swapSides(key & kSubMask) : key & kSubMask;
    for (std::size_t i = 0; i < 3; ++i) {
      r.tangential[i] = swap ? -m.tangential[3 * j + i] : m.tangential[3 * j + i];
      finite = finite && std::isfinite(r.tangential[i]);
    }
    if (!finite)
      throw Error(where, "finite contact impulses to save", "a non-finite impulse between " + pair);
  }
  return part;
}

// @p part's records as bytes (what a part sends to rank 0), and back.
std::string encodePart(const PartRecords& part) {
  Bytes b;
  b.u64(part.groups.size());
  for (int g : part.groups) b.u64(static_cast<std::uint64_t>(static_cast<std::int64_t>(g)));
  b.u64(part.bodies.size());
  for (const BodyRecord& r : part.bodies) {
    b.u64(static_cast<std::uint64_t>(r.id));
    b.u64(r.hash);
    for (double x : r.q) b.f64(x);
    for (double x : r.v) b.f64(x);
  }
  b.u64(part.memory.size());
  for (const MemoryRecord& m : part.memory) {
    b.u64(static_cast<std::uint64_t>(m.idA));
    b.u64(static_cast<std::uint64_t>(m.idB));
    b.u64(m.sub);
    b.f64(m.normal);
    for (double x : m.tangential) b.f64(x);
  }
  return std::move(b.out);
}

// Appends the records of @p bytes (encodePart of part @p rank) to @p all.
void appendPart(const std::string& bytes, int rank, PartRecords& all, const std::string& where) {
  try {
    Reader r(bytes, 0, bytes.size());
    const std::size_t groups = r.count("groups", 8);
    for (std::size_t k = 0; k < groups; ++k)
      all.groups.push_back(static_cast<int>(r.i64("a material group")));
    const std::size_t bodies = r.count("bodies", kBodyBytes);
    for (std::size_t k = 0; k < bodies; ++k) {
      BodyRecord b;
      b.id = r.i64("a body id");
      b.hash = r.u64("a body hash");
      for (double& x : b.q) x = r.f64("a body position");
      for (double& x : b.v) x = r.f64("a body velocity");
      all.bodies.push_back(b);
    }
    const std::size_t memory = r.count("contact memory entries", kMemoryBytes);
    for (std::size_t k = 0; k < memory; ++k) {
      MemoryRecord m;
      m.idA = r.i64("a contact's first body id");
      m.idB = r.i64("a contact's second body id");
      m.sub = r.u64("a contact's shapes and features");
      m.normal = r.f64("a contact's normal impulse");
      for (double& x : m.tangential) x = r.f64("a contact's tangential impulse");
      all.memory.push_back(m);
    }
    if (r.position() != bytes.size()) throw Bad{r.position(), "bytes after the last record"};
  } catch (const Bad& b) {
    throw Error(where, "the records of every part",
                "damaged records from part " + std::to_string(rank) + " (byte " +
                    std::to_string(b.at) + ": " + b.what + ")");
  }
}

// The content of the file from the records of every part: bodies sorted by id (each id once),
// memory sorted by (idA, idB, sub) between bodies of the file, the first of equal keys; the
// fingerprint of the records (groups, body count, hashes) and the engine's clock.
Content assemble(const SceneEngine& engine, PartRecords all, const std::string& where) {
  Content c;
  std::stable_sort(all.bodies.begin(), all.bodies.end(),
                   [](const BodyRecord& x, const BodyRecord& y) { return x.id < y.id; });
  for (std::size_t k = 1; k < all.bodies.size(); ++k)
    if (all.bodies[k].id == all.bodies[k - 1].id)
      throw Error(where, "a scene whose bodies have distinct global ids",
                  "id " + std::to_string(all.bodies[k].id) + " written by two parts");
  std::stable_sort(all.memory.begin(), all.memory.end(),
                   [](const MemoryRecord& x, const MemoryRecord& y) {
                     return std::tie(x.idA, x.idB, x.sub) < std::tie(y.idA, y.idB, y.sub);
                   });
  all.memory.erase(std::unique(all.memory.begin(), all.memory.end(),
                               [](const MemoryRecord& x, const MemoryRecord& y) {
                                 return x.idA == y.idA && x.idB == y.idB && x.sub == y.sub;
                               }),
                   all.memory.end());
  const auto hasBody = [&](std::int64_t id) {
    const auto it = std::lower_bound(all.bodies.begin(), all.bodies.end(), id,
                                     [](const BodyRecord& b, std::int64_t x) { return b.id < x; });
    return it != all.bodies.end() && it->id == id;
  };
  for (const MemoryRecord& m : all.memory)
    if (!hasBody(m.idA) || !hasBody(m.idB))
      throw Error(where, "contact memory between bodies of the scene",
                  "an entry of body ids " + std::to_string(m.idA) + " and " +
                      std::to_string(m.idB) + " (a body not saved)");
  std::sort(all.groups.begin(), all.groups.end());
  all.groups.erase(std::unique(all.groups.begin(), all.groups.end()), all.groups.end());
  std::uint64_t sum = 0;  // mod 2^64, the same for any order of the records
  for (const BodyRecord& b : all.bodies) sum += mix(b.hash);
  c.items = fingerprintOf(engine, all.groups, all.bodies.size(), sum);
  c.fingerprint = c.items.digest();
  c.steps = engine.steps();
  c.time = engine.time();
  c.bodies = std::move(all.bodies);
  c.memory = std::move(all.memory);
  return c;
}

// Writes @p c to `path.part`, renamed to @p path when complete.
void writeContent(const Content& c, const std::string& path, const std::string& where) {
  const std::string bytes = encode(c);
  PartFile file(path, where, "wb");  // WriteError on failure; the previous file stays
  file.write(bytes.data(), bytes.size());
  file.commit();
}

}  // namespace

void saveSceneCheckpoint(const SceneEngine& engine, const std::string& path) {
  const std::string where = "scene checkpoint " + path;
  if (path.empty()) throw Error("scene checkpoint", "a file name", "an empty path");
  requireOneProcess(engine, where);
  writeContent(assemble(engine, collectRecords(engine, Share::Whole, where), where), path, where);
}

void saveSceneCheckpoint(const SceneEngine& engine, const std::string& path, SceneParts& parts) {
  saveSceneCheckpoint(engine, path, parts, nullptr);
}

void saveSceneCheckpoint(const SceneEngine& engine, const std::string& path, SceneParts& parts,
                         const SceneRunRecord* run) {
  const std::string where = "scene checkpoint " + path;
  // 1. this part's records (every part learns of any part's fault)
  std::string fault, mine;
  try {
    if (path.empty()) throw Error("scene checkpoint", "a file name", "an empty path");
    PartRecords records;
    if (distributed(engine)) {
      if (parts.size() != engine.exchange().size())
        throw Error(where,
                    "the parts of the engine (" + std::to_string(engine.exchange().size()) + ")",
                    std::to_string(parts.size()) + " parts");
      records =
          collectRecords(engine, parts.writer() ? Share::OwnedAndStatics : Share::Owned, where);
    } else if (parts.writer()) {  // the whole scene on every part: rank 0 writes it
      records = collectRecords(engine, Share::Whole, where);
    }
    mine = encodePart(records);
  } catch (const std::exception& e) {
    fault = e.what();
  }
  parts.agree(fault);
  // 2. on rank 0, every part's records in one file
  const std::vector<std::string> all = parts.gatherBytes(mine);
  fault.clear();
  if (parts.writer()) {
    try {
      PartRecords merged;
      for (std::size_t p = 0; p < all.size(); ++p)
        appendPart(all[p], static_cast<int>(p), merged, where);
      Content c = assemble(engine, std::move(merged), where);
      if (run) {
        c.hasRun = true;
        c.run = *run;
      }
      writeContent(c, path, where);
    } catch (const std::exception& e) {
      fault = e.what();
    }
  }
  parts.agree(fault);
}

}  // namespace nsdyn::io
