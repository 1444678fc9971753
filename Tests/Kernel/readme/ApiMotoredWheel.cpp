#include <cstdio>
#include <nsdyn/Kernel.hpp>
using namespace nsdyn;

// a body of mass m at (x, 0, z), inertia I times identity, under gravity -z
SP::NewtonEulerDS body(double x, double z, double m, double I) {
  auto b = std::make_shared<NewtonEulerDS>(SiconosVector{x, 0, z, 1, 0, 0, 0}, SiconosVector(6), m,
                                           SimpleMatrix::diagonal(SiconosVector{I, I, I}));
  b->setFExt(SiconosVector{0, 0, -9.81 * m});
  return b;
}
SP::Interaction equality(const SP::NewtonEulerJointR& j) {
  return std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(j->rows()), j);
}

int main() {
  const double R = 0.3;
  auto model = std::make_shared<Model>(0.0, 1.0);
  auto nsds = model->nonSmoothDynamicalSystem();
  auto problem = std::make_shared<GenericMechanical>();  // joints, motor and contacts in one W
  auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                            std::make_shared<MoreauJeanOSI>(0.5), problem);
  auto contacts = std::make_shared<ContactManager>();
  contacts->setDefaultMaterial({0.8, 0.0});  // mu, restitution
  sim->insertInteractionManager(contacts);
  auto plane = std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0);
  contacts->addBody(makeStaticBody({ShapeInstance{plane}}));
  // a chassis sliding along x, a carrier sliding in it vertically, the wheel hinged to the carrier
  auto chassis = body(0, 1, 10.0, 1.0), carrier = body(0, R, 0.5, 0.01);
  nsds->insertDynamicalSystem(chassis);
  nsds->insertDynamicalSystem(carrier);
  BodySpec spec;
  spec.shapes = {ShapeInstance{std::make_shared<SphereShape>(R)}};
  spec.mass = 1.0;
  spec.position = {0, 0, R};
  BodyShapes w = makeBody(spec);
  auto wheel = w.body();
  wheel->setFExt(SiconosVector{0, 0, -9.81});
  contacts->addBody(*nsds, std::move(w));
  const SiconosVector x{1, 0, 0}, y{0, 1, 0}, z{0, 0, 1};
  nsds->link(equality(std::make_shared<PrismaticJointR>(x, true, chassis)), chassis);
  nsds->link(equality(std::make_shared<PrismaticJointR>(z, true, chassis, carrier)), chassis,
             carrier);
  auto hinge = std::make_shared<PivotJointR>(SiconosVector{0, 0, R}, y, true, carrier, wheel);
  nsds->link(equality(hinge), carrier, wheel);
  // velocity motor: 2 t rad/s about the hinge axis, at most 20 N m
  auto motor = JointAxisR::motor(
      hinge, [](double t) { return 2.0 * t; }, 20.0);
  nsds->link(motor, carrier, wheel);
  model->initialize(sim);
  double work = 0.0;
  while (sim->hasNextEvent()) {
    sim->computeOneStep();
    work += JointAxisR::work(*motor);
    sim->nextStep();
  }
  std::printf("v = %.6f m/s, omega R = %.6f m/s, motor torque %.4f N m, motor work %.4f J\n",
              wheel->velocity()(0), wheel->velocity()(4) * R, problem->reaction(*motor)(0), work);
}
