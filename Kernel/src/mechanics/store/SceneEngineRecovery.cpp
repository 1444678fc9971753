// SceneEngine, after the position update: the overlap recovery (nsdyn/OverlapRecovery.hpp).
// Split-impulse pseudo-velocities: a normal-only problem on the kept contacts, solved by the
// Gauss-Seidel of nsd_bodies.h with μ = 0 (its frictionless closed form: projected
// Gauss-Seidel on the normal rows of J M^-1 J^T), whose pseudo-velocity M^-1 J^T p moves and
// turns the bodies and never touches their velocities (doc/design.md, "Overlap recovery
// without energy").
#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>

#include "../Threads.hpp"
#include "RecoveryOrder.hpp"
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
  if (!(std::isfinite(o.maxSpeed) && o.maxSpeed >= 0.0))
    throw Error(who, "maxSpeed finite and >= 0 (m/s; 0: slopsPerStep x slop / h)",
                "maxSpeed = " + text(o.maxSpeed));
  if (!(std::isfinite(o.slopsPerStep) && o.slopsPerStep > 0.0))
    throw Error(who, "slopsPerStep finite and > 0", "slopsPerStep = " + text(o.slopsPerStep));
  if (o.iterations < 1)
    throw Error(who, "iterations >= 1", "iterations = " + std::to_string(o.iterations));
  if (!(std::isfinite(o.tolerance) && o.tolerance > 0.0))
    throw Error(who, "tolerance finite and > 0", "tolerance = " + text(o.tolerance));
}

namespace {
// Target depth of a correction as a fraction of the slop (1: back to the slop). Measured, not
// yet chosen: on a 6-layer Jolt pyramid of 2 m cubes solved to 1e-4 the recovery (every step
// past the slop) kept 79 J and 1.9 cm of creep from 2 to 5 s (0.22 mm without recovery; solved
// to 1e-8, 2.8 um with it); starting a solve only past 2 slops (target the slop) gave 4.6e-9 J
// and 0.4 mm, starting past the slop with target slop / 2 did not (494 J): open (issue 24).
constexpr double kTarget = 1.0;

// The pseudo-impulse problem's error every kCheckEvery sweeps (and after the last): an error
// costs about half a sweep, and the sweeps stop at most kCheckEvery - 1 past the tolerance.
constexpr int kCheckEvery = 5;

// The exchange's hooks of the pseudo-impulse sweeps over parts (as the step's solve)
using Hooks = std::pair<SceneExchange*, const BodyStore*>;
void recoverySweep(void* user, double* v) {
  auto* self = static_cast<Hooks*>(user);
  self->first->afterSweep(*self->second, v);
}
void recoveryStage(void* user, double* v, int stage) {
  auto* self = static_cast<Hooks*>(user);
  self->first->afterStage(*self->second, v, stage);
}
void recoverySum(void* user, double* values, int count) {
  static_cast<Hooks*>(user)->first->reduceSum(values, count);
}
}  // namespace

// The pseudo-impulse problem. For a kept contact c, with u_n,k and u_n,k+1 its normal
// velocities (step-start frame and arms), the update of the step moved its gap by about
// h ū_n, ū_n = θ u_n,k+1 + (1 − θ) u_n,k. The pseudo-velocity w must then give
//   gap + h ū_n + h (J w)_n ≥ −s,  i.e.  (J w)_n ≥ need = (−s − gap)/h − ū_n,  s = kTarget slop,
// asked only up to maxSpeed: (J w)_n + q_n ≥ 0 ⊥ p_n ≥ 0 with q_n = −min(need, maxSpeed),
// w = M^-1 J^T p. Contacts with need ≤ −maxSpeed are left out (a correction of at most about
// maxSpeed h cannot close them past the slop); nothing is solved unless some contact, on some
// part, would end deeper than the slop (kTarget = 1: s = slop). Under gravity the lower body
// of each vertical contact is held and the contacts are swept bottom-up (RecoveryOrder.hpp:
// shock propagation; one part: in bands, the sweep's stages). Over
// several parts the sweeps go through the exchange like the step's NSGS: the pseudo-velocities of
// the bodies shared between parts are summed on their owners and sent back after each stage and
// sweep (the same hooks, with the recovery's contacts marked active for beforeSolve); each owner
// then moves its bodies and afterStep refreshes the ghosts.
void SceneEngine::recover() {
  const OverlapRecoveryOptions& ro = options_.recovery;
  // the velocity-level stabilisation (Baumgarte, ContactManagerOptions::stabilisationFactor
  // > 0) is the other way of pushing overlaps out: when it is on, the recovery stands aside
  if (!ro.enabled || options_.contacts.stabilisationFactor > 0.0) return;
  const bool parts = exchange_->size() > 1;
  const auto start = std::chrono::steady_clock::now();
  SceneContacts& cs = contacts_;
  const std::size_t n = cs.size();
  if (n == 0 && !parts) return;
  const double h = options_.h, theta = options_.theta, vmax = recMaxSpeed_, slop = recSlop_;
  store::growTo(recIndex_, n);
  store::growTo(recQ_, 3 * n);
  recIndex_.clear();
  recQ_.clear();
  // each contact's need over threads (into recR_, whose room the solve takes over below),
  // then the problem's contacts gathered in entry order
  const int nt = mechanics::threadsFor(options_.contacts.detection.threads, n);
  recR_.resize(n);
  const std::ptrdiff_t sn = static_cast<std::ptrdiff_t>(n);
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (std::ptrdiff_t sc = 0; sc < sn; ++sc) {
    const std::size_t c = static_cast<std::size_t>(sc);
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
    recR_[c] = (-kTarget * slop - cs.gap[c]) / h - ubar;
  }
  double any = 0.0;
  for (std::size_t c = 0; c < n; ++c) {
    const double need = recR_[c];
    if (!(need > -vmax)) continue;                     // NaN included
    if (need > (1.0 - kTarget) * slop / h) any = 1.0;  // deeper than the slop
    recIndex_.push_back(static_cast<std::int32_t>(c));
    recQ_.push_back(-std::min(need, vmax));
    recQ_.push_back(0.0);
    recQ_.push_back(0.0);
  }
  exchange_->reduceMax(&any, 1);  // every part solves, or none
  if (!(any > 0.0)) return;
  const std::size_t na = recIndex_.size();
  // shock propagation along gravity (RecoveryOrder.hpp): the lower body of a contact
  // stays, the contacts bottom-up (one part: in bands, the sweeps' stages)
  // (one part, many contacts: in slabs side by side instead of bands, RecoveryOrder.hpp)
  const bool slabs = !parts && na >= store::kRecoveryBlocksMin;
  store::orderForRecovery(bodies_, cs, options_.gravity, !parts, recIndex_, recQ_, recHeld_,
                          recStageEnd_, slabs ? &recBlock_ : nullptr,
                          options_.contacts.detection.threads);
  if (!slabs) recBlock_.clear();
  // cold: a warm start from the last step's pseudo-impulses over-pushes a column whose
  // overlaps are nearly gone (its sweeps too few to take them back): gaps open, bodies fall
  double none[3] = {0.0, 0.0, 0.0};  // a part without contacts passes arrays, not NULL
  recR_.assign(3 * na, 0.0);
  recMu_.assign(n, 0.0);
  recVel_.assign(6 * bodies_.size(), 0.0);
  // the correction moves and turns the bodies (their inertia in the pseudo-problem): a tilted
  // box sunk by one edge is set level, where a translation lifts it off its other supports
  // (measured on Jolt's pyramid solved to 1e-4, about one sweep a step, landings 30 cm deep:
  // translating, the pile kept rattling at 7.5e4 J after 10 s; turning, 0.26 J with every
  // overlap back at the slop; doc/design.md "Translation only, then turning again")
  NsdRigidContacts p =
      store::contactsInPlace(bodies_, cs, invInertiaWorld_, recIndex_, recMu_.data());
  p.q = na > 0 ? recQ_.data() : none;
  const unsigned char noneHeld = 0;
  p.sweep_held = recHeld_.empty() ? nullptr : na > 0 ? recHeld_.data() : &noneHeld;
  if (!recBlock_.empty()) {
    p.sweep_block = recBlock_.data();
    p.n_blocks = store::kRecoveryBlocks;
  }
  if (!parts && recStageEnd_.size() > 1) {
    p.n_stages = static_cast<int>(recStageEnd_.size());
    p.stage_end = recStageEnd_.data();
  }
  NsdSolverOptions options = defaultSolverOptions();
  options.max_iterations = ro.iterations;
  options.tolerance = ro.tolerance;
  options.warm_start = 0;
  options.pgs.check_every = kCheckEvery;
  options.threads = options_.contacts.detection.threads;
  Hooks hooks{exchange_.get(), &bodies_};
  if (parts) {
    // the exchange finds the bodies shared by the recovery's contacts (active[] read as
    // "in the problem"): the step's flags kept aside and put back after
    recActive_.assign(cs.active.begin(), cs.active.end());
    std::fill(cs.active.begin(), cs.active.end(), std::uint8_t{0});
    for (std::int32_t c : recIndex_) cs.active[static_cast<std::size_t>(c)] = 1;
    exchange_->beforeSolve(bodies_, cs);
    exchange_->solveStart(bodies_, recVel_.data());
    std::copy(recActive_.begin(), recActive_.end(), cs.active.begin());
    p.user = &hooks;
    p.after_sweep = recoverySweep;
    p.reduce_sum = recoverySum;
    const int stages = exchange_->stages();
    if (stages > 1) {
      // the contacts stage by stage, key order within a stage (a stable counting sort)
      recStage_.resize(na);
      exchange_->contactStages(bodies_, cs, recIndex_.data(), na, recStage_.data());
      recStageEnd_.assign(static_cast<std::size_t>(stages) + 1, 0);
      for (std::int32_t s : recStage_) {
        if (s < 0 || s >= stages)
          throw Error("SceneEngine overlap recovery",
                      "a stage in [0, " + std::to_string(stages) + ")", std::to_string(s));
        ++recStageEnd_[static_cast<std::size_t>(s) + 1];
      }
      for (std::size_t s = 1; s <= static_cast<std::size_t>(stages); ++s)
        recStageEnd_[s] += recStageEnd_[s - 1];  // recStageEnd_[s]: the start of stage s
      std::vector<std::int32_t> index(na);
      std::vector<double> q(3 * na);
      std::vector<std::uint8_t> held(recHeld_.size());
      for (std::size_t a = 0; a < na; ++a) {
        const std::size_t pos =
            static_cast<std::size_t>(recStageEnd_[static_cast<std::size_t>(recStage_[a])]++);
        index[pos] = recIndex_[a];
        for (std::size_t k = 0; k < 3; ++k) q[3 * pos + k] = recQ_[3 * a + k];
        if (!held.empty()) held[pos] = recHeld_[a];
      }
      // after the counting, recStageEnd_[s] is the end of stage s
      recIndex_.swap(index);
      recQ_.swap(q);
      recHeld_.swap(held);
      p.index = recIndex_.data();
      p.q = na > 0 ? recQ_.data() : none;
      if (!recHeld_.empty()) p.sweep_held = na > 0 ? recHeld_.data() : &noneHeld;
      p.n_stages = stages;
      p.stage_end = recStageEnd_.data();
      p.after_stage = recoveryStage;
    }
  }
  NsdReport report{};
  const NsdStatus status = nsd_fc3d_nsgs_bodies(&p, recVel_.data(), na > 0 ? recR_.data() : none,
                                                nullptr, &options, &report);
  if (status == NSD_BAD_INPUT)
    throw Error("SceneEngine overlap recovery", "a valid pseudo-impulse problem", report.message);
  double bad = 0.0;
  for (double x : recVel_)
    if (!std::isfinite(x)) bad = 1.0;
  exchange_->reduceMax(&bad, 1);
  if (bad > 0.0) return;  // a failed correction moves nothing (on any part)
  // the positions only: x += h w, q <- exp(h ω) q with ω the pseudo-velocity's angular part
  // (world, as invInertiaWorld_ gives it); owned bodies: the ghosts are refreshed by their
  // owners after the step
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
  report_.recovered = na;  // this part's, as the step's contact counts
  report_.recoveryIterations = report.iterations;
  report_.recoveryShift = shift;
  report_.recoverySeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace nsdyn
