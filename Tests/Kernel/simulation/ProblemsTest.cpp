// LCP, MLCP, Relay, FrictionContact and the Delassus assembly (Kernel/src/simulation).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>

#include "sim_helpers.hpp"

using namespace nsdyn;

namespace {
/// A column of three unit beads (1 dof each) above a floor, e = 0.8.
struct Column {
  std::vector<SP::LagrangianLinearTIDS> beads;
  SP::Model model;
  SP::TimeStepping sim;
  SP::LCP lcp;
};

Column makeColumn(OneStepNSProblem::MatrixStorage storage) {
  Column c;
  c.model = std::make_shared<Model>(0.0, 1.5);
  auto& nsds = *c.model->nonSmoothDynamicalSystem();
  for (int i = 0; i < 3; ++i) {
    auto b = std::make_shared<LagrangianLinearTIDS>(SiconosVector{0.5 + 0.3 * i},
                                                    SiconosVector{0.0}, SimpleMatrix{{1.0}});
    b->setFExt(SiconosVector{-9.81});
    nsds.insertDynamicalSystem(b);
    c.beads.push_back(b);
  }
  auto law = std::make_shared<NewtonImpactNSL>(0.8);
  nsds.link(std::make_shared<Interaction>(
                law, std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0}})),
            c.beads[0]);
  for (int i = 0; i < 2; ++i)
    nsds.link(
        std::make_shared<Interaction>(law, std::make_shared<LagrangianLinearTIR>(
                                               SimpleMatrix{{-1.0, 1.0}}, SiconosVector{-0.2})),
        c.beads[i], c.beads[i + 1]);
  c.lcp = std::make_shared<LCP>("lemke");
  c.lcp->setMatrixStorage(storage);
  c.sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-3),
                                         std::make_shared<MoreauJeanOSI>(0.5), c.lcp);
  c.model->initialize(c.sim);
  return c;
}
}  // namespace

class ProblemsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ProblemsTest);
  CPPUNIT_TEST(delassusOfCoupledContacts);
  CPPUNIT_TEST(sparseBlockMatchesDense);
  CPPUNIT_TEST(iterativeSolverFailureIsRecorded);
  CPPUNIT_TEST(fallbackSolverTakesOverFailedSolves);
  CPPUNIT_TEST(unknownFallbackIsRefused);
  CPPUNIT_TEST(fallbackStopsAtItsIterationBound);
  CPPUNIT_TEST(budgetModeAcceptsStepsAtTheirBudget);
  CPPUNIT_TEST(mlcpHoldsABilateralConstraint);
  CPPUNIT_TEST(mlcpSolvesTheDiodeBridgeLikeLcp);
  CPPUNIT_TEST(relayDryFrictionSticks);
  CPPUNIT_TEST(frictionContact2dSlidesThenSticks);
  CPPUNIT_TEST(frictionContact3dSlides);
  CPPUNIT_TEST_SUITE_END();

 public:
  void delassusOfCoupledContacts() {
    // all three contacts active at once: M = H W^-1 H^T of the chain
    Column c = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    IndexSet all = c.model->nonSmoothDynamicalSystem()->topology().indexSet(0);
    c.sim->computeFreeState();
    c.lcp->compute(c.model->nonSmoothDynamicalSystem()->topology(), all, c.sim->nextTime());
    const SimpleMatrix& M = c.lcp->lastMatrix();
    const double expected[3][3] = {{1, -1, 0}, {-1, 2, -1}, {0, -1, 2}};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) CPPUNIT_ASSERT_DOUBLES_EQUAL(expected[i][j], M(i, j), 0.0);
    // q = H v_free + e H v_k = -g h on the floor row, 0 between beads (all at rest)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-9.81e-3, c.lcp->lastQ()(0), 1e-16);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c.lcp->lastQ()(1), 1e-16);
  }

  void sparseBlockMatchesDense() {
    Column d = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    Column s = makeColumn(OneStepNSProblem::MatrixStorage::SparseBlock);
    d.sim->run();
    s.sim->run();
    std::size_t maxActive = 0;
    for (const auto& st : s.sim->statistics()) maxActive = std::max(maxActive, st.activeRelations);
    CPPUNIT_ASSERT(maxActive >= 2);  // coupled blocks were assembled
    for (int i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(d.beads[i]->q()(0), s.beads[i]->q()(0), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(d.beads[i]->velocity()(0), s.beads[i]->velocity()(0), 1e-10);
    }
  }

  void iterativeSolverFailureIsRecorded() {
    Column c = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    c.lcp->setSolverName("nlgs");
    c.lcp->optionsMutable().max_iterations = 1;
    c.lcp->optionsMutable().tolerance = 1e-15;
    CPPUNIT_ASSERT_NO_THROW(c.sim->run());
    long failed = 0;
    for (const auto& st : c.sim->statistics())
      if (st.solved && st.status != NSD_OK) {
        ++failed;
        CPPUNIT_ASSERT(!st.message.empty() || st.status == NSD_MAX_ITERATIONS);
      }
    CPPUNIT_ASSERT(failed > 0);
  }

  /// nlgs capped at 1 iteration fails on the coupled column (tolerance 1e-12); lemke as the
  /// fallback gives every such step the answer of a plain lemke run, and the statistics say so.
  void fallbackSolverTakesOverFailedSolves() {
    Column ref = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    ref.lcp->optionsMutable().tolerance = 1e-12;
    ref.sim->run();
    Column c = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    c.lcp->setSolverName("nlgs");
    c.lcp->setFallbackSolver("lemke");
    c.lcp->optionsMutable().max_iterations = 1;
    c.lcp->optionsMutable().tolerance = 1e-12;
    c.sim->run();
    long fallbacks = 0;
    for (const auto& st : c.sim->statistics()) {
      CPPUNIT_ASSERT_EQUAL_MESSAGE(st.message, NSD_OK, st.status);
      if (st.fallbacks) {
        ++fallbacks;
        CPPUNIT_ASSERT_EQUAL(std::string("nlgs+lemke"), st.solver);
        CPPUNIT_ASSERT(st.iterations >= 2);  // nlgs's 1 + lemke's pivots
        CPPUNIT_ASSERT(st.residual <= 1e-12);
      }
    }
    CPPUNIT_ASSERT(fallbacks > 0);
    // the same motion as lemke alone (both solve each step's LCP to 1e-12)
    for (std::size_t i = 0; i < 3; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(ref.beads[i]->q()(0), c.beads[i]->q()(0), 1e-9);
  }

  /// Budget mode (issue 24): nlgs capped at 1 iteration, the steps tolerance mode fails are
  /// accepted with the same residual, aboveTolerance set; no fallback in budget mode.
  void budgetModeAcceptsStepsAtTheirBudget() {
    Column tol = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    Column bud = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    for (Column* c : {&tol, &bud}) {
      c->lcp->setSolverName("nlgs");
      c->lcp->optionsMutable().max_iterations = 1;
      c->lcp->optionsMutable().tolerance = 1e-15;
    }
    bud.lcp->setSolveMode(SolveMode::Budget);
    CPPUNIT_ASSERT(tol.lcp->solveMode() == SolveMode::Tolerance);  // the default
    tol.sim->run();
    bud.sim->run();
    const auto& a = tol.sim->statistics();
    const auto& b = bud.sim->statistics();
    CPPUNIT_ASSERT_EQUAL(a.size(), b.size());
    long above = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
      CPPUNIT_ASSERT_EQUAL(a[k].aboveTolerance, b[k].aboveTolerance);
      CPPUNIT_ASSERT_EQUAL(a[k].residual, b[k].residual);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(b[k].message, NSD_OK, b[k].status);
      if (b[k].aboveTolerance) {
        ++above;
        CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, a[k].status);
        CPPUNIT_ASSERT(b[k].residual > 1e-15 && b[k].iterations == 1);
      }
    }
    CPPUNIT_ASSERT(above > 0);
    Column f = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    f.lcp->setSolveMode(SolveMode::Budget);
    f.lcp->setFallbackSolver("lemke");
    try {
      f.lcp->initialize([](const DynamicalSystem&) { return nullptr; }, 1);
      CPPUNIT_FAIL("a fallback was accepted in budget mode");
    } catch (const nsdyn::Error& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("budget mode") != std::string::npos);
    }
  }

  /// Issue 24: the fallback is bounded. nlgs at 3 iterations from 0 and psor behind it, both
  /// short of an unreachable tolerance: psor stops at its bound of 1 iteration (not the 3 of
  /// the first solver's cap, as before), the step failed with its residual; a bad bound
  /// refused.
  void fallbackStopsAtItsIterationBound() {
    Column c = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    c.lcp->setSolverName("nlgs");
    c.lcp->setFallbackSolver("psor");
    c.lcp->setFallbackBound(0.0, 1);
    c.lcp->setWarmStart(false);
    c.lcp->optionsMutable().max_iterations = 3;
    c.lcp->optionsMutable().tolerance = 1e-300;
    c.sim->run();
    long fallbacks = 0;
    for (const auto& st : c.sim->statistics()) {
      if (!st.fallbacks) continue;
      ++fallbacks;
      CPPUNIT_ASSERT_EQUAL(4, st.iterations);  // nlgs's 3 + psor's 1
      CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, st.status);
      CPPUNIT_ASSERT(st.aboveTolerance && std::isfinite(st.residual) && st.residual > 0.0);
    }
    CPPUNIT_ASSERT(fallbacks > 0);
    CPPUNIT_ASSERT_THROW(c.lcp->setFallbackBound(-1.0, 0), nsdyn::Error);
    CPPUNIT_ASSERT_THROW(c.lcp->setFallbackBound(1.0, -1), nsdyn::Error);
  }

  void unknownFallbackIsRefused() {
    Column c = makeColumn(OneStepNSProblem::MatrixStorage::Dense);
    c.lcp->setFallbackSolver("nosuchsolver");
    try {
      c.lcp->initialize([](const DynamicalSystem&) { return nullptr; }, 1);
      CPPUNIT_FAIL("an unknown fallback solver was accepted");
    } catch (const nsdyn::Error& e) {
      CPPUNIT_ASSERT(std::string(e.what()).find("nosuchsolver") != std::string::npos);
    }
  }

  void mlcpHoldsABilateralConstraint() {
    // a mass on a bilateral constraint z = 0 under gravity: velocity stays 0, lambda = m g h
    auto ds = std::make_shared<LagrangianLinearTIDS>(
        SiconosVector{0.0, 0.0}, SiconosVector{0.0, 1.0}, SimpleMatrix::identity(2));
    ds->setFExt(SiconosVector{-9.81, 0.0});
    auto inter = std::make_shared<Interaction>(
        std::make_shared<EqualityConditionNSL>(1),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0, 0.0}}));
    auto model = std::make_shared<Model>(0.0, 0.5);
    model->nonSmoothDynamicalSystem()->link(inter, ds);
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 0.01),
                                              std::make_shared<MoreauJeanOSI>(0.5),
                                              std::make_shared<MLCP>());
    model->initialize(sim);
    sim->run();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ds->q()(0), 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ds->velocity()(0), 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, ds->q()(1), 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(9.81 * 0.01, inter->lambda(1)(0), 1e-14);
  }

  void mlcpSolvesTheDiodeBridgeLikeLcp() {
    auto run = [](SP::OneStepNSProblem problem) {
      const double L = 1e-2, C = 1e-6, R = 1e3;
      auto lc = std::make_shared<FirstOrderLinearTIDS>(
          SiconosVector{10.0, 0.0}, SimpleMatrix{{0.0, -1.0 / C}, {1.0 / L, 0.0}});
      SimpleMatrix Cr(4, 2), B(2, 4);
      Cr(2, 0) = -1.0;
      Cr(3, 0) = 1.0;
      B(0, 2) = -1.0 / C;
      B(0, 3) = 1.0 / C;
      SimpleMatrix D{{1 / R, 1 / R, -1, 0}, {1 / R, 1 / R, 0, -1}, {1, 0, 0, 0}, {0, 1, 0, 0}};
      auto inter = std::make_shared<Interaction>(std::make_shared<ComplementarityConditionNSL>(4),
                                                 std::make_shared<FirstOrderLinearTIR>(Cr, D, B));
      auto model = std::make_shared<Model>(0.0, 2e-4);
      model->nonSmoothDynamicalSystem()->link(inter, lc);
      auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-6),
                                                std::make_shared<EulerMoreauOSI>(0.5), problem);
      model->initialize(sim);
      sim->run();
      return lc->x();
    };
    const SiconosVector a = run(std::make_shared<LCP>());
    const SiconosVector b = run(std::make_shared<MLCP>("enum"));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(a(0), b(0), 1e-10);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(a(1), b(1), 1e-12);
  }

  void relayDryFrictionSticks() {
    // x1'' + x1 = lambda, lambda in -sign(x1'): the oscillator stops with |x1| <= 1
    auto ds = std::make_shared<FirstOrderLinearDS>(SiconosVector{12.0, 6.0},
                                                   SimpleMatrix{{0.0, 1.0}, {-1.0, 0.0}});
    auto rel =
        std::make_shared<FirstOrderLinearR>(SimpleMatrix{{0.0, 1.0}}, SimpleMatrix{{0.0}, {1.0}});
    auto inter = std::make_shared<Interaction>(std::make_shared<RelayNSL>(1, -1.0, 1.0), rel);
    auto model = std::make_shared<Model>(0.0, 40.0);
    model->nonSmoothDynamicalSystem()->link(inter, ds);
    auto relay = std::make_shared<Relay>();
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, 1e-2),
                                              std::make_shared<EulerMoreauOSI>(0.5), relay);
    model->initialize(sim);
    // while x2 > 0 at the start, lambda = -1
    sim->computeOneStep();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, inter->lambda(0)(0), 1e-12);
    sim->nextStep();
    sim->run();
    CPPUNIT_ASSERT(std::fabs(ds->x()(1)) < 1e-8);
    CPPUNIT_ASSERT(std::fabs(ds->x()(0)) <= 1.0 + 1e-8);
    for (const auto& st : sim->statistics()) CPPUNIT_ASSERT_EQUAL(NSD_OK, st.status);
  }

  void frictionContact2dSlidesThenSticks() {
    // a block on the floor, q = (z, x), sliding at 1 m/s with mu = 0.3:
    // decelerates at mu g and stops at t = 1 / (mu g)
    const double mu = 0.3, g = 9.81, h = 1e-3;
    auto ds = std::make_shared<LagrangianLinearTIDS>(
        SiconosVector{0.0, 0.0}, SiconosVector{0.0, 1.0}, SimpleMatrix::identity(2));
    ds->setFExt(SiconosVector{-g, 0.0});
    auto inter = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactFrictionNSL>(0.0, 0.0, mu, 2),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix::identity(2)));
    auto model = std::make_shared<Model>(0.0, 0.5);
    model->nonSmoothDynamicalSystem()->link(inter, ds);
    auto fc = std::make_shared<FrictionContact>(2);
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs"), fc->solverName());
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), fc);
    model->initialize(sim);
    for (int k = 0; k < 100; ++k) {
      sim->computeOneStep();
      sim->nextStep();
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 - mu * g * 0.1, ds->velocity()(1), 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ds->velocity()(0), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(g * h, inter->lambda(1)(0), 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-mu * g * h, inter->lambda(1)(1), 1e-9);
    sim->run();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ds->velocity()(1), 1e-9);
    const double stop = 1.0 / (mu * g);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 * stop, ds->q()(1), 2e-3);
  }

  void frictionContact3dSlides() {
    const double mu = 0.5, g = 9.81, h = 1e-3;
    auto ds = std::make_shared<LagrangianLinearTIDS>(SiconosVector(3), SiconosVector{0.0, 0.6, 0.8},
                                                     SimpleMatrix::identity(3));
    ds->setFExt(SiconosVector{-g, 0.0, 0.0});
    auto inter = std::make_shared<Interaction>(
        std::make_shared<NewtonImpactFrictionNSL>(0.0, 0.0, mu, 3),
        std::make_shared<LagrangianLinearTIR>(SimpleMatrix::identity(3)));
    auto model = std::make_shared<Model>(0.0, 0.05);
    model->nonSmoothDynamicalSystem()->link(inter, ds);
    auto fc = std::make_shared<FrictionContact>(3);
    fc->optionsMutable().tolerance = 1e-12;
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), fc);
    model->initialize(sim);
    sim->run();
    // speed 1 decreases by mu g t along its direction (0.6, 0.8)
    const double speed = 1.0 - mu * g * 0.05;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.6 * speed, ds->velocity()(1), 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.8 * speed, ds->velocity()(2), 1e-8);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, sim->lastStatistics().status);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ProblemsTest);
