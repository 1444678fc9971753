// Checkpoint and restart: a run interrupted and restarted from its
// checkpoint writes the same bytes as an uninterrupted run (binary and XML
// archives, one contact and ten contacts); broken checkpoints are refused.
#include <cppunit/extensions/HelperMacros.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "run_helpers.hpp"

using namespace nsdyn::test;
namespace fs = std::filesystem;

namespace {

std::string model(const std::string& name) {
  // the example twins, and the models of these tests (rigid bodies)
  const std::string test = std::string(NSDYN_SOURCE_DIR) + "/Tests/IO/models/" + name + ".xml";
  if (std::filesystem::exists(test)) return test;
  return kExamples + "/" + name + "/" + name + ".xml";
}

Run nsdynRun(const std::string& args) {
  return run("'" + kBin + "/nsdyn' run " + args + " --no-plot --quiet");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Run @p name whole, then interrupted after step @p stop with checkpoints every
// @p every steps, then restarted: the CSV files must be byte for byte the same.
void interruptAndRestart(const std::string& name, long every, long stop, const std::string& format,
                         const std::string& options = "") {
  const std::string dir = scratch(name + "-" + format + "-" + std::to_string(stop));
  const Run whole = nsdynRun("'" + model(name) + "' --output '" + dir + "/whole'" + options);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(whole.out, 0, whole.status);

  const std::string part = dir + "/part";
  const Run first = nsdynRun("'" + model(name) + "' --output '" + part + "' --checkpoint-every " +
                             std::to_string(every) + " --checkpoint-format " + format +
                             " --stop-after " + std::to_string(stop) + options);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(first.out, 0, first.status);
  CPPUNIT_ASSERT_MESSAGE("no results at an interruption", !fs::exists(part + "/" + name + ".csv"));
  const std::string checkpoint = part + "/" + name + ".checkpoint";
  CPPUNIT_ASSERT(fs::exists(checkpoint));
  if (format == "xml") CPPUNIT_ASSERT(readText(checkpoint).rfind("<?xml", 0) == 0);

  const Run second = nsdynRun("'" + model(name) + "' --output '" + part + "' --restart '" +
                              checkpoint + "'" + options);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(second.out, 0, second.status);
  const long saved = stop / every * every;
  CPPUNIT_ASSERT_MESSAGE(second.out, contains(second.out, "at step " + std::to_string(saved)));
  const std::string a = readText(dir + "/whole/" + name + ".csv"),
                    b = readText(part + "/" + name + ".csv");
  CPPUNIT_ASSERT(!a.empty());
  CPPUNIT_ASSERT_MESSAGE(name + ": restarted CSV differs from the uninterrupted one", a == b);
  if (options.find("--vtk") != std::string::npos) {
    // every VTK frame too, the ones recorded before the checkpoint included
    CPPUNIT_ASSERT(readText(dir + "/whole/" + name + ".pvd") ==
                   readText(part + "/" + name + ".pvd"));
    for (const auto& entry : fs::directory_iterator(dir + "/whole"))
      if (entry.path().extension() == ".vtp")
        CPPUNIT_ASSERT_MESSAGE(entry.path().filename().string(),
                               readText(entry.path().string()) ==
                                   readText(part + "/" + entry.path().filename().string()));
  }
  // the summary covers the whole run
  CPPUNIT_ASSERT_MESSAGE(
      second.out,
      contains(second.out,
               "steps:                   " +
                   std::to_string(readCsv(part + "/" + name + ".csv").rows.size() - 1)));
  fs::remove_all(dir);
}

// A checkpoint of BouncingBallTS at step 500, in @p dir.
std::string makeCheckpoint(const std::string& dir, const std::string& format) {
  const Run r = nsdynRun("'" + model("BouncingBallTS") + "' --output '" + dir +
                         "' --checkpoint-every 500 --stop-after 500 --checkpoint-format " + format);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
  return dir + "/BouncingBallTS.checkpoint";
}

void expectRefused(const std::string& checkpoint, const std::string& message,
                   const std::string& modelName = "BouncingBallTS") {
  const std::string out = fs::path(checkpoint).parent_path().string() + "/restart";
  const Run r =
      nsdynRun("'" + model(modelName) + "' --output '" + out + "' --restart '" + checkpoint + "'");
  CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
  CPPUNIT_ASSERT_MESSAGE("'" + message + "' not in: " + r.out, contains(r.out, message));
  CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, checkpoint));
  CPPUNIT_ASSERT(!fs::exists(out + "/" + modelName + ".csv"));
}

// BouncingBallTS.xml with @p from replaced by @p to, as DIR/BouncingBallTS.xml.
std::string editedModel(const std::string& dir, const std::string& from, const std::string& to) {
  std::string text = readText(model("BouncingBallTS"));
  const auto at = text.find(from);
  CPPUNIT_ASSERT_MESSAGE(from, at != std::string::npos);
  text.replace(at, from.size(), to);
  const std::string path = dir + "/BouncingBallTS.xml";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

Run restartWith(const std::string& modelPath, const std::string& checkpoint,
                const std::string& options = "") {
  return nsdynRun("'" + modelPath + "' --output '" + fs::path(checkpoint).parent_path().string() +
                  "/restart' --restart '" + checkpoint + "'" + options);
}

// The binary checkpoint's bytes with @p edit applied and the checksum (FNV-1a of
// the records between the 16-byte header and the 8-byte checksum) recomputed.
template <class F>
void editBinary(const std::string& cp, F edit) {
  std::string b = readText(cp);
  CPPUNIT_ASSERT(b.size() > 24 && b.compare(0, 8, "NSDYNCKP") == 0);
  edit(b);
  std::uint64_t h = 1469598103934665603ULL;
  for (std::size_t i = 16; i < b.size() - 8; ++i) {
    h ^= static_cast<unsigned char>(b[i]);
    h *= 1099511628211ULL;
  }
  for (int i = 0; i < 8; ++i) b[b.size() - 8 + i] = static_cast<char>(h >> (8 * i));
  std::ofstream(cp, std::ios::binary | std::ios::trunc) << b;
}

void put64(std::string& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<char>(v >> (8 * i));
}

// bytes of the records after the last table's pendingNext: frames count, 16 totals
constexpr std::size_t kTail = 8 + 16 * 8;

}  // namespace

class CheckpointTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CheckpointTest);
  CPPUNIT_TEST(bouncingBallBinary);
  CPPUNIT_TEST(bouncingBallXml);
  CPPUNIT_TEST(bouncingBallDuringContact);
  CPPUNIT_TEST(columnOfBeadsBinary);
  CPPUNIT_TEST(columnOfBeadsXml);
  CPPUNIT_TEST(impactingStickWithSums);
  CPPUNIT_TEST(rigidBallsBinary);
  CPPUNIT_TEST(rigidBallsXmlDuringContact);
  CPPUNIT_TEST(kneePendulumJoints);
  CPPUNIT_TEST(projectedBodies);
  CPPUNIT_TEST(truncatedCheckpoint);
  CPPUNIT_TEST(corruptedCheckpoint);
  CPPUNIT_TEST(corruptedXmlCheckpoint);
  CPPUNIT_TEST(notACheckpoint);
  CPPUNIT_TEST(checkpointOfAnotherModel);
  CPPUNIT_TEST(sameModelReformatted);
  CPPUNIT_TEST(changedStepRefused);
  CPPUNIT_TEST(changedGravityRefused);
  CPPUNIT_TEST(changedSolverRefused);
  CPPUNIT_TEST(forceRestartAccepted);
  CPPUNIT_TEST(forceRestartNeedsRestart);
  CPPUNIT_TEST(boolByteRefused);
  CPPUNIT_TEST(statusEnumRefused);
  CPPUNIT_TEST(hugeCountRefused);
  CPPUNIT_TEST(hugeXmlCountRefused);
  CPPUNIT_TEST(olderBoostArchivesRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  void bouncingBallBinary() { interruptAndRestart("BouncingBallTS", 700, 1000, "binary"); }
  void bouncingBallXml() { interruptAndRestart("BouncingBallTS", 300, 1234, "xml"); }
  // step 92: the ball is on the floor (first impact at t = 0.455)
  void bouncingBallDuringContact() { interruptAndRestart("BouncingBallTS", 1, 92, "binary"); }
  void columnOfBeadsBinary() { interruptAndRestart("ColumnOfBeadsTS", 1500, 2100, "binary"); }
  void columnOfBeadsXml() { interruptAndRestart("ColumnOfBeadsTS", 777, 3000, "xml"); }
  // running sums, a nonlinear relation and friction
  void impactingStickWithSums() { interruptAndRestart("ImpactingStick", 250, 1100, "binary"); }
  // rigid bodies (Tests/IO/models): Newton iterations, 3D friction, a
  // prescribed velocity, a moment of t, running sums, the VTK frames
  void rigidBallsBinary() { interruptAndRestart("RigidBalls", 100, 250, "binary", " --vtk"); }
  // step 330: the ball rolls on the floor with friction, the rider is on its plane
  void rigidBallsXmlDuringContact() { interruptAndRestart("RigidBalls", 1, 330, "xml"); }
  // joints (knee, pivot) and an impact on a NewtonEulerR floor, MLCP
  void kneePendulumJoints() { interruptAndRestart("KneePendulum", 200, 500, "binary"); }
  // TimeSteppingDirectProjection: hysteresis of the active set, projections
  void projectedBodies() { interruptAndRestart("ProjectedBodies", 7, 380, "binary"); }

  void truncatedCheckpoint() {
    const std::string dir = scratch("truncated");
    const std::string cp = makeCheckpoint(dir, "binary");
    fs::resize_file(cp, fs::file_size(cp) / 2);
    expectRefused(cp, "a truncated or corrupted file");
    fs::remove_all(dir);
  }

  void corruptedCheckpoint() {
    const std::string dir = scratch("corrupted");
    const std::string cp = makeCheckpoint(dir, "binary");
    // flip the bits of one byte in the last quarter (the recorded rows)
    std::fstream f(cp, std::ios::in | std::ios::out | std::ios::binary);
    const auto at = static_cast<std::streamoff>(fs::file_size(cp) * 3 / 4);
    f.seekg(at);
    char c = 0;
    f.get(c);
    f.seekp(at);
    f.put(static_cast<char>(~c));
    f.close();
    expectRefused(cp, "corrupted");
    fs::remove_all(dir);
  }

  void corruptedXmlCheckpoint() {
    const std::string dir = scratch("corrupted-xml");
    const std::string cp = makeCheckpoint(dir, "xml");
    std::string text = readText(cp);
    const auto at = text.find("<step>500</step>");
    CPPUNIT_ASSERT(at != std::string::npos);
    text.replace(at, 16, "<step>400</step>");
    { std::ofstream(cp, std::ios::binary) << text; }
    expectRefused(cp, "a corrupted file (checksum differs)");
    fs::remove_all(dir);
  }

  void notACheckpoint() {
    const std::string dir = scratch("not-a-checkpoint");
    const std::string cp = dir + "/model.checkpoint";
    fs::copy_file(model("BouncingBallTS"), cp);
    expectRefused(cp, "a file that is not one");
    fs::remove_all(dir);
  }

  void checkpointOfAnotherModel() {
    const std::string dir = scratch("other-model");
    const std::string cp = makeCheckpoint(dir, "binary");
    expectRefused(cp, "expected a checkpoint of model 'ColumnOfBeadsTS'", "ColumnOfBeadsTS");
    fs::remove_all(dir);
  }
  // the fingerprint ignores comments and layout: the same model restarts
  void sameModelReformatted() {
    const std::string dir = scratch("fp-same");
    const std::string cp = makeCheckpoint(dir, "binary");
    const std::string m =
        editedModel(dir, "<parameters>", "<!-- a new comment -->\n  <parameters>  ");
    const Run r = restartWith(m, cp);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "at step 500"));
    fs::remove_all(dir);
  }

  // time would run backwards: refused, naming h
  void changedStepRefused() {
    const std::string dir = scratch("fp-h");
    const std::string cp = makeCheckpoint(dir, "binary");
    const std::string m = editedModel(dir, "h=\"0.005\"", "h=\"0.004\"");
    const Run r = restartWith(m, cp);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out,
                           contains(r.out, "differs from the one that wrote the checkpoint"));
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "(h, steps, simulation"));
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, cp));
    CPPUNIT_ASSERT(!fs::exists(dir + "/restart/BouncingBallTS.csv"));
    fs::remove_all(dir);
  }

  void changedGravityRefused() {
    const std::string dir = scratch("fp-g");
    const std::string cp = makeCheckpoint(dir, "xml");
    const std::string m = editedModel(dir, "value=\"9.81\"", "value=\"9.80665\"");
    const Run r = restartWith(m, cp);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "(parameters/g)"));
    fs::remove_all(dir);
  }

  void changedSolverRefused() {
    const std::string dir = scratch("fp-solver");
    const std::string cp = makeCheckpoint(dir, "binary");
    const std::string m = editedModel(dir, "theta=\"0.5\"", "theta=\"0.6\"");
    const Run r = restartWith(m, cp);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "(simulation/MoreauJeanOSI)"));
    fs::remove_all(dir);
  }

  void forceRestartAccepted() {
    const std::string dir = scratch("fp-force");
    const std::string cp = makeCheckpoint(dir, "binary");
    const std::string m = editedModel(dir, "value=\"9.81\"", "value=\"9.5\"");
    const Run r = restartWith(m, cp, " --force-restart");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "warning: --force-restart"));
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "parameters/g"));
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "at step 500"));
    CPPUNIT_ASSERT(fs::exists(dir + "/restart/BouncingBallTS.csv"));
    fs::remove_all(dir);
  }

  void forceRestartNeedsRestart() {
    const Run r = nsdynRun("'" + model("BouncingBallTS") + "' --force-restart");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 2, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "--force-restart needs --restart"));
  }

  // the pendingNext bool of the last output: 2, checksum valid
  void boolByteRefused() {
    const std::string dir = scratch("bad-bool");
    const std::string cp = makeCheckpoint(dir, "binary");
    editBinary(cp, [](std::string& b) { b[b.size() - 8 - kTail - 1] = 2; });
    expectRefused(cp, "pendingNext: a bool that is neither 0 nor 1");
    fs::remove_all(dir);
  }

  // the solver status of the last step's statistics: 7, checksum valid
  void statusEnumRefused() {
    const std::string dir = scratch("bad-enum");
    const std::string cp = makeCheckpoint(dir, "binary");
    editBinary(cp, [](std::string& b) {
      const auto at = b.find(std::string("\x05\0\0\0\0\0\0\0lemke", 13));
      CPPUNIT_ASSERT(at != std::string::npos);
      put64(b, at - 32, 7);  // status, iterations, residual, seconds, then the solver
    });
    expectRefused(cp, "status 7 out of [0, 3]");
    fs::remove_all(dir);
  }

  // 2^28 VTK frames announced in a small file: refused before any allocation
  void hugeCountRefused() {
    const std::string dir = scratch("bad-count");
    const std::string cp = makeCheckpoint(dir, "binary");
    editBinary(cp, [](std::string& b) { put64(b, b.size() - 8 - kTail, 1ULL << 28); });
    expectRefused(cp, "a count of 268435456 elements");
    fs::remove_all(dir);
  }

  void hugeXmlCountRefused() {
    const std::string dir = scratch("bad-xml-count");
    const std::string cp = makeCheckpoint(dir, "xml");
    std::string text = readText(cp);
    const auto at = text.find("<frames>0</frames>");
    CPPUNIT_ASSERT(at != std::string::npos);
    text.replace(at, 18, "<frames>18446744073709551615</frames>");
    { std::ofstream(cp, std::ios::binary) << text; }
    expectRefused(cp, "a count of 18446744073709551615 elements");
    fs::remove_all(dir);
  }

  // the fuzzers' checkpoints of ../shared/fuzz-findings (Boost archives of format 2)
  void olderBoostArchivesRefused() {
    const fs::path findings = fs::path(NSDYN_SOURCE_DIR) / ".." / "shared" / "fuzz-findings";
    if (!fs::exists(findings)) return;
    int seen = 0;
    for (const auto& folder : fs::directory_iterator(findings)) {
      if (!folder.is_directory()) continue;
      for (const auto& f : fs::directory_iterator(folder.path()))
        if (f.path().extension() == ".checkpoint") {
          const std::string dir = scratch("finding-" + std::to_string(seen++));
          const std::string cp = dir + "/" + f.path().filename().string();
          fs::copy_file(f.path(), cp);
          expectRefused(cp, "a Boost.Serialization archive of an older nsdyn");
          fs::remove_all(dir);
        }
    }
    CPPUNIT_ASSERT(seen >= 6);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CheckpointTest);
