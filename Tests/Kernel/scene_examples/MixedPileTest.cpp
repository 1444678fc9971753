// Examples/MixedPile (SceneEngine + the nsdyn::io scene writers), 100 steps of 0.5 ms:
// the energy balance closes (ΔE = Σ contact work, e = 0, no position correction: to
// round-off without the gyroscopic term, within 1e-6 of |W| with it), the deepest
// penetration stays below 1 % of the smallest body size, every file it reports exists
// and is whole, and it reports every file it wrote (none when it could not write).
#include <cppunit/extensions/HelperMacros.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "example_run.hpp"
#include "nsdyn/io/SceneHdf5Writer.hpp"
#include "scene_check.hpp"

namespace {

namespace fs = std::filesystem;
namespace sc = nsdyn::test::scene;

/// One run of the built MixedPile: exit status, stdout, the files it reported, its CSV.
struct Run {
  int status = -1;
  std::string out, err, dir;
  std::vector<std::string> reported;  // the "file:" lines of the summary
  nsdyn::test::ExampleCsv csv;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// The scratch folders of this process, removed at its end (kept with NSDYN_KEEP_SCRATCH set).
struct Scratch {
  std::vector<fs::path> dirs;
  ~Scratch() {
    if (std::getenv("NSDYN_KEEP_SCRATCH")) return;
    std::error_code ignored;
    for (const fs::path& d : dirs) fs::remove_all(d, ignored);
  }
};
Scratch& scratchFolders() {
  static Scratch s;
  return s;
}

/// Runs build/bin/MixedPile @p args with --output <a fresh scratch folder> (unless
/// @p output is given), under the environment prefix @p env.
Run run(const std::string& tag, const std::string& args, const std::string& env = "",
        std::string output = "") {
  const fs::path scratch = fs::path(NSDYN_BINARY_DIR) / "Tests" / "Kernel" / "examples" /
                           ("scratch-MixedPile-" + tag + "-" + std::to_string(::getpid()));
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  scratchFolders().dirs.push_back(scratch);
  if (output.empty()) output = (scratch / "out").string();
  const fs::path exe = fs::path(NSDYN_BINARY_DIR) / "bin" / "MixedPile";
  const std::string command = env + " '" + exe.string() + "' --output '" + output + "' " + args +
                              " > '" + (scratch / "stdout").string() + "' 2> '" +
                              (scratch / "stderr").string() + "'";
  Run r;
  const int rc = std::system(command.c_str());
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = slurp(scratch / "stdout");
  r.err = slurp(scratch / "stderr");
  r.dir = output;
  std::istringstream lines(r.out);
  std::string line;
  const std::string tagLine = "  file:";
  while (std::getline(lines, line))
    if (line.compare(0, tagLine.size(), tagLine) == 0)
      r.reported.push_back(line.substr(line.find_first_not_of(' ', tagLine.size())));
  if (r.status == 0) r.csv = nsdyn::test::readExampleCsv(output + "/MixedPile.csv");
  return r;
}

/// The runs of the suite (once each per process).
const Run& defaultRun() {
  static const Run r = run("default", "--steps 100 --threads 1");
  return r;
}
const Run& noGyroscopicRun() {
  static const Run r = run("nogyro", "--steps 100 --threads 1 --no-gyroscopic --no-plot --quiet");
  return r;
}

std::string context(const Run& r) {
  return r.out + r.err;
}

}  // namespace

class MixedPileTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MixedPileTest);
  CPPUNIT_TEST(runsAndWritesItsRows);
  CPPUNIT_TEST(energyBalanceCloses);
  CPPUNIT_TEST(penetrationBelowOnePercent);
  CPPUNIT_TEST(reportsExactlyTheFilesItWrote);
  CPPUNIT_TEST(hdf5HoldsTheFrames);
  CPPUNIT_TEST(noPlotReportedWithoutGnuplot);
  CPPUNIT_TEST(nothingReportedWhenItCannotWrite);
  CPPUNIT_TEST(otherSolvers);
  CPPUNIT_TEST_SUITE_END();

 public:
  void runsAndWritesItsRows() {
    for (const Run* r : {&defaultRun(), &noGyroscopicRun()}) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(context(*r), 0, r->status);
      const std::vector<std::string> names{"t",
                                           "contacts",
                                           "active",
                                           "iterations",
                                           "residual",
                                           "kinetic",
                                           "potential",
                                           "energy",
                                           "contact_work",
                                           "balance_error",
                                           "max_penetration",
                                           "max_penetration_rel"};
      CPPUNIT_ASSERT(names == r->csv.names);
      CPPUNIT_ASSERT_EQUAL(std::size_t(101), r->csv.rowCount());
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05, sc::at(r->csv, 100, "t"), 1e-12);
      // bodies of the lattice's lowest layer reach the floor in 50 ms
      CPPUNIT_ASSERT_MESSAGE(context(*r), sc::at(r->csv, 100, "contacts") > 0.0);
    }
  }

  // E − E0 = W: e = 0, no position correction, Moreau–Jean θ = ½ (the gravity and contact terms
  // are exact; the linearised gyroscopic term of tumbling bodies is not)
  void energyBalanceCloses() {
    for (const Run* r : {&noGyroscopicRun(), &defaultRun()}) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(context(*r), 0, r->status);
      const auto& c = r->csv;
      const double E0 = sc::at(c, 0, "energy");
      const double W = sc::at(c, c.rowCount() - 1, "contact_work");
      CPPUNIT_ASSERT_MESSAGE("contact work " + std::to_string(W),
                             W < -0.1);  // the contacts did work
      const bool exact = r == &noGyroscopicRun();
      double worst = 0.0;
      for (std::size_t k = 0; k < c.rowCount(); ++k) {
        const double dE = sc::at(c, k, "energy") - E0, w = sc::at(c, k, "contact_work");
        const double error = dE - w;
        // the column is what it says
        CPPUNIT_ASSERT_DOUBLES_EQUAL(error, sc::at(c, k, "balance_error"), 1e-12 * std::fabs(E0));
        CPPUNIT_ASSERT_DOUBLES_EQUAL(sc::at(c, k, "kinetic") + sc::at(c, k, "potential"),
                                     sc::at(c, k, "energy"), 1e-12 * std::fabs(E0));
        // relative to the work done, above the round-off of E (|E0| ~ 1.4 kJ)
        const double bound =
            (exact ? 1e-9 : 1e-6) * std::max(std::fabs(w), std::fabs(dE)) + 1e-13 * std::fabs(E0);
        CPPUNIT_ASSERT_MESSAGE(
            "t = " + std::to_string(sc::at(c, k, "t")) + ": E - E0 - W = " + std::to_string(error),
            std::fabs(error) <= bound);
        worst = std::max(worst, std::fabs(error));
      }
      CPPUNIT_ASSERT(worst <= (exact ? 1e-9 : 1e-6) * std::fabs(W) + 1e-13 * std::fabs(E0));
    }
  }

  void penetrationBelowOnePercent() {
    const auto& c = defaultRun().csv;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(context(defaultRun()), 0, defaultRun().status);
    const double deepest = sc::maxAbs(c, "max_penetration_rel");
    CPPUNIT_ASSERT_MESSAGE(
        "deepest penetration " + std::to_string(100.0 * deepest) + " % of the smallest size",
        deepest < 0.01);
    CPPUNIT_ASSERT(sc::maxAbs(c, "max_penetration") > 0.0);  // contacts overlapped at all
    // the smallest size of the summary line relates the two columns
    const std::string& out = defaultRun().out;
    const std::size_t at = out.find("smallest size ");
    CPPUNIT_ASSERT(at != std::string::npos);
    const double smallest = std::stod(out.substr(at + 14));
    for (std::size_t k = 0; k < c.rowCount(); ++k)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(sc::at(c, k, "max_penetration") / smallest,
                                   sc::at(c, k, "max_penetration_rel"),
                                   1e-3 * sc::at(c, k, "max_penetration_rel") + 1e-15);
  }

  // reported = written: each reported file exists and is whole, each file in the folder
  // (the .vtp frames aside, which the .pvd collections list) was reported
  void reportsExactlyTheFilesItWrote() {
    for (const Run* r : {&defaultRun(), &noGyroscopicRun()}) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(context(*r), 0, r->status);
      std::set<std::string> reported(r->reported.begin(), r->reported.end());
      CPPUNIT_ASSERT_EQUAL(r->reported.size(), reported.size());
      for (const char* f :
           {"MixedPile.csv", "MixedPile.hdf5", "MixedPile_bodies.pvd", "MixedPile_contacts.pvd"})
        CPPUNIT_ASSERT_MESSAGE(context(*r), reported.count(r->dir + "/" + f) == 1);
      for (const std::string& f : reported) {
        CPPUNIT_ASSERT_MESSAGE(f, fs::is_regular_file(f) && fs::file_size(f) > 0);
        CPPUNIT_ASSERT_MESSAGE(f, fs::path(f).parent_path() == fs::path(r->dir));
      }
      std::size_t frames = 0;
      for (const auto& e : fs::directory_iterator(r->dir)) {
        const std::string p = e.path().string();
        CPPUNIT_ASSERT_MESSAGE(p, e.path().extension() != ".part" && e.path().extension() != ".gp");
        if (e.path().extension() == ".vtp") {
          ++frames;
          continue;
        }
        CPPUNIT_ASSERT_MESSAGE("written, not reported: " + p, reported.count(p) == 1);
      }
      // frames 0, 20, ..., 100 of bodies and contacts, each listed by its collection
      CPPUNIT_ASSERT_EQUAL(std::size_t(12), frames);
      for (const char* kind : {"bodies", "contacts"}) {
        const std::string pvd = slurp(r->dir + "/MixedPile_" + kind + ".pvd");
        std::size_t listed = 0;
        for (std::size_t at = pvd.find("file=\""); at != std::string::npos;
             at = pvd.find("file=\"", at + 1)) {
          const std::string name = pvd.substr(at + 6, pvd.find('"', at + 6) - at - 6);
          CPPUNIT_ASSERT_MESSAGE(name, fs::file_size(r->dir + "/" + name) > 0);
          ++listed;
        }
        CPPUNIT_ASSERT_EQUAL(std::size_t(6), listed);
      }
    }
  }

  // the HDF5 records of the 6 frames: energy rows as the CSV's rows of those times
  void hdf5HoldsTheFrames() {
    const Run& r = noGyroscopicRun();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(context(r), 0, r.status);
    const std::string path = r.dir + "/MixedPile.hdf5";
    using nsdyn::io::readSceneHdf5Dataset;
    const auto energy = readSceneHdf5Dataset(path, "data/energy");
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), energy.size());
    for (std::size_t f = 0; f < energy.size(); ++f) {
      const std::size_t k = 20 * f;
      CPPUNIT_ASSERT_EQUAL(sc::at(r.csv, k, "t"), energy[f][0]);
      CPPUNIT_ASSERT_EQUAL(sc::at(r.csv, k, "kinetic"), energy[f][1]);
      CPPUNIT_ASSERT_EQUAL(sc::at(r.csv, k, "potential"), energy[f][2]);
      CPPUNIT_ASSERT_EQUAL(sc::at(r.csv, k, "contact_work"), energy[f][3]);
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(6 * 300), readSceneHdf5Dataset(path, "data/dynamic").size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(6 * 300),
                         readSceneHdf5Dataset(path, "data/velocities").size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), readSceneHdf5Dataset(path, "data/static").size());
    const auto solv = readSceneHdf5Dataset(path, "data/solv");
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), solv.size());
    CPPUNIT_ASSERT_EQUAL(sc::at(r.csv, 100, "iterations"), solv[5][1]);
    // the active contacts of the last frame
    std::size_t last = 0;
    for (const auto& row : readSceneHdf5Dataset(path, "data/cf"))
      last += row[0] == sc::at(r.csv, 100, "t") ? 1 : 0;
    CPPUNIT_ASSERT_EQUAL(sc::at(r.csv, 100, "active"), static_cast<double>(last));
  }

  // gnuplot out of reach: the plot is said not drawn, and not reported
  void noPlotReportedWithoutGnuplot() {
    const Run r = run("nognuplot", "--steps 20 --threads 1 --quiet", "PATH=/nonexistent");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(context(r), 0, r.status);
    CPPUNIT_ASSERT_MESSAGE(r.out, r.out.find("not drawn") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), r.reported.size());
    CPPUNIT_ASSERT(!fs::exists(r.dir + "/MixedPile.png"));
    for (const std::string& f : r.reported) CPPUNIT_ASSERT_MESSAGE(f, fs::file_size(f) > 0);
  }

  // an output folder that cannot be made: an error, no file reported
  void nothingReportedWhenItCannotWrite() {
    const fs::path blocker = fs::path(NSDYN_BINARY_DIR) / "Tests" / "Kernel" / "examples" /
                             ("scratch-MixedPile-blocker-" + std::to_string(::getpid()));
    fs::remove_all(blocker);
    std::ofstream(blocker) << "a file, not a folder\n";
    const Run r = run("blocked", "--steps 5 --no-plot", "", (blocker / "out").string());
    fs::remove(blocker);
    CPPUNIT_ASSERT_MESSAGE(context(r), r.status != 0);
    CPPUNIT_ASSERT_MESSAGE(context(r), r.reported.empty());
  }

  void otherSolvers() {
    const Run apgd = run("apgd", "--steps 40 --threads 1 --solver apgd --no-plot --quiet");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(context(apgd), 0, apgd.status);
    CPPUNIT_ASSERT_MESSAGE(apgd.out, apgd.out.find("solver apgd") != std::string::npos);
    const Run bad = run("badsolver", "--steps 5 --solver no-such-solver --no-plot");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(context(bad), 2, bad.status);
    CPPUNIT_ASSERT_MESSAGE(bad.err, bad.err.find("--solver") != std::string::npos);
    CPPUNIT_ASSERT(bad.reported.empty());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MixedPileTest);
