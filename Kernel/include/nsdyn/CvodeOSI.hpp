/// @file CvodeOSI.hpp
/// @brief Smooth integrator of Lagrangian systems between events (SUNDIALS
///        CVODE with root finding), the role of Siconos' LsodarOSI.
#ifndef NSDYN_KERNEL_CVODEOSI_HPP
#define NSDYN_KERNEL_CVODEOSI_HPP

#include <cfloat>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepIntegrator.hpp"

namespace nsdyn {

/// Integrates M(q) v̇ = F_ext(t) − F_int(q, v, t) + r, q̇ = v for the
/// Lagrangian systems it owns, as one first-order system x = (q₁, v₁, q₂,
/// v₂, ...), with SUNDIALS CVODE (variable order, variable step) and CVODE's
/// root finding. It is the smooth integrator of EventDriven, which gives it,
/// by bind():
///  - the contact forces r = Gᵀ λ(2) at a trial state (EventDriven solves the
///    acceleration-level LCP on index set I2 inside the right-hand side);
///  - the root functions g (gaps of open contacts, forces of resting ones).
/// Used with TimeStepping it refuses to step (computeFreeState() throws).
///
/// Iteration matrix W of a system (OneStepIntegrator::W) is its mass M(q);
/// the level of the impact problem is 1 (y(1), λ(1) impulse).
class NSDYN_KERNEL_API CvodeOSI : public OneStepIntegrator {
 public:
  /// Linear multistep family.
  enum class Method {
    Adams,  ///< Adams–Moulton, orders 1–12, fixed-point iteration (non-stiff problems)
    BDF     ///< backward differentiation, orders 1–5, Newton with a dense LU (stiff problems)
  };

  /// Integrator settings (inputs only).
  struct Options {
    Method method = Method::Adams;     ///< default Adams (LSODAR's non-stiff mode)
    double rtol = 10.0 * DBL_EPSILON;  ///< relative tolerance, default 10 ε ≈ 2.2e-15
    double atol =
        100.0 * DBL_EPSILON;  ///< absolute tolerance on every component, default 100 ε ≈ 2.2e-14
    long maxStepsPerEvent =
        100000;            ///< CVODE internal steps allowed between two events (CVODE mxstep)
    double maxStep = 0.0;  ///< largest internal step in s; 0: unbounded
    int maxOrder = 0;      ///< largest order; 0: CVODE default (12 Adams, 5 BDF)
  };

  /// Result of integrate().
  enum class Outcome {
    ReachedTime,  ///< the requested time was reached, no root before it
    Root,         ///< a root function vanished first (rootsFound() says which)
    Failed        ///< CVODE failed (message in lastMessage())
  };

  /// Fills the contact forces of every system (contactForceMutable) at time
  /// t, the systems holding the trial state and freeAcceleration() computed.
  using ContactForceFunction = std::function<void(double t)>;
  /// Fills g[0 .. nroots) at time t, after the contact forces were computed.
  using RootFunction = std::function<void(double t, double* g)>;

  CvodeOSI();
  explicit CvodeOSI(Options options);
  ~CvodeOSI() override;

  std::string className() const override { return "CvodeOSI"; }
  bool accepts(const DynamicalSystem& ds) const override;
  DynamicalSystemKind systemKind() const override { return DynamicalSystemKind::Lagrangian; }
  unsigned levelForProblem() const override { return 1; }

  const Options& options() const { return options_; }
  /// Mutable options; they apply from the next reset().
  Options& optionsMutable() { return options_; }

  /// Lay the systems out in the CVODE state and create the CVODE memory.
  /// nsdyn::Error on a non-Lagrangian system, rtol < 0, atol ≤ 0, maxStepsPerEvent ≤ 0.
  void initialize(const std::vector<SP::DynamicalSystem>& systems, double t0, double h) override;

  /// Not available: CvodeOSI integrates between events (EventDriven); nsdyn::Error.
  void computeFreeState(double tk, double tk1) override;
  /// G v of @p ur at the current state (the relative velocity; the Newton law
  /// is added by EventDriven).
  SiconosVector computeFreeOutput(const UnitaryRelation& ur, double tk1) const override;
  /// G_a M⁻¹ G_bᵀ restricted to the columns of @p ds, M at the current q.
  SimpleMatrix computeDelassusBlock(const UnitaryRelation& a, const UnitaryRelation& b,
                                    const DynamicalSystem& ds, double tk1) const override;
  /// Not available (see computeFreeState()); nsdyn::Error.
  void updateState(double tk1) override;

  // ---- event-driven interface ------------------------------------------------
  /// Set the contact-force and root callbacks and the number of root functions.
  void bind(ContactForceFunction forces, RootFunction roots, int numberOfRoots);
  /// Restart CVODE at time @p t from the systems' current state (after an
  /// event changed velocities or index sets): new history, order 1.
  void reset(double t);
  /// Integrate from the last time reached towards @p tout (never past
  /// @p tstop). On return the systems hold the state at reachedTime() and
  /// their accelerations and contact forces are up to date.
  Outcome integrate(double tout, double tstop);
  double reachedTime() const { return tReached_; }
  /// For each root function after Outcome::Root: −1 it decreased through 0,
  /// +1 it increased, 0 it did not vanish.
  const std::vector<int>& rootsFound() const { return rootsFound_; }
  /// Move the systems' state by @p delta seconds along the smooth motion
  /// (second-order Taylor step with the last accelerations) and recompute the
  /// accelerations; reachedTime() moves too. For |delta| of the order of the
  /// root-location error only; reset() must follow.
  void shiftState(double delta);
  /// CVODE's message of the last failure ("" if none).
  const std::string& lastMessage() const { return message_; }

  /// At the systems' current state and time @p t: free accelerations
  /// M⁻¹(F_ext − F_int), then the contact forces (callback), then the
  /// accelerations M⁻¹(F_ext − F_int + r).
  void computeAccelerations(double t);
  /// M⁻¹(F_ext − F_int) of @p ds from the last computeAccelerations().
  const SiconosVector& freeAcceleration(const DynamicalSystem& ds) const;
  /// v̇ of @p ds from the last computeAccelerations().
  const SiconosVector& acceleration(const DynamicalSystem& ds) const;
  /// Contact force r = Gᵀ λ(2) of @p ds (written by the contact-force callback).
  const SiconosVector& contactForce(const DynamicalSystem& ds) const;
  SiconosVector& contactForceMutable(const DynamicalSystem& ds);

  /// CVODE counters since initialize(): internal steps, right-hand side
  /// evaluations, root-function evaluations.
  long numberOfSteps() const;
  long numberOfRhsEvaluations() const { return rhsEvaluations_; }
  long numberOfRootEvaluations() const { return rootEvaluations_; }

  /// CVODE callbacks (C linkage helpers, not for users).
  int rhsCallback(double t, const double* x, double* xdot);
  int rootCallback(double t, const double* x, double* g);
  void recordMessage(const std::string& message) { message_ = message; }

 private:
  struct Layout {
    std::size_t offset;  // first entry of q in x; v follows
    std::size_t n;
  };
  void scatter(const double* x);
  void gather(double* x) const;
  void createMemory(double t);
  void destroyMemory();
  const SiconosVector& perSystem(const std::map<int, SiconosVector>& store,
                                 const DynamicalSystem& ds, const char* what) const;

  Options options_;
  std::map<int, Layout> layout_;
  std::size_t size_ = 0;
  std::map<int, SiconosVector> aFree_, a_, r_;
  ContactForceFunction forces_;
  RootFunction roots_;
  int numberOfRoots_ = 0;
  std::vector<int> rootsFound_;
  double tReached_ = 0.0;
  std::string message_;
  long rhsEvaluations_ = 0, rootEvaluations_ = 0, stepsBefore_ = 0;
  struct Cvode;  // CVODE context, memory, vector, solvers
  std::unique_ptr<Cvode> cv_;
};

namespace SP {
using CvodeOSI = std::shared_ptr<nsdyn::CvodeOSI>;
}

}  // namespace nsdyn

#endif
