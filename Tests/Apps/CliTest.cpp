// `nsdyn solve` and `solve_folder`, run as processes: output format, exit
// status, the written solution checked independently, bad input.
#include <cppunit/extensions/HelperMacros.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nsdyn/numerics.h>

namespace {

const std::string kBin = NSDYN_BIN_DIR;
const std::string kData = std::string(NSDYN_SHARED_DIR) + "/data";
const std::string kScratch = std::string(NSDYN_BINARY_DIR) + "/Tests/Apps/scratch";

struct Run {
  int status;
  std::string out;
};

// Run a shell command; capture stdout and the exit status.
Run run(const std::string& cmd) {
  Run r{-1, ""};
  std::FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// Value of "key": in a flat JSON object (string or number), "" if absent.
std::string jsonField(const std::string& json, const std::string& key) {
  std::smatch m;
  std::regex re("\"" + key + "\": (\"([^\"]*)\"|[^,}]+)");
  if (!std::regex_search(json, m, re)) return "";
  return m[2].matched ? m[2].str() : m[1].str();
}

}  // namespace

class CliTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(CliTest);
  CPPUNIT_TEST(jsonHasEveryKey);
  CPPUNIT_TEST(solutionFileSatisfiesTheLcp);
  CPPUNIT_TEST(summaryLineWithoutJson);
  CPPUNIT_TEST(listsSolversPerKind);
  CPPUNIT_TEST(mlcpSolvedByDefault);
  CPPUNIT_TEST(frictionFileSolvedByDefault);
  CPPUNIT_TEST(globalFrictionFileSolved);
  CPPUNIT_TEST(badInputExitsNonZero);
  CPPUNIT_TEST(notConvergedExitsOne);
  CPPUNIT_TEST(solveFolderWritesCsv);
  CPPUNIT_TEST_SUITE_END();

 public:
  void setUp() override { std::system(("mkdir -p " + kScratch).c_str()); }

  void jsonHasEveryKey() {
    Run r = run(kBin + "/nsdyn solve " + kData + "/lcp/lcp_exp_murty.dat --solver lemke --json");
    CPPUNIT_ASSERT_EQUAL(0, r.status);
    // exactly one JSON object on one line
    CPPUNIT_ASSERT_EQUAL(std::string("{"), r.out.substr(0, 1));
    CPPUNIT_ASSERT_EQUAL(size_t(1), size_t(std::count(r.out.begin(), r.out.end(), '\n')));
    for (const char* key : {"file", "kind", "size", "contacts", "solver", "status", "iterations",
                            "residual", "seconds"})
      CPPUNIT_ASSERT_MESSAGE(key, !jsonField(r.out, key).empty());
    CPPUNIT_ASSERT_EQUAL(std::string("lcp"), jsonField(r.out, "kind"));
    CPPUNIT_ASSERT_EQUAL(std::string("converged"), jsonField(r.out, "status"));
    CPPUNIT_ASSERT_EQUAL(std::string("lemke"), jsonField(r.out, "solver"));
    CPPUNIT_ASSERT_EQUAL(std::string("0"), jsonField(r.out, "contacts"));
    CPPUNIT_ASSERT(std::stod(jsonField(r.out, "residual")) <= 1e-8);
  }

  void solutionFileSatisfiesTheLcp() {
    // The solution written by the CLI, checked with plain loops (no nsdyn solver).
    const std::string file = kData + "/lcp/lcp_deudeu.dat";
    const std::string sol = kScratch + "/deudeu.sol";
    Run r = run(kBin + "/nsdyn solve " + file + " --solver newton_fb --solution " + sol);
    CPPUNIT_ASSERT_EQUAL(0, r.status);
    NsdProblem p{};
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(file.c_str(), NSD_KIND_LCP, &p, &rep));
    int n = p.lcp->n;
    std::ifstream in(sol);
    std::vector<double> v;
    double x;
    while (in >> x) v.push_back(x);
    CPPUNIT_ASSERT_EQUAL(size_t(2 * n), v.size());
    double worst = 0;
    for (int i = 0; i < n; ++i) {
      double w = p.lcp->q[i];
      for (int j = 0; j < n; ++j) w += nsd_matrix_get(p.lcp->M, i, j) * v[j];
      CPPUNIT_ASSERT_DOUBLES_EQUAL(w, v[n + i], 1e-9 * (1 + std::fabs(w)));
      worst = std::max({worst, -v[i], -w, std::fabs(v[i] * w)});
    }
    CPPUNIT_ASSERT(worst < 1e-8);
    nsd_problem_clear(&p);
  }

  void summaryLineWithoutJson() {
    Run r = run(kBin + "/nsdyn solve " + kData + "/lcp/lcp_trivial.dat");
    CPPUNIT_ASSERT_EQUAL(0, r.status);
    CPPUNIT_ASSERT(r.out.find("converged") != std::string::npos);
    CPPUNIT_ASSERT(r.out.find("solver auto:lemke: converged") != std::string::npos);
    // the summary line, then the automatic choice's note
    CPPUNIT_ASSERT_EQUAL(size_t(2), size_t(std::count(r.out.begin(), r.out.end(), '\n')));
    CPPUNIT_ASSERT(r.out.find("\n  note: auto tried: lemke converged") != std::string::npos);
  }

  void listsSolversPerKind() {
    Run r = run(kBin + "/nsdyn solve --list-solvers");
    CPPUNIT_ASSERT_EQUAL(0, r.status);
    for (const char* s : {"lcp:", "mlcp:", "fc2d:", "fc3d:", "lemke", "nlgs", "psor", "block_pgs",
                          "enum", "newton_fb", "newton_min", "newton_min_fblsa", "nsgs", "apgd",
                          "bb", "admm", "newton_ac", "[default]"})
      CPPUNIT_ASSERT_MESSAGE(s, r.out.find(s) != std::string::npos);
  }

  void mlcpSolvedByDefault() {
    Run r = run(kBin + "/nsdyn solve " + kData + "/mlcp/RLCD_mlcp.dat --json");
    CPPUNIT_ASSERT_EQUAL(std::string("mlcp"), jsonField(r.out, "kind"));
    CPPUNIT_ASSERT_EQUAL(std::string("converged"), jsonField(r.out, "status"));
    CPPUNIT_ASSERT_EQUAL(0, r.status);
  }

  void frictionFileSolvedByDefault() {
    // the default FC3D solver, then the solution r then u checked by the library's measure
    const std::string file = kData + "/fc3d/Capsules-i101-404.dat";
    const std::string sol = kScratch + "/capsules.sol";
    Run r = run(kBin + "/nsdyn solve " + file + " --json --solution " + sol);
    CPPUNIT_ASSERT_EQUAL(0, r.status);
    CPPUNIT_ASSERT_EQUAL(std::string("fc3d"), jsonField(r.out, "kind"));
    CPPUNIT_ASSERT_EQUAL(std::string("auto:newton_ac"), jsonField(r.out, "solver"));
    CPPUNIT_ASSERT_EQUAL(std::string("converged"), jsonField(r.out, "status"));
    NsdProblem p{};
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(file.c_str(), NSD_KIND_UNKNOWN, &p, &rep));
    int m = nsd_problem_size(&p);
    CPPUNIT_ASSERT_EQUAL(std::to_string(m), jsonField(r.out, "size"));
    CPPUNIT_ASSERT_EQUAL(std::to_string(p.fc->nc), jsonField(r.out, "contacts"));
    std::ifstream in(sol);
    std::vector<double> v;
    double x;
    while (in >> x) v.push_back(x);
    CPPUNIT_ASSERT_EQUAL(size_t(2 * m), v.size());
    std::vector<double> u(static_cast<size_t>(m));
    CPPUNIT_ASSERT(nsd_fc_error(p.fc, v.data(), u.data()) <= 1e-8);
    for (int i = 0; i < m; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(u[i], v[m + i], 1e-9 * (1 + std::fabs(u[i])));
    nsd_problem_clear(&p);
  }

  void globalFrictionFileSolved() {
    Run r = run(kBin + "/nsdyn solve " + kData + "/gfc/GFC3D_OneContact.dat --json");
    CPPUNIT_ASSERT_EQUAL(0, r.status);  // the default gfc3d solver, nsgs_wr (issue 27)
    CPPUNIT_ASSERT_EQUAL(std::string("gfc3d"), jsonField(r.out, "kind"));
    CPPUNIT_ASSERT_EQUAL(std::string("1"), jsonField(r.out, "contacts"));
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs_wr"), jsonField(r.out, "solver"));
    CPPUNIT_ASSERT_EQUAL(std::string("converged"), jsonField(r.out, "status"));
    CPPUNIT_ASSERT(std::stod(jsonField(r.out, "residual")) <= 1e-8);
  }

  void badInputExitsNonZero() {
    // a missing file, a truncated file, an unknown solver, a bad option value
    Run missing = run(kBin + "/nsdyn solve " + kScratch + "/no_such_file.dat --json");
    CPPUNIT_ASSERT(missing.status != 0);
    CPPUNIT_ASSERT_EQUAL(std::string("bad_input"), jsonField(missing.out, "status"));

    const std::string cut = kScratch + "/truncated.dat";
    std::ofstream(cut) << "3\n0\n3\n3\n3 3\n1 0 0\n0 1\n";
    Run truncated = run(kBin + "/nsdyn solve " + cut + " --json");
    CPPUNIT_ASSERT(truncated.status != 0);
    CPPUNIT_ASSERT_EQUAL(std::string("bad_input"), jsonField(truncated.out, "status"));
    Run message = run(kBin + "/nsdyn solve " + cut + " 2>&1");
    CPPUNIT_ASSERT(message.out.find("truncated.dat") != std::string::npos);

    Run unknown = run(kBin + "/nsdyn solve " + kData + "/lcp/lcp_trivial.dat --solver nope --json");
    CPPUNIT_ASSERT_EQUAL(2, unknown.status);  // a usage error
    CPPUNIT_ASSERT_EQUAL(
        4, run(kBin + "/nsdyn solve " + kData + "/lcp/lcp_trivial.dat --solution " + kScratch +
               "/no_such_dir/x.sol")
               .status);
    CPPUNIT_ASSERT_EQUAL(std::string("bad_input"), jsonField(unknown.out, "status"));

    CPPUNIT_ASSERT_EQUAL(2, run(kBin + "/nsdyn solve x.dat --tol abc").status);
    CPPUNIT_ASSERT_EQUAL(2, run(kBin + "/nsdyn").status);
  }

  void notConvergedExitsOne() {
    // one PSOR sweep cannot solve Murty's problem
    Run r = run(kBin + "/nsdyn solve " + kData +
                "/lcp/lcp_exp_murty.dat --solver psor --max-iter 1 --json");
    CPPUNIT_ASSERT_EQUAL(1, r.status);
    CPPUNIT_ASSERT_EQUAL(std::string("max_iterations"), jsonField(r.out, "status"));
  }

  void solveFolderWritesCsv() {
    const std::string csv = kScratch + "/lcp.csv";
    Run r = run(kBin + "/solve_folder " + kData + "/lcp --solvers lemke,enum --tol 1e-8 " +
                "--time-limit 5 --output " + csv);
    CPPUNIT_ASSERT_EQUAL(0, r.status);
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    CPPUNIT_ASSERT_EQUAL(
        std::string("kind,problem,n_contacts_or_size,solver,info,iterations,error,seconds"), line);
    int rows = 0, lemke_ok = 0;
    while (std::getline(in, line)) {
      ++rows;
      std::stringstream ss(line);
      std::vector<std::string> f;
      std::string cell;
      while (std::getline(ss, cell, ',')) f.push_back(cell);
      CPPUNIT_ASSERT_EQUAL(size_t(8), f.size());
      CPPUNIT_ASSERT_EQUAL(std::string("lcp"), f[0]);
      if (f[3] == "lemke" && f[4] == "0") {
        ++lemke_ok;
        CPPUNIT_ASSERT(std::stod(f[6]) <= 1e-8);
      }
    }
    CPPUNIT_ASSERT_EQUAL(32, rows);  // 16 files x 2 solvers
    CPPUNIT_ASSERT(lemke_ok >= 12);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CliTest);
