// Scenes in model files (<scene>): shapes on rigid and static bodies, masses from
// densities, the contact manager's options and materials, the generators (counts,
// names, the Kernel's own output), scene.* outputs, and bad input reported at its line.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/FrictionContact.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "nsdyn/io/XmlLoader.hpp"

using nsdyn::io::LoadedModel;
using nsdyn::io::LoadError;
using nsdyn::io::XmlLoader;

namespace {

const double kPi = std::acos(-1.0);

/// A model file whose <scene> holds @p scene (after the <nsdyn>, <model> lines),
/// a TimeStepping with @p problem, and @p outputs.
std::string sceneModel(const std::string& scene,
                       const std::string& problem = "<FrictionContact dim=\"3\"/>",
                       const std::string& outputs = "",
                       const std::string& sceneAttributes = " gravity=\"0 0 -9.81\"",
                       const std::string& extraModel = "") {
  return "<?xml version=\"1.0\"?>\n"
         "<nsdyn version=\"1\" name=\"scene\">\n"
         "  <model>\n" +
         extraModel + "    <scene" + sceneAttributes + ">\n" + scene +
         "    </scene>\n"
         "  </model>\n"
         "  <simulation type=\"TimeStepping\" T=\"0.01\" h=\"1e-3\">\n"
         "    <MoreauJeanOSI theta=\"0.5\"/>\n"
         "    " +
         problem +
         "\n"
         "  </simulation>\n" +
         outputs + "</nsdyn>\n";
}

/// Line (1-based) of the first occurrence of @p marker in @p text.
long lineOf(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  CPPUNIT_ASSERT_MESSAGE("marker " + marker, at != std::string::npos);
  return 1 + static_cast<long>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

/// Loading @p xml fails at the line of @p marker with a message holding @p element and @p words.
void expectError(const std::string& xml, const std::string& marker, const std::string& element,
                 const std::string& words) {
  try {
    XmlLoader().loadString(xml, "scene.xml");
  } catch (const LoadError& e) {
    const std::string what = e.what();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, std::string("scene.xml"), e.file());
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, lineOf(xml, marker), e.line());
    CPPUNIT_ASSERT_MESSAGE(what, what.find("<" + element + ">") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(what + " (expected '" + words + "')",
                           what.find(words) != std::string::npos);
    return;
  }
  CPPUNIT_FAIL("no LoadError for " + marker);
}

const nsdyn::BodyShapes& bodyNamed(const LoadedModel& m, const std::string& name) {
  const auto& names = m.scene->bodyNames;
  const auto it = std::find(names.begin(), names.end(), name);
  CPPUNIT_ASSERT_MESSAGE(name, it != names.end());
  return m.scene->contacts->bodies().at(static_cast<std::size_t>(it - names.begin()));
}

const std::string kFloor =
    "      <StaticBody name=\"floor\">\n"
    "        <HalfSpaceShape normal=\"0 0 1\" offset=\"0\"/>\n"
    "      </StaticBody>\n";

}  // namespace

class XmlScenesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(XmlScenesTest);
  CPPUNIT_TEST(bodiesShapesAndMasses);
  CPPUNIT_TEST(contactManagerOptionsAndMaterials);
  CPPUNIT_TEST(packingsAreTheKernelGenerators);
  CPPUNIT_TEST(staticGenerators);
  CPPUNIT_TEST(sceneOutputs);
  CPPUNIT_TEST(badSizesAndShapes);
  CPPUNIT_TEST(badBodies);
  CPPUNIT_TEST(badGeneratorsAndModels);
  CPPUNIT_TEST(bodyLoadsAndRoughBase);
  CPPUNIT_TEST_SUITE_END();

 public:
  void bodiesShapesAndMasses() {
    const std::string xml =
        sceneModel(kFloor +
                   "      <RigidBody name=\"crate\" density=\"500\" group=\"2\">\n"
                   "        <position>1 2 3</position>\n"
                   "        <velocity>0 0 -1</velocity>\n"
                   "        <angularVelocity>0 0 2</angularVelocity>\n"
                   "        <BoxShape half-extents=\"0.1 0.2 0.3\"/>\n"
                   "      </RigidBody>\n"
                   "      <RigidBody name=\"ball\" mass=\"2\">\n"
                   "        <SphereShape radius=\"0.5\"><position>0 0 1</position></SphereShape>\n"
                   "      </RigidBody>\n"
                   "      <RigidBody name=\"pill\" density=\"1000\">\n"
                   "        <position>0 0 2</position>\n"
                   "        <axisAngle axis=\"1 0 0\" angle=\"pi/2\"/>\n"
                   "        <CapsuleShape radius=\"0.1\" half-length=\"0.2\"/>\n"
                   "        <CylinderShape radius=\"0.05\" half-length=\"0.5\">\n"
                   "          <quaternion>cos(pi/4) 0 sin(pi/4) 0</quaternion>\n"
                   "        </CylinderShape>\n"
                   "      </RigidBody>\n"
                   "      <RigidBody name=\"tetra\" mass=\"3\">\n"
                   "        <inertia form=\"diagonal\">0.1 0.2 0.3</inertia>\n"
                   "        <position>5 0 1</position>\n"
                   "        <ConvexHullShape points=\"0 0 0; 1 0 0; 0 1 0; 0 0 1; 0.1 0.1 0.1\"/>\n"
                   "      </RigidBody>\n");
    const auto m = XmlLoader().loadString(xml);
    CPPUNIT_ASSERT(m->scene);
    const auto& cm = *m->scene->contacts;
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), cm.bodies().size());
    CPPUNIT_ASSERT(cm.bodies()[0].isStatic());
    CPPUNIT_ASSERT_EQUAL(std::string("floor"), m->scene->bodyNames[0]);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), m->systems.size());  // the dynamic bodies
    CPPUNIT_ASSERT(m->system("crate") && m->system("tetra"));
    CPPUNIT_ASSERT_EQUAL(2, cm.group(1));
    CPPUNIT_ASSERT_EQUAL(0, cm.group(2));
    // crate: mass = density x volume, box inertia, pose and twist as given, f_ext = m g
    const auto& crate = *bodyNamed(*m, "crate").body();
    const double mc = 500.0 * 0.2 * 0.4 * 0.6;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(mc, crate.scalarMass(), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(mc * (0.4 * 0.4 + 0.6 * 0.6) / 12.0, crate.inertia()(0, 0), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(mc * (0.2 * 0.2 + 0.4 * 0.4) / 12.0, crate.inertia()(2, 2), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, crate.q()(2), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, crate.velocity()(2), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, crate.velocity()(5), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-mc * 9.81, crate.computeFExt(0.0)(2), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, crate.computeFExt(0.0)(0), 0.0);
    // ball: a mass alone; its centre of mass is the sphere's centre (offset 0 0 1)
    const auto& ball = *bodyNamed(*m, "ball").body();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, ball.scalarMass(), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, ball.q()(2), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.4 * 2.0 * 0.25, ball.inertia()(1, 1), 1e-12);
    // pill: capsule + cylinder at 1000 kg/m^3
    const double capsule = kPi * 0.01 * 0.4 + 4.0 / 3.0 * kPi * 0.001;
    const double cylinder = kPi * 0.0025 * 1.0;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1000.0 * (capsule + cylinder),
                                 bodyNamed(*m, "pill").body()->scalarMass(), 1e-9);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), bodyNamed(*m, "pill").shapes().size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::cos(kPi / 4),
                                 bodyNamed(*m, "pill").shapes()[1].orientation[0], 1e-15);
    // tetra: mass and inertia as given (interior point dropped by the hull)
    const auto& tetra = bodyNamed(*m, "tetra");
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, tetra.body()->scalarMass(), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3, tetra.body()->inertia()(2, 2), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 / 6.0, tetra.shapes()[0].shape->volume(), 1e-14);
    CPPUNIT_ASSERT_EQUAL(nsdyn::ShapeKind::ConvexHull, tetra.shapes()[0].shape->kind());
    // the contact manager is the simulation's
    CPPUNIT_ASSERT(m->simulation->interactionManager().get() == m->scene->contacts.get());
  }

  void contactManagerOptionsAndMaterials() {
    const std::string xml = sceneModel(
        "      <ContactManager margin=\"0.002\" breaking-distance=\"0.005\" threads=\"2\" "
        "relative-margin=\"0.01\"\n"
        "          relative-activation=\"1e-8\" overlap-warning-fraction=\"0.1\" "
        "warm-start=\"false\"\n"
        "          cell-size=\"0.3\" cell-size-factor=\"3\" max-cells-per-box=\"100\" "
        "ccd-max-iterations=\"50\"\n"
        "          ccd-tolerance=\"1e-7\">\n"
        "        <material mu=\"0.7\" restitution=\"0.1\"/>\n"
        "        <material groups=\"2 1\" mu=\"0.2\" restitution=\"0.5\"/>\n"
        "      </ContactManager>\n" +
        kFloor);
    const auto m = XmlLoader().loadString(xml);
    const nsdyn::ContactManager& cm = *m->scene->contacts;
    const auto& o = cm.options();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.002, o.detection.margin, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.005, o.detection.breakingDistance, 0.0);
    CPPUNIT_ASSERT_EQUAL(2, o.detection.threads);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.01, o.relativeMargin, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-8, o.relativeActivation, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, o.overlapWarningFraction, 0.0);
    CPPUNIT_ASSERT(!o.warmStart);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3, o.detection.broadphase.cellSize, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, o.detection.broadphase.cellSizeFactor, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(100.0, o.detection.broadphase.maxCellsPerBox, 0.0);
    CPPUNIT_ASSERT_EQUAL(50ul, o.detection.ccd.maxIterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-7, o.detection.ccd.tolerance, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.2, cm.material(1, 2).mu, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, cm.material(2, 1).restitution, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.7, cm.material(0, 1).mu, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, cm.material(0, 0).restitution, 0.0);
    // defaults: the Kernel's; breaking distance = margin when not given
    const auto d =
        XmlLoader().loadString(sceneModel("      <ContactManager margin=\"0.01\"/>\n" + kFloor));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.01, d->scene->contacts->options().detection.breakingDistance,
                                 0.0);
    CPPUNIT_ASSERT(d->scene->contacts->options().warmStart);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, d->scene->contacts->material(0, 0).mu, 0.0);
  }

  void packingsAreTheKernelGenerators() {
    const std::string xml = sceneModel(
        "      <latticePacking count=\"27\" gap=\"0.01\" seed=\"3\" group=\"1\">\n"
        "        <particle kind=\"box\" half-extents=\"0.02 0.03 0.04\" size-spread=\"0.1\" "
        "density=\"800\"\n"
        "            random-orientation=\"true\" name-prefix=\"brick\"/>\n"
        "        <region lower=\"0 0 0\" upper=\"1 1 1\"/>\n"
        "      </latticePacking>\n"
        "      <randomPacking count=\"40\" seed=\"42\" max-attempts=\"500\">\n"
        "        <particle kind=\"capsule\" radius=\"0.02\" length=\"0.05\" density=\"2000\"/>\n"
        "        <region lower=\"2 0 0\" upper=\"3 1 1\"/>\n"
        "      </randomPacking>\n");
    const auto m = XmlLoader().loadString(xml);
    const auto& cm = *m->scene->contacts;
    CPPUNIT_ASSERT_EQUAL(std::size_t(67), cm.bodies().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(67), m->systems.size());
    CPPUNIT_ASSERT_EQUAL(std::string("brick0"), m->scene->bodyNames[0]);
    CPPUNIT_ASSERT_EQUAL(std::string("grain39"), m->scene->bodyNames[66]);
    CPPUNIT_ASSERT_EQUAL(1, cm.group(26));
    CPPUNIT_ASSERT_EQUAL(0, cm.group(27));
    // the same bodies as the Kernel's generators with these specs, bit for bit
    nsdyn::scenes::ParticleSpec brick;
    brick.kind = nsdyn::scenes::ParticleKind::Box;
    brick.halfExtents = {0.02, 0.03, 0.04};
    brick.sizeSpread = 0.1;
    brick.density = 800;
    brick.randomOrientation = true;
    brick.namePrefix = "brick";
    const auto lattice = nsdyn::scenes::latticePacking(brick, {{0, 0, 0}, {1, 1, 1}}, 27, 0.01, 3);
    nsdyn::scenes::ParticleSpec pill;
    pill.kind = nsdyn::scenes::ParticleKind::Capsule;
    pill.radius = 0.02;
    pill.length = 0.05;
    pill.density = 2000;
    const auto random = nsdyn::scenes::randomPacking(pill, {{2, 0, 0}, {3, 1, 1}}, 40, 42, 500);
    for (std::size_t k = 0; k < 67; ++k) {
      const nsdyn::BodyShapes made = nsdyn::makeBody(k < 27 ? lattice[k] : random[k - 27]);
      const auto& loaded = *cm.bodies()[k].body();
      for (std::size_t i = 0; i < 7; ++i) CPPUNIT_ASSERT_EQUAL(made.body()->q()(i), loaded.q()(i));
      CPPUNIT_ASSERT_EQUAL(made.body()->scalarMass(), loaded.scalarMass());
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-9.81 * loaded.scalarMass(), loaded.computeFExt(0)(2), 1e-12);
    }
  }

  void staticGenerators() {
    const std::string xml = sceneModel(
        "      <container lower=\"0 0 0\" upper=\"1 2 0.5\" planes=\"false\" "
        "wall-thickness=\"0.1\" wall-height=\"0.3\"\n"
        "          name-prefix=\"bin\" group=\"3\"/>\n"
        "      <hopper center=\"5 0 0\" outlet-width=\"0.2\" top-width=\"1.2\" angle=\"pi/4\" "
        "outlet-height=\"0.4\"\n"
        "          plates=\"2\" depth=\"0.6\" side-walls=\"true\" wall-thickness=\"0.03\" "
        "floor=\"true\"/>\n"
        "      <hopper center=\"9 0 0\" name-prefix=\"funnel\"/>\n"
        "      <chute origin=\"0 5 1\" angle=\"0.4\" length=\"3\" width=\"0.6\" "
        "wall-height=\"0.25\" thickness=\"0.04\"/>\n"
        "      <chute origin=\"0 9 1\" planes=\"true\" name-prefix=\"slope\"/>\n"
        "      <RigidBody name=\"ball\" density=\"100\"><SphereShape "
        "radius=\"0.1\"/></RigidBody>\n");
    const auto m = XmlLoader().loadString(xml);
    const auto& names = m->scene->bodyNames;
    CPPUNIT_ASSERT_EQUAL(std::size_t(5 + 5 + 5 + 3 + 3 + 1), names.size());
    CPPUNIT_ASSERT_EQUAL(std::string("bin_floor"), names[0]);
    CPPUNIT_ASSERT_EQUAL(std::string("bin_wall_+y"), names[4]);
    CPPUNIT_ASSERT_EQUAL(std::string("hopper_plate_+x"), names[5]);
    CPPUNIT_ASSERT_EQUAL(std::string("hopper_side_-y"), names[7]);
    CPPUNIT_ASSERT_EQUAL(std::string("hopper_floor"), names[9]);
    CPPUNIT_ASSERT_EQUAL(std::string("funnel_plate_-y"), names[13]);
    CPPUNIT_ASSERT_EQUAL(std::string("chute_bed"), names[15]);
    CPPUNIT_ASSERT_EQUAL(std::string("slope_wall_+y"), names[20]);
    CPPUNIT_ASSERT_EQUAL(3, m->scene->contacts->group(0));
    CPPUNIT_ASSERT(m->scene->contacts->bodies()[0].isStatic());
    CPPUNIT_ASSERT_EQUAL(nsdyn::ShapeKind::Box,
                         m->scene->contacts->bodies()[0].shapes()[0].shape->kind());
    CPPUNIT_ASSERT_EQUAL(nsdyn::ShapeKind::HalfSpace,
                         m->scene->contacts->bodies()[18].shapes()[0].shape->kind());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), m->systems.size());
  }

  void sceneOutputs() {
    const std::string xml =
        sceneModel(kFloor +
                       "      <RigidBody name=\"a\" density=\"1000\"><position>0 0 0.1</position>"
                       "<SphereShape radius=\"0.1\"/></RigidBody>\n"
                       "      <RigidBody name=\"b\" density=\"1000\"><position>0.5 0 "
                       "1</position><velocity>1 0 0</velocity>"
                       "<SphereShape radius=\"0.1\"/></RigidBody>\n",
                   "<FrictionContact dim=\"3\"/>",
                   "  <outputs>\n"
                   "    <output name=\"energy\">\n"
                   "      <column name=\"t\" value=\"t\"/>\n"
                   "      <column name=\"kinetic\" value=\"scene.kinetic_energy\"/>\n"
                   "      <column name=\"potential\" value=\"scene.potential_energy\"/>\n"
                   "      <column name=\"work\" value=\"scene.contact_work\" sum=\"true\"/>\n"
                   "      <column name=\"contacts\" value=\"scene.contacts\"/>\n"
                   "      <column name=\"bodies\" value=\"scene.bodies\"/>\n"
                   "      <column name=\"top\" value=\"scene.max_z\"/>\n"
                   "      <column name=\"bz\" value=\"b.q[2]\"/>\n"
                   "    </output>\n"
                   "    <sceneFiles every=\"5\" vtk=\"true\" hdf5=\"true\"/>\n"
                   "  </outputs>\n");
    auto m = XmlLoader().loadString(xml);
    CPPUNIT_ASSERT_EQUAL(5L, m->scene->files.every);
    CPPUNIT_ASSERT(m->scene->files.vtk && m->scene->files.hdf5);
    nsdyn::io::Recorder rec(m->outputs);
    rec.recordInitial(m->t0);
    const double mass = 1000.0 * 4.0 / 3.0 * kPi * 0.001;
    const std::vector<double> row0 = rec.tables()[0].rows[0];  // a copy: rows grow
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 * mass, row0[1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(mass * 9.81 * 1.1, row0[2], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, row0[3], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, row0[5], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, row0[6], 0.0);
    for (long k = 1; k <= m->steps; ++k) {
      m->simulation->computeOneStep();
      rec.recordStep(k, m->simulation->nextTime());
      m->simulation->nextStep();
    }
    const auto& last = rec.tables()[0].rows.back();
    CPPUNIT_ASSERT_EQUAL(std::size_t(11), rec.tables()[0].rows.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, last[4], 0.0);  // a rests on the floor
    CPPUNIT_ASSERT_DOUBLES_EQUAL(last[7], last[6], 0.0);
    // the energy balance closes: E(T) - E(0) = work of the contact impulses (a at rest: ~0)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(last[1] + last[2] - row0[1] - row0[2], last[3], 1e-9);
    // an unknown field names the fields there are
    expectError(sceneModel(kFloor, "<FrictionContact dim=\"3\"/>",
                           "  <outputs>\n    <output name=\"o\">\n      <column name=\"x\" "
                           "value=\"scene.heat\"/>\n"
                           "    </output>\n  </outputs>\n"),
                "<column name=\"x\"", "column", "kinetic_energy");
  }

  void badSizesAndShapes() {
    auto body = [](const std::string& shape) {
      return sceneModel("      <RigidBody name=\"b\" density=\"1\">\n        " + shape +
                        "\n      </RigidBody>\n");
    };
    expectError(body("<SphereShape radius=\"0\"/>"), "<SphereShape", "SphereShape",
                "radius (m) > 0, found 0");
    expectError(body("<BoxShape half-extents=\"0.1 -0.2 0.1\"/>"), "<BoxShape", "BoxShape",
                "found 0.1 -0.2 0.1");
    expectError(body("<BoxShape half-extents=\"0.1 0.2\"/>"), "<BoxShape", "BoxShape",
                "3 entries, found 2");
    expectError(body("<CapsuleShape radius=\"0.1\" half-length=\"-1\"/>"), "<CapsuleShape",
                "CapsuleShape", "half-length");
    expectError(body("<CylinderShape radius=\"-0.1\" half-length=\"1\"/>"), "<CylinderShape",
                "CylinderShape", "radius");
    expectError(body("<ConvexHullShape points=\"0 0 0; 1 0 0; 0 1 0\"/>"), "<ConvexHullShape",
                "ConvexHullShape", "at least 4 points");
    // coplanar points: the Kernel (Qhull) refuses them, reported at the line
    expectError(body("<ConvexHullShape points=\"0 0 0; 1 0 0; 0 1 0; 1 1 0; 0.5 0.5 0\"/>"),
                "<ConvexHullShape", "ConvexHullShape", "ConvexHullShape");
    expectError(body("<ConvexHullShape points=\"0 0 0; 1 0 0; 0 1 0; 0 0\"/>"), "<ConvexHullShape",
                "ConvexHullShape", "3 entries per point");
    expectError(body("<HalfSpaceShape normal=\"0 0 1\"/>"), "<HalfSpaceShape", "HalfSpaceShape",
                "put it in a <StaticBody>");
    expectError(
        sceneModel("      <StaticBody name=\"w\">\n        <HalfSpaceShape normal=\"0 0 0\"/>\n"
                   "      </StaticBody>\n"),
        "<HalfSpaceShape", "HalfSpaceShape", "non-zero length");
    expectError(body("<SphereShape radius=\"0.1\"><quaternion>1 1 0 0</quaternion></SphereShape>"),
                "<quaternion>", "quaternion", "unit quaternion");
    expectError(body("<SphereShape radius=\"0.1\" size=\"2\"/>"), "<SphereShape", "SphereShape",
                "unknown attribute 'size'");
  }

  void badBodies() {
    expectError(sceneModel("      <RigidBody name=\"b\">\n        <SphereShape radius=\"1\"/>\n    "
                           "  </RigidBody>\n"),
                "<RigidBody", "RigidBody",
                "'density' (kg/m^3) or 'mass' (kg) for a body with shapes, found neither");
    expectError(sceneModel("      <RigidBody name=\"b\" density=\"1\" mass=\"2\">\n"
                           "        <SphereShape radius=\"1\"/>\n      </RigidBody>\n"),
                "<RigidBody", "RigidBody", "found both");
    expectError(sceneModel("      <RigidBody name=\"b\" density=\"-5\">\n"
                           "        <SphereShape radius=\"1\"/>\n      </RigidBody>\n"),
                "<RigidBody", "RigidBody", "density (kg/m^3) > 0, found -5");
    expectError(sceneModel("      <RigidBody name=\"b\" mass=\"1\">\n      </RigidBody>\n"),
                "<RigidBody", "RigidBody", "at least one shape");
    expectError(sceneModel("      <RigidBody name=\"b\" density=\"1\">\n        <inertia "
                           "form=\"diagonal\">1 1 1</inertia>\n"
                           "        <SphereShape radius=\"1\"/>\n      </RigidBody>\n"),
                "<inertia", "inertia", "with attribute 'mass' only");
    expectError(sceneModel("      <RigidBody name=\"b\" mass=\"1\">\n        <inertia "
                           "form=\"diagonal\">1 -1 1</inertia>\n"
                           "        <SphereShape radius=\"1\"/>\n      </RigidBody>\n"),
                "<RigidBody", "RigidBody", "inertia");
    expectError(
        sceneModel(kFloor +
                   "      <StaticBody name=\"floor\">\n        <SphereShape radius=\"1\"/>\n"
                   "      </StaticBody>\n"),
        "<StaticBody name=\"floor\">\n        <Sphere", "StaticBody", "'floor' a second time");
    expectError(sceneModel("      <RigidBody name=\"b\" density=\"1\" group=\"-1\">\n"
                           "        <SphereShape radius=\"1\"/>\n      </RigidBody>\n"),
                "<RigidBody", "RigidBody", "integer >= 0");
    expectError(sceneModel("      <ContactManager margin=\"0.01\" breaking-distance=\"0.001\"/>\n" +
                           kFloor),
                "<ContactManager", "ContactManager", "breaking-distance");
    expectError(
        sceneModel("      <ContactManager>\n        <material groups=\"0 1\" mu=\"-0.1\"/>\n"
                   "      </ContactManager>\n" +
                   kFloor),
        "<material", "material", "friction coefficient >= 0");
    expectError(sceneModel("      <ContactManager>\n        <material restitution=\"1.5\"/>\n"
                           "      </ContactManager>\n" +
                           kFloor),
                "<material", "material", "[0, 1]");
  }

  void badGeneratorsAndModels() {
    const std::string particle = "        <particle radius=\"0.1\"/>\n";
    expectError(
        sceneModel("      <latticePacking count=\"1000\">\n" + particle +
                   "        <region lower=\"0 0 0\" upper=\"1 1 1\"/>\n      </latticePacking>\n"),
        "<latticePacking", "latticePacking", "1000");
    expectError(
        sceneModel("      <randomPacking count=\"5000\" seed=\"1\" max-attempts=\"50\">\n" +
                   particle +
                   "        <region lower=\"0 0 0\" upper=\"1 1 1\"/>\n      </randomPacking>\n"),
        "<randomPacking", "randomPacking", "5000");
    expectError(
        sceneModel("      <randomPacking count=\"5\">\n        <particle radius=\"0\"/>\n"
                   "        <region lower=\"0 0 0\" upper=\"1 1 1\"/>\n      </randomPacking>\n"),
        "<particle", "particle", "radius (m) > 0");
    expectError(
        sceneModel("      <randomPacking count=\"5\">\n" + particle +
                   "        <region lower=\"0 0 0\" upper=\"1 0 1\"/>\n      </randomPacking>\n"),
        "<region", "region", "lower < upper");
    expectError(
        sceneModel("      <randomPacking count=\"0\">\n" + particle +
                   "        <region lower=\"0 0 0\" upper=\"1 1 1\"/>\n      </randomPacking>\n"),
        "<randomPacking", "randomPacking", "integer >= 1");
    expectError(
        sceneModel("      <container lower=\"0 0 0\" upper=\"1 1 1\" wall-thickness=\"0\"/>\n"),
        "<container", "container", "wall-thickness");
    expectError(sceneModel("      <hopper outlet-width=\"2\" top-width=\"1\"/>\n"), "<hopper",
                "hopper", "top-width");
    expectError(sceneModel("      <hopper plates=\"3\"/>\n"), "<hopper", "hopper", "2 or 4");
    expectError(sceneModel("      <chute angle=\"2\"/>\n"), "<chute", "chute", "(0, pi/2)");
    expectError(sceneModel("      <ContactManager/>\n"), "<scene", "scene", "found none");
    // the model around a scene
    expectError(sceneModel(kFloor, "<LCP/>"), "<LCP", "LCP", "FrictionContact dim=\"3\"");
    expectError(sceneModel(kFloor, "<FrictionContact dim=\"2\"/>"), "<FrictionContact",
                "FrictionContact", "found <FrictionContact> dim=\"2\"");
    expectError(
        sceneModel(kFloor, "<FrictionContact dim=\"3\"/>", "", " gravity=\"0 0 -9.81\"",
                   "    <systems>\n      <NewtonEulerDS name=\"floor\"><mass>1</mass>"
                   "<inertia form=\"diagonal\">1 1 1</inertia></NewtonEulerDS>\n    </systems>\n"),
        "<StaticBody", "StaticBody", "'floor' a second time");
    expectError(
        sceneModel(kFloor, "<FrictionContact dim=\"3\"/>", "", " gravity=\"0 0 -9.81\"",
                   "    <systems>\n      <NewtonEulerDS name=\"arm\"><mass>1</mass>"
                   "<inertia form=\"diagonal\">1 1 1</inertia></NewtonEulerDS>\n    </systems>\n"
                   "    <interactions>\n      <interaction name=\"pin\" systems=\"arm\">"
                   "<EqualityConditionNSL size=\"3\"/><KneeJointR point=\"0 0 0\" "
                   "absolute=\"true\"/></interaction>\n    </interactions>\n"),
        "<FrictionContact", "FrictionContact",
        "expected <GenericMechanical> for the 1 interactions");
    expectError(sceneModel(kFloor, "<FrictionContact dim=\"3\"/>", "", " gravity=\"0 -9.81\""),
                "<scene", "scene", "3 entries, found 2");
    const std::string noScene =
        "<?xml version=\"1.0\"?>\n<nsdyn version=\"1\">\n  <model>\n    <systems>\n"
        "      <NewtonEulerDS name=\"b\"><mass>1</mass><inertia form=\"diagonal\">1 1 "
        "1</inertia></NewtonEulerDS>\n"
        "    </systems>\n  </model>\n  <simulation T=\"1\" "
        "h=\"0.1\"><MoreauJeanOSI/></simulation>\n"
        "  <outputs>\n    <sceneFiles vtk=\"true\"/>\n  </outputs>\n</nsdyn>\n";
    expectError(noScene, "<sceneFiles", "sceneFiles", "with a <scene>");
  }

  // <fExt> (added to m g, world frame) and <mExt> (body frame) on a <RigidBody>, constant
  // or of t; <roughBase>: static spheres on a square lattice over a disc; bad loads.
  void bodyLoadsAndRoughBase() {
    const std::string xml =
        sceneModel(kFloor +
                   "      <RigidBody name=\"wheel\" mass=\"2\">\n"
                   "        <position>0 0 1</position>\n"
                   "        <SphereShape radius=\"0.1\"/>\n"
                   "        <fExt>1 0 -5</fExt>\n"
                   "        <mExt>0 0 if(t &lt; 0.2, 0, 1.5)</mExt>\n"
                   "      </RigidBody>\n"
                   "      <RigidBody name=\"pushed\" mass=\"1\">\n"
                   "        <position>1 0 1</position>\n"
                   "        <SphereShape radius=\"0.1\"/>\n"
                   "        <fExt>0 2*t 0</fExt>\n"
                   "      </RigidBody>\n"
                   "      <RigidBody name=\"plain\" mass=\"1\">\n"
                   "        <position>2 0 1</position>\n"
                   "        <SphereShape radius=\"0.1\"/>\n"
                   "      </RigidBody>\n"
                   "      <roughBase radius=\"0.05\" reach=\"0.22\" center=\"1 2 0.5\"/>\n");
    const auto m = XmlLoader().loadString(xml);
    auto same = [](const nsdyn::SiconosVector& v, double x, double y, double z) {
      return v.size() == 3 && v(0) == x && v(1) == y && v(2) == z;
    };
    const auto wheel = bodyNamed(*m, "wheel").body();
    CPPUNIT_ASSERT(same(wheel->computeFExt(0.0), 2.0 * 0.0 + 1.0, 0.0, 2.0 * -9.81 - 5.0));
    CPPUNIT_ASSERT(same(wheel->computeMExt(0.1), 0.0, 0.0, 0.0));
    CPPUNIT_ASSERT(same(wheel->computeMExt(0.3), 0.0, 0.0, 1.5));
    const auto pushed = bodyNamed(*m, "pushed").body();
    CPPUNIT_ASSERT(same(pushed->computeFExt(0.5), 0.0, 1.0, -9.81));
    CPPUNIT_ASSERT(!pushed->hasMExt());
    CPPUNIT_ASSERT(same(bodyNamed(*m, "plain").body()->computeFExt(3.0), 0.0, 0.0, -9.81));
    // the potential -f_ext.x includes the extra force
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-(2.0 * -9.81 - 5.0) * 1.0, wheel->potentialEnergy(0.0), 1e-12);
    // roughBase: i, j in -3..3 (ceil(0.22 / 0.1)), the sites within 0.22 of the centre, named
    // bump0, bump1, ...
    std::size_t bumps = 0;
    for (const std::string& name : m->scene->bodyNames) {
      if (name.rfind("bump", 0) != 0) continue;
      const nsdyn::BodyShapes& b = bodyNamed(*m, name);
      CPPUNIT_ASSERT(b.isStatic());
      CPPUNIT_ASSERT_EQUAL(std::string("bump") + std::to_string(bumps), name);
      ++bumps;
    }
    std::size_t expected = 0;
    for (int i = -3; i <= 3; ++i)
      for (int j = -3; j <= 3; ++j) expected += std::hypot(0.1 * i, 0.1 * j) <= 0.22 ? 1 : 0;
    CPPUNIT_ASSERT_EQUAL(expected, bumps);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1 + 3 + bumps), m->scene->bodyNames.size());
    // bad loads: three entries
    const std::string bad = sceneModel(kFloor +
                                       "      <RigidBody name=\"b\" mass=\"1\">\n"
                                       "        <SphereShape radius=\"0.1\"/>\n"
                                       "        <mExt>0 1</mExt>\n"
                                       "      </RigidBody>\n");
    expectError(bad, "<mExt>", "mExt", "3");
    const std::string badBase =
        sceneModel(kFloor + "      <roughBase radius=\"-1\" reach=\"1\"/>\n");
    expectError(badBase, "<roughBase", "roughBase", "radius");
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(XmlScenesTest);
