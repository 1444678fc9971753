// Checkpoints of a SceneEngine on one process (IO/src/SceneCheckpoint.cpp): a mixed pile of
// 25 spheres and 25 boxes on a floor run 60 steps straight, and 30 steps, checkpointed,
// loaded into a fresh engine built the same way and run 30 more, must end with the same bits
// (q, v and the contact memory), with nsgs and apgd. Damaged files (every truncation, 200
// flipped bytes, files crafted with a valid checksum), checkpoints of another scene and
// missing files are refused with a message naming the file and leave the engine unchanged;
// a checkpoint is never left half-written.
#include <cppunit/extensions/HelperMacros.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/BoxShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/io/SceneCheckpoint.hpp"
#include "nsdyn/nsd_options.h"

namespace fs = std::filesystem;
using nsdyn::SceneEngine;
using nsdyn::ShapeInstance;
using nsdyn::io::loadSceneCheckpoint;
using nsdyn::io::loadSceneCheckpointData;
using nsdyn::io::saveSceneCheckpoint;
using Vec3 = nsdyn::Shape::Vec3;
using Quat = nsdyn::Shape::Quat;

namespace {

constexpr int kSide = 5;  // 5 x 5 spheres, 5 x 5 boxes above them

std::string scratch(const std::string& name) {
  const fs::path dir = fs::path(NSDYN_BINARY_DIR) / "Tests" / "IO" / "scene" /
                       ("scratch-checkpoint-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  CPPUNIT_ASSERT_MESSAGE(path, in.good());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spill(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  CPPUNIT_ASSERT_MESSAGE(path, out.good());
}

// How the pile is built (the default: the reference scene).
struct Pile {
  std::string solver = "nsgs";
  double h = 0.005;
  double radius = 0.1;
  bool extraBody = false;
  int threads = 1;
  double tolerance = 0.0;    // 0: the default
  bool reversed = false;     // the bodies added in the reverse order, with the same ids
  bool permutedIds = false;  // ids 1000 - index instead of the index
  double friction = 0.4;
};

// A deterministic number in [-1, 1] for body i, component k.
double jitter(int i, int k) {
  const unsigned x = static_cast<unsigned>(i * 7919 + k * 104729 + 12345) * 2654435761u;
  return static_cast<double>(x >> 8) / static_cast<double>(1u << 24) * 2.0 - 1.0;
}

std::unique_ptr<SceneEngine> makePile(const Pile& p = Pile()) {
  nsdyn::SceneEngineOptions o;
  o.h = p.h;
  o.solver = p.solver;
  o.contacts.detection.threads = p.threads;
  if (p.tolerance > 0.0) {
    nsd_solver_options_default(&o.solverOptions);
    o.solverOptions.tolerance = p.tolerance;
  }
  auto engine = std::make_unique<SceneEngine>(o);
  engine->setDefaultMaterial({p.friction, 0.0});
  engine->setMaterial(0, 1, {0.6, 0.1});

  // the bodies as closures adding one each, so that they can be added in either order
  std::vector<std::function<void()>> add;
  add.push_back([&] {
    engine->addStatic(
        {ShapeInstance{std::make_shared<nsdyn::HalfSpaceShape>(Vec3{0.0, 0.0, 1.0}, 0.0)}});
  });
  const auto sphere = std::make_shared<nsdyn::SphereShape>(p.radius);
  const auto box = std::make_shared<nsdyn::BoxShape>(Vec3{0.07, 0.06, 0.05});
  const double pitch = 0.21;
  for (int layer = 0; layer < 2; ++layer)
    for (int i = 0; i < kSide; ++i)
      for (int j = 0; j < kSide; ++j) {
        const int k = layer * kSide * kSide + i * kSide + j;
        nsdyn::BodySpec spec;
        spec.name = (layer == 0 ? "sphere " : "box ") + std::to_string(k);
        spec.density = layer == 0 ? 1000.0 : 700.0;
        spec.shapes = {
            ShapeInstance{layer == 0 ? nsdyn::SP::Shape(sphere) : nsdyn::SP::Shape(box)}};
        const double z = layer == 0 ? p.radius + 0.002 : 2.0 * p.radius + 0.07;
        spec.position = {(i - 2) * pitch + 0.002 * jitter(k, 0),
                         (j - 2) * pitch + 0.002 * jitter(k, 1), z};
        if (layer == 1) {
          const double a = 0.5 * jitter(k, 2), tilt = 0.08 * jitter(k, 3);
          const double c = std::cos(0.5 * a), s = std::sin(0.5 * a), ct = std::cos(0.5 * tilt),
                       st = std::sin(0.5 * tilt);
          spec.orientation = {c * ct, c * st, s * st, s * ct};
          const double n = std::sqrt(spec.orientation[0] * spec.orientation[0] +
                                     spec.orientation[1] * spec.orientation[1] +
                                     spec.orientation[2] * spec.orientation[2] +
                                     spec.orientation[3] * spec.orientation[3]);
          for (double& x : spec.orientation) x /= n;
        }
        spec.velocity = {0.2 * jitter(k, 4), 0.2 * jitter(k, 5), -0.1,
                         2.0 * jitter(k, 6), 2.0 * jitter(k, 7), 2.0 * jitter(k, 8)};
        const int group = layer;
        add.push_back([&engine, spec, group] { engine->addBody(spec, group); });
      }
  if (p.extraBody)
    add.push_back([&] {
      nsdyn::BodySpec spec;
      spec.name = "extra";
      spec.density = 1000.0;
      spec.shapes = {ShapeInstance{std::make_shared<nsdyn::SphereShape>(0.05)}};
      spec.position = {2.0, 2.0, 0.06};
      engine->addBody(spec, 0);
    });
  const std::size_t n = add.size();
  for (std::size_t k = 0; k < n; ++k) add[p.reversed ? n - 1 - k : k]();
  nsdyn::BodyStore& s = engine->bodies();
  for (std::size_t b = 0; b < n; ++b) {
    const std::size_t original = p.reversed ? n - 1 - b : b;  // the index in the reference order
    s.id[b] = p.permutedIds ? static_cast<std::int64_t>(1000 - original)
                            : static_cast<std::int64_t>(original);
  }
  return engine;
}

void run(SceneEngine& e, int steps) {
  for (int k = 0; k < steps; ++k) e.step();
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// Everything a checkpoint restores.
struct Snapshot {
  std::vector<double> q, v;
  nsdyn::ContactMemory memory;
  long steps = 0;
  double time = 0.0;
  explicit Snapshot(const SceneEngine& e)
      : q(e.bodies().q), v(e.bodies().v), memory(e.memory()), steps(e.steps()), time(e.time()) {}
  bool operator==(const Snapshot& o) const {
    return sameBits(q, o.q) && sameBits(v, o.v) && memory.key == o.memory.key &&
           sameBits(memory.normal, o.memory.normal) &&
           sameBits(memory.tangential, o.memory.tangential) && steps == o.steps &&
           std::memcmp(&time, &o.time, sizeof time) == 0;
  }
};

// The message of what f throws as nsdyn::Error ("" when it returns).
std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const nsdyn::Error& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// ---- the file's layout (SceneCheckpoint.hpp), to craft files with a valid checksum
std::uint64_t get64(const std::string& d, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<std::uint64_t>(static_cast<unsigned char>(d[at + static_cast<std::size_t>(i)]))
         << (8 * i);
  return v;
}
void put64(std::string& d, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) d[at + static_cast<std::size_t>(i)] = static_cast<char>(v >> (8 * i));
}
void putDouble(std::string& d, std::size_t at, double x) {
  std::uint64_t v = 0;
  std::memcpy(&v, &x, 8);
  put64(d, at, v);
}
// The FNV-1a 64 of every byte but the last 8, written in the last 8 (format 2: the standard
// offset basis).
void reseal(std::string& d) {
  std::uint64_t h = 14695981039346656037ULL;
  for (std::size_t i = 0; i + 8 < d.size(); ++i) {
    h ^= static_cast<unsigned char>(d[i]);
    h *= 1099511628211ULL;
  }
  put64(d, d.size() - 8, h);
}
struct Layout {
  std::size_t steps = 0, time = 0, bodyCount = 0, bodies = 0, memoryCount = 0, memory = 0;
  std::size_t nb = 0, nm = 0;
  static constexpr std::size_t kBody = 120, kEntry = 56;
  explicit Layout(const std::string& d) {
    std::size_t at = 24;
    const std::uint64_t items = get64(d, at);
    at += 8;
    for (std::uint64_t i = 0; i < items; ++i) at += 8 + get64(d, at) + 8;
    steps = at;
    time = at + 8;
    bodyCount = at + 16;
    nb = get64(d, bodyCount);
    bodies = bodyCount + 8;
    memoryCount = bodies + nb * kBody;
    nm = get64(d, memoryCount);
    memory = memoryCount + 8;
  }
  std::size_t body(std::size_t k) const { return bodies + k * kBody; }
  std::size_t entry(std::size_t k) const { return memory + k * kEntry; }
};

// An exchange that says the scene is split over two processes.
class TwoParts : public nsdyn::SceneExchange {
 public:
  int size() const override { return 2; }
};

}  // namespace

class SceneCheckpointTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneCheckpointTest);
  CPPUNIT_TEST(testFingerprint);
  CPPUNIT_TEST(testRoundTrip);
  CPPUNIT_TEST(testRestartNsgs);
  CPPUNIT_TEST(testRestartApgd);
  CPPUNIT_TEST(testRestartOtherThreads);
  CPPUNIT_TEST(testLoadAtAnyTime);
  CPPUNIT_TEST(testPermutedIds);
  CPPUNIT_TEST(testOtherStoreOrder);
  CPPUNIT_TEST(testTruncated);
  CPPUNIT_TEST(testFlippedBytes);
  CPPUNIT_TEST(testCraftedFiles);
  CPPUNIT_TEST(testOtherScene);
  CPPUNIT_TEST(testMissingAndForeignFiles);
  CPPUNIT_TEST(testWriteIsAtomic);
  CPPUNIT_TEST(testSaveRefusals);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testFingerprint() {
    using nsdyn::io::sceneFingerprint;
    const std::uint64_t reference = sceneFingerprint(*makePile());
    CPPUNIT_ASSERT_EQUAL(reference, sceneFingerprint(*makePile()));
    // what does not make another scene: threads, the solver's tolerance, the state, the
    // order of the store
    Pile p;
    p.threads = 2;
    CPPUNIT_ASSERT_EQUAL(reference, sceneFingerprint(*makePile(p)));
    p = Pile();
    p.tolerance = 1e-6;
    CPPUNIT_ASSERT_EQUAL(reference, sceneFingerprint(*makePile(p)));
    p = Pile();
    p.reversed = true;
    CPPUNIT_ASSERT_EQUAL(reference, sceneFingerprint(*makePile(p)));
    auto moved = makePile();
    run(*moved, 3);
    CPPUNIT_ASSERT_EQUAL(reference, sceneFingerprint(*moved));
    // what does
    for (int change = 0; change < 6; ++change) {
      p = Pile();
      if (change == 0) p.h = 0.004;
      if (change == 1) p.radius = 0.1 + 1e-12;
      if (change == 2) p.extraBody = true;
      if (change == 3) p.solver = "apgd";
      if (change == 4) p.permutedIds = true;
      if (change == 5) p.friction = 0.41;
      CPPUNIT_ASSERT_MESSAGE("change " + std::to_string(change),
                             sceneFingerprint(*makePile(p)) != reference);
    }
  }

  // Saved and loaded into a fresh engine: the same q, v, memory, steps and time.
  void testRoundTrip() {
    const std::string dir = scratch("roundtrip");
    auto a = makePile();
    run(*a, 30);
    CPPUNIT_ASSERT(a->memory().size() > 10);  // the pile is in contact
    const std::string path = dir + "/pile.nsc";
    saveSceneCheckpoint(*a, path);
    auto b = makePile();
    loadSceneCheckpoint(*b, path);
    CPPUNIT_ASSERT(Snapshot(*a) == Snapshot(*b));
    const nsdyn::io::SceneCheckpointInfo info =
        nsdyn::io::checkSceneCheckpointData(slurp(path), path);
    CPPUNIT_ASSERT_EQUAL(30L, info.steps);
    CPPUNIT_ASSERT_EQUAL(a->bodies().size(), info.bodies);
    CPPUNIT_ASSERT_EQUAL(a->memory().size(), info.contacts);
    CPPUNIT_ASSERT_EQUAL(nsdyn::io::sceneFingerprint(*a), info.fingerprint);
    // before the first step: no memory, step 0
    auto fresh = makePile();
    saveSceneCheckpoint(*fresh, dir + "/fresh.nsc");
    auto c = makePile();
    loadSceneCheckpoint(*c, dir + "/fresh.nsc");
    CPPUNIT_ASSERT_EQUAL(0L, c->steps());
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), c->memory().size());
    run(*fresh, 10);
    run(*c, 10);
    CPPUNIT_ASSERT(Snapshot(*fresh) == Snapshot(*c));
    fs::remove_all(dir);
  }

  // 60 steps straight; 30, checkpoint, a fresh engine, 30 more: the same bits.
  void restart(const Pile& straightPile, const Pile& restartedPile, const std::string& name) {
    const std::string dir = scratch(name);
    auto straight = makePile(straightPile);
    run(*straight, 60);
    auto first = makePile(straightPile);
    run(*first, 30);
    const std::string path = dir + "/pile.nsc";
    saveSceneCheckpoint(*first, path);
    auto second = makePile(restartedPile);
    loadSceneCheckpoint(*second, path);
    run(*second, 30);
    CPPUNIT_ASSERT_MESSAGE(name + ": q", sameBits(straight->bodies().q, second->bodies().q));
    CPPUNIT_ASSERT_MESSAGE(name + ": v", sameBits(straight->bodies().v, second->bodies().v));
    CPPUNIT_ASSERT_MESSAGE(name + ": memory", Snapshot(*straight) == Snapshot(*second));
    CPPUNIT_ASSERT_EQUAL(60L, second->steps());
    CPPUNIT_ASSERT(straight->memory().size() > 10);
    CPPUNIT_ASSERT(second->lastReport().warmStarted > 0);
    // the run moved (a restart that changed nothing would also be "identical")
    run(*first, 30);
    CPPUNIT_ASSERT(sameBits(first->bodies().q, straight->bodies().q));
    fs::remove_all(dir);
  }
  void testRestartNsgs() { restart(Pile(), Pile(), "nsgs"); }
  void testRestartApgd() {
    Pile p;
    p.solver = "apgd";
    restart(p, p, "apgd");
  }
  void testRestartOtherThreads() {
    Pile one, two;
    two.threads = 2;
    restart(one, two, "threads");
  }

  // Loaded into an engine that has run another trajectory already.
  void testLoadAtAnyTime() {
    const std::string dir = scratch("anytime");
    auto straight = makePile();
    run(*straight, 40);
    auto first = makePile();
    run(*first, 25);
    const std::string path = dir + "/pile.nsc";
    saveSceneCheckpoint(*first, path);
    Pile other;
    auto second = makePile(other);
    second->bodies().v[6 * 3 + 2] = 1.0;  // another trajectory
    run(*second, 7);
    loadSceneCheckpoint(*second, path);
    CPPUNIT_ASSERT_EQUAL(25L, second->steps());
    run(*second, 15);
    CPPUNIT_ASSERT(Snapshot(*straight) == Snapshot(*second));
    fs::remove_all(dir);
  }

  // Ids that decrease with the index: pairs are stored the other way round, and a restart
  // still continues bit-identically.
  void testPermutedIds() {
    Pile p;
    p.permutedIds = true;
    restart(p, p, "permuted");
  }

  // The same bodies (ids) in another order in the store, as a run on another rank count
  // would hold them: the state lands on the right bodies, keys are rebuilt, and the next
  // step warm-starts the same contacts.
  void testOtherStoreOrder() {
    const std::string dir = scratch("order");
    auto a = makePile();
    run(*a, 30);
    const std::string path = dir + "/pile.nsc";
    saveSceneCheckpoint(*a, path);
    Pile r;
    r.reversed = true;
    auto b = makePile(r);
    loadSceneCheckpoint(*b, path);
    const nsdyn::BodyStore &sa = a->bodies(), &sb = b->bodies();
    const std::size_t n = sa.size();
    CPPUNIT_ASSERT_EQUAL(n, sb.size());
    std::vector<std::size_t> bOf(n);  // index in a -> index in b
    for (std::size_t k = 0; k < n; ++k) bOf[static_cast<std::size_t>(sb.id[k])] = k;
    for (std::size_t k = 0; k < n; ++k) {
      CPPUNIT_ASSERT(std::memcmp(&sa.q[7 * k], &sb.q[7 * bOf[k]], 7 * sizeof(double)) == 0);
      CPPUNIT_ASSERT(std::memcmp(&sa.v[6 * k], &sb.v[6 * bOf[k]], 6 * sizeof(double)) == 0);
    }
    // each memory entry of a is in b, its key mapped (the bodies' order swapped: shapes and
    // features swapped, tangential impulse negated)
    const nsdyn::ContactMemory &ma = a->memory(), &mb = b->memory();
    CPPUNIT_ASSERT_EQUAL(ma.size(), mb.size());
    CPPUNIT_ASSERT(std::is_sorted(mb.key.begin(), mb.key.end()));
    for (std::size_t j = 0; j < ma.size(); ++j) {
      const std::uint64_t key = ma.key[j];
      const std::size_t A = bOf[key >> 43], B = bOf[(key >> 22) & 0x1FFFFF];
      const std::uint64_t sA = (key >> 16) & 63, sB = (key >> 10) & 63, fA = (key >> 5) & 31,
                          fB = key & 31;
      const bool swap = A > B;
      const std::uint64_t mapped =
          swap ? nsdyn::ContactDetector::makeKey(
                     static_cast<std::uint32_t>(B), static_cast<std::uint32_t>(A),
                     static_cast<std::uint32_t>(sB), static_cast<std::uint32_t>(sA),
                     static_cast<std::uint32_t>(fB), static_cast<std::uint32_t>(fA))
               : nsdyn::ContactDetector::makeKey(
                     static_cast<std::uint32_t>(A), static_cast<std::uint32_t>(B),
                     static_cast<std::uint32_t>(sA), static_cast<std::uint32_t>(sB),
                     static_cast<std::uint32_t>(fA), static_cast<std::uint32_t>(fB));
      const auto it = std::lower_bound(mb.key.begin(), mb.key.end(), mapped);
      CPPUNIT_ASSERT(it != mb.key.end() && *it == mapped);
      const std::size_t i = static_cast<std::size_t>(it - mb.key.begin());
      CPPUNIT_ASSERT_EQUAL(ma.normal[j], mb.normal[i]);
      for (std::size_t c = 0; c < 3; ++c)
        CPPUNIT_ASSERT_EQUAL(swap ? -ma.tangential[3 * j + c] : ma.tangential[3 * j + c],
                             mb.tangential[3 * i + c]);
    }
    // the reversed store has pairs of both kinds (the floor is last there)
    const auto& ra = a->step();
    const auto& rb = b->step();
    CPPUNIT_ASSERT_EQUAL(ra.contacts, rb.contacts);
    CPPUNIT_ASSERT_EQUAL(ra.warmStarted, rb.warmStarted);
    CPPUNIT_ASSERT(ra.warmStarted > 10);
    double largest = 0.0;
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t i = 0; i < 3; ++i)
        largest = std::max(largest, std::fabs(sa.q[7 * k + i] - sb.q[7 * bOf[k] + i]));
    CPPUNIT_ASSERT_MESSAGE("position difference " + std::to_string(largest), largest < 1e-6);
    fs::remove_all(dir);
  }

  // Every truncation of a checkpoint is refused, the engine unchanged.
  void testTruncated() {
    const std::string dir = scratch("truncated");
    auto a = makePile();
    run(*a, 30);
    const std::string path = dir + "/pile.nsc";
    saveSceneCheckpoint(*a, path);
    const std::string bytes = slurp(path);
    auto b = makePile();
    run(*b, 2);
    const Snapshot before(*b);
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      const std::string cut = bytes.substr(0, n);
      const std::string name = dir + "/cut-" + std::to_string(n) + ".nsc";
      const std::string message = errorOf([&] { loadSceneCheckpointData(*b, cut, name); });
      CPPUNIT_ASSERT_MESSAGE("length " + std::to_string(n) + " accepted", !message.empty());
      CPPUNIT_ASSERT_MESSAGE(message, contains(message, name));
      CPPUNIT_ASSERT_MESSAGE(message, n < 24 || contains(message, "truncated"));
      if (n % 97 == 0) {  // a sample through files
        spill(name, cut);
        const std::string fromFile = errorOf([&] { loadSceneCheckpoint(*b, name); });
        CPPUNIT_ASSERT_EQUAL(message, fromFile);
        fs::remove(name);
      }
    }
    CPPUNIT_ASSERT(Snapshot(*b) == before);
    loadSceneCheckpointData(*b, bytes, path);  // the whole file is fine
    CPPUNIT_ASSERT(Snapshot(*a) == Snapshot(*b));
    fs::remove_all(dir);
  }

  // One flipped byte at 200 positions (and at the first and last 24): refused.
  void testFlippedBytes() {
    auto a = makePile();
    run(*a, 30);
    const std::string dir = scratch("flipped");
    const std::string path = dir + "/pile.nsc";
    saveSceneCheckpoint(*a, path);
    const std::string bytes = slurp(path);
    auto b = makePile();
    const Snapshot before(*b);
    std::vector<std::size_t> positions;
    for (std::size_t i = 0; i < 24; ++i) {
      positions.push_back(i);
      positions.push_back(bytes.size() - 1 - i);
    }
    for (std::size_t k = 0; k < 200; ++k) positions.push_back(k * (bytes.size() - 1) / 199);
    std::size_t checksum = 0;
    for (std::size_t k = 0; k < positions.size(); ++k) {
      std::string damaged = bytes;
      const std::size_t at = positions[k];
      damaged[at] = static_cast<char>(damaged[at] ^ static_cast<char>(1 + k % 255));
      const std::string message = errorOf([&] { loadSceneCheckpointData(*b, damaged, path); });
      CPPUNIT_ASSERT_MESSAGE("byte " + std::to_string(at) + " flipped: accepted", !message.empty());
      CPPUNIT_ASSERT_MESSAGE(message, contains(message, path));
      if (contains(message, "checksum")) ++checksum;
    }
    CPPUNIT_ASSERT(Snapshot(*b) == before);
    // the magic and version bytes have their own messages, a damaged count or id may be caught
    // as a record; the rest by the checksum
    CPPUNIT_ASSERT_MESSAGE(std::to_string(checksum), checksum > positions.size() * 3 / 4);
    fs::remove_all(dir);
  }

  // Files with a valid checksum but wrong values: each refused with its reason.
  void testCraftedFiles() {
    auto a = makePile();
    run(*a, 30);
    const std::string dir = scratch("crafted");
    const std::string path = dir + "/pile.nsc";
    saveSceneCheckpoint(*a, path);
    const std::string bytes = slurp(path);
    const Layout L(bytes);
    CPPUNIT_ASSERT_EQUAL(a->bodies().size(), L.nb);
    CPPUNIT_ASSERT_EQUAL(a->memory().size(), L.nm);
    CPPUNIT_ASSERT_EQUAL(bytes.size(), L.memory + L.nm * Layout::kEntry + 8 + 8);  // flag, sum
    auto b = makePile();
    const Snapshot before(*b);
    const auto refused = [&](const std::string& what, const std::function<void(std::string&)>& edit,
                             const std::string& expected) {
      std::string d = bytes;
      edit(d);
      reseal(d);
      const std::string message = errorOf([&] { loadSceneCheckpointData(*b, d, path); });
      CPPUNIT_ASSERT_MESSAGE(what + ": accepted", !message.empty());
      CPPUNIT_ASSERT_MESSAGE(what + ": " + message, contains(message, expected));
      CPPUNIT_ASSERT_MESSAGE(what + ": " + message, contains(message, path));
      CPPUNIT_ASSERT_MESSAGE(what + ": engine changed", Snapshot(*b) == before);
    };
    // counts that cannot fit: refused before any allocation
    refused(
        "body count", [&](std::string& d) { put64(d, L.bodyCount, 1ULL << 60); }, "a count of");
    refused(
        "memory count", [&](std::string& d) { put64(d, L.memoryCount, ~0ULL); }, "a count of");
    refused(
        "item count", [&](std::string& d) { put64(d, 24, 1ULL << 40); }, "a count of");
    refused(
        "item name", [&](std::string& d) { put64(d, 32, 1ULL << 50); }, "a string of");
    refused(
        "trailing bytes", [&](std::string& d) { d.insert(d.size() - 8, 8, '\0'); },
        "after the last record");
    refused(
        "short count", [&](std::string& d) { put64(d, L.memoryCount, L.nm - 1); },
        "truncated or corrupted file");  // format 2: the last entry read as the run record
    refused(
        "format", [&](std::string& d) { d[8] = 3; }, "format 3");
    refused(
        "reserved", [&](std::string& d) { d[13] = 1; }, "reserved");
    // values
    refused(
        "fingerprint", [&](std::string& d) { put64(d, 16, get64(d, 16) ^ 1); },
        "digest of its items");
    refused(
        "steps", [&](std::string& d) { put64(d, L.steps, ~0ULL); }, "step count >= 0");
    refused(
        "time", [&](std::string& d) { putDouble(d, L.time, NAN); }, "finite time");
    refused(
        "time of another step", [&](std::string& d) { putDouble(d, L.time, 0.5); }, "t0 + steps h");
    refused(
        "quaternion", [&](std::string& d) { putDouble(d, L.body(5) + 16 + 3 * 8, 1.0 + 1e-6); },
        "unit quaternion");
    refused(
        "velocity", [&](std::string& d) { putDouble(d, L.body(7) + 16 + 9 * 8, INFINITY); },
        "finite velocity");
    refused(
        "position", [&](std::string& d) { putDouble(d, L.body(7) + 16, NAN); }, "finite position");
    refused(
        "negative id", [&](std::string& d) { put64(d, L.body(0), ~0ULL); }, "ids >= 0");
    refused(
        "repeated id", [&](std::string& d) { put64(d, L.body(4), get64(d, L.body(3))); },
        "strictly increasing");
    refused(
        "memory order",
        [&](std::string& d) {
          std::string first = d.substr(L.entry(0), Layout::kEntry);
          d.replace(L.entry(0), Layout::kEntry, d.substr(L.entry(1), Layout::kEntry));
          d.replace(L.entry(1), Layout::kEntry, first);
        },
        "sorted and distinct");
    refused(
        "memory pair",
        [&](std::string& d) {
          const std::uint64_t x = get64(d, L.entry(0)), y = get64(d, L.entry(0) + 8);
          put64(d, L.entry(0), y);
          put64(d, L.entry(0) + 8, x);
        },
        "lower body id first");
    refused(
        "memory body", [&](std::string& d) { put64(d, L.entry(L.nm - 1) + 8, 5000); },
        "bodies of the checkpoint");
    refused(
        "memory sub", [&](std::string& d) { put64(d, L.entry(L.nm - 1) + 16, 1ULL << 22); },
        "below 2^22");
    refused(
        "memory shape",
        [&](std::string& d) {
          put64(d, L.entry(L.nm - 1) + 16, get64(d, L.entry(L.nm - 1) + 16) | (5ULL << 16));
        },
        "shapes of the bodies");
    refused(
        "impulse", [&](std::string& d) { putDouble(d, L.entry(2) + 24, NAN); }, "finite impulses");
    // the engine: an id it does not have (the largest id moved further, in the memory too),
    // a static body moved
    refused(
        "unknown id",
        [&](std::string& d) {
          const std::uint64_t last = get64(d, L.body(L.nb - 1));
          put64(d, L.body(L.nb - 1), last + 100);
          for (std::size_t j = 0; j < L.nm; ++j)
            if (get64(d, L.entry(j) + 8) == last) put64(d, L.entry(j) + 8, last + 100);
        },
        "body ids of this scene");
    refused(
        "static pose", [&](std::string& d) { putDouble(d, L.body(0) + 16 + 2 * 8, -1.0); },
        "static");
    // the unchanged file is accepted
    loadSceneCheckpointData(*b, bytes, path);
    CPPUNIT_ASSERT(Snapshot(*a) == Snapshot(*b));
    fs::remove_all(dir);
  }

  // A checkpoint of another scene: refused, naming the fingerprints and what differs.
  void testOtherScene() {
    auto a = makePile();
    run(*a, 10);
    const std::string dir = scratch("other");
    const std::string path = dir + "/pile.nsc";
    saveSceneCheckpoint(*a, path);
    for (int change = 0; change < 4; ++change) {
      Pile p;
      std::string named;
      if (change == 0) {
        p.extraBody = true;
        named = "body count (51 in the checkpoint, 52 in this scene)";
      } else if (change == 1) {
        p.radius = 0.11;
        named =
            "(#1): static flag, group, mass, inertia, loads, shapes or static pose), body id 2 (";
      } else if (change == 2) {
        p.h = 0.004;
        named = "h (0.0050000000000000001 in the checkpoint, 0.0040000000000000001 in this scene)";
      } else {
        p.solver = "apgd";
        named = "solver";
      }
      auto b = makePile(p);
      const Snapshot before(*b);
      const std::string message = errorOf([&] { loadSceneCheckpoint(*b, path); });
      const std::string fingerprints = "another scene (fingerprint " + [&] {
        char s[24];
        std::snprintf(s, sizeof s, "%016llx",
                      static_cast<unsigned long long>(nsdyn::io::sceneFingerprint(*a)));
        return std::string(s);
      }() + ", this scene ";
      CPPUNIT_ASSERT_MESSAGE(message, contains(message, fingerprints));
      CPPUNIT_ASSERT_MESSAGE(message, contains(message, path));
      CPPUNIT_ASSERT_MESSAGE(message, contains(message, named));
      CPPUNIT_ASSERT(Snapshot(*b) == before);
    }
    fs::remove_all(dir);
  }

  void testMissingAndForeignFiles() {
    const std::string dir = scratch("missing");
    auto b = makePile();
    const std::string missing = dir + "/no-such.nsc";
    std::string message = errorOf([&] { loadSceneCheckpoint(*b, missing); });
    CPPUNIT_ASSERT_MESSAGE(message,
                           contains(message, missing) && contains(message, "a readable file"));
    const std::string other = dir + "/other.bin";
    spill(other, std::string("NSDYNCKP") + std::string(40, '\0'));
    message = errorOf([&] { loadSceneCheckpoint(*b, other); });
    CPPUNIT_ASSERT_MESSAGE(message,
                           contains(message, other) && contains(message, "nsdyn run --restart"));
    spill(other, "hello, world\n");
    message = errorOf([&] { loadSceneCheckpoint(*b, other); });
    CPPUNIT_ASSERT_MESSAGE(message, contains(message, "not one"));
    message = errorOf([&] { loadSceneCheckpoint(*b, dir); });  // a folder
    CPPUNIT_ASSERT_MESSAGE(message, contains(message, dir));
    fs::remove_all(dir);
  }

  // The file appears whole under its name or not at all; no temporary file is left.
  void testWriteIsAtomic() {
    const std::string dir = scratch("atomic");
    auto a = makePile();
    run(*a, 5);
    const std::string path = dir + "/pile.nsc";
    saveSceneCheckpoint(*a, path);
    CPPUNIT_ASSERT(!fs::exists(path + ".part"));
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), files);
    const std::string first = slurp(path);
    // saved again over it: replaced whole
    run(*a, 5);
    saveSceneCheckpoint(*a, path);
    CPPUNIT_ASSERT(!fs::exists(path + ".part"));
    const std::string second = slurp(path);
    CPPUNIT_ASSERT(first != second);
    CPPUNIT_ASSERT_EQUAL(10L, nsdyn::io::checkSceneCheckpointData(second, path).steps);
    // the same state saved twice: the same bytes
    saveSceneCheckpoint(*a, dir + "/again.nsc");
    CPPUNIT_ASSERT(second == slurp(dir + "/again.nsc"));
    // into a folder that does not exist: an error naming it, nothing written
    const std::string nowhere = dir + "/no/such/folder/pile.nsc";
    const std::string message = errorOf([&] { saveSceneCheckpoint(*a, nowhere); });
    CPPUNIT_ASSERT_MESSAGE(message, contains(message, nowhere));
    CPPUNIT_ASSERT(!fs::exists(dir + "/no"));
    fs::remove_all(dir);
  }

  void testSaveRefusals() {
    const std::string dir = scratch("refusals");
    const std::string path = dir + "/pile.nsc";
    auto a = makePile();
    run(*a, 3);
    a->bodies().v[6 * 4 + 1] = NAN;
    std::string message = errorOf([&] { saveSceneCheckpoint(*a, path); });
    CPPUNIT_ASSERT_MESSAGE(message,
                           contains(message, "finite state") && contains(message, "(#4): v = nan"));
    CPPUNIT_ASSERT(!fs::exists(path) && !fs::exists(path + ".part"));
    a->bodies().v[6 * 4 + 1] = 0.0;
    a->bodies().id[7] = a->bodies().id[8];
    message = errorOf([&] { saveSceneCheckpoint(*a, path); });
    CPPUNIT_ASSERT_MESSAGE(message, contains(message, "distinct global ids"));
    CPPUNIT_ASSERT(!fs::exists(path));
    auto split = makePile();
    split->setExchange(std::make_shared<TwoParts>());
    message = errorOf([&] { saveSceneCheckpoint(*split, path); });
    CPPUNIT_ASSERT_MESSAGE(message, contains(message, "one process"));
    split->initialize();  // distributed: its store no longer holds the whole scene
    message = errorOf([&] { loadSceneCheckpoint(*split, path); });
    CPPUNIT_ASSERT_MESSAGE(message, contains(message, "one process"));
    message = errorOf([&] { saveSceneCheckpoint(*makePile(), ""); });
    CPPUNIT_ASSERT_MESSAGE(message, contains(message, "empty path"));
    fs::remove_all(dir);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneCheckpointTest);
