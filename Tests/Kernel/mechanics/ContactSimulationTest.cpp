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
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nsdyn/nsd_io.h>
#include <nsdyn/nsd_solvers.h>
#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/ContactDetector.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/FrictionContact.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/SphereShape.hpp>

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
Vec3 inclineNormal(double theta) {
  return {std::sin(theta), 0.0, std::cos(theta)};
}
Vec3 downhill(double theta) {
  return {std::cos(theta), 0.0, -std::sin(theta)};
}

/// 2 x 2 columns of 20 spheres (r = 5 cm) touching at gap 0 in a box of planes, 6 steps of
/// @p solver at 1e-6 under a ContactManager: the largest body speed at the end.
double touchingLatticeSpeed(const std::string& solver, std::optional<bool> keepLoaded) {
  ContactManager::Options o;
  o.keepLoadedContacts = keepLoaded;
  o.detection.threads = 1;
  const double r = 0.05, side = 0.2, h = 1e-3;
  Scene s(6 * h, h, solver, 1e-6, o);
  const std::pair<Vec3, double> planes[5] = {{{0.0, 0.0, 1.0}, 0.0},
                                             {{1.0, 0.0, 0.0}, 0.0},
                                             {{-1.0, 0.0, 0.0}, -side},
                                             {{0.0, 1.0, 0.0}, 0.0},
                                             {{0.0, -1.0, 0.0}, -side}};
  s.contacts->setDefaultMaterial({0.5, 0.0});
  for (const auto& plane : planes)
    s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(plane.first, plane.second))}));
  for (int k = 0; k < 20; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        s.add(makeBody({inst(std::make_shared<SphereShape>(r))}, 2500.0,
                       {r + 2 * r * i, r + 2 * r * j, r + 2 * r * k}));
  s.start();
  s.sim->run();
  double fastest = 0.0;
  for (const auto& b : s.bodies) fastest = std::max(fastest, b->velocity().normInf());
  return fastest;
}

double along(const SiconosVector& v, const Vec3& d) {
  return v(0) * d[0] + v(1) * d[1] + v(2) * d[2];
}

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
  CPPUNIT_TEST(sweptDetectionBoundsImpactPenetration);
  CPPUNIT_TEST(sweptDetectorMatchesBruteForce);
  CPPUNIT_TEST(stabilisationPushesOverlapOut);
  CPPUNIT_TEST(stabilisationOptionsChecked);
  CPPUNIT_TEST(loadedContactsKeptWhenAsked);
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
    CPPUNIT_ASSERT_DOUBLES_EQUAL(b.scalarMass() * kG * h, cs.impulse[0],
                                 1e-9 * b.scalarMass() * kG * h);
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
      CPPUNIT_ASSERT_MESSAGE(std::string(solver) + " gap " + std::to_string(gap),
                             std::fabs(gap) < 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(
          v / r, b.velocity().normInf() > 0 ? std::fabs(b.velocity()(4)) : 0.0, 1e-6 * v / r);
    }
  }

  void boxOnInclineSticksOrSlides() {
    const double h = 1e-3, T = 0.5, a = 0.1;
    for (double theta_deg : {20.0, 35.0}) {
      const double theta = theta_deg * M_PI / 180.0,
                   mu = 0.5;  // tan 20 = 0.36 < 0.5 < tan 35 = 0.70
      Scene s(T, h, "nsgs");
      s.contacts->setDefaultMaterial({mu, 0.0});
      s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(inclineNormal(theta), 0.0))}));
      const Vec3 n = inclineNormal(theta);
      // box resting on its face: rotated by theta about y
      const Shape::Quat q{std::cos(theta / 2), 0.0, std::sin(theta / 2), 0.0};
      s.add(makeBody({inst(std::make_shared<BoxShape>(Vec3{a, a, a}))}, 500.0,
                     {a * n[0], 0.0, a * n[2]}, q));
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
      CPPUNIT_ASSERT(std::fabs(b.velocity()(3)) + std::fabs(b.velocity()(4)) +
                         std::fabs(b.velocity()(5)) <
                     1e-8);
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
                         {i * 2.1 * r + jitter + layer * r * 0.5, j * 2.1 * r - jitter,
                          1.01 * r + layer * 2.1 * r}));
        }
    s.start();
    s.sim->run();
    std::vector<double> out;
    for (const auto& b : s.bodies)
      for (std::size_t i = 0; i < 7; ++i) out.push_back(b->q()(i));
    for (const auto& st : s.sim->statistics())
      CPPUNIT_ASSERT_EQUAL_MESSAGE(st.message, NSD_OK, st.status);
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
    s.add(makeBody({inst(std::make_shared<BoxShape>(Vec3{0.2, 0.1, 0.05}))}, 800.0,
                   {0.0, 0.0, 0.05}));
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
    s.add(makeBody({inst(std::make_shared<BoxShape>(Vec3{0.2, 0.1, 0.05}))}, 800.0,
                   {0.0, 0.0, 0.05}));
    s.add(makeBody({inst(std::make_shared<SphereShape>(0.05))}, 800.0, {0.0, 0.0, 0.15}));
    const std::string dir =
        (std::filesystem::temp_directory_path() / "nsdyn_contact_dump_test").string();
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
    CPPUNIT_ASSERT_THROW(
        m.addBody(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}), -1),
        Error);
    // a body not in the model is named
    Scene s(0.1, 1e-3, "nsgs");
    s.contacts->addBody(
        makeBody({inst(std::make_shared<SphereShape>(0.1))}, 1000.0, {0.0, 0.0, 1.0}));
    try {
      s.start();
      CPPUNIT_FAIL("no error");
    } catch (const Error& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("not") != std::string::npos);
    }
    // the problem must be FrictionContact(3)
    auto model = std::make_shared<Model>(0.0, 1.0);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                              std::make_shared<MoreauJeanOSI>(0.5),
                                              std::make_shared<LCP>());
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

  void sweptDetectionBoundsImpactPenetration() {
    // A sphere (r = 1 cm) thrown at 2 m/s onto a plane, h = 1e-3, e = 0. Free flight under
    // Moreau-Jean (theta = 1/2) is exact: z_k = z0 + v0 t_k - g t_k^2 / 2, v_k = v0 - g t_k.
    // A contact in the contact set at t_k enters the problem when g_k + h v_k / 2 <= 0
    // (gamma = 1/2); then v_{k+1} = 0 and z_{k+1} = z_k + h v_k / 2, where the sphere rests:
    // the final penetration is P = -(g_K + h v_K / 2) at the activation step K.
    //  - swept: the contact is in the set from g_k <= margin + h|v_k| (the step before it
    //    would penetrate), so K is the first k
    //    with g_k + h v_k / 2 <= 0, and 0 <= P < h |v_K| (the previous step's g + h v / 2 > 0);
    //  - without: also g_K <= margin (2e-4 m): K comes one step later here.
    // z0 is set so that g_5 = 0.9 mm, between the margin and h|v_5|/2 = 1.02 mm.
    const double r = 0.01, h = 1e-3, v0 = -2.0, T = 0.02;
    const double g5 = 0.9e-3;
    const double z0 = r + g5 - v0 * 5 * h + 0.5 * kG * 25 * h * h;
    const double margin = 0.02 * r, activation = 1e-9 * r;
    auto expected = [&](bool swept, int& K) {
      for (int k = 0;; ++k) {
        const double t = k * h;
        const double gk = z0 + v0 * t - 0.5 * kG * t * t - r;
        const double vk = v0 - kG * t;
        if ((swept || gk <= margin) && gk + 0.5 * h * vk <= activation) {
          K = k;
          return -(gk + 0.5 * h * vk);
        }
      }
    };
    double penetration[2];
    for (int swept = 0; swept < 2; ++swept) {
      ContactManager::Options o;
      o.sweptDetection = swept == 1;
      Scene s(T, h, "nsgs", 1e-14, o);
      s.add(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
      BodyShapes b = makeBody({inst(std::make_shared<SphereShape>(r))}, 2500.0, {0.0, 0.0, z0});
      b.body()->velocityMutable()(2) = v0;
      s.add(std::move(b));
      s.start();
      int K = 0;
      const double P = expected(swept == 1, K);
      int step = 0, firstActive = -1, firstDetected = -1;
      double gapAtDetection = 0.0;
      while (s.sim->hasNextEvent()) {
        s.sim->computeOneStep();
        const ContactSet& cs = s.contacts->contacts();
        if (cs.size() > 0 && firstDetected < 0) {
          firstDetected = step;
          gapAtDetection = cs.gap[0];
        }
        if (cs.activeCount() > 0 && firstActive < 0) firstActive = step;
        s.sim->nextStep();
        ++step;
      }
      const std::string what = swept ? "swept" : "not swept";
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, K, firstActive);
      if (swept) {
        CPPUNIT_ASSERT_EQUAL(5, K);
        // found before it penetrates (gap 0.9 mm > margin), active at once by the gamma rule
        CPPUNIT_ASSERT_EQUAL(K, firstDetected);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(g5, gapAtDetection, 1e-12);
        CPPUNIT_ASSERT(P >= 0.0 && P < h * std::fabs(v0 - kG * K * h));
      } else {
        CPPUNIT_ASSERT_EQUAL(6, K);
        CPPUNIT_ASSERT_EQUAL(K, firstDetected);  // found only once it penetrates
        CPPUNIT_ASSERT(gapAtDetection < -1e-3);
      }
      const NewtonEulerDS& body = *s.bodies[0];
      penetration[swept] = r - body.q()(2);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, P, penetration[swept], 1e-9);
      CPPUNIT_ASSERT(body.velocity().normInf() < 1e-9);
    }
    CPPUNIT_ASSERT(penetration[0] > 0.5e-3);  // 2.2 mm
    CPPUNIT_ASSERT(penetration[1] < 0.2e-3);  // 0.12 mm
  }

  void sweptDetectorMatchesBruteForce() {
    // spheres and boxes with random velocities: the grid + sweep finds the pairs of the
    // all-pairs loop with gap <= margin + sweep_a + sweep_b, keys and gaps equal
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<BodyShapes> bodies;
    bodies.push_back(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    for (int k = 0; k < 300; ++k) {
      const Vec3 p{2 * u(rng), 2 * u(rng), 0.2 + 1.5 * u(rng)};
      if (k % 2 == 0)
        bodies.push_back(
            makeBody({inst(std::make_shared<SphereShape>(0.05 + 0.05 * u(rng)))}, 1000.0, p));
      else
        bodies.push_back(makeBody(
            {inst(std::make_shared<BoxShape>(Vec3{0.05, 0.04 + 0.04 * u(rng), 0.06}))}, 1000.0, p,
            quaternion::fromAxisAngle({u(rng), u(rng) - 0.5, 0.3}, 6.28 * u(rng))));
    }
    std::vector<double> sweep(bodies.size(), 0.0);
    for (std::size_t b = 1; b < bodies.size(); ++b) sweep[b] = 0.2 * u(rng);
    ContactDetector::Options o;
    o.margin = 0.01;
    o.breakingDistance = 0.01;
    ContactDetector d(bodies, o);
    const std::size_t plain = d.detect().size();
    d.setSweep(sweep);
    const auto c = d.detect();
    const auto ref = d.detectBruteForce();
    CPPUNIT_ASSERT(c.size() > plain + 50);
    CPPUNIT_ASSERT_EQUAL(ref.size(), c.size());
    for (std::size_t k = 0; k < c.size(); ++k) {
      CPPUNIT_ASSERT_EQUAL(ref[k].key, c[k].key);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(ref[k].gap, c[k].gap, 1e-12);
      CPPUNIT_ASSERT(c[k].gap <= o.margin + sweep[c[k].bodyA] + sweep[c[k].bodyB] + 1e-12);
    }
    CPPUNIT_ASSERT_THROW(d.setSweep({0.1}), Error);
    sweep[3] = -1.0;
    CPPUNIT_ASSERT_THROW(d.setSweep(sweep), Error);
    d.setSweep({});
    CPPUNIT_ASSERT_EQUAL(plain, d.detect().size());
  }

  void stabilisationPushesOverlapOut() {
    // Two spheres (r = 1 cm, no gravity) overlapping by d = 1 mm, at rest; beta = 0.2,
    // maxRecoverySpeed V = 0.1 m/s, h = 1e-3. Step 1: the normal row asks u_n >=
    // min(beta d / h, V) = min(0.2, 0.1) = V, so u_1 = V and (theta = 1/2) the overlap
    // shrinks by h V / 2. From then on q_n = V + max(beta g / h, -V) >= 0: lambda = 0, u stays
    // V, the overlap shrinks by h V per step: overlap_k = d - h V / 2 - (k - 1) h V, i.e.
    // 0.95, 0.85, ..., 0.05 mm at k = 10 and separated (-0.05 mm) at
    // N = 1 + ceil((d - h V / 2) / (h V)) = 11 steps. The correction's work is the kinetic
    // energy gained: the energy balance closes with it.
    const double r = 0.01, h = 1e-3, d = 1e-3, beta = 0.2, V = 0.1;
    ContactManager::Options o;
    o.stabilisationFactor = beta;
    o.maxRecoverySpeed = V;
    Scene s(0.03, h, "nsgs", 1e-14, o);
    s.add(makeBody({inst(std::make_shared<SphereShape>(r))}, 2500.0, {0.0, 0.0, 0.0}));
    s.add(makeBody({inst(std::make_shared<SphereShape>(r))}, 2500.0, {2 * r - d, 0.0, 0.0}));
    for (auto& b : s.bodies) b->setFExt(SiconosVector({0.0, 0.0, 0.0}));
    s.start();
    const int N = 1 + static_cast<int>(std::ceil((d - 0.5 * h * V) / (h * V) - 1e-9));
    CPPUNIT_ASSERT_EQUAL(11, N);
    auto overlap = [&]() { return 2 * r - (s.bodies[1]->q()(0) - s.bodies[0]->q()(0)); };
    auto energy = [&]() { return s.bodies[0]->kineticEnergy() + s.bodies[1]->kineticEnergy(); };
    double work = 0.0;
    int separatedAt = -1;
    for (int k = 1; k <= 30; ++k) {
      s.sim->computeOneStep();
      work += s.contacts->statistics().contactWork;
      if (k == 1) CPPUNIT_ASSERT_EQUAL(std::size_t(1), s.contacts->statistics().stabilised);
      s.sim->nextStep();
      const double un = s.bodies[1]->velocity()(0) - s.bodies[0]->velocity()(0);
      CPPUNIT_ASSERT(un <= V * (1 + 1e-9));  // never faster than the cap
      CPPUNIT_ASSERT_DOUBLES_EQUAL(V, un, 1e-9);
      if (k < N) CPPUNIT_ASSERT_DOUBLES_EQUAL(d - 0.5 * h * V - (k - 1) * h * V, overlap(), 1e-12);
      if (separatedAt < 0 && overlap() < 1e-6) separatedAt = k;
    }
    CPPUNIT_ASSERT_EQUAL(N, separatedAt);
    CPPUNIT_ASSERT(work > 0.0);  // the correction adds energy
    CPPUNIT_ASSERT_DOUBLES_EQUAL(energy(), work, 1e-12);
    const double m = s.bodies[0]->scalarMass();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2 * 0.5 * m * (0.5 * V) * (0.5 * V), work, 1e-12);
  }

  /// keepLoadedContacts on the Kernel's path: with APGD at 1e-6 (converging from both sides)
  /// a lattice of spheres touching at gap 0 stays at rest with the option on (speeds at the
  /// level of the tolerance); off, or unset (the default, the same bits), contacts left
  /// opening by round-off drop their bodies for a step (speed ≥ g h / 2); plain NSGS rests
  /// without it.
  void loadedContactsKeptWhenAsked() {
    const double kept = touchingLatticeSpeed("apgd", true);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(kept), kept < 1e-4);
    const double off = touchingLatticeSpeed("apgd", false);
    CPPUNIT_ASSERT_EQUAL(off, touchingLatticeSpeed("apgd", std::nullopt));
    CPPUNIT_ASSERT_MESSAGE(std::to_string(off), off > 0.5 * kG * 1e-3);
    const double sweeps = touchingLatticeSpeed("nsgs", std::nullopt);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(sweeps), sweeps < 1e-4);
    CPPUNIT_ASSERT_EQUAL(touchingLatticeSpeed("nsgs", false), sweeps);
  }

  void stabilisationOptionsChecked() {
    ContactManager::Options o;
    o.stabilisationFactor = 1.5;
    CPPUNIT_ASSERT_THROW(ContactManager{o}, Error);
    o.stabilisationFactor = -0.1;
    CPPUNIT_ASSERT_THROW(ContactManager{o}, Error);
    o.stabilisationFactor = 0.2;
    o.maxRecoverySpeed = 0.0;
    CPPUNIT_ASSERT_THROW(ContactManager{o}, Error);
    o.maxRecoverySpeed = 0.1;
    ContactManager ok(o);
    // defaults: Siconos semantics
    const ContactManager::Options def;
    CPPUNIT_ASSERT(!def.sweptDetection);
    CPPUNIT_ASSERT_EQUAL(0.0, def.stabilisationFactor);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ContactSimulationTest);
