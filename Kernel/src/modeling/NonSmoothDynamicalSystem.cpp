// NonSmoothDynamicalSystem: systems and interactions, through the Topology.
#include "nsdyn/NonSmoothDynamicalSystem.hpp"

#include <algorithm>

#include "nsdyn/Error.hpp"

namespace nsdyn {

void NonSmoothDynamicalSystem::insertDynamicalSystem(const SP::DynamicalSystem& ds) {
  if (!ds)
    throw Error("NonSmoothDynamicalSystem::insertDynamicalSystem", "a dynamical system", "null");
  topology_.insertDynamicalSystem(ds);
}

void NonSmoothDynamicalSystem::link(const SP::Interaction& inter, const SP::DynamicalSystem& ds1,
                                    const SP::DynamicalSystem& ds2) {
  if (!inter) throw Error("NonSmoothDynamicalSystem::link", "an interaction", "null");
  unlinked_.erase(std::remove(unlinked_.begin(), unlinked_.end(), inter), unlinked_.end());
  topology_.insertInteraction(inter, ds1, ds2);
}

void NonSmoothDynamicalSystem::insertInteraction(const SP::Interaction& inter) {
  if (!inter) throw Error("NonSmoothDynamicalSystem::insertInteraction", "an interaction", "null");
  if (topology_.hasInteraction(*inter)) return;
  if (std::find(unlinked_.begin(), unlinked_.end(), inter) == unlinked_.end())
    unlinked_.push_back(inter);
}

bool NonSmoothDynamicalSystem::removeInteraction(const SP::Interaction& inter) {
  auto it = std::find(unlinked_.begin(), unlinked_.end(), inter);
  if (it != unlinked_.end()) {
    unlinked_.erase(it);
    return true;
  }
  return topology_.removeInteraction(inter);
}

SP::DynamicalSystem NonSmoothDynamicalSystem::dynamicalSystem(int number) const {
  for (const auto& ds : topology_.dynamicalSystems())
    if (ds->number() == number) return ds;
  throw Error("NonSmoothDynamicalSystem", "a system numbered " + std::to_string(number), "none");
}

void NonSmoothDynamicalSystem::checkConsistency() const {
  for (const auto& inter : unlinked_)
    throw Error(inter->name(), "linked to 1 or 2 dynamical systems", "0 systems");
  for (const auto& ds : topology_.dynamicalSystems()) ds->checkConsistency();
  for (const auto& inter : topology_.interactions()) inter->checkConsistency();
}

}  // namespace nsdyn
