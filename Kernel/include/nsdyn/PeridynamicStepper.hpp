/// @file PeridynamicStepper.hpp
/// @brief One time step of a peridynamic body without contact (the free motion), by one
///        method per class: SuccessiveSubstitution (semi-implicit, the default), NewtonCholmod
///        (sparse Cholesky), VelocityVerlet (explicit). Static equilibrium (h = 0) by the two
///        implicit ones.
#ifndef NSDYN_PERIDYNAMICSTEPPER_HPP
#define NSDYN_PERIDYNAMICSTEPPER_HPP

#include <array>
#include <memory>
#include <string>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/nsd_common.h"

namespace nsdyn {

class PeridynamicBody;

/// Options of a step.
struct NSDYN_KERNEL_API PeridynamicStepOptions {
  /// Time step (s, > 0); 0: static equilibrium (minimise W − f·x with the prescribed points
  /// held), by the implicit methods only.
  double h = 1e-4;
  /// θ of the implicit methods in [1/2, 1]: x_{k+1} = x_k + h((1−θ) v_k + θ v_{k+1}),
  /// m (v_{k+1} − v_k) = h((1−θ) f_k + θ f_{k+1}); 1/2 keeps the energy of a linear body.
  double theta = 1.0;
  std::array<double, 3> gravity{0.0, 0.0, 0.0};
  /// Relative residual ‖∇Φ‖ / ‖initial ∇Φ‖... (see PeridynamicStepReport::residual) at which
  /// the iterations stop, and their budget.
  double tolerance = 1e-6;
  int maxIterations = 500;
  bool lineSearch = true;  ///< successive substitution: the one-step line search on Φ
  /// Successive substitution: conjugate directions (Polak–Ribière on the Jacobi-scaled
  /// gradient, restarted whenever a direction does not descend or a step is halved); false:
  /// plain Jacobi directions. Φ stays monotone either way (SuccessiveSubstitution.hpp).
  bool accelerate = true;
  int threads = 0;  ///< OpenMP threads (0: automatic); results do not depend on it
};

/// What a step did (also in the step statistics of scenes and runs).
struct NSDYN_KERNEL_API PeridynamicStepReport {
  NsdStatus status = NSD_OK;  ///< NSD_MAX_ITERATIONS when the tolerance was not reached
  int iterations = 0;
  /// ‖∇Φ(x)‖ / max(‖∇Φ(x_pred)‖, tiny): the step energy's gradient (forces out of balance,
  /// inertia included) relative to its value at the predicted positions.
  double residual = 0.0;
  double energyStart = 0.0;  ///< Φ at the predicted positions
  double energyEnd = 0.0;    ///< Φ at the answer
  bool monotone = true;  ///< Φ never increased (beyond round-off) from one iteration to the next
  double seconds = 0.0;
  std::size_t bondUpdates = 0;  ///< bond evaluations done (forces, energies, stiffnesses)
  /// Explicit methods: the largest stable step estimated for the body (s); 0 otherwise.
  double stableStep = 0.0;
};

/// A method for the free motion of one step.
class NSDYN_KERNEL_API PeridynamicStepper {
 public:
  virtual ~PeridynamicStepper() = default;
  virtual std::string name() const = 0;  ///< "substitution", "newton", "verlet"
  /// True when the step is implicit in the internal forces (its iteration matrix is
  /// M + h²θ² K); false for an explicit step, whose response to an impulse within the step is
  /// the mass alone.
  virtual bool implicit() const { return true; }
  /// From (body.x, body.v) at t_k, the end-of-step positions @p x (3n) and velocities @p v
  /// (3n) without contact, under gravity, body.force and the material; prescribed points
  /// move with their velocity. The body is not changed. nsdyn::Error for h < 0, θ outside
  /// [1/2, 1], h = 0 with an explicit method.
  virtual PeridynamicStepReport freeStep(const PeridynamicBody& body,
                                         const PeridynamicStepOptions& options, double* x,
                                         double* v) = 0;
};

/// "substitution" (or "ss"), "newton", "verlet"; nsdyn::Error naming the name otherwise.
NSDYN_KERNEL_API std::unique_ptr<PeridynamicStepper> makePeridynamicStepper(
    const std::string& name);

}  // namespace nsdyn

#endif
