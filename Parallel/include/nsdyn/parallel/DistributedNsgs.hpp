/// @file DistributedNsgs.hpp
/// @brief Nonsmooth Gauss-Seidel over the ranks for the friction-contact problem of a
///        DistributedContactProblem: rank-local sweeps, an exchange of the body velocity
///        corrections after each sweep, shared bodies relaxed by mass splitting
///        (doc/parallel.md "Distributed NSGS").
#ifndef NSDYN_PARALLEL_DISTRIBUTEDNSGS_HPP
#define NSDYN_PARALLEL_DISTRIBUTEDNSGS_HPP

#include <cstddef>
#include <vector>

#include "nsdyn/nsd_common.h"
#include "nsdyn/parallel/DistributedContactProblem.hpp"

namespace nsdyn {
namespace parallel {

/// Settings of the distributed NSGS beyond NsdSolverOptions.
struct DistributedNsgsOptions {
  /// How a body that several ranks' contacts touch is shared during a sweep: rank p sweeps
  /// with the inverse mass and inertia of body s multiplied by t_s and adds 1/t_s of the
  /// velocity change it made to the body's velocity (mass splitting; t_s = 1: plain
  /// Gauss-Seidel on that body). The converged answer does not depend on it.
  enum class Split {
    ContactRanks,  ///< t_s = number of ranks owning a contact on s (default; the least damping
                   ///< that keeps each sweep's combined step a descent step)
    Copies,        ///< t_s = copiesOfOwned(): 1 + ranks holding s as a ghost (more damping)
    None           ///< t_s = 1: block Jacobi across ranks undamped (may oscillate; experiments)
  };
  Split split = Split::ContactRanks;
  /// The global Siconos error (one reduction of 3 values) every k sweeps (≥ 1).
  int checkEvery = 1;
  /// v = M^-1 J^T r recomputed from r (two halo exchanges) every k sweeps (≥ 1), and
  /// always before the solver stops, so that the reported error is that of (r, N r + q).
  int refreshEvery = 64;
};

/// NSGS for the FC3D problem held by a DistributedContactProblem:
///  - state: r (the problem's impulses) and v = M^-1 J^T r per slot (owned and ghost copies
///    of every body; u_c = J_A v_A + J_B v_B + q_c);
///  - sweep: every owned contact in the problem's order: the one-contact problem
///    u = W_cc r_c + (u_c - W_cc r_c) solved (closed forms, then an Alart-Curnier Newton with
///    line search, then projection steps), r_c updated (options.relaxation as NSGS), the local
///    velocities of its bodies updated by t_s M^-1 J^T Δr;
///  - after the sweep: each rank's true velocity change M^-1 J^T Δr of the sweep (its local
///    change / t_s) summed on the owners (reverse exchange, rank order), owners' v updated,
///    ghost copies refreshed (forward exchange): v = M^-1 J^T r holds up to round-off;
///  - stop: the global Siconos error (nsd_fc_error's formula, sums reduced in rank order)
///    ≤ options.tolerance, at least one sweep when there is a contact (as nsd_fc3d_nsgs);
///    options.max_iterations sweeps; options.time_limit decided collectively.
/// Collective; the report (status, iterations, residual) is the same on every rank.
/// Deterministic: results depend on the input and the rank count only. On one rank it is
/// nsd_fc3d_nsgs's sweep (same order, closed forms and local solver) on the operator form.
class DistributedNsgs {
 public:
  DistributedNsgs() = default;
  explicit DistributedNsgs(const DistributedNsgsOptions& settings) : settings_(settings) {}

  /// Collective: solves @p problem from its impulses (options.warm_start) or 0, leaves r in
  /// problem.impulsesMutable(), u = N r + q in problem.velocitiesMutable(), and the velocity
  /// change of the owned bodies in velocityChange(). Options read: tolerance,
  /// max_iterations, relaxation, warm_start, time_limit, nsgs.local_tolerance,
  /// nsgs.local_max_iterations. Bad options or a non-finite warm start: NSD_BAD_INPUT on
  /// every rank.
  NsdStatus solve(DistributedContactProblem& problem, const NsdSolverOptions& options,
                  NsdReport& report);

  /// 6 per owned body (d.owned() order): M^-1 J^T r after solve(), as
  /// DistributedContactProblem::velocityChange() after its solve().
  const std::vector<double>& velocityChange() const { return dv_; }
  /// Bodies of this rank's slots with t_s > 1 in the last solve (shared during sweeps), and
  /// the largest t_s over the ranks.
  std::size_t sharedBodies() const { return shared_; }
  int maxSplit() const { return maxSplit_; }
  /// The largest drift of the kept velocities in the last solve: max |v - M^-1 J^T r| over
  /// the owned bodies at each refresh, relative to the largest |M^-1 J^T r| (round-off when
  /// every rank's corrections reach the owners; the same on every rank).
  double drift() const { return drift_; }

  const DistributedNsgsOptions& settings() const { return settings_; }
  void setSettings(const DistributedNsgsOptions& settings) { settings_ = settings; }

 private:
  DistributedNsgsOptions settings_;
  std::vector<double> dv_;
  std::size_t shared_ = 0;
  int maxSplit_ = 1;
  double drift_ = 0.0;
};

/// Collective: DistributedNsgs(settings).solve(problem, options, report), the velocity change
/// of the owned bodies into @p velocityChange when not null. A drop-in for
/// DistributedContactProblem::solve().
NsdStatus solveNsgs(DistributedContactProblem& problem, const NsdSolverOptions& options,
                    NsdReport& report, std::vector<double>* velocityChange = nullptr,
                    const DistributedNsgsOptions& settings = {});

}  // namespace parallel
}  // namespace nsdyn

#endif
