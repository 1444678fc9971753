/// @file UnitaryRelation.hpp
/// @brief The smallest block of an Interaction: what index sets hold and
///        what one-step nonsmooth problems assemble.
#ifndef NSDYN_KERNEL_UNITARYRELATION_HPP
#define NSDYN_KERNEL_UNITARYRELATION_HPP

#include <cstddef>
#include <memory>
#include <string>

#include "nsdyn/Interaction.hpp"
#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// Rows [relativePosition, relativePosition + size) of an Interaction, cut
/// as its law allows (NonSmoothLaw::unitaryBlockSize()): one row for Newton
/// impact, complementarity, equality and relay laws, the whole dim-block
/// (normal first) for friction. It shares the interaction (it holds a
/// std::shared_ptr to it) and reads and writes the interaction's y and λ.
class NSDYN_KERNEL_API UnitaryRelation {
 public:
  UnitaryRelation(SP::Interaction interaction, std::size_t relativePosition, std::size_t size);

  const Interaction& interaction() const { return *interaction_; }
  Interaction& interactionMutable() { return *interaction_; }
  const SP::Interaction& interactionPtr() const { return interaction_; }
  /// First row in the interaction.
  std::size_t relativePosition() const { return position_; }
  /// Number of rows.
  std::size_t size() const { return size_; }
  /// "Interaction #3 rows [0,1)"
  std::string name() const;

  /// Rows of y / λ at @p level (current value and start of step).
  SiconosVector y(unsigned level) const;
  SiconosVector yMemory(unsigned level) const;
  SiconosVector lambda(unsigned level) const;
  /// Write @p value into the interaction's λ(level) rows.
  void setLambda(unsigned level, const SiconosVector& value);
  /// Rows of the relation's Jacobian (see Interaction::jacobian()).
  SimpleMatrix jacobianRows() const;

 private:
  SP::Interaction interaction_;
  std::size_t position_;
  std::size_t size_;
};

namespace SP {
using UnitaryRelation = std::shared_ptr<nsdyn::UnitaryRelation>;
}

}  // namespace nsdyn

#endif
