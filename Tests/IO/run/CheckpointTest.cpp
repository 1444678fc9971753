// Checkpoint and restart: a run interrupted and restarted from its
// checkpoint writes the same bytes as an uninterrupted run (binary and XML
// archives, one contact and ten contacts); broken checkpoints are refused.
#include <cppunit/extensions/HelperMacros.h>

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
    expectRefused(cp, "a truncated or corrupted file");
    fs::remove_all(dir);
  }

  void checkpointOfAnotherModel() {
    const std::string dir = scratch("other-model");
    const std::string cp = makeCheckpoint(dir, "binary");
    expectRefused(cp, "expected a checkpoint of model 'ColumnOfBeadsTS'", "ColumnOfBeadsTS");
    fs::remove_all(dir);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CheckpointTest);
