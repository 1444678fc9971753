// SceneEngine, phase 4: the active contacts' friction-contact problem u = J v + q,
// v = v_free + M^-1 J^T r, handed to Numerics without Jacobian blocks (nsd_bodies.h):
// NSGS in body-velocity form, APGD on the operator, or any FC3D solver on an assembled W.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "nsdyn/Error.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/nsd_bodies.h"
#include "nsdyn/nsd_io.h"
#include "nsdyn/nsd_options.h"
#include "nsdyn/nsd_solvers.h"

namespace nsdyn {

namespace {

/// The operator of nsd_rigid_contacts_operator with the exchange's halo sum after J^T x
/// and its ordered sums (one process: the operator itself).
struct ExchangedOperator {
  NsdDelassus inner{};
  SceneExchange* exchange = nullptr;
  const BodyStore* bodies = nullptr;
  static void applyJt(void* user, const double* x, double* v) {
    auto* self = static_cast<ExchangedOperator*>(user);
    self->inner.apply_jt(self->inner.user, x, v);
    self->exchange->afterTranspose(*self->bodies, v);
  }
  static void applyMinv(void* user, const double* v, double* w) {
    auto* self = static_cast<ExchangedOperator*>(user);
    self->inner.apply_minv(self->inner.user, v, w);
  }
  static void applyJ(void* user, const double* w, double* y) {
    auto* self = static_cast<ExchangedOperator*>(user);
    self->inner.apply_j(self->inner.user, w, y);
  }
  static void reduceSum(void* user, double* values, int count) {
    static_cast<ExchangedOperator*>(user)->exchange->reduceSum(values, count);
  }
  static void reduceMax(void* user, double* values, int count) {
    static_cast<ExchangedOperator*>(user)->exchange->reduceMax(values, count);
  }
};

void sweepHook(void* user, double* v) {
  auto* self = static_cast<std::pair<SceneExchange*, const BodyStore*>*>(user);
  self->first->afterSweep(*self->second, v);
}
void sumHook(void* user, double* values, int count) {
  static_cast<std::pair<SceneExchange*, const BodyStore*>*>(user)->first->reduceSum(values, count);
}

}  // namespace

// The problem on W assembled sparse-block (q_W = pQW_), solved by the FC3D solver @p name.
NsdStatus SceneEngine::solveAssembled(const NsdRigidContacts& p, const std::string& name,
                                      NsdSolverOptions options, NsdReport& report) {
  NsdMatrix* W = nullptr;
  NsdStatus status = nsd_rigid_contacts_assemble(&p, &W, &report);
  if (status != NSD_OK) return status;
  NsdProblem problem{};
  problem.kind = NSD_KIND_FC3D;
  problem.fc = nsd_fc_create(3, p.n_contacts, W, pQW_.data(), pMu_.data());
  if (!problem.fc) {
    nsd_matrix_destroy(W);
    throw Error("SceneEngine",
                "a friction problem of " + std::to_string(p.n_contacts) + " contacts",
                "out of memory");
  }
  nsd_options_restrict(&options, nsd_solver_find(NSD_KIND_FC3D, name.c_str()));
  status = nsd_solve(&problem, name.c_str(), pR_.data(), pU_.data(), &options, &report);
  nsd_problem_clear(&problem);
  return status;
}

void SceneEngine::setProblemDump(std::string directory, std::vector<long> steps) {
  for (long k : steps)
    if (k < 1) throw Error("SceneEngine::setProblemDump", "step numbers >= 1", std::to_string(k));
  std::sort(steps.begin(), steps.end());
  dumpDirectory_ = std::move(directory);
  dumpSteps_ = std::move(steps);
}

// The FCLIB file of this step's problem when asked (vel_ holds v_free).
void SceneEngine::dumpIfAsked(const NsdRigidContacts& p) {
  const long step = steps_ + 1;
  if (p.n_contacts == 0 || !std::binary_search(dumpSteps_.begin(), dumpSteps_.end(), step)) return;
  pQW_.resize(3 * static_cast<std::size_t>(p.n_contacts));
  nsd_rigid_contacts_velocity(&p, vel_.data(), 1, pQW_.data());
  NsdReport report{};
  NsdMatrix* W = nullptr;
  if (nsd_rigid_contacts_assemble(&p, &W, &report) != NSD_OK)
    throw Error("SceneEngine problem dump", "an assembled W", report.message);
  NsdProblem problem{};
  problem.kind = NSD_KIND_FC3D;
  problem.fc = nsd_fc_create(3, p.n_contacts, W, pQW_.data(), pMu_.data());
  if (!problem.fc) {
    nsd_matrix_destroy(W);
    throw Error("SceneEngine problem dump", "memory for the problem", "out of memory");
  }
  char name[64];
  std::snprintf(name, sizeof name, "problem_%06ld.hdf5", step);
  const std::string path = dumpDirectory_.empty() ? std::string(name) : dumpDirectory_ + "/" + name;
  char title[96];
  std::snprintf(title, sizeof title, "nsdyn SceneEngine FrictionContact(3), step %ld", step);
  const NsdStatus status = nsd_write_fclib(
      path.c_str(), &problem, title, "written by nsdyn (SceneEngine::setProblemDump)", &report);
  nsd_problem_clear(&problem);
  if (status != NSD_OK)
    throw Error("SceneEngine problem dump", "a writable FCLIB file", path + ": " + report.message);
  dumped_.push_back(path);
}

void SceneEngine::solve() {
  const SceneContacts& cs = contacts_;
  const std::size_t n = cs.size();
  // 1. the active contacts, compact (key order kept)
  activeIndex_.clear();
  for (std::size_t c = 0; c < n; ++c)
    if (cs.active[c]) activeIndex_.push_back(static_cast<std::int32_t>(c));
  const std::size_t na = activeIndex_.size();
  pa_.resize(na);
  pb_.resize(na);
  pFrame_.resize(9 * na);
  pArmA_.resize(3 * na);
  pArmB_.resize(3 * na);
  pQ_.resize(3 * na);
  pMu_.resize(na);
  pR_.resize(3 * na);
  pU_.resize(3 * na);
  for (std::size_t a = 0; a < na; ++a) {
    const std::size_t c = static_cast<std::size_t>(activeIndex_[a]);
    const std::int32_t A = cs.bodyA[c], B = cs.bodyB[c];
    pa_[a] = bodies_.isStatic[static_cast<std::size_t>(A)] ? -1 : A;
    pb_[a] = bodies_.isStatic[static_cast<std::size_t>(B)] ? -1 : B;
    std::memcpy(&pFrame_[9 * a], &cs.frame[9 * c], 9 * sizeof(double));
    std::memcpy(&pArmA_[3 * a], &cs.armA[3 * c], 3 * sizeof(double));
    std::memcpy(&pArmB_[3 * a], &cs.armB[3 * c], 3 * sizeof(double));
    std::memcpy(&pR_[3 * a], &cs.impulse[3 * c], 3 * sizeof(double));
    pQ_[3 * a] = cs.restitution[c] * cs.velocityStart[3 * c] + cs.bias[c];
    pQ_[3 * a + 1] = pQ_[3 * a + 2] = 0.0;
    pMu_[a] = cs.mu[c];
  }
  NsdSolverOptions options = options_.solverOptions;
  options.warm_start = options_.contacts.warmStart ? 1 : 0;
  options.threads = options_.contacts.detection.threads;
  NsdReport report{};
  NsdStatus status = NSD_OK;
  // a part without contacts still takes part in a distributed solve (its collective sums)
  if (na > 0 || exchange_->size() > 1) {
    NsdRigidContacts p{};
    p.n_contacts = static_cast<int>(na);
    p.n_bodies = static_cast<int>(bodies_.size());
    p.body_a = pa_.data();
    p.body_b = pb_.data();
    p.frame = pFrame_.data();
    p.arm_a = pArmA_.data();
    p.arm_b = pArmB_.data();
    p.inv_mass = bodies_.invMass.data();
    p.inv_inertia = invInertiaWorld_.data();
    p.q = pQ_.data();
    p.mu = pMu_.data();
    std::pair<SceneExchange*, const BodyStore*> hooks{exchange_.get(), &bodies_};
    exchange_->beforeSolve(bodies_, pa_, pb_);
    exchange_->solveStart(bodies_, vel_.data());
    p.sweep_scale = exchange_->sweepScale();
    const bool parts = exchange_->size() > 1;
    bool applied = false;  // v = v_free + M^-1 J^T r already set
    if (parts) {
      p.user = &hooks;
      p.after_sweep = sweepHook;
      p.reduce_sum = sumHook;
    }
    dumpIfAsked(p);
    const bool fallback = !options_.fallback.empty() && options_.fallback != options_.solver;
    if (fallback) velFree_ = vel_;
    const std::string& name = options_.solver;
    if (name == "nsgs") {
      status = nsd_fc3d_nsgs_bodies(&p, vel_.data(), pR_.data(), pU_.data(), &options, &report);
    } else {
      // q_W = J v_free + q: the problem's free local velocity
      pQW_.resize(3 * na);
      nsd_rigid_contacts_velocity(&p, vel_.data(), 1, pQW_.data());
      if (name == "apgd") {
        ExchangedOperator op;
        op.exchange = exchange_.get();
        op.bodies = &bodies_;
        status = nsd_rigid_contacts_operator(&p, options.threads, &op.inner, &report);
        if (parts) {  // every part solves, or none
          double fault = status == NSD_OK ? 0.0 : 1.0;
          exchange_->reduceMax(&fault, 1);
          if (fault > 0.0 && status == NSD_OK) {
            nsd_delassus_factored_free(&op.inner);
            status = NSD_BAD_INPUT;
            std::snprintf(report.message, sizeof report.message, "%s",
                          "the problem of another part was rejected");
          }
        }
        if (status == NSD_OK) {
          NsdDelassus outer = op.inner;
          if (parts) {
            outer.user = &op;
            outer.apply_jt = ExchangedOperator::applyJt;
            outer.apply_minv = ExchangedOperator::applyMinv;
            outer.apply_j = ExchangedOperator::applyJ;
            outer.reduce_sum = ExchangedOperator::reduceSum;
            outer.reduce_max = ExchangedOperator::reduceMax;
          }
          // a part without contacts passes arrays, not NULL: Numerics's APGD sizes one of its
          // sums by q != NULL, so every part must agree on it
          double none[3] = {0.0, 0.0, 0.0};
          const auto at = [&none](std::vector<double>& x) { return x.empty() ? none : x.data(); };
          status = nsd_fc3d_apgd_operator(&outer, at(pQW_), at(pMu_), at(pR_), at(pU_), &options,
                                          &report);
          if (status != NSD_OK && status != NSD_BAD_INPUT && options.warm_start) {
            // the De Saxce fixed point can stall from a warm start that a cold start avoids
            const int first = report.iterations;
            const double seconds = report.seconds;
            std::fill(pR_.begin(), pR_.end(), 0.0);
            options.warm_start = 0;
            status = nsd_fc3d_apgd_operator(&outer, at(pQW_), at(pMu_), at(pR_), at(pU_), &options,
                                            &report);
            report.iterations += first;
            report.seconds += seconds;
            report_.coldRestart = true;
          }
          if (parts && status != NSD_BAD_INPUT) {
            // v = v_free + M^-1 J^T r with J^T r summed over the parts (afterTranspose)
            for (double& x : pR_)
              if (!std::isfinite(x)) x = 0.0;
            const std::size_t dof = 6 * bodies_.size();
            jtr_.resize(dof);
            dvr_.resize(dof);
            outer.apply_jt(outer.user, pR_.data(), jtr_.data());
            outer.apply_minv(outer.user, jtr_.data(), dvr_.data());
            for (std::size_t i = 0; i < dof; ++i) vel_[i] += dvr_[i];
            applied = true;
          }
          nsd_delassus_factored_free(&op.inner);
        }
      } else {
        status = solveAssembled(p, name, options, report);
      }
      // a non-finite answer is dropped; v = v_free + M^-1 J^T r
      bool finite = true;
      for (double x : pR_) finite = finite && std::isfinite(x);
      if (!finite) std::fill(pR_.begin(), pR_.end(), 0.0);
      if (status != NSD_BAD_INPUT && !applied)
        nsd_rigid_contacts_apply_jt_minv(&p, pR_.data(), vel_.data());
    }
    if (fallback && status != NSD_OK && status != NSD_BAD_INPUT) {
      // the first solver stopped short: the fallback on W, from its impulses when finite
      bool finite = true;
      for (double x : pR_) finite = finite && std::isfinite(x);
      if (!finite) std::fill(pR_.begin(), pR_.end(), 0.0);
      const int first = report.iterations;
      const double seconds = report.seconds;
      vel_ = velFree_;
      pQW_.resize(3 * na);
      nsd_rigid_contacts_velocity(&p, vel_.data(), 1, pQW_.data());
      NsdSolverOptions again = options;
      again.warm_start = finite ? 1 : 0;
      status = solveAssembled(p, options_.fallback, again, report);
      report.iterations += first;
      report.seconds += seconds;
      report_.fallback = true;
      bool ok = true;
      for (double x : pR_) ok = ok && std::isfinite(x);
      if (!ok) std::fill(pR_.begin(), pR_.end(), 0.0);
      if (status != NSD_BAD_INPUT) nsd_rigid_contacts_apply_jt_minv(&p, pR_.data(), vel_.data());
    }
    if (status == NSD_BAD_INPUT)
      throw Error("SceneEngine solve (" + name + ")", "a valid problem", report.message);
  }
  // 2. impulses back to the contacts (0 for inactive ones)
  SceneContacts& out = contacts_;
  for (std::size_t a = 0; a < na; ++a) {
    const std::size_t c = static_cast<std::size_t>(activeIndex_[a]);
    for (int k = 0; k < 3; ++k)
      out.impulse[3 * c + static_cast<std::size_t>(k)] = pR_[3 * a + static_cast<std::size_t>(k)];
  }
  for (std::size_t c = 0; c < n; ++c)
    if (!out.active[c]) out.impulse[3 * c] = out.impulse[3 * c + 1] = out.impulse[3 * c + 2] = 0.0;
  report_.solver = report;
  report_.status = status;
}

}  // namespace nsdyn
