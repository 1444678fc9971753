// Terrain shapes (<TriangleMeshShape>, <HeightfieldShape>), <GenericMechanical>, joint
// motors and limits, and the scene engine's fallback bound in model files: what they load
// into, and each bad input refused with the file, the line and the value.
#include <cppunit/extensions/HelperMacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <nsdyn/GenericMechanical.hpp>
#include <nsdyn/HeightfieldShape.hpp>
#include <nsdyn/JointAxisR.hpp>
#include <nsdyn/TriangleMeshShape.hpp>
#include <nsdyn/io/SceneEngineFromModel.hpp>
#include <nsdyn/io/XmlLoader.hpp>

using nsdyn::io::LoadedModel;
using nsdyn::io::LoadError;
using nsdyn::io::XmlLoader;

namespace {

const std::string kBall =
    "      <RigidBody name=\"ball\" density=\"1000\">\n"
    "        <position>0 0 0.1</position>\n"
    "        <SphereShape radius=\"0.1\"/>\n"
    "      </RigidBody>\n";

// A scene: @p floor (a static body's shapes) under a ball; @p problem; @p extra before <scene>.
std::string model(const std::string& floor,
                  const std::string& problem = "<FrictionContact dim=\"3\"/>",
                  const std::string& extra = "") {
  return "<?xml version=\"1.0\"?>\n"
         "<nsdyn version=\"1\" name=\"terrain\">\n"
         "  <model>\n" +
         extra +
         "    <scene gravity=\"0 0 -9.81\">\n"
         "      <StaticBody name=\"floor\">\n"
         "        " +
         floor + "\n      </StaticBody>\n" + kBall +
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

// Two bodies hinged, the second a scene sphere on a plane: @p hinge the attributes of the
// <PivotJointR>, @p problem the simulation's problem.
std::string hingeModel(const std::string& hinge,
                       const std::string& problem = "<GenericMechanical/>") {
  const std::string extra =
      "    <systems>\n"
      "      <NewtonEulerDS name=\"carrier\"><mass>1</mass>"
      "<inertia form=\"diagonal\">1 1 1</inertia><position>0 0 0.1</position></NewtonEulerDS>\n"
      "    </systems>\n"
      "    <interactions>\n"
      "      <interaction name=\"hinge\" systems=\"carrier ball\">\n"
      "        <EqualityConditionNSL size=\"5\"/>\n"
      "        <PivotJointR point=\"0 0 0.1\" axis=\"0 1 0\" absolute=\"true\"" +
      hinge +
      "/>\n"
      "      </interaction>\n"
      "    </interactions>\n";
  return model("<HalfSpaceShape normal=\"0 0 1\"/>", problem, extra);
}

long lineOf(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  CPPUNIT_ASSERT_MESSAGE("marker " + marker, at != std::string::npos);
  return 1 + static_cast<long>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

// Loading @p xml (as "dir/model.xml") fails at the line of @p marker, the message holding
// @p words.
void expectError(const std::string& xml, const std::string& marker, const std::string& words,
                 const std::string& file = "dir/model.xml") {
  try {
    XmlLoader().loadString(xml, file);
  } catch (const LoadError& e) {
    const std::string what = e.what();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, file, e.file());
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, lineOf(xml, marker), e.line());
    CPPUNIT_ASSERT_MESSAGE(what, what.rfind(file + ":" + std::to_string(e.line()) + ": ", 0) == 0);
    CPPUNIT_ASSERT_MESSAGE(what + " (expected '" + words + "')",
                           what.find(words) != std::string::npos);
    return;
  }
  CPPUNIT_FAIL("no LoadError for " + marker + " (" + words + ")");
}

// A scratch folder of this process.
std::string scratch() {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("nsdyn-xml-mechanism-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

template <class T>
const T* floorShape(const LoadedModel& m) {
  const nsdyn::BodyShapes& floor = m.scene->contacts->bodies().at(0);
  CPPUNIT_ASSERT(floor.isStatic());
  return dynamic_cast<const T*>(floor.shapes().at(0).shape.get());
}

}  // namespace

class XmlMechanismTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(XmlMechanismTest);
  CPPUNIT_TEST(terrainShapesLoad);
  CPPUNIT_TEST(terrainErrors);
  CPPUNIT_TEST(motorsAndLimitsLoad);
  CPPUNIT_TEST(motorErrors);
  CPPUNIT_TEST(fallbackBound);
  CPPUNIT_TEST_SUITE_END();

 public:
  void tearDown() override { std::filesystem::remove_all(scratch()); }

  void terrainShapesLoad() {
    const std::string dir = scratch();
    std::filesystem::create_directories(dir + "/meshes");
    write(dir + "/meshes/floor.obj", "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nf 1 2 3\nf 1 3 4\n");
    write(dir + "/heights.csv", "# z, x fastest\n0, 0.5, 1\n0;0.5;1\n\n0 0.5 1\n");
    // a mesh file relative to the model file, scaled
    auto m = XmlLoader().loadString(
        model("<TriangleMeshShape file=\"meshes/floor.obj\" scale=\"2\"/>"), dir + "/model.xml");
    const auto* mesh = floorShape<nsdyn::TriangleMeshShape>(*m);
    CPPUNIT_ASSERT(mesh);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), mesh->vertexCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), mesh->triangleCount());
    CPPUNIT_ASSERT_EQUAL(2.0, mesh->vertex(2)[0]);
    // inline, entries are expressions
    m = XmlLoader().loadString(model("<TriangleMeshShape vertices=\"-1 -1 0; 1 -1 0; 1 1 0; -1 1 "
                                     "2*0.25\" triangles=\"0 1 2; 0 2 3\"/>"),
                               "model.xml");
    mesh = floorShape<nsdyn::TriangleMeshShape>(*m);
    CPPUNIT_ASSERT(mesh);
    CPPUNIT_ASSERT_EQUAL(0.5, mesh->vertex(3)[2]);
    // a heightfield from a CSV file and inline
    m = XmlLoader().loadString(
        model("<HeightfieldShape nx=\"3\" ny=\"3\" spacing=\"0.5\" spacing-y=\"0.25\" "
              "file=\"heights.csv\"/>"),
        dir + "/model.xml");
    const auto* hf = floorShape<nsdyn::HeightfieldShape>(*m);
    CPPUNIT_ASSERT(hf);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), hf->nx());
    CPPUNIT_ASSERT_EQUAL(0.25, hf->dy());
    CPPUNIT_ASSERT_EQUAL(0.5, hf->heights().at(4));
    m = XmlLoader().loadString(
        model("<HeightfieldShape nx=\"2\" ny=\"2\" spacing=\"1\" heights=\"0, 0, 0.1, 0.2*2\"/>"),
        "model.xml");
    hf = floorShape<nsdyn::HeightfieldShape>(*m);
    CPPUNIT_ASSERT(hf);
    CPPUNIT_ASSERT_EQUAL(0.4, hf->heights().at(3));
    // the scene engine takes them as static shapes
    CPPUNIT_ASSERT(nsdyn::io::makeSceneEngine(*m));
  }

  void terrainErrors() {
    const std::string dir = scratch();
    const std::string mesh = "<TriangleMeshShape";
    expectError(model("<TriangleMeshShape file=\"meshes/none.obj\"/>"), mesh,
                "'meshes/none.obj' (dir/meshes/none.obj: no such file)");
    write(dir + "/empty.obj", "# nothing\n");
    expectError(model("<TriangleMeshShape file=\"empty.obj\"/>"), mesh, "empty.obj",
                dir + "/model.xml");
    expectError(model("<TriangleMeshShape vertices=\"0 0 0; 1 0 0\"/>"), mesh,
                "both 'vertices' and 'triangles', found 'vertices' only");
    expectError(model("<TriangleMeshShape file=\"a.obj\" vertices=\"0 0 0\" triangles=\"0 1 2\"/>"),
                mesh, "found both");
    expectError(model("<TriangleMeshShape vertices=\"0 0 0; 1 0 0; 0 1 0\" triangles=\"0 1 3\"/>"),
                mesh, "triangle 0: expected vertex indices from 0 to 2, found 3");
    expectError(model("<TriangleMeshShape vertices=\"0 0 0; 1 0 0\" triangles=\"0 1\"/>"), mesh,
                "3 entries per row, found a row of 2");
    expectError(model("<TriangleMeshShape vertices=\"0 0 0; 1 0 0; 2 0 0\" triangles=\"0 1 2\"/>"),
                mesh, "degenerate");
    // a heightfield: a hole inline and in a file (the file's line), sizes, spacing
    const std::string hf = "<HeightfieldShape";
    expectError(model("<HeightfieldShape nx=\"2\" ny=\"2\" spacing=\"1\" heights=\"0 0 NaN 0\"/>"),
                hf,
                "entry 2 (i = 0, j = 1): expected a finite height, found NaN (a heightfield "
                "has no hole)");
    write(dir + "/holes.csv", "0 0 0\n# comment\n0 nan 0\n0 0 0\n");
    expectError(model("<HeightfieldShape nx=\"3\" ny=\"3\" spacing=\"1\" file=\"holes.csv\"/>"), hf,
                "holes.csv:3: entry 4 (i = 1, j = 1): expected a finite height, found nan (a "
                "heightfield has no hole)",
                dir + "/model.xml");
    write(dir + "/words.csv", "0 0\n0 x1\n");
    expectError(model("<HeightfieldShape nx=\"2\" ny=\"2\" spacing=\"1\" file=\"words.csv\"/>"), hf,
                "words.csv:2: expected a number, found 'x1'", dir + "/model.xml");
    expectError(model("<HeightfieldShape nx=\"2\" ny=\"2\" spacing=\"1\" heights=\"0 0 0\"/>"), hf,
                "expected nx × ny = 4 heights, found 3");
    expectError(model("<HeightfieldShape nx=\"1\" ny=\"2\" spacing=\"1\" heights=\"0 0\"/>"), hf,
                "nx");
    expectError(model("<HeightfieldShape nx=\"2\" ny=\"2\" spacing=\"0\" heights=\"0 0 0 0\"/>"),
                hf, "spacing");
    expectError(model("<HeightfieldShape nx=\"2\" ny=\"2\" spacing=\"1\"/>"), hf,
                "'heights', 'file' or 'height', found none");
    // a terrain on a dynamic body
    const std::string onBody = model(
        "<HalfSpaceShape normal=\"0 0 1\"/>\n      </StaticBody>\n"
        "      <RigidBody name=\"slab\" mass=\"1\">\n        <SphereShape radius=\"1\"/>\n"
        "        <HeightfieldShape nx=\"2\" ny=\"2\" spacing=\"1\" heights=\"0 0 0 0\"/>\n"
        "      </RigidBody>\n      <StaticBody name=\"other\">\n        <HalfSpaceShape normal=\"0 "
        "0 "
        "1\"/>");
    expectError(onBody, hf, "found a terrain <HeightfieldShape> (put it in a <StaticBody>)");
  }

  void motorsAndLimitsLoad() {
    auto m = XmlLoader().loadString(hingeModel(" motor-velocity=\"2*t\" max-torque=\"20\" "
                                               "lower-limit=\"-1\" upper-limit=\"3\" "
                                               "limit-restitution=\"0.5\""),
                                    "model.xml");
    CPPUNIT_ASSERT(
        std::dynamic_pointer_cast<nsdyn::GenericMechanical>(m->simulation->oneStepNSProblem()));
    const auto motor = m->interaction("hinge_motor");
    CPPUNIT_ASSERT(motor);
    const auto* axis = dynamic_cast<const nsdyn::JointAxisR*>(&motor->relation());
    CPPUNIT_ASSERT(axis && axis->isMotor());
    CPPUNIT_ASSERT_EQUAL(20.0, axis->maxForce());
    CPPUNIT_ASSERT_EQUAL(3.0, axis->targetVelocity(1.5));
    CPPUNIT_ASSERT(m->interaction("hinge_lower"));
    CPPUNIT_ASSERT(m->interaction("hinge_upper"));
    const auto* upper =
        dynamic_cast<const nsdyn::JointAxisR*>(&m->interaction("hinge_upper")->relation());
    CPPUNIT_ASSERT(upper && upper->row() == nsdyn::JointAxisR::Row::Upper);
    // a constant target
    m = XmlLoader().loadString(hingeModel(" motor-velocity=\"1.5\" max-torque=\"0\""), "model.xml");
    const auto* constant =
        dynamic_cast<const nsdyn::JointAxisR*>(&m->interaction("hinge_motor")->relation());
    CPPUNIT_ASSERT_EQUAL(1.5, constant->targetVelocity(7.0));
  }

  void motorErrors() {
    const std::string pivot = "<PivotJointR";
    expectError(hingeModel(" motor-velocity=\"1\" max-torque=\"-2\""), pivot,
                "attribute 'max-torque': expected a torque (N m) limit >= 0 and finite, found -2");
    expectError(hingeModel(" motor-velocity=\"1\""), pivot,
                "'motor-velocity': expected with 'max-torque'");
    expectError(hingeModel(" max-torque=\"1\""), pivot,
                "'max-torque': expected with 'motor-velocity'");
    expectError(hingeModel(" lower-limit=\"1\" upper-limit=\"1\""), pivot,
                "'upper-limit': expected a limit > lower-limit = 1, found 1");
    expectError(hingeModel(" limit-restitution=\"0.5\""), pivot,
                "'limit-restitution': expected with 'lower-limit' or 'upper-limit'");
    expectError(hingeModel(" motor-velocity=\"1\" max-force=\"1\""), pivot, "max-force");
    // joints and scene contacts need one GenericMechanical problem
    expectError(
        hingeModel("", "<FrictionContact dim=\"3\"/>"), "<FrictionContact",
        "expected <GenericMechanical> for the 1 interactions and the contacts of the <scene>");
    expectError(model("<HalfSpaceShape normal=\"0 0 1\"/>", "<GenericMechanical solver=\"x\"/>"),
                "<GenericMechanical", "attribute 'solver': expected one of");
    // a motor in another problem: the Kernel's refusal, at <simulation>
    const std::string mlcp =
        "<?xml version=\"1.0\"?>\n<nsdyn version=\"1\">\n  <model>\n    <systems>\n"
        "      <NewtonEulerDS name=\"arm\"><mass>1</mass><inertia form=\"diagonal\">1 1 "
        "1</inertia></NewtonEulerDS>\n"
        "    </systems>\n    <interactions>\n      <interaction name=\"pin\" systems=\"arm\">\n"
        "        <EqualityConditionNSL size=\"5\"/>\n"
        "        <PivotJointR point=\"0 0 0\" axis=\"0 1 0\" absolute=\"true\" "
        "motor-velocity=\"1\" max-torque=\"1\"/>\n"
        "      </interaction>\n    </interactions>\n  </model>\n"
        "  <simulation T=\"1\" h=\"0.1\">\n    <MoreauJeanOSI/>\n    <MLCP/>\n  </simulation>\n"
        "</nsdyn>\n";
    expectError(mlcp, "<simulation", "the model does not initialise");
  }

  void fallbackBound() {
    const std::string fc =
        "<FrictionContact dim=\"3\" solver=\"nsgs\" fallback=\"newton_ac\" "
        "fallback-time-factor=\"0\" fallback-iterations=\"40\"/>";
    auto m = XmlLoader().loadString(model("<HalfSpaceShape normal=\"0 0 1\"/>", fc), "model.xml");
    CPPUNIT_ASSERT_EQUAL(0.0, m->scene->fallbackTimeFactor);
    CPPUNIT_ASSERT_EQUAL(40, m->scene->fallbackIterations);
    const auto engine = nsdyn::io::makeSceneEngine(*m);
    CPPUNIT_ASSERT_EQUAL(0.0, engine->options().fallbackTimeFactor);
    CPPUNIT_ASSERT_EQUAL(40, engine->options().fallbackIterations);
    // defaults: the engine's
    m = XmlLoader().loadString(model("<HalfSpaceShape normal=\"0 0 1\"/>"), "model.xml");
    CPPUNIT_ASSERT_EQUAL(nsdyn::SceneEngineOptions().fallbackTimeFactor,
                         nsdyn::io::makeSceneEngine(*m)->options().fallbackTimeFactor);
    expectError(model("<HalfSpaceShape normal=\"0 0 1\"/>",
                      "<FrictionContact dim=\"3\" fallback-time-factor=\"-1\"/>"),
                "<FrictionContact", "attribute 'fallback-time-factor'");
    expectError(model("<HalfSpaceShape normal=\"0 0 1\"/>",
                      "<FrictionContact dim=\"3\" fallback-iterations=\"-3\"/>"),
                "<FrictionContact", "attribute 'fallback-iterations'");
    // a model without a scene: refused
    const std::string noScene =
        "<?xml version=\"1.0\"?>\n<nsdyn version=\"1\">\n  <model>\n    <systems>\n"
        "      <LagrangianLinearTIDS name=\"b\"><q0>1</q0><mass>1</mass></LagrangianLinearTIDS>\n"
        "    </systems>\n  </model>\n  <simulation T=\"1\" h=\"0.1\">\n"
        "    <MoreauJeanOSI/>\n    <FrictionContact dim=\"3\" fallback-iterations=\"3\"/>\n"
        "  </simulation>\n</nsdyn>\n";
    expectError(noScene, "<FrictionContact", "expected in a model with a <scene>");
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(XmlMechanismTest);
