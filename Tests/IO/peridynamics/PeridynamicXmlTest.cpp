// <PeridynamicBody> in XML scenes: every attribute reaches the objects (a body from a <box>
// equals the generator's with the same options), the shapes, the fracture energy, pre-cracks,
// velocities and prescribed regions; each bad value refused at its file:line, naming the
// attribute and the value.
#include <cppunit/extensions/HelperMacros.h>

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "nsdyn/HyperelasticMaterial.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"
#include "nsdyn/SheetMaterial.hpp"
#include "nsdyn/io/XmlLoader.hpp"

using nsdyn::io::LoadedModel;
using nsdyn::io::LoadedPeridynamicBody;
using nsdyn::io::LoadError;
using nsdyn::io::XmlLoader;

namespace {

/// A model file whose <scene> (gravity 0 0 -9.81) holds @p scene.
std::string sceneModel(const std::string& scene) {
  return "<?xml version=\"1.0\"?>\n"
         "<nsdyn version=\"1\" name=\"pd\">\n"
         "  <parameters><parameter name=\"dx\" value=\"0.01\"/></parameters>\n"
         "  <model>\n"
         "    <scene gravity=\"0 0 -9.81\">\n" +
         scene +
         "    </scene>\n"
         "  </model>\n"
         "  <simulation type=\"TimeStepping\" T=\"0.01\" h=\"1e-3\">\n"
         "    <MoreauJeanOSI theta=\"0.5\"/>\n"
         "    <FrictionContact dim=\"3\"/>\n"
         "  </simulation>\n"
         "</nsdyn>\n";
}

/// A <PeridynamicBody> with @p attributes, @p shape and @p rest (material etc.).
std::string body(
    const std::string& attributes, const std::string& shape,
    const std::string& rest = "        <peridynamicMaterial model=\"bond-based\" E=\"1e7\"/>\n") {
  return "      <PeridynamicBody " + attributes + ">\n        " + shape + "\n" + rest +
         "      </PeridynamicBody>\n";
}

const std::string kBox = "<box centre=\"0 0 0.02\" half-extents=\"0.02 0.01 0.02\"/>";

long lineOf(const std::string& text, const std::string& marker) {
  const std::size_t at = text.find(marker);
  CPPUNIT_ASSERT_MESSAGE("marker " + marker, at != std::string::npos);
  return 1 + static_cast<long>(
                 std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

/// Loading @p xml fails at the line of @p marker with a message holding every one of @p words.
void expectError(const std::string& xml, const std::string& marker,
                 const std::vector<std::string>& words) {
  try {
    XmlLoader().loadString(xml, "pd.xml");
  } catch (const LoadError& e) {
    const std::string what = e.what();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, std::string("pd.xml"), e.file());
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, lineOf(xml, marker), e.line());
    for (const std::string& w : words)
      CPPUNIT_ASSERT_MESSAGE("'" + w + "' not in: " + what, what.find(w) != std::string::npos);
    return;
  }
  CPPUNIT_FAIL("no error for marker " + marker);
}

const LoadedPeridynamicBody& only(const LoadedModel& m) {
  CPPUNIT_ASSERT(m.scene);
  CPPUNIT_ASSERT_EQUAL(std::size_t(1), m.scene->peridynamicBodies.size());
  return m.scene->peridynamicBodies[0];
}

}  // namespace

class PeridynamicXmlTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PeridynamicXmlTest);
  CPPUNIT_TEST(everyAttribute);
  CPPUNIT_TEST(boxEqualsGenerator);
  CPPUNIT_TEST(otherShapes);
  CPPUNIT_TEST(fractureEnergy);
  CPPUNIT_TEST(sheetMaterial);
  CPPUNIT_TEST(badSheetMaterial);
  CPPUNIT_TEST(meshAndHyperelastic);
  CPPUNIT_TEST(precrackAndPrescribe);
  CPPUNIT_TEST(badValues);
  CPPUNIT_TEST_SUITE_END();

 public:
  void everyAttribute() {
    const std::string xml = sceneModel(body(
        "name=\"block\" spacing=\"dx\" horizon=\"3.5*dx\" density=\"2000\" method=\"newton\" "
        "tolerance=\"1e-8\" iterations=\"40\" line-search=\"false\" "
        "surface-correction=\"false\" fracture=\"false\" contact-radius=\"0.004\" threads=\"2\" "
        "group=\"3\"",
        kBox,
        "        <peridynamicMaterial model=\"lps\" E=\"2e9\" nu=\"0.3\" "
        "critical-stretch=\"0.02\"/>\n"
        "        <velocity>1 2 3</velocity>\n"));
    const auto m = XmlLoader().loadString(xml, "pd.xml");
    const LoadedPeridynamicBody& b = only(*m);
    const nsdyn::PeridynamicBodyOptions& o = b.body->options();
    CPPUNIT_ASSERT_EQUAL(std::string("block"), o.name);
    CPPUNIT_ASSERT_EQUAL(0.01, o.spacing);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.035, o.horizon, 1e-15);
    CPPUNIT_ASSERT_EQUAL(2000.0, o.density);
    CPPUNIT_ASSERT_EQUAL(false, o.surfaceCorrection);
    CPPUNIT_ASSERT_EQUAL(0.004, o.contactRadius);
    CPPUNIT_ASSERT_EQUAL(2, o.threads);
    CPPUNIT_ASSERT_EQUAL(0.0, o.thickness);
    CPPUNIT_ASSERT_EQUAL(std::string("newton"), b.method);
    CPPUNIT_ASSERT_EQUAL(1e-8, b.step.tolerance);
    CPPUNIT_ASSERT_EQUAL(40, b.step.maxIterations);
    CPPUNIT_ASSERT_EQUAL(false, b.step.lineSearch);
    CPPUNIT_ASSERT_EQUAL(2, b.step.threads);
    CPPUNIT_ASSERT_EQUAL(-9.81, b.step.gravity[2]);
    CPPUNIT_ASSERT_EQUAL(false, b.fracture);
    CPPUNIT_ASSERT_EQUAL(3, b.group);
    CPPUNIT_ASSERT_EQUAL(lineOf(xml, "<PeridynamicBody"), b.line);
    CPPUNIT_ASSERT_EQUAL(std::string("lps"), b.body->material().kind());
    CPPUNIT_ASSERT_EQUAL(2e9, b.body->material().elasticity().youngModulus);
    CPPUNIT_ASSERT_EQUAL(0.3, b.body->material().elasticity().poissonRatio);
    CPPUNIT_ASSERT_EQUAL(0.02, b.body->material().criticalStretch());
    CPPUNIT_ASSERT_EQUAL(std::size_t(4 * 2 * 4), b.body->size());
    for (std::size_t i = 0; i < b.body->size(); ++i) {
      CPPUNIT_ASSERT_EQUAL(1.0, b.body->v[3 * i]);
      CPPUNIT_ASSERT_EQUAL(3.0, b.body->v[3 * i + 2]);
      CPPUNIT_ASSERT_EQUAL(0, int(b.body->prescribed[i]));
    }
    // the defaults
    const auto d = XmlLoader().loadString(
        sceneModel(body("name=\"b\" spacing=\"0.01\" density=\"1\"", kBox)), "pd.xml");
    const LoadedPeridynamicBody& e = only(*d);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.03, e.body->options().horizon, 1e-15);
    CPPUNIT_ASSERT_EQUAL(std::string("substitution"), e.method);
    CPPUNIT_ASSERT_EQUAL(1e-6, e.step.tolerance);
    CPPUNIT_ASSERT_EQUAL(500, e.step.maxIterations);
    CPPUNIT_ASSERT(e.step.lineSearch && e.fracture && e.body->options().surfaceCorrection);
    CPPUNIT_ASSERT_EQUAL(std::string("bond-based"), e.body->material().kind());
    CPPUNIT_ASSERT_EQUAL(0.25, e.body->material().elasticity().poissonRatio);
    CPPUNIT_ASSERT(std::isinf(e.body->material().criticalStretch()));
    CPPUNIT_ASSERT_EQUAL(0, e.group);
    // a scene of a peridynamic body only has no rigid body
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), d->scene->bodyNames.size());
  }

  void boxEqualsGenerator() {
    const auto m = XmlLoader().loadString(
        sceneModel(body("name=\"b\" spacing=\"0.01\" horizon=\"0.03\" density=\"1000\"", kBox)),
        "pd.xml");
    const nsdyn::PeridynamicBody& xml = *only(*m).body;
    const auto generated = nsdyn::peridynamics::box({0.0, 0.0, 0.02}, {0.02, 0.01, 0.02},
                                                    xml.options(), xml.materialPtr());
    CPPUNIT_ASSERT_EQUAL(generated->size(), xml.size());
    CPPUNIT_ASSERT(generated->X == xml.X);
    CPPUNIT_ASSERT(generated->x == xml.x);
    CPPUNIT_ASSERT(generated->volume == xml.volume);
    CPPUNIT_ASSERT(generated->mass == xml.mass);
    CPPUNIT_ASSERT(generated->bondStart == xml.bondStart);
    CPPUNIT_ASSERT(generated->neighbour == xml.neighbour);
    CPPUNIT_ASSERT(generated->bondFactor == xml.bondFactor);
  }

  void otherShapes() {
    const std::string attrs = "name=\"b\" spacing=\"0.01\" density=\"1000\"";
    {
      const auto m = XmlLoader().loadString(
          sceneModel(body(attrs,
                          "<cylinder centre=\"0 0 1\" radius=\"0.03\" length=\"0.04\" "
                          "axis=\"x\"/>")),
          "pd.xml");
      const nsdyn::PeridynamicBody& b = *only(*m).body;
      const auto g =
          nsdyn::peridynamics::cylinder({0, 0, 1}, 0.03, 0.04, 0, b.options(), b.materialPtr());
      CPPUNIT_ASSERT(b.size() > 0);
      CPPUNIT_ASSERT(g->X == b.X);
    }
    {
      const auto m = XmlLoader().loadString(
          sceneModel(body(attrs, "<sphere centre=\"1 0 0\" radius=\"0.03\"/>")), "pd.xml");
      const nsdyn::PeridynamicBody& b = *only(*m).body;
      const auto g = nsdyn::peridynamics::sphere({1, 0, 0}, 0.03, b.options(), b.materialPtr());
      CPPUNIT_ASSERT(b.size() > 0);
      CPPUNIT_ASSERT(g->X == b.X);
    }
    {
      const auto m = XmlLoader().loadString(
          sceneModel(body(attrs,
                          "<sheet centre=\"0 0 0.5\" u=\"2 0 0\" w=\"0 0 1\" half-u=\"0.05\" "
                          "half-w=\"0.03\" thickness=\"0.001\"/>",
                          "        <peridynamicMaterial model=\"bond-based\" E=\"1e6\"/>\n")),
          "pd.xml");
      const nsdyn::PeridynamicBody& b = *only(*m).body;
      CPPUNIT_ASSERT_EQUAL(0.001, b.options().thickness);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 / 3.0, b.material().elasticity().poissonRatio, 1e-15);
      const auto g = nsdyn::peridynamics::sheet({0, 0, 0.5}, {1, 0, 0}, {0, 0, 1}, 0.05, 0.03,
                                                b.options(), b.materialPtr());
      CPPUNIT_ASSERT_EQUAL(std::size_t(10 * 6), b.size());
      CPPUNIT_ASSERT(g->X == b.X);
      for (std::size_t i = 0; i < b.size(); ++i) CPPUNIT_ASSERT_EQUAL(0.0, b.X[3 * i + 1]);
    }
  }

  void fractureEnergy() {
    const double E = 72e9, G0 = 3.8, delta = 0.03;
    const auto m = XmlLoader().loadString(
        sceneModel(body("name=\"glass\" spacing=\"0.01\" horizon=\"0.03\" density=\"2440\"", kBox,
                        "        <peridynamicMaterial model=\"bond-based\" E=\"72e9\" "
                        "fracture-energy=\"3.8\"/>\n")),
        "pd.xml");
    const double K = E / (3.0 * (1.0 - 2.0 * 0.25));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(5.0 * G0 / (9.0 * K * delta)),
                                 only(*m).body->material().criticalStretch(), 1e-15);
  }

  // model="sheet" on a <sheet>: a SheetMaterial with E, ν = 1/3 (default), the critical stretch
  // (given or from G₀ by the 2D bond-based relation) and the bending scale (default 1), its
  // bending stiffness D = s E t³ / (12 (1 − ν²)) from the sheet's thickness.
  void sheetMaterial() {
    const std::string sheet =
        "<sheet centre=\"0 0 0.5\" half-u=\"0.05\" half-w=\"0.04\" thickness=\"5e-4\"/>";
    const std::string attrs = "name=\"cloth\" spacing=\"0.01\" density=\"300\"";
    const auto m = XmlLoader().loadString(
        sceneModel(body(attrs, sheet,
                        "        <peridynamicMaterial model=\"sheet\" E=\"5e6\" "
                        "critical-stretch=\"0.05\" bending-scale=\"2.5\"/>\n")),
        "pd.xml");
    const nsdyn::PeridynamicBody& b = *only(*m).body;
    CPPUNIT_ASSERT_EQUAL(std::string("sheet"), b.material().kind());
    const auto* s = dynamic_cast<const nsdyn::SheetMaterial*>(&b.material());
    CPPUNIT_ASSERT(s);
    CPPUNIT_ASSERT_EQUAL(5e6, s->elasticity().youngModulus);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 / 3.0, s->elasticity().poissonRatio, 1e-15);
    CPPUNIT_ASSERT_EQUAL(0.05, s->criticalStretch());
    CPPUNIT_ASSERT_EQUAL(2.5, s->options().bendingScale);
    CPPUNIT_ASSERT_EQUAL(5e-4, b.options().thickness);
    CPPUNIT_ASSERT_EQUAL(std::size_t(10 * 8), b.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5 * 5e6 * 1.25e-10 / (12.0 * (1.0 - 1.0 / 9.0)),
                                 s->bendingStiffness(b), 1e-18);
    CPPUNIT_ASSERT(s->triplets(b) > 0);  // prepared: the bending triplets exist
    // the generator with the loaded material makes the same body
    const auto g = nsdyn::peridynamics::sheet({0, 0, 0.5}, {1, 0, 0}, {0, 1, 0}, 0.05, 0.04,
                                              b.options(), b.materialPtr());
    CPPUNIT_ASSERT(g->X == b.X);
    CPPUNIT_ASSERT(g->neighbour == b.neighbour);
    // the defaults (bending 1, ν = 1/3, no fracture), G₀ through the 2D relation, a membrane
    const auto d = XmlLoader().loadString(
        sceneModel(
            body(attrs, sheet, "        <peridynamicMaterial model=\"sheet\" E=\"5e6\"/>\n") +
            body("name=\"torn\" spacing=\"0.01\" horizon=\"0.03\" density=\"300\"",
                 "<sheet centre=\"0 0 1.5\" half-u=\"0.05\" half-w=\"0.04\" "
                 "thickness=\"5e-4\"/>",
                 "        <peridynamicMaterial model=\"sheet\" E=\"5e6\" nu=\"1/3\" "
                 "fracture-energy=\"20\"/>\n") +
            body("name=\"membrane\" spacing=\"0.01\" horizon=\"0.02\" density=\"300\"",
                 "<sheet centre=\"0 0 2.5\" half-u=\"0.05\" half-w=\"0.04\" "
                 "thickness=\"5e-4\"/>",
                 "        <peridynamicMaterial model=\"sheet\" E=\"5e6\" "
                 "bending-scale=\"0\"/>\n")),
        "pd.xml");
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), d->scene->peridynamicBodies.size());
    const auto& plain =
        dynamic_cast<const nsdyn::SheetMaterial&>(d->scene->peridynamicBodies[0].body->material());
    CPPUNIT_ASSERT_EQUAL(1.0, plain.options().bendingScale);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 / 3.0, plain.elasticity().poissonRatio, 1e-15);
    CPPUNIT_ASSERT(std::isinf(plain.criticalStretch()));
    const nsdyn::PeridynamicMaterial& torn = d->scene->peridynamicBodies[1].body->material();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(4.0 * M_PI * 20.0 / (9.0 * 5e6 * 0.03)),
                                 torn.criticalStretch(), 1e-15);
    const auto& membrane =
        dynamic_cast<const nsdyn::SheetMaterial&>(d->scene->peridynamicBodies[2].body->material());
    CPPUNIT_ASSERT_EQUAL(0.0, membrane.options().bendingScale);
    CPPUNIT_ASSERT_EQUAL(0.0, membrane.bendingStiffness(*d->scene->peridynamicBodies[2].body));
  }

  // Where the sheet model does not fit: on a 3D shape, ν other than 1/3, a negative or infinite
  // bending scale, bending-scale on another model, a horizon too short for the bending
  // triplets: each at its line, naming the attribute and the value.
  void badSheetMaterial() {
    const std::string ok = "name=\"b\" spacing=\"0.01\" density=\"300\"";
    const std::string sheet = "<sheet half-u=\"0.05\" half-w=\"0.05\" thickness=\"5e-4\"/>";
    auto material = [](const std::string& attributes) {
      return "        <peridynamicMaterial model=\"sheet\" E=\"5e6\" " + attributes + "/>\n";
    };
    struct Case {
      std::string xml, marker;
      std::vector<std::string> words;
    };
    const std::vector<Case> cases = {
        {body(ok, kBox, material("")),
         "<peridynamicMaterial",
         {"'model'", "expected 'sheet' on a body whose shape is a <sheet>", "found it on a <box>",
          "(line 7)"}},
        {body(ok, sheet, material("nu=\"0.3\"")),
         "<peridynamicMaterial",
         {"'nu'", "1/3 (the sheet model's bond-based membrane)", "found 0.3"}},
        {body(ok, sheet, material("bending-scale=\"-1\"")),
         "<peridynamicMaterial",
         {"'bending-scale'", ">= 0", "found -1"}},
        {body(ok, sheet, material("bending-scale=\"1e400\"")),
         "<peridynamicMaterial",
         {"'bending-scale'", "finite", "1e400"}},
        {body(ok, sheet,
              "        <peridynamicMaterial model=\"bond-based\" E=\"5e6\" "
              "bending-scale=\"1\"/>\n"),
         "<peridynamicMaterial",
         {"'bending-scale'", "model 'sheet' only", "'bond-based'"}},
        {body(ok, sheet, material("stabilisation=\"1\"")),
         "<peridynamicMaterial",
         {"'stabilisation'", "'sheet'"}},
        {body("name=\"b\" spacing=\"0.01\" horizon=\"0.025\" density=\"300\"", sheet, material("")),
         "<PeridynamicBody",
         {"'horizon'", "2 sqrt(2) x spacing = 0.0282842712475", "found 0.025",
          "bending-scale=\"0\" at line 8"}},
    };
    for (const Case& c : cases) expectError(sceneModel(c.xml), c.marker, c.words);
  }

  void meshAndHyperelastic() {
    // a closed cube of side 0.04 centred at the origin, as an OBJ file
    const std::string path = std::string(NSDYN_BINARY_DIR) + "/Tests/IO/peridynamics/cube-" +
                             std::to_string(::getpid()) + ".obj";
    {
      std::ofstream obj(path);
      for (int k = 0; k < 8; ++k)
        obj << "v " << (k & 1 ? 0.02 : -0.02) << " " << (k & 2 ? 0.02 : -0.02) << " "
            << (k & 4 ? 0.02 : -0.02) << "\n";
      obj << "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
    }
    const auto m = XmlLoader().loadString(
        sceneModel(body("name=\"rubber\" spacing=\"0.01\" density=\"1100\"",
                        "<mesh file=\"" + path + "\" scale=\"2\" translation=\"0 0 1\"/>",
                        "        <peridynamicMaterial model=\"neo-hookean\" E=\"1e6\" nu=\"0.45\" "
                        "stabilisation=\"0.5\"/>\n")),
        "pd.xml");
    const nsdyn::PeridynamicBody& b = *only(*m).body;
    std::filesystem::remove(path);
    CPPUNIT_ASSERT_EQUAL(std::size_t(8 * 8 * 8), b.size());  // the cube scaled to side 0.08
    double zmin = 10.0;
    for (std::size_t i = 0; i < b.size(); ++i) zmin = std::min(zmin, b.X[3 * i + 2]);
    // (the mesh reader keeps single-precision vertices)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 - 0.04 + 0.005, zmin, 1e-8);
    CPPUNIT_ASSERT_EQUAL(std::string("neo-hookean"), b.material().kind());
    const auto* h = dynamic_cast<const nsdyn::HyperelasticMaterial*>(&b.material());
    CPPUNIT_ASSERT(h);
    CPPUNIT_ASSERT_EQUAL(0.5, h->stabilisation());
    CPPUNIT_ASSERT_EQUAL(0.45, h->elasticity().poissonRatio);
    const auto s = XmlLoader().loadString(
        sceneModel(
            body("name=\"b\" spacing=\"0.01\" density=\"1\"", kBox,
                 "        <peridynamicMaterial model=\"saint-venant-kirchhoff\" E=\"1e6\"/>\n")),
        "pd.xml");
    CPPUNIT_ASSERT_EQUAL(std::string("saint-venant-kirchhoff"), only(*s).body->material().kind());
    CPPUNIT_ASSERT_EQUAL(1.0,
                         dynamic_cast<const nsdyn::HyperelasticMaterial&>(only(*s).body->material())
                             .stabilisation());
  }

  void precrackAndPrescribe() {
    const std::string plain = body("name=\"b\" spacing=\"0.01\" density=\"1000\"", kBox);
    const auto m0 = XmlLoader().loadString(sceneModel(plain), "pd.xml");
    const auto m = XmlLoader().loadString(
        sceneModel(body("name=\"b\" spacing=\"0.01\" density=\"1000\"", kBox,
                        "        <peridynamicMaterial model=\"bond-based\" E=\"1e7\"/>\n"
                        "        <precrack a=\"0 -1 0.02\" b=\"0 1 0.02\" direction=\"0 0 1\"/>\n"
                        "        <velocity>0 0 -1</velocity>\n"
                        "        <prescribe lower=\"-1 -1 -1\" upper=\"1 1 0.01\" "
                        "velocity=\"0 0 0.5\"/>\n")),
        "pd.xml");
    const nsdyn::PeridynamicBody& intact = *only(*m0).body;
    const nsdyn::PeridynamicBody& b = *only(*m).body;
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), intact.brokenBonds());
    const std::size_t cut = intact.bondCount() - b.bondCount() + b.brokenBonds();
    CPPUNIT_ASSERT(cut > 0);
    CPPUNIT_ASSERT(*std::max_element(b.damage.begin(), b.damage.end()) > 0.0);
    std::size_t held = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      const bool low = b.X[3 * i + 2] <= 0.01;
      CPPUNIT_ASSERT_EQUAL(low ? 1 : 0, int(b.prescribed[i]));
      CPPUNIT_ASSERT_EQUAL(low ? 0.5 : -1.0, b.v[3 * i + 2]);
      held += low;
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(4 * 2), held);  // the layer at z = 0.005
  }

  void badValues() {
    const std::string ok = "name=\"b\" spacing=\"0.01\" density=\"1000\"";
    const std::string mat = "        <peridynamicMaterial model=\"bond-based\" E=\"1e7\"/>\n";
    struct Case {
      std::string xml, marker;
      std::vector<std::string> words;
    };
    const std::vector<Case> cases = {
        {body("name=\"b\" spacing=\"-0.01\" density=\"1000\"", kBox),
         "<PeridynamicBody",
         {"<PeridynamicBody>", "'spacing'", "-0.01"}},
        {body("name=\"b\" spacing=\"0.01\" horizon=\"0.005\" density=\"1000\"", kBox),
         "<PeridynamicBody",
         {"'horizon'", "0.005"}},
        {body("name=\"b\" spacing=\"0.01\" density=\"0\"", kBox),
         "<PeridynamicBody",
         {"'density'", "found 0"}},
        {body(ok + " method=\"euler\"", kBox), "<PeridynamicBody", {"'method'", "euler"}},
        {body(ok + " iterations=\"0\"", kBox), "<PeridynamicBody", {"'iterations'", "0"}},
        {body(ok + " colour=\"red\"", kBox), "<PeridynamicBody", {"unknown attribute 'colour'"}},
        {body("name=\"2b\" spacing=\"0.01\" density=\"1\"", kBox), "<PeridynamicBody", {"'2b'"}},
        {body(ok, "<box half-extents=\"0.02 0 0.02\"/>"),
         "<box",
         {"'half-extents'", "0.02 0 0.02"}},
        {body(ok, "<box half-extents=\"0.02 0.013 0.02\"/>"),
         "<box",
         {"multiple of the spacing", "0.026"}},
        {body(ok, "<cylinder radius=\"0.03\" length=\"0.04\" axis=\"w\"/>"),
         "<cylinder",
         {"'axis'", "'w'"}},
        {body(ok, "<sphere radius=\"-1\"/>"), "<sphere", {"'radius'", "-1"}},
        {body(ok, "<mesh file=\"nowhere.obj\"/>"), "<mesh", {"'file'", "nowhere.obj"}},
        {body(ok,
              "<sheet u=\"1 0 0\" w=\"1 1 0\" half-u=\"0.05\" half-w=\"0.05\" "
              "thickness=\"0.001\"/>"),
         "<sheet",
         {"orthogonal"}},
        {body(ok, "<sheet half-u=\"0.05\" half-w=\"0.05\" thickness=\"0\"/>"),
         "<sheet",
         {"'thickness'", "found 0"}},
        {body(ok, kBox + "\n        <sphere radius=\"0.02\"/>"), "<sphere", {"a second"}},
        {"      <PeridynamicBody " + ok + ">\n" + mat + "      </PeridynamicBody>\n",
         "<PeridynamicBody",
         {"expected a shape"}},
        {body(ok, kBox, ""), "<PeridynamicBody", {"<peridynamicMaterial>"}},
        {body(ok, kBox, "        <peridynamicMaterial model=\"rubber\" E=\"1e7\"/>\n"),
         "<peridynamicMaterial",
         {"'model'", "rubber"}},
        {body(ok, kBox, "        <peridynamicMaterial model=\"lps\" E=\"0\"/>\n"),
         "<peridynamicMaterial",
         {"'E'", "found 0"}},
        {body(ok, kBox, "        <peridynamicMaterial model=\"lps\" E=\"1e7\" nu=\"0.6\"/>\n"),
         "<peridynamicMaterial",
         {"'nu'", "0.6"}},
        {body(ok, kBox,
              "        <peridynamicMaterial model=\"bond-based\" E=\"1e7\" nu=\"0.3\"/>\n"),
         "<peridynamicMaterial",
         {"'nu'", "0.3"}},
        {body(ok, kBox,
              "        <peridynamicMaterial model=\"lps\" E=\"1e7\" critical-stretch=\"0.1\" "
              "fracture-energy=\"2\"/>\n"),
         "<peridynamicMaterial",
         {"found both"}},
        {body(ok, kBox,
              "        <peridynamicMaterial model=\"lps\" E=\"1e7\" stabilisation=\"1\"/>\n"),
         "<peridynamicMaterial",
         {"'stabilisation'", "'lps'"}},
        {body(ok, kBox,
              "        <peridynamicMaterial model=\"neo-hookean\" E=\"1e7\" "
              "stabilisation=\"-2\"/>\n"),
         "<peridynamicMaterial",
         {"'stabilisation'", "-2"}},
        {body(ok, kBox,
              "        <peridynamicMaterial model=\"lps\" E=\"1e7\" critical-stretch=\"-1\"/>\n"),
         "<peridynamicMaterial",
         {"'critical-stretch'", "-1"}},
        {body(ok, kBox, mat + "        <precrack a=\"0 0 0\" b=\"0 1 0\" direction=\"0 0 0\"/>\n"),
         "<precrack",
         {"'direction'", "0 0 0"}},
        {body(ok, kBox, mat + "        <precrack a=\"5 5 5\" b=\"6 5 5\" direction=\"0 0 1\"/>\n"),
         "<precrack",
         {"b"}},
        {body(ok, kBox, mat + "        <prescribe lower=\"5 5 5\" upper=\"6 6 6\"/>\n"),
         "<prescribe",
         {"found none", "5 5 5"}},
        {body(ok, kBox, mat + "        <prescribe lower=\"0 0 0\" upper=\"0 1 1\"/>\n"),
         "<prescribe",
         {"lower < upper"}},
        {body(ok, kBox, mat + "        <velocity>1 2</velocity>\n"), "<velocity", {"3"}},
    };
    for (const Case& c : cases) expectError(sceneModel(c.xml), c.marker, c.words);
    // a second body of the same name
    const std::string twice = body(ok, kBox) + body(ok, kBox);
    const std::string xml = sceneModel(twice);
    const std::size_t second = xml.find("<PeridynamicBody", xml.find("<PeridynamicBody") + 1);
    try {
      XmlLoader().loadString(xml, "pd.xml");
      CPPUNIT_FAIL("two bodies named b loaded");
    } catch (const LoadError& e) {
      CPPUNIT_ASSERT_EQUAL(
          1 + static_cast<long>(std::count(xml.begin(), xml.begin() + long(second), '\n')),
          e.line());
      CPPUNIT_ASSERT(std::string(e.what()).find("'b' a second time") != std::string::npos);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PeridynamicXmlTest);
