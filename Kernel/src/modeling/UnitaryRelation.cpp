// UnitaryRelation: a block of rows of an Interaction.
#include "nsdyn/UnitaryRelation.hpp"

#include "nsdyn/Error.hpp"

namespace nsdyn {

UnitaryRelation::UnitaryRelation(SP::Interaction interaction, std::size_t relativePosition,
                                 std::size_t size)
    : interaction_(std::move(interaction)), position_(relativePosition), size_(size) {
  if (!interaction_) throw Error("UnitaryRelation", "an interaction", "null");
  if (size_ == 0 || position_ + size_ > interaction_->size())
    throw Error("UnitaryRelation of " + interaction_->name(),
                "rows within [0, " + std::to_string(interaction_->size()) + ")",
                "[" + std::to_string(position_) + ", " + std::to_string(position_ + size_) + ")");
}

std::string UnitaryRelation::name() const {
  return "Interaction #" + std::to_string(interaction_->number()) + " rows [" +
         std::to_string(position_) + "," + std::to_string(position_ + size_) + ")";
}

SiconosVector UnitaryRelation::y(unsigned level) const {
  return interaction_->y(level).segment(position_, size_);
}

SiconosVector UnitaryRelation::yMemory(unsigned level) const {
  return interaction_->yMemory(level).segment(position_, size_);
}

SiconosVector UnitaryRelation::lambda(unsigned level) const {
  return interaction_->lambda(level).segment(position_, size_);
}

void UnitaryRelation::setLambda(unsigned level, const SiconosVector& value) {
  if (value.size() != size_)
    throw Error(name(), "lambda of size " + std::to_string(size_), std::to_string(value.size()));
  interaction_->lambdaMutable(level).setSegment(position_, value);
}

SimpleMatrix UnitaryRelation::jacobianRows() const {
  const SimpleMatrix& J = interaction_->jacobian();
  return J.block(position_, 0, size_, J.cols());
}

}  // namespace nsdyn
