// Helpers of the GMP tests: owned problems, the shared files, a solve.
#ifndef NSDYN_TESTS_GMP_TEST_UTIL_HPP
#define NSDYN_TESTS_GMP_TEST_UTIL_HPP

#include <memory>
#include <string>
#include <vector>

#include "nsdyn/numerics.h"

namespace nsdyn::test {

/// A problem read from a file (or built), freed on destruction.
struct GmpFile {
  NsdProblem p{};
  NsdReport rep{};
  NsdStatus status = NSD_BAD_INPUT;
  GmpFile() = default;
  GmpFile(const GmpFile&) = delete;
  GmpFile& operator=(const GmpFile&) = delete;
  ~GmpFile() { nsd_problem_clear(&p); }
  const NsdGmp* gmp() const { return p.gmp; }
};

inline std::string gmpDataDir() {
  return std::string(NSDYN_SHARED_DIR) + "/data/gmp/";
}

/// The shared files, by name.
inline const std::vector<std::string>& gmpFileNames() {
  static const std::vector<std::string> names = {
      "Example1_Fc3D_SBM.dat", "GMP0.dat", "GMP1.dat", "GMP2.dat", "GMP4.dat", "GMP5.dat"};
  return names;
}

inline std::unique_ptr<GmpFile> readGmp(const std::string& path,
                                        NsdProblemKind kind = NSD_KIND_UNKNOWN) {
  auto f = std::make_unique<GmpFile>();
  f->status = nsd_read_problem(path.c_str(), kind, &f->p, &f->rep);
  return f;
}

inline std::unique_ptr<GmpFile> readGmpText(const std::string& text, const std::string& name) {
  auto f = std::make_unique<GmpFile>();
  f->status =
      nsd_read_problem_text(text.data(), text.size(), name.c_str(), NSD_KIND_GMP, &f->p, &f->rep);
  return f;
}

/// The result of one solve.
struct GmpSolve {
  std::vector<double> r, u;
  NsdReport rep{};
  NsdStatus status = NSD_BAD_INPUT;
};

inline GmpSolve solveGmp(const NsdGmp* p, NsdGmpSolver solver, double tolerance = 1e-8,
                         int max_iterations = 50000) {
  GmpSolve s;
  s.r.assign(static_cast<size_t>(p->n), 0.0);
  s.u.assign(static_cast<size_t>(p->n), 0.0);
  NsdSolverOptions opt;
  nsd_solver_options_default(&opt);
  opt.tolerance = tolerance;
  opt.max_iterations = max_iterations;
  s.status = solver(p, s.r.data(), s.u.data(), &opt, &s.rep);
  return s;
}

}  // namespace nsdyn::test

#endif
