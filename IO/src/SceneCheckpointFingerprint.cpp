// The fingerprint of a scene checkpoint (nsdyn/io/SceneCheckpoint.hpp): the hash of each body,
// the items of the engine's options and materials, and the list of the items that differ
// between a checkpoint and the scene that loads it.
#include <algorithm>
#include <string>
#include <vector>

#include "Fnv.hpp"
#include "SceneCheckpointFormat.hpp"
#include "SceneCheckpointInternal.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/SceneEngine.hpp"

namespace nsdyn::io {
namespace {

using namespace scenecp;  // the file's records, encode, decode (SceneCheckpointFormat.hpp)
using detail::bitsOf;
using detail::doubleOf;
using detail::Fnv;

}  // namespace

// ---------------------------------------------------------------- fingerprint

std::uint64_t SceneFingerprint::digest() const {
  return digestOf(*this, detail::kFnvOffsetBasis);
}

std::uint64_t sceneBodyHash(const SceneEngine& engine, std::size_t b) {
  return bodyHash(engine, b, detail::kFnvOffsetBasis);
}

namespace scenecp {

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
                               std::uint64_t basis) {
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

// "h (0.01 in the checkpoint, 0.005 in this scene)" and the like, for the items that differ.
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

}  // namespace scenecp

SceneFingerprint sceneFingerprintItems(const SceneEngine& engine) {
  return itemsOf(engine, detail::kFnvOffsetBasis);
}

std::uint64_t sceneFingerprint(const SceneEngine& engine) {
  return sceneFingerprintItems(engine).digest();
}

}  // namespace nsdyn::io
