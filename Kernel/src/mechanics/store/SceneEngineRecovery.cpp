// SceneEngine, after the position update: the overlap recovery (nsdyn/OverlapRecovery.hpp).
// Split-impulse pseudo-velocities: a normal-only problem on the kept contacts, solved by the
// Gauss-Seidel of nsd_bodies.h with μ = 0 (its frictionless closed form: projected
// Gauss-Seidel on the normal rows of J M^-1 J^T), whose pseudo-velocity M^-1 J^T p moves the
// positions and never the velocities (doc/design.md, "Overlap recovery without energy").
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

#include "SceneEngineArrays.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/nsd_bodies.h"

namespace nsdyn {

namespace {
std::string text(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}
}  // namespace

void checkOverlapRecovery(const OverlapRecoveryOptions& o, const std::string& who) {
  if (!(std::isfinite(o.slop) && o.slop >= 0.0))
    throw Error(who, "slop finite and >= 0 (m)", "slop = " + text(o.slop));
  if (!(std::isfinite(o.relativeSlop) && o.relativeSlop >= 0.0))
    throw Error(who, "relativeSlop finite and >= 0", "relativeSlop = " + text(o.relativeSlop));
  if (!(std::isfinite(o.maxSpeed) && o.maxSpeed > 0.0))
    throw Error(who, "maxSpeed finite and > 0 (m/s)", "maxSpeed = " + text(o.maxSpeed));
  if (o.iterations < 1)
    throw Error(who, "iterations >= 1", "iterations = " + std::to_string(o.iterations));
  if (!(std::isfinite(o.tolerance) && o.tolerance > 0.0))
    throw Error(who, "tolerance finite and > 0", "tolerance = " + text(o.tolerance));
}

// The pseudo-impulse problem. For a kept contact c, with u_n,k and u_n,k+1 its normal
// velocities (step-start frame and arms), the update of the step moved its gap by about
// h ū_n, ū_n = θ u_n,k+1 + (1 − θ) u_n,k. The pseudo-velocity w must then give
//   gap + h ū_n + h (J w)_n ≥ −slop,  i.e.  (J w)_n ≥ need = (−slop − gap)/h − ū_n,
// asked only up to maxSpeed: (J w)_n + q_n ≥ 0 ⊥ p_n ≥ 0 with q_n = −min(need, maxSpeed),
// w = M^-1 J^T p. Contacts with need ≤ −maxSpeed are left out (a correction of at most about
// maxSpeed h cannot close them past the slop); nothing is solved when no need is > 0.
void SceneEngine::recover() {
  const OverlapRecoveryOptions& ro = options_.recovery;
  if (!ro.enabled) return;
  if (exchange_->size() > 1) {  // one process only (doc/design.md)
    if (!recWarned_) {
      recWarned_ = true;
      const std::string msg = "overlap recovery is one-process only: off over " +
                              std::to_string(exchange_->size()) + " parts";
      warnings_.push_back(msg);
      if (exchange_->rank() == 0) std::cerr << "nsdyn: warning: " << msg << "\n";
    }
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  SceneContacts& cs = contacts_;
  const std::size_t n = cs.size();
  if (n == 0) return;
  if (recSlop_ < 0.0) {
    const double smallest = bodies_.smallestShapeSize();
    recSlop_ = ro.slop > 0.0 ? ro.slop : std::isfinite(smallest) ? ro.relativeSlop * smallest : 0.0;
  }
  const double h = options_.h, theta = options_.theta, vmax = ro.maxSpeed, slop = recSlop_;
  store::growTo(recIndex_, n);
  store::growTo(recQ_, 3 * n);
  recIndex_.clear();
  recQ_.clear();
  bool any = false;
  for (std::size_t c = 0; c < n; ++c) {
    // u_n,k+1 = n . (v_A + w_A x a - v_B - w_B x b), world velocities of the step's end
    const double* nrm = &cs.frame[9 * c];
    double un = 0.0;
    for (int side = 0; side < 2; ++side) {
      const std::size_t b = static_cast<std::size_t>(side == 0 ? cs.bodyA[c] : cs.bodyB[c]);
      if (bodies_.isStatic[b]) continue;
      const double* arm = side == 0 ? &cs.armA[3 * c] : &cs.armB[3 * c];
      const double* vb = &vel_[6 * b];
      const double pv[3] = {vb[0] + vb[4] * arm[2] - vb[5] * arm[1],
                            vb[1] + vb[5] * arm[0] - vb[3] * arm[2],
                            vb[2] + vb[3] * arm[1] - vb[4] * arm[0]};
      un += (side == 0 ? 1.0 : -1.0) * (nrm[0] * pv[0] + nrm[1] * pv[1] + nrm[2] * pv[2]);
    }
    const double ubar = theta * un + (1.0 - theta) * cs.velocityStart[3 * c];
    const double need = (-slop - cs.gap[c]) / h - ubar;
    if (!(need > -vmax)) continue;  // NaN included
    any = any || need > 0.0;
    recIndex_.push_back(static_cast<std::int32_t>(c));
    recQ_.push_back(-std::min(need, vmax));
    recQ_.push_back(0.0);
    recQ_.push_back(0.0);
  }
  if (!any) return;
  const std::size_t na = recIndex_.size();
  // cold: a warm start from the last step's pseudo-impulses over-pushes a column whose
  // overlaps are nearly gone (its sweeps too few to take them back): gaps open, bodies fall
  recR_.assign(3 * na, 0.0);
  recMu_.assign(n, 0.0);
  recVel_.assign(6 * bodies_.size(), 0.0);
  NsdRigidContacts p =
      store::contactsInPlace(bodies_, cs, invInertiaWorld_, recIndex_, recMu_.data());
  p.q = recQ_.data();
  NsdSolverOptions options = defaultSolverOptions();
  options.max_iterations = ro.iterations;
  options.tolerance = ro.tolerance;
  options.warm_start = 0;
  options.threads = options_.contacts.detection.threads;
  NsdReport report{};
  const NsdStatus status =
      nsd_fc3d_nsgs_bodies(&p, recVel_.data(), recR_.data(), nullptr, &options, &report);
  if (status == NSD_BAD_INPUT)
    throw Error("SceneEngine overlap recovery", "a valid pseudo-impulse problem", report.message);
  for (double x : recVel_)
    if (!std::isfinite(x)) return;  // a failed correction moves nothing
  // the positions only: x += h w, q <- exp(h w_world) q
  double shift = 0.0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (bodies_.isStatic[b] || bodies_.ghost[b]) continue;
    const double* w = &recVel_[6 * b];
    double* q = &bodies_.q[7 * b];
    for (int i = 0; i < 3; ++i) q[i] += h * w[i];
    shift = std::max(shift, h * std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
    if (w[3] == 0.0 && w[4] == 0.0 && w[5] == 0.0) continue;
    const quaternion::Quat r = quaternion::multiply(
        quaternion::exponential({h * w[3], h * w[4], h * w[5]}), {q[3], q[4], q[5], q[6]});
    for (int i = 0; i < 4; ++i) q[3 + i] = r[static_cast<std::size_t>(i)];
  }
  report_.recovered = na;
  report_.recoveryIterations = report.iterations;
  report_.recoveryShift = shift;
  report_.recoverySeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace nsdyn
