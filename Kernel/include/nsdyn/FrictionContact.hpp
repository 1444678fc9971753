/// @file FrictionContact.hpp
/// @brief Frictional contact problem (2D or 3D) over the active contacts.
#ifndef NSDYN_KERNEL_FRICTIONCONTACT_HPP
#define NSDYN_KERNEL_FRICTIONCONTACT_HPP

#include <memory>

#include "nsdyn/OneStepNSProblem.hpp"

namespace nsdyn {

/// Local friction-contact problem u = M λ + q with Coulomb's law per
/// contact (NewtonImpactFrictionNSL relations of dimension dim, normal row
/// first, μ from the law). Default solver "nsgs" for dim = 2 (FC2D NSGS,
/// tolerance 1e-4, 1000 iterations, as Siconos) and "newton_ac" for dim = 3;
/// any name of Numerics' fc2d/fc3d table is accepted.
class FrictionContact : public OneStepNSProblem {
 public:
  /// @param dim 2 or 3 (nsdyn::Error otherwise)
  /// @param solverName empty: the default for @p dim
  explicit FrictionContact(int dim, std::string solverName = "");
  std::string className() const override { return "FrictionContact"; }
  NsdProblemKind numericsKind() const override {
    return dim_ == 2 ? NSD_KIND_FC2D : NSD_KIND_FC3D;
  }
  void checkRelation(const UnitaryRelation& ur) const override;
  int dim() const { return dim_; }

 protected:
  NsdStatus solve(NsdMatrixPtr M, const SiconosVector& q, const IndexSet& active,
                  SiconosVector& z, SiconosVector& w, NsdReport& report) override;

 private:
  int dim_;
};

namespace SP {
using FrictionContact = std::shared_ptr<nsdyn::FrictionContact>;
}

}  // namespace nsdyn

#endif
