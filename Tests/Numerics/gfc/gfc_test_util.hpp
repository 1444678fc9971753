// Helpers of the global friction-contact tests: owned problems, the shared files, one solve.
#ifndef NSDYN_TESTS_GFC_TEST_UTIL_HPP
#define NSDYN_TESTS_GFC_TEST_UTIL_HPP

#include <memory>
#include <string>
#include <vector>

#include "nsdyn/numerics.h"

namespace nsdyn::test {

/// A problem read from a file, freed on destruction.
struct GfcFile {
  NsdProblem p{};
  NsdReport rep{};
  NsdStatus status = NSD_BAD_INPUT;
  GfcFile() = default;
  GfcFile(const GfcFile&) = delete;
  GfcFile& operator=(const GfcFile&) = delete;
  ~GfcFile() { nsd_problem_clear(&p); }
};

inline std::string gfcDataDir() {
  return std::string(NSDYN_SHARED_DIR) + "/data/gfc/";
}

inline std::unique_ptr<GfcFile> readGfc(const std::string& path) {
  auto f = std::make_unique<GfcFile>();
  f->status = nsd_read_problem(path.c_str(), NSD_KIND_UNKNOWN, &f->p, &f->rep);
  return f;
}

/// The result of one solve: r, u, v and the report.
struct GfcSolve {
  std::vector<double> r, u, v;
  NsdReport rep{};
  NsdStatus status = NSD_BAD_INPUT;
};

inline GfcSolve solveGfc(const NsdGfc* p, NsdGfcSolver solver, double tolerance = 1e-8,
                         int max_iterations = 10000) {
  GfcSolve s;
  const size_t m = static_cast<size_t>(p->dim) * static_cast<size_t>(p->nc);
  s.r.assign(m, 0.0);
  s.u.assign(m, 0.0);
  s.v.assign(static_cast<size_t>(p->n), 0.0);
  NsdSolverOptions opt;
  nsd_solver_options_default(&opt);
  opt.tolerance = tolerance;
  opt.max_iterations = max_iterations;
  s.status = solver(p, s.r.data(), s.u.data(), s.v.data(), &opt, &s.rep);
  return s;
}

}  // namespace nsdyn::test

#endif
