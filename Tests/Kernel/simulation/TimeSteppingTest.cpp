// TimeStepping, TimeDiscretisation, MoreauJeanOSI, EulerMoreauOSI (Kernel/src/simulation).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>

#include "sim_helpers.hpp"

using namespace nsdyn;
using nsdyn::test::makeBall;

class TimeSteppingTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TimeSteppingTest);
  CPPUNIT_TEST(timesAreNotAccumulated);
  CPPUNIT_TEST(freeFlightIsExact);
  CPPUNIT_TEST(firstImpactFollowsNewtonLaw);
  CPPUNIT_TEST(statisticsPerStep);
  CPPUNIT_TEST(runStopsAtFinalTime);
  CPPUNIT_TEST(springMatchesLinearisedNonlinearForm);
  CPPUNIT_TEST(harmonicOscillatorMoreauJean);
  CPPUNIT_TEST(eulerMoreauDecay);
  CPPUNIT_TEST(interactionAddedAndRemovedDuringRun);
  CPPUNIT_TEST_SUITE_END();

 public:
  void timesAreNotAccumulated() {
    TimeDiscretisation td(0.0, 1e-6);
    CPPUNIT_ASSERT_EQUAL(4999 * 1e-6, td.time(4999));
    CPPUNIT_ASSERT_EQUAL(0.1 + 7 * 0.3, TimeDiscretisation(0.1, 0.3).time(7));
  }

  void freeFlightIsExact() {
    // theta = 1/2 is exact for constant gravity: z = 1 - g t^2 / 2
    auto b = makeBall(1.0, 0.0, 0.9, 0.005, 0.4);
    for (int k = 0; k < 60; ++k) {
      b.sim->computeOneStep();
      b.sim->nextStep();
    }
    const double t = 60 * 0.005;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 - 0.5 * 9.81 * t * t, b.ds->q()(0), 1e-13);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-9.81 * t, b.ds->velocity()(0), 1e-13);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, b.floor->lambda(1)(0), 0.0);
  }

  void firstImpactFollowsNewtonLaw() {
    // the step that activates the contact gives v_{k+1} = -e v_k
    auto b = makeBall(1.0, 0.0, 0.9, 0.005, 1.0);
    double vBefore = 0.0;
    while (b.sim->hasNextEvent()) {
      vBefore = b.ds->velocity()(0);
      b.sim->computeOneStep();
      if (b.floor->lambda(1)(0) > 0.0) break;
      b.sim->nextStep();
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.455, b.sim->nextTime(), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.9 * vBefore, b.ds->velocity()(0), 1e-13);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(b.floor->lambda(1)(0), b.ds->p()(0), 0.0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1),
                         b.model->nonSmoothDynamicalSystem()->topology().indexSet(1).size());
  }

  void statisticsPerStep() {
    auto b = makeBall(1.0, 0.0, 0.9, 0.005, 1.0);
    b.sim->run();
    const auto& stats = b.sim->statistics();
    CPPUNIT_ASSERT_EQUAL(std::size_t(200), stats.size());
    CPPUNIT_ASSERT_EQUAL(200L, stats.back().step);
    long active = 0;
    for (const StepStatistics& s : stats) {
      if (s.activeRelations) {
        ++active;
        CPPUNIT_ASSERT(s.solved);
        CPPUNIT_ASSERT_EQUAL(NSD_OK, s.status);
        CPPUNIT_ASSERT(s.iterations > 0);
        CPPUNIT_ASSERT_EQUAL(std::string("lemke"), s.solver);
      } else {
        CPPUNIT_ASSERT(!s.solved);
      }
    }
    CPPUNIT_ASSERT_EQUAL(1L, active);  // one impulse before t = 1 (at 0.455)
  }

  void runStopsAtFinalTime() {
    auto b = makeBall(1.0, 0.0, 0.9, 0.25, 1.0);
    CPPUNIT_ASSERT(b.sim->hasNextEvent());
    b.sim->run();
    CPPUNIT_ASSERT_EQUAL(4L, b.sim->currentStep());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, b.sim->currentTime(), 0.0);
    CPPUNIT_ASSERT(!b.sim->hasNextEvent());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, b.model->currentTime(), 0.0);
  }

  void springMatchesLinearisedNonlinearForm() {
    // the same damped spring as LagrangianLinearTIDS (K, C) and as LagrangianDS
    // with F_int = C v + K q and its Jacobians: one linearised pass is exact
    const double k = 40.0, c = 0.7, h = 1e-3;
    auto lin = std::make_shared<LagrangianLinearTIDS>(SiconosVector{0.1}, SiconosVector{0.0},
                                                      SimpleMatrix{{2.0}}, SimpleMatrix{{k}},
                                                      SimpleMatrix{{c}});
    auto gen =
        std::make_shared<LagrangianDS>(SiconosVector{0.1}, SiconosVector{0.0}, SimpleMatrix{{2.0}});
    gen->setInternalForces([&](const SiconosVector& q, const SiconosVector& v, double) {
      return SiconosVector{k * q(0) + c * v(0)};
    });
    gen->setJacobianFIntq(
        [&](const SiconosVector&, const SiconosVector&, double) { return SimpleMatrix{{k}}; });
    gen->setJacobianFIntv(
        [&](const SiconosVector&, const SiconosVector&, double) { return SimpleMatrix{{c}}; });
    auto model = std::make_shared<Model>(0.0, 1.0);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(lin);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(gen);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), nullptr);
    model->initialize(sim);
    sim->run();
    CPPUNIT_ASSERT_EQUAL(1000L, sim->currentStep());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(lin->q()(0), gen->q()(0), 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(lin->velocity()(0), gen->velocity()(0), 1e-13);
    // and close to the exact damped oscillation
    const double w0 = std::sqrt(k / 2.0), zeta = c / (2.0 * std::sqrt(k * 2.0));
    const double wd = w0 * std::sqrt(1 - zeta * zeta);
    const double exact =
        0.1 * std::exp(-zeta * w0) * (std::cos(wd) + zeta * w0 / wd * std::sin(wd));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(exact, lin->q()(0), 1e-5);
  }

  void harmonicOscillatorMoreauJean() {
    // theta = 1/2 conserves the energy of an undamped oscillator to round-off
    auto ds = std::make_shared<LagrangianLinearTIDS>(SiconosVector{1.0}, SiconosVector{0.0},
                                                     SimpleMatrix{{1.0}}, SimpleMatrix{{4.0}},
                                                     SimpleMatrix{{0.0}});
    auto model = std::make_shared<Model>(0.0, 10.0);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ds);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 0.01),
                                              std::make_shared<MoreauJeanOSI>(0.5), nullptr);
    model->initialize(sim);
    sim->run();
    const double energy =
        0.5 * ds->velocity()(0) * ds->velocity()(0) + 2.0 * ds->q()(0) * ds->q()(0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, energy, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::cos(20.0), ds->q()(0), 2e-3);
  }

  void eulerMoreauDecay() {
    // x' = -x + b: theta = 1/2 (trapezoidal) against the exact solution
    auto ds = std::make_shared<FirstOrderLinearTIDS>(SiconosVector{2.0}, SimpleMatrix{{-1.0}},
                                                     SiconosVector{1.0});
    auto model = std::make_shared<Model>(0.0, 1.0);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ds);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                              std::make_shared<EulerMoreauOSI>(0.5), nullptr);
    model->initialize(sim);
    sim->run();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 + std::exp(-1.0), ds->x()(0), 1e-7);
    // time-dependent A(t) = -1 gives the same
    auto tv = std::make_shared<FirstOrderLinearDS>(
        SiconosVector{2.0},
        FirstOrderLinearDS::MatrixFunction([](double) { return SimpleMatrix{{-1.0}}; }));
    tv->setb([](double) { return SiconosVector{1.0}; });
    auto model2 = std::make_shared<Model>(0.0, 1.0);
    model2->nonSmoothDynamicalSystem()->insertDynamicalSystem(tv);
    auto sim2 = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                               std::make_shared<EulerMoreauOSI>(0.5), nullptr);
    model2->initialize(sim2);
    sim2->run();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(ds->x()(0), tv->x()(0), 1e-13);
  }

  void interactionAddedAndRemovedDuringRun() {
    // no floor at first; the floor is linked at t = 0.2, removed at t = 2
    auto b = makeBall(1.0, 0.0, 0.5, 1e-3, 3.0, 1.0, 9.81, false);
    auto& nsds = *b.model->nonSmoothDynamicalSystem();
    double minZ = 1.0;
    while (b.sim->hasNextEvent()) {
      const double t = b.sim->startingTime();
      if (std::fabs(t - 0.2) < 1e-9) nsds.link(b.floor, b.ds);
      if (std::fabs(t - 2.0) < 1e-9) CPPUNIT_ASSERT(nsds.removeInteraction(b.floor));
      b.sim->computeOneStep();
      if (t < 2.0) minZ = std::min(minZ, b.ds->q()(0));
      b.sim->nextStep();
    }
    CPPUNIT_ASSERT(minZ > -0.02);         // the floor held while linked
    CPPUNIT_ASSERT(b.ds->q()(0) < -1.0);  // and the ball fell through after
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TimeSteppingTest);
