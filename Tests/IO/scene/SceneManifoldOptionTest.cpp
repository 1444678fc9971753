// The <ContactManager convex-manifold="..."> attribute (IO/src/XmlLoader.cpp): it reaches the
// ContactManager's options and the SceneEngine built from the model (a box set flat on a
// static hull slab, a pair without a closed form: 4 contacts with the manifold, the single
// point of convexContact without); a value other than true/false/1/0 is refused at its line.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <string>

#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/io/LoadError.hpp"
#include "nsdyn/io/SceneEngineFromModel.hpp"
#include "nsdyn/io/XmlLoader.hpp"

using nsdyn::io::LoadError;
using nsdyn::io::XmlLoader;

namespace {

// A 10 cm box set down flat (gap 0) on the top facet (z = 0.1) of a static 1 m hull slab;
// @p attribute goes on <ContactManager>.
std::string boxOnSlab(const std::string& attribute) {
  return "<?xml version=\"1.0\"?>\n"
         "<nsdyn version=\"1\" name=\"manifold\">\n"
         "  <model>\n"
         "    <scene gravity=\"0 0 -9.81\">\n"
         "      <ContactManager margin=\"0.001\"" +
         attribute +
         "/>\n"
         "      <StaticBody name=\"slab\">\n"
         "        <ConvexHullShape points=\"-0.5 -0.5 -0.1; 0.5 -0.5 -0.1; -0.5 0.5 -0.1; 0.5 0.5 "
         "-0.1; -0.5 -0.5 0.1; 0.5 -0.5 0.1; -0.5 0.5 0.1; 0.5 0.5 0.1\"/>\n"
         "      </StaticBody>\n"
         "      <RigidBody name=\"box\" density=\"1000\">\n"
         "        <position>0.1 -0.05 0.15</position>\n"
         "        <BoxShape half-extents=\"0.05 0.05 0.05\"/>\n"
         "      </RigidBody>\n"
         "    </scene>\n"
         "  </model>\n"
         "  <simulation type=\"TimeStepping\" T=\"0.01\" h=\"1e-3\">\n"
         "    <MoreauJeanOSI theta=\"0.5\"/>\n"
         "    <FrictionContact dim=\"3\"/>\n"
         "  </simulation>\n"
         "</nsdyn>\n";
}

}  // namespace

class SceneManifoldOptionTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneManifoldOptionTest);
  CPPUNIT_TEST(attributeReachesTheEngine);
  CPPUNIT_TEST(badValueRefusedAtItsLine);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// Default and "true": the manifold, 4 contacts at the first step; "false" and "0": the
  /// single point, 1 contact.
  void attributeReachesTheEngine() {
    struct Case {
      std::string attribute;
      bool manifold;
      std::size_t contacts;
    };
    const Case cases[4] = {{"", true, 4},
                           {" convex-manifold=\"true\"", true, 4},
                           {" convex-manifold=\"false\"", false, 1},
                           {" convex-manifold=\"0\"", false, 1}};
    for (const Case& c : cases) {
      const auto model = XmlLoader().loadString(boxOnSlab(c.attribute), "manifold.xml");
      CPPUNIT_ASSERT_EQUAL_MESSAGE(c.attribute, c.manifold,
                                   model->scene->contacts->options().detection.ccd.manifold);
      const auto engine = nsdyn::io::makeSceneEngine(*model);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(c.attribute, c.manifold,
                                   engine->options().contacts.detection.ccd.manifold);
      const auto& report = engine->step();
      CPPUNIT_ASSERT_EQUAL_MESSAGE(c.attribute, c.contacts, report.contacts);
    }
  }

  /// convex-manifold="yes": a LoadError naming the file, the line of <ContactManager>, the
  /// attribute and the value.
  void badValueRefusedAtItsLine() {
    const std::string xml = boxOnSlab(" convex-manifold=\"yes\"");
    const long line =
        1 + static_cast<long>(std::count(
                xml.begin(), xml.begin() + static_cast<std::ptrdiff_t>(xml.find("<ContactManager")),
                '\n'));
    try {
      XmlLoader().loadString(xml, "manifold.xml");
    } catch (const LoadError& e) {
      const std::string what = e.what();
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, std::string("manifold.xml"), e.file());
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, line, e.line());
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, 5l, line);
      CPPUNIT_ASSERT_MESSAGE(what, what.find("manifold.xml:5") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(
          what, what.find("attribute 'convex-manifold': expected true or false, found 'yes'") !=
                    std::string::npos);
      return;
    }
    CPPUNIT_FAIL("convex-manifold=\"yes\" was accepted");
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneManifoldOptionTest);
