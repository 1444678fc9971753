// The energy of one implicit step of a peridynamic body, shared by the implicit steppers
// (SuccessiveSubstitution, NewtonCholmod): the predicted positions y, the scaled step energy
// Ψ(x) = Σ c m_i/2 |x_i − y_i|² + W(x) − Σ b_i·x_i over the free points (c = 1/(h²θ²);
// statics: c = 0 and b = m g + F_ext), its gradient, and reductions whose bits do not depend
// on the thread count (partial sums over fixed chunks of points, added in order).
// Φ of PeridynamicStepper.hpp is h²θ² Ψ (statics: Φ = Ψ).
#ifndef NSDYN_KERNEL_PERIDYNAMICS_STEPPROBLEM_HPP
#define NSDYN_KERNEL_PERIDYNAMICS_STEPPROBLEM_HPP

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nsdyn/PeridynamicStepper.hpp"

namespace nsdyn {

class PeridynamicBody;

namespace peridynamics {

/// Points per chunk of the deterministic reductions.
constexpr std::size_t kReductionChunk = 2048;
/// Relative round-off of a step energy's value (sums over bonds and points).
constexpr double kNoise = 1e-13;

class StepProblem {
 public:
  /// Checks @p options (nsdyn::Error naming the stepper @p who and the value) and builds y
  /// (one force pass when 0 < θ < 1 and h > 0).
  StepProblem(const PeridynamicBody& body, const PeridynamicStepOptions& options, const char* who);

  const PeridynamicBody& body;
  std::size_t n;                ///< points
  double h, theta;              ///< step, θ
  double c;                     ///< 1/(h²θ²), 0 for statics
  double scale;                 ///< Φ = scale Ψ: h²θ² (1 for statics)
  int threads;                  ///< OpenMP threads of the point loops
  std::vector<double> y;        ///< predicted positions (3n); statics: the current positions
  std::vector<double> b;        ///< statics: the applied load m g + F (3n); dynamics: empty
  const std::uint8_t* fixed;    ///< prescribed flags (n)
  std::size_t bondUpdates = 0;  ///< bond passes counted by the calls below

  /// W(x) and f = −∇W into @p f (3n), counting a bond pass.
  double forces(const double* x, double* f);
  /// The material's implicit stiffness a (n), counting a bond pass.
  void stiffness(const double* x, double* a);
  /// Ψ(x) given W(x); the load term is −Σ b·(x − y), so that statics compare small numbers.
  /// @p noise (optional) receives the round-off of the value: kNoise (|W| + Σ |terms|).
  double psi(const double* x, double W, double* noise = nullptr) const;
  /// True when @p next (with its round-off) does not exceed @p current: a decrease, or a
  /// change within the round-off of the two values.
  static bool notAbove(double next, double current, double noise) {
    return next <= current + noise;
  }
  /// g = ∇Ψ(x) = c m (x − y) − f − b on free points, 0 on prescribed ones.
  void gradient(const double* x, const double* f, double* g) const;
  /// Σ_free u·w in a fixed order.
  double dot(const double* u, const double* w) const;
  /// out = x + t d on free points, y on prescribed ones.
  void axpy(const double* x, double t, const double* d, double* out) const;
  /// End-of-step velocities from the positions @p x: (x − x_k)/(hθ) − (1−θ)/θ v_k on free
  /// points, v_k on prescribed ones (h > 0 only).
  void velocities(const double* x, double* v) const;
  /// The end of an implicit step into @p report: @p iterations, @p residual, Φ = scale ψ at
  /// the end, the status against @p tolerance, the end velocities from @p x into @p v (statics:
  /// the body's), the bond updates and the seconds since @p start.
  void finish(PeridynamicStepReport& report, int iterations, double residual, double psi,
              double tolerance, const double* x, double* v,
              std::chrono::steady_clock::time_point start) const;

 private:
  template <class F>
  double reduce(F term) const;
};

}  // namespace peridynamics
}  // namespace nsdyn

#endif
