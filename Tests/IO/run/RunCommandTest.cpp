// `nsdyn run`: summary, progress lines, CSV/HDF5/PNG/VTK results, errors.
#include <cppunit/extensions/HelperMacros.h>
#include <hdf5.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "run_helpers.hpp"

using namespace nsdyn::test;
namespace fs = std::filesystem;

namespace {

const std::string kBall = kExamples + "/BouncingBallTS/BouncingBallTS.xml";

std::string nsdynRun(const std::string& args) {
  return "'" + kBin + "/nsdyn' run " + args;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

class RunCommandTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RunCommandTest);
  CPPUNIT_TEST(summaryProgressCsvAndPlot);
  CPPUNIT_TEST(hdf5HasOneDatasetPerOutput);
  CPPUNIT_TEST(vtkFramesOfTheBodies);
  CPPUNIT_TEST(vtkOrientationOfRigidBodies);
  CPPUNIT_TEST(vtkNothingWithoutBodies);
  CPPUNIT_TEST(rigidBodySummary);
  CPPUNIT_TEST(badModelWritesNothing);
  CPPUNIT_TEST(usageErrors);
  CPPUNIT_TEST(eventDrivenSummary);
  CPPUNIT_TEST_SUITE_END();

 public:
  void summaryProgressCsvAndPlot() {
    const std::string dir = scratch("summary");
    const Run r = run(nsdynRun("'" + kBall + "' --output '" + dir + "/out'"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    for (const char* line :
         {"BouncingBallTS summary (TimeStepping", "steps:                   2000",
          "impacts (activations):", "solver calls:", "solver iterations:", "max solver residual:",
          "wall time:", "csv:", "(2001 rows)"})
      CPPUNIT_ASSERT_MESSAGE(std::string(line) + " not in:\n" + r.out, contains(r.out, line));
    // not a terminal: plain progress lines, every 10 %
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "progress  50%  step 1000/2000  t = 5"));
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "progress 100%  step 2000/2000"));
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "steps/s"));
    const Csv csv = readCsv(dir + "/out/BouncingBallTS.csv");
    CPPUNIT_ASSERT_EQUAL(std::size_t(2001), csv.rows.size());
    if (run("command -v gnuplot").status == 0) {
      CPPUNIT_ASSERT(fs::file_size(dir + "/out/BouncingBallTS.png") > 1000);
      CPPUNIT_ASSERT_MESSAGE(
          r.out, contains(r.out, "plot:                    " + dir + "/out/BouncingBallTS.png"));
    }
    // nothing left behind but the results
    for (const auto& entry : fs::directory_iterator(dir + "/out"))
      CPPUNIT_ASSERT_MESSAGE(entry.path().string(), entry.path().extension() == ".csv" ||
                                                        entry.path().extension() == ".png");
    fs::remove_all(dir);
  }

  void hdf5HasOneDatasetPerOutput() {
    const std::string dir = scratch("hdf5");
    const Run csvRun =
        run(nsdynRun("'" + kBall + "' --no-plot --quiet --output '" + dir + "/csv'"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(csvRun.out, 0, csvRun.status);
    const Run r =
        run(nsdynRun("'" + kBall + "' --no-plot --quiet --format hdf5 --output '" + dir + "/h5'"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    CPPUNIT_ASSERT(!fs::exists(dir + "/h5/BouncingBallTS.csv"));
    const Csv csv = readCsv(dir + "/csv/BouncingBallTS.csv");

    hid_t file = H5Fopen((dir + "/h5/BouncingBallTS.h5").c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    CPPUNIT_ASSERT(file >= 0);
    hid_t set = H5Dopen2(file, "BouncingBallTS", H5P_DEFAULT);
    CPPUNIT_ASSERT(set >= 0);
    hid_t space = H5Dget_space(set);
    hsize_t dims[2] = {0, 0};
    CPPUNIT_ASSERT_EQUAL(2, H5Sget_simple_extent_dims(space, dims, nullptr));
    CPPUNIT_ASSERT_EQUAL(hsize_t(2001), dims[0]);
    CPPUNIT_ASSERT_EQUAL(hsize_t(5), dims[1]);
    std::vector<double> data(dims[0] * dims[1]);
    CPPUNIT_ASSERT(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) >=
                   0);
    for (std::size_t i = 0; i < dims[0]; ++i)
      for (std::size_t c = 0; c < dims[1]; ++c)
        CPPUNIT_ASSERT_EQUAL(csv.rows[i][c], data[i * dims[1] + c]);
    // the column names
    hid_t attr = H5Aopen(set, "columns", H5P_DEFAULT);
    CPPUNIT_ASSERT(attr >= 0);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    std::vector<char*> names(dims[1]);
    CPPUNIT_ASSERT(H5Aread(attr, type, names.data()) >= 0);
    CPPUNIT_ASSERT_EQUAL(std::string("t"), std::string(names[0]));
    CPPUNIT_ASSERT_EQUAL(std::string("lambda"), std::string(names[4]));
    hid_t attrSpace = H5Aget_space(attr);
    H5Dvlen_reclaim(type, attrSpace, H5P_DEFAULT, names.data());
    H5Sclose(attrSpace);
    H5Tclose(type);
    H5Aclose(attr);
    H5Sclose(space);
    H5Dclose(set);
    H5Fclose(file);
    fs::remove_all(dir);
  }

  void vtkFramesOfTheBodies() {
    const std::string dir = scratch("vtk");
    const Run r = run(nsdynRun(
        "'" + kExamples +
        "/ColumnOfBeadsTS/ColumnOfBeadsTS.xml' --no-plot --quiet --vtk --output '" + dir + "'"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "(4001 frames, 10 bodies)"));
    const std::string pvd = readText(dir + "/ColumnOfBeadsTS.pvd");
    CPPUNIT_ASSERT(contains(
        pvd, "<DataSet timestep=\"2\" part=\"0\" file=\"ColumnOfBeadsTS_frame_004000.vtp\"/>"));
    const std::string first = readText(dir + "/ColumnOfBeadsTS_frame_000000.vtp");
    CPPUNIT_ASSERT(contains(first, "NumberOfPoints=\"10\""));
    // bead 3 starts at z = 1.75: its point is (q0, q1, q2) = (1.75, 0, 0)
    CPPUNIT_ASSERT_MESSAGE(first, contains(first, "          1.75 0 0\n"));
    fs::remove_all(dir);
  }

  void vtkOrientationOfRigidBodies() {
    const std::string dir = scratch("vtk-bodies");
    const Run r = run(nsdynRun(
        "'" + std::string(NSDYN_SOURCE_DIR) +
        "/Tests/IO/models/RigidBalls.xml' --no-plot --quiet --vtk --output '" + dir + "'"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, "(401 frames, 3 bodies)"));
    const std::string first = readText(dir + "/RigidBalls_frame_000000.vtp");
    // the ball at (0, 0, 0.5), turned by pi/6 about (1, 1, 0)/sqrt(2): its
    // quaternion, velocity (world) and angular velocity R Omega (world)
    CPPUNIT_ASSERT_MESSAGE(first, contains(first, "          0 0 0.5\n"));
    CPPUNIT_ASSERT_MESSAGE(first, contains(first, "Name=\"orientation\" NumberOfComponents=\"4\""));
    CPPUNIT_ASSERT_MESSAGE(
        first,
        contains(first, "          0.96592582628906831 0.1830127018922193 0.1830127018922193 0\n"));
    CPPUNIT_ASSERT_MESSAGE(first, contains(first, "Name=\"velocity\" NumberOfComponents=\"3\""));
    CPPUNIT_ASSERT_MESSAGE(first, contains(first, "          1 0.5 0\n"));
    CPPUNIT_ASSERT_MESSAGE(first,
                           contains(first, "Name=\"angular_velocity\" NumberOfComponents=\"3\""));
    // the plane (body 2) has the identity orientation
    CPPUNIT_ASSERT_MESSAGE(first, contains(first, "          1 0 0 0\n          1 0 0 0\n"));
    const std::string pvd = readText(dir + "/RigidBalls.pvd");
    CPPUNIT_ASSERT(contains(pvd, "file=\"RigidBalls_frame_000400.vtp\""));
    // the last frame: the ball rolls on the floor, z = R
    const std::string last = readText(dir + "/RigidBalls_frame_000400.vtp");
    CPPUNIT_ASSERT_MESSAGE(last, contains(last, " 0.0999"));
    fs::remove_all(dir);
  }

  void vtkNothingWithoutBodies() {
    const std::string dir = scratch("vtk-none");
    const Run r = run(nsdynRun("'" + kExamples +
                               "/DiodeBridge/DiodeBridge.xml' --no-plot --quiet --vtk --output '" +
                               dir + "'"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(
        r.out,
        contains(r.out, "vtk:                     nothing written (no bodies in the model)"));
    for (const auto& entry : fs::directory_iterator(dir))
      CPPUNIT_ASSERT_MESSAGE(entry.path().string(), entry.path().extension() == ".csv");
    fs::remove_all(dir);
  }

  void rigidBodySummary() {
    const std::string dir = scratch("bodies");
    const Run r =
        run(nsdynRun("'" + std::string(NSDYN_SOURCE_DIR) +
                     "/Tests/IO/models/ProjectedBodies.xml' --no-plot --output '" + dir + "'"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    for (const char* line :
         {"ProjectedBodies summary (TimeSteppingDirectProjection",
          "Newton iterations:       600 total, 1 max per step (0 steps unconverged)",
          "position projections:"})
      CPPUNIT_ASSERT_MESSAGE(std::string(line) + " not in:\n" + r.out, contains(r.out, line));
    const Csv csv = readCsv(dir + "/ProjectedBodies.csv");
    CPPUNIT_ASSERT_EQUAL(std::size_t(601), csv.rows.size());
    // the slider keeps the block on its axis and its orientation; the floor holds
    // it (an impact step may end below it, by at most h |v|, before the projection)
    for (const auto& row : csv.rows) {
      CPPUNIT_ASSERT(row[7] < 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(csv.rows[0][6], row[6], 1e-12);
      CPPUNIT_ASSERT(row[8] > -0.005 * std::fabs(row[5]) - 1e-8);
    }
    fs::remove_all(dir);
  }

  void badModelWritesNothing() {
    const std::string dir = scratch("bad");
    const std::string model = dir + "/bad.xml";
    std::string text = readText(kBall);
    text.replace(text.find("<H>1 0 0</H>"), 12, "<H>1 0</H>");
    { std::ofstream(model) << text; }
    const Run r = run(nsdynRun("'" + model + "' --output '" + dir + "/out'"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, contains(r.out, model + ":27: <H>: expected H (1x3"));
    CPPUNIT_ASSERT_MESSAGE(r.out, !contains(r.out, "progress"));
    CPPUNIT_ASSERT(!fs::exists(dir + "/out") || fs::is_empty(dir + "/out"));
    fs::remove_all(dir);
  }

  void usageErrors() {
    CPPUNIT_ASSERT_EQUAL(2, run(nsdynRun("")).status);
    CPPUNIT_ASSERT_EQUAL(2, run(nsdynRun("'" + kBall + "' --format xls")).status);
    CPPUNIT_ASSERT_EQUAL(2, run(nsdynRun("'" + kBall + "' --checkpoint-every 0")).status);
    CPPUNIT_ASSERT_EQUAL(2, run(nsdynRun("'" + kBall + "' --bogus")).status);
    CPPUNIT_ASSERT_EQUAL(3, run(nsdynRun("/nonexistent.xml")).status);
    const Run help = run("'" + kBin + "/nsdyn' --help");
    CPPUNIT_ASSERT(contains(help.out, "nsdyn run MODEL.xml"));
  }

  void eventDrivenSummary() {
    const std::string dir = scratch("ed");
    const Run r = run(nsdynRun(
        "'" + kExamples + "/BouncingBallED/BouncingBallED.xml' --no-plot --output '" + dir + "'"));
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    for (const char* line :
         {"summary (EventDriven", "events:", "impacts:", "status:                  finished"})
      CPPUNIT_ASSERT_MESSAGE(std::string(line) + " not in:\n" + r.out, contains(r.out, line));
    CPPUNIT_ASSERT_EQUAL(
        2,
        run(nsdynRun("'" + kExamples + "/BouncingBallED/BouncingBallED.xml' --checkpoint-every 5"))
            .status);
    fs::remove_all(dir);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RunCommandTest);
