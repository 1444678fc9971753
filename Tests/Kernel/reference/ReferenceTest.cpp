// BouncingBallTS and DiodeBridge against the Siconos reference files
// (shared/reference/README.md gives the models, the tolerances and the key figures).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nsdyn/Kernel.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "reference_io.hpp"

using namespace nsdyn;

namespace {
/// The BouncingBallTS run of the reference README §1, in-process.
Table runBouncingBall() {
  const double t0 = 0.0, T = 10.0, h = 0.005, m = 1.0, R = 0.1, g = 9.81;
  auto ball = std::make_shared<LagrangianLinearTIDS>(
      SiconosVector{1.0, 0.0, 0.0}, SiconosVector(3),
      SimpleMatrix::diagonal(SiconosVector{m, m, 0.4 * m * R * R}));
  ball->setFExt(SiconosVector{-m * g, 0.0, 0.0});
  auto inter = std::make_shared<Interaction>(
      std::make_shared<NewtonImpactNSL>(0.9),
      std::make_shared<LagrangianLinearTIR>(SimpleMatrix{{1.0, 0.0, 0.0}}));
  auto model = std::make_shared<Model>(t0, T);
  model->nonSmoothDynamicalSystem()->link(inter, ball);
  auto sim =
      std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(t0, h),
                                     std::make_shared<MoreauJeanOSI>(0.5), std::make_shared<LCP>());
  model->initialize(sim);
  Table out;
  out.push_back({t0, 1.0, 0.0, 0.0, 0.0});
  while (sim->hasNextEvent()) {
    sim->computeOneStep();
    out.push_back(
        {sim->nextTime(), ball->q()(0), ball->velocity()(0), ball->p()(0), inter->lambda(1)(0)});
    sim->nextStep();
  }
  return out;
}

/// The DiodeBridge run of the reference README §2, in-process.
Table runDiodeBridge() {
  const double L = 1e-2, C = 1e-6, R = 1e3, h = 1e-6;
  auto lc = std::make_shared<FirstOrderLinearTIDS>(SiconosVector{10.0, 0.0},
                                                   SimpleMatrix{{0.0, -1.0 / C}, {1.0 / L, 0.0}});
  SimpleMatrix Cr(4, 2), B(2, 4);
  Cr(2, 0) = -1.0;
  Cr(3, 0) = 1.0;
  B(0, 2) = -1.0 / C;
  B(0, 3) = 1.0 / C;
  const SimpleMatrix D{{1 / R, 1 / R, -1, 0}, {1 / R, 1 / R, 0, -1}, {1, 0, 0, 0}, {0, 1, 0, 0}};
  auto inter = std::make_shared<Interaction>(std::make_shared<ComplementarityConditionNSL>(4),
                                             std::make_shared<FirstOrderLinearTIR>(Cr, D, B));
  auto model = std::make_shared<Model>(0.0, 5e-3);
  model->nonSmoothDynamicalSystem()->link(inter, lc);
  auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                            std::make_shared<EulerMoreauOSI>(0.5),
                                            std::make_shared<LCP>());
  model->initialize(sim);
  Table out;
  out.push_back({0.0, 10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0});
  for (int k = 1; k < 5000; ++k) {
    sim->computeOneStep();
    const SiconosVector& y = inter->y(0);
    const SiconosVector& l = inter->lambda(0);
    out.push_back({sim->nextTime(), lc->x()(0), lc->x()(1), y(0), -l(0), -l(1), l(2), y(0) + l(2)});
    sim->nextStep();
  }
  return out;
}

/// Largest |a - b| per column; fails on shape mismatch.
std::vector<double> maxDeviation(const Table& got, const Table& ref) {
  CPPUNIT_ASSERT_EQUAL(ref.size(), got.size());
  std::vector<double> dev(ref.front().size(), 0.0);
  for (std::size_t i = 0; i < ref.size(); ++i) {
    CPPUNIT_ASSERT_EQUAL(ref[i].size(), got[i].size());
    for (std::size_t j = 0; j < ref[i].size(); ++j)
      dev[j] = std::max(dev[j], std::fabs(got[i][j] - ref[i][j]));
  }
  return dev;
}

void checkBouncingBall(const Table& got) {
  const Table ref = readRef(kRefDir + "BouncingBallTS.ref");
  const std::vector<double> dev = maxDeviation(got, ref);
  double worst = 0.0;
  for (double d : dev) worst = std::max(worst, d);
  std::printf("  BouncingBallTS: max deviation from the reference %.3g\n", worst);
  for (std::size_t j = 0; j < dev.size(); ++j)
    CPPUNIT_ASSERT_MESSAGE("column " + std::to_string(j) + ": " + std::to_string(dev[j]),
                           dev[j] <= 1e-10);
}

void checkDiodeBridge(const Table& got) {
  const Table ref = readRef(kRefDir + "DiodeBridge.ref");
  const std::vector<double> dev = maxDeviation(got, ref);
  // voltages (cols 1, 4, 5) at 1e-10, currents (2, 3, 6, 7) at 1e-12, time exact to round-off
  const double tol[8] = {1e-15, 1e-10, 1e-12, 1e-12, 1e-10, 1e-10, 1e-12, 1e-12};
  double worst = 0.0;
  for (double d : dev) worst = std::max(worst, d);
  std::printf("  DiodeBridge: max deviation from the reference %.3g\n", worst);
  for (std::size_t j = 0; j < dev.size(); ++j)
    CPPUNIT_ASSERT_MESSAGE("column " + std::to_string(j) + ": " + std::to_string(dev[j]),
                           dev[j] <= tol[j]);
}

}  // namespace

class ReferenceTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ReferenceTest);
  CPPUNIT_TEST(bouncingBallMatchesReference);
  CPPUNIT_TEST(bouncingBallKeyFigures);
  CPPUNIT_TEST(bouncingBallExampleCsv);
  CPPUNIT_TEST(diodeBridgeMatchesReference);
  CPPUNIT_TEST(diodeBridgeKeyFigures);
  CPPUNIT_TEST(diodeBridgeExampleCsv);
  CPPUNIT_TEST_SUITE_END();

 public:
  void bouncingBallMatchesReference() { checkBouncingBall(runBouncingBall()); }

  void bouncingBallKeyFigures() {
    const Table t = runBouncingBall();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2001), t.size());
    // free flight exact before the first contact
    CPPUNIT_ASSERT_DOUBLES_EQUAL(6.7374999999988104e-03, t[90][1], 1e-13);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-4.4145000000000092, t[90][2], 1e-13);
    // first impulse at row 91: v_{k+1} = -e v_k
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t[90][4], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(8.4366, t[91][4], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.97305, t[91][2], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.633875e-03, t[91][1], 1e-12);
    // 41 isolated single-step impulses before row 1697, then active at every step
    int isolated = 0;
    for (std::size_t k = 1; k < 1697; ++k)
      if (t[k][4] > 0.0) {
        ++isolated;
        CPPUNIT_ASSERT(t[k - 1][4] == 0.0 && t[k + 1][4] == 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.9 * t[k - 1][2], t[k][2], 1e-12);
      }
    CPPUNIT_ASSERT_EQUAL(41, isolated);
    for (std::size_t k = 1697; k < t.size(); ++k) CPPUNIT_ASSERT(t[k][4] > 0.0);
    // apexes and the deepest point
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.8101765, t[172][1], 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.6563189125, t[327][1], 1e-9);
    double minZ = 1.0;
    for (const auto& row : t) minZ = std::min(minZ, row[1]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-7.446656374999743e-03, minZ, 1e-13);
    // rows 100, 200, 400, 1000 and the last
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.7448849999999910e-01, t[100][1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.5316000000000072, t[100][2], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.1403850000000002e-01, t[200][1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0599625000006700e-03, t[400][1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.5135368026251400e-01, t[1000][1], 1e-11);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(10.0, t[2000][0], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-2.2886180905507169e-05, t[2000][1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.9049999999990192e-02, t[2000][4], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(t[2000][3], t[2000][4], 0.0);
  }

  void bouncingBallExampleCsv() { checkBouncingBall(runExample("BouncingBallTS")); }

  void diodeBridgeMatchesReference() { checkDiodeBridge(runDiodeBridge()); }

  void diodeBridgeKeyFigures() {
    const Table t = runDiodeBridge();
    CPPUNIT_ASSERT_EQUAL(std::size_t(5000), t.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(9.989510751479733, t[1][1], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(9.994755375739867e-04, t[1][2], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(9.989510751480246e-03, t[1][6], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-9.989510751479733, t[1][4], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.751475253294206, t[100][1], 1e-11);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-4.153200409685383, t[200][1], 1e-11);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.153200409685384e-03, t[200][3], 1e-13);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t[200][6], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.863839107277327e-01, t[4999][1], 1e-11);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-2.830718054146945e-03, t[4999][2], 1e-13);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.999e-3, t[4999][0], 1e-18);
    // V_C changes sign at rows 153, 467, 782, 1097, 1411 (half period pi sqrt(LC))
    std::vector<std::size_t> changes;
    for (std::size_t k = 0; k + 1 < t.size() && changes.size() < 5; ++k)
      if ((t[k][1] > 0) != (t[k + 1][1] > 0))
        changes.push_back(k + 1);  // first row of the new sign
    const std::vector<std::size_t> expected{153, 467, 782, 1097, 1411};
    CPPUNIT_ASSERT(changes == expected);
    // the resistor current is never negative (full-wave rectification)
    for (const auto& row : t) CPPUNIT_ASSERT(row[7] >= -1e-15);
  }

  void diodeBridgeExampleCsv() { checkDiodeBridge(runExample("DiodeBridge")); }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ReferenceTest);
