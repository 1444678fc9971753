// The event-driven examples (Examples/BouncingBallED, LinearOscillatorED,
// BallBetweenWallsED), run as programs: BouncingBallED against
// shared/reference/BouncingBallED.ref (README §3 tolerances), LinearOscillatorED
// against its closed form (EXAMPLES.md §4), the two-contact example's physics,
// and the early stop keeping the rows written.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "example_run.hpp"

namespace {

using Rows = std::vector<std::vector<double>>;

/// The .ref format: a "rows cols" header, then rows of space-separated values.
Rows readReference(const std::string& path, std::size_t& headerRows, std::size_t& headerCols) {
  std::ifstream in(path);
  CPPUNIT_ASSERT_MESSAGE("cannot open " + path, in.good());
  in >> headerRows >> headerCols;
  Rows rows(headerRows, std::vector<double>(headerCols));
  for (auto& r : rows)
    for (double& x : r) in >> x;
  CPPUNIT_ASSERT_MESSAGE("truncated " + path, !in.fail());
  return rows;
}

/// Rows k where rows k and k+1 share their time: the impact pairs (pre, post).
std::vector<std::size_t> impactPairs(const nsdyn::test::ExampleCsv& c) {
  std::vector<std::size_t> pre;
  for (std::size_t k = 0; k + 1 < c.rowCount(); ++k)
    if (c(k, 0) == c(k + 1, 0)) pre.push_back(k++);
  return pre;
}

constexpr double kG = 9.81;

}  // namespace

class EventDrivenExamplesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(EventDrivenExamplesTest);
  CPPUNIT_TEST(bouncingBallStructure);
  CPPUNIT_TEST(bouncingBallMatchesReference);
  CPPUNIT_TEST(bouncingBallKeyFigures);
  CPPUNIT_TEST(linearOscillatorStructure);
  CPPUNIT_TEST(linearOscillatorImpactTimes);
  CPPUNIT_TEST(linearOscillatorFreeDirection);
  CPPUNIT_TEST(linearOscillatorEnergyRestitutionRest);
  CPPUNIT_TEST(ballBetweenWallsPhysics);
  CPPUNIT_TEST(maxEventsKeepsRows);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& ball() { return nsdyn::test::runExample("BouncingBallED"); }
  const nsdyn::test::ExampleCsv& oscillator() {
    return nsdyn::test::runExample("LinearOscillatorED");
  }

 public:
  // 1788 rows x 7, no t = 0 row, first t = 0.005, last 8.5, 44 impact pairs.
  void bouncingBallStructure() {
    const auto& c = ball();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1788), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(7), c.columnCount());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.005, c(0, 0), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(8.5, c(c.rowCount() - 1, 0), 1e-15);
    CPPUNIT_ASSERT_EQUAL(std::size_t(44), impactPairs(c).size());
    for (std::size_t k = 1; k < c.rowCount(); ++k) CPPUNIT_ASSERT(c(k, 0) >= c(k - 1, 0));
  }

  // Impact times to 1e-9, every other entry to 1e-8 (README §3), structure exact.
  void bouncingBallMatchesReference() {
    const auto& c = ball();
    std::size_t nr = 0, nc = 0;
    const Rows ref =
        readReference(std::string(NSDYN_SHARED_DIR) + "/reference/BouncingBallED.ref", nr, nc);
    CPPUNIT_ASSERT_EQUAL(nr, c.rowCount());
    CPPUNIT_ASSERT_EQUAL(nc, c.columnCount());
    double worstTime = 0.0, worstValue = 0.0;
    for (std::size_t k = 0; k < nr; ++k) {
      const bool impactRow = ref[k][3] != 0.0;
      CPPUNIT_ASSERT_EQUAL(impactRow, c(k, 3) != 0.0);
      CPPUNIT_ASSERT_EQUAL(ref[k][5] != 0.0, c(k, 5) != 0.0);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(ref[k][0], c(k, 0), impactRow ? 1e-9 : 1e-15);
      worstTime = std::max(worstTime, std::fabs(ref[k][0] - c(k, 0)));
      for (std::size_t j = 1; j < nc; ++j) {
        CPPUNIT_ASSERT_DOUBLES_EQUAL(ref[k][j], c(k, j), 1e-8);
        worstValue = std::max(worstValue, std::fabs(ref[k][j] - c(k, j)));
      }
    }
    std::printf("\n  BouncingBallED vs reference: times %.2e, values %.2e (max abs)\n", worstTime,
                worstValue);
  }

  // Closed form: t1 = sqrt(2/g), v+ = e v-, P = (1 + e) m v0 e^(n-1); grid values of README §3.
  void bouncingBallKeyFigures() {
    const auto& c = ball();
    const double e = 0.9, v0 = std::sqrt(2.0 * kG);
    const std::vector<std::size_t> pre = impactPairs(c);
    CPPUNIT_ASSERT_EQUAL(std::size_t(90), pre.front());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.451523640985731, c(90, 0), 1e-12);
    for (std::size_t n = 0; n < pre.size(); ++n) {
      const std::size_t k = pre[n];
      const double t =
          std::sqrt(2.0 / kG) + (2.0 * v0 / kG) * e * (1.0 - std::pow(e, n)) / (1.0 - e);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(t, c(k, 0), 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c(k, 1), 1e-11);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-e * c(k, 2), c(k + 1, 2), 2e-15 * std::fabs(c(k, 2)) + 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL((1.0 + e) * v0 * std::pow(e, n), c(k, 3), 1e-9);
      CPPUNIT_ASSERT_EQUAL(c(k, 3), c(k + 1, 3));
      CPPUNIT_ASSERT_EQUAL(c(k + 1, 3), c(k + 1, 5));
      CPPUNIT_ASSERT_EQUAL(0.0, c(k, 5));
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(8.491374025647692, c(pre.back(), 0), 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(9.998773750000001e-01, c(0, 1), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.565550791198585e-06, c(c.rowCount() - 1, 1), 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-4.166519585822917e-02, c(c.rowCount() - 1, 2), 1e-8);
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT_EQUAL(0.0, c(k, 4));
      CPPUNIT_ASSERT_EQUAL(0.0, c(k, 6));
    }
  }

  // 1854 rows x 9 ending at t = 7.07: 1414 grid rows + 2 x 220; first row the
  // pre-impact row of the first impact (t < h); no t = 0 row.
  void linearOscillatorStructure() {
    const auto& c = oscillator();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1854), c.rowCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(9), c.columnCount());
    CPPUNIT_ASSERT_EQUAL(std::size_t(220), impactPairs(c).size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.967e-3, c(0, 0), 1e-6);
    CPPUNIT_ASSERT_EQUAL(c(0, 0), c(1, 0));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.07, c(c.rowCount() - 1, 0), 1e-12);
  }

  // Impact n: between impacts q0 = x_eq (1 - cos w s) + (v+/w) sin w s, so the
  // flight after an impact at v+ lasts 2 atan(v+ / (w a)) / w, a = -x_eq = m g / k,
  // and |v-| of the next impact is v+. First impact: cos(w t1) = a / (1 + a).
  void linearOscillatorImpactTimes() {
    const auto& c = oscillator();
    const double m = 1e-3, k = 100.0, e = 0.9, w = std::sqrt(k / m), a = m * kG / k;
    double t = std::acos(a / (1.0 + a)) / w, v = w * std::sqrt(1.0 + 2.0 * a);
    const std::vector<std::size_t> pre = impactPairs(c);
    double worstEarly = 0.0, worstAll = 0.0;
    for (std::size_t n = 0; n < pre.size(); ++n) {
      const double err = std::fabs(c(pre[n], 0) - t);
      if (n < 150) worstEarly = std::max(worstEarly, err);
      worstAll = std::max(worstAll, err);
      if (n < 150) CPPUNIT_ASSERT_DOUBLES_EQUAL(-v, c(pre[n], 2), 1e-9 + 1e-11 * v);
      v *= e;
      t += 2.0 * std::atan(v / (w * a)) / w;
    }
    std::printf(
        "\n  LinearOscillatorED impact times vs closed form: first 150 %.2e s, all 220 %.2e s\n",
        worstEarly, worstAll);
    CPPUNIT_ASSERT(worstEarly < 1e-10);
    CPPUNIT_ASSERT(worstAll < 5e-8);
  }

  // q1 = 0.001 cos(w t), q1dot = -0.001 w sin(w t): the free, undamped direction.
  void linearOscillatorFreeDirection() {
    const auto& c = oscillator();
    const double w = std::sqrt(100.0 / 1e-3);
    double worst = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      const double t = c(k, 0);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.001 * std::cos(w * t), c(k, 7), 1e-10);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.001 * w * std::sin(w * t), c(k, 8), 1e-8);
      worst = std::max(worst, std::fabs(0.001 * std::cos(w * t) - c(k, 7)));
    }
    std::printf("\n  LinearOscillatorED q1 vs 0.001 cos(wt): %.2e\n", worst);
  }

  // Energy 1/2 m v^2 + 1/2 k q^2 + m g q of q0 is constant between impacts; v+ = -e v-
  // (0 at the last impact, which ends the accumulation); afterwards the mass
  // rests: q0dot = 0, lambda(2) = p(2) = m g + k q0.
  void linearOscillatorEnergyRestitutionRest() {
    const auto& c = oscillator();
    const double m = 1e-3, k = 100.0, e = 0.9;
    auto energy = [&](std::size_t r) {
      return 0.5 * m * c(r, 2) * c(r, 2) + 0.5 * k * c(r, 1) * c(r, 1) + m * kG * c(r, 1);
    };
    const std::vector<std::size_t> pre = impactPairs(c);
    for (std::size_t n = 0; n + 1 < pre.size(); ++n) {
      const std::size_t post = pre[n] + 1;
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-e * c(pre[n], 2), c(post, 2),
                                   1e-14 * std::fabs(c(pre[n], 2)) + 1e-15);
      for (std::size_t r = post + 1; r < pre[n + 1]; ++r)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(energy(post), energy(r), 1e-11 * energy(post) + 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(energy(post), energy(pre[n + 1]), 1e-11 * energy(post) + 1e-15);
    }
    const std::size_t last = pre.back() + 1;
    CPPUNIT_ASSERT_EQUAL(0.0, c(last, 2));
    for (std::size_t r = last; r < c.rowCount(); ++r) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c(r, 1), 1e-10);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c(r, 2), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(m * kG + k * c(r, 1), c(r, 6), 1e-12);
      CPPUNIT_ASSERT_EQUAL(c(r, 6), c(r, 4));
    }
  }

  // Ceiling hit (P_ceiling > 0), accumulation on the floor then rest (F = m g),
  // lift-off when the pulse cancels the weight at t = 5.125, rest again at T.
  void ballBetweenWallsPhysics() {
    const auto& c = nsdyn::test::runExample("BallBetweenWallsED");
    CPPUNIT_ASSERT_EQUAL(std::size_t(8), c.columnCount());
    bool ceiling = false;
    double tLift = -1.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      CPPUNIT_ASSERT(c(k, 1) >= 0.1 - 1e-9 && c(k, 1) <= 1.4 + 1e-9);
      if (c(k, 4) > 0.0) ceiling = true;
      if (k > 0 && c(k - 1, 7) == 1.0 && c(k, 7) == 0.0 && c(k, 0) > 4.0 && tLift < 0.0)
        tLift = c(k, 0);
      if (c(k, 7) == 1.0) CPPUNIT_ASSERT_DOUBLES_EQUAL(-c(k, 6), c(k, 5), 1e-9);
    }
    CPPUNIT_ASSERT(ceiling);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.125, tLift, 1e-9);
    const std::size_t last = c.rowCount() - 1;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(8.0, c(last, 0), 1e-12);
    CPPUNIT_ASSERT_EQUAL(1.0, c(last, 7));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(kG, c(last, 5), 1e-9);
  }

  // --max-events 300: exit status 3, a message, and the rows of the 300 events kept.
  void maxEventsKeepsRows() {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(NSDYN_BINARY_DIR) / "Tests" / "Kernel" / "eventdriven" /
                         ("scratch-maxevents-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string cmd = "'" + (fs::path(NSDYN_BINARY_DIR) / "bin" / "BouncingBallED").string() +
                            "' --no-plot --quiet --max-events 300 --output '" + dir.string() +
                            "' > '" + (dir / "log").string() + "' 2>&1";
    const int rc = std::system(cmd.c_str());
    std::ifstream logIn(dir / "log");
    std::stringstream log;
    log << logIn.rdbuf();
    CPPUNIT_ASSERT_MESSAGE(log.str(), WIFEXITED(rc) && WEXITSTATUS(rc) == 3);
    CPPUNIT_ASSERT_MESSAGE(log.str(), log.str().find("maxEvents") != std::string::npos);
    const nsdyn::test::ExampleCsv c =
        nsdyn::test::readExampleCsv((dir / "BouncingBallED.csv").string());
    fs::remove_all(dir);
    // 300 events: grid rows up to t and 2 rows per impact before it
    const std::size_t impacts = impactPairs(c).size();
    CPPUNIT_ASSERT_EQUAL(std::size_t(300) + impacts, c.rowCount());
    const auto& full = ball();
    for (std::size_t k = 0; k < c.rowCount(); ++k)
      for (std::size_t j = 0; j < c.columnCount(); ++j) CPPUNIT_ASSERT_EQUAL(full(k, j), c(k, j));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(EventDrivenExamplesTest);
