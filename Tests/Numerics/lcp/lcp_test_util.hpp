// Helpers of the LCP solver tests: small problems built from literals, the
// solvers by name, checks of a returned (z, w), and loading the shared files.
#pragma once

#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/nsd_io.h"
#include "nsdyn/nsd_lcp.h"

namespace nsdyn::test {

/// An LCP owned by the test, with z, w, options (defaults) and a report.
struct TestLcp {
  NsdLcp* lcp = nullptr;
  std::vector<double> z, w;
  NsdSolverOptions opt{};
  NsdReport rep{};

  /// M given row by row (n*n values), q[n].
  TestLcp(const std::vector<double>& m_rows, const std::vector<double>& q) {
    const int n = static_cast<int>(q.size());
    CPPUNIT_ASSERT_EQUAL(q.size() * q.size(), m_rows.size());
    lcp = nsd_lcp_create(nsd_matrix_create_dense_from_rows(n, n, m_rows.data()), q.data());
    CPPUNIT_ASSERT(lcp != nullptr);
    init(n);
  }
  /// Takes an LCP already built (ownership taken).
  explicit TestLcp(NsdLcp* p) : lcp(p) {
    CPPUNIT_ASSERT(lcp != nullptr);
    init(lcp->n);
  }
  ~TestLcp() { nsd_lcp_destroy(lcp); }
  TestLcp(const TestLcp&) = delete;
  TestLcp& operator=(const TestLcp&) = delete;

  const NsdLcp* get() const { return lcp; }
  int n() const { return lcp->n; }
  NsdStatus solve(NsdLcpSolver solver) { return solver(lcp, z.data(), w.data(), &opt, &rep); }

 private:
  void init(int n) {
    z.assign(static_cast<size_t>(n), 0.0);
    w.assign(static_cast<size_t>(n), 0.0);
    nsd_solver_options_default(&opt);
    std::memset(&rep, 0, sizeof rep);
  }
};

/// The LCP solvers under test, by the names used in ctest names.
struct NamedLcpSolver {
  const char* name;
  NsdLcpSolver fn;
};
inline const std::vector<NamedLcpSolver>& lcpSolvers() {
  static const std::vector<NamedLcpSolver> all = {{"lemke", nsd_lcp_lemke},
                                                  {"nlgs", nsd_lcp_nlgs},
                                                  {"psor", nsd_lcp_psor},
                                                  {"pgs_block", nsd_lcp_pgs_block},
                                                  {"enum", nsd_lcp_enum},
                                                  {"newton_fb", nsd_lcp_newton_fb},
                                                  {"newton_min", nsd_lcp_newton_min},
                                                  {"newton_min_fblsa", nsd_lcp_newton_min_fblsa}};
  return all;
}
inline NsdLcpSolver lcpSolverByName(const std::string& name) {
  for (const auto& s : lcpSolvers())
    if (name == s.name) return s.fn;
  return nullptr;
}

/// Status and message as one string, for assertion messages.
inline std::string describe(const NsdReport& rep) {
  std::ostringstream s;
  s << rep.solver << ": " << nsd_status_name(rep.status) << ", " << rep.iterations
    << " iterations, residual " << rep.residual;
  if (rep.message[0]) s << " (" << rep.message << ")";
  return s.str();
}

/// z >= 0, w = M z + q (recomputed) >= 0 and z_i w_i = 0, each within tol
/// relative to the scale of the Siconos error (max(1, ||q||), and the larger
/// of z_i, w_i for the product), and the reported residual is the Siconos
/// error of z, at most tol.
inline void assertSolves(const TestLcp& t, double tol) {
  const int n = t.n();
  std::vector<double> w(static_cast<size_t>(n));
  const double err = nsd_lcp_error(t.get(), t.z.data(), w.data());
  CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(describe(t.rep), err, t.rep.residual, 1e-12 + 1e-9 * err);
  CPPUNIT_ASSERT_MESSAGE(describe(t.rep), err <= tol);
  double qnorm = 0.0;
  for (int i = 0; i < n; ++i) qnorm += t.lcp->q[i] * t.lcp->q[i];
  const double scale = std::fmax(1.0, std::sqrt(qnorm));
  for (int i = 0; i < n; ++i) {
    const std::string at = "[" + std::to_string(i) + "] ";
    const double big = std::fmax(std::fabs(t.z[i]), std::fabs(w[i]));
    CPPUNIT_ASSERT_MESSAGE("z" + at + "< 0: " + describe(t.rep), t.z[i] >= -tol * scale);
    CPPUNIT_ASSERT_MESSAGE("w" + at + "< 0: " + describe(t.rep), w[i] >= -tol * scale);
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE("z.w" + at, 0.0, t.z[i] * w[i], tol * scale * (1.0 + big));
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE("w returned" + at, w[i], t.w[i],
                                         1e-12 * (1.0 + std::fabs(w[i])));
  }
}

/// Path of a shared LCP file by its name.
inline std::string sharedLcpPath(const std::string& file) {
  return std::string(NSDYN_SHARED_DIR) + "/data/lcp/" + file;
}

/// Reads an LCP `.dat` file (dense or sparse-block M) with nsd_read_problem;
/// fails the test if it cannot.
inline NsdLcp* readLcpFile(const std::string& path) {
  NsdProblem prob{};
  NsdReport rep{};
  const NsdStatus st = nsd_read_problem(path.c_str(), NSD_KIND_LCP, &prob, &rep);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(path + ": " + rep.message, NSD_OK, st);
  CPPUNIT_ASSERT_MESSAGE(path + ": not an LCP", prob.kind == NSD_KIND_LCP && prob.lcp != nullptr);
  NsdLcp* lcp = prob.lcp;
  prob.lcp = nullptr;  // ownership moves to the caller
  nsd_problem_clear(&prob);
  return lcp;
}

}  // namespace nsdyn::test
