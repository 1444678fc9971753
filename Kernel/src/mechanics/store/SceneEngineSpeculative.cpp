// SceneEngine: the detection sweep speculative contacts need (SceneEngineSpeculative.hpp;
// their row is contact::aheadBias, ContactRules.hpp).
#include "SceneEngineSpeculative.hpp"

#include "nsdyn/SceneEngine.hpp"

namespace nsdyn {

double SceneEngine::sweepScale() const {
  if (options_.speculativeContacts) return store::kSpeculativeSweep;
  return options_.contacts.sweptDetection ? 1.0 : 0.0;
}

}  // namespace nsdyn
