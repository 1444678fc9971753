// Helpers of the rolling friction tests (RfcTest, RfcCoupledTest): one solve from r = 0, a norm.
#ifndef NSDYN_TESTS_RFC_TEST_UTIL_HPP
#define NSDYN_TESTS_RFC_TEST_UTIL_HPP

#include <cmath>
#include <cstddef>
#include <vector>

#include "nsdyn/numerics.h"

namespace nsdyn::test {

/// The result of one solve.
struct RfcRun {
  std::vector<double> r, u;
  NsdReport rep{};
  NsdStatus status = NSD_BAD_INPUT;
};

/// @p solver (an rfc, fc3d or fc2d solver) on @p p of @p m unknowns, from r = 0, to @p tol
/// within @p max_iter iterations, the other options their defaults.
template <class P, class F>
RfcRun run(const P* p, int m, F solver, double tol, int max_iter) {
  RfcRun s;
  s.r.assign(static_cast<std::size_t>(m), 0.0);
  s.u.assign(static_cast<std::size_t>(m), 0.0);
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.tolerance = tol;
  o.max_iterations = max_iter;
  s.status = solver(p, s.r.data(), s.u.data(), &o, &s.rep);
  return s;
}

/// The Euclidean norm of v[0..n).
inline double norm(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return std::sqrt(s);
}

}  // namespace nsdyn::test

#endif
