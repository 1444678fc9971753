/// @file ContactRules.hpp
/// @brief The rules of detected contacts, in one place for every simulator of scenes
///        (ContactManager on NewtonEulerDS, SceneEngine on a BodyStore, and the MPI
///        implementation): which contacts are kept, which enter the problem, the
///        position-correction bias, and the warm start of a persistent contact.
#ifndef NSDYN_CONTACTRULES_HPP
#define NSDYN_CONTACTRULES_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "nsdyn/ContactDetector.hpp"

namespace nsdyn::contact {

/// Moreau–Jean's activation weight: a contact enters the problem when
/// gap + γ h u_n,k ≤ the activation threshold (TimeStepping::kActivationGamma).
constexpr double kActivationGamma = 0.5;

/// The contacts of @p found (sorted by key) that are kept this step: gap ≤ envelope(i) (a new
/// contact: the margin, plus the two bodies' sweeps in swept detection), or known at the
/// previous step (its key in @p prevKey, sorted) and gap ≤ @p breaking. @p keep receives
/// their indices in @p found, @p prev the index of the previous contact of the same key
/// (−1: new). Two sorted key lists merged: O(contacts).
template <class Envelope>
void selectKept(const std::vector<DetectedContact>& found, const std::uint64_t* prevKey,
                std::size_t prevCount, double breaking, Envelope envelope,
                std::vector<std::int32_t>& keep, std::vector<std::int32_t>& prev) {
  keep.clear();
  prev.clear();
  keep.reserve(found.size());
  prev.reserve(found.size());
  std::size_t j = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const std::uint64_t key = found[i].key;
    while (j < prevCount && prevKey[j] < key) ++j;
    const bool known = j < prevCount && prevKey[j] == key;
    if (found[i].gap <= envelope(found[i]) || (known && found[i].gap <= breaking)) {
      keep.push_back(static_cast<std::int32_t>(i));
      prev.push_back(known ? static_cast<std::int32_t>(j) : -1);
    }
  }
}

/// True when the contact enters the step's problem: gap + γ h u_n,k ≤ activation.
inline bool isActive(double gap, double normalVelocity, double h, double activation) {
  return gap + kActivationGamma * h * normalVelocity <= activation;
}

/// The normal-row offset (q_n = bias) of a contact taken into the problem ahead of the usual
/// rule — a speculative contact (SceneEngineOptions::speculativeContacts), or one that
/// carried a load at the last step (ContactManagerOptions::keepLoadedContacts): left out by
/// isActive (ahead = gap + γ h u_n,k above the threshold, so ahead > 0) and of restitution 0,
/// it enters with u_n,k+1 ≥ −ahead / h, i.e. bias = ahead / h (u_n,k+1 + bias ≥ 0, the shifted
/// velocity the Coulomb law and De Saxcé's change of variable read). With Moreau–Jean's
/// θ = ½ positions the end-of-step gap is then ≥ ahead / 2 ≥ 0, and at the next step the
/// usual rule stops the contact at the surface. The row only takes approach velocity away,
/// it never asks for separation. 0 when the contact is not taken (restitution > 0: a bounce
/// keeps the usual rule; ahead not finite or ≤ 0).
inline double aheadBias(double gap, double normalVelocity, double restitution, double h) {
  if (restitution != 0.0) return 0.0;
  const double ahead = gap + kActivationGamma * h * normalVelocity;
  if (!(std::isfinite(ahead) && ahead > 0.0)) return 0.0;
  return ahead / h;
}

/// The normal-row offset of an active overlapping contact (Baumgarte-like correction,
/// ContactManagerOptions::stabilisationFactor β): max(β gap / h, −maxRecovery) when β > 0,
/// the contact is active and gap < 0; else 0.
inline double recoveryBias(double gap, bool active, double h, double beta, double maxRecovery) {
  if (!(beta > 0.0 && active && gap < 0.0)) return 0.0;
  return std::max(beta * gap / h, -maxRecovery);
}

/// The world tangential impulse of a contact: λ_t1 t1 + λ_t2 t2 from its frame @p f (rows
/// n, t1, t2) and local impulse @p lambda.
inline void tangentialWorld(const double* f, const double* lambda, double* T) {
  for (int k = 0; k < 3; ++k) T[k] = lambda[1] * f[3 + k] + lambda[2] * f[6 + k];
}

/// Warm start of a persistent contact in its new frame @p f: the previous normal impulse
/// @p normal, and the previous world tangential impulse @p T projected on the new tangent
/// plane and scaled back to its magnitude (turned, not shrunk). Writes @p lambda[3].
inline void warmImpulse(double normal, const double* T, const double* f, double* lambda) {
  const double mag = std::sqrt(T[0] * T[0] + T[1] * T[1] + T[2] * T[2]);
  const double tn = T[0] * f[0] + T[1] * f[1] + T[2] * f[2];
  const double Tp[3] = {T[0] - tn * f[0], T[1] - tn * f[1], T[2] - tn * f[2]};
  const double magp = std::sqrt(Tp[0] * Tp[0] + Tp[1] * Tp[1] + Tp[2] * Tp[2]);
  const double scale = magp > 0.0 ? mag / magp : 0.0;
  lambda[0] = normal;
  lambda[1] = scale * (Tp[0] * f[3] + Tp[1] * f[4] + Tp[2] * f[5]);
  lambda[2] = scale * (Tp[0] * f[6] + Tp[1] * f[7] + Tp[2] * f[8]);
}

}  // namespace nsdyn::contact

#endif
