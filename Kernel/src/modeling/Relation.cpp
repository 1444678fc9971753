// Relation: default link-time check and self coupling.
#include "nsdyn/Relation.hpp"

#include "nsdyn/Interaction.hpp"

namespace nsdyn {

void Relation::checkConsistency(const Interaction& inter) const {
  checkSizes(inter.size(), inter.positionDof(), inter.name());
}

void Relation::addSelfCoupling(SimpleMatrix& /*block*/, const UnitaryRelation& /*a*/,
                               const UnitaryRelation& /*b*/, double /*t*/) const {}

}  // namespace nsdyn
