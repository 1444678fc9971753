// Checkpoints of a SceneEngine (nsdyn/io/SceneCheckpoint.hpp, doc/robustness.md "Scene
// checkpoints"). The file holds bodies by global id and the contact memory by pairs of global
// ids, so that keys (which hold body indices) are rebuilt for the store that loads it. A save
// collects records (one process: every body of the store; over several parts: each part's
// owned bodies and memory, gathered on rank 0 through io::SceneParts), then sorts them and
// writes one file, the same for both. The reader trusts nothing: every count is bounded by
// the bytes left before anything is allocated, then the checksum, the values, the fingerprint
// and the engine are checked, and only then is the engine changed (over several parts: on
// every part, or on none).
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
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
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

// True when @p engine's store holds only its part of a scene spread over several parts (its
// memory keys then hold global ids); false for one process and, before the first step, for
// an engine still holding the whole scene on every part.
bool distributed(const SceneEngine& engine) {
  return engine.initialized() && engine.exchange().size() > 1;
}

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

// "h (0.01 in the checkpoint, 0.005 in this scene)" and the like, for the items that differ.
std::uint64_t bodyHash(const SceneEngine& engine, std::size_t b, std::uint64_t basis);

std::string describeDifferences(const SceneEngine& engine, const SceneFingerprint& now,
                                const Content& c) {
  std::vector<std::string> out;
  const BodyStore& s = engine.bodies();
  for (const auto& item : c.items.items) {
    const std::string& name = item.first;
    const std::uint64_t hash = item.second;
    const auto it = std::find_if(now.items.begin(), now.items.end(),
                                 [&](const auto& x) { return x.first == name; });
    if (it == now.items.end()) {
      out.push_back(name + " (not in this version's fingerprint)");
      continue;
    }
    if (it->second == hash) continue;
    if (name == "h" || name == "theta" || name == "t0")
      out.push_back(name + " (" + number(doubleOf(hash)) + " in the checkpoint, " +
                    number(doubleOf(it->second)) + " in this scene)");
    else if (name == "body count")
      out.push_back("body count (" + std::to_string(hash) + " in the checkpoint, " +
                    std::to_string(it->second) + " in this scene)");
    else if (name != "bodies")
      out.push_back(name);
  }
  for (const auto& item : now.items)
    if (std::none_of(c.items.items.begin(), c.items.items.end(),
                     [&](const auto& x) { return x.first == item.first; }))
      out.push_back(item.first + " (not in the checkpoint's fingerprint)");
  // the bodies that differ, by id
  std::vector<std::pair<std::int64_t, std::size_t>> byId(s.size());
  for (std::size_t b = 0; b < s.size(); ++b) byId[b] = {s.id[b], b};
  std::sort(byId.begin(), byId.end());
  std::vector<std::string> bodies;
  std::size_t differing = 0;
  const auto note = [&](const std::string& what) {
    if (bodies.size() < kListed) bodies.push_back(what);
    ++differing;
  };
  std::size_t i = 0, j = 0;  // merge of two id-sorted lists
  while (i < c.bodies.size() || j < byId.size()) {
    if (j == byId.size() || (i < c.bodies.size() && c.bodies[i].id < byId[j].first)) {
      note("body id " + std::to_string(c.bodies[i].id) + " (not in this scene)");
      ++i;
    } else if (i == c.bodies.size() || byId[j].first < c.bodies[i].id) {
      note("body id " + std::to_string(byId[j].first) + " (" + s.describe(byId[j].second) +
           ", not in the checkpoint)");
      ++j;
    } else {
      if (c.bodies[i].hash != bodyHash(engine, byId[j].second, basisOf(c.format)))
        note("body id " + std::to_string(byId[j].first) + " (" + s.describe(byId[j].second) +
             ": static flag, group, mass, inertia, loads, shapes or static pose)");
      ++i;
      ++j;
    }
  }
  for (const std::string& b : bodies) out.push_back(b);
  if (differing > bodies.size())
    out.push_back("... (" + std::to_string(differing) + " bodies differ in all)");
  std::string list;
  for (std::size_t k = 0; k < out.size(); ++k) list += (k ? ", " : "") + out[k];
  return list.empty() ? "the same items, another digest" : list;
}

}  // namespace

// ---------------------------------------------------------------- fingerprint

std::uint64_t SceneFingerprint::digest() const {
  return digestOf(*this, detail::kFnvOffsetBasis);
}

std::uint64_t sceneBodyHash(const SceneEngine& engine, std::size_t b) {
  return bodyHash(engine, b, detail::kFnvOffsetBasis);
}

namespace {

// sceneBodyHash() from the offset basis @p basis (format 1's files: nsdyn's FNV-1a variant).
std::uint64_t bodyHash(const SceneEngine& engine, std::size_t b, std::uint64_t basis) {
  const BodyStore& s = engine.bodies();
  s.checkIndex(b, "sceneBodyHash");
  Fnv h(basis);
  h.add64(static_cast<std::uint64_t>(s.id[b]));
  h.add64(s.isStatic[b]);
  h.add64(static_cast<std::uint64_t>(static_cast<std::int64_t>(s.group[b])));
  h.addDouble(s.mass[b]);
  for (std::size_t i = 0; i < 9; ++i) h.addDouble(s.inertia[9 * b + i]);
  for (std::size_t i = 0; i < 3; ++i) h.addDouble(s.force[3 * b + i]);
  for (std::size_t i = 0; i < 3; ++i) h.addDouble(s.torque[3 * b + i]);
  h.add64(s.forceFunctions().count(b));
  const std::size_t first = s.shapeStart[b], last = s.shapeStart[b + 1];
  h.add64(last - first);
  for (std::size_t k = first; k < last; ++k) {
    const ShapeInstance& instance = s.shapes[k];
    const Shape& shape = *instance.shape;
    h.addString(shape.kindName());
    if (const auto* plane = dynamic_cast<const HalfSpaceShape*>(&shape)) {
      for (double x : plane->normal()) h.addDouble(x);
      h.addDouble(plane->offset());
    } else {
      h.addDouble(shape.characteristicSize());
      h.addDouble(shape.volume());
      for (double x : shape.centroid()) h.addDouble(x);
      for (const Shape::Vec3& row : shape.inertiaPerUnitDensity())
        for (double x : row) h.addDouble(x);
      for (double x : shape.localHalfExtents()) h.addDouble(x);
      if (const auto* hull = dynamic_cast<const ConvexHullShape*>(&shape)) {
        h.add64(hull->vertices().size());
        for (const Shape::Vec3& p : hull->vertices())
          for (double x : p) h.addDouble(x);
      }
    }
    for (double x : instance.position) h.addDouble(x);
    for (double x : instance.orientation) h.addDouble(x);
  }
  if (s.isStatic[b])
    for (std::size_t i = 0; i < 7; ++i) h.addDouble(s.q[7 * b + i]);
  return h.h;
}

// The fingerprint of @p engine's options and materials with the body items given: the
// material groups present (sorted, distinct), the body count and the sum of the mixed body
// hashes. One process: from its store; several parts: from the records gathered on rank 0.
SceneFingerprint fingerprintOf(const SceneEngine& engine, const std::vector<int>& groups,
                               std::size_t bodyCount, std::uint64_t bodiesSum,
                               std::uint64_t basis = detail::kFnvOffsetBasis) {
  const SceneEngineOptions& o = engine.options();
  SceneFingerprint fp;
  fp.items.emplace_back("h", bitsOf(o.h));
  fp.items.emplace_back("theta", bitsOf(o.theta));
  fp.items.emplace_back("t0", bitsOf(o.t0));
  Fnv gravity(basis);
  for (double g : o.gravity) gravity.addDouble(g);
  fp.items.emplace_back("gravity", gravity.h);
  Fnv solver(basis);
  solver.addString(o.solver);
  if (!o.fallback.empty()) solver.addString("+" + o.fallback);  // the fallback changes steps too
  fp.items.emplace_back("solver", solver.h);
  fp.items.emplace_back("gyroscopic", o.gyroscopic ? 1 : 0);
  const ContactManagerOptions& co = o.contacts;
  Fnv contacts(basis);
  for (double x : {co.detection.margin, co.detection.breakingDistance, co.relativeMargin,
                   co.relativeActivation, co.stabilisationFactor, co.maxRecoverySpeed,
                   co.detection.ccd.tolerance, co.detection.ccd.distanceTolerance})
    contacts.addDouble(x);
  contacts.add64(co.detection.ccd.maxIterations);
  contacts.add64(co.warmStart ? 1 : 0);
  contacts.add64(co.sweptDetection ? 1 : 0);
  if (!co.detection.ccd.manifold) contacts.add64(0x6d616e69);  // single-point convex pairs
  fp.items.emplace_back("contact options", contacts.h);
  // the materials of the pairs of groups present (the diagonal only past 1024 groups)
  Fnv materials(basis);
  materials.add64(groups.size());
  const bool pairs = groups.size() <= 1024;
  for (std::size_t a = 0; a < groups.size(); ++a)
    for (std::size_t b = a; b < (pairs ? groups.size() : a + 1); ++b) {
      const ContactMaterial m = engine.material(groups[a], groups[b]);
      materials.add64(static_cast<std::uint64_t>(static_cast<std::int64_t>(groups[a])));
      materials.add64(static_cast<std::uint64_t>(static_cast<std::int64_t>(groups[b])));
      materials.addDouble(m.mu);
      materials.addDouble(m.restitution);
    }
  fp.items.emplace_back("materials", materials.h);
  fp.items.emplace_back("body count", bodyCount);
  fp.items.emplace_back("bodies", bodiesSum);
  return fp;
}

// The groups of @p s, sorted and distinct.
std::vector<int> groupsOf(const BodyStore& s) {
  std::vector<int> groups(s.group.begin(), s.group.end());
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
  return groups;
}

// sceneFingerprintItems() from the offset basis @p basis.
SceneFingerprint itemsOf(const SceneEngine& engine, std::uint64_t basis) {
  const BodyStore& s = engine.bodies();
  std::uint64_t bodies = 0;  // a sum: the same for any order of the store
  for (std::size_t b = 0; b < s.size(); ++b) bodies += mix(bodyHash(engine, b, basis));
  return fingerprintOf(engine, groupsOf(s), s.size(), bodies, basis);
}

}  // namespace

SceneFingerprint sceneFingerprintItems(const SceneEngine& engine) {
  return itemsOf(engine, detail::kFnvOffsetBasis);
}

std::uint64_t sceneFingerprint(const SceneEngine& engine) {
  return sceneFingerprintItems(engine).digest();
}

// ---------------------------------------------------------------- save

namespace {

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
