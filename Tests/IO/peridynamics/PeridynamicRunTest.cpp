// `nsdyn run` of a small XML scene with a peridynamic block falling on a plane: exit 0, the
// plane stops the block (its points in contact), the files the summary reports exist and
// read back (the VTK series, the HDF5 datasets); checkpoints refused (exit 2); a bad value
// refused at its line (exit 3).
#include <cppunit/extensions/HelperMacros.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "nsdyn/io/PeridynamicHdf5Writer.hpp"

#include "pd_scratch.hpp"

namespace fs = std::filesystem;

namespace {

struct Run {
  int status = -1;
  std::string out;
};

Run run(const std::string& cmd) {
  Run r;
  std::FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

using pd_io_test::scratch;

// A 4 × 4 × 4-point block (Δx = 1 cm) just above the plane z = 0, falling at 0.5 m/s: without
// contact its lowest points (z = 5.5 mm at t0) would reach z = −6.5 mm by t = 0.02 s.
std::string blockModel(const std::string& bodyAttributes = "",
                       const std::string& material = "nu=\"0.3\"",
                       const std::string& problem = "<FrictionContact dim=\"3\"/>") {
  return "<?xml version=\"1.0\"?>\n"
         "<nsdyn version=\"1\" name=\"pdblock\">\n"
         "  <model>\n"
         "    <scene gravity=\"0 0 -9.81\">\n"
         "      <ContactManager><material mu=\"0.5\"/></ContactManager>\n"
         "      <StaticBody name=\"floor\"><HalfSpaceShape normal=\"0 0 1\"/></StaticBody>\n"
         "      <PeridynamicBody name=\"block\" spacing=\"0.01\" density=\"1000\"" +
         bodyAttributes +
         ">\n"
         "        <box centre=\"0 0 0.0205\" half-extents=\"0.02 0.02 0.02\"/>\n"
         "        <peridynamicMaterial model=\"lps\" E=\"1e6\" " +
         material +
         "/>\n"
         "        <velocity>0 0 -0.5</velocity>\n"
         "      </PeridynamicBody>\n"
         "    </scene>\n"
         "  </model>\n"
         "  <simulation type=\"TimeStepping\" T=\"0.02\" h=\"1e-3\">\n"
         "    <MoreauJeanOSI theta=\"0.5\"/>\n"
         "    " +
         problem +
         "\n"
         "  </simulation>\n"
         "  <outputs>\n"
         "    <sceneFiles every=\"10\" vtk=\"true\" hdf5=\"true\"/>\n"
         "  </outputs>\n"
         "</nsdyn>\n";
}

std::string write(const std::string& dir, const std::string& text) {
  const std::string path = dir + "/pdblock.xml";
  std::ofstream(path) << text;
  return path;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

class PeridynamicRunTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PeridynamicRunTest);
  CPPUNIT_TEST(blockOnPlane);
  CPPUNIT_TEST(fractureShowsInDamage);
  CPPUNIT_TEST(checkpointRefused);
  CPPUNIT_TEST(otherProblemRefused);
  CPPUNIT_TEST(badValueRefused);
  CPPUNIT_TEST_SUITE_END();

  const std::string nsdyn_ = std::string(NSDYN_BIN_DIR) + "/nsdyn";

 public:
  void blockOnPlane() {
    const std::string dir = scratch("run");
    const std::string model = write(dir, blockModel());
    const Run r = run(nsdyn_ + " run " + model + " --quiet --output " + dir + "/out");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    const std::string out = dir + "/out";
    const std::string pvd = out + "/pdblock_pd_block.pvd", h5 = out + "/pdblock_peridynamics.hdf5";
    CPPUNIT_ASSERT_MESSAGE(
        r.out, r.out.find("peridynamic vtk:         " + pvd + " (3 frames)") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(r.out,
                           r.out.find("peridynamic hdf5:        " + h5) != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(r.out,
                           r.out.find("peridynamic body:        block: 64 points, 1356 "
                                      "bonds, 0 broken (0 in the run)") != std::string::npos);
    for (const auto& e : fs::directory_iterator(out))
      CPPUNIT_ASSERT_MESSAGE(e.path().string(), e.path().extension() != ".part");
    // the series: frames at t = 0, 0.01, 0.02
    const std::string collection = readAll(pvd);
    for (const char* f : {"pdblock_pd_block_000000.vtp", "pdblock_pd_block_000001.vtp",
                          "pdblock_pd_block_000002.vtp"}) {
      CPPUNIT_ASSERT_MESSAGE(f, collection.find(f) != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(
          f, readAll(out + "/" + f).find("NumberOfPoints=\"64\"") != std::string::npos);
    }
    std::vector<std::size_t> dims;
    const std::vector<double> t = nsdyn::io::readHdf5Doubles(h5, "time", dims);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), t.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.02, t[2], 1e-12);
    const std::vector<double> x =
        nsdyn::io::readHdf5Doubles(h5, "peridynamics/block/positions", dims);
    CPPUNIT_ASSERT(dims == std::vector<std::size_t>({3, 64, 3}));
    const std::vector<double> X =
        nsdyn::io::readHdf5Doubles(h5, "peridynamics/block/reference", dims);
    for (std::size_t k = 0; k < X.size(); ++k) CPPUNIT_ASSERT_EQUAL(X[k], x[k]);  // t0
    // the plane stops the block: no point below its contact radius (5 mm) less 2 mm at any
    // frame, and at t = 0.02 s the block no longer falls (without contact: vz = −0.696 m/s)
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t i = 0; i < 64; ++i)
        CPPUNIT_ASSERT_MESSAGE(std::to_string(x[192 * k + 3 * i + 2]),
                               x[192 * k + 3 * i + 2] > 0.003);
    const std::vector<double> v =
        nsdyn::io::readHdf5Doubles(h5, "peridynamics/block/velocities", dims);
    double vz = 0.0;
    for (std::size_t i = 0; i < 64; ++i) vz += v[2 * 192 + 3 * i + 2] / 64.0;
    CPPUNIT_ASSERT_MESSAGE(std::to_string(vz), vz > -0.05);
    fs::remove_all(dir);
  }

  // a critical stretch of 1e-4: the impact breaks bonds; the summary counts them and the last
  // HDF5 frame's damage shows them
  void fractureShowsInDamage() {
    const std::string dir = scratch("fracture");
    const std::string model = write(dir, blockModel("", "nu=\"0.3\" critical-stretch=\"1e-4\""));
    const Run r = run(nsdyn_ + " run " + model + " --quiet --output " + dir);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 0, r.status);
    const std::size_t at = r.out.find("peridynamic body:        block: 64 points, 1356 bonds, ");
    CPPUNIT_ASSERT_MESSAGE(r.out, at != std::string::npos);
    const long broken = std::stol(r.out.substr(r.out.find("bonds, ", at) + 7));
    CPPUNIT_ASSERT_MESSAGE(r.out, broken > 0);
    std::vector<std::size_t> dims;
    const std::vector<double> damage = nsdyn::io::readHdf5Doubles(
        dir + "/pdblock_peridynamics.hdf5", "peridynamics/block/damage", dims);
    CPPUNIT_ASSERT(dims == std::vector<std::size_t>({3, 64}));
    CPPUNIT_ASSERT_EQUAL(0.0, *std::max_element(damage.begin(), damage.begin() + 64));
    CPPUNIT_ASSERT(*std::max_element(damage.begin() + 128, damage.end()) > 0.0);
    fs::remove_all(dir);
  }

  // a scene stepped by the Kernel's TimeStepping (a <GenericMechanical> problem) would leave
  // the peridynamic body out: refused
  void otherProblemRefused() {
    const std::string dir = scratch("generic");
    const std::string model = write(dir, blockModel("", "nu=\"0.3\"", "<GenericMechanical/>"));
    const Run r = run(nsdyn_ + " run " + model + " --quiet --output " + dir);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("<PeridynamicBody> (line 7)") != std::string::npos &&
                                      r.out.find("GenericMechanical") != std::string::npos);
    fs::remove_all(dir);
  }

  void checkpointRefused() {
    const std::string dir = scratch("checkpoint");
    const std::string model = write(dir, blockModel());
    const Run r = run(nsdyn_ + " run " + model + " --quiet --checkpoint-every 5 --output " + dir);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 2, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("<PeridynamicBody>") != std::string::npos &&
                                      r.out.find("'block'") != std::string::npos);
    CPPUNIT_ASSERT(!fs::exists(dir + "/pdblock_peridynamics.hdf5"));
    fs::remove_all(dir);
  }

  void badValueRefused() {
    const std::string dir = scratch("bad");
    const std::string model = write(dir, blockModel(" horizon=\"0.001\""));
    const Run r = run(nsdyn_ + " run " + model + " --quiet --output " + dir);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(r.out, 3, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find(model + ":7:") != std::string::npos &&
                                      r.out.find("'horizon'") != std::string::npos &&
                                      r.out.find("0.001") != std::string::npos);
    fs::remove_all(dir);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PeridynamicRunTest);
