// test_race_quality: the race's shared quality code (race_quality.hpp) on hand-made
// configurations and a hand-made trajectory whose penetration, kinetic energy, top, drift
// and Siconos-error figures are known in closed form; and the scene builders' counts.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "race_quality.hpp"
#include "race_scenes.hpp"

using race::Body;
using race::Kind;

namespace {

Body sphere(double r, double x, double y, double z) {
  Body b;
  b.kind = Kind::Sphere;
  b.half = {r, r, r};
  b.mass = 1.0;
  b.inertia = {0.4 * r * r, 0.4 * r * r, 0.4 * r * r};
  b.x = {x, y, z};
  return b;
}

Body box(double h, double x, double y, double z) {
  Body b;
  b.kind = Kind::Box;
  b.half = {h, h, h};
  b.mass = 2.0;
  b.inertia = {1.0, 2.0, 3.0};
  b.x = {x, y, z};
  return b;
}

}  // namespace

class RaceQualityTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RaceQualityTest);
  CPPUNIT_TEST(testPairOverlaps);
  CPPUNIT_TEST(testKineticEnergyInBodyFrame);
  CPPUNIT_TEST(testTrajectory);
  CPPUNIT_TEST(testSceneCounts);
  CPPUNIT_TEST_SUITE_END();

 public:
  void testPairOverlaps() {
    const double tol = 1e-12;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, race::overlap(sphere(0.5, 0, 0, 0), sphere(0.5, 0.9, 0, 0)),
                                 tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.2, race::overlap(sphere(0.5, 0, 0, 0), sphere(0.5, 1.2, 0, 0)),
                                 tol);
    const race::Plane floor{{0, 0, 1}, 0.0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05, race::overlap(sphere(0.5, 3, 1, 0.45), floor), tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, race::overlap(box(0.5, 0, 0, 0.4), floor), tol);
    // a cube turned 45 degrees about x on the floor: its lowest edge sqrt(2)/2 below the centre
    Body tilted = box(0.5, 0, 0, 0.7);
    tilted.q = {std::cos(M_PI / 8), std::sin(M_PI / 8), 0, 0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(0.5) - 0.7, race::overlap(tilted, floor), tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.7 + std::sqrt(0.5), race::topOf(tilted), tol);
    // sphere-box: outside a face, then centre inside the box
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, race::overlap(sphere(0.5, 0.9, 0, 0), box(0.5, 0, 0, 0)),
                                 tol);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 + 0.3,
                                 race::overlap(box(0.5, 0, 0, 0), sphere(0.5, 0.2, 0, 0)), tol);
    // sphere-box by a corner: distance to the corner (0.5, 0.5, 0.5) is 0.1 sqrt(3)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 - 0.1 * std::sqrt(3.0),
                                 race::overlap(sphere(0.5, 0.6, 0.6, 0.6), box(0.5, 0, 0, 0)), tol);
    // box-box: faces, then one turned 45 degrees about z (its half-width along x: sqrt(2)/2)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.2, race::overlap(box(0.5, 0, 0, 0), box(0.5, 0.8, 0, 0)), tol);
    Body turned = box(0.5, 1.1, 0, 0);
    turned.q = {std::cos(M_PI / 8), 0, 0, std::sin(M_PI / 8)};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 + std::sqrt(0.5) - 1.1,
                                 race::overlap(box(0.5, 0, 0, 0), turned), tol);
    // resting face to face: 0 (not counted as a penetration)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, race::overlap(box(1.0, 0, 0, 1), box(1.0, 0, 0, 3)), tol);
  }

  void testKineticEnergyInBodyFrame() {
    // inertia diag (1, 2, 3); turned 90 degrees about x, world z is the body's -y: the spin
    // 2 rad/s about world z meets I_yy = 2: 1/2 2 2^2 = 4, plus 1/2 m v^2 = 1/2 2 1 = 1
    Body b = box(0.5, 0, 0, 0);
    b.q = {std::sqrt(0.5), std::sqrt(0.5), 0, 0};
    b.v = {1, 0, 0};
    b.w = {0, 0, 2};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0, race::kineticEnergy(b), 1e-12);
  }

  void testTrajectory() {
    // three spheres of radius 0.5 on the floor; the start has a planted 0.3 overlap (excluded)
    std::vector<Body> b{sphere(0.5, 0, 0, 0.5), sphere(0.5, 0.7, 0, 0.5), sphere(0.5, 5, 0, 0.5)};
    const std::string series = "test_race_quality_series.csv";
    {
      race::Tracker t({race::Plane{{0, 0, 1}, 0.0}}, 0.0, 0, series);
      t.start(b);
      // step 1: the pair at 0.98 (overlap 0.02); body 2 moves up 0.1 with v = 2: KE 2
      b[1].x[0] = 0.98;
      b[2].x[2] = 0.6;
      b[2].v = {0, 0, 2};
      t.step(b, 0.1, 1e-3);
      // step 2: the pair at 0.99 (0.01), body 0 sunk 0.03 into the floor; body 2 moved by
      // (0.03, 0.04, 0) from the start (drift 0.05), at rest; body 1 at 0.99 (drift 0.29)
      b[1].x[0] = 0.99;
      b[0].x[2] = 0.47;
      b[2].x = {5.03, 0.04, 0.5};
      b[2].v = {0, 0, 0};
      t.step(b, 0.2, 3e-3);
      const race::Measures m = t.finish();
      CPPUNIT_ASSERT_EQUAL(2L, m.steps);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.03, m.penMax, 1e-12);  // not the start's 0.3
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.03, m.penEnd, 1e-12);
      // overlapping pairs: step 1 {0.02}, step 2 {0.01 pair, 0.03 floor, and the pair of
      // body 0 lowered by 0.03: distance sqrt(0.99^2 + 0.03^2)}
      const double d2 = 1.0 - std::sqrt(0.99 * 0.99 + 0.03 * 0.03);
      CPPUNIT_ASSERT_DOUBLES_EQUAL((0.02 + d2 + 0.03) / 3.0, m.penMean, 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, m.keEnd, 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, m.keMax, 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, m.topStart, 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, m.topEnd, 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.29, m.driftMax, 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL((0.03 + 0.29 + 0.05) / 3.0, m.driftMean, 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(3e-3, m.errMax, 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(2e-3, m.errMean, 1e-15);
    }
    std::ifstream in(series);
    std::string line;
    int lines = 0;
    while (std::getline(in, line)) ++lines;
    CPPUNIT_ASSERT_EQUAL(3, lines);  // header + one line per step
    std::remove(series.c_str());
    // drift from step 1: body 2 from (5, 0, 0.6) to (5.03, 0.04, 0.5)
    std::vector<Body> c{sphere(0.5, 0, 0, 0.5)};
    race::Tracker t({}, 0.0, 1);
    t.start(c);
    c[0].x = {1, 0, 0.5};
    t.step(c, 0.1);
    c[0].x = {1, 0.3, 0.9};
    t.step(c, 0.2);
    const race::Measures m = t.finish();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, m.driftMax, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, m.errMax, 0.0);  // no Siconos error given
  }

  void testSceneCounts() {
    const race::Scene b = race::bullet3000();
    CPPUNIT_ASSERT_EQUAL(std::size_t(47 * 64), b.bodies.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, b.bodies.front().x[2], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 + 46 * 3.0, b.bodies.back().x[2], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-12.0 - 46 * 0.35 + 7 * 3.0, b.bodies.back().x[0], 1e-9);
    const race::Scene j = race::joltPyramid();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1240), j.bodies.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(8000.0, j.bodies.front().mass, 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 + 14 * 2.5, j.bodies.back().x[2], 1e-12);
    // the start of both: no overlap (the layers are apart; the pyramid's cubes touch)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, race::penetration(j.bodies, j.planes).max, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, race::penetration(b.bodies, b.planes).max, 1e-12);
    // --steps: the drift reference (2 s of the pyramid) kept when it fits, else half the run
    CPPUNIT_ASSERT_EQUAL(120L, race::makeScene("jolt_pyramid", "", false, 300).driftFrom);
    CPPUNIT_ASSERT_EQUAL(50L, race::makeScene("jolt_pyramid", "", false, 100).driftFrom);
    CPPUNIT_ASSERT_EQUAL(std::size_t(30),
                         race::makeScene("jolt_pyramid", "", true, 0).bodies.size());
    CPPUNIT_ASSERT_THROW(race::makeScene("pyramid20", "", false, 0), std::runtime_error);
    CPPUNIT_ASSERT_THROW(race::makeScene("shallow", "", false, 0),
                         std::runtime_error);  // no --state
    // a state file: one good sphere, then a short line (named by file:line)
    const std::string path = "test_race_quality_state.txt";
    {
      std::ofstream f(path);
      f << "# scene shallow h 0.001 mu 0.5 e 0 gravity -9.81 box 0 0 0 1 1 2\n"
        << "0.5 0.5 0.01 1 0 0 0 0 0 0 0 0 0 0.01 0.01\n"
        << "0.5 0.5 0.03 1 0 0\n";
    }
    std::string message;
    try {
      race::sphereState(path);
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    CPPUNIT_ASSERT_MESSAGE(message, message.find(path + ":3:") != std::string::npos);
    {
      std::ofstream f(path);
      f << "# scene shallow h 0.001 mu 0.5 e 0 gravity -9.81 box 0 0 0 1 1 2\n"
        << "0.5 0.5 0.01 1 0 0 0 0 0 0 0 0 0 0.01 0.01\n";
    }
    const race::Scene st = race::makeScene("shallow", path, false, 0);
    std::remove(path.c_str());
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), st.planes.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, st.planes[2].n[0], 0.0);  // the wall x <= 1
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, st.planes[2].d, 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4e-7, st.bodies[0].inertia[0], 1e-18);  // 2/5 m r^2
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RaceQualityTest);
