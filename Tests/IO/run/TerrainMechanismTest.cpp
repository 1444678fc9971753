// `nsdyn run` on terrains and mechanisms: a sphere on a mesh floor (from an OBJ file beside
// the model and inline) and on a flat heightfield (from a CSV file) gives the CSV of the same
// sphere on the plane z = 0; the motorised wheel's XML twin (Tests/IO/models/MotoredWheel.xml)
// gives the figures of its C++ driver (Tests/Kernel/readme/ApiMotoredWheel.cpp), step by step.
#include <cppunit/extensions/HelperMacros.h>
#include <png.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nsdyn/Kernel.hpp>

#include "run_helpers.hpp"

using namespace nsdyn::test;

namespace {

// A sphere dropped with a sliding velocity and a spin on the static body of @p floor; it
// crosses the mesh diagonal y = x and the heightfield's cell edges.
std::string sphereModel(const std::string& name, const std::string& floor) {
  return "<?xml version=\"1.0\"?>\n<nsdyn version=\"1\" name=\"" + name +
         "\">\n"
         "  <model>\n    <scene gravity=\"0 0 -9.81\">\n"
         "      <ContactManager><material mu=\"0.3\" restitution=\"0\"/></ContactManager>\n"
         "      <StaticBody name=\"floor\">" +
         floor +
         "</StaticBody>\n"
         "      <RigidBody name=\"ball\" density=\"1000\">\n"
         "        <position>-0.4 0.2 0.15</position>\n"
         "        <velocity>1.5 0.2 0</velocity>\n"
         "        <angularVelocity>0 0 5</angularVelocity>\n"
         "        <SphereShape radius=\"0.1\"/>\n"
         "      </RigidBody>\n    </scene>\n  </model>\n"
         "  <simulation T=\"1\" h=\"0.005\">\n    <MoreauJeanOSI theta=\"0.5\"/>\n"
         "    <FrictionContact dim=\"3\" solver=\"nsgs\">"
         "<options tolerance=\"1e-12\" max-iterations=\"1000\"/></FrictionContact>\n"
         "  </simulation>\n"
         "  <outputs>\n    <output name=\"" +
         name +
         "\">\n"
         "      <column name=\"t\" value=\"t\"/>\n"
         "      <column name=\"x\" value=\"ball.q[0]\"/><column name=\"y\" value=\"ball.q[1]\"/>"
         "<column name=\"z\" value=\"ball.q[2]\"/>\n"
         "      <column name=\"q0\" value=\"ball.q[3]\"/><column name=\"q1\" value=\"ball.q[4]\"/>"
         "<column name=\"q2\" value=\"ball.q[5]\"/><column name=\"q3\" value=\"ball.q[6]\"/>\n"
         "      <column name=\"vx\" value=\"ball.v[0]\"/><column name=\"vz\" value=\"ball.v[2]\"/>"
         "<column name=\"wz\" value=\"ball.v[5]\"/>\n"
         "    </output>\n  </outputs>\n</nsdyn>\n";
}

// The largest difference between two CSVs of the same shape.
double maxDifference(const Csv& a, const Csv& b) {
  CPPUNIT_ASSERT(a.names == b.names);
  CPPUNIT_ASSERT_EQUAL(a.rows.size(), b.rows.size());
  double d = 0.0;
  for (std::size_t i = 0; i < a.rows.size(); ++i)
    for (std::size_t j = 0; j < a.rows[i].size(); ++j)
      d = std::max(d, std::abs(a.rows[i][j] - b.rows[i][j]));
  return d;
}

// Tests/Kernel/readme/ApiMotoredWheel.cpp's model, stepped here: per step v, omega R, the
// motor torque and the motor work summed.
struct Wheel {
  std::vector<double> v, omegaR, torque, work;
};

nsdyn::SP::NewtonEulerDS body(double x, double z, double m, double I) {
  using namespace nsdyn;
  auto b = std::make_shared<NewtonEulerDS>(SiconosVector{x, 0, z, 1, 0, 0, 0}, SiconosVector(6), m,
                                           SimpleMatrix::diagonal(SiconosVector{I, I, I}));
  b->setFExt(SiconosVector{0, 0, -9.81 * m});
  return b;
}

Wheel cppWheel() {
  using namespace nsdyn;
  auto equality = [](const SP::NewtonEulerJointR& j) {
    return std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(j->rows()), j);
  };
  const double R = 0.3;
  auto model = std::make_shared<Model>(0.0, 1.0);
  auto nsds = model->nonSmoothDynamicalSystem();
  auto problem = std::make_shared<GenericMechanical>();
  auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                            std::make_shared<MoreauJeanOSI>(0.5), problem);
  auto contacts = std::make_shared<ContactManager>();
  contacts->setDefaultMaterial({0.8, 0.0});
  sim->insertInteractionManager(contacts);
  contacts->addBody(
      makeStaticBody({ShapeInstance{std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0)}}));
  auto chassis = body(0, 1, 10.0, 1.0), carrier = body(0, R, 0.5, 0.01);
  nsds->insertDynamicalSystem(chassis);
  nsds->insertDynamicalSystem(carrier);
  BodySpec spec;
  spec.shapes = {ShapeInstance{std::make_shared<SphereShape>(R)}};
  spec.mass = 1.0;
  spec.position = {0, 0, R};
  BodyShapes w = makeBody(spec);
  auto wheel = w.body();
  wheel->setFExt(SiconosVector{0, 0, -9.81});
  contacts->addBody(*nsds, std::move(w));
  const SiconosVector x{1, 0, 0}, z{0, 0, 1};
  nsds->link(equality(std::make_shared<PrismaticJointR>(x, true, chassis)), chassis);
  nsds->link(equality(std::make_shared<PrismaticJointR>(z, true, chassis, carrier)), chassis,
             carrier);
  auto hinge = std::make_shared<PivotJointR>(SiconosVector{0, 0, R}, SiconosVector{0, 1, 0}, true,
                                             carrier, wheel);
  nsds->link(equality(hinge), carrier, wheel);
  auto motor = JointAxisR::motor(
      hinge, [](double t) { return 2.0 * t; }, 20.0);
  nsds->link(motor, carrier, wheel);
  model->initialize(sim);
  Wheel out;
  double work = 0.0;
  while (sim->hasNextEvent()) {
    sim->computeOneStep();
    work += JointAxisR::work(*motor);
    out.v.push_back(wheel->velocity()(0));
    out.omegaR.push_back(wheel->velocity()(4) * R);
    out.torque.push_back(problem->reaction(*motor)(0));
    out.work.push_back(work);
    sim->nextStep();
  }
  return out;
}

}  // namespace

class TerrainMechanismTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TerrainMechanismTest);
  CPPUNIT_TEST(sphereOnTerrainsEqualsPlane);
  CPPUNIT_TEST(motoredWheelTwin);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sphereOnTerrainsEqualsPlane() {
    namespace fs = std::filesystem;
    const std::string dir = scratch("terrain");
    fs::create_directories(dir + "/meshes");
    std::ofstream(dir + "/meshes/floor.obj")
        << "v -5 -5 0\nv 5 -5 0\nv 5 5 0\nv -5 5 0\nf 1 2 3\nf 1 3 4\n";
    {
      std::ofstream heights(dir + "/heights.csv");
      heights << "# an 11 x 11 flat grid, spacing 1\n";
      for (int j = 0; j < 11; ++j) heights << "0,0,0,0,0,0,0,0,0,0,0\n";
    }
    {
      // an 11 x 11 grey image, every pixel at level 0: the same flat grid
      png_image image;
      std::memset(&image, 0, sizeof image);
      image.version = PNG_IMAGE_VERSION;
      image.width = image.height = 11;
      image.format = PNG_FORMAT_GRAY;
      const std::vector<unsigned char> black(121, 0);
      CPPUNIT_ASSERT(png_image_write_to_file(&image, (dir + "/floor.png").c_str(), 0, black.data(),
                                             0, nullptr) != 0);
    }
    const std::pair<const char*, const char*> floors[] = {
        {"plane", "<HalfSpaceShape normal=\"0 0 1\"/>"},
        {"mesh", "<TriangleMeshShape file=\"meshes/floor.obj\"/>"},
        {"inline",
         "<TriangleMeshShape vertices=\"-5 -5 0; 5 -5 0; 5 5 0; -5 5 0\" "
         "triangles=\"0 1 2; 0 2 3\"/>"},
        {"heightfield",
         "<HeightfieldShape nx=\"11\" ny=\"11\" spacing=\"1\" file=\"heights.csv\"/>"},
        {"image", "<HeightfieldShape image=\"floor.png\" spacing=\"1\" height-scale=\"0.5\"/>"},
    };
    for (const auto& [name, floor] : floors) {
      std::ofstream(dir + "/" + name + ".xml") << sphereModel(name, floor);
      // run from another folder: the files are found beside the model
      const Run r = run(kBin + "/nsdyn run " + dir + "/" + name + ".xml --output " + dir + "/out");
      CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    }
    const Csv plane = readCsv(dir + "/out/plane.csv");
    CPPUNIT_ASSERT_EQUAL(std::size_t(201), plane.rows.size());
    // the ball rolls across the mesh diagonal y = x and lands on the floor
    CPPUNIT_ASSERT(plane.rows.front()[2] > plane.rows.front()[1]);
    CPPUNIT_ASSERT(plane.rows.back()[2] < plane.rows.back()[1] - 0.1);
    CPPUNIT_ASSERT(std::abs(plane.rows.back()[3] - 0.1) < 0.005);
    for (const char* name : {"mesh", "inline", "heightfield", "image"}) {
      const double d = maxDifference(plane, readCsv(dir + "/out/" + name + ".csv"));
      CPPUNIT_ASSERT_MESSAGE(std::string(name) + ": " + std::to_string(d), d <= 1e-12);
    }
    fs::remove_all(dir);
  }

  void motoredWheelTwin() {
    const std::string dir = scratch("wheel");
    const Run r = run(kBin + "/nsdyn run " + std::string(NSDYN_SOURCE_DIR) +
                      "/Tests/IO/models/MotoredWheel.xml --output " + dir);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    const Csv xml = readCsv(dir + "/MotoredWheel.csv");
    const Wheel cpp = cppWheel();
    CPPUNIT_ASSERT_EQUAL(cpp.v.size() + 1, xml.rows.size());  // and the initial row
    double d = 0.0;
    for (std::size_t k = 0; k < cpp.v.size(); ++k) {
      const std::vector<double>& row = xml.rows[k + 1];
      d = std::max({d, std::abs(row[1] - cpp.v[k]), std::abs(row[2] - cpp.omegaR[k]),
                    std::abs(row[3] - cpp.torque[k]), std::abs(row[4] - cpp.work[k])});
    }
    CPPUNIT_ASSERT_MESSAGE(std::to_string(d), d <= 1e-12);
    // the C++ driver's figures: v = omega R = 0.6 m/s, torque and work 2.1420
    const std::vector<double>& last = xml.rows.back();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.6, last[1], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(last[1], last[2], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.1420, last[3], 5e-5);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.1420, last[4], 5e-5);
    // the step statistics' works (step.motor_work, ..., summed): the motor's is the column
    // above, the joints do none, and the energy gained is the work of all the impulses
    // (the wheel rolls: the contact's is 0 to round-off; the potential energy is constant),
    // over 1,000 steps each solved to 1e-8 (the joints' velocity residual): 5e-8 J of joint
    // work and a balance closed to 7e-8 of the 2.142 J here
    CPPUNIT_ASSERT_DOUBLES_EQUAL(last[4], last[5], 1e-12);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(last[6]), std::abs(last[6]) <= 1e-7 * last[5]);
    const double gained = last[8] - xml.rows.front()[8];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(gained, last[7], 1e-7 * gained);
    std::filesystem::remove_all(dir);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TerrainMechanismTest);
