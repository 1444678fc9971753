// test_race_quality: the race's shared quality code (race_quality.hpp) on hand-made
// configurations and a hand-made trajectory whose penetration, kinetic energy, top, drift
// and Siconos-error figures are known in closed form; and the scene builders' counts.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "race_positions.hpp"
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
  CPPUNIT_TEST(testNewScenes);
  CPPUNIT_TEST(testPositionsFile);
  CPPUNIT_TEST(testPositionsErrors);
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
    CPPUNIT_ASSERT_THROW(race::makeScene("pyramid30", "", false, 0), std::runtime_error);
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

  void testNewScenes() {
    // pyramid20: rows of 20 .. 1 cubes of 1 m, touching, no start overlap, apex at 19.5 m
    const race::Scene p = race::pyramid2d();
    CPPUNIT_ASSERT_EQUAL(std::size_t(210), p.bodies.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-9.5, p.bodies.front().x[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(19.5, p.bodies.back().x[2], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, p.bodies.back().x[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, race::penetration(p.bodies, p.planes).max, 1e-12);
    CPPUNIT_ASSERT_EQUAL(std::size_t(21), race::makeScene("pyramid20", "", true, 0).bodies.size());
    // the hopper of granular_scene at 2,000 grains: 4 plates then the floor slab; the +x
    // plate's inner face has its lower edge at the outlet (x = 3 d = 0.072, z = 0.2) and its
    // upper edge at the top width (x = 0.5 sqrt(2000) 0.024 0.6, z = 0.2 + run tan 60)
    const std::vector<Body> parts = race::hopperParts(2000);
    CPPUNIT_ASSERT_EQUAL(std::size_t(5), parts.size());
    const double top = std::sqrt(2000.0) * 0.024 * 0.6, run = 0.5 * (top - 0.144);
    const double slant = run / std::cos(M_PI / 3);
    // a sphere of radius 1 mm touching the inner face just above the lower edge: 0 overlap
    // when centred 1 mm off the face along its normal (-sin 60, 0, cos 60)
    const double s60 = std::sin(M_PI / 3), c60 = std::cos(M_PI / 3);
    auto onFace = [&](double along, double off) {
      return sphere(1e-3, 0.072 + along * c60 - off * s60, 0.0, 0.2 + along * s60 + off * c60);
    };
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, race::overlap(onFace(0.5 * slant, 1e-3), parts[0]), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4e-4, race::overlap(onFace(0.5 * slant, 6e-4), parts[0]), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4e-4, race::overlap(onFace(slant - 0.01, 6e-4), parts[0]), 1e-12);
    // the -y plate is the +x one turned by -90 degrees about z
    Body turned = onFace(0.5 * slant, 6e-4);
    turned.x = {0.0, -turned.x[0], turned.x[2]};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4e-4, race::overlap(turned, parts[3]), 1e-12);
    // the floor slab: top face at z = 0
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2e-4, race::overlap(sphere(1e-3, 0.01, 0.02, 8e-4), parts[4]),
                                 1e-12);
    // counted by penetration() as fixed parts, and not against each other
    const race::Penetration pen = race::penetration({onFace(0.5 * slant, 6e-4)}, {}, parts);
    CPPUNIT_ASSERT_EQUAL(1L, pen.pairs);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4e-4, pen.max, 1e-12);
  }

  void testPositionsFile() {
    // pyramid2d(2): two cubes of 1 m on the floor and one on top; two steps written by hand
    race::Scene s = race::pyramid2d(2);
    s.steps = 2;
    s.driftFrom = 0;
    const std::string path = "test_race_quality_positions.txt";
    {
      std::ofstream f(path);
      f << "# race positions bodies 3\n";
      // step 1: cube 0 sunk 0.1 into the floor, moving at 1 m/s (KE 1/2 1000 1 = 500)
      f << "step 1 ms 2 err 1e-3 iterations 10\n"
        << "-0.5 0 0.4 1 0 0 0 1 0 0 0 0 0\n0.5 0 0.5 1 0 0 0 0 0 0 0 0 0\n"
        << "0 0 1.5 1 0 0 0 0 0 0 0 0 0\n";
      // step 2: cube 0 back, at rest; the top cube moved 0.3 along x (drift)
      f << "step 2 ms 4 err 3e-3 iterations 30\n"
        << "-0.5 0 0.5 1 0 0 0 0 0 0 0 0 0\n0.5 0 0.5 1 0 0 0 0 0 0 0 0 0\n"
        << "0.3 0 1.5 1 0 0 0 0 0 0 0 0 0\n";
    }
    std::stringstream scene;
    race::writeScene(s, scene);
    const race::PositionsResult r = race::measurePositions(s, path);
    std::remove(path.c_str());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, r.loop.msStep, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(20.0, r.iterationsMean, 1e-12);
    CPPUNIT_ASSERT_EQUAL(2L, r.loop.m.steps);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, r.loop.m.penMax, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, r.loop.m.penEnd, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(500.0, r.loop.m.keMax, 1e-9);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3, r.loop.m.driftMax, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, r.loop.m.driftMean, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3e-3, r.loop.m.errMax, 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, r.loop.m.topEnd, 1e-12);
    // the scene file: header, the floor plane, three bodies
    std::string line;
    int bodies = 0, planes = 0;
    std::getline(scene, line);
    CPPUNIT_ASSERT_MESSAGE(line, line.rfind("# race scene pyramid20 h ", 0) == 0);
    while (std::getline(scene, line)) {
      bodies += line.rfind("body box 0.5 0.5 0.5 1000 ", 0) == 0;
      planes += line == "plane 0 0 1 0";
    }
    CPPUNIT_ASSERT_EQUAL(3, bodies);
    CPPUNIT_ASSERT_EQUAL(1, planes);
  }

  void testPositionsErrors() {
    race::Scene s = race::pyramid2d(2);
    s.steps = 2;
    const std::string path = "test_race_quality_bad.txt";
    auto message = [&](const std::string& text) {
      {
        std::ofstream f(path);
        f << text;
      }
      std::string m;
      try {
        race::measurePositions(s, path);
      } catch (const std::runtime_error& e) {
        m = e.what();
      }
      std::remove(path.c_str());
      return m;
    };
    const std::string body = "0 0 0.5 1 0 0 0 0 0 0 0 0 0\n";
    std::string m = message("# race positions bodies 4\n");
    CPPUNIT_ASSERT_MESSAGE(m, m.find(path + ":1: bodies 4, the scene pyramid20 has 3") == 0);
    m = message("# race positions bodies 3\nstep 1 ms 1 err 0 iterations 1\n" + body + body +
                "0 0 1.5 1 0 0\n");
    CPPUNIT_ASSERT_MESSAGE(m, m.find(path + ":5: expected 13 numbers") == 0);
    m = message("# race positions bodies 3\nstep 2 ms 1 err 0 iterations 1\n");
    CPPUNIT_ASSERT_MESSAGE(m, m.find(path + ":2: step 2, expected 1") == 0);
    m = message("# race positions bodies 3\nstep 1 ms 1 err 0 iterations 1\n" + body + body + body);
    CPPUNIT_ASSERT_MESSAGE(m, m.find(path + ":6: unexpected end of file") == 0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RaceQualityTest);
