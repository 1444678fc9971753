// Small model builders shared by the simulation tests.
#pragma once
#include <nsdyn/Kernel.hpp>

namespace nsdyn::test {

/// A ball (1 dof, mass m) at height z0 with velocity v0 under gravity g, and
/// a floor contact y = z with restitution e.
struct Ball {
  SP::LagrangianLinearTIDS ds;
  SP::Interaction floor;
  SP::Model model;
  SP::TimeStepping sim;
};

inline Ball makeBall(double z0, double v0, double e, double h, double T, double m = 1.0,
                     double g = 9.81, bool linkFloor = true) {
  Ball b;
  b.ds = std::make_shared<LagrangianLinearTIDS>(SiconosVector{z0}, SiconosVector{v0},
                                                SimpleMatrix{{m}});
  b.ds->setFExt(SiconosVector{-m * g});
  b.floor =
      std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(e),
                                    std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0}}));
  b.model = std::make_shared<Model>(0.0, T);
  b.model->nonSmoothDynamicalSystem()->insertDynamicalSystem(b.ds);
  if (linkFloor) b.model->nonSmoothDynamicalSystem()->link(b.floor, b.ds);
  b.sim =
      std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                     std::make_shared<MoreauJeanOSI>(0.5), std::make_shared<LCP>());
  b.model->initialize(b.sim);
  return b;
}

}  // namespace nsdyn::test
