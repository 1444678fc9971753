// Simulations with a ContactManager (Kernel/src/mechanics/contacts): closed forms of a
// sphere rolling and a box sliding or sticking on an incline, resting contact, warm start
// by key, the factored (APGD) and assembled (NSGS) operators agreeing, thread independence.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/FrictionContact.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/SphereShape.hpp>
#include <nsdyn/nsd_io.h>
#include <nsdyn/nsd_solvers.h>

using namespace nsdyn;
using Vec3 = Shape::Vec3;

namespace {

constexpr double kG = 9.81;

ShapeInstance inst(std::shared_ptr<const Shape> s, const Vec3& p = {0, 0, 0}) {
  ShapeInstance i;
  i.shape = std::move(s);
  i.position = p;
  return i;
}

/// A scene: model, simulation, manager, over [0, T] with step h.
struct Scene {
  std::shared_ptr<Model> model;
  SP::TimeStepping sim;
  SP::ContactManager contacts;
  SP::FrictionContact problem;
  std::vector<SP::NewtonEulerDS> bodies;

  Scene(double T, double h, const std::string& solver, double tolerance = 1e-12,
        const ContactManager::Options& options = ContactManager::Options()) {
    model = std::make_shared<Model>(0.0, T);
    problem = std::make_shared<FrictionContact>(3, solver);
    problem->optionsMutable().tolerance = tolerance;
    problem->optionsMutable().max_iterations = 100000;
    sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                         std::make_shared<MoreauJeanOSI>(0.5), problem);
    contacts = std::make_shared<ContactManager>(options);
    sim->insertInteractionManager(contacts);
  }
  void add(BodyShapes b, int group = 0) {
    if (!b.isStatic()) {
      b.body()->setFExt(SiconosVector({0.0, 0.0, -b.body()->scalarMass() * kG}));
      bodies.push_back(b.body());
    }
    contacts->addBody(*model->nonSmoothDynamicalSystem(), std::move(b), group);
  }
  void start() { model->initialize(sim); }
};

/// Unit vector along the slope (downhill) and the normal of a plane through the
/// origin inclined by theta about y: n = (sin, 0, cos), downhill d = (cos, 0, -sin).
Vec3 inclineNormal(double theta) { return {std::sin(theta), 0.0, std::cos(theta)}; }
Vec3 downhill(double theta) { return {std::cos(theta), 0.0, -std::sin(theta)}; }

double along(const SiconosVector& v, const Vec3& d) { return v(0) * d[0] + v(1) * d[1] + v(2) * d[2]; }

}  // namespace

class ContactSimulationTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ContactSimulationTest);
  CPPUNIT_TEST(sphereRestsOnPlane);
  CPPUNIT_TEST(sphereRollsDownIncline);
  CPPUNIT_TEST(boxOnInclineSticksOrSlides);
  CPPUNIT_TEST(apgdAndNsgsAgree);
  CPPUNIT_TEST(warmStartByKey);
  CPPUNIT_TEST(restitutionOfADroppedSphere);
  CPPUNIT_TEST(energyBalanceCloses);
  CPPUNIT_TEST(problemDump);
  CPPUNIT_TEST(badInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sphereRestsOnPlane() {
    const double r = 0.1, h = 1e-3;
    Scene s(1.0, h, "nsgs");
    s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    s.add(makeBody({inst(std::make_shared<SphereShape>(r))}, 1000.0, {0.0, 0.0, r}));
    s.start();
    s.sim->run();
    const NewtonEulerDS& b = *s.bodies[0];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(r, b.q()(2), 1e-9);
    CPPUNIT_ASSERT(b.velocity().normInf() < 1e-9);
    // the normal impulse carries the weight over the step
    const ContactSet& cs = s.contacts->contacts();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), cs.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(b.scalarMass() * kG * h, cs.impulse[0], 1e-9 * b.scalarMass() * kG * h);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), s.sim->lastStatistics().detectedContacts);
  }

  void sphereRollsDownIncline() {
    // rolling without slip while mu >= 2/7 tan(theta): a = 5/7 g sin(theta)
    const double theta = 25.0 * M_PI / 180.0, r = 0.1, h = 1e-3, T = 0.5;
    for (const char* solver : {"nsgs", "apgd"}) {
      ContactManager::Options o;
      Scene s(T, h, solver, 1e-13, o);
      s.contacts->setDefaultMaterial({0.4, 0.0});
      s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(inclineNormal(theta), 0.0))}));
      const Vec3 n = inclineNormal(theta);
      s.add(makeBody({inst(std::make_shared<SphereShape>(r))}, 1000.0, {r * n[0], 0.0, r * n[2]}));
      s.start();
      s.sim->run();
      const NewtonEulerDS& b = *s.bodies[0];
      const double expected = 5.0 / 7.0 * kG * std::sin(theta) * T;
      const double v = along(b.velocity(), downhill(theta));
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(solver, expected, v, 1e-6 * expected);
      // no slip: v = omega x r at the contact; the sphere stays on the plane
      const double gap = b.q()(0) * n[0] + b.q()(2) * n[2] - r;
      CPPUNIT_ASSERT_MESSAGE(std::string(solver) + " gap " + std::to_string(gap), std::fabs(gap) < 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(v / r, b.velocity().normInf() > 0 ? std::fabs(b.velocity()(4)) : 0.0, 1e-6 * v / r);
    }
  }

  void boxOnInclineSticksOrSlides() {
    const double h = 1e-3, T = 0.5, a = 0.1;
    for (double theta_deg : {20.0, 35.0}) {
      const double theta = theta_deg * M_PI / 180.0, mu = 0.5;  // tan 20 = 0.36 < 0.5 < tan 35 = 0.70
      Scene s(T, h, "nsgs");
      s.contacts->setDefaultMaterial({mu, 0.0});
      s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(inclineNormal(theta), 0.0))}));
      const Vec3 n = inclineNormal(theta);
      // box resting on its face: rotated by theta about y
      const Shape::Quat q{std::cos(theta / 2), 0.0, std::sin(theta / 2), 0.0};
      s.add(makeBody({inst(std::make_shared<BoxShape>(Vec3{a, a, a}))}, 500.0, {a * n[0], 0.0, a * n[2]}, q));
      s.start();
      s.sim->run();
      const NewtonEulerDS& b = *s.bodies[0];
      const double v = along(b.velocity(), downhill(theta));
      if (std::tan(theta) < mu) {
        CPPUNIT_ASSERT(std::fabs(v) < 1e-9);
      } else {
        const double expected = kG * (std::sin(theta) - mu * std::cos(theta)) * T;
        CPPUNIT_ASSERT_DOUBLES_EQUAL(expected, v, 1e-6 * expected);
      }
      CPPUNIT_ASSERT(std::fabs(b.velocity()(3)) + std::fabs(b.velocity()(4)) + std::fabs(b.velocity()(5)) < 1e-8);
    }
  }

  /// A small pile: the factored operator (apgd) and the assembled W (nsgs) give the
  /// same trajectory within the solver tolerance; 1 and 2 threads bit-identical.
  static std::vector<double> pile(const std::string& solver, int threads, int steps) {
    Scene s(steps * 1e-3, 1e-3, solver, 1e-10);
    s.problem->optionsMutable().threads = threads;
    s.contacts->setThreads(threads);
    s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    const double r = 0.05;
    int k = 0;
    for (int layer = 0; layer < 3; ++layer)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j, ++k) {
          const double jitter = 0.003 * std::sin(1.7 * k);
          s.add(makeBody({inst(std::make_shared<SphereShape>(r))}, 1000.0,
                         {i * 2.1 * r + jitter + layer * r * 0.5, j * 2.1 * r - jitter, 1.01 * r + layer * 2.1 * r}));
        }
    s.start();
    s.sim->run();
    std::vector<double> out;
    for (const auto& b : s.bodies)
      for (std::size_t i = 0; i < 7; ++i) out.push_back(b->q()(i));
    for (const auto& st : s.sim->statistics()) CPPUNIT_ASSERT_EQUAL_MESSAGE(st.message, NSD_OK, st.status);
    return out;
  }

  void apgdAndNsgsAgree() {
    const auto a1 = pile("apgd", 1, 200), a2 = pile("apgd", 2, 200);
    const auto n1 = pile("nsgs", 1, 200), n2 = pile("nsgs", 2, 200);
    CPPUNIT_ASSERT(std::memcmp(a1.data(), a2.data(), a1.size() * sizeof(double)) == 0);
    CPPUNIT_ASSERT(std::memcmp(n1.data(), n2.data(), n1.size() * sizeof(double)) == 0);
    double diff = 0.0;
    for (std::size_t i = 0; i < a1.size(); ++i) diff = std::max(diff, std::fabs(a1[i] - n1[i]));
    CPPUNIT_ASSERT_MESSAGE("apgd vs nsgs: " + std::to_string(diff), diff < 1e-5);
  }

  void warmStartByKey() {
    // a resting box has 4 persistent contacts: warm-started every step after the first,
    // and the warm start (the previous impulse) already solves the problem
    Scene s(0.1, 1e-3, "nsgs", 1e-10);
    s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    s.add(makeBody({inst(std::make_shared<BoxShape>(Vec3{0.2, 0.1, 0.05}))}, 800.0, {0.0, 0.0, 0.05}));
    s.start();
    s.sim->computeOneStep();
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), s.contacts->statistics().contacts);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), s.contacts->statistics().warmStarted);
    s.sim->run();
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), s.contacts->statistics().warmStarted);
    CPPUNIT_ASSERT(s.sim->lastStatistics().iterations <= 2);
    double total = 0.0;
    for (int c = 0; c < 4; ++c) total += s.contacts->contacts().impulse[3 * c];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(s.bodies[0]->scalarMass() * kG * 1e-3, total, 1e-9);
  }

  void restitutionOfADroppedSphere() {
    // e = 0.5: the rebound speed is half the impact speed (Newton law on the step start velocity)
    Scene s(0.6, 1e-4, "nsgs");
    s.contacts->setDefaultMaterial({0.3, 0.5});
    s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    s.add(makeBody({inst(std::make_shared<SphereShape>(0.1))}, 1000.0, {0.0, 0.0, 1.0}));
    s.start();
    double before = 0.0, after = 0.0;
    while (s.sim->hasNextEvent()) {
      const double v0 = s.bodies[0]->velocity()(2);
      s.sim->computeOneStep();
      const double v1 = s.bodies[0]->velocity()(2);
      if (v0 < 0.0 && v1 > 0.0 && before == 0.0) {
        before = v0;
        after = v1;
      }
    }
    CPPUNIT_ASSERT(before < -3.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.5 * before, after, 1e-9);
  }

  void energyBalanceCloses() {
    // theta = 1/2, constant gravity: kinetic + potential energy changes by exactly the work
    // of the contact impulses sum lambda.(u_k + u_{k+1})/2, step by step (inelastic impacts)
    Scene s(0.3, 1e-3, "nsgs", 1e-8);
    s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    for (int k = 0; k < 8; ++k)
      s.add(makeBody({inst(std::make_shared<SphereShape>(0.05 + 0.01 * (k % 3)))}, 1000.0,
                     {0.03 * k, 0.02 * (k % 2), 0.1 + 0.13 * k}));
    s.start();
    auto energy = [&]() {
      double e = 0.0;
      for (const auto& b : s.bodies) e += b->kineticEnergy() + b->potentialEnergy(0.0);
      return e;
    };
    const double e0 = energy();
    double work = 0.0;
    while (s.sim->hasNextEvent()) {
      s.sim->computeOneStep();
      work += s.contacts->statistics().contactWork;
      s.sim->nextStep();
    }
    CPPUNIT_ASSERT(work < -1.0);  // impacts and friction dissipate
    CPPUNIT_ASSERT_DOUBLES_EQUAL(e0 + work, energy(), 1e-10 * std::fabs(e0));
  }

  void problemDump() {
    // the FCLIB file of a step holds the problem solved at that step: replayed, same answer
    Scene s(0.005, 1e-3, "nsgs", 1e-12);
    s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    s.add(makeBody({inst(std::make_shared<BoxShape>(Vec3{0.2, 0.1, 0.05}))}, 800.0, {0.0, 0.0, 0.05}));
    s.add(makeBody({inst(std::make_shared<SphereShape>(0.05))}, 800.0, {0.0, 0.0, 0.15}));
    const std::string dir = (std::filesystem::temp_directory_path() / "nsdyn_contact_dump_test").string();
    std::filesystem::create_directories(dir);
    s.problem->setProblemDump(dir, {3});
    s.start();
    for (int k = 0; k < 3; ++k) s.sim->computeOneStep();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), s.problem->dumpedFiles().size());
    const SiconosVector lambda = s.problem->lastLambda();
    NsdProblem p{};
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_fclib(s.problem->dumpedFiles()[0].c_str(), &p, &rep));
    CPPUNIT_ASSERT_EQUAL(5, p.fc->nc);  // 4 box-floor corners + sphere-box
    std::vector<double> r(15, 0.0), u(15, 0.0);
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    o.tolerance = 1e-12;
    o.max_iterations = 100000;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&p, "nsgs", r.data(), u.data(), &o, &rep));
    for (int i = 0; i < 15; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(lambda(i), r[i], 1e-9);
    nsd_problem_clear(&p);
  }

  void badInput() {
    ContactManager m;
    CPPUNIT_ASSERT_THROW(m.setMaterial(0, 1, {-0.1, 0.0}), Error);
    CPPUNIT_ASSERT_THROW(m.setMaterial(0, 1, {0.1, 1.5}), Error);
    CPPUNIT_ASSERT_THROW(m.addBody(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}), -1),
                         Error);
    // a body not in the model is named
    Scene s(0.1, 1e-3, "nsgs");
    s.contacts->addBody(makeBody({inst(std::make_shared<SphereShape>(0.1))}, 1000.0, {0.0, 0.0, 1.0}));
    try {
      s.start();
      CPPUNIT_FAIL("no error");
    } catch (const Error& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("not") != std::string::npos);
    }
    // the problem must be FrictionContact(3)
    auto model = std::make_shared<Model>(0.0, 1.0);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                              std::make_shared<MoreauJeanOSI>(0.5), std::make_shared<LCP>());
    sim->insertInteractionManager(std::make_shared<ContactManager>());
    CPPUNIT_ASSERT_THROW(model->initialize(sim), Error);
    // overlap at t0 is warned with the pair named
    Scene o(0.1, 1e-3, "nsgs");
    o.add(makeBody({inst(std::make_shared<SphereShape>(0.1))}, 1000.0, {0.0, 0.0, 1.0}));
    o.add(makeBody({inst(std::make_shared<SphereShape>(0.1))}, 1000.0, {0.0, 0.0, 1.1}));
    o.start();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), o.contacts->warnings().size());
    CPPUNIT_ASSERT(o.contacts->warnings()[0].find("overlap by 0.1") != std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ContactSimulationTest);
