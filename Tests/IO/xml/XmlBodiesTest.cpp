// Rigid bodies in model files: <NewtonEulerDS> and its data, the rigid-body
// relations (constant NewtonEulerR, SpherePlaneContact, the joints), Newton
// and projection options, the body quantities outputs read, VTK frames; a
// falling body against the closed form of the theta-scheme and a knee-joint
// pendulum against the same model built with the Kernel API.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>

#include <nsdyn/Kernel.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include "xml_fixture.hpp"

using namespace nsdyn;
using nsdyn::io::LoadedModel;
using nsdyn::io::XmlLoader;

namespace {

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  CPPUNIT_ASSERT_MESSAGE("fixture lacks " + from, at != std::string::npos);
  return s.replace(at, from.size(), to);
}

SP::NewtonEulerDS body(const LoadedModel& run, const std::string& name) {
  auto b = std::dynamic_pointer_cast<NewtonEulerDS>(run.system(name));
  CPPUNIT_ASSERT_MESSAGE(name + " is not a NewtonEulerDS", b);
  return b;
}

// One free body "b" (no interaction), a TimeStepping with MoreauJeanOSI(theta).
std::string freeBody(const std::string& body, const std::string& theta, long steps,
                     const std::string& outputs = "") {
  return nsdyn::test::bodyModel(
      body, " ",
      "  <simulation t0=\"0\" T=\"1\" h=\"0.01\" steps=\"" + std::to_string(steps) +
          "\">\n    <MoreauJeanOSI theta=\"" + theta +
          "\"/>\n    <newton tolerance=\"1e-12\" max-iterations=\"20\"/>\n  </simulation>\n",
      outputs.empty() ? "  <outputs><output name=\"o\"><column name=\"t\" value=\"t\"/></output>"
                        "</outputs>\n"
                      : outputs);
}

void run(LoadedModel& model, io::Recorder* recorder = nullptr) {
  if (recorder) recorder->recordInitial(model.t0);
  for (long k = 1; k <= model.steps; ++k) {
    model.simulation->computeOneStep();
    if (recorder) recorder->recordStep(k, model.simulation->nextTime());
    model.simulation->nextStep();
  }
}

}  // namespace

class XmlBodiesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(XmlBodiesTest);
  CPPUNIT_TEST(loadsBodiesAndJoints);
  CPPUNIT_TEST(bodyLoadsAndBoundaryConditions);
  CPPUNIT_TEST(fallingBodyFollowsTheThetaScheme);
  CPPUNIT_TEST(kneePendulumAsTheKernelApiBuildsIt);
  CPPUNIT_TEST(contactsAndJoints);
  CPPUNIT_TEST(projectionSimulation);
  CPPUNIT_TEST(bodyQuantitiesInOutputs);
  CPPUNIT_TEST(vtkFramesOfBodies);
  CPPUNIT_TEST_SUITE_END();

 public:
  void loadsBodiesAndJoints() {
    auto run = XmlLoader().loadString(test::bodyModel(), "arm.xml");
    auto arm = body(*run, "arm"), tip = body(*run, "tip");
    CPPUNIT_ASSERT_EQUAL(1.0, arm->scalarMass());
    CPPUNIT_ASSERT_EQUAL(0.01, arm->inertia()(0, 0));
    CPPUNIT_ASSERT_EQUAL(1.0 * 1.0 * 1.0 / 12.0, arm->inertia()(1, 1));
    CPPUNIT_ASSERT_EQUAL(0.0, arm->inertia()(0, 1));
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), arm->q().size());
    CPPUNIT_ASSERT_EQUAL(0.5, arm->q()(0));
    CPPUNIT_ASSERT_EQUAL(1.0, arm->q()(3));
    CPPUNIT_ASSERT_EQUAL(-9.81, arm->computeFExt(0.0)(2));
    CPPUNIT_ASSERT(arm->gyroscopic());
    CPPUNIT_ASSERT(arm->gyroscopicScheme() == NewtonEulerDS::GyroscopicScheme::Trapezoidal);
    CPPUNIT_ASSERT_EQUAL(0.5, tip->scalarMass());
    CPPUNIT_ASSERT_EQUAL(0.001, tip->inertia()(2, 2));
    // an inertia of 9 entries on one line, row by row
    auto nine =
        XmlLoader().loadString(replace(test::bodyModel(), "0.001, 0, 0; 0, 0.001, 0; 0, 0, 0.001",
                                       "1 0.1 0.2 0.1 2 0.3 0.2 0.3 3"));
    CPPUNIT_ASSERT_EQUAL(0.3, body(*nine, "tip")->inertia()(1, 2));
    CPPUNIT_ASSERT_EQUAL(0.3, body(*nine, "tip")->inertia()(2, 1));
    CPPUNIT_ASSERT_EQUAL(2.0, body(*nine, "tip")->inertia()(1, 1));
    // <axisAngle axis="0 0 1" angle="pi/2"/> is quaternion::fromAxisAngle
    const quaternion::Quat q = quaternion::fromAxisAngle({0.0, 0.0, 1.0}, M_PI / 2);
    for (std::size_t i = 0; i < 4; ++i) CPPUNIT_ASSERT_EQUAL(q[i], tip->q()(3 + i));
    CPPUNIT_ASSERT(tip->hasMExt());
    CPPUNIT_ASSERT_EQUAL(std::string("KneeJointR"),
                         run->interaction("pin")->relation().className());
    CPPUNIT_ASSERT_EQUAL(std::string("FixedJointR"),
                         run->interaction("weld")->relation().className());
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), run->interaction("weld")->dynamicalSystems().size());
    auto ts = std::dynamic_pointer_cast<TimeStepping>(run->simulation);
    CPPUNIT_ASSERT(ts && ts->usesNewton());
    CPPUNIT_ASSERT_EQUAL(1e-10, ts->newtonTolerance());
    CPPUNIT_ASSERT_EQUAL(20, ts->newtonMaxIteration());
    CPPUNIT_ASSERT_EQUAL(std::string("enum"), ts->oneStepNSProblem()->solverName());
    // the joints hold (velocity level) while the welded pair swings down
    for (long k = 1; k <= 50; ++k) {
      run->simulation->computeOneStep();
      CPPUNIT_ASSERT(run->interaction("pin")->y(1).norm2() < 1e-10);
      CPPUNIT_ASSERT(run->interaction("weld")->y(1).norm2() < 1e-10);
      run->simulation->nextStep();
    }
    CPPUNIT_ASSERT(arm->q()(2) < -0.4);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2 * arm->q()(2), tip->q()(2), 1e-3);
  }

  void bodyLoadsAndBoundaryConditions() {
    const std::string b =
        "      <NewtonEulerDS name=\"b\" gyroscopic=\"false\" "
        "gyroscopic-scheme=\"energy-momentum\">\n"
        "        <mass>2</mass>\n"
        "        <inertia>2, 0.1, 0; 0.1, 3, 0; 0, 0, 4</inertia>\n"
        "        <quaternion>cos(0.1) sin(0.1) 0 0</quaternion>\n"
        "        <fExt>1 t -m*g*(1+0.5*sin(t))</fExt>\n"
        "        <mExt function=\"torque\"/>\n"
        "        <boundaryCondition indices=\"5, 0\" values=\"2*t, if(t &lt; 1, 1, 0)\"/>\n"
        "      </NewtonEulerDS>\n";
    std::string xml = freeBody(b, "0.5", 3);
    xml = replace(xml, "  <model>",
                  "  <functions><function name=\"torque\" args=\"t\" returns=\"vector\">0 0 "
                  "t*t</function></functions>\n  <model>");
    auto run = XmlLoader().loadString(xml);
    auto ds = body(*run, "b");
    CPPUNIT_ASSERT(!ds->gyroscopic());
    CPPUNIT_ASSERT(ds->gyroscopicScheme() == NewtonEulerDS::GyroscopicScheme::EnergyMomentum);
    CPPUNIT_ASSERT_EQUAL(0.1, ds->inertia()(1, 0));
    CPPUNIT_ASSERT_EQUAL(std::cos(0.1), ds->q()(3));
    CPPUNIT_ASSERT_EQUAL(std::sin(0.1), ds->q()(4));
    // zeros where not given
    CPPUNIT_ASSERT_EQUAL(0.0, ds->q()(0));
    CPPUNIT_ASSERT_EQUAL(0.0, ds->velocity().normInf());
    // expressions of t: evaluated at each time, as C++ evaluates the same formula
    const SiconosVector f = ds->computeFExt(2.0);
    CPPUNIT_ASSERT_EQUAL(1.0, f(0));
    CPPUNIT_ASSERT_EQUAL(2.0, f(1));
    CPPUNIT_ASSERT_EQUAL(-1.0 * 9.81 * (1 + 0.5 * std::sin(2.0)), f(2));
    CPPUNIT_ASSERT_EQUAL(9.0, ds->computeMExt(3.0)(2));
    // prescribed velocities, in the order of `indices`
    CPPUNIT_ASSERT(ds->hasBoundaryConditions());
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), ds->boundaryIndices()[0]);
    CPPUNIT_ASSERT_EQUAL(std::size_t(0), ds->boundaryIndices()[1]);
    CPPUNIT_ASSERT_EQUAL(3.0, ds->prescribedVelocity(1.5)(0));
    CPPUNIT_ASSERT_EQUAL(1.0, ds->prescribedVelocity(0.5)(1));
    CPPUNIT_ASSERT_EQUAL(0.0, ds->prescribedVelocity(1.5)(1));
    ::run(*run);
    // after 3 steps: v[5] = 2 t, v[0] = 1 exactly (prescribed at t_{k+1})
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2 * 0.03, ds->velocity()(5), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, ds->velocity()(0), 1e-15);
  }

  void fallingBodyFollowsTheThetaScheme() {
    // a free body, constant force and a spin about a principal axis (no
    // gyroscopic torque): with the theta-scheme v_k = v0 + k h a and
    // x_k = x0 + k h v0 + h^2 a (k (k - 1) / 2 + k theta); the quaternion
    // turns by h w per step about z
    const std::string b =
        "      <NewtonEulerDS name=\"b\">\n"
        "        <mass>2</mass>\n"
        "        <inertia form=\"diagonal\">1 2 3</inertia>\n"
        "        <position>1 2 3</position>\n"
        "        <velocity>0.5 -1 4</velocity>\n"
        "        <angularVelocity>0 0 7</angularVelocity>\n"
        "        <fExt>0.2 0 -2*g</fExt>\n"
        "      </NewtonEulerDS>\n";
    for (const double theta : {0.5, 1.0, 0.3}) {
      const long N = 150;
      char text[16];
      std::snprintf(text, sizeof text, "%g", theta);
      auto model = XmlLoader().loadString(freeBody(b, text, N));
      ::run(*model);
      auto ds = body(*model, "b");
      const double h = 0.01, k = static_cast<double>(N), w = 7.0;
      const double x0[3] = {1, 2, 3}, v0[3] = {0.5, -1, 4}, a[3] = {0.1, 0, -9.81};
      for (std::size_t i = 0; i < 3; ++i) {
        const double v = v0[i] + k * h * a[i];
        const double x = x0[i] + k * h * v0[i] + h * h * a[i] * (k * (k - 1) / 2 + k * theta);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(v, ds->velocity()(i), 1e-12 * (1 + std::fabs(v)));
        CPPUNIT_ASSERT_DOUBLES_EQUAL(x, ds->q()(i), 1e-12 * (1 + std::fabs(x)));
      }
      CPPUNIT_ASSERT_DOUBLES_EQUAL(w, ds->velocity()(5), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(std::cos(k * h * w / 2), ds->q()(3), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sin(k * h * w / 2), ds->q()(6), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ds->q()(4), 1e-15);
      // one Newton iteration per step suffices (linear in v here)
      CPPUNIT_ASSERT(model->simulation->lastStatistics().newtonConverged);
    }
  }

  void kneePendulumAsTheKernelApiBuildsIt() {
    // the arm of bodyModel() alone on its pin, set spinning: the XML model and
    // the same model written with the Kernel API give the same bits
    const std::string arm =
        "      <NewtonEulerDS name=\"arm\">\n"
        "        <mass>m</mass>\n"
        "        <inertia form=\"diagonal\">0.01 m*L*L/12 m*L*L/12</inertia>\n"
        "        <position>0.5*L 0 0</position>\n"
        "        <quaternion>cos(pi/8) 0 sin(pi/8) 0</quaternion>\n"
        "        <velocity>0 1 0</velocity>\n"
        "        <angularVelocity>3 0 -2</angularVelocity>\n"
        "        <fExt>0 0 -m*g</fExt>\n"
        "      </NewtonEulerDS>\n";
    const std::string pin =
        "      <interaction name=\"pin\" systems=\"arm\">\n"
        "        <EqualityConditionNSL size=\"3\"/>\n"
        "        <KneeJointR point=\"0 0 0\" absolute=\"true\"/>\n"
        "      </interaction>\n";
    auto xml = XmlLoader().loadString(test::bodyModel(arm, pin));

    const double m = 1.0, L = 1.0, g = 9.81, pi = std::acos(-1.0);
    auto ds = std::make_shared<NewtonEulerDS>(
        SiconosVector{0.5 * L, 0.0, 0.0, std::cos(pi / 8), 0.0, std::sin(pi / 8), 0.0},
        SiconosVector{0.0, 1.0, 0.0, 3.0, 0.0, -2.0}, m,
        SimpleMatrix::diagonal(SiconosVector{0.01, m * L * L / 12, m * L * L / 12}));
    ds->setFExt(SiconosVector{0.0, 0.0, -m * g});
    auto joint = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(3),
        std::make_shared<KneeJointR>(SiconosVector{0.0, 0.0, 0.0}, true, ds));
    auto model = std::make_shared<Model>(0.0, 1.0);
    model->nonSmoothDynamicalSystem()->insertDynamicalSystem(ds);
    model->nonSmoothDynamicalSystem()->link(joint, ds);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 0.01),
                                              std::make_shared<MoreauJeanOSI>(0.5),
                                              std::make_shared<MLCP>("enum"));
    sim->setNewtonTolerance(1e-10);
    sim->setNewtonMaxIteration(20);
    model->initialize(sim);

    auto loaded = body(*xml, "arm");
    CPPUNIT_ASSERT_EQUAL(100L, xml->steps);
    for (long k = 0; k < xml->steps; ++k) {
      xml->simulation->computeOneStep();
      sim->computeOneStep();
      for (std::size_t i = 0; i < 7; ++i) CPPUNIT_ASSERT_EQUAL(ds->q()(i), loaded->q()(i));
      for (std::size_t i = 0; i < 6; ++i)
        CPPUNIT_ASSERT_EQUAL(ds->velocity()(i), loaded->velocity()(i));
      // the velocity constraint holds after every step; the position drifts slowly
      CPPUNIT_ASSERT(xml->interaction("pin")->y(1).norm2() < 1e-10);
      CPPUNIT_ASSERT(xml->simulation->lastStatistics().newtonConverged);
      xml->simulation->nextStep();
      sim->nextStep();
    }
    CPPUNIT_ASSERT(xml->interaction("pin")->y(0).norm2() < 0.05);
  }

  void contactsAndJoints() {
    const std::string systems =
        "      <NewtonEulerDS name=\"a\"><mass>1</mass><inertia form=\"diagonal\">1 1 "
        "1</inertia><position>0.5 0.25 2</position></NewtonEulerDS>\n"
        "      <NewtonEulerDS name=\"b\"><mass>1</mass><inertia form=\"diagonal\">1 1 "
        "1</inertia><position>0 0 1</position></NewtonEulerDS>\n";
    const std::string interactions =
        "      <interaction name=\"fixed\" systems=\"a\">\n"
        "        <NewtonImpactNSL e=\"0.5\"/>\n"
        "        <SpherePlaneContact radius=\"0.25\" normal=\"0 0 2\" offset=\"-1\"/>\n"
        "      </interaction>\n"
        "      <interaction name=\"floor\" systems=\"b\">\n"
        "        <NewtonImpactNSL e=\"0\"/>\n"
        "        <NewtonEulerR><C>0 0 1 0 0 0 0</C><e>-0.25</e></NewtonEulerR>\n"
        "      </interaction>\n"
        "      <interaction name=\"hinge\" systems=\"a b\">\n"
        "        <EqualityConditionNSL size=\"5\"/>\n"
        "        <PivotJointR point=\"0 0 1.5\" axis=\"0 2 0\" absolute=\"true\"/>\n"
        "      </interaction>\n"
        "      <interaction name=\"slider\" systems=\"b\">\n"
        "        <EqualityConditionNSL size=\"5\"/>\n"
        "        <PrismaticJointR axis=\"0 0 1\" absolute=\"false\"/>\n"
        "      </interaction>\n";
    const std::string outputs =
        "  <outputs><output name=\"o\"><column name=\"z\" value=\"a.q[2]\"/></output></outputs>\n";
    auto run = XmlLoader().loadString(test::bodyModel(systems, interactions, "", outputs));
    auto fixed = run->interaction("fixed");
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonEuler1DR"), fixed->relation().className());
    // gap: N.G - R - offset with N the normalised normal
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 - 0.25 + 1.0, fixed->y(0)(0), 1e-15);
    const auto& contact = static_cast<const NewtonEuler1DR&>(fixed->relation());
    CPPUNIT_ASSERT_EQUAL(1.0, contact.normal()(2));
    CPPUNIT_ASSERT_EQUAL(2.0 - 0.25, contact.contactPoint1()(2));
    CPPUNIT_ASSERT_EQUAL(0.25, contact.contactPoint1()(1));
    auto floor = run->interaction("floor");
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonEulerR"), floor->relation().className());
    CPPUNIT_ASSERT_EQUAL(0.75, floor->y(0)(0));
    auto hinge = run->interaction("hinge");
    CPPUNIT_ASSERT_EQUAL(std::string("PivotJointR"), hinge->relation().className());
    const auto& pivot = static_cast<const PivotJointR&>(hinge->relation());
    CPPUNIT_ASSERT(pivot.absoluteRef());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, pivot.axis()(1), 1e-15);
    CPPUNIT_ASSERT(hinge->y(0).norm2() < 1e-15);
    const auto& prism = static_cast<const PrismaticJointR&>(run->interaction("slider")->relation());
    CPPUNIT_ASSERT(!prism.absoluteRef());
    CPPUNIT_ASSERT_EQUAL(1.0, prism.axis()(2));
  }

  void projectionSimulation() {
    const std::string simulation =
        "  <simulation type=\"TimeSteppingDirectProjection\" T=\"0.1\" h=\"0.01\">\n"
        "    <MoreauJeanDirectProjectionOSI theta=\"0.5\" activate-threshold=\"1e-6\" "
        "deactivate-velocity-threshold=\"-1e-9\"/>\n"
        "    <MLCP solver=\"enum\"/>\n"
        "    <newton mode=\"nonlinear\" tolerance=\"1e-9\" max-iterations=\"7\"/>\n"
        "    <projection max-iterations=\"5\" unilateral-tolerance=\"1e-7\" "
        "equality-tolerance=\"1e-6\" solver=\"lemke\"/>\n"
        "  </simulation>\n";
    auto run = XmlLoader().loadString(test::bodyModel("", "", simulation));
    CPPUNIT_ASSERT_EQUAL(std::string("TimeSteppingDirectProjection"), run->simulationType);
    auto sim = std::dynamic_pointer_cast<TimeSteppingDirectProjection>(run->simulation);
    CPPUNIT_ASSERT(sim);
    CPPUNIT_ASSERT(sim->newtonOptions() == NewtonMode::Nonlinear);
    CPPUNIT_ASSERT_EQUAL(1e-9, sim->newtonTolerance());
    CPPUNIT_ASSERT_EQUAL(7, sim->newtonMaxIteration());
    CPPUNIT_ASSERT_EQUAL(5, sim->projectionMaxIteration());
    CPPUNIT_ASSERT_EQUAL(1e-7, sim->unilateralTolerance());
    CPPUNIT_ASSERT_EQUAL(1e-6, sim->equalityTolerance());
    CPPUNIT_ASSERT_EQUAL(std::string("lemke"), sim->projectionSolver());
    auto osi = std::dynamic_pointer_cast<MoreauJeanDirectProjectionOSI>(sim->integrators().front());
    CPPUNIT_ASSERT(osi);
    CPPUNIT_ASSERT_EQUAL(1e-6, osi->activateThreshold());
    CPPUNIT_ASSERT_EQUAL(-1e-9, osi->deactivateVelocityThreshold());
    long projections = 0;
    for (long k = 1; k <= run->steps; ++k) {
      run->simulation->computeOneStep();
      projections += run->simulation->lastStatistics().projectionIterations;
      run->simulation->nextStep();
    }
    // the joints are projected back (at most 5 projections a step): the drift
    // stays near the tolerance, 8.6e-6 without projection
    CPPUNIT_ASSERT(projections > 0);
    CPPUNIT_ASSERT(run->interaction("pin")->y(0).normInf() < 2e-6);
  }

  void bodyQuantitiesInOutputs() {
    const std::string plane =
        "      <NewtonEulerDS name=\"ball\">\n"
        "        <mass>1</mass><inertia form=\"diagonal\">0.1 0.1 0.1</inertia>\n"
        "        <position>0 0 0.3</position><angularVelocity>1 2 3</angularVelocity>\n"
        "        <axisAngle axis=\"1 0 0\" angle=\"0.4\"/>\n"
        "        <fExt>0 0 -g</fExt>\n"
        "      </NewtonEulerDS>\n"
        "      <NewtonEulerDS name=\"plane\">\n"
        "        <mass>5</mass><inertia form=\"diagonal\">1 1 1</inertia>\n"
        "        <position>0.5 0 -0.05</position>\n"
        "        <boundaryCondition indices=\"2\" values=\"0.1\"/>\n"
        "      </NewtonEulerDS>\n";
    const std::string contact =
        "      <interaction name=\"c\" systems=\"ball plane\">\n"
        "        <NewtonImpactFrictionNSL en=\"0.5\" mu=\"0.5\" dim=\"3\"/>\n"
        "        <SpherePlaneContact radius=\"0.1\" normal=\"0 0 1\" offset=\"0.05\"/>\n"
        "      </interaction>\n";
    const std::string simulation =
        "  <simulation T=\"1\" h=\"0.01\" steps=\"40\">\n"
        "    <MoreauJeanOSI/>\n    <FrictionContact dim=\"3\"/>\n"
        "    <newton tolerance=\"1e-10\" max-iterations=\"10\"/>\n"
        "  </simulation>\n";
    const std::string outputs =
        "  <outputs><output name=\"o\">\n"
        "    <column name=\"t\" value=\"t\"/>\n"
        "    <column name=\"F\" value=\"norm(c.contact_force)\"/>\n"
        "    <column name=\"Fz\" value=\"c.contact_force[2]\"/>\n"
        "    <column name=\"Fplane\" value=\"c.contact_force[8]\"/>\n"
        "    <column name=\"v\" value=\"norm(ball.v)\"/>\n"
        "    <column name=\"E\" value=\"ball.kinetic_energy + ball.potential_energy\"/>\n"
        "    <column name=\"R21\" value=\"ball.rotation[7]\"/>\n"
        "    <column name=\"wx\" value=\"ball.omega_world[0]\"/>\n"
        "    <column name=\"Lz\" value=\"ball.angular_momentum[2]\"/>\n"
        "    <column name=\"px\" value=\"ball.momentum[0]\"/>\n"
        "    <column name=\"reaction\" value=\"plane.bc_reaction[0]\"/>\n"
        "    <column name=\"newton\" value=\"step.newton_iterations\"/>\n"
        "    <column name=\"converged\" value=\"step.newton_converged\"/>\n"
        "    <column name=\"F0\" value=\"ball.forces[0]\"/>\n"
        "    <column name=\"zprev\" value=\"ball.q_prev[2]\"/>\n"
        "  </output></outputs>\n";
    auto model = XmlLoader().loadString(test::bodyModel(plane, contact, simulation, outputs));
    auto ball = body(*model, "ball"), pl = body(*model, "plane");
    auto c = model->interaction("c");
    // a sphere on a plane carried by a second body: 3 rows, gap to the plane
    // z = z_plane + offset, contact point on the plane below the sphere's
    CPPUNIT_ASSERT_EQUAL(std::string("NewtonEuler3DR"), c->relation().className());
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), c->size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3 - 0.1 + 0.05 - 0.05, c->y(0)(0), 1e-15);
    const auto& geometry = static_cast<const NewtonEuler1DR&>(c->relation());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, geometry.contactPoint2()(2), 1e-15);
    CPPUNIT_ASSERT_EQUAL(0.0, geometry.contactPoint2()(0));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.2, geometry.contactPoint1()(2), 1e-15);
    io::Recorder recorder(model->outputs);
    recorder.recordInitial(model->t0);
    bool touched = false;
    for (long k = 1; k <= model->steps; ++k) {
      const double zk = ball->q()(2);
      model->simulation->computeOneStep();
      const double t = model->simulation->nextTime();
      recorder.recordStep(k, t);
      const std::vector<double>& row = recorder.tables()[0].rows.back();
      const SiconosVector F = c->contactForce(t);
      CPPUNIT_ASSERT_EQUAL(std::size_t(12), F.size());
      CPPUNIT_ASSERT_EQUAL(F.norm2(), row[1]);
      CPPUNIT_ASSERT_EQUAL(F(2), row[2]);
      CPPUNIT_ASSERT_EQUAL(F(8), row[3]);
      touched = touched || row[1] > 0.0;
      CPPUNIT_ASSERT_EQUAL(ball->velocity().norm2(), row[4]);
      CPPUNIT_ASSERT_EQUAL(ball->kineticEnergy() + ball->potentialEnergy(t), row[5]);
      CPPUNIT_ASSERT_EQUAL(ball->rotationMatrix()(2, 1), row[6]);
      CPPUNIT_ASSERT_EQUAL(ball->angularVelocityWorld()(0), row[7]);
      CPPUNIT_ASSERT_EQUAL(ball->angularMomentumWorld()(2), row[8]);
      CPPUNIT_ASSERT_EQUAL(ball->linearMomentum()(0), row[9]);
      CPPUNIT_ASSERT_EQUAL(pl->boundaryReaction()(0), row[10]);
      CPPUNIT_ASSERT_EQUAL(
          static_cast<double>(model->simulation->lastStatistics().newtonIterations), row[11]);
      CPPUNIT_ASSERT(row[11] >= 1.0);
      CPPUNIT_ASSERT_EQUAL(1.0, row[12]);
      CPPUNIT_ASSERT_EQUAL(ball->forces()(0), row[13]);
      CPPUNIT_ASSERT_EQUAL(zk, row[14]);
      model->simulation->nextStep();
    }
    CPPUNIT_ASSERT_MESSAGE("the ball never touched the plane", touched);
    // row 0: no step yet
    CPPUNIT_ASSERT_EQUAL(0.0, recorder.tables()[0].rows[0][11]);
  }

  void vtkFramesOfBodies() {
    auto model = XmlLoader().loadString(test::bodyModel());
    const io::VtkSpec& vtk = model->outputs.vtk;
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), vtk.bodies.size());
    CPPUNIT_ASSERT(vtk.bodies[0].rigid && vtk.bodies[1].rigid);
    io::Recorder recorder(model->outputs);
    recorder.enableVtk(true);
    run(*model, &recorder);
    CPPUNIT_ASSERT_EQUAL(static_cast<std::size_t>(model->steps + 1), recorder.frames().size());
    const io::VtkFrame& last = recorder.frames().back();
    auto tip = body(*model, "tip");
    const SiconosVector w = tip->angularVelocityWorld();
    for (std::size_t i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_EQUAL(tip->q()(i), last.points[3 + i]);
      CPPUNIT_ASSERT_EQUAL(tip->velocity()(i), last.velocities[3 + i]);
      CPPUNIT_ASSERT_EQUAL(w(i), last.angularVelocities[3 + i]);
    }
    for (std::size_t i = 0; i < 4; ++i)
      CPPUNIT_ASSERT_EQUAL(tip->q()(3 + i), last.orientations[4 + i]);
    // a Lagrangian system is drawn with the identity orientation
    auto beads = XmlLoader().loadString(test::ballModel());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), beads->outputs.vtk.bodies.size());
    CPPUNIT_ASSERT(!beads->outputs.vtk.bodies[0].rigid);
    CPPUNIT_ASSERT_EQUAL(1.0, beads->outputs.vtk.bodies[0].orientation[0].evaluate());
    CPPUNIT_ASSERT_EQUAL(0.0, beads->outputs.vtk.bodies[0].orientation[1].evaluate());
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(XmlBodiesTest);
