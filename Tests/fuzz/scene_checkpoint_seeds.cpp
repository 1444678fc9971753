// The seeds of fuzz_scene_checkpoint load as a restart does (issue 23, #18): the format-1 seeds
// (checksum and fingerprint with nsdyn's FNV-1a variant, offset basis 1469598103934665603) are
// still read; saved again they are format 2 (the standard FNV-1a 64, offset basis
// 14695981039346656037) and load again into a fresh engine, the same state bit for bit; a
// format-1 file relabelled format 2 (resealed with the standard basis) is refused: the basis
// goes with the format. `scene_checkpoint_seeds CORPUS [OUT]`: OUT receives the format-2 seeds.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/io/SceneCheckpoint.hpp"

namespace nsdyn::fuzz {
std::unique_ptr<SceneEngine> sceneOfTheSeeds();
std::string resealed(std::string bytes);
}  // namespace nsdyn::fuzz

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::printf("FAIL: %s\n", what.c_str());
  }
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::uint64_t fnv1a64(const std::string& d, std::size_t n) {
  std::uint64_t h = 14695981039346656037ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(d[i]);
    h *= 1099511628211ULL;
  }
  return h;
}

std::uint64_t stored(const std::string& d) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(d[d.size() - 8 + i])) << (8 * i);
  return v;
}

bool sameState(const nsdyn::SceneEngine& a, const nsdyn::SceneEngine& b) {
  const auto& x = a.bodies();
  const auto& y = b.bodies();
  return x.q.size() == y.q.size() && x.v.size() == y.v.size() &&
         std::memcmp(x.q.data(), y.q.data(), x.q.size() * sizeof(double)) == 0 &&
         std::memcmp(x.v.data(), y.v.data(), x.v.size() * sizeof(double)) == 0 &&
         a.steps() == b.steps() && a.memory().key == b.memory().key;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: scene_checkpoint_seeds CORPUS [OUT]\n");
    return 2;
  }
  const std::string corpus = argv[1];
  const std::string out = argc > 2 ? argv[2] : "";
  for (const long step : {0L, 20L}) {
    const std::string name = "six-bodies-step" + std::to_string(step) + ".nsc";
    const std::string old = slurp(corpus + "/" + name);
    check(old.size() > 24 && old[8] == 1, name + ": a format-1 seed expected");
    auto a = nsdyn::fuzz::sceneOfTheSeeds();
    try {
      nsdyn::io::loadSceneCheckpointData(*a, old, name);
      check(a->steps() == step, name + ": steps " + std::to_string(a->steps()));
    } catch (const nsdyn::Error& e) {
      check(false, name + " (format 1) refused: " + e.what());
      continue;
    }
    // saved again: format 2, the standard FNV-1a 64, loads into a fresh engine bit for bit
    const std::string path = (out.empty() ? std::string(".") : out) + "/" + "six-bodies-step" +
                             std::to_string(step) + "-format2.nsc";
    nsdyn::io::saveSceneCheckpoint(*a, path);
    const std::string now = slurp(path);
    check(now.size() > 24 && now[8] == 2, name + ": saved again, not format 2");
    check(stored(now) == fnv1a64(now, now.size() - 8),
          name + ": the format-2 checksum is not the standard FNV-1a 64");
    auto b = nsdyn::fuzz::sceneOfTheSeeds();
    try {
      nsdyn::io::loadSceneCheckpointData(*b, now, path);
      check(sameState(*a, *b), name + ": format 2 reloaded, another state");
    } catch (const nsdyn::Error& e) {
      check(false, name + " (format 2) refused: " + e.what());
    }
    if (out.empty()) std::remove(path.c_str());
    // format 1 relabelled 2 and resealed: its hashes are nsdyn's variant's, refused
    std::string relabelled = old;
    relabelled[8] = 2;
    relabelled.insert(relabelled.size() - 8, 8, '\0');  // format 2's run record flag: none
    relabelled = nsdyn::fuzz::resealed(relabelled);
    auto c = nsdyn::fuzz::sceneOfTheSeeds();
    std::string why;
    try {
      nsdyn::io::loadSceneCheckpointData(*c, relabelled, name);
    } catch (const nsdyn::Error& e) {
      why = e.what();
    }
    check(why.find("fingerprint") != std::string::npos,
          name + " relabelled format 2: not refused for its fingerprint: " + why);
    std::printf(
        "%s: format 1 loaded at step %ld; saved as format 2 (%zu bytes) and reloaded; "
        "relabelled: %s\n",
        name.c_str(), step, now.size(), why.substr(0, 90).c_str());
  }
  std::printf("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
