// GenericMechanical (issue 26): joints and detected contacts in one generic mechanical
// problem. The same trajectory as the MLCP path with only joints and as FrictionContact(3)
// with only contacts (to 1e-10), the energy of a motor-free conservative mechanism kept per
// step (theta = 1/2), the Numerics relay blocks, the bad-input messages.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/nsd_gmp.h>
#include <nsdyn/nsd_io.h>
#include <nsdyn/nsd_options.h>
#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;
using Vec3 = Shape::Vec3;

namespace {

constexpr double kG = 9.81;

ShapeInstance inst(std::shared_ptr<const Shape> s) {
  ShapeInstance i;
  i.shape = std::move(s);
  return i;
}

/// The double pendulum of Examples/DoublePendulumHinges (two rods, two hinges), stepped
/// N steps by @p problem; the rods' q after every step, stacked; energy per step in @p E.
std::vector<double> doublePendulum(const SP::OneStepNSProblem& problem, long N, bool midpoint,
                                   std::vector<double>* E = nullptr) {
  const double h = 1e-3, m = 1.0, L = 1.0;
  const SimpleMatrix inertia =
      SimpleMatrix::diagonal(SiconosVector{0.01, m * L * L / 12.0, m * L * L / 12.0});
  auto rod1 = std::make_shared<NewtonEulerDS>(SiconosVector{0.5, 0, 0, 1, 0, 0, 0},
                                              SiconosVector(6), m, inertia);
  auto rod2 = std::make_shared<NewtonEulerDS>(SiconosVector{1.5, 0, 0, 1, 0, 0, 0},
                                              SiconosVector(6), m, inertia);
  for (const auto& r : {rod1, rod2}) r->setFExt(SiconosVector{0.0, 0.0, -m * kG});
  auto hinge1 = std::make_shared<Interaction>(
      std::make_shared<EqualityConditionNSL>(5),
      std::make_shared<PivotJointR>(SiconosVector{0, 0, 0}, SiconosVector{0, 1, 0}, true, rod1));
  auto hinge2 = std::make_shared<Interaction>(
      std::make_shared<EqualityConditionNSL>(5),
      std::make_shared<PivotJointR>(SiconosVector{0.5, 0, 0}, SiconosVector{0, 1, 0}, false, rod1,
                                    rod2));
  auto model = std::make_shared<Model>(0.0, N * h);
  auto nsds = model->nonSmoothDynamicalSystem();
  nsds->insertDynamicalSystem(rod1);
  nsds->insertDynamicalSystem(rod2);
  nsds->link(hinge1, rod1);
  nsds->link(hinge2, rod1, rod2);
  auto osi = std::make_shared<MoreauJeanOSI>(0.5);
  osi->setConstraintsAtMidpoint(midpoint);
  auto sim =
      std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h), osi, problem);
  sim->setNewtonTolerance(1e-12);
  model->initialize(sim);
  std::vector<double> out;
  auto energy = [&] {
    return rod1->kineticEnergy() + rod2->kineticEnergy() + rod1->potentialEnergy(sim->nextTime()) +
           rod2->potentialEnergy(sim->nextTime());
  };
  if (E) E->push_back(energy());
  for (long k = 0; k < N; ++k) {
    sim->computeOneStep();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, sim->lastStatistics().status);
    for (const auto& r : {rod1, rod2})
      for (std::size_t i = 0; i < 7; ++i) out.push_back(r->q()(i));
    if (E) E->push_back(energy());
    sim->nextStep();
  }
  return out;
}

/// Two spheres (one on the other, the lower one spinning and sliding) on a plane, with a
/// ContactManager, stepped N steps by @p problem; q of both after every step.
std::vector<double> spheres(const SP::OneStepNSProblem& problem, long N) {
  const double r = 0.1, h = 1e-3;
  auto model = std::make_shared<Model>(0.0, N * h);
  auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                            std::make_shared<MoreauJeanOSI>(0.5), problem);
  auto contacts = std::make_shared<ContactManager>();
  contacts->setDefaultMaterial({0.3, 0.0});
  sim->insertInteractionManager(contacts);
  contacts->addBody(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
  std::vector<SP::NewtonEulerDS> bodies;
  // A slides and spins towards B, at rest: both on the plane, then A hits B
  const std::array<double, 6> v0{1.0, 0.2, 0.0, 3.0, 0.0, 5.0};
  for (int i = 0; i < 2; ++i) {
    BodyShapes b =
        makeBody({inst(std::make_shared<SphereShape>(r))}, 1000.0, {0.3 * i, 0.05 * i, r},
                 {1.0, 0.0, 0.0, 0.0}, i == 0 ? v0 : std::array<double, 6>{});
    b.body()->setFExt(SiconosVector{0.0, 0.0, -b.body()->scalarMass() * kG});
    bodies.push_back(b.body());
    contacts->addBody(*model->nonSmoothDynamicalSystem(), std::move(b));
  }
  model->initialize(sim);
  std::vector<double> out;
  std::size_t maxActive = 0;
  for (long k = 0; k < N; ++k) {
    sim->computeOneStep();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, sim->lastStatistics().status);
    maxActive = std::max(maxActive, contacts->statistics().active);
    for (const auto& b : bodies)
      for (std::size_t i = 0; i < 7; ++i) out.push_back(b->q()(i));
    sim->nextStep();
  }
  CPPUNIT_ASSERT_EQUAL(std::size_t(3), maxActive);  // A, B on the plane; A on B
  return out;
}

double maxDiff(const std::vector<double>& a, const std::vector<double>& b) {
  CPPUNIT_ASSERT_EQUAL(a.size(), b.size());
  double d = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::fmax(d, std::fabs(a[i] - b[i]));
  return d;
}

void expectError(const std::function<void()>& f, const std::vector<std::string>& parts) {
  try {
    f();
  } catch (const Error& e) {
    for (const auto& p : parts)
      CPPUNIT_ASSERT_MESSAGE("expected '" + p + "' in: " + e.what(),
                             std::strstr(e.what(), p.c_str()) != nullptr);
    return;
  }
  CPPUNIT_FAIL("no nsdyn::Error");
}

}  // namespace

class GenericMechanicalTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(GenericMechanicalTest);
  CPPUNIT_TEST(jointsOnlyEqualsMlcp);
  CPPUNIT_TEST(contactsOnlyEqualFrictionContact);
  CPPUNIT_TEST(energyKeptPerStep);
  CPPUNIT_TEST(relayBlocks);
  CPPUNIT_TEST(badInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void jointsOnlyEqualsMlcp() {
    const long N = 300;
    const std::vector<double> ref = doublePendulum(std::make_shared<MLCP>("enum"), N, false);
    for (const char* solver : {"newton", "nsgs"}) {
      auto gm = std::make_shared<GenericMechanical>(solver);
      gm->optionsMutable().tolerance = 1e-14;
      gm->optionsMutable().max_iterations = 100000;
      const double d = maxDiff(ref, doublePendulum(gm, N, false));
      std::printf("\n  joints only, GMP %s vs MLCP enum: max |q difference| %.3g over %ld steps",
                  solver, d, N);
      CPPUNIT_ASSERT_MESSAGE(std::string(solver) + ": " + std::to_string(d), d <= 1e-10);
    }
  }

  void contactsOnlyEqualFrictionContact() {
    const long N = 300;
    auto fc = std::make_shared<FrictionContact>(3, "newton_ac");
    fc->optionsMutable().tolerance = 1e-14;
    const std::vector<double> ref = spheres(fc, N);
    auto gm = std::make_shared<GenericMechanical>("newton");
    gm->optionsMutable().tolerance = 1e-14;
    const double d = maxDiff(ref, spheres(gm, N));
    std::printf(
        "\n  contacts only, GMP newton vs FC3D newton_ac: max |q difference| %.3g over %ld steps ",
        d, N);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(d), d <= 1e-10);
  }

  void energyKeptPerStep() {
    // motor-free, no impact, joints on the theta-weighted velocity (theta = 1/2): the
    // energy of each step equals the previous one to 1e-8 relative
    std::vector<double> E;
    auto gm = std::make_shared<GenericMechanical>();
    gm->optionsMutable().tolerance = 1e-13;
    doublePendulum(gm, 300, true, &E);
    const double scale = std::fabs(E.front()) + 2.0 * kG;  // |E| + the potential's range
    double worst = 0.0;
    for (std::size_t k = 1; k < E.size(); ++k)
      worst = std::max(worst, std::fabs(E[k] - E[k - 1]) / scale);
    std::printf("\n  double pendulum, GMP, midpoint joints: max |E_k+1 - E_k| / scale %.3g ",
                worst);
    for (std::size_t k = 1; k < E.size(); ++k)
      CPPUNIT_ASSERT_MESSAGE("step " + std::to_string(k),
                             std::fabs(E[k] - E[k - 1]) <= 1e-8 * scale);
  }

  void relayBlocks() {
    // W = [[2, 1], [1, 3]], q = [-10, 1]: row 0 relay in [-1, 1], row 1 LCP.
    // r0 = 1 (upper bound, u0 = 2 + r1 - 10 < 0), r1 = 0 (u1 = 1 + 1 = 2 >= 0)
    const double w[4] = {2, 1, 1, 3};
    const double q[2] = {-10, 1};
    NsdGmpBlock blocks[2] = {{NSD_GMP_RELAY, 1, 0.0}, {NSD_GMP_LCP, 1, 0.0}};
    for (NsdGmpSolver solver : {nsd_gmp_nsgs, nsd_gmp_newton}) {
      NsdGmp* p = nsd_gmp_create(nsd_matrix_create_dense_from_rows(2, 2, w), q, 2, blocks);
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(0, nsd_gmp_check(p, &rep));  // no bounds yet
      CPPUNIT_ASSERT(std::strstr(rep.message, "block 0 (relay): no bounds") != nullptr);
      const double lo[2] = {-1, 0}, hi[2] = {1, 0};
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_gmp_set_bounds(p, lo, hi));
      double r[2] = {0, 0}, u[2] = {0, 0};
      CPPUNIT_ASSERT_EQUAL(NSD_OK, solver(p, r, u, nullptr, &rep));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, r[0], 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, r[1], 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-8.0, u[0], 1e-12);
      // an interior answer: q0 = -1 gives r0 = 0.5, u0 = 0
      p->q[0] = -1.0;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, solver(p, r, u, nullptr, &rep));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, r[0], 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, u[0], 1e-12);
      // the GMP file format has no bounds: refused before any file is made
      const std::string path = "relay_gmp_not_written.dat";
      std::remove(path.c_str());
      NsdProblem wrapped{};
      wrapped.kind = NSD_KIND_GMP;
      wrapped.gmp = p;
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_write_problem(path.c_str(), &wrapped, &rep));
      CPPUNIT_ASSERT(std::strstr(rep.message, "block 0 is a relay block") != nullptr);
      CPPUNIT_ASSERT(std::fopen(path.c_str(), "r") == nullptr);
      // bounds upside down: named
      const double bad[2] = {2, 0};
      nsd_gmp_set_bounds(p, bad, hi);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, solver(p, r, u, nullptr, &rep));
      CPPUNIT_ASSERT(std::strstr(rep.message, "row 0 has bounds [2, 1]") != nullptr);
      nsd_gmp_destroy(p);
      // one relay block of two coupled rows in [-1, 1]: r = (0, 1), u = (0, -7)
      const double q2[2] = {-1, -10}, lo2[2] = {-1, -1}, hi2[2] = {1, 1};
      NsdGmpBlock one[1] = {{NSD_GMP_RELAY, 2, 0.0}};
      p = nsd_gmp_create(nsd_matrix_create_dense_from_rows(2, 2, w), q2, 1, one);
      nsd_gmp_set_bounds(p, lo2, hi2);
      NsdSolverOptions opt;
      nsd_solver_options_default(&opt);
      opt.tolerance = 1e-14;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, solver(p, r, u, &opt, &rep));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, r[0], 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, r[1], 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-7.0, u[1], 1e-12);
      nsd_gmp_destroy(p);
    }
  }

  void badInput() {
    auto b = std::make_shared<NewtonEulerDS>(SiconosVector{0, 0, 0, 1, 0, 0, 0}, SiconosVector(6),
                                             1.0, SimpleMatrix::identity(3));
    b->setName("arm");
    auto c = std::make_shared<NewtonEulerDS>(SiconosVector{1, 0, 0, 1, 0, 0, 0}, SiconosVector(6),
                                             1.0, SimpleMatrix::identity(3));
    expectError(
        [&] {
          PivotJointR(SiconosVector{0, 0, 0}, SiconosVector{0, 1, 0}, true, b, b);
        },
        {"PivotJointR", "two different bodies", "'arm' twice"});
    auto knee = std::make_shared<KneeJointR>(SiconosVector{0, 0, 0}, true, b, c);
    expectError([&] { JointAxisR::motor(knee, 1.0, 5.0); },
                {"KneeJointR of", "arm", "no free axis"});
    auto hinge =
        std::make_shared<PivotJointR>(SiconosVector{0, 0, 0}, SiconosVector{0, 1, 0}, true, b, c);
    expectError([&] { JointAxisR::motor(hinge, 1.0, -5.0); },
                {"motor on PivotJointR of", "arm", "torque limit", "-5"});
    auto slider = std::make_shared<PrismaticJointR>(SiconosVector{1, 0, 0}, true, b);
    expectError([&] { JointAxisR::motor(slider, 1.0, -0.5); },
                {"PrismaticJointR", "force limit", "-0.5"});
    expectError(
        [&] { JointAxisR::applyTorque(slider, [](double, double, double) { return 0.0; }); },
        {"applyTorque", "a hinge"});
    // the old problems keep their refusal of joints beside detected contacts, pointing here
    auto model = std::make_shared<Model>(0.0, 0.01);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                              std::make_shared<MoreauJeanOSI>(0.5),
                                              std::make_shared<FrictionContact>(3));
    auto contacts = std::make_shared<ContactManager>();
    sim->insertInteractionManager(contacts);
    BodyShapes ball = makeBody({inst(std::make_shared<SphereShape>(0.1))}, 1000.0, {0, 0, 1});
    auto ds = ball.body();
    contacts->addBody(*model->nonSmoothDynamicalSystem(), std::move(ball));
    model->nonSmoothDynamicalSystem()->link(
        std::make_shared<Interaction>(
            std::make_shared<NewtonImpactFrictionNSL>(0.0, 0.0, 0.5, 3),
            std::make_shared<NewtonEuler3DR>(
                [](const SiconosVector& q, double, NewtonEuler1DR::Geometry& g) {
                  g.N = SiconosVector{0, 0, 1};
                  g.Pc1 = SiconosVector{q(0), q(1), q(2) - 0.1};
                  return q(2) - 0.1;
                })),
        ds);
    expectError([&] { model->initialize(sim); },
                {"ContactManager", "GenericMechanical", "Interactions"});
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(GenericMechanicalTest);
