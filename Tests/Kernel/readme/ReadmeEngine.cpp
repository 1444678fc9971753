#include <cstdio>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/SceneEngine.hpp>
using namespace nsdyn;
int main() {
  SceneEngineOptions options;              // h = 1e-3, gravity (0, 0, -9.81)
  options.solver = "nsgs";                 // Gauss-Seidel on body velocities
  options.solverOptions.tolerance = 1e-3;  // on the Siconos friction error
  options.solverOptions.max_iterations = 1000;
  SceneEngine scene(options);            // bodies and contacts in arrays
  scene.setDefaultMaterial({0.5, 0.0});  // mu, restitution
  scenes::ContainerSpec box;             // floor and four walls (planes)
  box.inner = {{0, 0, 0}, {1, 1, 1}};
  for (auto& wall : scenes::container(box)) scene.addBody(wall.body);
  scenes::ParticleSpec grain;  // spheres of 5 cm +- 20 %
  grain.radius = 0.05;
  grain.sizeSpread = 0.2;
  grain.density = 2500.0;
  for (const BodySpec& spec : scenes::randomPacking(grain, {{0, 0, 0}, {1, 1, 1}}, 200, 42))
    scene.addBody(spec);  // gravity is the scene's
  for (int k = 1; k <= 600; ++k) {
    const SceneEngine::StepReport& r = scene.step();
    if (k % 100 == 0)
      std::printf("t = %.1f  contacts %zu  iterations %d  kinetic %.3g J\n", r.time, r.contacts,
                  r.solver.iterations, r.kineticEnergy);
  }
  std::printf("first grain at z = %.3f m\n", scene.body(5).position()[2]);  // bodies 0-4: the walls
}
