// SceneEngine: speculative contacts (SceneEngineOptions::speculativeContacts), the rule and
// the detection sweep they need (SceneEngineSpeculative.hpp).
#include "SceneEngineSpeculative.hpp"

#include <cmath>

#include "nsdyn/ContactRules.hpp"
#include "nsdyn/SceneEngine.hpp"

namespace nsdyn {

namespace store {

double speculativeBias(double gap, double normalVelocity, double restitution, double h) {
  if (restitution != 0.0) return 0.0;
  const double ahead = gap + contact::kActivationGamma * h * normalVelocity;
  if (!(std::isfinite(ahead) && ahead > 0.0)) return 0.0;
  return ahead / h;
}

}  // namespace store

double SceneEngine::sweepScale() const {
  if (options_.speculativeContacts) return store::kSpeculativeSweep;
  return options_.contacts.sweptDetection ? 1.0 : 0.0;
}

}  // namespace nsdyn
