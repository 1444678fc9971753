/// @file NewtonImpactFrictionNSL.hpp
/// @brief Contact with Coulomb friction and Newton restitution (2D or 3D).
#ifndef NSDYN_KERNEL_NEWTONIMPACTFRICTIONNSL_HPP
#define NSDYN_KERNEL_NEWTONIMPACTFRICTIONNSL_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/NonSmoothLaw.hpp"

namespace nsdyn {

/// One contact with Coulomb friction (coefficient mu ≥ 0) and Newton
/// restitution: normal en, tangential et. size = dim (2 or 3), normal row
/// first. The whole dim-block is one UnitaryRelation; its activity is decided
/// on the normal row. nsdyn::Error on dim ∉ {2,3}, mu < 0, en < 0 or et < 0.
class NSDYN_KERNEL_API NewtonImpactFrictionNSL : public NonSmoothLaw {
 public:
  NewtonImpactFrictionNSL(double en, double et, double mu, std::size_t dim);
  NonSmoothLawKind kind() const override { return NonSmoothLawKind::NewtonImpactFriction; }
  std::string className() const override { return "NewtonImpactFrictionNSL"; }
  std::size_t unitaryBlockSize() const override { return size(); }
  bool isImpactLaw() const override { return true; }
  /// en on row 0 (normal), et on the tangential rows.
  double restitution(std::size_t row) const override { return row == 0 ? en_ : et_; }
  double en() const { return en_; }
  double et() const { return et_; }
  double mu() const { return mu_; }
  std::size_t dim() const { return size(); }

 private:
  double en_, et_, mu_;
};

namespace SP {
using NewtonImpactFrictionNSL = std::shared_ptr<nsdyn::NewtonImpactFrictionNSL>;
}

}  // namespace nsdyn

#endif
