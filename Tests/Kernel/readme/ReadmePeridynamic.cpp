#include <cstdio>
#include <nsdyn/BondBasedMaterial.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/PeridynamicGenerators.hpp>
#include <nsdyn/PeridynamicSceneSystem.hpp>
#include <nsdyn/SceneEngine.hpp>
using namespace nsdyn;
int main() {
  SceneEngineOptions options;
  options.h = 5e-4;
  options.gravity = {0, 0, 0};
  options.solverOptions.tolerance = 1e-8;
  SceneEngine scene(options);
  scene.setDefaultMaterial({0.0, 0.0});  // no friction, no restitution
  ShapeInstance floor;
  floor.shape = std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0);
  scene.addStatic({floor});  // the plane z = 0
  PeridynamicElasticity rubber;
  rubber.youngModulus = 1e6;  // Pa; the bond-based model has nu = 1/4
  PeridynamicBodyOptions o;
  o.spacing = 0.01;  // points 1 cm apart, horizon 3 cm
  o.horizon = 0.03;
  o.density = 1000.0;
  auto material = std::make_shared<BondBasedMaterial>(rubber);
  std::shared_ptr<PeridynamicBody> ball =
      peridynamics::sphere({0, 0, 0.0451}, 0.04, o, material);  // 280 points
  ball->setVelocity({0, 0, -1});                                // falling at 1 m/s
  scene.addSystem(std::make_shared<PeridynamicSceneSystem>(ball));
  const double m = ball->totalMass();
  for (int k = 1; k <= 60; ++k) {
    const SceneEngine::StepReport& r = scene.step();
    if (k % 10 == 0)
      std::printf("t = %.3f  contacts %3zu  centre at z = %.4f m, vz = %+.3f m/s\n", r.time,
                  r.contacts, ball->centreOfMass()[2], ball->momentum()[2] / m);
  }
}
