// Simulations of rigid bodies and nonlinear Lagrangian systems through
// TimeStepping: the Newton loop (MECHANICS.md §0.4), its options and
// statistics, LCP / MLCP / FrictionContact problems on bodies, boundary
// conditions, the projection variant, and the checks at initialisation.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <nsdyn/Kernel.hpp>

using namespace nsdyn;

namespace {
const double kG = 9.81;

SP::NewtonEulerDS body(double z, double vz) {
  auto b = std::make_shared<NewtonEulerDS>(SiconosVector{0.0, 0.0, z, 1.0, 0.0, 0.0, 0.0},
                                           SiconosVector{0.0, 0.0, vz, 0.0, 0.0, 0.0}, 2.0,
                                           SimpleMatrix::diagonal(SiconosVector{0.1, 0.2, 0.3}));
  b->setFExt(SiconosVector{0.0, 0.0, -2.0 * kG});
  return b;
}

/// Sphere of radius r on the plane z = 0 (normal +z), 1 or 3 rows.
template <class R>
std::shared_ptr<R> sphereOnFloor(double r) {
  return std::make_shared<R>([r](const SiconosVector& q, double, NewtonEuler1DR::Geometry& g) {
    g.N = SiconosVector{0.0, 0.0, 1.0};
    g.Pc1 = SiconosVector{q(0), q(1), q(2) - r};
    return q(2) - r;
  });
}

/// Pendulum of length l as a nonlinear LagrangianDS in the angle: M = m l², F_int = m g l sin(a).
SP::LagrangianDS pendulum(double a0) {
  const double m = 1.0, l = 1.0;
  auto ds = std::make_shared<LagrangianDS>(SiconosVector{a0}, SiconosVector{0.0},
                                           SimpleMatrix{{m * l * l}});
  ds->setInternalForces([=](const SiconosVector& q, const SiconosVector&, double) {
    return SiconosVector{m * kG * l * std::sin(q(0))};
  });
  ds->setJacobianFIntq([=](const SiconosVector& q, const SiconosVector&, double) {
    return SimpleMatrix{{m * kG * l * std::cos(q(0))}};
  });
  return ds;
}

double pendulumEnergy(const LagrangianDS& ds) {
  return 0.5 * ds.velocity()(0) * ds.velocity()(0) - kG * std::cos(ds.q()(0));
}
}  // namespace

class MechanicsSimulationTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MechanicsSimulationTest);
  CPPUNIT_TEST(freeFallMatchesTheThetaScheme);
  CPPUNIT_TEST(bodyOnFloorWithLcp);
  CPPUNIT_TEST(bodyOnFloorWithFrictionContact);
  CPPUNIT_TEST(nonlinearLagrangianNewtonAndLinearised);
  CPPUNIT_TEST(newtonStopsAtItsMaximum);
  CPPUNIT_TEST(boundaryConditionNeedsNewton);
  CPPUNIT_TEST(projectionRemovesPenetration);
  CPPUNIT_TEST(eventDrivenRefusesBodies);
  CPPUNIT_TEST(badInputAtInitialisation);
  CPPUNIT_TEST_SUITE_END();

 public:
  void freeFallMatchesTheThetaScheme() {
    // no contact: v_{k+1} = v_k - h g, z_{k+1} = z_k + h (v_k + v_{k+1}) / 2 (theta = 1/2), one
    // Newton iteration
    auto b = body(1.0, 0.5);
    auto model = std::make_shared<Model>(0.0, 1.0);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(b);
    const double h = 0.01;
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), nullptr);
    model->initialize(sim);
    CPPUNIT_ASSERT(sim->usesNewton());
    double z = 1.0, v = 0.5;
    for (int k = 0; k < 100; ++k) {
      sim->computeOneStep();
      const double v1 = v - h * kG;
      z += h * 0.5 * (v + v1);
      v = v1;
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z, b->q()(2), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(v, b->velocity()(2), 1e-12);
      CPPUNIT_ASSERT_EQUAL(1, sim->lastStatistics().newtonIterations);
      CPPUNIT_ASSERT(sim->lastStatistics().newtonConverged);
      sim->nextStep();
    }
    // energy of the applied force: kinetic + potential constant to round-off for a constant force
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 * 2.0 * 0.25 - 2.0 * (-kG) * 1.0,
                                 b->kineticEnergy() + b->potentialEnergy(sim->nextTime()), 1e-9);
  }

  void bodyOnFloorWithLcp() {
    // NewtonEuler1DR + NewtonImpactNSL(e = 0) + LCP: the body comes to rest on the floor
    auto b = body(0.3, -1.0);
    auto inter = std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(0.0),
                                               sphereOnFloor<NewtonEuler1DR>(0.1));
    auto model = std::make_shared<Model>(0.0, 1.0);
    model->nonSmoothDynamicalSystem()->link(inter, b);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                              std::make_shared<MoreauJeanOSI>(0.5),
                                              std::make_shared<LCP>("lemke"));
    model->initialize(sim);
    sim->run();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, b->velocity()(2), 1e-12);
    CPPUNIT_ASSERT(b->q()(2) > 0.1 - 2e-3 && b->q()(2) < 0.1);
    // resting: the impulse per step balances the weight, lambda = m g h
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 * kG * 1e-3, inter->lambda(1)(0), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 * kG * 1e-3, inter->contactForce(1.0)(2), 1e-12);
  }

  void bodyOnFloorWithFrictionContact() {
    // sliding body, mu = 0.3: decelerates at mu g while sliding, then sticks
    auto b = body(0.1, 0.0);
    b->velocityMutable()(0) = 1.0;
    auto inter =
        std::make_shared<Interaction>(std::make_shared<NewtonImpactFrictionNSL>(0.0, 0.0, 0.3, 3),
                                      sphereOnFloor<NewtonEuler3DR>(0.1));
    auto model = std::make_shared<Model>(0.0, 1.0);
    model->nonSmoothDynamicalSystem()->link(inter, b);
    auto fc = std::make_shared<FrictionContact>(3);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                              std::make_shared<MoreauJeanOSI>(0.5), fc);
    model->initialize(sim);
    // the body's rotation couples the tangential contact velocity: compare the
    // contact-point velocity, which ends at 0 (rolling or sticking) and the
    // Coulomb bound |lambda_t| <= mu lambda_n every step
    for (int k = 0; k < 1000; ++k) {
      sim->computeOneStep();
      const SiconosVector& l = inter->lambda(1);
      CPPUNIT_ASSERT(std::hypot(l(1), l(2)) <= 0.3 * l(0) * (1 + 1e-6) + 1e-12);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, sim->lastStatistics().status);
      sim->nextStep();
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, inter->y(1)(1), 1e-6);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, inter->y(1)(2), 1e-6);
    CPPUNIT_ASSERT(b->velocity()(0) < 1.0 && b->velocity()(0) > 0.0);
  }

  void nonlinearLagrangianNewtonAndLinearised() {
    // a pendulum (nonlinear F_int) with theta = 1/2: Newton keeps the energy far better
    // than the one-pass linearised scheme, and records its iterations
    const double h = 0.01;
    auto run = [&](NewtonMode mode, double& drift, int& maxIt) {
      auto ds = pendulum(1.2);
      auto model = std::make_shared<Model>(0.0, 10.0);
      model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ds);
      auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                                std::make_shared<MoreauJeanOSI>(0.5), nullptr);
      sim->setNewtonOptions(mode);
      sim->setNewtonTolerance(1e-12);
      model->initialize(sim);
      const double e0 = pendulumEnergy(*ds);
      drift = 0.0;
      maxIt = 0;
      while (sim->hasNextEvent()) {
        sim->computeOneStep();
        drift = std::max(drift, std::fabs(pendulumEnergy(*ds) - e0));
        maxIt = std::max(maxIt, sim->lastStatistics().newtonIterations);
        sim->nextStep();
      }
    };
    double newtonDrift, linearDrift;
    int newtonIt, linearIt;
    run(NewtonMode::Auto, newtonDrift, newtonIt);
    run(NewtonMode::Linear, linearDrift, linearIt);
    CPPUNIT_ASSERT(newtonIt >= 2 && newtonIt <= 10);
    CPPUNIT_ASSERT_EQUAL(0, linearIt);
    // the implicit midpoint-like theta = 1/2 scheme: energy error bounded by O(h^2)
    CPPUNIT_ASSERT(newtonDrift < 5e-3);
    CPPUNIT_ASSERT(newtonDrift < 0.5 * linearDrift);
  }

  void newtonStopsAtItsMaximum() {
    auto ds = pendulum(1.2);
    auto model = std::make_shared<Model>(0.0, 0.1);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ds);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 0.05),
                                              std::make_shared<MoreauJeanOSI>(0.5), nullptr);
    sim->setNewtonTolerance(1e-15);
    sim->setNewtonMaxIteration(1);
    model->initialize(sim);
    sim->computeOneStep();
    CPPUNIT_ASSERT_EQUAL(1, sim->lastStatistics().newtonIterations);
    CPPUNIT_ASSERT(!sim->lastStatistics().newtonConverged);
  }

  void boundaryConditionNeedsNewton() {
    // a body moved at a prescribed velocity along x: exact, with the reaction reported
    auto b = body(0.0, 0.0);
    b->setBoundaryConditions({0, 2}, [](double t) { return SiconosVector{std::sin(t), 0.0}; });
    auto model = std::make_shared<Model>(0.0, 1.0);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(b);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 0.01),
                                              std::make_shared<MoreauJeanOSI>(0.5), nullptr);
    model->initialize(sim);
    CPPUNIT_ASSERT(sim->usesNewton());
    for (int k = 0; k < 100; ++k) {
      sim->computeOneStep();
      CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sin(sim->nextTime()), b->velocity()(0), 1e-14);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, b->velocity()(2), 1e-14);  // weight held by the condition
      sim->nextStep();
    }
    // linearised mode refused with boundary conditions
    auto b2 = body(0.0, 0.0);
    b2->setBoundaryConditions({0}, [](double) { return SiconosVector{1.0}; });
    auto model2 = std::make_shared<Model>(0.0, 1.0);
    model2->nonSmoothDynamicalSystem()->insertDynamicalSystem(b2);
    auto sim2 = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 0.01),
                                               std::make_shared<MoreauJeanOSI>(0.5), nullptr);
    sim2->setNewtonOptions(NewtonMode::Linear);
    CPPUNIT_ASSERT_THROW(model2->initialize(sim2), Error);
  }

  void projectionRemovesPenetration() {
    // a body thrown into the floor: after each active step the gap is >= -1e-8
    auto b = body(0.12, -3.0);
    auto inter = std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(0.5),
                                               sphereOnFloor<NewtonEuler1DR>(0.1));
    auto model = std::make_shared<Model>(0.0, 0.5);
    model->nonSmoothDynamicalSystem()->link(inter, b);
    auto sim = std::make_shared<TimeSteppingDirectProjection>(
        std::make_shared<TimeDiscretisation>(0.0, 0.01),
        std::make_shared<MoreauJeanDirectProjectionOSI>(0.5), std::make_shared<LCP>("lemke"));
    model->initialize(sim);
    int projections = 0;
    while (sim->hasNextEvent()) {
      sim->computeOneStep();
      projections += sim->lastStatistics().projectionIterations;
      if (sim->nonSmoothDynamicalSystem().topology().indexSet(1).size() > 0)
        CPPUNIT_ASSERT(inter->y(0)(0) >= -1e-8);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, b->q()(3), 1e-15);
      sim->nextStep();
    }
    CPPUNIT_ASSERT(projections > 0);
    CPPUNIT_ASSERT_EQUAL(0L, sim->projectionFailures());
  }

  void eventDrivenRefusesBodies() {
    auto b = body(1.0, 0.0);
    auto model = std::make_shared<Model>(0.0, 1.0);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(b);
    auto sim = std::make_shared<EventDriven>(
        std::make_shared<TimeDiscretisation>(0.0, 0.01), std::make_shared<CvodeOSI>(),
        std::make_shared<LCP>("lemke"), std::make_shared<LCP>("lemke"));
    CPPUNIT_ASSERT_THROW(model->initialize(sim), Error);
  }

  void badInputAtInitialisation() {
    // a Lagrangian relation on a body: sizes are those of q (7), checked at link time
    auto b = body(1.0, 0.0);
    auto bad = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(0.5),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{0.0, 0.0, 1.0}}));
    auto model = std::make_shared<Model>(0.0, 1.0);
    model->nonSmoothDynamicalSystem()->link(bad, b);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 0.01),
                                              std::make_shared<MoreauJeanOSI>(0.5),
                                              std::make_shared<LCP>());
    CPPUNIT_ASSERT_THROW(model->initialize(sim), Error);
    // Newton options
    auto b2 = body(1.0, 0.0);
    auto model2 = std::make_shared<Model>(0.0, 1.0);
    model2->nonSmoothDynamicalSystem()->insertDynamicalSystem(b2);
    auto sim2 = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 0.01),
                                               std::make_shared<MoreauJeanOSI>(0.5), nullptr);
    sim2->setNewtonTolerance(-1.0);
    CPPUNIT_ASSERT_THROW(model2->initialize(sim2), Error);
    sim2->setNewtonTolerance(1e-8);
    sim2->setNewtonMaxIteration(0);
    CPPUNIT_ASSERT_THROW(model2->initialize(sim2), Error);
    // a first-order relation cannot take a body
    auto c = std::make_shared<Interaction>(
        std::make_shared<ComplementarityConditionNSL>(1),
        std::make_shared<FirstOrderLinearTIR>(SimpleMatrix(1, 6), SimpleMatrix(6, 1)));
    c->setDynamicalSystems(b2);
    CPPUNIT_ASSERT_THROW(c->checkConsistency(), Error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MechanicsSimulationTest);
