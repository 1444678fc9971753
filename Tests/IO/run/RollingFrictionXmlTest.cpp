// <material rolling> and <RollingFrictionContact> in model files (issue 27): the rolling
// sphere of Tests/IO/models/RollingSphere.xml run by `nsdyn run` gives the closed-form speed,
// the rolling moment at its bound and the energy balance with the rolling work; bad values
// and a rolling material without <RollingFrictionContact> refused with the file and line.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <nsdyn/RollingFrictionContact.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include "run_helpers.hpp"

using namespace nsdyn::test;

namespace {

// A sphere on a floor; @p material the <material> attributes, @p problem the problem element.
std::string model(const std::string& material, const std::string& problem) {
  return "<?xml version=\"1.0\"?>\n"
         "<nsdyn version=\"1\" name=\"rolling\">\n"
         "  <model>\n"
         "    <scene gravity=\"0 0 -9.81\">\n"
         "      <ContactManager>\n"
         "        <material " +
         material +
         "/>\n"
         "      </ContactManager>\n"
         "      <StaticBody name=\"floor\"><HalfSpaceShape normal=\"0 0 1\"/></StaticBody>\n"
         "      <RigidBody name=\"ball\" mass=\"1\"><position>0 0 0.1</position>"
         "<SphereShape radius=\"0.1\"/></RigidBody>\n"
         "    </scene>\n"
         "  </model>\n"
         "  <simulation T=\"0.01\" h=\"1e-3\">\n"
         "    <MoreauJeanOSI theta=\"0.5\"/>\n"
         "    " +
         problem +
         "\n"
         "  </simulation>\n"
         "</nsdyn>\n";
}

long lineOf(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  CPPUNIT_ASSERT_MESSAGE("marker " + marker, at != std::string::npos);
  return 1 + static_cast<long>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

void expectError(const std::string& xml, const std::string& marker, const std::string& words) {
  try {
    nsdyn::io::XmlLoader().loadString(xml, "dir/model.xml");
  } catch (const nsdyn::io::LoadError& e) {
    const std::string what = e.what();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, lineOf(xml, marker), e.line());
    CPPUNIT_ASSERT_MESSAGE(what,
                           what.rfind("dir/model.xml:" + std::to_string(e.line()) + ": ", 0) == 0);
    CPPUNIT_ASSERT_MESSAGE(what + " (expected '" + words + "')",
                           what.find(words) != std::string::npos);
    return;
  }
  CPPUNIT_FAIL("no LoadError for " + marker + " (" + words + ")");
}

}  // namespace

class RollingFrictionXmlTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RollingFrictionXmlTest);
  CPPUNIT_TEST(rollingSphereRun);
  CPPUNIT_TEST(loads);
  CPPUNIT_TEST(errors);
  CPPUNIT_TEST_SUITE_END();

 public:
  void rollingSphereRun() {
    const std::string dir = scratch("rolling");
    const Run r = run(kBin + "/nsdyn run " + std::string(NSDYN_SOURCE_DIR) +
                      "/Tests/IO/models/RollingSphere.xml --output " + dir);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    const Csv csv = readCsv(dir + "/RollingSphere.csv");
    CPPUNIT_ASSERT_EQUAL(std::size_t(301), csv.rows.size());
    const double g = 9.81, R = 0.1, rolling = 0.01, theta = 20.0 * std::acos(-1.0) / 180.0;
    const double a = g * (std::sin(theta) - rolling / R * std::cos(theta)) / 1.4;
    const std::vector<double>& last = csv.rows.back();
    // v(T) = a T, no slip, the rolling moment at its bound rolling m g cos(theta) h
    CPPUNIT_ASSERT_DOUBLES_EQUAL(a * 0.3, last[1], 1e-6 * a * 0.3);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(last[1], last[2], 1e-9);
    const double moment = rolling * g * std::cos(theta) * 1e-3;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(moment, last[3], 1e-9 * moment);
    // energy balance: the drop of kinetic + potential energy is the contact work (rolling)
    const double drop = csv.rows.front()[5] - last[5];
    CPPUNIT_ASSERT(drop > 0.07);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-drop, last[4], 1e-9);
    std::filesystem::remove_all(dir);
  }

  void loads() {
    auto m = nsdyn::io::XmlLoader().loadString(
        model("mu=\"0.4\" rolling=\"0.002\"", "<RollingFrictionContact solver=\"pg\"/>"),
        "model.xml");
    auto p =
        std::dynamic_pointer_cast<nsdyn::RollingFrictionContact>(m->simulation->oneStepNSProblem());
    CPPUNIT_ASSERT(p);
    CPPUNIT_ASSERT_EQUAL(std::string("pg"), p->solverName());
    CPPUNIT_ASSERT_EQUAL(0.002, m->scene->contacts->defaultMaterial().rolling);
    CPPUNIT_ASSERT_EQUAL(0.4, m->scene->contacts->defaultMaterial().mu);
    // rolling = 0 with FrictionContact: as before
    m = nsdyn::io::XmlLoader().loadString(
        model("mu=\"0.4\" rolling=\"0\"", "<FrictionContact dim=\"3\"/>"), "model.xml");
    CPPUNIT_ASSERT_EQUAL(0.0, m->scene->contacts->defaultMaterial().rolling);
  }

  void errors() {
    expectError(model("mu=\"0.4\" rolling=\"-0.01\"", "<RollingFrictionContact/>"), "<material",
                "attribute 'rolling': expected a rolling resistance length >= 0 (m), found -0.01");
    expectError(model("mu=\"0.4\" rolling=\"0.01\"", "<FrictionContact dim=\"3\"/>"),
                "<FrictionContact",
                "expected <RollingFrictionContact> for the <material> rolling = 0.01");
    expectError(model("mu=\"0.4\"", "<RollingFrictionContact solver=\"lemke\"/>"),
                "<RollingFrictionContact", "attribute 'solver': expected one of nsgs, pg");
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RollingFrictionXmlTest);
