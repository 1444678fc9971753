// Outputs of `nsdyn run` on disk: rows beyond a small window go to spool files, so
// that memory does not grow with the number of steps. The results must be those of
// the in-memory recorder byte for byte (CSV; HDF5 datasets), checkpoints hold the
// spooled row count and the spool's path, and a restart finds, truncates or copies
// the spool (same folder or another one); a missing spool is refused clearly.
#include <cppunit/extensions/HelperMacros.h>
#include <fcntl.h>
#include <hdf5.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "nsdyn/io/Outputs.hpp"
#include "run_helpers.hpp"

using namespace nsdyn::test;
namespace fs = std::filesystem;

namespace {

const std::string kBall = kExamples + "/BouncingBallTS/BouncingBallTS.xml";

Run nsdynRun(const std::string& args) {
  return run("'" + kBin + "/nsdyn' run " + args + " --no-plot --quiet");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// BouncingBallTS over @p T seconds with @p outputs instead of its <outputs>, as DIR/Streamed.xml.
std::string ballModel(const std::string& dir, const std::string& T, const std::string& outputs) {
  std::string text = readText(kBall);
  const auto t = text.find("T=\"10\"");
  CPPUNIT_ASSERT(t != std::string::npos);
  text.replace(t, 6, "T=\"" + T + "\"");
  const auto a = text.find("<outputs"), b = text.find("</outputs>");
  CPPUNIT_ASSERT(a != std::string::npos && b != std::string::npos);
  text.replace(a, b + 10 - a, outputs);
  const auto n = text.find("name=\"BouncingBallTS\"");
  text.replace(n, 21, "name=\"Streamed\"");
  const std::string path = dir + "/Streamed.xml";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Two outputs: a row per step with an initial="next" column and a running sum; a row
// every 3 steps with max-rows (it ends the run at step 2697 of 4000).
const char* kOutputs = R"(<outputs format="csv">
    <output name="steps">
      <column name="t" value="t"/>
      <column name="z" value="ball.q[0]"/>
      <column name="lambda" value="floor.lambda1[0]" initial="next"/>
      <column name="impulse" value="floor.lambda1[0]" sum="true"/>
    </output>
    <output name="thirds" every="3" max-rows="900">
      <column name="t" value="t"/>
      <column name="v" value="ball.v[0]" initial="next"/>
    </output>
  </outputs>)";

bool hasSpool(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(".", 0) == 0 && e.path().extension() == ".part")
      return true;
  return false;
}

// The dataset @p name of the HDF5 file @p path: its dimensions, then its values.
std::vector<double> dataset(const std::string& path, const std::string& name) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  CPPUNIT_ASSERT_MESSAGE(path, file >= 0);
  hid_t set = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  CPPUNIT_ASSERT_MESSAGE(name, set >= 0);
  hid_t space = H5Dget_space(set);
  hsize_t dims[2] = {0, 0};
  CPPUNIT_ASSERT_EQUAL(2, H5Sget_simple_extent_dims(space, dims, nullptr));
  std::vector<double> out = {static_cast<double>(dims[0]), static_cast<double>(dims[1])};
  std::vector<double> data(dims[0] * dims[1]);
  if (!data.empty())
    CPPUNIT_ASSERT(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) >=
                   0);
  out.insert(out.end(), data.begin(), data.end());
  H5Sclose(space);
  H5Dclose(set);
  H5Fclose(file);
  return out;
}

// Peak resident memory (KiB) of `nsdyn run ARGS...`, from wait4 of that process alone.
long peakRssKib(const std::vector<std::string>& args) {
  std::vector<std::string> all = {kBin + "/nsdyn", "run"};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  CPPUNIT_ASSERT(pid >= 0);
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  struct rusage usage {};
  CPPUNIT_ASSERT_EQUAL(pid, wait4(pid, &status, 0, &usage));
  CPPUNIT_ASSERT_MESSAGE("nsdyn run failed", WIFEXITED(status) && WEXITSTATUS(status) == 0);
  return usage.ru_maxrss;
}

}  // namespace

class StreamingTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(StreamingTest);
  CPPUNIT_TEST(smallWindowSameCsv);
  CPPUNIT_TEST(smallWindowSameHdf5);
  CPPUNIT_TEST(smallWindowSameVtk);
  CPPUNIT_TEST(restartSameFolder);
  CPPUNIT_TEST(restartOtherFolderXml);
  CPPUNIT_TEST(restartWithVtkFrames);
  CPPUNIT_TEST(missingSpoolRefused);
  CPPUNIT_TEST(shortSpoolRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  // windows of 1 row (every row on disk, row 0 held until its "next" values), 7 and the
  // default: the CSV of each output as in memory, max-rows counting the spooled rows
  void smallWindowSameCsv() {
    const std::string dir = scratch("stream-csv");
    const std::string m = ballModel(dir, "20", kOutputs);
    const Run whole = nsdynRun("'" + m + "' --output '" + dir + "/memory' --output-window 100000");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(whole.out, 0, whole.status);
    CPPUNIT_ASSERT_MESSAGE(whole.out, contains(whole.out, "output thirds has its max-rows"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(900), readCsv(dir + "/memory/thirds.csv").rows.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2698), readCsv(dir + "/memory/steps.csv").rows.size());
    for (const char* window : {"1", "7", "4096"}) {
      const std::string out = dir + "/w" + window;
      const Run r = nsdynRun("'" + m + "' --output '" + out + "' --output-window " + window);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
      for (const char* name : {"steps", "thirds"})
        CPPUNIT_ASSERT_MESSAGE(
            std::string(name) + ".csv, window " + window,
            readText(dir + "/memory/" + name + ".csv") == readText(out + "/" + name + ".csv"));
      CPPUNIT_ASSERT_MESSAGE("spool files left in " + out, !hasSpool(out));
    }
    fs::remove_all(dir);
  }

  void smallWindowSameHdf5() {
    const std::string dir = scratch("stream-h5");
    const std::string m = ballModel(dir, "20", kOutputs);
    const Run a =
        nsdynRun("'" + m + "' --format hdf5 --output '" + dir + "/memory' --output-window 100000");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(a.out, 0, a.status);
    const Run b = nsdynRun("'" + m + "' --format hdf5 --output '" + dir + "/w5' --output-window 5");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(b.out, 0, b.status);
    for (const char* name : {"steps", "thirds"}) {
      const std::vector<double> x = dataset(dir + "/memory/Streamed.h5", name),
                                y = dataset(dir + "/w5/Streamed.h5", name);
      CPPUNIT_ASSERT(x.size() > 2 && x[0] > 100);
      CPPUNIT_ASSERT_MESSAGE(name, x == y);
    }
    CPPUNIT_ASSERT(!hasSpool(dir + "/w5"));
    fs::remove_all(dir);
  }

  // VTK frames spooled (RigidBalls: bodies with orientations and velocities): same .pvd and .vtp
  void smallWindowSameVtk() {
    const std::string dir = scratch("stream-vtk");
    const std::string m = std::string(NSDYN_SOURCE_DIR) + "/Tests/IO/models/RigidBalls.xml";
    const Run a =
        nsdynRun("'" + m + "' --vtk --output '" + dir + "/memory' --output-window 100000");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(a.out, 0, a.status);
    const Run b = nsdynRun("'" + m + "' --vtk --output '" + dir + "/w3' --output-window 3");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(b.out, 0, b.status);
    CPPUNIT_ASSERT(readText(dir + "/memory/RigidBalls.csv") ==
                   readText(dir + "/w3/RigidBalls.csv"));
    CPPUNIT_ASSERT(readText(dir + "/memory/RigidBalls.pvd") ==
                   readText(dir + "/w3/RigidBalls.pvd"));
    int frames = 0;
    for (const auto& e : fs::directory_iterator(dir + "/memory"))
      if (e.path().extension() == ".vtp") {
        ++frames;
        CPPUNIT_ASSERT_MESSAGE(
            e.path().filename().string(),
            readText(e.path().string()) == readText(dir + "/w3/" + e.path().filename().string()));
      }
    CPPUNIT_ASSERT(frames > 100);
    CPPUNIT_ASSERT(!hasSpool(dir + "/w3"));
    fs::remove_all(dir);
  }

  // interrupted at step 1000 (checkpoint at 900, rows spooled after it), restarted into
  // the same folder: the spool is truncated to the checkpoint's rows and continued
  void restartSameFolder() {
    const std::string dir = scratch("stream-restart");
    const std::string m = ballModel(dir, "20", kOutputs);
    const Run whole = nsdynRun("'" + m + "' --output '" + dir + "/whole'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(whole.out, 0, whole.status);
    const std::string part = dir + "/part";
    const Run first = nsdynRun("'" + m + "' --output '" + part +
                               "' --output-window 7 --checkpoint-every 300 --stop-after 1000");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(first.out, 0, first.status);
    CPPUNIT_ASSERT(fs::exists(part + "/.steps.rows.part"));
    // 1001 rows of 4 doubles recorded, all spooled (143 windows of 7)
    CPPUNIT_ASSERT_EQUAL(std::uintmax_t(1001 * 4 * 8), fs::file_size(part + "/.steps.rows.part"));
    // the checkpoint holds a window of rows, not the 900 rows of the run
    CPPUNIT_ASSERT(fs::file_size(part + "/Streamed.checkpoint") < 4000);
    const Run second = nsdynRun("'" + m + "' --output '" + part +
                                "' --output-window 7 --restart '" + part + "/Streamed.checkpoint'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(second.out, 0, second.status);
    CPPUNIT_ASSERT_MESSAGE(second.out, contains(second.out, "at step 900"));
    for (const char* name : {"steps", "thirds"})
      CPPUNIT_ASSERT_MESSAGE(
          name, readText(dir + "/whole/" + name + ".csv") == readText(part + "/" + name + ".csv"));
    CPPUNIT_ASSERT(!hasSpool(part));
    fs::remove_all(dir);
  }

  // restarted into another folder (XML checkpoint, another window): the checkpoint's rows
  // are copied from the first folder's spool, which stays as it was
  void restartOtherFolderXml() {
    const std::string dir = scratch("stream-other");
    const std::string m = ballModel(dir, "20", kOutputs);
    const Run whole = nsdynRun("'" + m + "' --output '" + dir + "/whole'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(whole.out, 0, whole.status);
    const std::string part = dir + "/part";
    const Run first =
        nsdynRun("'" + m + "' --output '" + part +
                 "' --output-window 10 --checkpoint-format xml --checkpoint-every 250 "
                 "--stop-after 1100");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(first.out, 0, first.status);
    const auto spoolSize = fs::file_size(part + "/.steps.rows.part");
    const std::string other = dir + "/other";
    const Run second = nsdynRun("'" + m + "' --output '" + other +
                                "' --output-window 3 --restart '" + part + "/Streamed.checkpoint'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(second.out, 0, second.status);
    CPPUNIT_ASSERT_MESSAGE(second.out, contains(second.out, "at step 1000"));
    for (const char* name : {"steps", "thirds"})
      CPPUNIT_ASSERT_MESSAGE(
          name, readText(dir + "/whole/" + name + ".csv") == readText(other + "/" + name + ".csv"));
    CPPUNIT_ASSERT(!hasSpool(other));
    CPPUNIT_ASSERT_EQUAL(spoolSize, fs::file_size(part + "/.steps.rows.part"));
    fs::remove_all(dir);
  }

  // VTK frames spooled before the checkpoint: the restarted run writes every frame
  void restartWithVtkFrames() {
    const std::string dir = scratch("stream-vtk-restart");
    const std::string m = std::string(NSDYN_SOURCE_DIR) + "/Tests/IO/models/RigidBalls.xml";
    const Run whole = nsdynRun("'" + m + "' --vtk --output '" + dir + "/whole'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(whole.out, 0, whole.status);
    const std::string part = dir + "/part";
    const Run first = nsdynRun("'" + m + "' --vtk --output '" + part +
                               "' --output-window 4 --checkpoint-every 100 --stop-after 250");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(first.out, 0, first.status);
    CPPUNIT_ASSERT(fs::exists(part + "/.RigidBalls.frames.part"));
    const Run second = nsdynRun("'" + m + "' --vtk --output '" + dir +
                                "/other' --output-window 4 "
                                "--restart '" +
                                part + "/RigidBalls.checkpoint'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(second.out, 0, second.status);
    CPPUNIT_ASSERT(readText(dir + "/whole/RigidBalls.csv") ==
                   readText(dir + "/other/RigidBalls.csv"));
    CPPUNIT_ASSERT(readText(dir + "/whole/RigidBalls.pvd") ==
                   readText(dir + "/other/RigidBalls.pvd"));
    for (const auto& e : fs::directory_iterator(dir + "/whole"))
      if (e.path().extension() == ".vtp")
        CPPUNIT_ASSERT_MESSAGE(e.path().filename().string(),
                               readText(e.path().string()) ==
                                   readText(dir + "/other/" + e.path().filename().string()));
    fs::remove_all(dir);
  }

  // the spool of the checkpoint's rows deleted: exit 3, naming the spool and the row count
  void missingSpoolRefused() {
    const std::string dir = scratch("stream-missing");
    const std::string m = ballModel(dir, "20", kOutputs);
    const std::string part = dir + "/part";
    const Run first = nsdynRun("'" + m + "' --output '" + part +
                               "' --output-window 7 --checkpoint-every 300 --stop-after 1000");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(first.out, 0, first.status);
    const std::string spool = fs::absolute(part + "/.steps.rows.part").lexically_normal().string();
    fs::remove(spool);
    const Run r = nsdynRun("'" + m + "' --output '" + dir + "/other' --restart '" + part +
                           "/Streamed.checkpoint'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, spool));
    // 901 rows at step 900, 896 of them spooled (128 windows of 7)
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "with 896 rows, found no such file"));
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "Streamed.checkpoint"));
    CPPUNIT_ASSERT(!fs::exists(dir + "/other/steps.csv"));
    fs::remove_all(dir);
  }

  void shortSpoolRefused() {
    const std::string dir = scratch("stream-short");
    const std::string m = ballModel(dir, "20", kOutputs);
    const std::string part = dir + "/part";
    const Run first = nsdynRun("'" + m + "' --output '" + part +
                               "' --output-window 7 --checkpoint-every 300 --stop-after 1000");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(first.out, 0, first.status);
    fs::resize_file(part + "/.steps.rows.part", 500 * 4 * 8 + 3);
    const Run r = nsdynRun("'" + m + "' --output '" + part + "' --restart '" + part +
                           "/Streamed.checkpoint'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, ".steps.rows.part"));
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "with 896 rows, found a file of 500 rows"));
    CPPUNIT_ASSERT(!fs::exists(part + "/steps.csv"));
    fs::remove_all(dir);
  }
};

// Peak memory of a run with a row per step does not grow with the number of steps.
class StreamingMemoryTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(StreamingMemoryTest);
  CPPUNIT_TEST(peakRssIndependentOfSteps);
  CPPUNIT_TEST_SUITE_END();

 public:
  void peakRssIndependentOfSteps() {
    const std::string dir = scratch("stream-memory");
    std::string text = readText(kBall);
    const auto t = text.find("T=\"10\"");
    CPPUNIT_ASSERT(t != std::string::npos);
    long peak[2] = {0, 0};
    const char* lengths[2] = {"250", "2000"};  // 5e4 and 4e5 steps of h = 0.005
    for (int i = 0; i < 2; ++i) {
      std::string m = text;
      m.replace(t, 6, std::string("T=\"") + lengths[i] + "\"");
      const std::string path = dir + "/ball" + lengths[i] + ".xml";
      std::ofstream(path, std::ios::binary) << m;
      peak[i] = peakRssKib({path, "--output", dir + "/out" + lengths[i], "--quiet", "--no-plot"});
      CPPUNIT_ASSERT_EQUAL(std::size_t(i ? 400001 : 50001),
                           readCsv(dir + "/out" + lengths[i] + "/BouncingBallTS.csv").rows.size());
    }
    std::printf("\n  peak RSS: %ld KiB (5e4 steps), %ld KiB (4e5 steps)\n", peak[0], peak[1]);
    // in memory the 3.5e5 more rows took about 25 MB
    CPPUNIT_ASSERT_MESSAGE(
        std::to_string(peak[0]) + " KiB, then " + std::to_string(peak[1]) + " KiB",
        peak[1] - peak[0] < 3 * 1024);
    fs::remove_all(dir);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(StreamingTest);
CPPUNIT_TEST_SUITE_REGISTRATION(StreamingMemoryTest);
