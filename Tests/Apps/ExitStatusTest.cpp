// Issue 13: one table of exit statuses for every program (README.md, "Exit status";
// apps/exit_status.hpp), each case asserting the status and the message, run as a
// user runs the programs: nsdyn run, solve_folder, LcpObstacle.
#include <cppunit/extensions/HelperMacros.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../../apps/exit_status.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kBin = NSDYN_BIN_DIR;
const std::string kSource = NSDYN_SOURCE_DIR;
const std::string kData = std::string(NSDYN_SHARED_DIR) + "/data";
const std::string kScratch = std::string(NSDYN_BINARY_DIR) + "/Tests/Apps/scratch-exit";

struct Result {
  int status = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Run a shell command; stdout, stderr and the exit status apart.
Result run(const std::string& cmd) {
  static int serial = 0;
  const std::string errPath = kScratch + "/stderr-" + std::to_string(++serial) + ".txt";
  Result r;
  std::FILE* p = popen((cmd + " 2>'" + errPath + "'").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r.err = readText(errPath);
  return r;
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  CPPUNIT_ASSERT_MESSAGE("fixture lacks " + from, at != std::string::npos);
  return s.replace(at, from.size(), to);
}

// The example model @p example with @p from replaced by @p to, written to the scratch folder.
std::string model(const std::string& example, const std::string& from, const std::string& to,
                  const std::string& name) {
  const std::string text = readText(kSource + "/Examples/" + example + "/" + example + ".xml");
  CPPUNIT_ASSERT_MESSAGE(example, !text.empty());
  const std::string path = kScratch + "/" + name + ".xml";
  std::ofstream(path) << (from.empty() ? text : replaced(text, from, to));
  return path;
}

std::string nsdynRun(const std::string& args) {
  return kBin + "/nsdyn run " + args;
}

void expectIn(const std::string& text, const std::string& where, const Result& r) {
  CPPUNIT_ASSERT_MESSAGE("'" + text + "' not in " + where + ":\n" + r.out + "\n---\n" + r.err,
                         (where == "stderr" ? r.err : r.out).find(text) != std::string::npos);
}

void expectStatus(int status, const Result& r) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out + "\n---\n" + r.err, status, r.status);
}

std::size_t lines(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

}  // namespace

class ExitStatusTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ExitStatusTest);
  CPPUNIT_TEST(tableValues);
  CPPUNIT_TEST(refusedModelValuesExitThree);
  CPPUNIT_TEST(stepCountCapAndMaxSteps);
  CPPUNIT_TEST(failedStepsStopByDefault);
  CPPUNIT_TEST(failedStepsContinueOnRequest);
  CPPUNIT_TEST(failedStepsContinueFromTheModel);
  CPPUNIT_TEST(outputThatIsAFileFailsBeforeTheRun);
  CPPUNIT_TEST(vtkOnACircuitIsSkippedWithANote);
  CPPUNIT_TEST(solveFolderUnknownSolverAndPaths);
  CPPUNIT_TEST(lcpObstacleNewOutputFolder);
  CPPUNIT_TEST(exampleDriverOutputThatIsAFile);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override { fs::create_directories(kScratch); }

  void tableValues() {
    // the README table, and nsdyn solve's "0 converged, 1 not converged, 2 usage, 3 bad input"
    CPPUNIT_ASSERT_EQUAL(0, NSDYN_EXIT_OK);
    CPPUNIT_ASSERT_EQUAL(1, NSDYN_EXIT_FAILED);
    CPPUNIT_ASSERT_EQUAL(2, NSDYN_EXIT_USAGE);
    CPPUNIT_ASSERT_EQUAL(3, NSDYN_EXIT_BAD_INPUT);
    CPPUNIT_ASSERT_EQUAL(4, NSDYN_EXIT_IO);
    CPPUNIT_ASSERT_EQUAL(5, NSDYN_EXIT_INTERNAL);
    const std::string readme = readText(kSource + "/README.md");
    CPPUNIT_ASSERT(readme.find("## Exit status") != std::string::npos);
    for (const char* row : {"| 0 | success", "| 1 | a solve failed", "| 2 | usage error",
                            "| 3 | bad input", "| 4 | I/O failure", "| 5 | internal error"})
      CPPUNIT_ASSERT_MESSAGE(row, readme.find(row) != std::string::npos);
    // nsdyn run's usage names them too
    const Result usage = run(nsdynRun("--bogus"));
    expectStatus(2, usage);
    expectIn("4 results could not be written, 5 internal error", "stderr", usage);
  }

  // Values that made every step fail and exit 0, or ran past T: refused before any step,
  // with the value named, status 3, and nothing written.
  void refusedModelValuesExitThree() {
    struct Case {
      const char* name;
      const char* from;
      const char* to;
      const char* message;
    };
    const Case cases[] = {
        {"negative_mass", "<parameter name=\"m\" value=\"1.0\"/>",
         "<parameter name=\"m\" value=\"-1.0\"/>",
         "<mass>: expected the mass matrix positive definite, found M(0,0) = -1"},
        {"negative_tolerance", "<LCP solver=\"lemke\"/>",
         "<LCP solver=\"psor\"><options tolerance=\"-1\"/></LCP>",
         "attribute 'tolerance': tolerance='-1', expected finite > 0"},
        {"huge_T", "T=\"10\"", "T=\"1e300\"", "expected at most 1e15 time steps"},
        {"h_past_T", "h=\"0.005\"", "h=\"20\"",
         "attribute 'h': expected a time step <= T - t0 = 10, found 20"},
        {"T_not_finite", "T=\"10\"", "T=\"1e999\"", "expected a finite number, found '1e999'"},
        {"h_not_finite", "h=\"0.005\"", "h=\"0/0\"", "attribute 'h'"},
        {"restitution", "<NewtonImpactNSL e=\"e\"/>", "<NewtonImpactNSL e=\"1.5\"/>",
         "attribute 'e': expected a restitution coefficient in [0, 1], found 1.5"},
    };
    for (const Case& c : cases) {
      const std::string dir = kScratch + "/" + c.name;
      const Result r = run(nsdynRun("'" + model("BouncingBallTS", c.from, c.to, c.name) +
                                    "' --quiet --no-plot --output '" + dir + "'"));
      expectStatus(NSDYN_EXIT_BAD_INPUT, r);
      expectIn(c.message, "stderr", r);
      CPPUNIT_ASSERT_MESSAGE(c.name, r.out.find("summary") == std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(c.name, !fs::exists(dir + "/BouncingBallTS.csv"));
    }
  }

  // h = 1e-12 asked for 10^13 steps: refused above 1e8 (--max-steps raises the cap), and
  // counts beyond 64 bits are refused by the loader whatever the cap.
  void stepCountCapAndMaxSteps() {
    const std::string tiny = model("BouncingBallTS", "h=\"0.005\"", "h=\"1e-12\"", "tiny_h");
    const Result capped = run(nsdynRun("'" + tiny + "' --quiet --no-plot --output " + kScratch));
    expectStatus(NSDYN_EXIT_BAD_INPUT, capped);
    expectIn(
        "10000000000000 time steps (t0 = 0, T = 10, h = 1e-12): expected at most 100000000; "
        "--max-steps N raises the cap",
        "stderr", capped);
    const Result raised = run(nsdynRun("'" + tiny +
                                       "' --max-steps 1e13 --stop-after 2 --quiet "
                                       "--no-plot --output " +
                                       kScratch));
    expectStatus(NSDYN_EXIT_OK, raised);
    expectIn("stopped after step 2", "stdout", raised);
    const Result steps = run(nsdynRun(
        "'" + model("BouncingBallTS", "h=\"0.005\"", "h=\"0.005\" steps=\"1e12\"", "many_steps") +
        "' --quiet --no-plot --output " + kScratch));
    expectStatus(NSDYN_EXIT_BAD_INPUT, steps);
    expectIn("1000000000000 time steps", "stderr", steps);
    const Result overflow =
        run(nsdynRun("'" + model("BouncingBallTS", "h=\"0.005\"", "h=\"1e-65\"", "overflow") +
                     "' --max-steps 1e18"));
    expectStatus(NSDYN_EXIT_BAD_INPUT, overflow);
    expectIn(
        "expected at most 1e15 time steps ((T - t0) / h, a count a 64-bit integer holds), found "
        "1",
        "stderr", overflow);
    expectIn("e+66 (T = 10, h = 1e-65)", "stderr", overflow);
    for (const char* bad : {"0", "abc", "1e99", "2.5"}) {
      const Result r = run(nsdynRun("x.xml --max-steps " + std::string(bad)));
      expectStatus(NSDYN_EXIT_USAGE, r);
      expectIn("--max-steps " + std::string(bad) + ": expected a number of steps >= 1", "stderr",
               r);
    }
  }

  // ColumnOfBeadsTS with two PSOR sweeps: solves fail from about t = 1.05 on.
  std::string failingBeads() {
    return model("ColumnOfBeadsTS", "<options max-iterations=\"10000\" tolerance=\"1e-6\"/>",
                 "<options max-iterations=\"2\" tolerance=\"1e-6\"/>", "beads_psor2");
  }
  std::string psorBeads(const std::string& path) {
    const std::string text =
        replaced(readText(path), "<LCP solver=\"lemke\"", "<LCP solver=\"psor\"");
    std::ofstream(path) << text;
    return path;
  }

  void failedStepsStopByDefault() {
    const std::string dir = kScratch + "/beads_stop";
    const Result r = run(
        nsdynRun("'" + psorBeads(failingBeads()) + "' --quiet --no-plot --output '" + dir + "'"));
    expectStatus(NSDYN_EXIT_FAILED, r);
    expectIn("1 failed step (solver status not ok); the first at step ", "stderr", r);
    expectIn(": psor max_iterations: residual ", "stderr", r);
    expectIn("stopped at the first failed step (--on-failure stop)", "stderr", r);
    expectIn("after a failed step (--on-failure stop)", "stdout", r);
    // the results up to the failed step are written: the initial row and one per step
    const std::size_t at = r.err.find("the first at step ");
    const long step = std::atol(r.err.c_str() + at + std::string("the first at step ").size());
    CPPUNIT_ASSERT(step > 1 && step < 4000);
    CPPUNIT_ASSERT_EQUAL(static_cast<std::size_t>(step + 2), lines(dir + "/ColumnOfBeadsTS.csv"));
    expectIn("  steps:                   " + std::to_string(step) + "\n", "stdout", r);
  }

  void failedStepsContinueOnRequest() {
    const std::string dir = kScratch + "/beads_continue";
    const Result r =
        run(nsdynRun("'" + psorBeads(failingBeads()) +
                     "' --on-failure continue --quiet --no-plot --output '" + dir + "'"));
    expectStatus(NSDYN_EXIT_FAILED, r);
    expectIn(" failed steps (solver status not ok); the first at step ", "stderr", r);
    CPPUNIT_ASSERT(r.err.find("--on-failure stop") == std::string::npos);
    expectIn("  steps:                   4000\n", "stdout", r);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4002), lines(dir + "/ColumnOfBeadsTS.csv"));
    // the unchanged example has no failed step: 0
    const Result ok = run(nsdynRun("'" + kSource +
                                   "/Examples/ColumnOfBeadsTS/ColumnOfBeadsTS.xml' "
                                   "--quiet --no-plot --output '" +
                                   dir + "'"));
    expectStatus(NSDYN_EXIT_OK, ok);
    CPPUNIT_ASSERT(ok.err.find("failed step") == std::string::npos);
    expectStatus(NSDYN_EXIT_USAGE, run(nsdynRun("x.xml --on-failure maybe")));
  }

  // the model file's on-failure="continue" does the same; the command line overrides it
  void failedStepsContinueFromTheModel() {
    const std::string path = psorBeads(failingBeads());
    const std::string text =
        replaced(readText(path), "<simulation ", "<simulation on-failure=\"continue\" ");
    std::ofstream(path) << text;
    const std::string dir = kScratch + "/beads_continue_model";
    const Result r = run(nsdynRun("'" + path + "' --quiet --no-plot --output '" + dir + "'"));
    expectStatus(NSDYN_EXIT_FAILED, r);
    expectIn("  steps:                   4000\n", "stdout", r);
    const Result stop =
        run(nsdynRun("'" + path + "' --on-failure stop --quiet --no-plot --output '" + dir + "'"));
    expectStatus(NSDYN_EXIT_FAILED, stop);
    expectIn("stopped at the first failed step", "stderr", stop);
    const std::string later =
        replaced(readText(path), "on-failure=\"continue\"", "on-failure=\"later\"");
    std::ofstream(path) << later;
    const Result bad = run(nsdynRun("'" + path + "' --quiet --no-plot --output '" + dir + "'"));
    expectStatus(NSDYN_EXIT_BAD_INPUT, bad);
    expectIn("on-failure", "stderr", bad);
  }

  void outputThatIsAFileFailsBeforeTheRun() {
    const std::string file = kScratch + "/a_file";
    std::ofstream(file) << "not a folder\n";
    const Result r = run(nsdynRun("'" + kSource +
                                  "/Examples/BouncingBallTS/BouncingBallTS.xml' "
                                  "--quiet --no-plot --output '" +
                                  file + "'"));
    expectStatus(NSDYN_EXIT_IO, r);
    expectIn("--output " + file + ": expected a folder, found a file", "stderr", r);
    CPPUNIT_ASSERT(r.out.find("summary") == std::string::npos);  // no step ran
    const Result below = run(nsdynRun("'" + kSource +
                                      "/Examples/BouncingBallTS/BouncingBallTS.xml' "
                                      "--quiet --no-plot --output '" +
                                      file + "/sub'"));
    expectStatus(NSDYN_EXIT_IO, below);
    expectIn("Not a directory", "stderr", below);
  }

  void vtkOnACircuitIsSkippedWithANote() {
    const std::string dir = kScratch + "/circuit_vtk";
    fs::remove_all(dir);
    const Result r = run(nsdynRun("'" + kSource +
                                  "/Examples/CircuitRLCD/CircuitRLCD.xml' --vtk "
                                  "--quiet --no-plot --output '" +
                                  dir + "'"));
    expectStatus(NSDYN_EXIT_OK, r);
    expectIn("note: --vtk: ", "stderr", r);
    expectIn("has no bodies to draw", "stderr", r);
    for (const auto& e : fs::directory_iterator(dir)) {
      const std::string ext = e.path().extension().string();
      CPPUNIT_ASSERT_MESSAGE(e.path().string(), ext != ".vtp" && ext != ".pvd");
    }
    CPPUNIT_ASSERT(fs::exists(dir + "/CircuitRLCD.csv"));
  }

  void solveFolderUnknownSolverAndPaths() {
    const Result foo = run(kBin + "/solve_folder " + kData + "/lcp --solvers foo,lemke");
    expectStatus(NSDYN_EXIT_USAGE, foo);
    expectIn("unknown solver 'foo'", "stderr", foo);
    CPPUNIT_ASSERT(foo.out.empty());  // refused before any solve
    const Result missing = run(kBin + "/solve_folder " + kScratch + "/no_such_folder");
    expectStatus(NSDYN_EXIT_BAD_INPUT, missing);
    expectIn("is not a folder", "stderr", missing);
    const Result unwritable =
        run(kBin + "/solve_folder " + kData + "/lcp --solvers lemke --output /dev/null/x.csv");
    expectStatus(NSDYN_EXIT_IO, unwritable);
    expectIn("cannot write /dev/null/x.csv", "stderr", unwritable);
    const Result badTol = run(kBin + "/solve_folder " + kData + "/lcp --tol abc");
    expectStatus(NSDYN_EXIT_USAGE, badTol);
    expectIn("--tol abc: bad value", "stderr", badTol);
  }

  // LcpObstacle --output NEWDIR printed files it never wrote, "0 nodes touch the obstacle"
  // and "is gnuplot installed?", and exited 0.
  void lcpObstacleNewOutputFolder() {
    const std::string dir = kScratch + "/obstacle_new/sub";
    fs::remove_all(kScratch + "/obstacle_new");
    const Result r = run(kBin + "/LcpObstacle --no-plot --output '" + dir + "'");
    expectStatus(NSDYN_EXIT_OK, r);
    expectIn("143 nodes touch the obstacle", "stdout", r);
    expectIn("results: " + dir + "/LcpObstacle.csv", "stdout", r);
    CPPUNIT_ASSERT_EQUAL(std::size_t(202),
                         lines(dir + "/LcpObstacle.csv"));  // header, 0, 199 nodes, 1
    CPPUNIT_ASSERT(lines(dir + "/LcpObstacle_convergence.csv") > 2);
    CPPUNIT_ASSERT(r.out.find("gnuplot") == std::string::npos);
    const std::string file = kScratch + "/obstacle_file";
    std::ofstream(file) << "x\n";
    const Result io = run(kBin + "/LcpObstacle --no-plot --output '" + file + "'");
    expectStatus(NSDYN_EXIT_IO, io);
    expectIn("--output " + file + ": cannot create the folder", "stderr", io);
    CPPUNIT_ASSERT(io.out.find("results:") == std::string::npos);
    const Result usage = run(kBin + "/LcpObstacle --nodes abc");
    expectStatus(NSDYN_EXIT_USAGE, usage);
    expectIn("--nodes: expected a number of nodes in 3..100000", "stderr", usage);
  }

  // the C++ example drivers share the table (Examples/common): an output folder that
  // cannot be created is status 4, before any step
  void exampleDriverOutputThatIsAFile() {
    const std::string file = kScratch + "/example_output_file";
    std::ofstream(file) << "x\n";
    const Result r = run(kBin + "/BouncingBallTS --no-plot --quiet --output '" + file + "/sub'");
    expectStatus(NSDYN_EXIT_IO, r);
    expectIn("cannot create output directory", "stderr", r);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ExitStatusTest);
