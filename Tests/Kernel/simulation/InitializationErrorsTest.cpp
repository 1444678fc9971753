// Errors reported by Model::initialize() (issue 4, point 8).
#include <cppunit/extensions/HelperMacros.h>

#include "sim_helpers.hpp"

using namespace nsdyn;

namespace {
/// Expect Model::initialize() to throw an nsdyn::Error whose message holds every part of @p parts.
void expectError(const std::function<void()>& f, std::vector<std::string> parts) {
  try {
    f();
  } catch (const Error& e) {
    const std::string msg = e.what();
    for (const auto& p : parts)
      CPPUNIT_ASSERT_MESSAGE("'" + p + "' not in: " + msg, msg.find(p) != std::string::npos);
    return;
  }
  CPPUNIT_FAIL("no nsdyn::Error thrown");
}

SP::LagrangianLinearTIDS ball3() {
  return std::make_shared<LagrangianLinearTIDS>(SiconosVector{1.0, 0.0, 0.0}, SiconosVector(3),
                                                SimpleMatrix::identity(3));
}

SP::TimeStepping moreau(double h, SP::OneStepNSProblem p = std::make_shared<LCP>()) {
  return std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                        std::make_shared<MoreauJeanOSI>(0.5), p);
}

SP::Model ballModel(double T, const SimpleMatrix& H) {
  auto model = std::make_shared<Model>(0.0, T);
  auto inter = std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(0.9),
                                             std::make_shared<LagrangianLinearTIR>(H));
  model->nonSmoothDynamicalSystem()->link(inter, ball3());
  return model;
}

SP::Model circuit(const SimpleMatrix& C, const SimpleMatrix& D, const SimpleMatrix& B) {
  auto model = std::make_shared<Model>(0.0, 1.0);
  auto ds =
      std::make_shared<FirstOrderLinearTIDS>(SiconosVector{1.0, 0.0}, SimpleMatrix::identity(2));
  auto inter = std::make_shared<Interaction>(std::make_shared<ComplementarityConditionNSL>(1),
                                             std::make_shared<FirstOrderLinearTIR>(C, D, B));
  model->nonSmoothDynamicalSystem()->link(inter, ds);
  return model;
}

SP::TimeStepping euler() {
  return std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                        std::make_shared<EulerMoreauOSI>(0.5),
                                        std::make_shared<LCP>());
}
}  // namespace

class InitializationErrorsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(InitializationErrorsTest);
  CPPUNIT_TEST(nonPositiveStep);
  CPPUNIT_TEST(finalTimeNotAfterStart);
  CPPUNIT_TEST(hColumnsDifferFromDof);
  CPPUNIT_TEST(hRowsDifferFromLawSize);
  CPPUNIT_TEST(dNotSquare);
  CPPUNIT_TEST(cAndBSizes);
  CPPUNIT_TEST(interactionLinkedToNoSystem);
  CPPUNIT_TEST(unknownSolverName);
  CPPUNIT_TEST(lawNotAcceptedByProblem);
  CPPUNIT_TEST(systemWithoutIntegrator);
  CPPUNIT_TEST(validModelInitializes);
  CPPUNIT_TEST_SUITE_END();

 public:
  void nonPositiveStep() {
    auto model = ballModel(1.0, SimpleMatrix{{1.0, 0.0, 0.0}});
    expectError([&] { model->initialize(moreau(0.0)); }, {"TimeDiscretisation", "h > 0", "h = 0"});
    expectError([&] { model->initialize(moreau(-1e-3)); }, {"TimeDiscretisation", "h = -0.001"});
  }

  void finalTimeNotAfterStart() {
    auto model = ballModel(0.0, SimpleMatrix{{1.0, 0.0, 0.0}});
    expectError([&] { model->initialize(moreau(1e-3)); }, {"Model", "T > t0", "T = 0"});
    auto back = ballModel(-1.0, SimpleMatrix{{1.0, 0.0, 0.0}});
    expectError([&] { back->initialize(moreau(1e-3)); }, {"Model", "T = -1"});
  }

  void hColumnsDifferFromDof() {
    auto model = ballModel(1.0, SimpleMatrix{{1.0, 0.0}});
    expectError([&] { model->initialize(moreau(1e-3)); },
                {"Interaction #", "LagrangianLinearTIR", "3 columns", "H 1x2"});
  }

  void hRowsDifferFromLawSize() {
    auto model = ballModel(1.0, SimpleMatrix::identity(3));
    expectError([&] { model->initialize(moreau(1e-3)); }, {"1 rows (law size)", "H 3x3"});
  }

  void dNotSquare() {
    auto model =
        circuit(SimpleMatrix{{1.0, 0.0}}, SimpleMatrix{{1.0, 2.0}}, SimpleMatrix{{1.0}, {0.0}});
    expectError([&] { euler()->initialize(*model); }, {"FirstOrderLinearTIR", "square D", "D 1x2"});
  }

  void cAndBSizes() {
    auto badC =
        circuit(SimpleMatrix{{1.0, 0.0, 0.0}}, SimpleMatrix{{1.0}}, SimpleMatrix{{1.0}, {0.0}});
    expectError([&] { badC->initialize(euler()); }, {"C 1x2", "C 1x3"});
    auto badB = circuit(SimpleMatrix{{1.0, 0.0}}, SimpleMatrix{{1.0}}, SimpleMatrix{{1.0, 0.0}});
    expectError([&] { badB->initialize(euler()); }, {"B 2x1", "B 1x2"});
  }

  void interactionLinkedToNoSystem() {
    auto model = ballModel(1.0, SimpleMatrix{{1.0, 0.0, 0.0}});
    model->nonSmoothDynamicalSystem()->insertInteraction(
        std::make_shared<Interaction>(std::make_shared<NewtonImpactNSL>(0.5),
                                      std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0}})));
    expectError([&] { model->initialize(moreau(1e-3)); },
                {"Interaction #", "linked to 1 or 2", "0 systems"});
  }

  void unknownSolverName() {
    auto model = ballModel(1.0, SimpleMatrix{{1.0, 0.0, 0.0}});
    expectError([&] { model->initialize(moreau(1e-3, std::make_shared<LCP>("nosuchsolver"))); },
                {"LCP", "\"nosuchsolver\"", "lemke"});
    auto fc = std::make_shared<Model>(0.0, 1.0);
    auto inter = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactFrictionNSL>(0.0, 0.0, 0.1, 2),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1, 0, 0}, {0, 1, 0}}));
    fc->nonSmoothDynamicalSystem()->link(inter, ball3());
    expectError(
        [&] { fc->initialize(moreau(1e-3, std::make_shared<FrictionContact>(2, "lemkee"))); },
        {"FrictionContact", "fc2d", "\"lemkee\""});
  }

  void lawNotAcceptedByProblem() {
    auto fc = std::make_shared<Model>(0.0, 1.0);
    auto inter = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactFrictionNSL>(0.0, 0.0, 0.1, 2),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1, 0, 0}, {0, 1, 0}}));
    fc->nonSmoothDynamicalSystem()->link(inter, ball3());
    expectError([&] { fc->initialize(moreau(1e-3)); }, {"LCP", "NewtonImpactFrictionNSL"});
    CPPUNIT_ASSERT_THROW(FrictionContact(4), Error);
  }

  void systemWithoutIntegrator() {
    auto model = circuit(SimpleMatrix{{1.0, 0.0}}, SimpleMatrix{{1.0}}, SimpleMatrix{{1.0}, {0.0}});
    expectError([&] { model->initialize(moreau(1e-3)); }, {"FirstOrderLinearTIDS #", "integrator"});
  }

  void validModelInitializes() {
    auto model = ballModel(1.0, SimpleMatrix{{1.0, 0.0, 0.0}});
    auto sim = moreau(1e-3);
    CPPUNIT_ASSERT_NO_THROW(model->initialize(sim));
    CPPUNIT_ASSERT(sim->isInitialized());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(
        1.0, model->nonSmoothDynamicalSystem()->interactions().front()->y(0)(0), 0.0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(InitializationErrorsTest);
