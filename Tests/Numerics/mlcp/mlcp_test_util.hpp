// Helpers of the MLCP tests: small problems built from row-major values, and
// the table of the four MLCP solvers.
#pragma once

#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/numerics.h"

namespace nsdyn::test {

/// One MLCP solver with its short name ("pgs", "enum", "lemke", "newton").
struct MlcpSolver {
  const char* name;
  NsdMlcpSolver solve;
};

inline const std::vector<MlcpSolver>& mlcpSolvers() {
  static const std::vector<MlcpSolver> solvers = {{"pgs", nsd_mlcp_pgs},
                                                  {"enum", nsd_mlcp_enum},
                                                  {"lemke", nsd_mlcp_lemke},
                                                  {"newton", nsd_mlcp_newton}};
  return solvers;
}

/// The solver named @p name, or a null entry.
inline MlcpSolver mlcpSolver(const std::string& name) {
  for (const MlcpSolver& s : mlcpSolvers())
    if (name == s.name) return s;
  return {nullptr, nullptr};
}

/// An owned MLCP with z, w, options and report ready for a solve.
class TestMlcp {
 public:
  /// Rows of kind is_comp[i] (1 complementarity, 0 free); M given row by row.
  static std::unique_ptr<TestMlcp> mixed(int n, const std::vector<double>& rows,
                                         const std::vector<double>& q,
                                         const std::vector<int>& is_comp) {
    NsdMatrix* M = nsd_matrix_create_dense_from_rows(n, n, rows.data());
    return std::unique_ptr<TestMlcp>(
        new TestMlcp(nsd_mlcp_create_mixed(M, q.data(), is_comp.data())));
  }

  /// Box rows lb[i] <= z_i <= ub[i]; M given row by row.
  static std::unique_ptr<TestMlcp> box(int n, const std::vector<double>& rows,
                                       const std::vector<double>& q, const std::vector<double>& lb,
                                       const std::vector<double>& ub) {
    NsdMatrix* M = nsd_matrix_create_dense_from_rows(n, n, rows.data());
    return std::unique_ptr<TestMlcp>(
        new TestMlcp(nsd_mlcp_create_box(M, q.data(), lb.data(), ub.data())));
  }

  /// Takes @p problem (NULL fails the calling test).
  explicit TestMlcp(NsdMlcp* problem) : p(problem) {
    CPPUNIT_ASSERT_MESSAGE("MLCP creation failed", p != nullptr);
    z.assign(p->size, 0.0);
    w.assign(p->size, 0.0);
    nsd_solver_options_default(&opt);
    rep = NsdReport();
  }
  ~TestMlcp() { nsd_mlcp_destroy(p); }
  TestMlcp(const TestMlcp&) = delete;
  TestMlcp& operator=(const TestMlcp&) = delete;

  /// Run @p solver with opt into z, w, rep (z kept as warm start if opt.warm_start).
  NsdStatus solve(NsdMlcpSolver solver) {
    double* history = rep.history;
    int capacity = rep.history_capacity;
    rep = NsdReport();
    rep.history = history;
    rep.history_capacity = capacity;
    return solver(p, z.data(), w.data(), &opt, &rep);
  }

  NsdMlcp* p;
  std::vector<double> z, w;
  NsdSolverOptions opt;
  NsdReport rep;
};

/// "solver: status (message)" for assertion messages.
inline std::string describe(const char* solver, const NsdReport& rep) {
  return std::string(solver) + ": " + nsd_status_name(rep.status) + " (" + rep.message +
         "), residual " + std::to_string(rep.residual);
}

}  // namespace nsdyn::test
