// Relations, nonsmooth laws and Interaction (Kernel/src/modeling).
#include <cppunit/extensions/HelperMacros.h>

#include <nsdyn/Kernel.hpp>

using namespace nsdyn;

class RelationTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RelationTest);
  CPPUNIT_TEST(lagrangianLinearOutputs);
  CPPUNIT_TEST(scleronomousOutputs);
  CPPUNIT_TEST(firstOrderOutputsAndInputs);
  CPPUNIT_TEST(lawsAndTheirChecks);
  CPPUNIT_TEST(sizeChecksNameTheInteraction);
  CPPUNIT_TEST_SUITE_END();

 public:
  void lagrangianLinearOutputs() {
    // two masses, y = q1 - q0 - 1
    auto a = std::make_shared<LagrangianLinearTIDS>(SiconosVector{0.0}, SiconosVector{1.0},
                                                    SimpleMatrix{{1.0}});
    auto b = std::make_shared<LagrangianLinearTIDS>(SiconosVector{3.0}, SiconosVector{-1.0},
                                                    SimpleMatrix{{1.0}});
    auto inter = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(0.5),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{-1.0, 1.0}}, SiconosVector{-1.0}));
    inter->setDynamicalSystems(a, b);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), inter->dof());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), inter->offsetOf(*b));
    inter->initialize(0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, inter->y(0)(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-2.0, inter->y(1)(0), 0.0);
    // p = H^T lambda
    inter->lambdaMutable(1)(0) = 3.0;
    inter->computeInput(0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-3.0, a->p()(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, b->p()(0), 0.0);
  }

  void scleronomousOutputs() {
    // a stick tip: y = q1 - 0.5 cos q2
    auto ds = std::make_shared<LagrangianDS>(
        SiconosVector{0.0, 1.0, 0.0}, SiconosVector{0.0, -1.0, 2.0}, SimpleMatrix::identity(3));
    auto rel = std::make_shared<LagrangianScleronomousR>(
        [](const SiconosVector& q) { return SiconosVector{q(1) - 0.5 * std::cos(q(2))}; },
        [](const SiconosVector& q) {
          return SimpleMatrix{{0.0, 1.0, 0.5 * std::sin(q(2))}};
        });
    auto inter = std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(1.0), rel);
    inter->setDynamicalSystems(ds);
    inter->initialize(0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, inter->y(0)(0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, inter->y(1)(0), 1e-15);
    // wrong Jacobian width is reported at initialisation
    auto bad = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(1.0),
        std::make_shared<LagrangianScleronomousR>(
            [](const SiconosVector& q) { return SiconosVector{q(0)}; },
            [](const SiconosVector&) {
              return SimpleMatrix{{1.0, 0.0}};
            }));
    bad->setDynamicalSystems(ds);
    CPPUNIT_ASSERT_THROW(bad->initialize(0.0), Error);
  }

  void firstOrderOutputsAndInputs() {
    auto ds =
        std::make_shared<FirstOrderLinearTIDS>(SiconosVector{2.0, 1.0}, SimpleMatrix::identity(2));
    auto rel =
        std::make_shared<FirstOrderLinearTIR>(SimpleMatrix{{1.0, 1.0}}, SimpleMatrix{{2.0}},
                                              SimpleMatrix{{1.0}, {-1.0}}, SiconosVector{0.5});
    auto inter =
        std::make_shared<Interaction>(std::make_shared<ComplementarityConditionNSL>(1), rel);
    inter->setDynamicalSystems(ds);
    inter->initialize(0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.5, inter->y(0)(0), 0.0);
    inter->lambdaMutable(0)(0) = 1.0;
    inter->computeOutput(0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.5, inter->y(0)(0), 0.0);  // + D lambda
    inter->computeInput(0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, ds->r()(1), 0.0);  // r = B lambda
  }

  void lawsAndTheirChecks() {
    NewtonImpactFrictionNSL fc(0.5, 0.0, 0.3, 3);
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), fc.unitaryBlockSize());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, fc.restitution(0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, fc.restitution(1), 0.0);
    MixedComplementarityConditionNSL mixed(2, 3);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), mixed.size());
    CPPUNIT_ASSERT(!mixed.isComplementarityRow(1));
    CPPUNIT_ASSERT(mixed.isComplementarityRow(2));
    RelayNSL relay(2);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, relay.lb(), 0.0);
    CPPUNIT_ASSERT_THROW(NewtonImpactNSL(-0.1), Error);
    CPPUNIT_ASSERT_THROW(NewtonImpactFrictionNSL(0.0, 0.0, -1.0, 2), Error);
    CPPUNIT_ASSERT_THROW(NewtonImpactFrictionNSL(0.0, 0.0, 0.1, 4), Error);
    CPPUNIT_ASSERT_THROW(RelayNSL(1, 1.0, -1.0), Error);
    CPPUNIT_ASSERT_THROW(ComplementarityConditionNSL(0), Error);
  }

  void sizeChecksNameTheInteraction() {
    auto ds = std::make_shared<LagrangianLinearTIDS>(SiconosVector(3), SiconosVector(3),
                                                     SimpleMatrix::identity(3));
    auto inter = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactNSL>(0.9),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0, 0.0}}));
    inter->setDynamicalSystems(ds);
    try {
      inter->checkConsistency();
      CPPUNIT_FAIL("H columns not checked");
    } catch (const Error& e) {
      const std::string msg = e.what();
      CPPUNIT_ASSERT_MESSAGE(msg, msg.find("Interaction #") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(msg, msg.find("3 columns") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(msg, msg.find("1x2") != std::string::npos);
    }
    // a first-order relation on a Lagrangian system
    auto wrongKind = std::make_shared<Interaction>(
        std::make_shared<ComplementarityConditionNSL>(1),
        std::make_shared<FirstOrderLinearTIR>(SimpleMatrix(1, 3), SimpleMatrix(3, 1)));
    wrongKind->setDynamicalSystems(ds);
    CPPUNIT_ASSERT_THROW(wrongKind->checkConsistency(), Error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RelationTest);
