// Long runs (issue "Reliability", item 7): 10^6 steps of a ball at rest on a floor (LCP)
// and of a box resting on a plane (ContactManager, FrictionContact(3)), each step checked
// for NaN and energy drift, and the resident memory compared between the first tenth of
// the run and its end (Simulation::setStatisticsHistory keeps it flat).
#include <cppunit/extensions/HelperMacros.h>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/FrictionContact.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Kernel.hpp>

using namespace nsdyn;

namespace {

constexpr double kG = 9.81;
constexpr long kSteps = 1000000;

/// Resident set size of this process, bytes (Linux /proc/self/statm).
double residentBytes() {
  std::ifstream in("/proc/self/statm");
  long pages = 0, resident = 0;
  in >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

bool finite(const SiconosVector& v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v(i))) return false;
  return true;
}

}  // namespace

class SoakTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SoakTest);
  CPPUNIT_TEST(ballAtRestForAMillionSteps);
  CPPUNIT_TEST(boxRestingForAMillionSteps);
  CPPUNIT_TEST(statisticsHistoryIsBounded);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// A unit ball (1 dof) resting on the floor z = 0, e = 0.9, h = 1e-3, Lemke: it must stay
  /// there (no drift, no NaN), its energy constant, its memory flat.
  void ballAtRestForAMillionSteps() {
    const double h = 1e-3;
    auto model = std::make_shared<Model>(0.0, h * kSteps);
    auto ball = std::make_shared<LagrangianLinearTIDS>(SiconosVector{0.0}, SiconosVector{0.0},
                                                       SimpleMatrix{{1.0}});
    ball->setFExt(SiconosVector{-kG});
    auto& nsds = *model->nonSmoothDynamicalSystem();
    nsds.insertDynamicalSystem(ball);
    nsds.link(
        std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(0.9),
                                      std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0}})),
        ball);
    auto lcp = std::make_shared<LCP>("lemke");
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), lcp);
    sim->setStatisticsHistory(16);
    model->initialize(sim);
    double early = 0.0, worstZ = 0.0, worstV = 0.0;
    for (long k = 1; k <= kSteps; ++k) {
      sim->computeOneStep();
      sim->nextStep();
      const double z = ball->q()(0), v = ball->velocity()(0);
      if (!std::isfinite(z) || !std::isfinite(v))
        CPPUNIT_FAIL("non-finite state at step " + std::to_string(k));
      worstZ = std::max(worstZ, std::fabs(z));
      worstV = std::max(worstV, std::fabs(v));
      if (sim->lastStatistics().status != NSD_OK)
        CPPUNIT_FAIL("failed solve at step " + std::to_string(k));
      if (k == kSteps / 10) early = residentBytes();
    }
    // at rest: the floor impulse carries the weight every step, nothing moves
    CPPUNIT_ASSERT(worstZ <= 1e-12);
    CPPUNIT_ASSERT(worstV <= 1e-12);
    CPPUNIT_ASSERT(sim->statistics().size() <= 32);
    const double grown = residentBytes() - early;
    CPPUNIT_ASSERT_MESSAGE("memory grew by " + std::to_string(grown) + " bytes", grown < 1.0e6);
  }

  /// A 0.4 x 0.2 x 0.1 m box (800 kg/m3) resting on a plane through its 4 corner contacts,
  /// NSGS, warm start, h = 1e-3: position and orientation drift stay at round-off,
  /// kinetic energy stays at rest level, every solve succeeds, memory is flat.
  void boxRestingForAMillionSteps() {
    const double h = 1e-3;
    auto model = std::make_shared<Model>(0.0, h * kSteps);
    auto problem = std::make_shared<FrictionContact>(3, "nsgs");
    problem->optionsMutable().tolerance = 1e-10;
    problem->optionsMutable().max_iterations = 1000;
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), problem);
    auto contacts = std::make_shared<ContactManager>();
    sim->insertInteractionManager(contacts);
    auto& nsds = *model->nonSmoothDynamicalSystem();
    ShapeInstance plane;
    plane.shape = std::make_shared<HalfSpaceShape>(Shape::Vec3{0, 0, 1}, 0.0);
    contacts->addBody(nsds, makeStaticBody({plane}));
    ShapeInstance box;
    box.shape = std::make_shared<BoxShape>(Shape::Vec3{0.2, 0.1, 0.05});
    BodyShapes body = makeBody({box}, 800.0, {0.0, 0.0, 0.05});
    SP::NewtonEulerDS ds = body.body();
    ds->setFExt(SiconosVector({0.0, 0.0, -ds->scalarMass() * kG}));
    contacts->addBody(nsds, std::move(body));
    sim->setStatisticsHistory(16);
    model->initialize(sim);
    const SiconosVector q0 = ds->q();
    double early = 0.0, worstDrift = 0.0, worstKinetic = 0.0;
    long failed = 0;
    for (long k = 1; k <= kSteps; ++k) {
      sim->computeOneStep();
      sim->nextStep();
      if (!finite(ds->q()) || !finite(ds->velocity()))
        CPPUNIT_FAIL("non-finite state at step " + std::to_string(k));
      if (sim->lastStatistics().status != NSD_OK) ++failed;
      if (k % 1000 == 0) {
        for (std::size_t i = 0; i < 7; ++i)
          worstDrift = std::max(worstDrift, std::fabs(ds->q()(i) - q0(i)));
        worstKinetic = std::max(worstKinetic, ds->kineticEnergy());
      }
      if (k == kSteps / 10) early = residentBytes();
    }
    CPPUNIT_ASSERT_EQUAL(0L, failed);
    CPPUNIT_ASSERT_MESSAGE("pose drift " + std::to_string(worstDrift), worstDrift <= 1e-9);
    // m g h-scale: resting contact leaves only round-off velocities
    CPPUNIT_ASSERT_MESSAGE("kinetic energy " + std::to_string(worstKinetic), worstKinetic <= 1e-12);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), contacts->contacts().size());
    const double grown = residentBytes() - early;
    CPPUNIT_ASSERT_MESSAGE("memory grew by " + std::to_string(grown) + " bytes", grown < 1.0e6);
  }

  /// The history option keeps the last N steps (and every step by default).
  void statisticsHistoryIsBounded() {
    auto model = std::make_shared<Model>(0.0, 1.0);
    auto ball = std::make_shared<LagrangianLinearTIDS>(SiconosVector{1.0}, SiconosVector{0.0},
                                                       SimpleMatrix{{1.0}});
    ball->setFExt(SiconosVector{-kG});
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ball);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                              std::make_shared<MoreauJeanOSI>(0.5),
                                              std::make_shared<LCP>("lemke"));
    model->initialize(sim);
    for (int k = 0; k < 100; ++k) sim->computeOneStep(), sim->nextStep();
    CPPUNIT_ASSERT_EQUAL(std::size_t(100), sim->statistics().size());
    sim->setStatisticsHistory(10);
    CPPUNIT_ASSERT_EQUAL(std::size_t(10), sim->statistics().size());
    CPPUNIT_ASSERT_EQUAL(100L, sim->statistics().back().step);
    for (int k = 0; k < 95; ++k) sim->computeOneStep(), sim->nextStep();
    CPPUNIT_ASSERT(sim->statistics().size() >= 10 && sim->statistics().size() <= 20);
    CPPUNIT_ASSERT_EQUAL(195L, sim->statistics().back().step);
    CPPUNIT_ASSERT_EQUAL(195L, sim->lastStatistics().step);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SoakTest);
