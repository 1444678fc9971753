// CvodeOSI: smooth integration of Lagrangian systems with SUNDIALS CVODE
// (Adams or BDF) and root finding, for the event-driven strategy.
#include "nsdyn/CvodeOSI.hpp"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>

#include "nsdyn/Error.hpp"
#include "nsdyn/LagrangianDS.hpp"

namespace nsdyn {

/// The CVODE objects, released in reverse order of creation.
struct CvodeOSI::Cvode {
  SUNContext context = nullptr;
  void* memory = nullptr;
  N_Vector x = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver linearSolver = nullptr;
  SUNNonlinearSolver nonlinearSolver = nullptr;
  int rootsRegistered = -1;  // number of root functions given to CVodeRootInit
};

namespace {

/// The system as a LagrangianDS (accepts() let only those in).
LagrangianDS& lagrangian(const SP::DynamicalSystem& ds) {
  auto* l = dynamic_cast<LagrangianDS*>(ds.get());
  if (!l) throw Error("CvodeOSI", "a LagrangianDS", ds->name());
  return *l;
}

int rhsTrampoline(sunrealtype t, N_Vector x, N_Vector xdot, void* data) {
  return static_cast<CvodeOSI*>(data)->rhsCallback(t, N_VGetArrayPointer(x),
                                                   N_VGetArrayPointer(xdot));
}

int rootTrampoline(sunrealtype t, N_Vector x, sunrealtype* g, void* data) {
  return static_cast<CvodeOSI*>(data)->rootCallback(t, N_VGetArrayPointer(x), g);
}

// CVODE reports errors through this handler instead of printing them.
void errorTrampoline(int /*code*/, const char* module, const char* function, char* msg,
                     void* data) {
  static_cast<CvodeOSI*>(data)->recordMessage(std::string(module) + "::" + function + ": " + msg);
}

std::string flagName(int flag) {
  char* name = CVodeGetReturnFlagName(flag);
  std::string s = name ? name : "unknown CVODE flag";
  std::free(name);
  return s;
}

void check(int flag, const char* call) {
  if (flag < 0) throw Error("CvodeOSI", std::string(call) + " to succeed", flagName(flag));
}

std::string number(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

}  // namespace

CvodeOSI::CvodeOSI() : CvodeOSI(Options()) {}

CvodeOSI::CvodeOSI(Options options) : OneStepIntegrator(1.0), options_(options) {}

CvodeOSI::~CvodeOSI() {
  destroyMemory();
}

bool CvodeOSI::accepts(const DynamicalSystem& ds) const {
  return dynamic_cast<const LagrangianDS*>(&ds) != nullptr;
}

void CvodeOSI::destroyMemory() {
  if (!cv_) return;
  if (cv_->memory) CVodeFree(&cv_->memory);
  if (cv_->nonlinearSolver) SUNNonlinSolFree(cv_->nonlinearSolver);
  if (cv_->linearSolver) SUNLinSolFree(cv_->linearSolver);
  if (cv_->matrix) SUNMatDestroy(cv_->matrix);
  if (cv_->x) N_VDestroy(cv_->x);
  if (cv_->context) SUNContext_Free(&cv_->context);
  cv_.reset();
}

void CvodeOSI::initialize(const std::vector<SP::DynamicalSystem>& systems, double t0, double h) {
  OneStepIntegrator::initialize(systems, t0, h);
  if (!(options_.rtol >= 0.0))
    throw Error("CvodeOSI", "rtol >= 0", "rtol = " + number(options_.rtol));
  if (!(options_.atol > 0.0))
    throw Error("CvodeOSI", "atol > 0", "atol = " + number(options_.atol));
  if (options_.maxStepsPerEvent <= 0)
    throw Error("CvodeOSI", "maxStepsPerEvent > 0", std::to_string(options_.maxStepsPerEvent));
  if (!(options_.maxStep >= 0.0)) throw Error("CvodeOSI", "maxStep >= 0", number(options_.maxStep));

  // 1. state layout x = (q1, v1, q2, v2, ...); W = M of each system
  layout_.clear();
  aFree_.clear();
  a_.clear();
  r_.clear();
  size_ = 0;
  for (const auto& ds : systems_) {
    const std::size_t n = ds->dimension();
    layout_[ds->number()] = Layout{size_, n};
    size_ += 2 * n;
    W_[ds->number()] = lagrangian(ds).mass();
    aFree_[ds->number()] = SiconosVector(n);
    a_[ds->number()] = SiconosVector(n);
    r_[ds->number()] = SiconosVector(n);
  }
  rhsEvaluations_ = rootEvaluations_ = stepsBefore_ = 0;
  message_.clear();
  createMemory(t0);
}

void CvodeOSI::createMemory(double t) {
  destroyMemory();
  cv_ = std::make_unique<Cvode>();
  check(SUNContext_Create(nullptr, &cv_->context), "SUNContext_Create");
  const sunindextype n = static_cast<sunindextype>(size_ > 0 ? size_ : 1);
  cv_->x = N_VNew_Serial(n, cv_->context);
  if (!cv_->x) throw Error("CvodeOSI", "a CVODE state vector", "allocation failure");
  N_VConst(0.0, cv_->x);
  gather(N_VGetArrayPointer(cv_->x));

  // 2. CVODE memory: method, tolerances, limits, error handler
  const bool adams = options_.method == Method::Adams;
  cv_->memory = CVodeCreate(adams ? CV_ADAMS : CV_BDF, cv_->context);
  if (!cv_->memory) throw Error("CvodeOSI", "CVODE memory", "allocation failure");
  check(CVodeSetErrHandlerFn(cv_->memory, errorTrampoline, this), "CVodeSetErrHandlerFn");
  check(CVodeInit(cv_->memory, rhsTrampoline, t, cv_->x), "CVodeInit");
  check(CVodeSetUserData(cv_->memory, this), "CVodeSetUserData");
  check(CVodeSStolerances(cv_->memory, options_.rtol, options_.atol), "CVodeSStolerances");
  check(CVodeSetMaxNumSteps(cv_->memory, options_.maxStepsPerEvent), "CVodeSetMaxNumSteps");
  if (options_.maxStep > 0.0)
    check(CVodeSetMaxStep(cv_->memory, options_.maxStep), "CVodeSetMaxStep");
  if (options_.maxOrder > 0)
    check(CVodeSetMaxOrd(cv_->memory, options_.maxOrder), "CVodeSetMaxOrd");
  check(CVodeSetNoInactiveRootWarn(cv_->memory), "CVodeSetNoInactiveRootWarn");

  // 3. nonlinear solver: fixed point for Adams, Newton + dense LU for BDF
  if (adams) {
    cv_->nonlinearSolver = SUNNonlinSol_FixedPoint(cv_->x, 0, cv_->context);
    if (!cv_->nonlinearSolver)
      throw Error("CvodeOSI", "a fixed-point solver", "allocation failure");
    check(CVodeSetNonlinearSolver(cv_->memory, cv_->nonlinearSolver), "CVodeSetNonlinearSolver");
  } else {
    cv_->matrix = SUNDenseMatrix(n, n, cv_->context);
    cv_->linearSolver = SUNLinSol_Dense(cv_->x, cv_->matrix, cv_->context);
    if (!cv_->matrix || !cv_->linearSolver)
      throw Error("CvodeOSI", "a dense linear solver", "allocation failure");
    check(CVodeSetLinearSolver(cv_->memory, cv_->linearSolver, cv_->matrix),
          "CVodeSetLinearSolver");
  }
  cv_->rootsRegistered = -1;
  tReached_ = t;
}

void CvodeOSI::bind(ContactForceFunction forces, RootFunction roots, int numberOfRoots) {
  forces_ = std::move(forces);
  roots_ = std::move(roots);
  numberOfRoots_ = numberOfRoots;
  rootsFound_.assign(static_cast<std::size_t>(numberOfRoots), 0);
}

void CvodeOSI::computeFreeState(double /*tk*/, double /*tk1*/) {
  throw Error("CvodeOSI", "an EventDriven simulation (it integrates between events)",
              "a time-stepping step (use MoreauJeanOSI with TimeStepping)");
}

void CvodeOSI::updateState(double /*tk1*/) {
  throw Error("CvodeOSI", "an EventDriven simulation (it integrates between events)",
              "a time-stepping update (use MoreauJeanOSI with TimeStepping)");
}

SiconosVector CvodeOSI::computeFreeOutput(const UnitaryRelation& ur, double /*tk1*/) const {
  // G v at the current state (rows of ur)
  return ur.jacobianRows() * ur.interaction().gatherVelocity();
}

SimpleMatrix CvodeOSI::computeDelassusBlock(const UnitaryRelation& a, const UnitaryRelation& b,
                                            const DynamicalSystem& ds, double /*tk1*/) const {
  // G_a M^-1 G_b^T restricted to the columns of ds
  const std::size_t n = ds.dimension();
  const SimpleMatrix Ga = a.jacobianRows().block(0, a.interaction().offsetOf(ds), a.size(), n);
  const SimpleMatrix Gb = b.jacobianRows().block(0, b.interaction().offsetOf(ds), b.size(), n);
  return Ga * W(ds).solve(Gb.transpose());
}

void CvodeOSI::scatter(const double* x) {
  for (const auto& dsp : systems_) {
    const Layout& l = layout_.at(dsp->number());
    LagrangianDS& ds = lagrangian(dsp);
    SiconosVector& q = ds.qMutable();
    SiconosVector& v = ds.velocityMutable();
    for (std::size_t i = 0; i < l.n; ++i) {
      q(i) = x[l.offset + i];
      v(i) = x[l.offset + l.n + i];
    }
  }
}

void CvodeOSI::gather(double* x) const {
  for (const auto& dsp : systems_) {
    const Layout& l = layout_.at(dsp->number());
    const LagrangianDS& ds = lagrangian(dsp);
    for (std::size_t i = 0; i < l.n; ++i) {
      x[l.offset + i] = ds.q()(i);
      x[l.offset + l.n + i] = ds.velocity()(i);
    }
  }
}

void CvodeOSI::computeAccelerations(double t) {
  // 1. free accelerations M(q)^-1 (F_ext(t) - F_int(q, v, t)); W = M(q)
  for (const auto& dsp : systems_) {
    LagrangianDS& ds = lagrangian(dsp);
    if (!ds.isTimeInvariant()) {
      ds.computeMass(ds.q());
      W_[ds.number()] = ds.mass();
    }
    SiconosVector force = ds.computeFExt(t);
    force -= ds.computeFInt(ds.q(), ds.velocity(), t);
    aFree_[ds.number()] = W_.at(ds.number()).solve(force);
    r_[ds.number()].zero();
  }
  // 2. contact forces r = G^T lambda(2) from the simulation
  if (forces_) forces_(t);
  // 3. accelerations M^-1 (F + r)
  for (const auto& dsp : systems_) {
    SiconosVector a = aFree_.at(dsp->number());
    const SiconosVector& r = r_.at(dsp->number());
    if (r.normInf() > 0.0) a += W_.at(dsp->number()).solve(r);
    a_[dsp->number()] = std::move(a);
  }
}

int CvodeOSI::rhsCallback(double t, const double* x, double* xdot) {
  // no exception may cross CVODE (C): a failure is recorded and ends the integration
  ++rhsEvaluations_;
  try {
    scatter(x);
    computeAccelerations(t);
  } catch (const std::exception& err) {
    message_ = std::string("right-hand side at t = ") + number(t) + ": " + err.what();
    return -1;
  }
  // xdot = (v, a) per system; a non-finite value asks CVODE for a smaller step
  bool finite = true;
  for (const auto& dsp : systems_) {
    const Layout& l = layout_.at(dsp->number());
    const SiconosVector& a = a_.at(dsp->number());
    for (std::size_t i = 0; i < l.n; ++i) {
      xdot[l.offset + i] = x[l.offset + l.n + i];
      xdot[l.offset + l.n + i] = a(i);
      finite = finite && std::isfinite(a(i)) && std::isfinite(x[l.offset + l.n + i]);
    }
  }
  if (!finite) message_ = "right-hand side not finite at t = " + number(t);
  return finite ? 0 : 1;
}

int CvodeOSI::rootCallback(double t, const double* x, double* g) {
  ++rootEvaluations_;
  try {
    scatter(x);
    computeAccelerations(t);
    if (roots_) roots_(t, g);
  } catch (const std::exception& err) {
    message_ = std::string("root functions at t = ") + number(t) + ": " + err.what();
    return -1;
  }
  return 0;
}

void CvodeOSI::shiftState(double delta) {
  // second-order Taylor step along the smooth trajectory: q += v d + a d^2 / 2, v += a d
  for (const auto& dsp : systems_) {
    LagrangianDS& ds = lagrangian(dsp);
    const SiconosVector& a = a_.at(ds.number());
    SiconosVector& q = ds.qMutable();
    SiconosVector& v = ds.velocityMutable();
    for (std::size_t i = 0; i < q.size(); ++i) {
      q(i) += delta * v(i) + 0.5 * delta * delta * a(i);
      v(i) += delta * a(i);
    }
  }
  tReached_ += delta;
  computeAccelerations(tReached_);
}

void CvodeOSI::reset(double t) {
  if (!cv_) throw Error("CvodeOSI::reset", "initialize() called", "not initialised");
  stepsBefore_ = numberOfSteps();
  gather(N_VGetArrayPointer(cv_->x));
  check(CVodeReInit(cv_->memory, t, cv_->x), "CVodeReInit");
  // root functions, all detected only when decreasing through 0
  if (cv_->rootsRegistered != numberOfRoots_) {
    check(CVodeRootInit(cv_->memory, numberOfRoots_, numberOfRoots_ > 0 ? rootTrampoline : nullptr),
          "CVodeRootInit");
    cv_->rootsRegistered = numberOfRoots_;
  }
  if (numberOfRoots_ > 0) {
    std::vector<int> direction(static_cast<std::size_t>(numberOfRoots_), -1);
    check(CVodeSetRootDirection(cv_->memory, direction.data()), "CVodeSetRootDirection");
  }
  rootsFound_.assign(static_cast<std::size_t>(numberOfRoots_), 0);
  tReached_ = t;
  message_.clear();
}

CvodeOSI::Outcome CvodeOSI::integrate(double tout, double tstop) {
  if (!cv_) throw Error("CvodeOSI::integrate", "initialize() called", "not initialised");
  std::fill(rootsFound_.begin(), rootsFound_.end(), 0);
  int flag = CVodeSetStopTime(cv_->memory, tstop);
  double tret = tReached_;
  if (flag >= 0) flag = CVode(cv_->memory, tout, cv_->x, &tret, CV_NORMAL);
  if (flag < 0) {
    message_ = flagName(flag) + (message_.empty() ? "" : " (" + message_ + ")");
    // the systems keep the last state reached
    scatter(N_VGetArrayPointer(cv_->x));
    return Outcome::Failed;
  }
  tReached_ = tret;
  scatter(N_VGetArrayPointer(cv_->x));
  computeAccelerations(tret);
  if (flag == CV_ROOT_RETURN) {
    if (numberOfRoots_ > 0)
      check(CVodeGetRootInfo(cv_->memory, rootsFound_.data()), "CVodeGetRootInfo");
    return Outcome::Root;
  }
  return Outcome::ReachedTime;
}

long CvodeOSI::numberOfSteps() const {
  long steps = 0;
  if (cv_ && cv_->memory) CVodeGetNumSteps(cv_->memory, &steps);
  return stepsBefore_ + steps;
}

const SiconosVector& CvodeOSI::perSystem(const std::map<int, SiconosVector>& store,
                                         const DynamicalSystem& ds, const char* what) const {
  auto it = store.find(ds.number());
  if (it == store.end())
    throw Error(std::string("CvodeOSI::") + what, "a system it integrates", ds.name());
  return it->second;
}

const SiconosVector& CvodeOSI::freeAcceleration(const DynamicalSystem& ds) const {
  return perSystem(aFree_, ds, "freeAcceleration");
}

const SiconosVector& CvodeOSI::acceleration(const DynamicalSystem& ds) const {
  return perSystem(a_, ds, "acceleration");
}

const SiconosVector& CvodeOSI::contactForce(const DynamicalSystem& ds) const {
  return perSystem(r_, ds, "contactForce");
}

SiconosVector& CvodeOSI::contactForceMutable(const DynamicalSystem& ds) {
  perSystem(r_, ds, "contactForceMutable");
  return r_.at(ds.number());
}

}  // namespace nsdyn
