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
  CPPUNIT_TEST(unknownFallbackSolver);
  CPPUNIT_TEST(lawTheProblemRejects);
  CPPUNIT_TEST(badOutputReference);
  CPPUNIT_TEST(outputIndexOutOfRange);
  CPPUNIT_TEST(undefinedPlotColumn);
  CPPUNIT_TEST(duplicateNames);
  CPPUNIT_TEST(kernelErrorGetsTheLine);
  CPPUNIT_TEST(missingFile);
  CPPUNIT_TEST(nonUnitQuaternion);
  CPPUNIT_TEST(zeroQuaternion);
  CPPUNIT_TEST(twoOrientations);
  CPPUNIT_TEST(zeroRotationAxis);
  CPPUNIT_TEST(negativeInertia);
  CPPUNIT_TEST(inertiaNotPositiveDefinite);
  CPPUNIT_TEST(inertiaNotSymmetric);
  CPPUNIT_TEST(massNotPositive);
  CPPUNIT_TEST(jointBetweenABodyAndItself);
  CPPUNIT_TEST(jointAxisOfZeroLength);
  CPPUNIT_TEST(prescribedVelocityIndexOutOfRange);
  CPPUNIT_TEST(prescribedVelocityValues);
  CPPUNIT_TEST(rigidBodyRelationOfTheWrongKind);
  CPPUNIT_TEST(sphereContactData);
  CPPUNIT_TEST(kernelErrorOfAJointGetsTheLine);
  CPPUNIT_TEST(bodyOptionsAndOutputs);
  CPPUNIT_TEST(implausibleValuesNamed);
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
    // shared/fuzz-findings/01: step counts beyond a long cast, or absurd ones, are refused
    // (nsdyn run caps runs at 1e8 steps itself, --max-steps raises it: Tests/Apps)
    expectError(
        replace(nsdyn::test::ballModel(), " T=\"1\" h=\"0.005\"", " T=\"1e300\" h=\"1e-300\""), 24,
        "expected at most 1e15 time steps ((T - t0) / h, a count a 64-bit integer holds), "
        "found inf (T = 1e300, h = 1e-300)");
    expectError(replace(nsdyn::test::ballModel(), " h=\"0.005\"", " h=\"1e-65\""), 24,
                "expected at most 1e15 time steps");
  }
  void missingElement() {
    expectError(replace(nsdyn::test::ballModel(), "        <q0>1 0 0</q0>\n", ""), 10,
                "expected a child element <q0>, found none");
    expectError(replace(nsdyn::test::ballModel(), "    <LCP solver=\"lemke\"/>\n", ""), 24,
                "expected a nonsmooth problem (LCP, MLCP, Relay, FrictionContact, "
                "GenericMechanical) for the 1 interactions, found none");
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
  void unknownFallbackSolver() {
    expectError(replace(nsdyn::test::ballModel(), "<LCP solver=\"lemke\"/>",
                        "<LCP solver=\"nlgs\" fallback=\"lemk\"/>"),
                26, "attribute 'fallback': expected one of lemke");
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
  // ---- rigid bodies (test::bodyModel: arm on lines 10-18, tip 19-26, pin 29-32,
  // weld 33-36, simulation 39-43, outputs 44-49) ----
  void nonUnitQuaternion() {
    expectError(replace(nsdyn::test::bodyModel(), "<quaternion>1 0 0 0</quaternion>",
                        "<quaternion>1 1 0 0</quaternion>"),
                14,
                "<quaternion>: expected a unit quaternion q0 q1 q2 q3 (|norm - 1| <= 1e-8), found "
                "norm 1.4142135623730951");
    // within 1e-8 it is accepted (and used as given)
    XmlLoader().loadString(replace(nsdyn::test::bodyModel(), "<quaternion>1 0 0 0</quaternion>",
                                   "<quaternion>1+1e-9 0 0 0</quaternion>"));
  }
  void zeroQuaternion() {
    expectError(replace(nsdyn::test::bodyModel(), "<quaternion>1 0 0 0</quaternion>",
                        "<quaternion>0 0 0 0</quaternion>"),
                14,
                "<quaternion>: expected a unit quaternion q0 q1 q2 q3, found a zero quaternion");
    expectError(replace(nsdyn::test::bodyModel(), "<quaternion>1 0 0 0</quaternion>",
                        "<quaternion>1 0 0</quaternion>"),
                14, "of size 4, found 3 entries");
  }
  void twoOrientations() {
    expectError(replace(nsdyn::test::bodyModel(), "<fExt>0 0 -0.5*g</fExt>",
                        "<fExt>0 0 -0.5*g</fExt><quaternion>1 0 0 0</quaternion>"),
                23, "<axisAngle>: expected one orientation, found <quaternion> (line 24) too");
  }
  void zeroRotationAxis() {
    expectError(replace(nsdyn::test::bodyModel(), "axis=\"0 0 1\"", "axis=\"0 0 0*L\""), 23,
                "<axisAngle>: attribute 'axis': expected an axis of non-zero length, found");
  }
  void negativeInertia() {
    expectError(
        replace(nsdyn::test::bodyModel(), "<inertia form=\"diagonal\">0.01 ",
                "<inertia form=\"diagonal\">-0.01 "),
        12,
        "<inertia>: expected a positive definite inertia matrix (leading principal minors > "
        "0), found minors -0.01");
  }
  void inertiaNotPositiveDefinite() {
    expectError(
        replace(nsdyn::test::bodyModel(), "0.001, 0, 0; 0, 0.001, 0; 0, 0, 0.001",
                "1, 2, 0; 2, 1, 0; 0, 0, 1"),
        21,
        "<inertia>: expected a positive definite inertia matrix (leading principal minors > "
        "0), found minors 1, -3, -3");
    expectError(
        replace(nsdyn::test::bodyModel(), "0.001, 0, 0; 0, 0.001, 0; 0, 0, 0.001", "1, 0; 0, 1"),
        21, "of size 3x3, found 2x2");
  }
  // Issue 13: values that made every step fail (or run past T, or forever) are refused
  // before anything runs, with the value named.
  void implausibleValuesNamed() {
    using nsdyn::test::ballModel;
    const std::string mass = "<mass form=\"diagonal\">m m 0.4*m*R*R</mass>";
    // a negative mass (through a parameter): every LCP of the run failed, exit 0
    expectError(replace(ballModel(), "<parameter name=\"m\" value=\"1\"/>",
                        "<parameter name=\"m\" value=\"-1\"/>"),
                13, "<mass>: expected the mass matrix positive definite, found M(0,0) = -1");
    expectError(replace(ballModel(), mass, "<mass form=\"diagonal\">1 0 1</mass>"), 13,
                "found M(1,1) = 0 (a mass or inertia entry must be > 0)");
    expectError(replace(ballModel(), mass, "<mass>1 0.5 0; 0 1 0; 0 0 1</mass>"), 13,
                "expected the mass matrix symmetric, found M(0,1) = 0.5 and M(1,0) = 0");
    expectError(replace(ballModel(), mass, "<mass>1 2 0; 2 1 0; 0 0 1</mass>"), 13,
                "expected the mass matrix positive definite, found a Cholesky pivot -3 at row 1");
    // negative inertia entry of a rigid body
    expectError(replace(nsdyn::test::bodyModel(), "0.001, 0, 0; 0, 0.001, 0; 0, 0, 0.001",
                        "0.001, 0, 0; 0, -0.001, 0; 0, 0, 0.001"),
                21, "(a diagonal entry is <= 0)");
    // restitution outside [0, 1], negative friction
    expectError(
        replace(ballModel(), "<NewtonImpactNSL e=\"0.9\"/>", "<NewtonImpactNSL e=\"1.5\"/>"), 19,
        "attribute 'e': expected a restitution coefficient in [0, 1], found 1.5 ('1.5')");
    expectError(
        replace(ballModel(), "<NewtonImpactNSL e=\"0.9\"/>", "<NewtonImpactNSL e=\"-0.5\"/>"), 19,
        "found -0.5");
    const std::string friction =
        "      <interaction name=\"floor\" systems=\"ball\">\n"
        "        <NewtonImpactFrictionNSL en=\"0.5\" mu=\"MU\" dim=\"2\"/>\n"
        "        <LagrangianLinearTIR><H>1 0 0; 0 1 0</H></LagrangianLinearTIR>\n"
        "      </interaction>\n";
    expectError(ballModel("", replace(friction, "MU", "-0.3")), 19,
                "attribute 'mu': expected a friction coefficient >= 0, found -0.29999999999999999 "
                "('-0.3')");
    expectError(ballModel("", replace(replace(friction, "MU", "0.3"), "en=\"0.5\"", "en=\"2\"")),
                19, "attribute 'en': expected a normal restitution in [0, 1], found 2");
    // a negative solver tolerance: every solve failed, exit 0
    expectError(replace(ballModel(), "<LCP solver=\"lemke\"/>",
                        "<LCP solver=\"psor\"><options tolerance=\"-1\"/></LCP>"),
                26, "<options>: attribute 'tolerance': tolerance='-1', expected finite > 0");
    // an option of the option table that the solver does not read
    expectError(
        replace(ballModel(), "<LCP solver=\"lemke\"/>",
                "<LCP solver=\"lemke\"><options><nsgs local-tolerance=\"1e-12\"/></options></LCP>"),
        26,
        "<nsgs>: attribute 'local-tolerance': option nsgs.local_tolerance is not read by the lcp "
        "solver "
        "'lemke' (see nsdyn solve --list-options)");
    expectError(replace(ballModel(), "<LCP solver=\"lemke\"/>",
                        "<LCP solver=\"psor\"><options><pgs check-every=\"0\"/></options></LCP>"),
                26,
                "<pgs>: attribute 'check-every': pgs.check_every='0', expected an integer in [1, "
                "2147483647]");
    // h > T - t0: one step past T
    expectError(
        replace(ballModel(), " h=\"0.005\"", " h=\"2\""), 24,
        "attribute 'h': expected a time step <= T - t0 = 1, found 2 ('2'): one step would end "
        "past T");
    // T or h not finite
    expectError(replace(ballModel(), " T=\"1\"", " T=\"1e400\""), 24, "expected a finite number");
    expectError(replace(ballModel(), " h=\"0.005\"", " h=\"1e999\""), 24,
                "expected a finite number");
    expectError(replace(ballModel(), " h=\"0.005\"", " h=\"0/0\""), 24, "attribute 'h'");
  }
  void inertiaNotSymmetric() {
    expectError(
        replace(nsdyn::test::bodyModel(), "0.001, 0, 0; 0, 0.001, 0; 0, 0, 0.001",
                "0.001, 0.0005, 0; 0, 0.001, 0; 0, 0, 0.001"),
        21,
        "<inertia>: expected a symmetric inertia matrix, found I(0,1) = 0.00050000000000000001 "
        "and I(1,0) = 0");
  }
  void massNotPositive() {
    expectError(replace(nsdyn::test::bodyModel(), "<mass>m</mass>", "<mass>0</mass>"), 11,
                "<mass>: expected the mass m > 0 of the body, found m = 0 ('0')");
    expectError(replace(nsdyn::test::bodyModel(), "<mass>m</mass>", "<mass>-2*m</mass>"), 11,
                "found m = -2 ('-2*m')");
    expectError(replace(nsdyn::test::bodyModel(), "<mass>m</mass>", "<mass></mass>"), 11,
                "<mass>: expected the mass m > 0 of the body, found none");
    expectError(replace(nsdyn::test::bodyModel(), "<mass>m</mass>", "<mass>1 2</mass>"), 11,
                "<mass>: the mass: in '1 2' at character 3: expected an operator");
  }
  void jointBetweenABodyAndItself() {
    expectError(replace(nsdyn::test::bodyModel(), "systems=\"arm tip\"", "systems=\"arm arm\""), 33,
                "<interaction>: attribute 'systems': expected two different systems, found 'arm' "
                "twice");
  }
  void jointAxisOfZeroLength() {
    const std::string prismatic =
        "      <interaction name=\"slide\" systems=\"arm\">\n"
        "        <EqualityConditionNSL size=\"5\"/>\n"
        "        <PrismaticJointR axis=\"0 0*L 0\" absolute=\"true\"/>\n"
        "      </interaction>\n";
    expectError(nsdyn::test::bodyModel("", prismatic), 31,
                "<PrismaticJointR>: attribute 'axis': expected an axis of non-zero length, found");
    const std::string pivot =
        "      <interaction name=\"hinge\" systems=\"arm tip\">\n"
        "        <EqualityConditionNSL size=\"5\"/>\n"
        "        <PivotJointR point=\"L 0 0\" axis=\"0, 0, 0\" absolute=\"false\"/>\n"
        "      </interaction>\n";
    expectError(nsdyn::test::bodyModel("", pivot), 31,
                "<PivotJointR>: attribute 'axis': expected an axis of non-zero length, found");
    expectError(replace(nsdyn::test::bodyModel("", pivot), "axis=\"0, 0, 0\"", "axis=\"0 1\""), 31,
                "<PivotJointR>: attribute 'axis': expected the joint axis, 3 entries, found 2");
    expectError(replace(nsdyn::test::bodyModel("", pivot), " absolute=\"false\"", ""), 31,
                "<PivotJointR>: expected attribute 'absolute'");
  }
  void prescribedVelocityIndexOutOfRange() {
    auto withBc = [](const std::string& bc) {
      return replace(nsdyn::test::bodyModel(), "<fExt>0 0 -m*g</fExt>",
                     "<fExt>0 0 -m*g</fExt><boundaryCondition " + bc + "/>");
    };
    expectError(withBc("indices=\"6\" values=\"1\""), 17,
                "<boundaryCondition>: attribute 'indices': expected velocity indices 0-5 (0-2: "
                "linear velocity, world frame; 3-5: angular velocity, body frame), found 6");
    expectError(withBc("indices=\"-1\" values=\"1\""), 17,
                "attribute 'indices': expected velocity indices 0-5");
    expectError(withBc("indices=\"1.5\" values=\"1\""), 17, "found 1.5 (not an integer)");
    expectError(withBc("indices=\"2 2\" values=\"1 1\""), 17,
                "attribute 'indices': expected distinct indices, found 2 twice");
  }
  void prescribedVelocityValues() {
    auto withBc = [](const std::string& bc) {
      return replace(nsdyn::test::bodyModel(), "<fExt>0 0 -m*g</fExt>",
                     "<fExt>0 0 -m*g</fExt><boundaryCondition " + bc + "/>");
    };
    expectError(withBc("indices=\"0 1\" values=\"cos(t)\""), 17,
                "attribute 'values': expected 2 entries, found 1");
    expectError(withBc("indices=\"0\" values=\"cos(x)\""), 17,
                "unknown name 'x' (expected t or a parameter: L, g, m)");
    expectError(withBc("indices=\"0\""), 17, "expected attribute 'values'");
    // prescribed velocities need the Newton iterations
    expectError(replace(withBc("indices=\"0\" values=\"1\""), "<newton tolerance",
                        "<newton mode=\"linear\" tolerance"),
                39, "<simulation>: the model does not initialise");
  }
  void rigidBodyRelationOfTheWrongKind() {
    const std::string lagrangian =
        "      <interaction name=\"floor\" systems=\"arm\">\n"
        "        <NewtonImpactNSL e=\"0\"/>\n"
        "        <LagrangianLinearTIR><H>0 0 1 0 0 0</H></LagrangianLinearTIR>\n"
        "      </interaction>\n";
    expectError(
        nsdyn::test::bodyModel("", lagrangian), 31,
        "<LagrangianLinearTIR>: expected a rigid-body relation for the systems arm, found a "
        "Lagrangian one");
    const std::string knee =
        "      <interaction name=\"pin\" systems=\"ball\">\n"
        "        <EqualityConditionNSL size=\"3\"/>\n"
        "        <KneeJointR point=\"0 0 0\" absolute=\"true\"/>\n"
        "      </interaction>\n";
    expectError(nsdyn::test::ballModel("", knee), 20,
                "<KneeJointR>: expected a Lagrangian relation for the systems ball, found a "
                "rigid-body one");
    const std::string floor =
        "      <interaction name=\"floor\" systems=\"arm\">\n"
        "        <NewtonImpactNSL e=\"0\"/>\n"
        "        <NewtonEulerR><C>0 0 1 0 0 0</C></NewtonEulerR>\n"
        "      </interaction>\n";
    expectError(nsdyn::test::bodyModel("", floor), 31,
                "<C>: expected C (1x7: law size x 7 position coordinates per linked body) of size "
                "1x7, found 1x6");
  }
  void sphereContactData() {
    auto contact = [](const std::string& law, const std::string& attributes) {
      return nsdyn::test::bodyModel("",
                                    "      <interaction name=\"c\" systems=\"arm\">\n"
                                    "        " +
                                        law +
                                        "\n"
                                        "        <SpherePlaneContact " +
                                        attributes +
                                        "/>\n"
                                        "      </interaction>\n");
    };
    expectError(
        contact("<NewtonImpactNSL e=\"0\" size=\"2\"/>", "radius=\"0.1\" normal=\"0 0 1\""), 31,
        "<SpherePlaneContact>: expected a law of size 1 (normal row: NewtonImpactNSL) or 3");
    expectError(contact("<NewtonImpactNSL e=\"0\"/>", "radius=\"0.1\" normal=\"0 0 0\""), 31,
                "<SpherePlaneContact>: attribute 'normal': expected a normal of non-zero length");
    expectError(contact("<NewtonImpactNSL e=\"0\"/>", "radius=\"-0.1\" normal=\"0 0 1\""), 31,
                "<SpherePlaneContact>: attribute 'radius': expected a radius >= 0, found -0.1");
    expectError(contact("<NewtonImpactNSL e=\"0\"/>", "radius=\"0.1\""), 31,
                "<SpherePlaneContact>: expected attribute 'normal'");
  }
  void kernelErrorOfAJointGetsTheLine() {
    // a knee joint has 3 rows: the Kernel refuses a law of size 2 when it links the interaction
    expectError(replace(nsdyn::test::bodyModel(), "<EqualityConditionNSL size=\"3\"/>",
                        "<EqualityConditionNSL size=\"2\"/>"),
                29, "<interaction>: ");
  }
  void bodyOptionsAndOutputs() {
    expectError(replace(nsdyn::test::bodyModel(), "<NewtonEulerDS name=\"arm\">",
                        "<NewtonEulerDS name=\"arm\" gyroscopic=\"yes\">"),
                10, "attribute 'gyroscopic': expected true or false, found 'yes'");
    expectError(replace(nsdyn::test::bodyModel(), "<velocity>0 0 0</velocity>",
                        "<velocity>0 0 0 0 0 0</velocity>"),
                15, "expected the velocity of the centre of mass (3, world frame) of size 3");
    expectError(replace(nsdyn::test::bodyModel(), "<fExt>0 0 -m*g</fExt>", "<fExt>0 -m*g</fExt>"),
                17,
                "<fExt>: the external force f_ext (3, world frame): expected 3 entries, found 2");
    expectError(replace(nsdyn::test::bodyModel(), "tolerance=\"1e-10\"", "tolerance=\"0\""), 42,
                "<newton>: attribute 'tolerance': expected a tolerance > 0, found 0");
    expectError(
        replace(nsdyn::test::bodyModel(), "<newton ", "<newton mode=\"exact\" "), 42,
        "<newton>: attribute 'mode': expected one of auto, linear, nonlinear, found 'exact'");
    expectError(replace(nsdyn::test::bodyModel(), "<MLCP solver=\"enum\"/>",
                        "<MLCP solver=\"enum\"/><projection/>"),
                41, "unknown element <projection> in <simulation>");
    expectError(replace(nsdyn::test::bodyModel(), "value=\"arm.q[2]\"", "value=\"arm.q[7]\""), 47,
                "'arm.q[7]': expected an index below 7, found 7");
    expectError(
        replace(nsdyn::test::bodyModel(), "value=\"arm.q[2]\"", "value=\"arm.bc_reaction[0]\""), 47,
        "'arm.bc_reaction[0]': bc_reaction exists for bodies with a <boundaryCondition>");
    expectError(replace(nsdyn::test::bodyModel(), "value=\"arm.q[2]\"", "value=\"arm.x[0]\""), 47,
                "'arm.x[0]': expected a field of a rigid body: q, v, p");
    expectError(replace(nsdyn::test::bodyModel(), "value=\"arm.q[2]\"", "value=\"norm(m)\""), 47,
                "'norm(m)': norm() reads a vector of the model, in outputs only");
    expectError(replace(nsdyn::test::bodyModel(), "value=\"arm.q[2]\"", "value=\"arm.q\""), 47,
                "'arm.q': expected an index [i], i < 7 (or norm(arm.q))");
    expectError(
        replace(nsdyn::test::bodyModel(), "value=\"arm.q[2]\"", "value=\"arm.kinetic_energy[0]\""),
        47, "kinetic_energy is a number (no index, no norm)");
    expectError(replace(nsdyn::test::bodyModel(), "value=\"arm.q[2]\"", "value=\"step.newton\""),
                47, "expected step.FIELD, FIELD one of newton_iterations");
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
