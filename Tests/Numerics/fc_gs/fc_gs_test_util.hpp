// Helpers of the friction-contact Gauss-Seidel tests (fc3d NSGS/PSOR, fc2d
// NSGS/Lemke): small problems from literals, the solvers by name, checks of a
// returned (r, u), and loading the shared files.
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

/// A friction-contact problem owned by the test, with r, u, options (defaults) and a report.
struct TestFc {
  NsdFc* fc = nullptr;
  std::vector<double> r, u;
  NsdSolverOptions opt{};
  NsdReport rep{};

  /// Dense M given row by row ((dim nc)^2 values), q[dim nc], mu[nc].
  TestFc(int dim, const std::vector<double>& m_rows, const std::vector<double>& q,
         const std::vector<double>& mu) {
    const int m = static_cast<int>(q.size());
    CPPUNIT_ASSERT_EQUAL(q.size() * q.size(), m_rows.size());
    CPPUNIT_ASSERT_EQUAL(static_cast<size_t>(m), static_cast<size_t>(dim) * mu.size());
    fc = nsd_fc_create(dim, static_cast<int>(mu.size()),
                       nsd_matrix_create_dense_from_rows(m, m, m_rows.data()), q.data(),
                       mu.data());
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

  /// Convert M to another storage (sparse-block with dim x dim blocks, or CSC).
  void convert(NsdStorage storage) {
    NsdMatrix* c = nsd_matrix_convert(fc->M, storage, fc->dim);
    CPPUNIT_ASSERT(c != nullptr);
    nsd_matrix_destroy(fc->M);
    fc->M = c;
  }

 private:
  void init() {
    r.assign(static_cast<size_t>(size()), 0.0);
    u.assign(static_cast<size_t>(size()), 0.0);
    nsd_solver_options_default(&opt);
    std::memset(&rep, 0, sizeof rep);
  }
};

/// The solvers under test, by the names used in ctest names.
struct NamedFcSolver {
  const char* name;
  NsdFcSolver fn;
  int dim;
};
inline const std::vector<NamedFcSolver>& fcGsSolvers() {
  static const std::vector<NamedFcSolver> all = {{"fc3d_nsgs", nsd_fc3d_nsgs, 3},
                                                 {"fc3d_psor", nsd_fc3d_psor, 3},
                                                 {"fc2d_nsgs", nsd_fc2d_nsgs, 2},
                                                 {"fc2d_lemke", nsd_fc2d_lemke, 2}};
  return all;
}
inline const NamedFcSolver* fcGsSolverByName(const std::string& name) {
  for (const auto& s : fcGsSolvers())
    if (name == s.name) return &s;
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

/// The report says converged, its residual is the Siconos error of r (<= tol),
/// and u = M r + q.
inline void assertSolved(const TestFc& t, NsdStatus status, double tol) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_OK, status);
  std::vector<double> u(static_cast<size_t>(t.size()));
  const double err = nsd_fc_error(t.fc, t.r.data(), u.data());
  CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(describe(t.rep), err, t.rep.residual, 1e-14 + 1e-9 * err);
  CPPUNIT_ASSERT_MESSAGE(describe(t.rep), err <= tol);
  for (int i = 0; i < t.size(); ++i)
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE("u returned", u[i], t.u[i], 1e-12 * (1.0 + std::fabs(u[i])));
}

/// Component-wise comparison of two vectors.
inline void assertVector(const std::string& what, const std::vector<double>& expected,
                         const std::vector<double>& got, double tol) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, expected.size(), got.size());
  for (size_t i = 0; i < expected.size(); ++i)
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + "[" + std::to_string(i) + "]", expected[i], got[i],
                                         tol);
}

/// Path of a shared file, e.g. sharedPath("fc3d/Rover1039.dat").
inline std::string sharedPath(const std::string& rel) {
  return std::string(NSDYN_SHARED_DIR) + "/data/" + rel;
}

/// Reads a friction-contact file (.dat or FCLIB .hdf5) of dimension dim; fails the test if it cannot.
inline NsdFc* readFcFile(const std::string& path, int dim) {
  NsdProblem prob{};
  NsdReport rep{};
  const NsdStatus st =
      nsd_read_problem(path.c_str(), dim == 3 ? NSD_KIND_FC3D : NSD_KIND_FC2D, &prob, &rep);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(path + ": " + rep.message, NSD_OK, st);
  CPPUNIT_ASSERT_MESSAGE(path + ": not a friction-contact problem", prob.fc != nullptr);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(path, dim, prob.fc->dim);
  NsdFc* fc = prob.fc;
  prob.fc = nullptr;  // ownership moves to the caller
  nsd_problem_clear(&prob);
  return fc;
}

}  // namespace nsdyn::test
