// Shared helpers of the friction-contact solver tests (fc_apgd, fc_gs,
// fc_newton): a small FC problem owned by the test (from literals or from a
// shared file), solvers by name, and the checks of a returned (r, u).
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

/// A friction-contact problem owned by the test, with r, u (zero), options
/// (defaults) and a report (zero).
class FcTestProblem {
 public:
  NsdFc* fc = nullptr;
  std::vector<double> r, u;
  NsdSolverOptions opt{};
  NsdReport rep{};

  /// Dense M given row by row ((dim nc)^2 values), q[dim nc], mu[nc].
  FcTestProblem(int dim, const std::vector<double>& m_rows, const std::vector<double>& q,
                const std::vector<double>& mu) {
    const int m = static_cast<int>(q.size());
    CPPUNIT_ASSERT_EQUAL(q.size() * q.size(), m_rows.size());
    CPPUNIT_ASSERT_EQUAL(static_cast<size_t>(m), static_cast<size_t>(dim) * mu.size());
    fc = nsd_fc_create(dim, static_cast<int>(mu.size()),
                       nsd_matrix_create_dense_from_rows(m, m, m_rows.data()), q.data(), mu.data());
    CPPUNIT_ASSERT(fc != nullptr);
    init();
  }
  /// Takes a problem already built (ownership taken).
  explicit FcTestProblem(NsdFc* p) : fc(p) {
    CPPUNIT_ASSERT(fc != nullptr);
    init();
  }
  ~FcTestProblem() { nsd_fc_destroy(fc); }
  FcTestProblem(const FcTestProblem&) = delete;
  FcTestProblem& operator=(const FcTestProblem&) = delete;

  /// Number of rows, dim * nc.
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
    // at least one entry, so that r.data() and u.data() are never null (nc = 0)
    r.assign(static_cast<size_t>(size() > 0 ? size() : 1), 0.0);
    u.assign(r.size(), 0.0);
    nsd_solver_options_default(&opt);
    std::memset(&rep, 0, sizeof rep);
  }
};

/// A solver under test, by the name used in ctest names, and its dimension.
struct NamedFcSolver {
  const char* name;
  NsdFcSolver fn;
  int dim = 3;
};
/// The solver of @p all named @p name, or nullptr.
inline const NamedFcSolver* findFcSolver(const std::vector<NamedFcSolver>& all,
                                         const std::string& name) {
  for (const auto& s : all)
    if (name == s.name) return &s;
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

/// The report agrees with the returned (r, u): its residual is the Siconos
/// error of r (to @p residual_abs_tol + 1e-9 error) and u = M r + q. Returns
/// the error.
inline double assertConsistent(const FcTestProblem& t, const std::string& what,
                               double residual_abs_tol = 1e-12) {
  std::vector<double> u(t.r.size(), 0.0);
  const double err = nsd_fc_error(t.fc, t.r.data(), u.data());
  CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": residual", err, t.rep.residual,
                                       residual_abs_tol + 1e-9 * err);
  for (size_t i = 0; i < static_cast<size_t>(t.size()); ++i)
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": u = M r + q", u[i], t.u[i],
                                         1e-12 * (1.0 + std::fabs(u[i])));
  return err;
}

/// Solved: @p status is NSD_OK, the report agrees with (r, u) and the error
/// of r is <= @p tol.
inline void assertSolved(const FcTestProblem& t, NsdStatus status, double tol) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_OK, status);
  const double err = assertConsistent(t, describe(t.rep), 1e-14);
  CPPUNIT_ASSERT_MESSAGE(describe(t.rep), err <= tol);
}

/// Path of a shared file, e.g. sharedPath("fc3d/Rover1039.dat").
inline std::string sharedPath(const std::string& rel) {
  return std::string(NSDYN_SHARED_DIR) + "/data/" + rel;
}
/// Path of a shared FC3D file.
inline std::string sharedFc3dPath(const std::string& file) {
  return sharedPath("fc3d/" + file);
}

/// Reads a friction-contact file (.dat or FCLIB .hdf5) of dimension dim; fails
/// the test if it cannot. The problem is the caller's.
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
/// Reads an FC3D file.
inline NsdFc* readFc3dFile(const std::string& path) {
  return readFcFile(path, 3);
}

}  // namespace nsdyn::test
