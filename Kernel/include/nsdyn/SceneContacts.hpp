/// @file SceneContacts.hpp
/// @brief The contacts of one step of a SceneEngine in plain arrays: geometry, frame and
///        lever arms (no Jacobian blocks: J and Jᵀ are applied from them), law, velocities
///        and impulses. No object per contact.
#ifndef NSDYN_SCENECONTACTS_HPP
#define NSDYN_SCENECONTACTS_HPP

#include <cstddef>
#include <cstdint>
#include <vector>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// Contact c (0 ≤ c < size()), sorted by key (ContactDetector's layout):
///  - bodyA[c] < bodyB[c]: body indices in the BodyStore; frame[9c..]: rows n, t1, t2 (world,
///    n from B to A, Siconos's orthoBaseFromVector); pointA/pointB[3c..]: world points;
///    armA/armB[3c..]: point − centre of mass of the body (world, at the step start);
///    gap[c] (< 0: overlap);
///  - mu, restitution: the material of the two groups; bias: the normal-row offset of the
///    position correction (≤ 0, 0 by default);
///  - velocityStart[3c..]: u_k = J v_k; velocity[3c..]: u_{k+1} = J v_{k+1} (the step-start
///    frames and arms); impulse[3c..]: λ (the warm start before the solve, the answer after;
///    0 for an inactive contact);
///  - active[c]: 1 when in the step's problem (gap + ½ h u_n,k ≤ activation); warm[c]: 1 when
///    warm-started from the previous step's contact of the same key.
struct NSDYN_KERNEL_API SceneContacts {
  std::size_t size() const { return key.size(); }
  void resize(std::size_t n);

  std::vector<std::uint64_t> key;
  std::vector<std::int32_t> bodyA, bodyB;
  std::vector<double> frame, pointA, pointB, armA, armB, gap;
  std::vector<double> mu, restitution, bias;
  std::vector<double> velocityStart, velocity, impulse;
  std::vector<std::uint8_t> active, warm;
  std::size_t activeCount = 0;
};

}  // namespace nsdyn

#endif
