// MPI test of the files of a SceneEngine distributed by MpiSceneExchange, through
// nsdyn::parallel::MpiSceneParts (io::SceneParts over MPI): frames gathered on rank 0 for the
// scene writers, checkpoints over ranks and restarts, run by ctest under mpirun -np 1, 2, 3.
// The scene: the mixed pile of mixed_pile.hpp (144 bodies of five kinds in a box of
// half-spaces), apgd to 1e-11, h = 1e-3.
//   test_parallel_scene_files check [dir]
//     (a) 50 steps on the ranks, each from the state of a one-process engine on rank 0 (so that
//         round-off does not grow: the pile is chaotic), every body migrating after each step
//         (skin 0: the contacts of a step index the store before migration): every 5 steps
//         and before the first one, the frame gathered on rank 0 has the bodies and ids of the
//         one-process frame, positions within 1e-8, the same contacts (keys, order, active
//         flags; gaps within 1e-8);
//     (b) those frames written by SceneVtkWriter and SceneHdf5Writer on rank 0: the files
//         exist, the HDF5 row counts are those of the frames, and the rows are those of the
//         same writers fed by the one-process engine (values within 1e-8; one rank: the same
//         bytes);
//     (c) a free run of 50 steps on the ranks (repartition every 25 steps), checkpoint at step
//         25 (collective): the file has every body once and the memory of every rank; loaded
//         into a one-process engine and saved again, the same bytes; restarted on the same
//         ranks, the final state is the run's bit for bit; restarted on one process (rank 0),
//         within 1e-8 m of the run over the 10 steps after the restart (kCompared), and on one
//         rank the run's bits at the end;
//     (d) bad input: a checkpoint of another scene, a file missing on the last rank only, a
//         non-finite velocity on the last rank's bodies: every rank throws the same
//         nsdyn::Error naming the file, no engine changed, no file left.
//   test_parallel_scene_files bad other-scene [dir]
//     a checkpoint of the pile loaded into another scene: every rank fails, rank 0 prints why.
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "mixed_pile.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/io/SceneCheckpoint.hpp"
#include "nsdyn/io/SceneFrameView.hpp"
#include "nsdyn/io/SceneHdf5Writer.hpp"
#include "nsdyn/io/SceneVtkWriter.hpp"
#include "nsdyn/nsd_options.h"
#include "nsdyn/parallel/Collective.hpp"
#include "nsdyn/parallel/MpiSceneExchange.hpp"
#include "nsdyn/parallel/MpiSceneParts.hpp"

namespace fs = std::filesystem;
using nsdyn::SceneEngine;
using nsdyn::io::SceneFrameView;
using nsdyn::parallel::MpiSceneExchange;
using nsdyn::parallel::MpiSceneParts;
using nsdyn::test::parallel::buildPile;
using nsdyn::test::parallel::takeWholeState;

namespace {

int g_rank = 0, g_size = 1, g_failures = 0;
constexpr int kSteps = 50, kSaveAt = 25, kFrameEvery = 5;
// Steps after the restart on one process compared with the run within kTolerance. One process
// and N ranks solve each step to the solver's tolerance (1e-11) along other float sequences:
// their answers part at that level, which the pile amplifies (here about 5e-8 m at step 46,
// with the same contacts, after APGD stopped at another iteration); the checkpoint itself is
// checked bit for bit (restart on the same ranks, one-process save of the same state).
constexpr int kCompared = 10;
constexpr double kTolerance = 1e-8;

void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL (rank %d): %s\n", g_rank, what.c_str());
    ++g_failures;
  }
}

SceneEngine::Options engineOptions() {
  SceneEngine::Options o;
  o.h = 1e-3;
  o.solver = "apgd";
  nsd_solver_options_default(&o.solverOptions);
  o.solverOptions.tolerance = 1e-11;
  o.solverOptions.max_iterations = 200000;
  o.contacts.detection.threads = 1;
  // compared with one process: the overlap recovery runs on one process only
  o.recovery.enabled = false;
  return o;
}

/// The pile with an exchange over MPI_COMM_WORLD (@p skin, repartition every @p rebalance).
struct Distributed {
  std::unique_ptr<SceneEngine> engine;
  std::shared_ptr<MpiSceneExchange> exchange;
  std::unique_ptr<MpiSceneParts> parts;
};

Distributed distributedPile(double skin, int rebalance, bool extra = false) {
  Distributed d;
  d.engine = std::make_unique<SceneEngine>(engineOptions());
  buildPile(*d.engine, extra);
  MpiSceneExchange::Options xo;
  xo.skin = skin;
  xo.rebalanceEvery = rebalance;
  d.exchange = std::make_shared<MpiSceneExchange>(MPI_COMM_WORLD, xo);
  d.engine->setExchange(d.exchange);
  d.parts = std::make_unique<MpiSceneParts>(*d.exchange);
  return d;
}

std::unique_ptr<SceneEngine> singlePile() {
  auto e = std::make_unique<SceneEngine>(engineOptions());
  buildPile(*e, false);
  return e;
}

/// (a) The gathered frame @p f against the one-process frame @p s (rank 0).
void compareFrames(const SceneFrameView& f, const SceneFrameView& s, const std::string& when) {
  check(f.part == 0 && f.parts == 1 && f.ghost == nullptr, when + ": a frame of one part");
  check(f.bodyCount == s.bodyCount, when + ": " + std::to_string(f.bodyCount) +
                                        " bodies gathered, " + std::to_string(s.bodyCount) +
                                        " in one process");
  if (f.bodyCount != s.bodyCount) return;
  double dx = 0.0, dv = 0.0;
  for (std::size_t b = 0; b < f.bodyCount; ++b) {
    check(f.id[b] == s.id[b] && f.isStatic[b] == s.isStatic[b],
          when + ": body " + std::to_string(b) + " has id " + std::to_string(f.id[b]) + ", " +
              std::to_string(s.id[b]) + " expected");
    const nsdyn::Shape& fs = *f.firstShape(b).shape;
    const nsdyn::Shape& ss = *s.firstShape(b).shape;
    check(f.shapeStart[b + 1] - f.shapeStart[b] == s.shapeStart[b + 1] - s.shapeStart[b] &&
              fs.kind() == ss.kind() && fs.characteristicSize() == ss.characteristicSize(),
          when + ": the shapes of body " + std::to_string(b));
    for (std::size_t i = 0; i < 7; ++i)
      dx = std::max(dx, std::fabs(f.q[7 * b + i] - s.q[7 * b + i]));
    for (std::size_t i = 0; i < 6; ++i)
      dv = std::max(dv, std::fabs(f.velocity[6 * b + i] - s.velocity[6 * b + i]));
  }
  check(dx <= kTolerance, when + ": positions differ by " + std::to_string(dx));
  check(dv <= 1e-6, when + ": velocities differ by " + std::to_string(dv));
  check(f.contactCount == s.contactCount, when + ": " + std::to_string(f.contactCount) +
                                              " contacts gathered, " +
                                              std::to_string(s.contactCount) + " in one process");
  check(f.contactCount == 0 || (f.key && f.mu && f.contactVelocity),
        when + ": keys, mu and velocities of the contacts gathered");
  if (f.contactCount != s.contactCount || !f.key) return;
  double dg = 0.0;
  for (std::size_t c = 0; c < f.contactCount; ++c) {
    const bool same = f.key[c] == s.key[c] && (f.active[c] != 0) == (s.active[c] != 0) &&
                      f.id[f.bodyA[c]] == s.id[s.bodyA[c]] && f.id[f.bodyB[c]] == s.id[s.bodyB[c]];
    check(same, when + ": contact " + std::to_string(c) + " differs (key, active or bodies)");
    if (!same) return;
    dg = std::max(dg, std::fabs(f.gap[c] - s.gap[c]));
    dg = std::max(dg, std::fabs(f.mu[c] - s.mu[c]));
  }
  check(dg <= kTolerance, when + ": contact gaps differ by " + std::to_string(dg));
}

std::size_t activeCount(const SceneFrameView& f) {
  std::size_t n = 0;
  for (std::size_t c = 0; c < f.contactCount; ++c) n += f.active[c] ? 1 : 0;
  return n;
}

std::string readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

/// (b) Rows of @p name in @p a and @p b: the same count, values within 1e-8, ids the same.
void compareRows(const std::string& a, const std::string& b, const std::string& name,
                 std::size_t rows) {
  const auto x = nsdyn::io::readSceneHdf5Dataset(a, name);
  const auto y = nsdyn::io::readSceneHdf5Dataset(b, name);
  check(x.size() == rows && y.size() == rows, name + ": " + std::to_string(x.size()) + " and " +
                                                  std::to_string(y.size()) + " rows, " +
                                                  std::to_string(rows) + " expected");
  double d = 0.0;
  for (std::size_t r = 0; r < std::min(x.size(), y.size()); ++r) {
    check(x[r].size() == y[r].size(), name + ": rows of different widths");
    for (std::size_t i = 0; i < std::min(x[r].size(), y[r].size()); ++i)
      d = std::max(d, std::fabs(x[r][i] - y[r][i]));
  }
  check(d <= kTolerance, name + ": values differ by " + std::to_string(d));
}

/// The same string on every rank.
bool sameOnEveryRank(const std::string& s) {
  int length = static_cast<int>(s.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string first = g_rank == 0 ? s : std::string(static_cast<std::size_t>(length), '\0');
  MPI_Bcast(first.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  int same = first == s ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return same == 1;
}

/// The message of what @p f throws ("" when nothing).
template <class F>
std::string errorOf(F&& f) {
  try {
    f();
  } catch (const nsdyn::Error& e) {
    return e.what();
  }
  return "";
}

/// The owned dynamic states (q then v, 13 per body) of a distributed engine, sorted by id, on
/// rank 0 (gathered through @p parts).
std::vector<double> finalState(SceneEngine& engine, MpiSceneParts& parts) {
  const SceneFrameView* f = parts.gather(engine.bodies(), engine.contacts());
  std::vector<double> state;
  if (!f) return state;
  for (std::size_t b = 0; b < f->bodyCount; ++b) {
    if (f->isStaticBody(b)) continue;
    state.insert(state.end(), f->q + 7 * b, f->q + 7 * b + 7);
    state.insert(state.end(), f->velocity + 6 * b, f->velocity + 6 * b + 6);
  }
  return state;
}

std::vector<double> singleState(const SceneEngine& engine) {
  const SceneFrameView f = SceneFrameView::of(engine.bodies(), engine.contacts());
  std::vector<double> state;
  for (std::size_t b = 0; b < f.bodyCount; ++b) {
    if (f.isStaticBody(b)) continue;
    state.insert(state.end(), f.q + 7 * b, f.q + 7 * b + 7);
    state.insert(state.end(), f.velocity + 6 * b, f.velocity + 6 * b + 6);
  }
  return state;
}

double positionDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = a.size() == b.size() ? 0.0 : INFINITY;
  for (std::size_t k = 0; k + 13 <= a.size() && k + 13 <= b.size(); k += 13)
    for (std::size_t i = 0; i < 7; ++i) d = std::max(d, std::fabs(a[k + i] - b[k + i]));
  return d;
}

// ---------------------------------------------------------------- (a), (b)

void framesAndWriters(const std::string& dir) {
  Distributed d = distributedPile(0.0, 0);  // skin 0: every body migrates after every step
  std::unique_ptr<SceneEngine> single;
  std::unique_ptr<nsdyn::io::SceneVtkWriter> vtk, vtkSingle;
  std::unique_ptr<nsdyn::io::SceneHdf5Writer> h5, h5Single;
  const double h = engineOptions().h;
  if (g_rank == 0) {
    single = singlePile();
    vtk = std::make_unique<nsdyn::io::SceneVtkWriter>(dir + "/vtk", "pile");
    vtkSingle = std::make_unique<nsdyn::io::SceneVtkWriter>(dir + "/vtk1", "pile");
    h5 = std::make_unique<nsdyn::io::SceneHdf5Writer>(dir + "/pile.h5", h);
    h5Single = std::make_unique<nsdyn::io::SceneHdf5Writer>(dir + "/pile1.h5", h);
  }
  const std::size_t n = d.engine->bodies().size();
  std::size_t frames = 0, cf = 0, contacts = 0;
  for (int step = 0; step <= kSteps; ++step) {
    if (step > 0) {
      if (step > 1) takeWholeState(*d.engine, single.get(), n, g_rank);
      d.engine->step();
      if (single) single->step();
    }
    if (step % kFrameEvery != 0) continue;
    // step 0: before the first step, every rank holds the whole scene (each body once); the
    // overload taking a view (its contacts index the store: safe before the first step only)
    const SceneFrameView* f = nullptr;
    SceneFrameView local;
    if (step == 0) {
      local = SceneFrameView::of(d.engine->bodies(), d.engine->contacts());
      f = d.parts->gather(local);
    } else {
      f = d.parts->gather(d.engine->bodies(), d.engine->contacts());
    }
    check((f != nullptr) == (g_rank == 0), "a frame on rank 0 alone");
    if (!f) continue;
    const SceneFrameView s = SceneFrameView::of(single->bodies(), single->contacts());
    compareFrames(*f, s, "step " + std::to_string(step));
    vtk->writeFrame(d.engine->time(), h, *f);
    vtkSingle->writeFrame(single->time(), h, s);
    h5->writeStep(d.engine->time(), *f);
    h5Single->writeStep(single->time(), s);
    ++frames;
    cf += activeCount(*f);
    contacts = std::max(contacts, f->contactCount);
  }
  if (g_rank != 0) return;
  check(d.exchange->statistics().migrations >= static_cast<std::size_t>(kSteps) - 1 || g_size == 1,
        "bodies migrated after every step");
  // (b) the files
  vtk->finish();
  vtkSingle->finish();
  h5->close();
  h5Single->close();
  check(vtk->files().size() == 2 * frames + 2, "VTK: " + std::to_string(vtk->files().size()) +
                                                   " files written, " +
                                                   std::to_string(2 * frames + 2) + " expected");
  for (const std::string& file : vtk->files()) check(fs::exists(file), "VTK: no " + file);
  check(fs::exists(dir + "/pile.h5"), "no HDF5 file");
  const std::size_t dynamic = 144, statics = 5;
  compareRows(dir + "/pile.h5", dir + "/pile1.h5", "data/dynamic", frames * dynamic);
  compareRows(dir + "/pile.h5", dir + "/pile1.h5", "data/velocities", frames * dynamic);
  compareRows(dir + "/pile.h5", dir + "/pile1.h5", "data/static", statics);
  compareRows(dir + "/pile.h5", dir + "/pile1.h5", "data/cf", cf);
  check(cf > 0, "active contacts written");
  if (g_size == 1) {  // one rank: the one-process files, byte for byte
    for (std::size_t k = 0; k < vtk->files().size(); ++k) {
      const std::string other = vtkSingle->files()[k];
      check(readBytes(vtk->files()[k]) == readBytes(other),
            "one rank: " + vtk->files()[k] + " differs from " + other);
    }
  }
  std::printf(
      "(a, b) %zu frames gathered on %d rank(s), %zu contacts at most, %zu cf rows, %zu "
      "migrations\n",
      frames, g_size, contacts, cf, d.exchange->statistics().migrations);
}

// ---------------------------------------------------------------- (c), (d)

void checkpoints(const std::string& dir) {
  const std::string path = dir + "/pile.nsc";
  // the run: 50 steps, the checkpoint at step 25 (a repartition step: a restart partitions
  // the same way)
  Distributed run = distributedPile(-1.0, kSaveAt);
  std::size_t memory = 0;
  std::vector<std::vector<double>> states;  // rank 0: the run's states after the save
  for (int step = 1; step <= kSteps; ++step) {
    run.engine->step();
    if (step > kSaveAt) states.push_back(finalState(*run.engine, *run.parts));
    if (step != kSaveAt) continue;
    nsdyn::io::saveSceneCheckpoint(*run.engine, path, *run.parts);
    long long m = static_cast<long long>(run.engine->memory().size());
    MPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    memory = static_cast<std::size_t>(m);
  }
  const std::vector<double> reference = states.back();
  const std::size_t migrations = run.exchange->statistics().migrations;

  // the file: every body once, every rank's memory; a one-process engine loads it and saves
  // the same bytes
  if (g_rank == 0) {
    check(fs::exists(path) && !fs::exists(path + ".part"), "the checkpoint " + path);
    const nsdyn::io::SceneCheckpointInfo info =
        nsdyn::io::checkSceneCheckpointData(readBytes(path), path);
    check(info.bodies == 149 && info.steps == kSaveAt && info.contacts == memory && memory > 0,
          "checkpoint: " + std::to_string(info.bodies) + " bodies, step " +
              std::to_string(info.steps) + ", " + std::to_string(info.contacts) +
              " memory entries (149, 25, " + std::to_string(memory) + " expected)");
    auto single = singlePile();
    nsdyn::io::loadSceneCheckpoint(*single, path);
    check(single->steps() == kSaveAt, "one process: the clock of the checkpoint");
    nsdyn::io::saveSceneCheckpoint(*single, dir + "/again.nsc");
    check(readBytes(dir + "/again.nsc") == readBytes(path),
          "one process saves other bytes from the state of the checkpoint of " +
              std::to_string(g_size) + " ranks");
  }

  // restart on the same ranks: loaded into the whole scene before the first step
  Distributed again = distributedPile(-1.0, kSaveAt);
  nsdyn::io::loadSceneCheckpoint(*again.engine, path, *again.parts);
  check(again.engine->steps() == kSaveAt && again.engine->memory().size() == memory,
        "restart: the clock and the memory loaded");
  for (int step = kSaveAt + 1; step <= kSteps; ++step) again.engine->step();
  check(again.engine->steps() == kSteps, "restart: the clock");
  const std::vector<double> restarted = finalState(*again.engine, *again.parts);
  if (g_rank == 0)
    check(
        restarted.size() == reference.size() &&
            std::memcmp(restarted.data(), reference.data(), reference.size() * sizeof(double)) == 0,
        "restart on " + std::to_string(g_size) + " ranks: other bits than the run (max |dx| " +
            std::to_string(positionDifference(restarted, reference)) + ")");

  // the same load, one part at a time (each loads the whole scene before the first step):
  // initialize() then gives each rank its share of the memory, the clock stays
  Distributed plain = distributedPile(-1.0, kSaveAt);
  nsdyn::io::loadSceneCheckpoint(*plain.engine, path);
  plain.engine->initialize();
  long long share = static_cast<long long>(plain.engine->memory().size());
  MPI_Allreduce(MPI_IN_PLACE, &share, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  check(plain.engine->steps() == kSaveAt && static_cast<std::size_t>(share) == memory,
        "load then initialize: the clock " + std::to_string(plain.engine->steps()) + ", " +
            std::to_string(share) + " memory entries over the ranks (" + std::to_string(memory) +
            " expected)");

  // restart on one process
  double dx1 = 0.0, dxCompared = 0.0;
  if (g_rank == 0) {
    auto single = singlePile();
    nsdyn::io::loadSceneCheckpoint(*single, path);
    for (int step = kSaveAt + 1; step <= kSteps; ++step) {
      single->step();
      const double dx = positionDifference(singleState(*single),
                                           states[static_cast<std::size_t>(step - kSaveAt - 1)]);
      if (step <= kSaveAt + kCompared)
        check(dx <= kTolerance, "restart on one process: positions differ from the run by " +
                                    std::to_string(dx) + " m at step " + std::to_string(step));
      dx1 = std::max(dx1, dx);
      if (step == kSaveAt + kCompared) dxCompared = dx1;
    }
    if (g_size == 1)
      check(singleState(*single) == reference, "one rank: the restart on one process differs");
  }

  // (d) another scene: every rank refuses it with the same message, naming the file
  Distributed other = distributedPile(-1.0, kSaveAt, true);
  std::string message =
      errorOf([&] { nsdyn::io::loadSceneCheckpoint(*other.engine, path, *other.parts); });
  check(
      message.find(path) != std::string::npos && message.find("another scene") != std::string::npos,
      "another scene: " + message);
  check(sameOnEveryRank(message), "another scene: not the same message on every rank");
  check(other.engine->steps() == 0 && other.engine->memory().size() == 0,
        "another scene: the engine changed");
  // a file missing on the last rank only: every rank throws its error, no engine changed
  Distributed missing = distributedPile(-1.0, kSaveAt);
  const std::string mine = g_rank == g_size - 1 ? dir + "/missing.nsc" : path;
  message = errorOf([&] { nsdyn::io::loadSceneCheckpoint(*missing.engine, mine, *missing.parts); });
  check(message.find(dir + "/missing.nsc") != std::string::npos &&
            message.find("a readable file") != std::string::npos,
        "a missing file: " + message);
  check(sameOnEveryRank(message), "a missing file: not the same message on every rank");
  check(missing.engine->steps() == 0, "a missing file: an engine changed");
  // a non-finite state on the last rank's bodies: the same error, no file
  nsdyn::BodyStore& store = again.engine->bodies();
  std::size_t spoiled = store.size();
  if (g_rank == g_size - 1)
    for (std::size_t b = 0; b < store.size() && spoiled == store.size(); ++b)
      if (!store.isStatic[b] && !store.ghost[b]) spoiled = b;
  const double keep = spoiled < store.size() ? store.v[6 * spoiled + 2] : 0.0;
  if (spoiled < store.size()) store.v[6 * spoiled + 2] = NAN;
  const std::string bad = dir + "/bad.nsc";
  message = errorOf([&] { nsdyn::io::saveSceneCheckpoint(*again.engine, bad, *again.parts); });
  check(message.find(bad) != std::string::npos && message.find("finite state") != std::string::npos,
        "a non-finite state: " + message);
  check(sameOnEveryRank(message), "a non-finite state: not the same message on every rank");
  if (g_rank == 0) check(!fs::exists(bad) && !fs::exists(bad + ".part"), "a file left: " + bad);
  if (spoiled < store.size()) store.v[6 * spoiled + 2] = keep;

  if (g_rank == 0)
    std::printf(
        "(c, d) checkpoint at step %d of %d ranks: %zu memory entries, %zu migrations in "
        "the run; restart on %d ranks bit for bit, on one process max |dx| %.3e m over %d "
        "steps, %.3e m over %d\n",
        kSaveAt, g_size, memory, migrations, g_size, dxCompared, kCompared, dx1, kSteps - kSaveAt);
}

int runBadOtherScene(const std::string& dir) {
  const std::string path = dir + "/bad_other_scene.nsc";
  Distributed run = distributedPile(-1.0, 0);
  for (int step = 0; step < 3; ++step) run.engine->step();
  nsdyn::io::saveSceneCheckpoint(*run.engine, path, *run.parts);
  Distributed other = distributedPile(-1.0, 0, true);
  nsdyn::io::loadSceneCheckpoint(*other.engine, path, *other.parts);  // throws on every rank
  return 0;
}

int finish(int rc) {
  int failures = g_failures;
  MPI_Allreduce(MPI_IN_PLACE, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return rc != 0 ? rc : (failures > 0 ? 1 : 0);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const std::string mode = argc > 1 ? argv[1] : "check";
  int rc = 0;
  try {
    if (mode == "check") {
      const std::string dir = argc > 2 ? argv[2] : "scene_files_np" + std::to_string(g_size);
      if (g_rank == 0) {
        fs::remove_all(dir);
        fs::create_directories(dir);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      framesAndWriters(dir);
      checkpoints(dir);
      rc = finish(0);
      if (rc == 0 && g_rank == 0) fs::remove_all(dir);
    } else if (mode == "bad" && argc > 2 && std::string(argv[2]) == "other-scene") {
      const std::string dir = argc > 3 ? argv[3] : "scene_files_bad_np" + std::to_string(g_size);
      if (g_rank == 0) fs::create_directories(dir);
      MPI_Barrier(MPI_COMM_WORLD);
      rc = runBadOtherScene(dir);
    } else {
      if (g_rank == 0)
        std::fprintf(stderr,
                     "usage: test_parallel_scene_files check [dir] | bad other-scene [dir]\n");
      rc = 2;
    }
  } catch (const std::exception& e) {
    rc = nsdyn::parallel::reportError(MPI_COMM_WORLD, e);
  }
  MPI_Finalize();
  return rc;
}
