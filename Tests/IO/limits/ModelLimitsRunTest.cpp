// Issue 23, model input through nsdyn run: the caps exit 3 with file:line and the value,
// the step-size warning on stderr, and the memory of a run (its peak RSS, from wait4) in
// proportion to what the model keeps: a long comment costs about its size once (it cost 3
// times: 619 MB for 200 MB), bodies a bounded number of bytes each.
#include <cppunit/extensions/HelperMacros.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scene_fixture.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
const std::string kNsdyn = std::string(NSDYN_BIN_DIR) + "/nsdyn";
const std::string kScratch = std::string(NSDYN_BINARY_DIR) + "/Tests/IO/limits/scratch";

struct Run {
  int status = -1;
  long maxRssKb = 0;
  std::string err;
};

// nsdyn run FILE (quiet, no plot) with stderr kept; its exit status and peak RSS.
Run nsdynRun(const std::string& name, const std::string& xml) {
  fs::create_directories(kScratch);
  const std::string model = kScratch + "/" + name + ".xml", err = kScratch + "/" + name + ".err";
  std::ofstream(model) << xml;
  std::vector<std::string> args = {
      kNsdyn, "run", model, "--output", kScratch + "/out-" + name, "--quiet", "--no-plot"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  Run r;
  if (posix_spawn(&pid, kNsdyn.c_str(), &actions, nullptr, argv.data(), environ) == 0) {
    int st = 0;
    struct rusage use {};
    if (wait4(pid, &st, 0, &use) == pid) {
      r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      r.maxRssKb = use.ru_maxrss;
    }
  }
  posix_spawn_file_actions_destroy(&actions);
  std::ifstream in(err);
  std::stringstream s;
  s << in.rdbuf();
  r.err = s.str();
  return r;
}

void expectRefused(const std::string& name, const std::string& xml,
                   std::initializer_list<std::string> texts) {
  const Run r = nsdynRun(name, xml);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(r.err, 3, r.status);
  for (const std::string& t : texts)
    CPPUNIT_ASSERT_MESSAGE("'" + t + "' not in: " + r.err, r.err.find(t) != std::string::npos);
}

const std::string kBall =
    "<RigidBody name=\"ball\" density=\"1000\"><position>0 0 1</position>"
    "<SphereShape radius=\"0.1\"/></RigidBody>\n";

}  // namespace

class ModelLimitsRunTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ModelLimitsRunTest);
  CPPUNIT_TEST(capsExitThree);
  CPPUNIT_TEST(largeStepWarnedOnStderr);
  CPPUNIT_TEST(commentCostsItsSizeOnce);
  CPPUNIT_TEST(bytesPerBodyBounded);
  CPPUNIT_TEST_SUITE_END();

 public:
  void capsExitThree() {
    // row 1: SIGSEGV in libgomp before
    expectRefused("threads",
                  nsdyn::test::sceneModel("<ContactManager threads=\"100000\"/>\n" + kBall),
                  {"threads.xml:5: <ContactManager>: attribute 'threads'", "found 100000"});
    // row 10: exit 5 "out of memory" without a line before
    expectRefused(
        "count",
        nsdyn::test::sceneModel("<randomPacking count=\"1e8\"><particle radius=\"0.01\"/>"
                                "<region lower=\"0 0 0\" upper=\"1 1 1\"/></randomPacking>\n"),
        {"count.xml:5: <randomPacking>: attribute 'count'", "found 1e8"});
    // row 7: 4.85 GB and growing before
    expectRefused("roughbase",
                  nsdyn::test::sceneModel("<roughBase radius=\"0.01\" reach=\"40\"/>\n" + kBall),
                  {"roughbase.xml:5: <roughBase>", "found 12566345 spheres"});
    // row 18
    expectRefused("group",
                  nsdyn::test::sceneModel(
                      "<StaticBody name=\"f\" group=\"1e10\"><HalfSpaceShape normal=\"0 0 1\"/>"
                      "</StaticBody>\n" +
                      kBall),
                  {"group.xml:5: <StaticBody>: attribute 'group'", "found 1e10"});
  }
  // row 16: exit 0 and nothing said before
  void largeStepWarnedOnStderr() {
    const Run r = nsdynRun(
        "h1000",
        nsdyn::test::sceneModel("<StaticBody name=\"floor\"><HalfSpaceShape normal=\"0 0 1\"/>"
                                "</StaticBody>\n" +
                                    kBall,
                                "1000", "2000"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.err, 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(
        r.err, r.err.find("nsdyn: warning: ") != std::string::npos &&
                   r.err.find("h1000.xml:9: <simulation>: h = 1000 s") != std::string::npos);
  }
  // row 14: a comment of 24 MB; the run's peak RSS grows by about its size (3 times before)
  void commentCostsItsSizeOnce() {
    const std::string model = nsdyn::test::sceneModel(kBall);
    const std::size_t bytes = 24u << 20;
    std::string comment = "<!-- ";
    while (comment.size() < bytes) comment += std::string(99, 'x') + "\n";
    comment += " -->\n";
    std::string commented = model;
    commented.insert(commented.find("<model>"), comment);
    const Run base = nsdynRun("plain", model), big = nsdynRun("comment", commented);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(big.err, 0, big.status);
#ifdef NSDYN_TEST_SANITIZED
    return;  // ASan's shadow memory and quarantine: other figures
#endif
    const double grown = static_cast<double>(big.maxRssKb - base.maxRssKb) * 1024.0;
    CPPUNIT_ASSERT_MESSAGE(std::to_string(grown / static_cast<double>(bytes)) + " x the comment",
                           grown < 1.5 * static_cast<double>(bytes));
  }
  // row 14: bytes per body of a run (10x and more the examples' 65 bodies)
  void bytesPerBodyBounded() {
    const Run small = nsdynRun("spheres-1000", nsdyn::test::sceneModel(nsdyn::test::spheres(1000)));
    const Run large = nsdynRun("spheres-9000", nsdyn::test::sceneModel(nsdyn::test::spheres(9000)));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(large.err, 0, large.status);
#ifdef NSDYN_TEST_SANITIZED
    return;  // ASan's shadow memory and quarantine: other figures
#endif
    const double perBody = static_cast<double>(large.maxRssKb - small.maxRssKb) * 1024.0 / 8000.0;
    // 5.0 KB measured (7.8 KB before: the default VTK expressions of every body)
    CPPUNIT_ASSERT_MESSAGE(std::to_string(perBody) + " bytes per body", perBody < 6500.0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ModelLimitsRunTest);
