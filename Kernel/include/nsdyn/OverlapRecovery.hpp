/// @file OverlapRecovery.hpp
/// @brief Options of the scene engine's overlap recovery: a position-level correction that
///        pushes overlapping bodies apart without touching their velocities (split-impulse
///        pseudo-velocities, doc/design.md "Overlap recovery without energy").
#ifndef NSDYN_OVERLAPRECOVERY_HPP
#define NSDYN_OVERLAPRECOVERY_HPP

#include <string>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// After the velocity solve and the position update of a step, the contacts whose gap at
/// the end of the step would be below −slop get pseudo-impulses p ≥ 0 (a normal-only,
/// friction-less problem on the operator J M⁻¹ Jᵀ) whose pseudo-velocity w = M⁻¹ Jᵀ p moves
/// and turns the bodies by h w; their velocities, hence the kinetic energy, are left as they
/// are (doc/design.md). Each contact asks for at most the recovery-speed cap of separating
/// pseudo-velocity, so an overlap is removed by at most cap·h per step: maxSpeed (m/s) when
/// set, else (the default) slopsPerStep × slop / h — an overlap of k slops is gone in about
/// k / slopsPerStep steps, for 1 cm spheres at h = 1 ms (0.1 m/s) as for 2 m cubes at 60 Hz
/// (1.04 m/s: a box's size is its half-diagonal).
struct NSDYN_KERNEL_API OverlapRecoveryOptions {
  /// On by default; off: the step without recovery, bit for bit (as is a step with no
  /// overlap past the slop). With the velocity-level stabilisation on
  /// (ContactManagerOptions::stabilisationFactor > 0) the recovery stands aside (two
  /// corrections of one overlap would push it out twice).
  bool enabled = true;
  double slop = 0.0;           ///< allowed penetration (m, ≥ 0); 0: relativeSlop × smallest size
  double relativeSlop = 0.01;  ///< the slop as a fraction of the smallest shape size (radius)
  double maxSpeed = 0.0;       ///< recovery speed cap (m/s, ≥ 0); 0: slopsPerStep × slop / h
  double slopsPerStep = 1.0;   ///< the cap relative to the slop: slops of correction/step (> 0)
  int iterations = 100;        ///< Gauss–Seidel sweeps of the pseudo-impulse problem (≥ 1)
  double tolerance = 1e-6;     ///< its stopping test on the Siconos error (> 0)
};

/// nsdyn::Error naming @p who, the option and its value when @p o is out of range.
NSDYN_KERNEL_API void checkOverlapRecovery(const OverlapRecoveryOptions& o, const std::string& who);

}  // namespace nsdyn

#endif
