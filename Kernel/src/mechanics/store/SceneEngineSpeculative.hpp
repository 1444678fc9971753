// Speculative contacts of SceneEngine (SceneEngineOptions::speculativeContacts): the rule
// that takes a kept contact into the step's problem before it touches (internal header of
// Kernel/src/mechanics/store; doc/design.md, "Speculative contacts").
#ifndef NSDYN_KERNEL_STORE_SCENEENGINESPECULATIVE_HPP
#define NSDYN_KERNEL_STORE_SCENEENGINESPECULATIVE_HPP

namespace nsdyn {
namespace store {

/// The detection sweep of speculative contacts, in units of h × the body's speed bound:
/// a landing must be in the problem at the step where gap + ½ h u_n,k is in (0, h |u_n,k|],
/// that is gap up to 1.5 h |u_n,k| (plus the velocity gained in the step): 2 covers it.
constexpr double kSpeculativeSweep = 2.0;

/// The normal-row offset (q_n = bias) of a speculative contact: a contact left out by the
/// usual rule (ahead = gap + ½ h u_n,k above the activation threshold, so ahead > 0) whose
/// restitution is 0 enters the problem with u_n,k+1 ≥ −ahead / h, i.e. bias = ahead / h
/// (u_n,k+1 + bias ≥ 0, the shifted velocity the Coulomb law and De Saxcé's change of
/// variable read). With Moreau–Jean's θ = ½ positions the end-of-step gap is then
/// gap + ½ h (u_n,k + u_n,k+1) ≥ ahead / 2 ≥ 0, and at the next step ahead' =
/// gap' + ½ h u_n,k+1 ≥ 0: the usual rule stops the contact at the surface. The bound is
/// an approach speed (bias > 0): the row only takes approach velocity away, it never asks
/// for separation. Returns 0 when the contact is not taken (restitution > 0: a bounce
/// keeps the usual rule; ahead not finite).
double speculativeBias(double gap, double normalVelocity, double restitution, double h);

}  // namespace store
}  // namespace nsdyn

#endif
