// `nsdyn run` on models with a <scene>: a small pile run with its files written and
// read back (CSV, VTK, HDF5), the XML twin of SpherePile against its C++ driver
// (bit-identical CSV on a reduced count), --dump-problems and `nsdyn solve` replaying
// a dumped FCLIB file, and the refusals.
#include <cppunit/extensions/HelperMacros.h>
#include <hdf5.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_helpers.hpp"

namespace {

using namespace nsdyn::test;
namespace fs = std::filesystem;

/// SpherePile.xml with @p count spheres over @p T seconds (its parameters replaced), in @p dir.
std::string pileModel(const std::string& dir, long count, const std::string& T,
                      const std::string& extraOutputs = "") {
  std::string xml = readText(kExamples + "/SpherePile/SpherePile.xml");
  auto replace = [&](const std::string& from, const std::string& to) {
    const std::size_t at = xml.find(from);
    CPPUNIT_ASSERT_MESSAGE(from, at != std::string::npos);
    xml.replace(at, from.size(), to);
  };
  replace("<parameter name=\"count\" value=\"500\"/>",
          "<parameter name=\"count\" value=\"" + std::to_string(count) + "\"/>");
  replace("<parameter name=\"T\" value=\"1\"/>", "<parameter name=\"T\" value=\"" + T + "\"/>");
  if (!extraOutputs.empty()) replace("<sceneFiles every=\"20\" hdf5=\"true\"/>", extraOutputs);
  const std::string path = dir + "/SpherePile.xml";
  std::ofstream(path) << xml;
  return path;
}

/// Dimensions of dataset @p name of the HDF5 file @p path (empty if absent).
std::vector<hsize_t> datasetShape(const std::string& path, const std::string& name) {
  std::vector<hsize_t> dims;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) return dims;
  const hid_t set = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  if (set >= 0) {
    const hid_t space = H5Dget_space(set);
    dims.resize(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    H5Sclose(space);
    H5Dclose(set);
  }
  H5Fclose(file);
  return dims;
}

/// The rows of a 2-D double dataset.
std::vector<std::vector<double>> datasetRows(const std::string& path, const std::string& name) {
  const std::vector<hsize_t> dims = datasetShape(path, name);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(path + " " + name, std::size_t(2), dims.size());
  std::vector<double> flat(dims[0] * dims[1]);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t set = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  CPPUNIT_ASSERT(H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, flat.data()) >= 0);
  H5Dclose(set);
  H5Fclose(file);
  std::vector<std::vector<double>> rows(dims[0]);
  for (hsize_t r = 0; r < dims[0]; ++r)
    rows[r].assign(flat.begin() + r * dims[1], flat.begin() + (r + 1) * dims[1]);
  return rows;
}

std::size_t countFiles(const std::string& dir, const std::string& prefix,
                       const std::string& suffix) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string f = e.path().filename().string();
    if (f.rfind(prefix, 0) == 0 && f.size() >= suffix.size() &&
        f.compare(f.size() - suffix.size(), suffix.size(), suffix) == 0)
      ++n;
  }
  return n;
}

}  // namespace

class SceneRunTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneRunTest);
  CPPUNIT_TEST(smallPileWritesItsFiles);
  CPPUNIT_TEST(twinOfTheSpherePileDriver);
  CPPUNIT_TEST(dumpProblemsAndSolveOne);
  CPPUNIT_TEST(checkpointAndRestart);
  CPPUNIT_TEST(refusals);
  CPPUNIT_TEST(overlapAtStartWarnedOnce);
  CPPUNIT_TEST_SUITE_END();

 public:
  // 50 spheres, 100 steps: CSV with the energy balance, VTK of bodies and contacts,
  // the HDF5 scene file, the summary.
  void smallPileWritesItsFiles() {
    const std::string dir = scratch("scene-pile");
    const std::string model =
        pileModel(dir, 50, "0.1", "<sceneFiles every=\"10\" vtk=\"true\" hdf5=\"true\"/>");
    const Run r =
        run("'" + kBin + "/nsdyn' run '" + model + "' --no-plot --output '" + dir + "/out'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    for (const char* line :
         {"SpherePile summary (TimeStepping", "progress 100%", "steps:                   100",
          "scene:                   55 bodies (5 static)", "energy (J):", "contact work"})
      CPPUNIT_ASSERT_MESSAGE(r.out + "\n(expected: " + line + ")",
                             r.out.find(line) != std::string::npos);
    const std::string out = dir + "/out";
    const Csv csv = readCsv(out + "/SpherePile.csv");
    CPPUNIT_ASSERT_EQUAL(std::size_t(101), csv.rows.size());
    CPPUNIT_ASSERT_EQUAL(std::string("contact_work"), csv.names[3]);
    // energy balance: kinetic + potential = energy column; E(t) - E(0) - W(t) stays small
    // (dissipation shows as negative work; the scheme adds none in free flight)
    for (const auto& row : csv.rows) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(row[1] + row[2], row[4], 1e-12 * std::fabs(row[4]));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(row[4] - csv.rows[0][4], row[3], 1e-3 * csv.rows[0][4]);
    }
    CPPUNIT_ASSERT(csv.rows.back()[5] > 0);  // contacts at the end
    // VTK: frames at t0, every 10 steps (the last included): 11 of each, and the .pvd
    CPPUNIT_ASSERT_EQUAL(std::size_t(11), countFiles(out, "SpherePile_bodies_", ".vtp"));
    CPPUNIT_ASSERT_EQUAL(std::size_t(11), countFiles(out, "SpherePile_contacts_", ".vtp"));
    const std::string pvd = readText(out + "/SpherePile_bodies.pvd");
    std::size_t datasets = 0;
    for (std::size_t at = pvd.find("<DataSet"); at != std::string::npos;
         at = pvd.find("<DataSet", at + 1))
      ++datasets;
    CPPUNIT_ASSERT_EQUAL(std::size_t(11), datasets);
    const std::string last = readText(out + "/SpherePile_bodies_000010.vtp");
    CPPUNIT_ASSERT(last.find("NumberOfPoints=\"50\"") !=
                   std::string::npos);  // half-spaces left out
    // HDF5: 11 records of the 50 dynamic bodies; the 5 planes once; energy rows = CSV's
    const std::string h5 = out + "/SpherePile.hdf5";
    CPPUNIT_ASSERT(datasetShape(h5, "data/dynamic") == (std::vector<hsize_t>{550, 9}));
    CPPUNIT_ASSERT(datasetShape(h5, "data/static") == (std::vector<hsize_t>{5, 9}));
    const auto energy = datasetRows(h5, "data/energy");
    CPPUNIT_ASSERT_EQUAL(std::size_t(11), energy.size());
    for (std::size_t f = 0; f < energy.size(); ++f) {
      const auto& row = csv.rows[10 * f];
      CPPUNIT_ASSERT_EQUAL(row[0], energy[f][0]);
      CPPUNIT_ASSERT_EQUAL(row[1], energy[f][1]);
      CPPUNIT_ASSERT_EQUAL(row[2], energy[f][2]);
      CPPUNIT_ASSERT_EQUAL(row[3], energy[f][3]);
    }
    // the final positions of the HDF5 file are the CSV's pile top
    const auto dynamic = datasetRows(h5, "data/dynamic");
    double top = 0.0;
    for (std::size_t b = 500; b < 550; ++b) top = std::max(top, dynamic[b][4]);
    CPPUNIT_ASSERT_EQUAL(csv.rows.back()[9], top);
    fs::remove_all(dir);
  }

  // SpherePile.xml against SpherePile.cpp on 60 spheres for 0.15 s: the same CSV, bit
  // for bit (same generator calls, same body order, same gravity and energy sums).
  void twinOfTheSpherePileDriver() {
    const std::string dir = scratch("scene-twin");
    const Run driver =
        run("'" + kBin + "/SpherePile' --count 60 --time 0.15 --no-plot --quiet --output '" + dir +
            "/driver'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(driver.out, 0, driver.status);
    const std::string model = pileModel(dir, 60, "0.15");
    const Run twin = run("'" + kBin + "/nsdyn' run '" + model + "' --no-plot --quiet --output '" +
                         dir + "/twin'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(twin.out, 0, twin.status);
    const Csv a = readCsv(dir + "/driver/SpherePile.csv");
    const Csv b = readCsv(dir + "/twin/SpherePile.csv");
    CPPUNIT_ASSERT(a.names == b.names);
    CPPUNIT_ASSERT_EQUAL(std::size_t(151), a.rows.size());
    CPPUNIT_ASSERT_EQUAL(a.rows.size(), b.rows.size());
    for (std::size_t r = 0; r < a.rows.size(); ++r)
      for (std::size_t c = 0; c < a.names.size(); ++c)
        CPPUNIT_ASSERT_EQUAL_MESSAGE("row " + std::to_string(r) + " column " + a.names[c],
                                     a.rows[r][c], b.rows[r][c]);
    CPPUNIT_ASSERT(a.rows.back()[5] > 0);  // the pile touches the floor
    // and the same final positions (HDF5 of both, last frame)
    const auto pa = datasetRows(dir + "/driver/SpherePile.hdf5", "data/dynamic");
    const auto pb = datasetRows(dir + "/twin/SpherePile.hdf5", "data/dynamic");
    CPPUNIT_ASSERT_EQUAL(pa.size(), pb.size());
    CPPUNIT_ASSERT(pa == pb);
    fs::remove_all(dir);
  }

  // --dump-problems 1,60-62,500: the steps with contacts get problem_NNNNNN.hdf5 and its
  // global form problem_NNNNNN_global.hdf5, the summary lists them and the others; nsdyn
  // solve replays one to convergence, and its global form with nsgs_wr.
  void dumpProblemsAndSolveOne() {
    const std::string dir = scratch("scene-dump");
    const std::string model = pileModel(dir, 50, "0.1");
    const Run r = run("'" + kBin + "/nsdyn' run '" + model + "' --no-plot --quiet --output '" +
                      dir + "/out' --dump-problems 1,60-62,500");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    const Csv csv = readCsv(dir + "/out/SpherePile.csv");
    std::vector<long> expected;
    for (long k : {1L, 60L, 61L, 62L})
      if (csv.rows[static_cast<std::size_t>(k)][6] > 0)
        expected.push_back(k);  // active contacts that step
    CPPUNIT_ASSERT(!expected.empty());
    CPPUNIT_ASSERT_MESSAGE(
        r.out, r.out.find("problems (FCLIB):        " + std::to_string(expected.size()) +
                          " of 5 steps asked written") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("500") != std::string::npos);
    std::size_t files = 0;
    for (long k = 1; k <= 500; ++k) {
      char name[64];
      std::snprintf(name, sizeof name, "problem_%06ld.hdf5", k);
      const bool asked = std::find(expected.begin(), expected.end(), k) != expected.end();
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name, asked, fs::exists(dir + "/out/" + name));
      if (asked) CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find(name) != std::string::npos);
      std::snprintf(name, sizeof name, "problem_%06ld_global.hdf5", k);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name, asked, fs::exists(dir + "/out/" + name));
      if (asked) CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find(name) != std::string::npos);
      files += asked;
    }
    CPPUNIT_ASSERT_EQUAL(expected.size(), files);
    char name[64];
    std::snprintf(name, sizeof name, "problem_%06ld.hdf5", expected.back());
    const Run solve = run("'" + kBin + "/nsdyn' solve '" + dir + "/out/" + name + "'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(solve.out, 0, solve.status);
    CPPUNIT_ASSERT_MESSAGE(solve.out, solve.out.find("fc3d") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(solve.out, solve.out.find("converged") != std::string::npos);
    const Run nsgs = run("'" + kBin + "/nsdyn' solve '" + dir + "/out/" + name + "' --solver nsgs");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(nsgs.out, 0, nsgs.status);
    std::snprintf(name, sizeof name, "problem_%06ld_global.hdf5", expected.back());
    const Run global =
        run("'" + kBin + "/nsdyn' solve '" + dir + "/out/" + name + "' --solver nsgs_wr");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(global.out, 0, global.status);
    CPPUNIT_ASSERT_MESSAGE(global.out, global.out.find("gfc3d") != std::string::npos);
    // the dump does not change the run
    const Run plain = run("'" + kBin + "/nsdyn' run '" + model + "' --no-plot --quiet --output '" +
                          dir + "/plain'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(plain.out, 0, plain.status);
    CPPUNIT_ASSERT(readCsv(dir + "/plain/SpherePile.csv").rows == csv.rows);
    fs::remove_all(dir);
  }

  // A scene checkpoint at step 50 (--stop-after 50), then --restart to step 100: the table is
  // the uninterrupted run's, bit for bit, the rows before the checkpoint and the running sum
  // (contact_work) included (issue 23: 51 rows, the sum from 0); another scene is refused.
  void checkpointAndRestart() {
    const std::string dir = scratch("scene-restart");
    const std::string model = pileModel(dir, 40, "0.1");
    const std::string nsdyn = "'" + kBin + "/nsdyn' run ";
    const Run whole = run(nsdyn + "'" + model + "' --no-plot --quiet --output '" + dir + "/whole'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(whole.out, 0, whole.status);
    const Run first = run(nsdyn + "'" + model + "' --no-plot --quiet --output '" + dir +
                          "/cp' --checkpoint-every 50 --stop-after 50");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(first.out, 0, first.status);
    const std::string cp = dir + "/cp/SpherePile.checkpoint";
    CPPUNIT_ASSERT_MESSAGE(first.out, fs::exists(cp));
    const Run rest = run(nsdyn + "'" + model + "' --no-plot --quiet --output '" + dir +
                         "/rest' --restart '" + cp + "'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rest.out, 0, rest.status);
    CPPUNIT_ASSERT_MESSAGE(rest.out, rest.out.find("restarting SpherePile") != std::string::npos);
    const Csv a = readCsv(dir + "/whole/SpherePile.csv");
    const Csv b = readCsv(dir + "/rest/SpherePile.csv");
    CPPUNIT_ASSERT_EQUAL(std::size_t(101), a.rows.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(101), b.rows.size());  // every row, as never stopped
    for (std::size_t r = 0; r < a.rows.size(); ++r)
      for (std::size_t c = 0; c < a.names.size(); ++c)
        CPPUNIT_ASSERT_EQUAL_MESSAGE(a.names[c] + " row " + std::to_string(r), a.rows[r][c],
                                     b.rows[r][c]);
    // another scene: 41 spheres
    fs::create_directories(dir + "/other");
    const std::string other = pileModel(dir + "/other", 41, "0.1");
    const Run wrong =
        run(nsdyn + "'" + other + "' --quiet --output '" + dir + "/wrong' --restart '" + cp + "'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(wrong.out, 3, wrong.status);
    CPPUNIT_ASSERT_MESSAGE(wrong.out, wrong.out.find("another scene") != std::string::npos);
    CPPUNIT_ASSERT(!fs::exists(dir + "/wrong/SpherePile.csv"));
    fs::remove_all(dir);
  }

  // issue 23: two spheres overlapping by 2 cm at t0 were reported twice (by the Kernel's
  // ContactManager when the XML model was initialised, and by the SceneEngine that steps it)
  void overlapAtStartWarnedOnce() {
    const std::string dir = scratch("scene-overlap");
    const std::string model = dir + "/Overlap.xml";
    std::ofstream(model)
        << "<nsdyn version=\"1\" name=\"Overlap\">\n"
           "  <model>\n"
           "    <scene gravity=\"0 0 -9.81\">\n"
           "      <ContactManager><material mu=\"0.5\" restitution=\"0\"/></ContactManager>\n"
           "      <StaticBody name=\"floor\"><HalfSpaceShape normal=\"0 0 1\" offset=\"0\"/>"
           "</StaticBody>\n"
           "      <RigidBody name=\"lower\" density=\"1000\"><position>0 0 0.1</position>"
           "<SphereShape radius=\"0.1\"/></RigidBody>\n"
           "      <RigidBody name=\"upper\" density=\"1000\"><position>0 0 0.28</position>"
           "<SphereShape radius=\"0.1\"/></RigidBody>\n"
           "    </scene>\n"
           "  </model>\n"
           "  <simulation type=\"TimeStepping\" T=\"0.01\" h=\"1e-3\">\n"
           "    <MoreauJeanOSI theta=\"0.5\"/>\n"
           "    <FrictionContact dim=\"3\" solver=\"nsgs\"/>\n"
           "  </simulation>\n"
           "  <outputs><output name=\"Overlap\"><column name=\"t\" value=\"t\"/></output>"
           "</outputs>\n"
           "</nsdyn>\n";
    const Run r = run("'" + kBin + "/nsdyn' run '" + model + "' --no-plot --quiet --output '" +
                      dir + "/out'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    std::size_t count = 0;
    for (std::size_t at = r.out.find("overlap by"); at != std::string::npos;
         at = r.out.find("overlap by", at + 1))
      ++count;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, std::size_t(1), count);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("overlap by 0.02") != std::string::npos);
  }

  void refusals() {
    const std::string dir = scratch("scene-refusals");
    const std::string model = pileModel(dir, 10, "0.01");
    const std::string nsdyn = "'" + kBin + "/nsdyn' run ";
    // bad step lists
    for (const char* steps : {"0", "5-2", "a", "1,,2", "-3", "1-200000"}) {
      const Run r = run(nsdyn + "'" + model + "' --quiet --output '" + dir +
                        "/o' --dump-problems '" + steps + "'");
      CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 2, r.status);
      CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("1,5,10-20") != std::string::npos);
    }
    // a model without a FrictionContact problem
    const Run lcp =
        run(nsdyn + "'" + kExamples + "/BouncingBallTS/BouncingBallTS.xml' --quiet --output '" +
            dir + "/o' --dump-problems 1");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(lcp.out, 2, lcp.status);
    CPPUNIT_ASSERT_MESSAGE(
        lcp.out,
        lcp.out.find("has no FrictionContact problem (its problem is LCP)") != std::string::npos);
    // --force-restart and xml checkpoints are for models without a scene
    const Run force =
        run(nsdyn + "'" + model + "' --quiet --output '" + dir + "/o' --restart x --force-restart");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(force.out, 2, force.status);
    CPPUNIT_ASSERT_MESSAGE(force.out, force.out.find("scene checkpoints") != std::string::npos);
    // a bad scene: the file, the line and the element
    std::string bad = readText(model);
    bad.replace(bad.find("radius=\"radius\""), 15, "radius=\"-1\"");
    std::ofstream(dir + "/bad.xml") << bad;
    const Run b = run(nsdyn + "'" + dir + "/bad.xml' --quiet --output '" + dir + "/o'");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(b.out, 3, b.status);
    CPPUNIT_ASSERT_MESSAGE(
        b.out, b.out.find("bad.xml:25: <particle>: attribute 'radius'") != std::string::npos);
    fs::remove_all(dir);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneRunTest);
