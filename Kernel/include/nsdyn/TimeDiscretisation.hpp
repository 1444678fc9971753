/// @file TimeDiscretisation.hpp
/// @brief Constant time step: t_k = t0 + k h.
#ifndef NSDYN_KERNEL_TIMEDISCRETISATION_HPP
#define NSDYN_KERNEL_TIMEDISCRETISATION_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// Time grid t_k = t0 + k h with a constant step h. Times are computed from
/// k each time (never accumulated), so t_k is the floating-point value of
/// t0 + k·h. h ≤ 0 (or not finite) is reported by Simulation::initialize().
class NSDYN_KERNEL_API TimeDiscretisation {
 public:
  TimeDiscretisation(double t0, double h) : t0_(t0), h_(h) {}
  double t0() const { return t0_; }
  /// Step h.
  double h() const { return h_; }
  /// Siconos name for h().
  double currentTimeStep() const { return h_; }
  /// t_k = t0 + k h.
  double time(long k) const { return t0_ + static_cast<double>(k) * h_; }
  /// nsdyn::Error if h is not a finite positive number.
  void check() const;

 private:
  double t0_, h_;
};

namespace SP {
using TimeDiscretisation = std::shared_ptr<nsdyn::TimeDiscretisation>;
}

}  // namespace nsdyn

#endif
