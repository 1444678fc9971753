// Helpers of the global Newton friction-contact tests: small FC3D problems from
// literals, the two solvers by name, and the checks of a returned (r, u).
#pragma once

#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/nsd_fc.h"
#include "nsdyn/nsd_io.h"

namespace nsdyn::test {

/// An FC problem owned by the test, with r, u, options (defaults) and a report.
struct TestFc {
  NsdFc* fc = nullptr;
  std::vector<double> r, u;
  NsdSolverOptions opt{};
  NsdReport rep{};

  /// M given row by row ((dim nc)^2 values), q[dim nc], mu[nc].
  TestFc(int dim, const std::vector<double>& m_rows, const std::vector<double>& q,
         const std::vector<double>& mu) {
    const int m = static_cast<int>(q.size());
    CPPUNIT_ASSERT_EQUAL(q.size() * q.size(), m_rows.size());
    fc = nsd_fc_create(dim, static_cast<int>(mu.size()),
                       nsd_matrix_create_dense_from_rows(m, m, m_rows.data()), q.data(), mu.data());
    CPPUNIT_ASSERT(fc != nullptr);
    init();
  }
  /// Takes a problem already built (ownership taken).
  explicit TestFc(NsdFc* p) : fc(p) {
    CPPUNIT_ASSERT(fc != nullptr);
    init();
  }
  ~TestFc() { nsd_fc_destroy(fc); }
  TestFc(const TestFc&) = delete;
  TestFc& operator=(const TestFc&) = delete;

  int size() const { return fc->dim * fc->nc; }
  NsdStatus solve(NsdFcSolver solver) { return solver(fc, r.data(), u.data(), &opt, &rep); }

 private:
  void init() {
    r.assign(static_cast<size_t>(size() > 0 ? size() : 1), 0.0);
    u.assign(r.size(), 0.0);
    nsd_solver_options_default(&opt);
    std::memset(&rep, 0, sizeof rep);
  }
};

/// The solvers under test, by the names used in ctest names.
struct NamedFcSolver {
  const char* name;
  NsdFcSolver fn;
};
inline const std::vector<NamedFcSolver>& newtonSolvers() {
  static const std::vector<NamedFcSolver> all = {{"newton_ac", nsd_fc3d_newton_ac},
                                                 {"newton_fb", nsd_fc3d_newton_fb}};
  return all;
}
inline NsdFcSolver newtonSolverByName(const std::string& name) {
  for (const auto& s : newtonSolvers())
    if (name == s.name) return s.fn;
  return nullptr;
}

/// Status and message as one string, for assertion messages.
inline std::string describe(const NsdReport& rep) {
  std::ostringstream s;
  s << rep.solver << ": " << nsd_status_name(rep.status) << ", " << rep.iterations
    << " iterations, residual " << rep.residual << ", " << rep.seconds << " s";
  if (rep.message[0]) s << " (" << rep.message << ")";
  return s.str();
}

/// The report agrees with the returned r: u = M r + q and residual = error(r).
inline void assertConsistent(TestFc& t, const std::string& what) {
  std::vector<double> u(t.r.size(), 0.0);
  const double err = nsd_fc_error(t.fc, t.r.data(), u.data());
  CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": residual", err, t.rep.residual,
                                       1e-12 + 1e-9 * err);
  for (int i = 0; i < t.size(); ++i)
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": u = M r + q", u[static_cast<size_t>(i)],
                                         t.u[static_cast<size_t>(i)],
                                         1e-12 * (1.0 + std::fabs(u[static_cast<size_t>(i)])));
}

/// Path of a shared FC3D file.
inline std::string sharedFc3dPath(const std::string& file) {
  return std::string(NSDYN_SHARED_DIR) + "/data/fc3d/" + file;
}

/// Read an FC3D file (.dat or FCLIB .hdf5); the problem is the caller's.
inline NsdFc* readFc3dFile(const std::string& path) {
  NsdProblem p;
  std::memset(&p, 0, sizeof p);
  NsdReport rep;
  std::memset(&rep, 0, sizeof rep);
  const NsdStatus s = nsd_read_problem(path.c_str(), NSD_KIND_FC3D, &p, &rep);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(path + ": " + rep.message, NSD_OK, s);
  CPPUNIT_ASSERT_MESSAGE(path + ": not an FC problem", p.fc != nullptr);
  NsdFc* fc = p.fc;
  p.fc = nullptr;
  nsd_problem_clear(&p);
  return fc;
}

}  // namespace nsdyn::test
