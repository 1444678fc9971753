// Examples/NE_3DS_3Knee_1Prism_MLCP: three beams, three ball joints, a slider
// and a floor, Moreau-Jean theta = 1 + Newton, MLCP (MECHANICS.md §4).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mechanics_check.hpp"

namespace {

namespace mech = nsdyn::test::mech;
constexpr double kH = 0.01;
const double kS2 = std::sqrt(2.0), kPi = std::acos(-1.0);
// initial positions and orientations (rotations of alpha about the world y axis)
mech::Quat aboutY(double alpha) {
  return {std::cos(alpha / 2.0), 0.0, std::sin(alpha / 2.0), 0.0};
}
const mech::Vec3 kG0[3] = {{0.5 / kS2, 0.0, -0.5 / kS2},
                           {1.0 / kS2 - 0.5 / kS2, 0.0, -1.0 / kS2 - 0.5 / kS2},
                           {0.0, 0.0, -kS2 - 0.5}};
const mech::Quat kQ0[3] = {aboutY(kPi / 4.0), aboutY(-kPi / 4.0), aboutY(kPi / 2.0)};
// columns: q of beam b at 1 + 7 b; diagnostics after the 22 reference columns
enum {
  NEWTON = 22,
  KNEE1_Y0 = 23,
  PRISM_Y0 = 29,
  PRISM_Y1 = 30,
  FLOOR_GAP = 31,
  FLOOR_LAMBDA = 32
};

mech::Vec3 add(const mech::Vec3& a, const mech::Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
mech::Vec3 sub(const mech::Vec3& a, const mech::Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

// ||h|| of the three knees at row k, from q (MECHANICS.md §0.6, KneeJointR).
void kneeResiduals(const nsdyn::test::ExampleCsv& c, std::size_t k, double out[3]) {
  mech::Vec3 G[3];
  mech::Quat Q[3];
  for (std::size_t b = 0; b < 3; ++b) {
    G[b] = mech::position(c, k, 1 + 7 * b);
    Q[b] = mech::orientation(c, k, 1 + 7 * b);
  }
  // knee1: beam1 point at the world origin
  const mech::Vec3 a1 = mech::rotateT(kQ0[0], sub({0.0, 0.0, 0.0}, kG0[0]));
  out[0] = mech::norm(add(G[0], mech::rotate(Q[0], a1)));
  // knee2 at (0.5,0,0) of beam1, knee3 at (-0.5,0,0) of beam2
  const mech::Vec3 P[2] = {{0.5, 0.0, 0.0}, {-0.5, 0.0, 0.0}};
  for (std::size_t j = 0; j < 2; ++j) {
    const mech::Vec3 Pabs = add(mech::rotate(kQ0[j], P[j]), kG0[j]);
    const mech::Vec3 G2P0 = mech::rotateT(kQ0[j + 1], sub(Pabs, kG0[j + 1]));
    out[1 + j] = mech::norm(
        sub(add(G[j], mech::rotate(Q[j], P[j])), add(G[j + 1], mech::rotate(Q[j + 1], G2P0))));
  }
}

}  // namespace

class NE_3DS_3Knee_1Prism_MLCPTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(NE_3DS_3Knee_1Prism_MLCPTest);
  CPPUNIT_TEST(hasDocumentedShape);
  CPPUNIT_TEST(kneeVelocityConstraintsHeld);
  CPPUNIT_TEST(kneePositionDriftSmall);
  CPPUNIT_TEST(beam3SlidesVerticallyWithoutRotating);
  CPPUNIT_TEST(beam3StaysAboveTheFloor);
  CPPUNIT_TEST(oneNewtonIterationPerStep);
  CPPUNIT_TEST_SUITE_END();

  const nsdyn::test::ExampleCsv& csv() {
    return nsdyn::test::runExample("NE_3DS_3Knee_1Prism_MLCP");
  }
  const nsdyn::test::ExampleCsv& diag() {
    return nsdyn::test::runExample("NE_3DS_3Knee_1Prism_MLCP", "--diagnostics");
  }

 public:
  // 1000 rows, no initial row, t, q_beam1, q_beam2, q_beam3; the chain moves in the xz plane.
  void hasDocumentedShape() {
    const auto& c = csv();
    mech::assertStepRows(c, 1000, 22, kH, 22);
    for (std::size_t k = 0; k < c.rowCount(); ++k)
      for (std::size_t b = 0; b < 3; ++b) {
        CPPUNIT_ASSERT_EQUAL(0.0, c(k, 2 + 7 * b));  // y = 0
        CPPUNIT_ASSERT_EQUAL(0.0, c(k, 5 + 7 * b));  // rotation about y only
        CPPUNIT_ASSERT_EQUAL(0.0, c(k, 7 + 7 * b));
      }
  }

  // y1 = H v of every joint after the step: the equalities solved exactly.
  void kneeVelocityConstraintsHeld() {
    const auto& d = diag();
    CPPUNIT_ASSERT_EQUAL(std::size_t(34), d.columnCount());
    mech::assertSameLeadingColumns(csv(), d, 22);
    double maxY1 = 0.0;
    for (std::size_t j = 0; j < 3; ++j)
      maxY1 = std::max(maxY1, mech::columnMax(d, KNEE1_Y0 + 2 * j + 1));
    std::printf("\n  NE_3DS: max ||y1|| knees %.3e, prismatic %.3e\n", maxY1,
                mech::columnMax(d, PRISM_Y1));
    CPPUNIT_ASSERT(maxY1 <= 1e-12);
    CPPUNIT_ASSERT(mech::columnMax(d, PRISM_Y1) <= 1e-12);
  }

  // ||h(q)|| of the knees, recomputed from q, equals the diagnostics columns;
  // velocity-level joints drift (no projection), here by about a centimetre.
  void kneePositionDriftSmall() {
    const auto& d = diag();
    double maxY0[3] = {0.0, 0.0, 0.0}, err = 0.0;
    for (std::size_t k = 0; k < d.rowCount(); ++k) {
      double y0[3];
      kneeResiduals(d, k, y0);
      for (std::size_t j = 0; j < 3; ++j) {
        err = std::max(err, std::fabs(y0[j] - d(k, KNEE1_Y0 + 2 * j)));
        maxY0[j] = std::max(maxY0[j], y0[j]);
      }
    }
    std::printf(
        "\n  NE_3DS: max ||y0|| knee1 %.4e, knee2 %.4e, knee3 %.4e, prismatic %.1e (recomputed to "
        "%.1e)\n",
        maxY0[0], maxY0[1], maxY0[2], mech::columnMax(d, PRISM_Y0), err);
    CPPUNIT_ASSERT(err <= 1e-12);
    for (double y : maxY0) CPPUNIT_ASSERT(y <= 0.02);
  }

  // Prismatic joint along the world vertical: x3 = 0 (to round-off), y3 = 0, orientation kept.
  void beam3SlidesVerticallyWithoutRotating() {
    const auto& c = csv();
    double errX = 0.0, errQ = 0.0;
    for (std::size_t k = 0; k < c.rowCount(); ++k) {
      errX = std::max(errX, std::fabs(c(k, 15)));
      const mech::Quat q = mech::orientation(c, k, 15);
      for (std::size_t i = 0; i < 4; ++i) errQ = std::max(errQ, std::fabs(q[i] - kQ0[2][i]));
    }
    std::printf("\n  NE_3DS: beam3 max |x3| %.1e, max |q3 - q3(0)| %.1e\n", errX, errQ);
    CPPUNIT_ASSERT(errX <= 1e-12);
    CPPUNIT_ASSERT(errQ <= 1e-12);
  }

  // Floor y = z3 + 2.3 >= 0 at the velocity level: penetration at most one step
  // of the largest vertical speed (theta = 1: v3z = (z3_{k+1} - z3_k)/h); the
  // floor is hit (impulses) and the impulses are >= 0.
  void beam3StaysAboveTheFloor() {
    const auto& d = diag();
    double minGap = 1e300, maxSpeed = 0.0, zPrev = kG0[2][2];
    for (std::size_t k = 0; k < d.rowCount(); ++k) {
      const double z = d(k, 17);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z + 2.3, d(k, FLOOR_GAP), 1e-14);
      minGap = std::min(minGap, z + 2.3);
      maxSpeed = std::max(maxSpeed, std::fabs(z - zPrev) / kH);
      zPrev = z;
    }
    std::printf(
        "\n  NE_3DS: min floor gap z3 + 2.3 = %.4e, bound -h max|v3z| = %.4e, max impulse %.4f\n",
        minGap, -kH * maxSpeed, mech::columnMax(d, FLOOR_LAMBDA));
    CPPUNIT_ASSERT(minGap >= -kH * maxSpeed);
    CPPUNIT_ASSERT(mech::columnMin(d, FLOOR_LAMBDA) >= 0.0);
    CPPUNIT_ASSERT(mech::columnMax(d, FLOOR_LAMBDA) > 0.0);
  }

  // Newton tolerance 5e-4: one iteration always suffices (MECHANICS.md §4).
  void oneNewtonIterationPerStep() {
    const auto& d = diag();
    CPPUNIT_ASSERT_EQUAL(1.0, mech::columnMin(d, NEWTON));
    CPPUNIT_ASSERT_EQUAL(1.0, mech::columnMax(d, NEWTON));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(NE_3DS_3Knee_1Prism_MLCPTest);
