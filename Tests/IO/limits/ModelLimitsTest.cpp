// Issue 23, model input: every cap of the loader refused at the element's line with the
// value (threads, counts, integers, hull points, shapes per body, a rough base), the
// body's name in run-time errors, the step-size warning, and loading linear in the body
// count with bounded memory per body.
#include <cppunit/extensions/HelperMacros.h>
#include <malloc.h>

#include <chrono>
#include <cmath>
#include <ctime>
#include <string>

#include <nsdyn/ContactManager.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/SceneGenerators.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include "../xml/xml_fixture.hpp"
#include "scene_fixture.hpp"

using nsdyn::io::LoadError;
using nsdyn::io::XmlLoader;
using nsdyn::test::sceneModel;

namespace {

LoadError loadError(const std::string& xml) {
  try {
    XmlLoader().loadString(xml, "model.xml");
  } catch (const LoadError& e) {
    return e;
  }
  CPPUNIT_FAIL("expected a LoadError, the model loaded");
  return LoadError("", 0, "");
}

// The error of @p xml is on @p line and its message holds each of @p texts.
void expectError(const std::string& xml, long line, std::initializer_list<std::string> texts) {
  const LoadError e = loadError(xml);
  const std::string what = e.what();
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, line, e.line());
  CPPUNIT_ASSERT_MESSAGE(what, what.rfind("model.xml:" + std::to_string(line) + ": ", 0) == 0);
  for (const std::string& t : texts)
    CPPUNIT_ASSERT_MESSAGE("'" + t + "' not in: " + what, what.find(t) != std::string::npos);
}

template <class F>
std::string kernelError(F f) {
  try {
    f();
  } catch (const nsdyn::Error& e) {
    return e.what();
  }
  CPPUNIT_FAIL("expected an nsdyn::Error");
  return "";
}

const std::string kBall =
    "<RigidBody name=\"ball\" density=\"1000\"><position>0 0 1</position>"
    "<SphereShape radius=\"0.1\"/></RigidBody>\n";

// Heap bytes in use (glibc).
double heapInUse() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd);
}

double cpuSeconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

}  // namespace

class ModelLimitsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ModelLimitsTest);
  CPPUNIT_TEST(detectionThreadsCapped);
  CPPUNIT_TEST(packingCountCapped);
  CPPUNIT_TEST(roughBaseRefusedWithItsSize);
  CPPUNIT_TEST(integersOutOfRangeRefused);
  CPPUNIT_TEST(hullPointsCapped);
  CPPUNIT_TEST(shapesPerBodyBlameTheBody);
  CPPUNIT_TEST(nanLoadNamesTheBody);
  CPPUNIT_TEST(systemsNamedAsInTheFile);
  CPPUNIT_TEST(largeStepWarned);
  CPPUNIT_TEST(loadingLinearInTheBodyCount);
  CPPUNIT_TEST(loaderLimitsOfTheFuzzer);
  CPPUNIT_TEST_SUITE_END();

 public:
  // row 1: 100000 crashed libgomp, 30000 hung; the cap is the solvers' (4096)
  void detectionThreadsCapped() {
    for (const char* threads : {"100000", "30000", "4097", "-1", "1e10"})
      expectError(
          sceneModel("<ContactManager threads=\"" + std::string(threads) + "\"/>\n" + kBall), 5,
          {"<ContactManager>: attribute 'threads'", threads});
    expectError(sceneModel("<ContactManager threads=\"100000\"/>\n" + kBall), 5,
                {"expected an integer in [0, 4096]", "found 100000"});
    // the Kernel refuses it too (C++ and Python callers)
    nsdyn::ContactManagerOptions o;
    o.detection.threads = 100000;
    CPPUNIT_ASSERT(kernelError([&] { nsdyn::ContactManager m(o); }).find("threads = 100000") !=
                   std::string::npos);
    nsdyn::ContactManager m;
    CPPUNIT_ASSERT(kernelError([&] { m.setThreads(30000); }).find("threads = 30000") !=
                   std::string::npos);
    m.setThreads(4096);  // the cap itself is accepted
  }
  // row 10: 1e8 ran out of memory (exit 5, no line); a scene holds at most 2^21 bodies
  void packingCountCapped() {
    const std::string particles =
        "><particle radius=\"0.01\"/><region lower=\"0 0 0\" upper=\"1 1 1\"/>";
    expectError(
        sceneModel("<randomPacking count=\"1e8\"" + particles + "</randomPacking>\n"), 5,
        {"attribute 'count': expected an integer in [1, 2097152]", "found 1e8 = 100000000"});
    expectError(sceneModel("<latticePacking count=\"3000000\"" + particles + "</latticePacking>\n"),
                5, {"expected an integer in [0, 2097152]", "found 3000000"});
    // two packings together above the cap: the second is refused with what is left
    expectError(
        sceneModel(kBall + "<randomPacking count=\"2097152\"" + particles + "</randomPacking>\n"),
        6, {"expected at most 2097151 particles", "1 before this element"});
    nsdyn::scenes::ParticleSpec p;
    nsdyn::scenes::Region r{{0, 0, 0}, {1, 1, 1}};
    CPPUNIT_ASSERT(kernelError([&] {
                     nsdyn::scenes::randomPacking(p, r, 100000000, 1, 10);
                   }).find("count = 100000000") != std::string::npos);
  }
  // row 7: 2000 spheres along the radius (its documented cap) took 4.85 GB and ran on
  void roughBaseRefusedWithItsSize() {
    const auto start = std::chrono::steady_clock::now();
    expectError(sceneModel("<roughBase radius=\"0.01\" reach=\"40\"/>\n" + kBall), 5,
                {"<roughBase>", "at most 2097152 spheres", "found 12566345 spheres",
                 "reach / (2 radius) = 2000", "MB"});
    CPPUNIT_ASSERT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
                   5.0);
    // within the cap: made as documented
    auto m = XmlLoader().loadString(
        sceneModel("<roughBase radius=\"0.01\" reach=\"0.09\"/>\n" + kBall), "model.xml");
    CPPUNIT_ASSERT_EQUAL(std::size_t(70), m->scene->bodyNames.size());  // 69 spheres, the ball
  }
  // row 18: group="1e10" was cast to int
  void integersOutOfRangeRefused() {
    expectError(
        sceneModel("<StaticBody name=\"f\" group=\"1e10\"><HalfSpaceShape normal=\"0 0 1\"/>"
                   "</StaticBody>\n" +
                   kBall),
        5, {"attribute 'group': expected an integer in [0, 2147483647]", "found 1e10"});
    expectError(sceneModel("<RigidBody name=\"b\" density=\"1\" group=\"2147483648\">"
                           "<SphereShape radius=\"1\"/></RigidBody>\n"),
                5, {"attribute 'group'", "found 2147483648"});
    expectError(
        sceneModel("<ContactManager><material groups=\"0 1e10\" mu=\"1\"/></ContactManager>\n" +
                   kBall),
        5, {"<material>: attribute 'groups': expected two integers in [0, 2147483647]"});
    // an int of the simulation: Newton iterations
    const std::string body = nsdyn::test::bodyModel();
    const std::string from = "max-iterations=\"20\"";
    std::string big = body;
    big.replace(big.find(from), from.size(), "max-iterations=\"1e10\"");
    expectError(big, 42, {"attribute 'max-iterations': expected an integer in [1, 2147483647]"});
    // a law's rows size its interaction's vectors: size="1e12" took 24 GB and was killed
    std::string rows = body;
    const std::string law = "<EqualityConditionNSL size=\"3\"/>";
    rows.replace(rows.find(law), law.size(), "<EqualityConditionNSL size=\"1e12\"/>");
    expectError(rows, 30,
                {"<EqualityConditionNSL>: attribute 'size': expected an integer in [1, 1000000]",
                 "found 1e12"});
  }
  // row 14: a 10^6-point hull took 905 MB and 70 s; refused before it is split
  void hullPointsCapped() {
    std::string points = "0 0 0";
    for (int k = 0; k < 100000; ++k) points += "; 0 0 0";
    const auto start = std::chrono::steady_clock::now();
    expectError(
        sceneModel("<RigidBody name=\"die\" mass=\"1\">\n<ConvexHullShape points=\"" + points +
                   "\"/></RigidBody>\n"),
        6,
        {"<ConvexHullShape>: attribute 'points': expected at most 100000 points", "found 100001"});
    CPPUNIT_ASSERT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() <
                   2.0);
  }
  // row 15: 65 shapes were blamed on <simulation> (the detector's limit at initialize)
  void shapesPerBodyBlameTheBody() {
    std::string shapes;
    for (int k = 0; k < 65; ++k)
      shapes += "<SphereShape radius=\"0.01\"><position>" + std::to_string(0.03 * k) +
                " 0 0</position></SphereShape>\n";
    expectError(sceneModel(kBall + "<RigidBody name=\"chain\" density=\"1000\">\n" + shapes +
                           "</RigidBody>\n"),
                6, {"<RigidBody>: expected at most 64 shapes on a body, found 65"});
    expectError(sceneModel(kBall + "<StaticBody name=\"rocks\">\n" + shapes + "</StaticBody>\n"), 6,
                {"<StaticBody>: expected at most 64 shapes on a body, found 65"});
  }
  // row 15: a NaN moment at run time reached LAPACK ("error -8") without body or cause
  void nanLoadNamesTheBody() {
    auto m = XmlLoader().loadString(
        sceneModel("<StaticBody name=\"floor\"><HalfSpaceShape normal=\"0 0 1\"/></StaticBody>\n"
                   "<RigidBody name=\"wheel\" density=\"1000\"><SphereShape radius=\"0.1\"/>\n"
                   "<mExt>0 0 if(t &gt; 0.05, sqrt(t - 1), 0)</mExt></RigidBody>\n"),
        "model.xml");
    const auto& moment = m->scene->loads.at(1).momentOfTime;
    CPPUNIT_ASSERT_EQUAL(0.0, moment(0.01)(2));
    const std::string what = kernelError([&] { moment(0.06); });
    for (const std::string& t :
         {std::string("model.xml:7: <mExt> of body 'wheel'"), std::string("entry 2 = "),
          std::string("nan"), std::string("at t = 0.06")})
      CPPUNIT_ASSERT_MESSAGE("'" + t + "' not in: " + what, what.find(t) != std::string::npos);
    // a <NewtonEulerDS> of <systems> likewise
    std::string body = nsdyn::test::bodyModel();
    const std::string from = "<mExt>0 0 0</mExt>";
    body.replace(body.find(from), from.size(), "<mExt>0 0 log(0.05 - t)</mExt>");
    auto arm = XmlLoader().loadString(body, "model.xml");
    auto tip = std::dynamic_pointer_cast<nsdyn::NewtonEulerDS>(arm->system("tip"));
    const std::string what2 = kernelError([&] { tip->computeMExt(0.1); });
    CPPUNIT_ASSERT_MESSAGE(what2, what2.find("model.xml:25: <mExt> of body 'tip'") == 0);
  }
  // row 15: the Kernel's messages named a body "NewtonEulerDS #0"
  void systemsNamedAsInTheFile() {
    auto m = XmlLoader().loadString(nsdyn::test::bodyModel(), "model.xml");
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonEulerDS 'arm'"), m->system("arm")->name());
    auto s = XmlLoader().loadString(sceneModel(kBall), "model.xml");
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonEulerDS 'ball'"), s->system("ball")->name());
  }
  // row 16: h = 1000 ran silently, bodies 4.9e6 m under the floor
  void largeStepWarned() {
    auto m = XmlLoader().loadString(sceneModel(kBall, "1000", "2000"), "model.xml");
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), m->warnings.size());
    const std::string& w = m->warnings[0];
    for (const std::string& t :
         {std::string("model.xml:8: <simulation>: h = 1000 s is too large"),
          std::string("g h^2 = 9.81e+06 m"), std::string("smallest body radius 0.1 m"),
          std::string("sqrt(radius / g) = 0.101 s")})
      CPPUNIT_ASSERT_MESSAGE("'" + t + "' not in: " + w, w.find(t) != std::string::npos);
    // g h^2 = 0.098 m < 0.1 m: no warning
    CPPUNIT_ASSERT(
        XmlLoader().loadString(sceneModel(kBall, "0.1", "0.2"), "m.xml")->warnings.empty());
  }
  // row 14 and the loading time: memory per body bounded, time linear in the body count
  // (2,000 spheres 0.41 s and 8,000 3.27 s before: quadratic)
  void loadingLinearInTheBodyCount() {
    const std::string small = sceneModel(nsdyn::test::spheres(2500));
    const std::string large = sceneModel(nsdyn::test::spheres(10000));
    auto cpu = [](const std::string& xml, double* bytes) {
      double best = INFINITY;
      for (int k = 0; k < 2; ++k) {
        const double heap0 = heapInUse(), t0 = cpuSeconds();
        auto m = XmlLoader().loadString(xml, "model.xml");
        best = std::min(best, cpuSeconds() - t0);
        if (bytes) *bytes = heapInUse() - heap0;  // what the loaded model keeps
      }
      return best;
    };
    double keptSmall = 0.0, keptLarge = 0.0;
    const double tSmall = cpu(small, &keptSmall), tLarge = cpu(large, &keptLarge);
    const double perBody = (keptLarge - keptSmall) / 7500.0;
    const std::string figures = "2,500 bodies " + std::to_string(tSmall) + " s, 10,000 bodies " +
                                std::to_string(tLarge) + " s CPU; " + std::to_string(perBody) +
                                " bytes kept per body";
#ifdef NSDYN_TEST_SANITIZED
    return;  // no heap figures under ASan, and its times
#endif
    CPPUNIT_ASSERT_MESSAGE(figures, tLarge < 1.0);                  // 0.25 s measured
    CPPUNIT_ASSERT_MESSAGE(figures, tLarge < 7.0 * tSmall + 0.05);  // quadratic: 16x
    // 4.05 KB measured (with the default VTK expressions of every body: about 7 KB)
    CPPUNIT_ASSERT_MESSAGE(figures, perBody > 1000.0 && perBody < 5000.0);
  }

  // LoaderLimits (the fuzzing harness's): plugins refused at their line, the scene's bodies
  // bounded whether written one by one, packed or laid as a rough base; the defaults load
  // the same files.
  void loaderLimitsOfTheFuzzer() {
    nsdyn::io::LoaderLimits limits;
    limits.plugins = false;
    limits.sceneBodies = 3;
    XmlLoader bounded;
    bounded.setLimits(limits);
    const auto refused = [&bounded](const std::string& xml, long line, const std::string& text) {
      try {
        bounded.loadString(xml, "model.xml");
      } catch (const LoadError& e) {
        CPPUNIT_ASSERT_EQUAL_MESSAGE(e.what(), line, e.line());
        CPPUNIT_ASSERT_MESSAGE(e.what(), std::string(e.what()).find(text) != std::string::npos);
        return;
      }
      CPPUNIT_FAIL("expected a LoadError: " + text);
    };
    const std::string plugin =
        "<?xml version=\"1.0\"?>\n<nsdyn version=\"1\">\n<plugin library=\"libm.so.6\"/>\n"
        "</nsdyn>\n";
    refused(plugin, 3, "plugins are not allowed");
    refused(sceneModel(nsdyn::test::spheres(3)), 8, "at most 3 scene bodies");
    const std::string packing =
        "<randomPacking count=\"4\" seed=\"1\"><particle radius=\"0.01\"/>"
        "<region lower=\"0 0 0\" upper=\"1 1 1\"/></randomPacking>\n";
    refused(sceneModel(packing), 5, "found 4");
    const std::string base = "<roughBase radius=\"0.01\" reach=\"0.05\"/>\n";
    refused(sceneModel(base), 5, "the loader's limit");
    // the same files within the default limits
    CPPUNIT_ASSERT(XmlLoader().loadString(sceneModel(nsdyn::test::spheres(3)), "m.xml")->scene);
    CPPUNIT_ASSERT(XmlLoader().loadString(sceneModel(base), "m.xml")->scene);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ModelLimitsTest);
