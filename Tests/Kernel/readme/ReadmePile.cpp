#include <cstdio>
#include <nsdyn/Kernel.hpp>
using namespace nsdyn;
int main() {
  auto model = std::make_shared<Model>(0.0, 0.6);
  auto problem = std::make_shared<FrictionContact>(3, "nsgs");
  problem->optionsMutable().tolerance = 1e-3;  // on the Siconos friction error
  auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                            std::make_shared<MoreauJeanOSI>(0.5), problem);
  auto contacts = std::make_shared<ContactManager>();  // detection each step, contacts in arrays
  contacts->setDefaultMaterial({0.5, 0.0});            // mu, restitution
  sim->insertInteractionManager(contacts);
  scenes::ContainerSpec box;  // floor and four walls (planes)
  box.inner = {{0, 0, 0}, {1, 1, 1}};
  for (auto& wall : scenes::container(box)) contacts->addBody(std::move(wall.body));
  scenes::ParticleSpec grain;  // spheres of 5 cm +- 20 %
  grain.radius = 0.05;
  grain.sizeSpread = 0.2;
  grain.density = 2500.0;
  for (const BodySpec& spec : scenes::randomPacking(grain, {{0, 0, 0}, {1, 1, 1}}, 200, 42)) {
    BodyShapes body = makeBody(spec);
    body.body()->setFExt(SiconosVector{0, 0, -9.81 * body.body()->scalarMass()});
    contacts->addBody(*model->nonSmoothDynamicalSystem(), std::move(body));
  }
  model->initialize(sim);
  while (sim->hasNextEvent()) {
    sim->computeOneStep();
    const StepStatistics& st = sim->lastStatistics();
    if (st.step % 100 == 0)
      std::printf("t = %.1f  contacts %zu  iterations %d\n", st.time, st.detectedContacts,
                  st.iterations);
    sim->nextStep();
  }
}
