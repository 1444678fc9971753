// Speculative contacts of SceneEngine (SceneEngineOptions::speculativeContacts): the detection
// sweep that finds a landing a step before it touches (internal header of
// Kernel/src/mechanics/store; the row is contact::aheadBias; doc/design.md, "Speculative
// contacts").
#ifndef NSDYN_KERNEL_STORE_SCENEENGINESPECULATIVE_HPP
#define NSDYN_KERNEL_STORE_SCENEENGINESPECULATIVE_HPP

namespace nsdyn {
namespace store {

/// The detection sweep of speculative contacts, in units of h × the body's speed bound:
/// a landing must be in the problem at the step where gap + ½ h u_n,k is in (0, h |u_n,k|],
/// that is gap up to 1.5 h |u_n,k| (plus the velocity gained in the step): 2 covers it.
constexpr double kSpeculativeSweep = 2.0;

}  // namespace store
}  // namespace nsdyn

#endif
