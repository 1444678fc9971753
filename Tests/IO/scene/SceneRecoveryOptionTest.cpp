// <ContactManager><recovery .../></ContactManager> (IO/src/XmlLoader.cpp): the settings reach
// the SceneEngine built from the model; a ball planted 30 % of its radius into the floor is
// pushed out of it without kinetic energy with <recovery/> and without the element (the
// Kernel's default, on), and stays where it is with <recovery enabled="false"/>; bad values
// are refused at their line.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>

#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/io/LoadError.hpp"
#include "nsdyn/io/SceneEngineFromModel.hpp"
#include "nsdyn/io/XmlLoader.hpp"

using nsdyn::io::LoadError;
using nsdyn::io::XmlLoader;

namespace {

// A ball of radius 0.1 over the floor z = 0: @p attributes on <ContactManager> (line 5),
// @p children after its material (line 7), the ball's <position> and <velocity> lines.
std::string ballModel(const std::string& attributes, const std::string& children,
                      const std::string& state) {
  return "<?xml version=\"1.0\"?>\n"
         "<nsdyn version=\"1\" name=\"recovery\">\n"
         "  <model>\n"
         "    <scene gravity=\"0 0 -9.81\">\n"
         "      <ContactManager" +
         attributes +
         ">\n"
         "        <material mu=\"0.5\"/>\n" +
         children +
         "      </ContactManager>\n"
         "      <StaticBody name=\"floor\"><HalfSpaceShape normal=\"0 0 1\"/></StaticBody>\n"
         "      <RigidBody name=\"ball\" density=\"1000\">\n" +
         state +
         "        <SphereShape radius=\"0.1\"/>\n"
         "      </RigidBody>\n"
         "    </scene>\n"
         "  </model>\n"
         "  <simulation type=\"TimeStepping\" T=\"1\" h=\"1e-3\">\n"
         "    <MoreauJeanOSI theta=\"0.5\"/>\n"
         "    <FrictionContact dim=\"3\"/>\n"
         "  </simulation>\n"
         "</nsdyn>\n";
}

// The ball's centre at 0.07 (0.03 = 30 % of the radius into the floor), at rest; @p recovery
// is the content of <ContactManager> after its material (line 7).
std::string plantedBall(const std::string& recovery) {
  return ballModel("", recovery, "        <position>0 0 0.07</position>\n");
}

// The ball 13 mm over the floor at 10 m/s down (h = 1e-3: 1 cm a step), the recovery off;
// @p attributes on <ContactManager> (line 5).
std::string landingBall(const std::string& attributes) {
  return ballModel(attributes, "        <recovery enabled=\"false\"/>\n",
                   "        <position>0 0 0.113</position>\n"
                   "        <velocity>0 0 -10</velocity>\n");
}

struct Run {
  double height = 0.0, largestKineticEnergy = 0.0, lowest = 1e300;
};

Run run(const std::string& xml, int steps) {
  const auto model = XmlLoader().loadString(xml, "recovery.xml");
  const auto engine = nsdyn::io::makeSceneEngine(*model);
  Run r;
  for (int k = 0; k < steps; ++k) {
    engine->step();
    r.largestKineticEnergy = std::max(r.largestKineticEnergy, engine->kineticEnergy());
    const nsdyn::BodyStore& b = engine->bodies();
    for (std::size_t i = 0; i < b.size(); ++i)
      if (!b.isStatic[i]) r.lowest = std::min(r.lowest, b.q[7 * i + 2]);
  }
  const nsdyn::BodyStore& b = engine->bodies();
  for (std::size_t i = 0; i < b.size(); ++i)
    if (!b.isStatic[i]) r.height = b.q[7 * i + 2];
  return r;
}

}  // namespace

class SceneRecoveryOptionTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneRecoveryOptionTest);
  CPPUNIT_TEST(settingsReachTheEngine);
  CPPUNIT_TEST(plantedOverlapRemovedWithoutEnergy);
  CPPUNIT_TEST(badValuesRefusedAtTheirLine);
  CPPUNIT_TEST(speculativeContactsStopALanding);
  CPPUNIT_TEST(keepLoadedContactsReachesTheEngine);
  CPPUNIT_TEST_SUITE_END();

 public:
  void settingsReachTheEngine() {
    // without <recovery>: the Kernel's default (on, OverlapRecoveryOptions)
    const auto plain = XmlLoader().loadString(plantedBall(""), "recovery.xml");
    const nsdyn::OverlapRecoveryOptions d = nsdyn::io::makeSceneEngine(*plain)->options().recovery;
    CPPUNIT_ASSERT(d.enabled);
    CPPUNIT_ASSERT(!nsdyn::io::makeSceneEngine(*plain)->options().speculativeContacts);
    CPPUNIT_ASSERT_EQUAL(nsdyn::OverlapRecoveryOptions().maxSpeed, d.maxSpeed);
    CPPUNIT_ASSERT_EQUAL(nsdyn::OverlapRecoveryOptions().relativeSlop, d.relativeSlop);
    const auto on = XmlLoader().loadString(
        plantedBall("<recovery slop=\"0.001\" max-speed=\"0.2\" iterations=\"50\" "
                    "tolerance=\"1e-8\" relative-slop=\"0.02\"/>\n"),
        "recovery.xml");
    const nsdyn::OverlapRecoveryOptions o = nsdyn::io::makeSceneEngine(*on)->options().recovery;
    CPPUNIT_ASSERT_EQUAL(1.0, o.slopsPerStep);
    const auto relative =
        XmlLoader().loadString(plantedBall("<recovery slops-per-step=\"0.5\"/>\n"), "recovery.xml");
    CPPUNIT_ASSERT_EQUAL(0.5,
                         nsdyn::io::makeSceneEngine(*relative)->options().recovery.slopsPerStep);
    CPPUNIT_ASSERT(o.enabled);
    CPPUNIT_ASSERT_EQUAL(0.001, o.slop);
    CPPUNIT_ASSERT_EQUAL(0.2, o.maxSpeed);
    CPPUNIT_ASSERT_EQUAL(50, o.iterations);
    CPPUNIT_ASSERT_EQUAL(1e-8, o.tolerance);
    CPPUNIT_ASSERT_EQUAL(0.02, o.relativeSlop);
    const auto disabled =
        XmlLoader().loadString(plantedBall("<recovery enabled=\"false\"/>\n"), "recovery.xml");
    CPPUNIT_ASSERT(!nsdyn::io::makeSceneEngine(*disabled)->options().recovery.enabled);
  }

  // 0.03 m of overlap at the default cap (one slop, 1 mm, per step: 1 m/s for this ball of
  // radius 0.1 m at h = 1e-3): out within 400 steps, to the slop (1 % of the radius) and not
  // beyond it; the kinetic energy stays that of a ball at rest.
  void plantedOverlapRemovedWithoutEnergy() {
    const Run without = run(plantedBall("<recovery enabled=\"false\"/>\n"), 400);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.07, without.height, 1e-6);
    for (const std::string& recovery : {std::string("<recovery/>\n"), std::string()}) {
      const Run with = run(plantedBall(recovery), 400);  // the element, then the default
      CPPUNIT_ASSERT_MESSAGE(std::to_string(with.height),
                             with.height > 0.1 - 0.001 - 1e-6 && with.height < 0.1 + 1e-6);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(with.largestKineticEnergy),
                             with.largestKineticEnergy <= 1e-6);
    }
  }

  void badValuesRefusedAtTheirLine() {
    for (const std::string& bad :
         {std::string("<recovery max-speed=\"-1\"/>\n"),
          std::string("<recovery slops-per-step=\"0\"/>\n"),
          std::string("<recovery slop=\"-1\"/>\n"), std::string("<recovery iterations=\"0\"/>\n"),
          std::string("<recovery enabled=\"maybe\"/>\n"),
          std::string("<recovery speed=\"1\"/>\n")}) {
      try {
        XmlLoader().loadString(plantedBall(bad), "recovery.xml");
        CPPUNIT_FAIL("expected a LoadError for " + bad);
      } catch (const LoadError& e) {
        CPPUNIT_ASSERT_EQUAL_MESSAGE(e.what(), 7L, static_cast<long>(e.line()));
      }
    }
  }

  // <ContactManager speculative-contacts="true"> reaches the engine and stops a 10 m/s
  // landing at the surface: without, the ball sinks about h U / 2 (5 mm) and stays there.
  void speculativeContactsStopALanding() {
    const auto on = XmlLoader().loadString(landingBall(" speculative-contacts=\"true\""), "l.xml");
    CPPUNIT_ASSERT(nsdyn::io::makeSceneEngine(*on)->options().speculativeContacts);
    const Run without = run(landingBall(""), 50);
    const Run with = run(landingBall(" speculative-contacts=\"true\""), 50);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(without.lowest), without.lowest < 0.1 - 2e-3);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(with.lowest), with.lowest > 0.1 - 1e-4);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, with.height, 1e-4);
    try {
      XmlLoader().loadString(landingBall(" speculative-contacts=\"maybe\""), "l.xml");
      CPPUNIT_FAIL("expected a LoadError for speculative-contacts=\"maybe\"");
    } catch (const LoadError& e) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(e.what(), 5L, static_cast<long>(e.line()));
    }
  }

  // <ContactManager keep-loaded-contacts="true|false"> reaches the engine (absent: unset, the
  // library default, off); a bad value is refused at its line (its effect:
  // SceneAutoTest::loadedContactsStayInTheProblem)
  void keepLoadedContactsReachesTheEngine() {
    const auto unset = XmlLoader().loadString(landingBall(""), "l.xml");
    CPPUNIT_ASSERT(
        !nsdyn::io::makeSceneEngine(*unset)->options().contacts.keepLoadedContacts.has_value());
    const auto on = XmlLoader().loadString(landingBall(" keep-loaded-contacts=\"true\""), "l.xml");
    CPPUNIT_ASSERT(nsdyn::io::makeSceneEngine(*on)->options().contacts.keepLoadedContacts == true);
    const auto off =
        XmlLoader().loadString(landingBall(" keep-loaded-contacts=\"false\""), "l.xml");
    CPPUNIT_ASSERT(nsdyn::io::makeSceneEngine(*off)->options().contacts.keepLoadedContacts ==
                   false);
    try {
      XmlLoader().loadString(landingBall(" keep-loaded-contacts=\"often\""), "l.xml");
      CPPUNIT_FAIL("expected a LoadError for keep-loaded-contacts=\"often\"");
    } catch (const LoadError& e) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(e.what(), 5L, static_cast<long>(e.line()));
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneRecoveryOptionTest);
