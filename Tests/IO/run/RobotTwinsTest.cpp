// The XML twins of the mechanism and robot examples (Examples/SliderCrank, ChainOnPile,
// ArmPushesBoxes, Rover: joints, motors, limits and detected contacts in one GenericMechanical
// problem), run by `nsdyn run` at the size of the C++ examples' tests (their parameters T,
// spheres, mu changed by --set): every column they share with the C++ driver's CSV at the same
// size agrees to round-off, the contact gaps (scene.min_gap, B.min_gap, B.contacts) included,
// and the figures the C++ tests assert (Tests/Kernel/contact_mechanisms,
// Tests/Kernel/robot_examples) hold for the XML run. Also the loader's errors for the servo and
// heightfield attributes these models use, and the errors of --set.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nsdyn/io/LoadError.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include "run_helpers.hpp"

using namespace nsdyn::test;

namespace {

std::size_t col(const Csv& c, const std::string& name) {
  const auto it = std::find(c.names.begin(), c.names.end(), name);
  CPPUNIT_ASSERT_MESSAGE("no column " + name, it != c.names.end());
  return static_cast<std::size_t>(it - c.names.begin());
}

double minOf(const Csv& c, const std::string& name) {
  const std::size_t k = col(c, name);
  double m = INFINITY;
  for (const auto& row : c.rows) m = std::min(m, row[k]);
  return m;
}

double maxOf(const Csv& c, const std::string& name) {
  const std::size_t k = col(c, name);
  double m = -INFINITY;
  for (const auto& row : c.rows) m = std::max(m, row[k]);
  return m;
}

/// The example's model file.
std::string example(const std::string& name) {
  return kExamples + "/" + name + "/" + name + ".xml";
}

/// `nsdyn run MODEL` into @p out with @p extra options (--set NAME=VALUE ...); the CSV named
/// @p name. The summary names each parameter set.
Csv runXml(const std::string& model, const std::string& out, const std::string& name,
           const std::string& extra = "") {
  const Run r = run("OMP_NUM_THREADS=1 '" + kBin + "/nsdyn' run '" + model +
                    "' --no-plot --quiet --output '" + out + "' " + extra);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
  for (std::size_t at = extra.find("--set "); at != std::string::npos;
       at = extra.find("--set ", at + 1)) {
    const std::string set = extra.substr(at + 6, extra.find('=', at) - at - 6);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("parameters set (--set):") != std::string::npos &&
                                      r.out.find(set + " = ") != std::string::npos);
  }
  return readCsv(out + "/" + name + ".csv");
}

/// The C++ driver with @p args into @p out.
Csv runDriver(const std::string& name, const std::string& args, const std::string& out) {
  const Run r = run("OMP_NUM_THREADS=1 '" + kBin + "/" + name + "' " + args +
                    " --no-plot --quiet --output '" + out + "'");
  CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
  return readCsv(out + "/" + name + ".csv");
}

/// Every column of @p xml is one of @p cpp's (only @p leftOut of the driver's are missing),
/// with the same rows to @p tol × max(1, |value|).
void sameColumns(const Csv& cpp, const Csv& xml, const std::vector<std::string>& leftOut,
                 double tol) {
  CPPUNIT_ASSERT_EQUAL(cpp.rows.size(), xml.rows.size());
  CPPUNIT_ASSERT_EQUAL(cpp.names.size(), xml.names.size() + leftOut.size());
  double worst = 0.0;
  std::string where;
  for (std::size_t j = 0; j < xml.names.size(); ++j) {
    const std::size_t i = col(cpp, xml.names[j]);
    for (std::size_t r = 0; r < xml.rows.size(); ++r) {
      const double a = cpp.rows[r][i], b = xml.rows[r][j];
      const double d = std::fabs(a - b) / std::max(1.0, std::fabs(a));
      if (d > worst) {
        worst = d;
        where = xml.names[j] + " row " + std::to_string(r);
      }
    }
  }
  std::fprintf(stderr, "\n  largest difference XML - C++: %.3e (%s)\n", worst, where.c_str());
  CPPUNIT_ASSERT_MESSAGE(where + ": " + std::to_string(worst), worst <= tol);
}

std::size_t pvdFrames(const std::string& path) {
  const std::string text = readText(path);
  std::size_t n = 0;
  for (std::size_t at = text.find("<DataSet"); at != std::string::npos;
       at = text.find("<DataSet", at + 1))
    ++n;
  return n;
}

}  // namespace

class RobotTwinsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RobotTwinsTest);
  CPPUNIT_TEST(sliderCrank);
  CPPUNIT_TEST(chainOnPile);
  CPPUNIT_TEST(armPushesBoxes);
  CPPUNIT_TEST(rover);
  CPPUNIT_TEST(loaderErrors);
  CPPUNIT_TEST(vtkOfASceneWithJoints);
  CPPUNIT_TEST(setParameters);
  CPPUNIT_TEST(contactFields);
  CPPUNIT_TEST_SUITE_END();

 public:
  // The default model (1 s): the C++ test's figures, VTK frames of the three bodies.
  void sliderCrank() {
    const std::string dir = scratch("slider-crank");
    const Csv xml =
        runXml(kExamples + "/SliderCrank/SliderCrank.xml", dir + "/xml", "SliderCrank", "--vtk");
    sameColumns(runDriver("SliderCrank", "", dir + "/cpp"), xml, {}, 1e-10);
    CPPUNIT_ASSERT_EQUAL(std::size_t(101), pvdFrames(dir + "/xml/SliderCrank.pvd"));
    const double r = 0.1, L = 0.3, w = 2.0 * M_PI, tau = 2.0, stop = 0.35;
    const std::size_t T = col(xml, "t"), TH = col(xml, "theta"), OM = col(xml, "omega"),
                      X = col(xml, "x"), XE = col(xml, "x_error"), TQ = col(xml, "motor_torque"),
                      WF = col(xml, "wall_force"), ACT = col(xml, "active_contacts"),
                      GAP = col(xml, "wall_gap");
    std::size_t k0 = 0;
    while (k0 < xml.rows.size() && xml.rows[k0][ACT] == 0.0) ++k0;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.355, xml.rows[k0][T], 1e-12);
    for (std::size_t k = 0; k < k0; ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(M_PI + w * xml.rows[k][T], xml.rows[k][TH], 1e-6);
      CPPUNIT_ASSERT(std::fabs(xml.rows[k][XE]) <= 1e-6);
      CPPUNIT_ASSERT(std::fabs(xml.rows[k][TQ]) < 0.5 * tau);
    }
    CPPUNIT_ASSERT(maxOf(xml, "joint_drift") <= 1e-8);
    CPPUNIT_ASSERT(maxOf(xml, "joint_angle_drift") <= 1e-8);
    for (std::size_t k = k0; k < xml.rows.size(); ++k) CPPUNIT_ASSERT(xml.rows[k][GAP] >= -1e-10);
    // stalled: the motor at its limit balances the wall force by virtual work
    for (std::size_t k = k0 + 10; k < xml.rows.size(); ++k) {
      const auto& row = xml.rows[k];
      const double s = std::sin(row[TH]), c = std::cos(row[TH]);
      const double dx = -r * s - r * r * s * c / std::sqrt(L * L - r * r * s * s);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(tau, row[TQ], 1e-9);
      CPPUNIT_ASSERT(std::fabs(row[OM]) <= 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(stop, row[X], 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(tau / dx, row[WF], 1e-6 * tau / dx);
    }
    std::filesystem::remove_all(dir);
  }

  // 0.2 s of the default pile (5 layers): the chain falls freely, lands and drapes; energy,
  // drift and floor gap as the C++ test asserts (there at 3 layers).
  void chainOnPile() {
    const std::string dir = scratch("chain-on-pile");
    const Csv xml = runXml(example("ChainOnPile"), dir + "/xml", "ChainOnPile", "--set T=0.2");
    sameColumns(runDriver("ChainOnPile", "--time 0.2", dir + "/cpp"), xml, {}, 1e-10);
    CPPUNIT_ASSERT_EQUAL(std::size_t(201), xml.rows.size());
    const std::size_t T = col(xml, "t"), K = col(xml, "kinetic"), P = col(xml, "potential"),
                      E = col(xml, "energy"), CK = col(xml, "chain_kinetic"),
                      ZMIN = col(xml, "chain_min_z"), ZMAX = col(xml, "chain_max_z"),
                      RES = col(xml, "residual"), ACT = col(xml, "active_contacts");
    const auto& rows = xml.rows;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(rows[k][K] + rows[k][P], rows[k][E], 1e-9 * rows[0][E]);
      CPPUNIT_ASSERT(rows[k][RES] <= 1e-4);
      if (k > 0) CPPUNIT_ASSERT(rows[k][E] <= rows[k - 1][E] + 1e-6 * rows[0][E]);
    }
    const double z0 = rows[0][ZMIN];
    for (std::size_t k = 0; k <= 130; ++k) {
      const double t = rows[k][T];
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z0 - 0.5 * 9.81 * t * t, rows[k][ZMIN], 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(rows[k][ZMIN], rows[k][ZMAX], 1e-9);
    }
    const std::size_t end = rows.size() - 1;
    CPPUNIT_ASSERT(rows[end][ZMAX] - rows[end][ZMIN] > 0.05);  // draped
    CPPUNIT_ASSERT(rows[end][ACT] > 0.0);
    CPPUNIT_ASSERT(rows[end][E] < rows[0][E] - 0.1 * rows[140][CK]);
    CPPUNIT_ASSERT(maxOf(xml, "joint_drift") <= 1e-4);
    CPPUNIT_ASSERT(minOf(xml, "floor_gap") >= -1e-4);
    // min(0, scene.min_gap): 0 in the free fall, then the penetrations of the landed chain
    CPPUNIT_ASSERT_EQUAL(0.0, maxOf(xml, "min_contact_gap"));
    CPPUNIT_ASSERT(minOf(xml, "min_contact_gap") < -1e-5 && minOf(xml, "min_contact_gap") > -1e-3);
    std::filesystem::remove_all(dir);
  }

  // Up to the first target pose (t = 2.02 s): the PD servos (motor-position, position-gain)
  // hold it within 1e-8 rad, the hinges drift < 1e-4, the boxes stay on the table.
  void armPushesBoxes() {
    const std::string dir = scratch("arm-pushes-boxes");
    const Csv xml =
        runXml(example("ArmPushesBoxes"), dir + "/xml", "ArmPushesBoxes", "--vtk --set T=2.02");
    // the angles: the motors' coordinate rows against the driver's reading of q (1e-10);
    // the motor work sums six motors over 1010 steps
    sameColumns(runDriver("ArmPushesBoxes", "--time 2.02", dir + "/cpp"), xml, {"self_contacts"},
                1e-7);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1011), xml.rows.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(102), pvdFrames(dir + "/xml/ArmPushesBoxes.pvd"));
    std::size_t row = 0;
    while (row < xml.rows.size() && xml.rows[row][0] < 2.0 - 1e-9) ++row;
    CPPUNIT_ASSERT(row < xml.rows.size());
    const double deg = M_PI / 180.0;
    const double want[6] = {-40 * deg, 60 * deg, 60 * deg, 60 * deg, 0.0, 0.0};
    for (int j = 0; j < 6; ++j) {
      const std::string n = std::to_string(j + 1);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(want[j], xml.rows[row][col(xml, "angle" + n)], 1e-8);
      CPPUNIT_ASSERT(std::fabs(xml.rows[row][col(xml, "error" + n)]) < 1e-8);
    }
    CPPUNIT_ASSERT(maxOf(xml, "drift") < 1e-4);
    CPPUNIT_ASSERT_EQUAL(4.0, minOf(xml, "boxes_on_table"));
    // table.min_gap: the bottom box resting on the table, within round-off
    CPPUNIT_ASSERT(std::fabs(minOf(xml, "table_gap")) < 1e-10);
    std::filesystem::remove_all(dir);
  }

  // Without the bed (spheres 0: the lattice is empty, the terrain has no trench), 3.6 s:
  // rolling without slip on the flat (v = omega R = 1 m/s), climbing the 15 deg slope without
  // slip; with mu = 0.2 (3.4 s) the wheels slip on the slope.
  void rover() {
    const std::string dir = scratch("rover");
    const Csv xml = runXml(example("Rover"), dir + "/xml", "Rover", "--set spheres=0 --set T=3.6");
    sameColumns(runDriver("Rover", "--spheres 0 --time 3.6", dir + "/cpp"), xml, {}, 1e-10);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1801), xml.rows.size());
    const std::size_t t = col(xml, "t"), x = col(xml, "x"), vx = col(xml, "vx"),
                      e = col(xml, "roll_error"), s = col(xml, "slip"), z = col(xml, "z");
    std::size_t flat = 0, slope = 0;
    for (const auto& row : xml.rows) {
      if (row[t] > 1.0 && row[x] < 1.5) {
        CPPUNIT_ASSERT(row[e] <= 1e-6);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, row[vx], 1e-6);
        ++flat;
      }
      if (row[x] > 2.4 && row[x] < 3.08) {
        CPPUNIT_ASSERT(std::fabs(row[s]) < 1e-6);
        ++slope;
      }
    }
    CPPUNIT_ASSERT(flat > 100 && slope > 100);
    CPPUNIT_ASSERT(xml.rows.back()[z] - xml.rows.front()[z] > 0.25);
    CPPUNIT_ASSERT(maxOf(xml, "drift") < 5e-5);
    // the wheels' gaps (wheelN.min_gap): detected within the 5 mm margin, penetrating < 1 mm
    CPPUNIT_ASSERT(minOf(xml, "wheel_gap") < 0.0 && minOf(xml, "wheel_gap") > -1e-3);
    CPPUNIT_ASSERT(maxOf(xml, "wheel_gap") <= 5e-3);
    const Csv low = runXml(example("Rover"), dir + "/slick", "Rover",
                           "--set spheres=0 --set T=3.4 --set mu=0.2");
    CPPUNIT_ASSERT(low.rows.back()[col(low, "slip")] > 0.3);
    CPPUNIT_ASSERT(low.rows.back()[col(low, "vx")] < 0.6);
    std::filesystem::remove_all(dir);
  }

  // The attributes these models brought: refused with the line and the value.
  void loaderErrors() {
    auto expect = [](const std::string& joint, const std::string& terrain,
                     const std::string& message) {
      const std::string text =
          "<?xml version=\"1.0\"?>\n<nsdyn version=\"1\" name=\"m\">\n<model>\n"
          "<interactions><interaction name=\"hinge\" systems=\"b\">"
          "<EqualityConditionNSL size=\"5\"/>\n<PivotJointR point=\"0 0 1\" axis=\"0 1 0\" "
          "absolute=\"true\" " +
          joint +
          "/></interaction></interactions>\n"
          "<scene gravity=\"0 0 -9.81\"><StaticBody name=\"ground\">\n" +
          terrain +
          "</StaticBody>\n<RigidBody name=\"b\" mass=\"1\"><position>0 0 1</position>"
          "<SphereShape radius=\"0.1\"/></RigidBody></scene>\n</model>\n"
          "<simulation T=\"1\" h=\"0.01\"><MoreauJeanOSI/><GenericMechanical/></simulation>\n"
          "</nsdyn>\n";
      try {
        nsdyn::io::XmlLoader().loadString(text, "m.xml");
        CPPUNIT_FAIL("expected an error: " + message);
      } catch (const nsdyn::io::LoadError& e) {
        const std::string what = e.what();
        CPPUNIT_ASSERT_MESSAGE(what, what.find(message) != std::string::npos);
      }
    };
    const std::string plane = "<HalfSpaceShape normal=\"0 0 1\"/>";
    const std::string field = "<HeightfieldShape nx=\"3\" ny=\"3\" spacing=\"1\" ";
    expect("motor-position=\"t\" max-torque=\"1\"", plane,
           "m.xml:5: <PivotJointR>: attribute 'motor-position': expected with 'position-gain'");
    expect("position-gain=\"20\"", plane, "attribute 'position-gain': expected with");
    expect("motor-position=\"t\" position-gain=\"20\"", plane,
           "attribute 'motor-position': expected with 'max-torque'");
    expect("motor-position=\"t\" position-gain=\"-1\" max-torque=\"1\"", plane,
           "m.xml:5: <PivotJointR>: attribute 'position-gain': expected a gain kp >= 0 and finite, "
           "found -1 ('-1')");
    expect("", field + "height=\"z + 1\"/>",
           "attribute 'height': in 'z + 1' at character 1: unknown name 'z' (expected x, y (the "
           "grid point), i, j (its indices) or a parameter)");
    expect("", field + "height=\"1/(x - -1)\"/>",
           "entry 0 (i = 0, j = 0): expected a finite height, found inf at x = -1, y = -1");
    expect("", field + "height=\"0\" heights=\"0 0 0 0 0 0 0 0 0\"/>",
           "expected one of attributes 'heights', 'file' or 'height', found more than one");
  }

  // --vtk on a scene with joints (GenericMechanical: the Kernel's TimeStepping, not the scene
  // engine, which writes its own files): without <vtk>, every body's frames, the scene's
  // wheel included (before: nothing was written and nothing said)
  void vtkOfASceneWithJoints() {
    const std::string dir = scratch("kernel-scene-vtk");
    const Run r = run(kBin + "/nsdyn run " + std::string(NSDYN_SOURCE_DIR) +
                      "/Tests/IO/models/MotoredWheel.xml --no-plot --quiet --vtk --output " + dir);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(
        r.out, r.out.find("MotoredWheel.pvd (1001 frames, 3 bodies)") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1001), pvdFrames(dir + "/MotoredWheel.pvd"));
    std::filesystem::remove_all(dir);
  }

  // nsdyn run --set NAME=VALUE: the value replaces the file's (an expression of the parameters
  // before it), is named in the summary; an unknown name is a usage error (2) listing the
  // parameters, a value that is no number a bad input (3) with the file, line and parameter.
  void setParameters() {
    const std::string dir = scratch("set-parameters");
    const std::string model = example("SliderCrank");
    const std::string cmd = kBin + "/nsdyn run '" + model + "' --no-plot --quiet --output " + dir;
    Run r = run(cmd + " --set T=0.01");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(
        r.out, r.out.find("  parameters set (--set):  T = 0.01 (file: 1)\n") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::size_t(11), readCsv(dir + "/SliderCrank.csv").rows.size());
    r = run(cmd + " --set T=0.02 --set omega=4*pi");  // omega: an expression
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("T = 0.02 (file: 1), omega = 12.566370614359172 "
                                             "('4*pi') (file: 2*pi)") != std::string::npos);
    const Csv fast = readCsv(dir + "/SliderCrank.csv");
    CPPUNIT_ASSERT_EQUAL(std::size_t(21), fast.rows.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 * M_PI, fast.rows[5][col(fast, "omega")], 1e-6);
    r = run(cmd + " --set T=0.01 --set Tend=1 --set zz=2");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 2, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out,
                           r.out.find("nsdyn run: --set: " + model +
                                      ":14: no <parameter> named 'Tend', 'zz' to set (its "
                                      "parameters: L, T, dt, g, half,") != std::string::npos);
    r = run(cmd + " --set T=dt");  // dt comes after T in the file
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out,
                           r.out.find(model + ":16: <parameter>: parameter 'T' set to 'dt' "
                                              "(expected a number or an expression of earlier "
                                              "parameters): in 'dt' at character 1: unknown name "
                                              "'dt'") != std::string::npos);
    r = run(cmd + " --set T=1/0");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("parameter 'T' set to '1/0'") != std::string::npos);
    r = run(cmd + " --set T");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 2, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("--set T: expected NAME=VALUE") != std::string::npos);
    r = run(cmd + " --set T=1 --set T=2");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 2, r.status);
    CPPUNIT_ASSERT_MESSAGE(
        r.out, r.out.find("--set T=2: T is already set (--set T=1)") != std::string::npos);
    // a checkpoint records the values set: its restart takes the same --set
    const std::string wheel = kBin + "/nsdyn run " + std::string(NSDYN_SOURCE_DIR) +
                              "/Tests/IO/models/MotoredWheel.xml --no-plot --quiet --output " +
                              dir + "/ck ";
    r = run(wheel + "--set R=0.31 --checkpoint-every 50 --stop-after 50");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    const std::string restart = "--restart " + dir + "/ck/MotoredWheel.checkpoint ";
    r = run(wheel + restart + "--set R=0.3");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("differs from the one that wrote the checkpoint "
                                             "(--set R)") != std::string::npos);
    r = run(wheel + restart + "--set R=0.31");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    // the loader's API: the values loaded, the overrides kept with the file's values
    nsdyn::io::XmlLoader loader;
    loader.setParameterOverrides({{"T", "3*dt", "", 0.0}, {"dt", "1e-3", "", 0.0}});
    try {
      loader.loadFile(model);
      CPPUNIT_FAIL("expected an error: T before dt");
    } catch (const nsdyn::io::LoadError& e) {
      CPPUNIT_ASSERT_MESSAGE(e.what(),
                             std::string(e.what()).find("unknown name 'dt'") != std::string::npos);
    }
    loader.setParameterOverrides({{"T", "0.003", "", 0.0}, {"dt", "T/3", "", 0.0}});
    const auto loaded = loader.loadFile(model);
    CPPUNIT_ASSERT_EQUAL(3L, loaded->steps);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-3, loaded->h, 1e-18);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), loaded->overrides.size());
    CPPUNIT_ASSERT_EQUAL(std::string("1e-3"), loaded->overrides[1].fileValue);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-3, loaded->overrides[1].number, 1e-18);
    loader.setParameterOverrides({{"nope", "1", "", 0.0}});
    CPPUNIT_ASSERT_THROW(loader.loadFile(model), nsdyn::io::UnknownParameterError);
    std::filesystem::remove_all(dir);
  }

  // scene.min_gap, B.min_gap, B.contacts of a scene on the Kernel's TimeStepping: a sphere
  // dropped 2 mm onto the ground; the gap of each step is the one at its start (the row
  // before's height less R), +inf while no contact is detected; scene.min_gap also on the scene
  // engine, a body's fields refused there.
  void contactFields() {
    const std::string dir = scratch("contact-fields");
    std::filesystem::create_directories(dir);
    auto model = [](const std::string& problem, const std::string& columns) {
      return "<?xml version=\"1.0\"?>\n<nsdyn version=\"1\" name=\"drop\">\n"
             "<parameters><parameter name=\"R\" value=\"0.1\"/></parameters>\n<model>\n"
             "<scene gravity=\"0 0 -9.81\"><ContactManager margin=\"0.001\"/>\n"
             "<StaticBody name=\"ground\"><HalfSpaceShape normal=\"0 0 1\"/></StaticBody>\n"
             "<RigidBody name=\"ball\" mass=\"1\"><position>0 0 R+0.002</position>"
             "<SphereShape radius=\"R\"/></RigidBody></scene>\n</model>\n"
             "<simulation T=\"0.04\" h=\"1e-3\"><MoreauJeanOSI theta=\"0.5\"/>" +
             problem + "</simulation>\n<outputs><output name=\"drop\">" + columns +
             "</output></outputs>\n</nsdyn>\n";
    };
    const std::string columns =
        "<column name=\"z\" value=\"ball.q[2]\"/><column name=\"n\" value=\"ball.contacts\"/>"
        "<column name=\"ng\" value=\"ground.contacts\"/>"
        "<column name=\"g\" value=\"ball.min_gap\"/><column name=\"gg\" "
        "value=\"ground.min_gap\"/><column name=\"s\" value=\"scene.min_gap\"/>";
    std::ofstream(dir + "/drop.xml") << model("<GenericMechanical/>", columns);
    const Csv c = runXml(dir + "/drop.xml", dir, "drop");
    const std::size_t Z = col(c, "z"), N = col(c, "n"), NG = col(c, "ng"), G = col(c, "g"),
                      GG = col(c, "gg"), S = col(c, "s");
    CPPUNIT_ASSERT_EQUAL(std::size_t(41), c.rows.size());
    CPPUNIT_ASSERT_EQUAL(0.0, c.rows[0][N]);
    CPPUNIT_ASSERT(std::isinf(c.rows[0][G]) && std::isinf(c.rows[0][S]));
    std::size_t seen = 0;
    for (std::size_t k = 1; k < c.rows.size(); ++k) {
      const auto& row = c.rows[k];
      CPPUNIT_ASSERT_EQUAL(row[N], row[NG]);
      if (row[N] == 0.0) {
        CPPUNIT_ASSERT(std::isinf(row[G]) && std::isinf(row[GG]) && std::isinf(row[S]));
        CPPUNIT_ASSERT(c.rows[k - 1][Z] - 0.1 > 1e-3);  // beyond the margin
        continue;
      }
      ++seen;
      CPPUNIT_ASSERT_EQUAL(1.0, row[N]);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(c.rows[k - 1][Z] - 0.1, row[G], 1e-12);
      CPPUNIT_ASSERT_EQUAL(row[G], row[GG]);
      CPPUNIT_ASSERT_EQUAL(row[G], row[S]);
    }
    CPPUNIT_ASSERT(seen > 10);
    // the scene engine (a <FrictionContact> problem): scene.min_gap from its own contact
    // arrays, the same gaps; a body's contacts are refused with the column's name
    std::ofstream(dir + "/engine.xml")
        << model("<FrictionContact dim=\"3\"/>",
                 "<column name=\"z\" value=\"ball.q[2]\"/><column name=\"n\" "
                 "value=\"scene.contacts\"/><column name=\"s\" value=\"scene.min_gap\"/>");
    const Csv eng = runXml(dir + "/engine.xml", dir, "drop");
    CPPUNIT_ASSERT_EQUAL(std::size_t(41), eng.rows.size());
    CPPUNIT_ASSERT(std::isinf(eng.rows[0][2]));
    std::size_t engineSeen = 0;
    for (std::size_t k = 1; k < eng.rows.size(); ++k) {
      if (eng.rows[k][1] == 0.0) {
        CPPUNIT_ASSERT(std::isinf(eng.rows[k][2]));
        continue;
      }
      ++engineSeen;
      CPPUNIT_ASSERT_DOUBLES_EQUAL(eng.rows[k - 1][0] - 0.1, eng.rows[k][2], 1e-12);
    }
    CPPUNIT_ASSERT(engineSeen > 10);
    for (const std::string field : {"ball.contacts", "ground.min_gap"}) {
      try {
        nsdyn::io::XmlLoader().loadString(
            model("<FrictionContact dim=\"3\"/>", "<column name=\"x\" value=\"" + field + "\"/>"),
            "d.xml");
        CPPUNIT_FAIL("expected an error for " + field);
      } catch (const nsdyn::io::LoadError& err) {
        const std::string what = err.what();
        CPPUNIT_ASSERT_MESSAGE(
            what, what.find("'" + field + "': ") != std::string::npos &&
                      what.find("this scene runs on the scene engine") != std::string::npos);
      }
    }
    try {
      nsdyn::io::XmlLoader().loadString(
          model("<GenericMechanical/>", "<column name=\"x\" value=\"ball.min_gap[0]\"/>"), "d.xml");
      CPPUNIT_FAIL("expected an error for an index");
    } catch (const nsdyn::io::LoadError& e) {
      const std::string what = e.what();
      CPPUNIT_ASSERT_MESSAGE(what, what.find("min_gap is a number") != std::string::npos);
    }
    std::filesystem::remove_all(dir);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RobotTwinsTest);
