/// @file MoreauJeanOSI.hpp
/// @brief Moreau–Jean θ-scheme for Lagrangian systems.
#ifndef NSDYN_KERNEL_MOREAUJEANOSI_HPP
#define NSDYN_KERNEL_MOREAUJEANOSI_HPP

#include <memory>

#include "nsdyn/OneStepIntegrator.hpp"

namespace nsdyn {

/// Moreau–Jean time-stepping for Lagrangian systems, as in reference
/// README §"Common scheme". With K = ∂F_int/∂q and C = ∂F_int/∂v at
/// (q_k, v_k, t_k):
///   W = M + θh C + θ²h² K,
///   v_free = v_k + W⁻¹ [ h(θ F_ext(t_{k+1}) + (1−θ) F_ext(t_k)) − h F_int(q_k, v_k, t_k) − θh² K v_k ],
///   v_{k+1} = v_free + W⁻¹ p,  q_{k+1} = q_k + h(θ v_{k+1} + (1−θ) v_k).
/// For LagrangianLinearTIDS, F_int = C v + K q, this is exactly the linear
/// θ-scheme (W factorised once). For a general LagrangianDS with nonlinear
/// forces it is the θ-scheme linearised at the step start, in one pass (the
/// Siconos LINEAR mode, no Newton loop); M(q) and W are recomputed at q_k.
class MoreauJeanOSI : public OneStepIntegrator {
 public:
  /// θ in [0, 1]; default 0.5.
  explicit MoreauJeanOSI(double theta = 0.5) : OneStepIntegrator(theta) {}

  std::string className() const override { return "MoreauJeanOSI"; }
  bool accepts(const DynamicalSystem& ds) const override;
  DynamicalSystemKind systemKind() const override { return DynamicalSystemKind::Lagrangian; }
  unsigned levelForProblem() const override { return 1; }

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
using MoreauJeanOSI = std::shared_ptr<nsdyn::MoreauJeanOSI>;
}

}  // namespace nsdyn

#endif
