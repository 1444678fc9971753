// Issue 23 ("Reliability II"), the rows about writing results: `nsdyn run` on a full disk
// (a real one: a file-size limit, EFBIG inside libhdf5; and the write-failure hook
// NSDYN_FAIL_WRITE_AT of IO/include/nsdyn/io/WriteFault.hpp), a step that throws, the
// frame spool of a scene run with --vtk, and the sweep: every write operation of a small
// scene run and of a small non-scene run made to fail in turn (as the allocation sweep does
// for malloc): exit 4, no crash, no partial file under a final name, the last checkpoint
// intact (the run restarts from it and ends as the uninterrupted run).
#include <cppunit/extensions/HelperMacros.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "../../../apps/exit_status.hpp"
#include "run_helpers.hpp"

namespace {

namespace fs = std::filesystem;
using nsdyn::test::kBin;
using nsdyn::test::kExamples;
using nsdyn::test::readText;
using nsdyn::test::run;
using nsdyn::test::scratch;

// @p example's XML with each (from, to) replaced, written to @p dir/@p name.xml.
std::string model(const std::string& dir, const std::string& example, const std::string& name,
                  const std::vector<std::pair<std::string, std::string>>& edits) {
  std::string text = readText(kExamples + "/" + example + "/" + example + ".xml");
  for (const auto& [from, to] : edits) {
    const auto at = text.find(from);
    CPPUNIT_ASSERT_MESSAGE(example + " lacks " + from, at != std::string::npos);
    text.replace(at, from.size(), to);
  }
  const std::string path = dir + "/" + name + ".xml";
  std::ofstream(path) << text;
  return path;
}

std::string nsdynRun(const std::string& xml, const std::string& out, const std::string& args) {
  return kBin + "/nsdyn run '" + xml + "' --output '" + out + "' --quiet --no-plot " + args;
}

std::size_t lineCount(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

std::string lastLine(const std::string& path) {
  std::ifstream in(path);
  std::string last;
  for (std::string line; std::getline(in, line);) last = line;
  return last;
}

std::vector<std::string> names(const std::string& dir) {
  std::vector<std::string> v;
  for (const auto& e : fs::directory_iterator(dir)) v.push_back(e.path().filename().string());
  return v;
}

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The InclineRolling scene (one sphere on a slope), @p T seconds, scene files every
// @p every steps.
std::string sceneModel(const std::string& dir, const std::string& name, const std::string& T,
                       const std::string& every,
                       std::vector<std::pair<std::string, std::string>> more = {}) {
  more.insert(more.begin(), {{"name=\"T\" value=\"1\"", "name=\"T\" value=\"" + T + "\""},
                             {"<sceneFiles every=\"20\"", "<sceneFiles every=\"" + every + "\""}});
  return model(dir, "InclineRolling", name, more);
}

}  // namespace

class WriteFailureTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(WriteFailureTest);
  CPPUNIT_TEST(sceneHdf5OnAFullDisk);
  CPPUNIT_TEST(stepThatThrowsKeepsTheRowsBefore);
  CPPUNIT_TEST(sceneVtkKeepsNoFrameSpool);
  CPPUNIT_TEST(writeErrorsExitFour);
  CPPUNIT_TEST(nothingPartialUnderAFinalName);
  CPPUNIT_TEST_SUITE_END();

 public:
  // Row 2: the folder fills while the scene HDF5 is flushed (a file-size limit: the
  // kernel's EFBIG inside libhdf5's own writes): the message, exit 4, no SIGSEGV in
  // libhdf5 at exit (it crashed closing the file that failed), and no file left.
  void sceneHdf5OnAFullDisk() {
    const std::string dir = scratch("wf-hdf5-full");
    const std::string xml = sceneModel(dir, "full", "0.3", "20");
    const std::string out = dir + "/out";
    fs::create_directories(out);
    // 100 blocks (51 or 102 KB by the shell's unit): the HDF5 file of 0.3 s is larger
    const auto r = run("trap '' XFSZ; ulimit -f 100; " + nsdynRun(xml, out, ""));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, NSDYN_EXIT_IO, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("scene HDF5 writer") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("File too large") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(r.out, !fs::exists(out + "/InclineRolling.hdf5"));
    CPPUNIT_ASSERT_MESSAGE(r.out, !fs::exists(out + "/InclineRolling.hdf5.part"));
  }

  // Row 3: an exception inside a step (a force that turns NaN at t = 0.5): exit 1, the
  // message of the step, and the rows up to the step before it written (they were lost).
  void stepThatThrowsKeepsTheRowsBefore() {
    const std::string dir = scratch("wf-nan");
    const std::string nan = "if(t>0.5,sqrt(-1),0)";
    // a scene: 500 steps of 1 ms before the failure
    const std::string scene =
        sceneModel(dir, "scene", "1", "20",
                   {{"<SphereShape radius=\"radius\"/>",
                     "<SphereShape radius=\"radius\"/><fExt>0 0 " + nan + "</fExt>"}});
    const auto s = run(nsdynRun(scene, dir + "/scene", ""));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(s.out, NSDYN_EXIT_FAILED, s.status);
    CPPUNIT_ASSERT_MESSAGE(s.out, s.out.find("nsdyn run: step 501: ") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(
        s.out, s.out.find("the results up to step 500 are written") != std::string::npos);
    const std::string csv = dir + "/scene/InclineRolling.csv";
    CPPUNIT_ASSERT_EQUAL(std::size_t{502}, lineCount(csv));  // header, t = 0, 500 steps
    CPPUNIT_ASSERT_EQUAL(0.5, std::stod(lastLine(csv)));
    CPPUNIT_ASSERT(fs::exists(dir + "/scene/InclineRolling.hdf5"));
    // a model without a scene: 100 steps of 5 ms, on an exception of the Kernel
    const std::string ne = model(dir, "BouncingBallNETS", "ne",
                                 {{"<fExt>-m*g 0 0</fExt>", "<fExt>-m*g " + nan + " 0</fExt>"}});
    const auto n = run(nsdynRun(ne, dir + "/ne", ""));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(n.out, NSDYN_EXIT_FAILED, n.status);
    CPPUNIT_ASSERT_MESSAGE(n.out, n.out.find("nsdyn run: step 101: ") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(
        n.out, n.out.find("the results up to step 100 are written") != std::string::npos);
    const std::string neCsv = dir + "/ne/BouncingBallNETS.csv";
    CPPUNIT_ASSERT_EQUAL(std::size_t{102}, lineCount(neCsv));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, std::stod(lastLine(neCsv)), 1e-12);
  }

  // Row 9: a scene run with --vtk writes its frames as it goes (SceneVtkWriter); the
  // recorder's frame spool (.NAME.frames.part, 104 B per body per frame, never read for a
  // scene) is not written at all, even with <vtk> bodies and a small output window.
  void sceneVtkKeepsNoFrameSpool() {
    const std::string dir = scratch("wf-spool");
    const std::string xml = sceneModel(
        dir, "vtk", "0.05", "10",
        {{"<sceneFiles",
          "<vtk every=\"1\"><body system=\"ball\" radius=\"0.1\"/></vtk>\n    <sceneFiles"}});
    const std::string log = dir + "/writes.log";
    const auto r = run("NSDYN_WRITE_LOG='" + log + "' " +
                       nsdynRun(xml, dir + "/out", "--vtk --output-window 2"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, NSDYN_EXIT_OK, r.status);
    const std::string writes = readText(log);
    CPPUNIT_ASSERT_MESSAGE(writes, writes.find("_bodies_000005.vtp") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(writes, writes.find("frames.part") == std::string::npos);
    for (const std::string& f : names(dir + "/out"))
      CPPUNIT_ASSERT_MESSAGE(f, f.find(".part") == std::string::npos);
  }

  // Row 11: write errors during a run are exit 4 with the cause (full disk, a folder that
  // refuses files, a file that cannot be created), never exit 1.
  void writeErrorsExitFour() {
    const std::string dir = scratch("wf-exit4");
    const std::string scene = sceneModel(dir, "scene", "0.02", "5");
    const std::string ts = model(dir, "BouncingBallTS", "ts", {{"T=\"10\"", "T=\"0.05\""}});
    struct Case {
      std::string xml, args, at, error, message;
    };
    const Case cases[] = {
        // the scene HDF5 not creatable (the folder refuses it)
        {scene, "", "1", "EACCES", "Permission denied"},
        // the scene HDF5 on a full disk mid-run (its 3rd append)
        {scene, "", "12", "ENOSPC", "No space left on device"},
        // the output folder cannot be made
        {ts, "", "1", "EROFS", "Read-only file system"},
        // the spool of rows (a window of 2 rows), then the checkpoint
        {ts, "--output-window 2", "3", "ENOSPC", "output spool"},
        {ts, "--checkpoint-every 3", "1", "ENOSPC", "checkpoint"},
        // the CSV at the end
        {ts, "", "3", "EIO", "CSV writer"},
        {ts, "--format hdf5", "2", "ENOSPC", "HDF5 writer"},
    };
    int n = 0;
    for (const Case& c : cases) {
      const std::string out = dir + "/out" + std::to_string(++n);
      if (c.message != "Read-only file system") fs::create_directories(out);
      const auto r = run("NSDYN_FAIL_WRITE_AT=" + c.at + " NSDYN_FAIL_WRITE_ERRNO=" + c.error +
                         " " + nsdynRun(c.xml, out, c.args));
      const std::string what = c.xml + " " + c.args + " at " + c.at + ":\n" + r.out;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSDYN_EXIT_IO, r.status);
      CPPUNIT_ASSERT_MESSAGE(what, r.out.find(c.message) != std::string::npos);
    }
  }

  // Row 13: a refusal on a full disk leaves no 0-byte NAME.hdf5; a run killed while it
  // writes leaves NAME.hdf5.part, never a partial NAME.hdf5.
  void nothingPartialUnderAFinalName() {
    const std::string dir = scratch("wf-part");
    const std::string scene = sceneModel(dir, "scene", "0.02", "5");
    fs::create_directories(dir + "/refused");
    // the 2nd operation: the first attribute of the new file
    const auto r = run("NSDYN_FAIL_WRITE_AT=2 " + nsdynRun(scene, dir + "/refused", ""));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, NSDYN_EXIT_IO, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, fs::is_empty(dir + "/refused"));
    // SpherePile (500 spheres, longer than 10 s) killed after 2 s
    const auto k = run("timeout -s KILL 2 " +
                       nsdynRun(kExamples + "/SpherePile/SpherePile.xml", dir + "/killed", ""));
    CPPUNIT_ASSERT_MESSAGE(k.out, k.status != NSDYN_EXIT_OK);
    CPPUNIT_ASSERT(!fs::exists(dir + "/killed/SpherePile.hdf5"));
    CPPUNIT_ASSERT(fs::exists(dir + "/killed/SpherePile.hdf5.part"));
  }
};

// The sweep: one run per write operation k of a run, the k-th made to fail (ENOSPC).
class WriteFailureSweep : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(WriteFailureSweep);
  CPPUNIT_TEST(scene);
  CPPUNIT_TEST(nonSceneCsv);
  CPPUNIT_TEST(nonSceneHdf5);
  CPPUNIT_TEST_SUITE_END();

 public:
  void scene() {
    const std::string dir = scratch("wf-sweep-scene");
    sweep(dir, sceneModel(dir, "scene", "0.01", "5"), "InclineRolling",
          "--vtk --checkpoint-every 4 --output-window 4");
  }
  void nonSceneCsv() {
    const std::string dir = scratch("wf-sweep-csv");
    sweep(dir, model(dir, "BouncingBallTS", "ts", {{"T=\"10\"", "T=\"0.05\""}}), "BouncingBallTS",
          "--vtk --checkpoint-every 3 --output-window 2");
  }
  void nonSceneHdf5() {
    const std::string dir = scratch("wf-sweep-h5");
    sweep(dir, model(dir, "BouncingBallTS", "ts", {{"T=\"10\"", "T=\"0.05\""}}), "BouncingBallTS",
          "--format hdf5 --checkpoint-every 3 --output-window 2");
  }

 private:
  static void sweep(const std::string& dir, const std::string& xml, const std::string& name,
                    const std::string& args) {
    // the run without a failure: its files and its number of write operations
    const std::string ref = dir + "/ref";
    const std::string log = dir + "/writes.log";
    const auto r = run("NSDYN_WRITE_LOG='" + log + "' " + nsdynRun(xml, ref, args));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, NSDYN_EXIT_OK, r.status);
    const long operations = static_cast<long>(lineCount(log));
    CPPUNIT_ASSERT(operations > 10);
    const std::string checkpoint = name + ".checkpoint";
    const std::string csv = name + ".csv";
    long k = 1;
    for (;; ++k) {
      CPPUNIT_ASSERT_MESSAGE("more operations than the run without a failure", k <= operations + 1);
      const std::string out = dir + "/k";
      fs::remove_all(out);
      const auto f =
          run("NSDYN_FAIL_WRITE_AT=" + std::to_string(k) + " " + nsdynRun(xml, out, args));
      const std::string what = "k = " + std::to_string(k) + ": " + f.out;
      if (k == operations + 1) {  // beyond the last operation: nothing fails
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSDYN_EXIT_OK, f.status);
        break;
      }
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSDYN_EXIT_IO, f.status);
      CPPUNIT_ASSERT_MESSAGE(what, f.out.find("No space left on device") != std::string::npos);
      if (!fs::exists(out)) continue;  // the folder itself failed
      // every file under a final name is the whole file (the checkpoint: checked below)
      for (const std::string& file : names(out)) {
        if (file[0] == '.') continue;  // the spool files (kept for a restart)
        CPPUNIT_ASSERT_MESSAGE(what + "\n" + file + " left", !endsWith(file, ".part"));
        if (file == checkpoint) continue;
        CPPUNIT_ASSERT_MESSAGE(what + "\n" + file + ": not in the run without a failure",
                               fs::exists(ref + "/" + file));
        CPPUNIT_ASSERT_MESSAGE(what + "\n" + file + ": not the whole file",
                               readText(out + "/" + file) == readText(ref + "/" + file));
      }
      // the last checkpoint written: the run goes on from it to the end of the run
      if (fs::exists(out + "/" + checkpoint)) {
        const auto again =
            run(nsdynRun(xml, out, args + " --restart '" + out + "/" + checkpoint + "'"));
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what + "\nrestart:\n" + again.out, NSDYN_EXIT_OK,
                                     again.status);
        if (fs::exists(ref + "/" + csv))
          CPPUNIT_ASSERT_EQUAL_MESSAGE(what, lastLine(ref + "/" + csv), lastLine(out + "/" + csv));
      }
    }
    std::printf("  %s: %ld write operations, each made to fail in turn\n", name.c_str(), k - 1);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(WriteFailureTest);
CPPUNIT_TEST_SUITE_REGISTRATION(WriteFailureSweep);
