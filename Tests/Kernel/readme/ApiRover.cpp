#include <cstdio>
#include <nsdyn/Kernel.hpp>
using namespace nsdyn;

// a body with one shape at (x, y, z), gravity -z, detected by the contact manager (group 1:
// the rover's bodies do not touch each other)
SP::NewtonEulerDS part(ContactManager& c, NonSmoothDynamicalSystem& nsds, SP::Shape s, double m,
                       double x, double y, double z) {
  BodySpec spec;
  spec.shapes = {ShapeInstance{s}};
  spec.mass = m;
  spec.position = {x, y, z};
  BodyShapes b = makeBody(spec);
  auto ds = b.body();
  ds->setFExt(SiconosVector{0, 0, -9.81 * m});
  c.addBody(nsds, std::move(b), 1);
  return ds;
}

int main() {
  const double R = 0.15, h = 0.3;  // wheel radius, axle height
  auto model = std::make_shared<Model>(0.0, 2.0);
  auto nsds = model->nonSmoothDynamicalSystem();
  auto problem = std::make_shared<GenericMechanical>();  // hinges, motors, contacts: one W
  auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 2e-3),
                                            std::make_shared<MoreauJeanOSI>(0.5), problem);
  auto contacts = std::make_shared<ContactManager>();
  contacts->setDefaultMaterial({0.8, 0.0});  // mu, restitution
  sim->insertInteractionManager(contacts);
  // terrain: a 41 x 11 heightfield of 10 cm cells, flat at z = h - R under the wheels
  std::vector<double> heights(41 * 11, h - R);
  contacts->addBody(makeStaticBody(
      {ShapeInstance{std::make_shared<HeightfieldShape>(41, 11, 0.1, 0.1, heights)}}, {1, 0, 0}));
  auto chassis = part(*contacts, *nsds, std::make_shared<BoxShape>(Shape::Vec3{0.35, 0.15, 0.05}),
                      20.0, 0, 0, h);
  std::vector<SP::NewtonEulerDS> wheels;
  for (double x : {0.3, -0.3})
    for (double y : {0.3, -0.3}) {
      auto wheel = part(*contacts, *nsds, std::make_shared<SphereShape>(R), 2.0, x, y, h);
      auto hinge = std::make_shared<PivotJointR>(SiconosVector{x, y, h}, SiconosVector{0, 1, 0},
                                                 true, chassis, wheel);
      nsds->link(std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(5), hinge),
                 chassis, wheel);
      // velocity motor: 1 m/s over R after a 0.5 s ramp, at most 10 N m
      auto motor = JointAxisR::motor(
          hinge, [=](double t) { return (1.0 / R) * std::min(1.0, t / 0.5); }, 10.0);
      nsds->link(motor, chassis, wheel);
      wheels.push_back(wheel);
    }
  model->initialize(sim);
  while (sim->hasNextEvent()) {
    sim->computeOneStep();
    sim->nextStep();
  }
  std::printf("chassis vx = %.6f m/s, x = %.4f m; wheel omega R = %.6f m/s\n",
              chassis->velocity()(0), chassis->q()(0), wheels[0]->velocity()(4) * R);
}
