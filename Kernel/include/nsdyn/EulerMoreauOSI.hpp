/// @file EulerMoreauOSI.hpp
/// @brief Euler–Moreau θ-scheme for first-order linear systems.
#ifndef NSDYN_KERNEL_EULERMOREAUOSI_HPP
#define NSDYN_KERNEL_EULERMOREAUOSI_HPP

#include <memory>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/OneStepIntegrator.hpp"

namespace nsdyn {

/// Euler–Moreau scheme for ẋ = A(t) x + b(t) + r (reference README §2):
///   W = I − θh A(t_{k+1}),
///   x_free = x_k + W⁻¹ h [ (θ A(t_{k+1}) + (1−θ) A(t_k)) x_k + θ b(t_{k+1}) + (1−θ) b(t_k) ],
///   x_{k+1} = x_free + h W⁻¹ r_{k+1},  r = B λ_{k+1} (fully implicit input).
/// For constant A this is x_free = x_k + W⁻¹ h (A x_k + b).
/// The local problem is  w = (D + h C W⁻¹ B) λ + C x_free + F u + e.
class NSDYN_KERNEL_API EulerMoreauOSI : public OneStepIntegrator {
 public:
  /// θ in [0, 1]; default 0.5.
  explicit EulerMoreauOSI(double theta = 0.5) : OneStepIntegrator(theta) {}

  std::string className() const override { return "EulerMoreauOSI"; }
  bool accepts(const DynamicalSystem& ds) const override;
  DynamicalSystemKind systemKind() const override { return DynamicalSystemKind::FirstOrder; }
  unsigned levelForProblem() const override { return 0; }

  void initialize(const std::vector<SP::DynamicalSystem>& systems, double t0, double h) override;
  void computeFreeState(double tk, double tk1) override;
  SiconosVector computeFreeOutput(const UnitaryRelation& ur, double tk1) const override;
  SimpleMatrix computeDelassusBlock(const UnitaryRelation& a, const UnitaryRelation& b,
                                    const DynamicalSystem& ds, double tk1) const override;
  void updateState(double tk1) override;

 private:
  void computeW(const DynamicalSystem& ds, double t);
};

namespace SP {
using EulerMoreauOSI = std::shared_ptr<nsdyn::EulerMoreauOSI>;
}

}  // namespace nsdyn

#endif
