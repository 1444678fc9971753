// XmlLoader errors: each names the file, the line and what was expected, and
// comes before anything runs.
#include <cppunit/extensions/HelperMacros.h>

#include <string>

#include <nsdyn/io/XmlLoader.hpp>

#include "xml_fixture.hpp"

using nsdyn::io::LoadError;
using nsdyn::io::XmlLoader;

namespace {

// Load @p xml as "model.xml" and return the error (fails the test if none).
LoadError loadError(const std::string& xml) {
  try {
    XmlLoader().loadString(xml, "model.xml");
  } catch (const LoadError& e) {
    return e;
  }
  CPPUNIT_FAIL("expected a LoadError, the model loaded");
  return LoadError("", 0, "");
}

// The error of @p xml is on @p line and its message contains @p text.
void expectError(const std::string& xml, long line, const std::string& text) {
  const LoadError e = loadError(xml);
  const std::string what = e.what();
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, std::string("model.xml"), e.file());
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, line, e.line());
  CPPUNIT_ASSERT_MESSAGE("'" + text + "' not in: " + what, what.find(text) != std::string::npos);
  CPPUNIT_ASSERT_MESSAGE(what, what.rfind("model.xml:" + std::to_string(line) + ": ", 0) == 0);
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  CPPUNIT_ASSERT_MESSAGE("fixture lacks " + from, at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

class XmlErrorsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(XmlErrorsTest);
  CPPUNIT_TEST(malformedXml);
  CPPUNIT_TEST(wrongRootElement);
  CPPUNIT_TEST(unknownElement);
  CPPUNIT_TEST(unknownAttribute);
  CPPUNIT_TEST(missingAttribute);
  CPPUNIT_TEST(missingElement);
  CPPUNIT_TEST(emptyValue);
  CPPUNIT_TEST(notANumber);
  CPPUNIT_TEST(unknownParameter);
  CPPUNIT_TEST(wrongMatrixSize);
  CPPUNIT_TEST(raggedMatrix);
  CPPUNIT_TEST(wrongVectorSize);
  CPPUNIT_TEST(wrongRelationColumns);
  CPPUNIT_TEST(undefinedSystem);
  CPPUNIT_TEST(undefinedFunction);
  CPPUNIT_TEST(functionOfTheWrongSignature);
  CPPUNIT_TEST(functionReadsBeyondQ);
  CPPUNIT_TEST(functionOfTheWrongSize);
  CPPUNIT_TEST(unknownSolver);
  CPPUNIT_TEST(lawTheProblemRejects);
  CPPUNIT_TEST(badOutputReference);
  CPPUNIT_TEST(outputIndexOutOfRange);
  CPPUNIT_TEST(undefinedPlotColumn);
  CPPUNIT_TEST(duplicateNames);
  CPPUNIT_TEST(kernelErrorGetsTheLine);
  CPPUNIT_TEST(missingFile);
  CPPUNIT_TEST_SUITE_END();

 public:
  void malformedXml() {
    // the closing tag of <q0> is misspelt on line 11
    expectError(replace(nsdyn::test::ballModel(), "<q0>1 0 0</q0>", "<q0>1 0 0</q>"), 11,
                "malformed XML");
    // an element left open: reported where it starts
    expectError("<nsdyn>\n<model>\n", 2, "malformed XML");
  }
  void wrongRootElement() {
    expectError("<?xml version=\"1.0\"?>\n<model/>\n", 2, "expected the root element <nsdyn>");
  }
  void unknownElement() {
    expectError(replace(nsdyn::test::ballModel(), "<v0>0 0 0</v0>", "<velocity>0 0 0</velocity>"),
                12,
                "unknown element <velocity> in <LagrangianLinearTIDS> (expected one of: q0, v0, "
                "mass, K, C, fExt)");
  }
  void unknownAttribute() {
    expectError(replace(nsdyn::test::ballModel(), "<NewtonImpactNSL e=\"0.9\"/>",
                        "<NewtonImpactNSL e=\"0.9\" mu=\"1\"/>"),
                19, "unknown attribute 'mu' (expected one of: e, size)");
  }
  void missingAttribute() {
    expectError(
        replace(nsdyn::test::ballModel(), "<NewtonImpactNSL e=\"0.9\"/>", "<NewtonImpactNSL/>"), 19,
        "<NewtonImpactNSL>: expected attribute 'e' (restitution coefficient), found none");
    expectError(replace(nsdyn::test::ballModel(), " h=\"0.005\"", ""), 24,
                "expected attribute 'h' (time step)");
  }
  void missingElement() {
    expectError(replace(nsdyn::test::ballModel(), "        <q0>1 0 0</q0>\n", ""), 10,
                "expected a child element <q0>, found none");
    expectError(replace(nsdyn::test::ballModel(), "    <LCP solver=\"lemke\"/>\n", ""), 24,
                "expected a nonsmooth problem (LCP, MLCP, Relay, FrictionContact) for the 1 "
                "interactions, found none");
  }
  void emptyValue() {
    expectError(replace(nsdyn::test::ballModel(), "<q0>1 0 0</q0>", "<q0> </q0>"), 11,
                "<q0>: expected the entries of q0 (initial positions), found none");
    expectError(replace(nsdyn::test::ballModel(), "e=\"0.9\"", "e=\"\""), 19,
                "expected a value for attribute 'e'");
  }
  void notANumber() {
    expectError(
        replace(nsdyn::test::ballModel(), "<q0>1 0 0</q0>", "<q0>1 0 0x</q0>"), 11,
        "entry 2: in '0x' at character 2: expected an operator or the end of the expression");
  }
  void unknownParameter() {
    expectError(replace(nsdyn::test::ballModel(), "-m*g 0 0", "-m*gravity 0 0"), 14,
                "unknown name 'gravity' (expected a number or a parameter: R, g, m)");
  }
  void wrongMatrixSize() {
    expectError(replace(nsdyn::test::ballModel(), "<mass form=\"diagonal\">m m 0.4*m*R*R</mass>",
                        "<mass>1, 0, 0; 0, 1, 0</mass>"),
                13, "expected the mass matrix (n x n, n = size of q0) of size 3x3, found 2x3");
  }
  void raggedMatrix() {
    expectError(replace(nsdyn::test::ballModel(), "<mass form=\"diagonal\">m m 0.4*m*R*R</mass>",
                        "<mass>1, 0, 0; 0, 1; 0, 0, 1</mass>"),
                13,
                "expected every row of the mass matrix (n x n, n = size of q0) with 3 entries (as "
                "row 0), found 2 in row 1");
  }
  void wrongVectorSize() {
    expectError(replace(nsdyn::test::ballModel(), "<v0>0 0 0</v0>", "<v0>0 0</v0>"), 12,
                "expected v0 (initial velocities, size of q0) of size 3, found 2 entries");
  }
  void wrongRelationColumns() {
    expectError(replace(nsdyn::test::ballModel(), "<H>1 0 0</H>", "<H>1 0</H>"), 20,
                "expected H (1x3: law size x dof of the linked systems) of size 1x3, found 1x2");
  }
  void undefinedSystem() {
    expectError(replace(nsdyn::test::ballModel(), "systems=\"ball\"", "systems=\"bal\""), 18,
                "reference to an undefined system 'bal' (defined: ball)");
  }
  void undefinedFunction() {
    expectError(
        replace(nsdyn::test::ballModel(), "<fExt>-m*g 0 0</fExt>", "<fExt function=\"gravity\"/>"),
        14, "reference to an undefined function 'gravity' (defined: none)");
  }
  void functionOfTheWrongSignature() {
    std::string xml =
        replace(nsdyn::test::ballModel(), "<fExt>-m*g 0 0</fExt>", "<fExt function=\"f\"/>");
    xml = replace(xml, "  <model>",
                  "  <functions><function name=\"f\" args=\"q\" returns=\"vector\">0, 0, "
                  "0</function></functions>\n  <model>");
    expectError(xml, 15, "expected function 'f' to be a vector of (t), found a vector of (q)");
  }
  void functionReadsBeyondQ() {
    const std::string systems =
        "      <LagrangianDS name=\"ball\">\n"
        "        <q0>1 0 0</q0>\n"
        "        <mass function=\"M\"/>\n"
        "      </LagrangianDS>\n";
    std::string xml =
        replace(nsdyn::test::ballModel(systems), "  <model>",
                "  <functions><function name=\"M\" args=\"q\" "
                "returns=\"matrix\">1,0,0;0,1,0;0,0,q[3]</function></functions>\n  <model>");
    expectError(xml, 13, "function 'M' (line 8) reads q[3]: expected indices below 3");
  }
  void functionOfTheWrongSize() {
    const std::string systems =
        "      <LagrangianDS name=\"ball\">\n"
        "        <q0>1 0 0</q0>\n"
        "        <mass function=\"M\"/>\n"
        "      </LagrangianDS>\n";
    std::string xml = replace(nsdyn::test::ballModel(systems), "  <model>",
                              "  <functions><function name=\"M\" args=\"q\" "
                              "returns=\"matrix\">1,0;0,q[0]</function></functions>\n  <model>");
    expectError(
        xml, 13,
        "expected the mass M(q) (n x n, n = size of q0) of size 3x3, found 2x2 from function 'M'");
  }
  void unknownSolver() {
    expectError(
        replace(nsdyn::test::ballModel(), "<LCP solver=\"lemke\"/>", "<LCP solver=\"lemk\"/>"), 26,
        "attribute 'solver': expected one of lemke");
  }
  void lawTheProblemRejects() {
    expectError(replace(nsdyn::test::ballModel(), "<LCP solver=\"lemke\"/>", "<Relay/>"), 24,
                "the model does not initialise");
  }
  void badOutputReference() {
    expectError(replace(nsdyn::test::ballModel(), "value=\"ball.q[0]\"", "value=\"ball.z[0]\""), 31,
                "'ball.z[0]': expected a field of a Lagrangian system: q, v, p, q_prev, v_prev");
    expectError(replace(nsdyn::test::ballModel(), "value=\"ball.q[0]\"", "value=\"wall.q[0]\""), 31,
                "unknown name 'wall.q[0]'");
  }
  void outputIndexOutOfRange() {
    expectError(
        replace(nsdyn::test::ballModel(), "value=\"ball.q[0]\"", "value=\"floor.lambda1[1]\""), 31,
        "'floor.lambda1[1]': expected an index below 1, found 1");
  }
  void undefinedPlotColumn() {
    expectError(replace(nsdyn::test::ballModel(), "    </output>",
                        "      <plot><curve column=\"zz\"/></plot>\n    </output>"),
                32, "reference to an undefined column 'zz' (columns: t, z)");
  }
  void duplicateNames() {
    expectError(replace(nsdyn::test::ballModel(), "<parameter name=\"R\"", "<parameter name=\"m\""),
                5, "expected a new parameter name, found 'm' a second time");
    expectError(replace(nsdyn::test::ballModel(), "<column name=\"z\"", "<column name=\"t\""), 31,
                "expected a new column name, found 't' a second time");
  }
  void kernelErrorGetsTheLine() {
    // a negative restitution is refused by NewtonImpactNSL itself
    expectError(replace(nsdyn::test::ballModel(), "e=\"0.9\"", "e=\"-0.9\""), 19,
                "<NewtonImpactNSL>: ");
  }
  void missingFile() {
    try {
      XmlLoader().loadFile("/nonexistent/model.xml");
      CPPUNIT_FAIL("expected a LoadError");
    } catch (const LoadError& e) {
      CPPUNIT_ASSERT_EQUAL(0L, e.line());
      CPPUNIT_ASSERT(std::string(e.what()).find("cannot open the model file") != std::string::npos);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(XmlErrorsTest);
