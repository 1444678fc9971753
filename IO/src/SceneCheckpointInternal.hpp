// The functions shared by the scene checkpoint's save (SceneCheckpointSave.cpp), load
// (SceneCheckpoint.cpp) and fingerprint (SceneCheckpointFingerprint.cpp). Private to IO.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "Fnv.hpp"
#include "SceneCheckpointFormat.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/io/SceneCheckpoint.hpp"

namespace nsdyn::io::scenecp {

// ---- SceneCheckpoint.cpp

/// True when @p engine's store holds only its part of a scene spread over several parts.
bool distributed(const SceneEngine& engine);
/// The engine's bodies by global id: (id, index) sorted by id; nsdyn::Error for a repeated id.
std::vector<std::pair<std::int64_t, std::size_t>> bodiesById(const BodyStore& s,
                                                             const std::string& where);

// ---- SceneCheckpointFingerprint.cpp

/// sceneBodyHash() from the offset basis @p basis.
std::uint64_t bodyHash(const SceneEngine& engine, std::size_t b, std::uint64_t basis);
/// The fingerprint of @p engine's options and materials with the body items given.
SceneFingerprint fingerprintOf(const SceneEngine& engine, const std::vector<int>& groups,
                               std::size_t bodyCount, std::uint64_t bodiesSum,
                               std::uint64_t basis = detail::kFnvOffsetBasis);
/// The groups of @p s, sorted and distinct.
std::vector<int> groupsOf(const BodyStore& s);
/// sceneFingerprintItems() from the offset basis @p basis.
SceneFingerprint itemsOf(const SceneEngine& engine, std::uint64_t basis);
/// The items of @p now and of the checkpoint @p c that differ, as a list for a message.
std::string describeDifferences(const SceneEngine& engine, const SceneFingerprint& now,
                                const Content& c);

}  // namespace nsdyn::io::scenecp
