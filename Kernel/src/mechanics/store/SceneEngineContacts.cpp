// SceneEngine, phases 1-2: detection over the store and the contact arrays (frames, lever
// arms, u_k, activity, warm start) under the rules of ContactRules.hpp.
#include <algorithm>
#include <cmath>
#include <vector>

#include "../Threads.hpp"
#include "SceneEngineArrays.hpp"
#include "SceneEngineSpeculative.hpp"
#include "nsdyn/ContactFrame.hpp"
#include "nsdyn/ContactRules.hpp"
#include "nsdyn/SceneEngine.hpp"

namespace nsdyn {

namespace {
/// An exchange that keeps every detected contact as it is (one process): the engine reads
/// the detector's list in place instead of copying it for afterDetection.
bool passThrough(const SceneExchange& exchange) {
  return !exchange.filtersContacts();
}
}  // namespace

using store::growTo;

void SceneEngine::detect() {
  const int threads = options_.contacts.detection.threads;
  const double scale = sweepScale();
  if (scale > 0.0) {
    // sweep_b = s h (|v| + |Omega| R_b) from the velocity at t_k (0 for static bodies); s = 1
    // (sweptDetection) or 2 (speculative contacts: SceneEngineSpeculative.hpp)
    const std::size_t n = bodies_.size();
    sweep_.resize(n);  // a distributed store changes size with migration
    const double h = scale * options_.h;
    NSD_OMP(omp parallel for schedule(static) num_threads(mechanics::threadsFor(threads, n)))
    for (std::size_t b = 0; b < n; ++b) {
      if (bodies_.isStatic[b]) {
        sweep_[b] = 0.0;
        continue;
      }
      const double* v = &bodies_.v[6 * b];
      const double lin = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      const double ang = std::sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
      const double s = h * (lin + ang * bodies_.boundingRadius(b));
      sweep_[b] = std::isfinite(s) ? s : 0.0;  // a diverged body: its detection is not widened
    }
    detector_.setSweep(sweep_);
  }
  const std::vector<DetectedContact>& detected = detector_.detect();
  if (passThrough(*exchange_) && !filtersContacts_) {
    found_.clear();  // fillContacts reads the detector's list (no copy)
    return;
  }
  found_ = detected;
  if (filtersContacts_) dropSystemPairs();
  if (!passThrough(*exchange_)) exchange_->afterDetection(bodies_, found_);
}

// The detected pairs of two bodies of one system that its keepsContact refuses (bonded points
// of a peridynamic body with self-contact), out of found_, the order kept.
void SceneEngine::dropSystemPairs() {
  std::size_t kept = 0;
  for (std::size_t c = 0; c < found_.size(); ++c) {
    const DetectedContact& d = found_[c];
    bool keep = true;
    if (d.bodyA >= 0 && d.bodyB >= 0) {
      const std::size_t a = static_cast<std::size_t>(d.bodyA),
                        b = static_cast<std::size_t>(d.bodyB);
      for (const auto& system : systems_) {
        if (!system->filtersContacts()) continue;
        const std::size_t first = system->firstBody(), end = first + system->bodyCount();
        if (a >= first && a < end && b >= first && b < end) {
          keep = system->keepsContact(a, b);
          break;
        }
      }
    }
    if (keep) found_[kept++] = d;
  }
  found_.resize(kept);
}

void SceneEngine::fillContacts() {
  const double h = options_.h;
  const ContactManagerOptions& co = options_.contacts;
  const bool swept = sweepScale() > 0.0;
  const bool speculative = options_.speculativeContacts;
  const bool keepLoaded = co.keepLoadedContacts.value_or(false);
  const double margin = margin_;
  const std::vector<DetectedContact>& found =
      passThrough(*exchange_) && !filtersContacts_ ? detector_.contacts() : found_;
  contact::selectKept(
      found, memory_.key.data(), memory_.key.size(), breaking_,
      [&](const DetectedContact& d) {
        return swept ? margin + sweep_[static_cast<std::size_t>(d.bodyA)] +
                           sweep_[static_cast<std::size_t>(d.bodyB)]
                     : margin;
      },
      keep_, prev_);
  const std::size_t n = keep_.size();
  SceneContacts& cs = contacts_;
  growTo(cs.key, n);
  growTo(cs.bodyA, n);
  growTo(cs.bodyB, n);
  growTo(cs.frame, 9 * n);
  growTo(cs.pointA, 3 * n);
  growTo(cs.pointB, 3 * n);
  growTo(cs.armA, 3 * n);
  growTo(cs.armB, 3 * n);
  growTo(cs.gap, n);
  growTo(cs.mu, n);
  growTo(cs.restitution, n);
  growTo(cs.bias, n);
  growTo(cs.velocityStart, 3 * n);
  growTo(cs.velocity, 3 * n);
  growTo(cs.impulse, 3 * n);
  growTo(cs.active, n);
  growTo(cs.warm, n);
  cs.resize(n);
  const int threads = mechanics::threadsFor(co.detection.threads, n);
  (void)threads;
  const bool warm = co.warmStart;
  const double activation = activation_, beta = co.stabilisationFactor,
               maxRecovery = co.maxRecoverySpeed;
  std::size_t active = 0, warmCount = 0, stabilised = 0, ahead = 0;
  double deepest = 0.0;
  NSD_OMP(omp parallel for schedule(static) num_threads(threads) reduction(+ : active, warmCount, stabilised, ahead) \
          reduction(max : deepest))
  for (std::size_t c = 0; c < n; ++c) {
    const DetectedContact& d = found[static_cast<std::size_t>(keep_[c])];
    const std::size_t A = static_cast<std::size_t>(d.bodyA), B = static_cast<std::size_t>(d.bodyB);
    cs.key[c] = d.key;
    cs.bodyA[c] = d.bodyA;
    cs.bodyB[c] = d.bodyB;
    double* f = &cs.frame[9 * c];
    contact::frame(d.normal, f);
    double u[3] = {0.0, 0.0, 0.0};
    for (int side = 0; side < 2; ++side) {
      const std::size_t b = side == 0 ? A : B;
      const quaternion::Vec3& p = side == 0 ? d.pointA : d.pointB;
      double* arm = side == 0 ? &cs.armA[3 * c] : &cs.armB[3 * c];
      double* point = side == 0 ? &cs.pointA[3 * c] : &cs.pointB[3 * c];
      for (int k = 0; k < 3; ++k) {
        point[k] = p[static_cast<std::size_t>(k)];
        arm[k] = p[static_cast<std::size_t>(k)] - bodies_.q[7 * b + static_cast<std::size_t>(k)];
      }
      if (bodies_.isStatic[b]) continue;
      // velocity of the contact point: v + omega x arm (world, at t_k)
      const double* vb = &bodies_.v[6 * b];
      const double* wb = &omegaStart_[3 * b];
      const double pv[3] = {vb[0] + wb[1] * arm[2] - wb[2] * arm[1],
                            vb[1] + wb[2] * arm[0] - wb[0] * arm[2],
                            vb[2] + wb[0] * arm[1] - wb[1] * arm[0]};
      const double sign = side == 0 ? 1.0 : -1.0;
      for (int i = 0; i < 3; ++i)
        u[i] += sign * (f[3 * i] * pv[0] + f[3 * i + 1] * pv[1] + f[3 * i + 2] * pv[2]);
    }
    cs.gap[c] = d.gap;
    deepest = std::max(deepest, -d.gap);
    const int ga = bodies_.group[A], gb = bodies_.group[B];
    const ContactMaterial mat =
        groups_ > 0
            ? materialTable_[static_cast<std::size_t>(ga) * static_cast<std::size_t>(groups_) +
                             static_cast<std::size_t>(gb)]
            : material(ga, gb);
    cs.mu[c] = mat.mu;
    cs.restitution[c] = mat.restitution;
    for (int k = 0; k < 3; ++k) {
      cs.velocityStart[3 * c + k] = u[k];
      cs.velocity[3 * c + k] = u[k];
    }
    bool isActive = contact::isActive(d.gap, u[0], h, activation);
    cs.bias[c] = contact::recoveryBias(d.gap, isActive, h, beta, maxRecovery);
    if (cs.bias[c] != 0.0) stabilised += 1;
    const std::int32_t pj = prev_[c];
    // speculative contacts: every kept contact the usual rule leaves out; without them, a
    // contact that carried a load at the last step (keepLoadedContacts), so that a resting
    // contact a solver's answer left open by round-off (gap + ½ h u_n a few 1e-11 m above
    // the threshold) does not drop its body into free fall for a step
    const bool loaded = keepLoaded && pj >= 0 && memory_.normal[static_cast<std::size_t>(pj)] > 0.0;
    if ((speculative || loaded) && !isActive) {
      cs.bias[c] = contact::aheadBias(d.gap, u[0], mat.restitution, h);
      isActive = cs.bias[c] > 0.0;
      ahead += isActive ? 1 : 0;
    }
    cs.active[c] = isActive ? 1 : 0;
    active += isActive ? 1 : 0;
    double* lambda = &cs.impulse[3 * c];
    lambda[0] = lambda[1] = lambda[2] = 0.0;
    cs.warm[c] = 0;
    if (warm && pj >= 0) {
      const std::size_t j = static_cast<std::size_t>(pj);
      contact::warmImpulse(memory_.normal[j], &memory_.tangential[3 * j], f, lambda);
      cs.warm[c] = 1;
      warmCount += 1;
    }
  }
  cs.activeCount = active;
  report_.contacts = n;
  report_.active = active;
  report_.warmStarted = warmCount;
  report_.stabilised = stabilised;
  report_.speculative = ahead;
  report_.maxPenetration = deepest;
}

}  // namespace nsdyn
