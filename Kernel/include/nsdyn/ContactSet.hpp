/// @file ContactSet.hpp
/// @brief The contacts of one time step in plain arrays (struct of arrays):
///        geometry, Jacobian blocks, law, impulses. No object per contact.
#ifndef NSDYN_KERNEL_CONTACTSET_HPP
#define NSDYN_KERNEL_CONTACTSET_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

class NewtonEulerDS;

/// Contacts between rigid bodies, rebuilt each step by a ContactManager and
/// solved by FrictionContact(3). Contact c (0 ≤ c < size()), sorted by key:
///  - key[c]: the 64-bit key of ContactDetector (bodies, shapes, features);
///  - bodyA[c] < bodyB[c]: indices in the manager's body list; dynA/dynB:
///    index of the dynamic body in systems (−1 for a static body);
///  - frame[9c..9c+8]: rows n, t1, t2 (world), n unit from B to A; the tangents
///    are Siconos's orthoBaseFromVector of n (MECHANICS.md §0.6);
///  - pointA/pointB[3c..]: world points on A and B; gap[c] < 0 when penetrating;
///  - jacA/jacB[18c..]: 3×6 row-major blocks mapping a body's twist (world linear
///    velocity, body angular velocity Ω) to the local velocity
///    u = [n t1 t2]ᵀ (v_A + ω_A × (p_A − G_A) − v_B − ω_B × (p_B − G_B)),
///    i.e. jacA = [Cᵀ, −Cᵀ skew(p_A − G_A) R_A], jacB = −[Cᵀ, −Cᵀ skew(p_B − G_B) R_B]
///    at the step start (zero for a static body);
///  - mu[c], restitution[c]: the material of the body groups;
///  - velocityStart[3c..]: u at the step start (J v_k); active[c]: 1 when the
///    contact enters the step's problem (gap + γ h u_n ≤ 0, γ = ½, as
///    TimeStepping's index set I1);
///  - impulse[3c..]: λ (normal first; the warm start on entry to the solve, the
///    answer after it; 0 for inactive contacts), velocity[3c..]: u = J v_{k+1}
///    after the step (the problem's w);
///  - bias[c]: added to the normal row of the problem's q (the position correction of
///    ContactManagerOptions::stabilisationFactor, ≤ 0; 0 without it);
///  - warm[c]: 1 when the impulse came from the previous step's contact of the
///    same key;
///  - rolling[c]: the rolling resistance length of the material (m, ContactMaterial::rolling;
///    0: none); rollA/rollB[6c..]: 2×3 row-major blocks mapping a body's angular velocity
///    Ω (body frame) to the relative angular velocity projected on the tangents,
///    u_R = [t1 t2]ᵀ (ω_A − ω_B) (world ω = R Ω): rollA = [t1ᵀ R_A; t2ᵀ R_A],
///    rollB = −[t1ᵀ R_B; t2ᵀ R_B] (zero for a static body);
///  - rollingImpulse[2c..]: the rolling moment impulse r_R (N·m·s, about t1 and t2; the
///    torque impulse on A is r_R1 t1 + r_R2 t2, on B its opposite; |r_R| ≤ rolling r_N;
///    written by RollingFrictionContact, 0 otherwise; the warm start on entry, turned into the
///    new tangent plane as λ_T is), rollingVelocityStart[2c..]: u_R at the step start,
///    rollingVelocity[2c..]: u_R after the step.
/// Every array is resized by resize(); values are written by the manager.
class NSDYN_KERNEL_API ContactSet {
 public:
  std::size_t size() const { return key.size(); }
  std::size_t activeCount() const { return activeCount_; }
  void setActiveCount(std::size_t n) { activeCount_ = n; }
  /// Resize every array for @p n contacts (capacity kept between steps).
  void resize(std::size_t n);
  /// The dynamic bodies (column blocks of the Jacobian).
  std::vector<NewtonEulerDS*> systems;

  std::vector<std::uint64_t> key;
  std::vector<std::int32_t> bodyA, bodyB, dynA, dynB;
  std::vector<double> frame, pointA, pointB, gap;
  std::vector<double> jacA, jacB;
  std::vector<double> mu, restitution;
  std::vector<double> velocityStart, impulse, velocity;
  std::vector<double> bias;  ///< normal-row offset of q (stabilisation), 0 by default
  std::vector<std::uint8_t> active, warm;
  std::vector<double> rolling;  ///< rolling resistance length per contact (m)
  std::vector<double> rollA, rollB;
  std::vector<double> rollingImpulse, rollingVelocityStart, rollingVelocity;

 private:
  std::size_t activeCount_ = 0;
};

}  // namespace nsdyn

#endif
