// SceneEngine, phase 4: the active contacts' friction-contact problem u = J v + q,
// v = v_free + M^-1 J^T r, handed to Numerics without Jacobian blocks and without a copy
// (nsd_bodies.h, the active contacts picked in place by an index): NSGS in body-velocity
// form, APGD on the operator, or any FC3D solver on an assembled W.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "SceneEngineArrays.hpp"
#include "mechanics/store/ResponseCoupling.hpp"
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

/// The operator with the coupled systems' response: M⁻¹ v, then (A⁻¹ − M⁻¹) v on their
/// touched bodies (ResponseCoupling::addResponse).
struct CoupledOperator {
  NsdDelassus inner{};
  const store::ResponseCoupling* coupling = nullptr;
  static void applyJt(void* user, const double* x, double* v) {
    auto* self = static_cast<CoupledOperator*>(user);
    self->inner.apply_jt(self->inner.user, x, v);
  }
  static void applyMinv(void* user, const double* v, double* w) {
    auto* self = static_cast<CoupledOperator*>(user);
    self->inner.apply_minv(self->inner.user, v, w);
    self->coupling->addResponse(v, w);
  }
  static void applyJ(void* user, const double* w, double* y) {
    auto* self = static_cast<CoupledOperator*>(user);
    self->inner.apply_j(self->inner.user, w, y);
  }
};

void sweepHook(void* user, double* v) {
  auto* self = static_cast<std::pair<SceneExchange*, const BodyStore*>*>(user);
  self->first->afterSweep(*self->second, v);
}
void stageHook(void* user, double* v, int stage) {
  auto* self = static_cast<std::pair<SceneExchange*, const BodyStore*>*>(user);
  self->first->afterStage(*self->second, v, stage);
}
void sumHook(void* user, double* values, int count) {
  static_cast<std::pair<SceneExchange*, const BodyStore*>*>(user)->first->reduceSum(values, count);
}
void maxHook(void* user, double* values, int count) {
  static_cast<std::pair<SceneExchange*, const BodyStore*>*>(user)->first->reduceMax(values, count);
}

}  // namespace

// q_n = e u_n,k + bias of contact c (q_t = 0).
double SceneEngine::normalOffset(std::size_t c) const {
  return contacts_.restitution[c] * contacts_.velocityStart[3 * c] + contacts_.bias[c];
}

// qw[3 n_contacts] = J v + q, v = vel_ (q from the contacts, not from p.q: qw may be where
// p.q points). The same bits as nsd_rigid_contacts_velocity with q = (q_n, 0, 0).
void SceneEngine::freeLocalVelocity(const NsdRigidContacts& p, double* qw) const {
  NsdRigidContacts j = p;
  j.q = nullptr;
  nsd_rigid_contacts_velocity(&j, vel_.data(), 0, qw);
  for (std::size_t a = 0; a < static_cast<std::size_t>(p.n_contacts); ++a) {
    qw[3 * a] += normalOffset(static_cast<std::size_t>(activeIndex_[a]));
    qw[3 * a + 1] += 0.0;
    qw[3 * a + 2] += 0.0;
  }
}

// The contacts as the solve found them, but with the answer: the impulses of the @p active
// first ones (compact at the front of impulse) back to their entries, 0 for the inactive
// contacts; velocity's front (the solve's scratch) back to u_k.
void SceneEngine::restoreContacts(std::size_t active) {
  SceneContacts& cs = contacts_;
  if (staged_) {  // the stage order back to the key order first
    stageR_.assign(cs.impulse.begin(),
                   cs.impulse.begin() + static_cast<std::ptrdiff_t>(3 * active));
    for (std::size_t pos = 0; pos < active; ++pos)
      std::memcpy(&cs.impulse[3 * static_cast<std::size_t>(stageOrder_[pos])], &stageR_[3 * pos],
                  3 * sizeof(double));
    std::copy(keyIndex_.begin(), keyIndex_.end(), activeIndex_.begin());
    staged_ = false;
  }
  // backwards: entry c >= a, so a slot is read before anything is written over it
  for (std::size_t a = active; a-- > 0;) {
    const std::size_t c = static_cast<std::size_t>(activeIndex_[a]);
    if (c != a) std::memcpy(&cs.impulse[3 * c], &cs.impulse[3 * a], 3 * sizeof(double));
  }
  for (std::size_t c = 0; c < cs.size(); ++c)
    if (!cs.active[c]) cs.impulse[3 * c] = cs.impulse[3 * c + 1] = cs.impulse[3 * c + 2] = 0.0;
  std::copy(cs.velocityStart.begin(),
            cs.velocityStart.begin() + static_cast<std::ptrdiff_t>(3 * active),
            cs.velocity.begin());
}

// W = J M⁻¹ Jᵀ sparse-block, with the coupled systems' response when active.
NsdStatus SceneEngine::assemble(const NsdRigidContacts& p, NsdMatrix** W, NsdReport& report) {
  NsdStatus status = nsd_rigid_contacts_assemble(&p, W, &report);
  if (status != NSD_OK || !coupling_ || !coupling_->active()) return status;
  NsdMatrix* lumped = *W;
  *W = coupling_->corrected(p, lumped);
  nsd_matrix_destroy(lumped);
  if (!*W)
    throw Error("SceneEngine", "W of " + std::to_string(p.n_contacts) + " coupled contacts",
                "out of memory");
  return NSD_OK;
}

// The problem on W assembled sparse-block (q_W = @p qw, μ = @p mu), solved by the FC3D
// solver @p name for @p r and @p u.
NsdStatus SceneEngine::solveAssembled(const NsdRigidContacts& p, const std::string& name,
                                      double* qw, double* mu, double* r, double* u,
                                      NsdSolverOptions options, NsdReport& report) {
  NsdMatrix* W = nullptr;
  NsdStatus status = assemble(p, &W, report);
  if (status != NSD_OK) return status;
  NsdProblem problem{};
  problem.kind = NSD_KIND_FC3D;
  problem.fc = nsd_fc_create(3, p.n_contacts, W, qw, mu);
  if (!problem.fc) {
    nsd_matrix_destroy(W);
    throw Error("SceneEngine",
                "a friction problem of " + std::to_string(p.n_contacts) + " contacts",
                "out of memory");
  }
  nsd_options_restrict(&options, nsd_solver_find(NSD_KIND_FC3D, name.c_str()));
  status = nsd_solve(&problem, name.c_str(), r, u, &options, &report);
  nsd_problem_clear(&problem);
  return status;
}

// NSGS over parts in stages: the problem's contacts (activeIndex_) and their warm start (r,
// compact) reordered stage by stage, key order within a stage (a stable counting sort), and
// p's stages set; restoreContacts puts the key order back.
void SceneEngine::orderByStage(NsdRigidContacts& p, double* r) {
  const int stages = exchange_->stages();
  const std::size_t na = activeIndex_.size();
  stageOf_.resize(na);
  exchange_->contactStages(bodies_, contacts_, activeIndex_.data(), na, stageOf_.data());
  stageEnd_.assign(static_cast<std::size_t>(stages), 0);
  for (std::size_t a = 0; a < na; ++a) {
    const std::int32_t s = stageOf_[a];
    if (s < 0 || s >= stages)
      throw Error("SceneEngine solve (nsgs)",
                  "a stage in [0, " + std::to_string(stages) + ") for contact entry " +
                      std::to_string(activeIndex_[a]),
                  std::to_string(s));
    ++stageEnd_[static_cast<std::size_t>(s)];
  }
  std::int32_t end = 0;
  for (std::int32_t& e : stageEnd_) {
    end += e;
    e = end - e;  // the start of the stage for now
  }
  stageOrder_.resize(na);
  for (std::size_t a = 0; a < na; ++a)
    stageOrder_[static_cast<std::size_t>(stageEnd_[static_cast<std::size_t>(stageOf_[a])]++)] =
        static_cast<std::int32_t>(a);
  keyIndex_.assign(activeIndex_.begin(), activeIndex_.end());
  stageR_.assign(r, r + 3 * na);
  for (std::size_t pos = 0; pos < na; ++pos) {
    const std::size_t a = static_cast<std::size_t>(stageOrder_[pos]);
    activeIndex_[pos] = keyIndex_[a];
    std::memcpy(r + 3 * pos, &stageR_[3 * a], 3 * sizeof(double));
  }
  staged_ = true;
  p.n_stages = stages;
  p.stage_end = stageEnd_.data();
  p.after_stage = stageHook;
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
  const std::size_t na = static_cast<std::size_t>(p.n_contacts);
  std::vector<double> qw(3 * na), mu(na);
  freeLocalVelocity(p, qw.data());
  for (std::size_t a = 0; a < na; ++a)
    mu[a] = contacts_.mu[static_cast<std::size_t>(activeIndex_[a])];
  NsdReport report{};
  NsdMatrix* W = nullptr;
  if (assemble(p, &W, report) != NSD_OK)
    throw Error("SceneEngine problem dump", "an assembled W", report.message);
  NsdProblem problem{};
  problem.kind = NSD_KIND_FC3D;
  problem.fc = nsd_fc_create(3, p.n_contacts, W, qw.data(), mu.data());
  if (!problem.fc) {
    nsd_matrix_destroy(W);
    throw Error("SceneEngine problem dump", "memory for the problem", "out of memory");
  }
  writeDump(problem, step, "", "FrictionContact(3)");
  // the same step as a global problem (M, H, the bodies' velocities as unknowns), beside it
  problem.kind = NSD_KIND_GFC3D;
  if (nsd_rigid_contacts_global(&p, vel_.data(), &problem.gfc, &report) != NSD_OK)
    throw Error("SceneEngine problem dump", "the global problem of the step", report.message);
  writeDump(problem, step, "_global", "GlobalFrictionContact(3)");
}

// DIR/problem_NNNNNN<suffix>.hdf5 from @p problem (cleared), listed in dumpedFiles().
void SceneEngine::writeDump(NsdProblem& problem, long step, const char* suffix, const char* kind) {
  char name[64];
  std::snprintf(name, sizeof name, "problem_%06ld%s.hdf5", step, suffix);
  const std::string path = dumpDirectory_.empty() ? std::string(name) : dumpDirectory_ + "/" + name;
  char title[96];
  std::snprintf(title, sizeof title, "nsdyn SceneEngine %s, step %ld", kind, step);
  NsdReport report{};
  const NsdStatus status = nsd_write_fclib(
      path.c_str(), &problem, title, "written by nsdyn (SceneEngine::setProblemDump)", &report);
  nsd_problem_clear(&problem);
  if (status != NSD_OK)
    throw Error("SceneEngine problem dump", "a writable FCLIB file", path + ": " + report.message);
  dumped_.push_back(path);
}

void SceneEngine::applyImpulses(const NsdRigidContacts& p, const double* r) {
  nsd_rigid_contacts_apply_jt_minv(&p, r, vel_.data());
  if (coupling_ && coupling_->active()) coupling_->correct(*this, p, r, vel_.data());
}

void SceneEngine::solve() {
  SceneContacts& cs = contacts_;
  const std::size_t n = cs.size();
  // 1. the active contacts in place (key order kept): their entries, their impulses (the
  //    warm start) moved to the front of cs.impulse as the compact r; cs.velocity's front
  //    is the scratch of q (NSGS) or q_W (the other solvers) until restoreContacts
  store::growTo(activeIndex_, n);
  activeIndex_.clear();
  for (std::size_t c = 0; c < n; ++c)
    if (cs.active[c]) activeIndex_.push_back(static_cast<std::int32_t>(c));
  const std::size_t na = activeIndex_.size();
  for (std::size_t a = 0; a < na; ++a) {
    const std::size_t c = static_cast<std::size_t>(activeIndex_[a]);
    if (c != a) std::memcpy(&cs.impulse[3 * a], &cs.impulse[3 * c], 3 * sizeof(double));
  }
  // the contacts put back on every exit, a thrown error included
  struct Restore {
    SceneEngine* engine;
    std::size_t active;
    ~Restore() { engine->restoreContacts(active); }
  } restore{this, na};
  double none[3] = {0.0, 0.0, 0.0};  // a part without contacts passes arrays, not NULL
  double* const r = na > 0 ? cs.impulse.data() : none;
  double* const scratch = na > 0 ? cs.velocity.data() : none;
  NsdSolverOptions options = options_.solverOptions;
  options.warm_start = options_.contacts.warmStart ? 1 : 0;
  options.threads = options_.contacts.detection.threads;
  NsdReport report{};
  NsdStatus status = NSD_OK;
  // a part without contacts still takes part in a distributed solve (its collective sums)
  if (na > 0 || exchange_->size() > 1) {
    NsdRigidContacts p =
        store::contactsInPlace(bodies_, cs, invInertiaWorld_, activeIndex_, cs.mu.data());
    std::pair<SceneExchange*, const BodyStore*> hooks{exchange_.get(), &bodies_};
    exchange_->beforeSolve(bodies_, cs);
    exchange_->solveStart(bodies_, vel_.data());
    const bool parts = exchange_->size() > 1;
    bool applied = false;  // v = v_free + M^-1 J^T r already set
    if (parts) {
      p.user = &hooks;
      p.after_sweep = sweepHook;
      p.reduce_sum = sumHook;
      p.reduce_max = maxHook;
    }
    // systems coupled within the step (SceneSystem::coupled): NSGS on W assembled with
    // their response, APGD on the operator with it
    const bool coupled = coupling_ && coupling_->begin(*this, p);
    dumpIfAsked(p);
    // budget mode: the budget is fixed, no second solver and no cold retry
    const bool budget = options_.solveMode == SolveMode::Budget;
    const bool fallback =
        !budget && !options_.fallback.empty() && options_.fallback != options_.solver;
    if (fallback) velFree_ = vel_;
    // the compact μ and u of APGD and the assembled-W solvers, for this solve only
    std::vector<double> muCompact, uCompact;
    const auto compact = [&]() {
      muCompact.resize(na);
      uCompact.resize(3 * na);
      for (std::size_t a = 0; a < na; ++a)
        muCompact[a] = cs.mu[static_cast<std::size_t>(activeIndex_[a])];
    };
    const std::string& name = options_.solver;
    // "auto": the body-velocity NSGS with Anderson acceleration (NSD_AUTO_ANDERSON unless
    // the options give a memory); coupled systems: Numerics's auto on the assembled W
    const bool automatic = name == "auto";
    if ((name == "nsgs" || automatic) && !coupled) {
      if (parts && exchange_->stages() > 1) orderByStage(p, r);  // before q, read in its order
      for (std::size_t a = 0; a < na; ++a) {
        scratch[3 * a] = normalOffset(static_cast<std::size_t>(activeIndex_[a]));
        scratch[3 * a + 1] = scratch[3 * a + 2] = 0.0;
      }
      p.q = scratch;
      NsdSolverOptions sweeps = options;
      if (automatic && sweeps.nsgs.anderson == 0) sweeps.nsgs.anderson = NSD_AUTO_ANDERSON;
      status = nsd_fc3d_nsgs_bodies(&p, vel_.data(), r, nullptr, &sweeps, &report);
      if (automatic) {
        const std::string solver = "auto:" + std::string(report.solver);
        std::snprintf(report.solver, sizeof report.solver, "%s", solver.c_str());
      }
    } else {
      // q_W = J v_free + q: the problem's free local velocity
      freeLocalVelocity(p, scratch);
      compact();
      double* const mu = na > 0 ? muCompact.data() : none;
      double* const u = na > 0 ? uCompact.data() : none;
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
        CoupledOperator withResponse;
        if (status == NSD_OK) {
          NsdDelassus outer = op.inner;
          if (coupled) {
            withResponse.inner = op.inner;
            withResponse.coupling = coupling_.get();
            outer.user = &withResponse;
            outer.apply_jt = CoupledOperator::applyJt;
            outer.apply_minv = CoupledOperator::applyMinv;
            outer.apply_j = CoupledOperator::applyJ;
          }
          if (parts) {
            outer.user = &op;
            outer.apply_jt = ExchangedOperator::applyJt;
            outer.apply_minv = ExchangedOperator::applyMinv;
            outer.apply_j = ExchangedOperator::applyJ;
            outer.reduce_sum = ExchangedOperator::reduceSum;
            outer.reduce_max = ExchangedOperator::reduceMax;
          }
          // every part passes arrays, not NULL: Numerics's APGD sizes one of its sums by
          // q != NULL, so every part must agree on it
          status = nsd_fc3d_apgd_operator(&outer, scratch, mu, r, u, &options, &report);
          if (status != NSD_OK && status != NSD_BAD_INPUT && options.warm_start && !budget &&
              report.iterations < options.max_iterations) {
            // the De Saxce fixed point can stall from a warm start that a cold start avoids:
            // a retry from 0 within what is left of the budget (APGD also retries cold
            // inside its budget)
            const int first = report.iterations;
            const double seconds = report.seconds;
            std::fill(r, r + 3 * na, 0.0);
            options.warm_start = 0;
            options.max_iterations -= first;
            status = nsd_fc3d_apgd_operator(&outer, scratch, mu, r, u, &options, &report);
            report.iterations += first;
            report.seconds += seconds;
            options.max_iterations += first;  // the fallback's budget as before
            report_.coldRestart = true;
          }
          if (parts && status != NSD_BAD_INPUT) {
            // v = v_free + M^-1 J^T r with J^T r summed over the parts (afterTranspose)
            for (std::size_t i = 0; i < 3 * na; ++i)
              if (!std::isfinite(r[i])) r[i] = 0.0;
            const std::size_t dof = 6 * bodies_.size();
            jtr_.resize(dof);
            dvr_.resize(dof);
            outer.apply_jt(outer.user, r, jtr_.data());
            outer.apply_minv(outer.user, jtr_.data(), dvr_.data());
            for (std::size_t i = 0; i < dof; ++i) vel_[i] += dvr_[i];
            applied = true;
          }
          nsd_delassus_factored_free(&op.inner);
        }
      } else {
        status = solveAssembled(p, name, scratch, mu, r, u, options, report);
      }
      // a non-finite answer is dropped; v = v_free + M^-1 J^T r
      bool finite = true;
      for (std::size_t i = 0; i < 3 * na; ++i) finite = finite && std::isfinite(r[i]);
      if (!finite) std::fill(r, r + 3 * na, 0.0);
      if (status != NSD_BAD_INPUT && !applied) applyImpulses(p, r);
    }
    if (fallback && status != NSD_OK && status != NSD_BAD_INPUT) {
      // the first solver stopped short: the fallback on W, from its impulses when finite
      bool finite = true;
      for (std::size_t i = 0; i < 3 * na; ++i) finite = finite && std::isfinite(r[i]);
      if (!finite) std::fill(r, r + 3 * na, 0.0);
      const int first = report.iterations;
      const double seconds = report.seconds;
      vel_ = velFree_;
      freeLocalVelocity(p, scratch);
      compact();
      NsdSolverOptions again = options;
      again.warm_start = finite ? 1 : 0;
      // its bound: fallbackTimeFactor times the first solver's time (at least 10 ms, at most
      // time_limit when set), at most fallbackIterations iterations
      if (options_.fallbackTimeFactor > 0.0) {
        const double bound = std::max(options_.fallbackTimeFactor * seconds, 0.01);
        again.time_limit = again.time_limit > 0.0 ? std::min(again.time_limit, bound) : bound;
      }
      if (options_.fallbackIterations > 0)
        again.max_iterations = std::min(again.max_iterations, options_.fallbackIterations);
      status = solveAssembled(p, options_.fallback, scratch, na > 0 ? muCompact.data() : none, r,
                              na > 0 ? uCompact.data() : none, again, report);
      report_.fallbackIterations = report.iterations;
      report_.fallbackSeconds = report.seconds;
      report.iterations += first;
      report.seconds += seconds;
      report_.fallback = true;
      bool ok = true;
      for (std::size_t i = 0; i < 3 * na; ++i) ok = ok && std::isfinite(r[i]);
      if (!ok) std::fill(r, r + 3 * na, 0.0);
      if (status != NSD_BAD_INPUT) applyImpulses(p, r);
    }
    if (status == NSD_BAD_INPUT)
      throw Error("SceneEngine solve (" + name + ")", "a valid problem", report.message);
  }
  // 2. impulses back to the contacts (0 for inactive ones): restore's destructor
  report_.solver = report;
  // a solve stopped at its budget above tolerance: accepted in budget mode
  report_.aboveTolerance = status == NSD_MAX_ITERATIONS;
  report_.status =
      report_.aboveTolerance && options_.solveMode == SolveMode::Budget ? NSD_OK : status;
}

}  // namespace nsdyn
