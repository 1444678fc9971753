// Closed-form narrowphase (Kernel/src/mechanics/narrowphase): contact points,
// normals (from B to A) and gaps on configurations whose answer is known.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>

#include <nsdyn/Narrowphase.hpp>

using namespace nsdyn;
using namespace nsdyn::narrowphase;
using nsdyn::quaternion::fromAxisAngle;

namespace {

const double tol = 1e-12;

Vec3 sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
double norm(const Vec3& a) {
  return std::sqrt(dot(a, a));
}
double dist(const Vec3& a, const Vec3& b) {
  return norm(sub(a, b));
}

void assertVec(const Vec3& expected, const Vec3& actual, double eps = tol) {
  for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(expected[k], actual[k], eps);
}

// pointA − pointB = gap · normal, |normal| = 1.
void assertConsistent(const ContactPoint& c, double eps = 1e-12) {
  CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, norm(c.normal), 1e-14);
  const Vec3 d = sub(c.pointA, c.pointB);
  for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(c.gap * c.normal[k], d[k], eps);
}

Pose pose(const Vec3& x, const Quat& q = Quat{1, 0, 0, 0}) {
  Pose p;
  p.position = x;
  p.orientation = q;
  return p;
}

// A common rigid motion M applied to a pose and a plane.
struct Motion {
  Pose m{{0.3, -1.7, 2.2}, fromAxisAngle({0.2, -0.5, 0.8}, 1.1)};
  Pose apply(const Pose& p) const {
    return pose(m.toWorld(p.position), quaternion::multiply(m.orientation, p.orientation));
  }
  Vec3 point(const Vec3& x) const { return m.toWorld(x); }
  Plane apply(const Plane& pl) const {
    Plane r;
    r.normal = m.rotate(pl.normal);
    r.offset = pl.offset + dot(r.normal, m.position);
    return r;
  }
};

// Every contact of `a` has a swapped twin in `b` (same points, opposite normal).
void assertSwapped(const ContactList& a, const ContactList& b, double eps = 1e-12) {
  CPPUNIT_ASSERT_EQUAL(a.size(), b.size());
  for (const ContactPoint& c : a) {
    const ContactPoint s = c.swapped();
    bool found = false;
    for (const ContactPoint& d : b)
      if (dist(s.pointA, d.pointA) < eps && dist(s.pointB, d.pointB) < eps &&
          dist(s.normal, d.normal) < eps && std::abs(s.gap - d.gap) < eps)
        found = true;
    CPPUNIT_ASSERT(found);
  }
}

bool bitIdentical(const ContactList& a, const ContactList& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const ContactPoint &x = a[k], &y = b[k];
    if (std::memcmp(x.pointA.data(), y.pointA.data(), sizeof(Vec3)) != 0 ||
        std::memcmp(x.pointB.data(), y.pointB.data(), sizeof(Vec3)) != 0 ||
        std::memcmp(x.normal.data(), y.normal.data(), sizeof(Vec3)) != 0 ||
        std::memcmp(&x.gap, &y.gap, sizeof(double)) != 0 || x.featureA != y.featureA ||
        x.featureB != y.featureB)
      return false;
  }
  return true;
}

void assertSortedByFeature(const ContactList& c) {
  for (std::size_t k = 1; k < c.size(); ++k)
    CPPUNIT_ASSERT(c[k - 1].featureA < c[k].featureA ||
                   (c[k - 1].featureA == c[k].featureA && c[k - 1].featureB < c[k].featureB));
}

}  // namespace

class NarrowphaseTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(NarrowphaseTest);
  CPPUNIT_TEST(sphereSphere);
  CPPUNIT_TEST(spherePlane);
  CPPUNIT_TEST(sphereBox);
  CPPUNIT_TEST(sphereCapsule);
  CPPUNIT_TEST(sphereCylinder);
  CPPUNIT_TEST(capsuleCapsuleParallel);
  CPPUNIT_TEST(capsuleCapsuleCrossed);
  CPPUNIT_TEST(capsulePlane);
  CPPUNIT_TEST(boxPlaneRotated);
  CPPUNIT_TEST(boxBoxFaceStack);
  CPPUNIT_TEST(boxBoxEdgeEdge);
  CPPUNIT_TEST(boxBoxTiltedStackIsAFace);
  CPPUNIT_TEST(boxBoxSeparatedAndMargin);
  CPPUNIT_TEST(rigidMotionInvariance);
  CPPUNIT_TEST(deterministic);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sphereSphere() {
    const Vec3 cB{1.0, 2.0, 3.0};
    const Vec3 u{2.0 / 7.0, 3.0 / 7.0, 6.0 / 7.0};  // unit
    for (double gap : {0.25, 0.0, -0.1}) {
      const double L = 0.5 + 0.7 + gap;
      const Vec3 cA{cB[0] + L * u[0], cB[1] + L * u[1], cB[2] + L * u[2]};
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::sphereSphere(cA, 0.5, cB, 0.7, 0.3, out));
      const ContactPoint& c = out[0];
      CPPUNIT_ASSERT_DOUBLES_EQUAL(gap, c.gap, tol);
      assertVec(u, c.normal);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, dist(c.pointA, cA), tol);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.7, dist(c.pointB, cB), tol);
      assertConsistent(c);
      CPPUNIT_ASSERT_EQUAL(0, c.featureA);
      CPPUNIT_ASSERT_EQUAL(0, c.featureB);
      // symmetry
      ContactList back;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::sphereSphere(cB, 0.7, cA, 0.5, 0.3, back));
      assertSwapped(out, back);
      // margin
      ContactList none;
      CPPUNIT_ASSERT_EQUAL(gap <= 0.1 ? 1 : 0,
                           narrowphase::sphereSphere(cA, 0.5, cB, 0.7, 0.1 + 1e-9, none));
    }
  }

  void spherePlane() {
    Plane pl;
    pl.normal = {0.0, 0.6, 0.8};
    pl.offset = 2.0;
    for (double gap : {0.2, 0.0, -0.05}) {
      const double h = 0.4 + gap;
      const Vec3 foot{5.0, 2.0 * 0.6 - 1.0 * 0.8 * 0.0, 2.0 * 0.8};  // n·foot = 2
      const Vec3 c{foot[0] + h * 0.0, foot[1] + h * 0.6, foot[2] + h * 0.8};
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::spherePlane(c, 0.4, pl, 0.2 + 1e-9, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(gap, out[0].gap, tol);
      assertVec(pl.normal, out[0].normal);
      assertVec(foot, out[0].pointB);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.4, dist(out[0].pointA, c), tol);
      assertConsistent(out[0]);
      ContactList none;
      CPPUNIT_ASSERT_EQUAL(gap <= 0.1 ? 1 : 0,
                           narrowphase::spherePlane(c, 0.4, pl, 0.1 + 1e-9, none));
    }
  }

  void sphereBox() {
    const Quat q = fromAxisAngle({0.0, 0.0, 1.0}, M_PI / 6.0);
    const Pose box = pose({1.0, -1.0, 0.5}, q);
    const Vec3 h{1.0, 0.5, 0.25};
    const double r = 0.3;
    // Face +z: centre above, gap 0.1.
    {
      const Vec3 c = box.toWorld({0.2, 0.1, 0.25 + r + 0.1});
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::sphereBox(c, r, box, h, 0.1 + 1e-9, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, out[0].gap, tol);
      assertVec({0.0, 0.0, 1.0}, out[0].normal);
      assertVec(box.toWorld({0.2, 0.1, 0.25}), out[0].pointB);
      CPPUNIT_ASSERT_EQUAL(20 + 2 * 2 + 1, out[0].featureB);
      assertConsistent(out[0]);
      ContactList none;
      CPPUNIT_ASSERT_EQUAL(0, narrowphase::sphereBox(c, r, box, h, 0.09, none));
    }
    // Edge (+x, −y), penetrating 0.05 along the bisector.
    {
      const double L = r - 0.05;
      const Vec3 c = box.toWorld({1.0 + L / std::sqrt(2.0), -0.5 - L / std::sqrt(2.0), 0.1});
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::sphereBox(c, r, box, h, 0.0, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.05, out[0].gap, tol);
      assertVec(box.rotate({1.0 / std::sqrt(2.0), -1.0 / std::sqrt(2.0), 0.0}), out[0].normal);
      assertVec(box.toWorld({1.0, -0.5, 0.1}), out[0].pointB);
      // edge parallel to z, x = +, y = −: 8 + 4·2 + 2·1 + 0
      CPPUNIT_ASSERT_EQUAL(18, out[0].featureB);
      assertConsistent(out[0]);
    }
    // Vertex (−,−,+), touching.
    {
      const Vec3 u{-1.0 / std::sqrt(3.0), -1.0 / std::sqrt(3.0), 1.0 / std::sqrt(3.0)};
      const Vec3 c = box.toWorld({-1.0 + r * u[0], -0.5 + r * u[1], 0.25 + r * u[2]});
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::sphereBox(c, r, box, h, 1e-12, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, out[0].gap, tol);
      assertVec(box.rotate(u), out[0].normal);
      CPPUNIT_ASSERT_EQUAL(4, out[0].featureB);
    }
    // Centre inside, nearest face −y.
    {
      const Vec3 c = box.toWorld({0.3, -0.4, 0.0});
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::sphereBox(c, r, box, h, 0.0, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.1 - r, out[0].gap, tol);
      assertVec(box.rotate({0.0, -1.0, 0.0}), out[0].normal);
      assertVec(box.toWorld({0.3, -0.5, 0.0}), out[0].pointB);
      CPPUNIT_ASSERT_EQUAL(22, out[0].featureB);
      assertConsistent(out[0]);
    }
  }

  void sphereCapsule() {
    const Pose cap =
        pose({0.0, 0.0, 1.0}, fromAxisAngle({1.0, 0.0, 0.0}, M_PI / 2.0));  // axis along −y
    // Side: sphere on +x.
    {
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::sphereCapsule({0.2 + 0.3 + 0.05, 0.5, 1.0}, 0.3, cap,
                                                         0.2, 1.0, 0.1, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05, out[0].gap, tol);
      assertVec({1.0, 0.0, 0.0}, out[0].normal);
      assertVec({0.2, 0.5, 1.0}, out[0].pointB);
      CPPUNIT_ASSERT_EQUAL(0, out[0].featureB);
      assertConsistent(out[0]);
    }
    // Cap at +halfLength (world −y), penetrating.
    {
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(
          1, narrowphase::sphereCapsule({0.0, -1.0 - 0.4, 1.0}, 0.3, cap, 0.2, 1.0, 0.0, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.1, out[0].gap, tol);
      assertVec({0.0, -1.0, 0.0}, out[0].normal);
      CPPUNIT_ASSERT_EQUAL(2, out[0].featureB);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.2, dist(out[0].pointB, {0.0, -1.0, 1.0}), tol);
      ContactList none;
      CPPUNIT_ASSERT_EQUAL(
          0, narrowphase::sphereCapsule({0.0, -1.0 - 0.6, 1.0}, 0.3, cap, 0.2, 1.0, 0.05, none));
    }
  }

  void sphereCylinder() {
    // cylinder radius 0.2, half length 0.1, axis along world -y (body z rotated by +90 deg about x)
    const Pose cyl = pose({0.0, 0.0, 1.0}, fromAxisAngle({1.0, 0.0, 0.0}, M_PI / 2.0));
    // side, near the end of the cylinder (the case MPR gets wrong: off-centre along the axis)
    {
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::sphereCylinder({0.0, 0.09, 1.0 - 0.2 - 0.05 + 0.01},
                                                          0.05, cyl, 0.2, 0.1, 0.0, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.01, out[0].gap, tol);
      assertVec({0.0, 0.0, -1.0}, out[0].normal);
      assertVec({0.0, 0.09, 0.8}, out[0].pointB);
      CPPUNIT_ASSERT_EQUAL(0, out[0].featureB);
      assertConsistent(out[0]);
    }
    // cap at body +z = world -y
    {
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::sphereCylinder({0.05, -0.1 - 0.05 - 0.02, 1.0}, 0.05,
                                                          cyl, 0.2, 0.1, 0.05, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.02, out[0].gap, tol);
      assertVec({0.0, -1.0, 0.0}, out[0].normal);
      CPPUNIT_ASSERT_EQUAL(2, out[0].featureB);
      assertConsistent(out[0]);
    }
    // rim: centre beyond the side and the cap, at 45 degrees
    {
      ContactList out;
      const double d = 0.03 / std::sqrt(2.0);
      CPPUNIT_ASSERT_EQUAL(
          1, narrowphase::sphereCylinder({0.2 + d, -0.1 - d, 1.0}, 0.05, cyl, 0.2, 0.1, 0.0, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.02, out[0].gap, tol);
      assertVec({std::sqrt(0.5), -std::sqrt(0.5), 0.0}, out[0].normal);
      assertVec({0.2, -0.1, 1.0}, out[0].pointB);
      CPPUNIT_ASSERT_EQUAL(4, out[0].featureB);
      assertConsistent(out[0]);
    }
    // centre inside, nearer the side than the caps; and a miss beyond the margin
    {
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(
          1, narrowphase::sphereCylinder({0.15, 0.0, 1.0}, 0.05, cyl, 0.2, 0.1, 0.0, out));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.1, out[0].gap, tol);
      assertVec({1.0, 0.0, 0.0}, out[0].normal);
      ContactList none;
      CPPUNIT_ASSERT_EQUAL(
          0, narrowphase::sphereCylinder({0.0, 0.0, 1.3}, 0.05, cyl, 0.2, 0.1, 0.01, none));
    }
  }

  void capsuleCapsuleParallel() {
    // Two capsules along x, one above the other, overlapping on x ∈ [0, 1].
    const Quat alongX = fromAxisAngle({0.0, 1.0, 0.0}, M_PI / 2.0);
    const Pose A = pose({0.5, 0.0, 0.2 + 0.3 - 0.01}, alongX);  // x ∈ [−0.5, 1.5]
    const Pose B = pose({1.0, 0.0, 0.0}, alongX);               // x ∈ [0, 2]
    ContactList out;
    CPPUNIT_ASSERT_EQUAL(2, narrowphase::capsuleCapsule(A, 0.3, 1.0, B, 0.2, 1.0, 0.0, out));
    for (const ContactPoint& c : out) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.01, c.gap, tol);
      assertVec({0.0, 0.0, 1.0}, c.normal);
      assertConsistent(c);
    }
    // Points at the ends of the overlap x = 0 (B's −end, feature 1) and x = 1.5 (A's +end, feature
    // 2).
    assertSortedByFeature(out);
    CPPUNIT_ASSERT_EQUAL(0, out[0].featureA);
    CPPUNIT_ASSERT_EQUAL(1, out[0].featureB);
    assertVec({0.0, 0.0, 0.2}, out[0].pointB);
    CPPUNIT_ASSERT_EQUAL(2, out[1].featureA);
    CPPUNIT_ASSERT_EQUAL(0, out[1].featureB);
    assertVec({1.5, 0.0, 0.2}, out[1].pointB);
    ContactList back;
    CPPUNIT_ASSERT_EQUAL(2, narrowphase::capsuleCapsule(B, 0.2, 1.0, A, 0.3, 1.0, 0.0, back));
    assertSwapped(out, back);
  }

  void capsuleCapsuleCrossed() {
    // A along x at height z, B along y at 0: closest points on the axes' crossing.
    const Pose A = pose({0.1, 0.2, 0.55}, fromAxisAngle({0.0, 1.0, 0.0}, M_PI / 2.0));
    const Pose B = pose({0.0, 0.0, 0.0}, fromAxisAngle({1.0, 0.0, 0.0}, M_PI / 2.0));
    for (double margin : {0.0, 0.1}) {
      ContactList out;
      const int n = narrowphase::capsuleCapsule(A, 0.25, 1.0, B, 0.25, 1.0, margin, out);
      CPPUNIT_ASSERT_EQUAL(margin >= 0.05 ? 1 : 0, n);
      if (n == 0) continue;
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05, out[0].gap, tol);
      assertVec({0.0, 0.0, 1.0}, out[0].normal);
      assertVec({0.0, 0.2, 0.3}, out[0].pointA);
      assertVec({0.0, 0.2, 0.25}, out[0].pointB);
      CPPUNIT_ASSERT_EQUAL(0, out[0].featureA);
      CPPUNIT_ASSERT_EQUAL(0, out[0].featureB);
      ContactList back;
      CPPUNIT_ASSERT_EQUAL(1,
                           narrowphase::capsuleCapsule(B, 0.25, 1.0, A, 0.25, 1.0, margin, back));
      assertSwapped(out, back);
    }
    // End against end (skew, beyond both segments): cap features.
    ContactList out;
    const Pose C = pose({0.0, 0.0, 2.5}, fromAxisAngle({1.0, 0.0, 0.0}, 0.3));
    const Pose D = pose({0.0, 0.0, 0.0}, Quat{1, 0, 0, 0});
    CPPUNIT_ASSERT_EQUAL(1, narrowphase::capsuleCapsule(C, 0.2, 1.0, D, 0.2, 1.0, 1.0, out));
    CPPUNIT_ASSERT_EQUAL(1, out[0].featureA);
    CPPUNIT_ASSERT_EQUAL(2, out[0].featureB);
    const Vec3 endC = C.toWorld({0.0, 0.0, -1.0});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(norm(sub(endC, {0.0, 0.0, 1.0})) - 0.4, out[0].gap, tol);
    assertConsistent(out[0]);
  }

  void capsulePlane() {
    Plane pl;  // z = 0, solid below
    const Pose lying = pose({0.0, 0.0, 0.3 - 0.02}, fromAxisAngle({0.0, 1.0, 0.0}, M_PI / 2.0));
    ContactList out;
    CPPUNIT_ASSERT_EQUAL(2, narrowphase::capsulePlane(lying, 0.3, 1.0, pl, 0.0, out));
    assertSortedByFeature(out);
    for (const ContactPoint& c : out) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.02, c.gap, tol);
      assertVec({0.0, 0.0, 1.0}, c.normal);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c.pointB[2], tol);
      assertConsistent(c);
    }
    // body z → world x (rotation of +90° about y): the −end is at x = −1.
    assertVec({-1.0, 0.0, -0.02}, out[0].pointA);
    assertVec({1.0, 0.0, -0.02}, out[1].pointA);
    // Tilted by 30°: only the low end within the margin.
    const Pose tilted = pose({0.0, 0.0, 0.3 + std::cos(M_PI / 6.0) + 0.01},
                             fromAxisAngle({0.0, 1.0, 0.0}, M_PI / 6.0));
    ContactList one;
    CPPUNIT_ASSERT_EQUAL(1, narrowphase::capsulePlane(tilted, 0.3, 1.0, pl, 0.02, one));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.01, one[0].gap, tol);
    CPPUNIT_ASSERT_EQUAL(1, one[0].featureA);
  }

  void boxPlaneRotated() {
    Plane pl;
    pl.offset = 0.5;  // z = 0.5
    const Vec3 h{1.0, 0.5, 0.25};
    const double gap = -0.003;
    const Pose box = pose({0.2, 0.1, 0.5 + 0.25 + gap}, fromAxisAngle({0.0, 0.0, 1.0}, M_PI / 6.0));
    ContactList out;
    CPPUNIT_ASSERT_EQUAL(4, narrowphase::boxPlane(box, h, pl, 0.0, out));
    assertSortedByFeature(out);
    const int ids[4] = {0, 1, 2, 3};  // bottom vertices (z bit clear)
    for (int k = 0; k < 4; ++k) {
      const ContactPoint& c = out[static_cast<std::size_t>(k)];
      CPPUNIT_ASSERT_EQUAL(ids[k], c.featureA);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(gap, c.gap, tol);
      assertVec({0.0, 0.0, 1.0}, c.normal);
      assertVec(box.toWorld({(k & 1) ? 1.0 : -1.0, (k & 2) ? 0.5 : -0.5, -0.25}), c.pointA);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, c.pointB[2], tol);
      assertConsistent(c);
    }
    // Lifted above the margin: nothing; within it: 4 points.
    const Pose up = pose({0.2, 0.1, 0.75 + 0.01}, box.orientation);
    ContactList none, four;
    CPPUNIT_ASSERT_EQUAL(0, narrowphase::boxPlane(up, h, pl, 0.005, none));
    CPPUNIT_ASSERT_EQUAL(4, narrowphase::boxPlane(up, h, pl, 0.01 + 1e-9, four));
    // Tilted on an edge: 2 points.
    const Pose edge =
        pose({0.0, 0.0, 0.5 + std::sqrt(0.5 * 0.5 + 0.25 * 0.25) * std::sin(0.2 + std::atan(0.5))},
             fromAxisAngle({1.0, 0.0, 0.0}, 0.2));
    ContactList two;
    CPPUNIT_ASSERT_EQUAL(2, narrowphase::boxPlane(edge, h, pl, 1e-9, two));
    for (const ContactPoint& c : two) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c.gap, tol);
  }

  void boxBoxFaceStack() {
    // A (small, rotated 30° about z) resting on B (large), penetration 0.002.
    const Vec3 hA{0.5, 0.3, 0.2}, hB{2.0, 2.0, 0.5};
    const double gap = -0.002;
    const Pose B = pose({0.0, 0.0, 0.0});
    const Pose A = pose({0.1, -0.2, 0.5 + 0.2 + gap}, fromAxisAngle({0.0, 0.0, 1.0}, M_PI / 6.0));
    ContactList out;
    CPPUNIT_ASSERT_EQUAL(4, narrowphase::boxBox(A, hA, B, hB, 0.0, out));
    assertSortedByFeature(out);
    for (const ContactPoint& c : out) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(gap, c.gap, tol);
      assertVec({0.0, 0.0, 1.0}, c.normal);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, c.pointB[2], tol);
      assertConsistent(c);
      // pointA is a bottom corner of A.
      const Vec3 l = A.toBody(c.pointA);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, std::abs(l[0]), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3, std::abs(l[1]), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.2, l[2], 1e-12);
    }
    ContactList back;
    CPPUNIT_ASSERT_EQUAL(4, narrowphase::boxBox(B, hB, A, hA, 0.0, back));
    assertSwapped(out, back);
    // Equal boxes, the top one rotated 45°: the clipped octagon is reduced to 4 points.
    const Vec3 hC{0.5, 0.5, 0.5};
    const Pose C0 = pose({0.0, 0.0, 0.0});
    const Pose C1 = pose({0.0, 0.0, 1.0 - 0.001}, fromAxisAngle({0.0, 0.0, 1.0}, M_PI / 4.0));
    ContactList oct;
    CPPUNIT_ASSERT_EQUAL(4, narrowphase::boxBox(C1, hC, C0, hC, 0.0, oct));
    for (const ContactPoint& c : oct) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.001, c.gap, tol);
      assertVec({0.0, 0.0, 1.0}, c.normal);
      assertConsistent(c);
    }
  }

  void boxBoxEdgeEdge() {
    // A: cube rotated 45° about x (top edge along x at z = √2); B: cube rotated 45°
    // about y above it (bottom edge along y at z = D − √2). Gap = D − 2√2.
    const Vec3 h{1.0, 1.0, 1.0};
    const Pose A = pose({0.0, 0.0, 0.0}, fromAxisAngle({1.0, 0.0, 0.0}, M_PI / 4.0));
    for (double D : {3.0, 2.7, 2.0 * std::sqrt(2.0)}) {
      const Pose B = pose({0.3, -0.2, D}, fromAxisAngle({0.0, 1.0, 0.0}, M_PI / 4.0));
      const double expected = D - 2.0 * std::sqrt(2.0);
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::boxBox(A, h, B, h, 0.2, out));
      const ContactPoint& c = out[0];
      CPPUNIT_ASSERT_DOUBLES_EQUAL(expected, c.gap, 1e-12);
      assertVec({0.0, 0.0, -1.0}, c.normal);  // from B (above) to A
      assertVec({0.3, 0.0, std::sqrt(2.0)}, c.pointA);
      assertVec({0.3, 0.0, D - std::sqrt(2.0)}, c.pointB, 1e-12);
      CPPUNIT_ASSERT(c.featureA >= 8 && c.featureA < 20);
      CPPUNIT_ASSERT(c.featureB >= 8 && c.featureB < 20);
      assertConsistent(c);
      ContactList back;
      CPPUNIT_ASSERT_EQUAL(1, narrowphase::boxBox(B, h, A, h, 0.2, back));
      assertSwapped(out, back);
    }
  }

  void boxBoxTiltedStackIsAFace() {
    // Jolt's pyramid: a 2 m cube on one of the four it straddles (offset by half a cube in x
    // and y), 5 mm deep, tilted and twisted by a few tenths of a degree as the cubes of a
    // landed pile are. The touching is face on face: the 1 m x 1 m square of overlap, four
    // points (before, the cross product of the two near-perpendicular bottom and top edges,
    // within the tilt of the vertical, won as one edge-edge point), normal within the tilt of
    // the vertical, every depth within the tilt's reach of 5 mm.
    const Vec3 h{1.0, 1.0, 1.0};
    const Pose lower = pose({0.0, 0.0, 1.0});
    for (const Vec3& axis : {Vec3{1.0, 0.0, 0.0}, Vec3{0.3, -1.0, 0.0}, Vec3{1.0, 1.0, 0.4}})
      for (double angle : {0.001, 0.003, 0.008}) {
        const Quat q = quaternion::multiply(fromAxisAngle({0.0, 0.0, 1.0}, 0.5 * angle),
                                            fromAxisAngle(axis, angle));
        const Pose upper = pose({1.0, 1.0, 3.0 - 0.005}, q);
        ContactList out;
        CPPUNIT_ASSERT_EQUAL(4, narrowphase::boxBox(upper, h, lower, h, 0.04, out));
        for (const ContactPoint& c : out) {
          CPPUNIT_ASSERT(c.normal[2] > std::cos(2.0 * angle));
          CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.005, c.gap, 3.0 * angle);
          assertConsistent(c);
        }
        ContactList back;
        CPPUNIT_ASSERT_EQUAL(4, narrowphase::boxBox(lower, h, upper, h, 0.04, back));
        assertSwapped(out, back);
      }
  }

  void boxBoxSeparatedAndMargin() {
    const Vec3 h{0.5, 0.5, 0.5};
    const Pose A = pose({0.0, 0.0, 1.05}), B = pose({0.2, 0.1, 0.0});
    ContactList out;
    CPPUNIT_ASSERT_EQUAL(0, narrowphase::boxBox(A, h, B, h, 0.04, out));
    CPPUNIT_ASSERT_EQUAL(4, narrowphase::boxBox(A, h, B, h, 0.05 + 1e-9, out));
    for (const ContactPoint& c : out) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.05, c.gap, tol);
    // Side by side, far apart on x.
    ContactList none;
    CPPUNIT_ASSERT_EQUAL(0, narrowphase::boxBox(pose({3.0, 0.0, 0.0}), h, B, h, 1.0, none));
  }

  void rigidMotionInvariance() {
    const Motion M;
    const auto check = [](const ContactList& a, const ContactList& b) {
      CPPUNIT_ASSERT_EQUAL(a.size(), b.size());
      for (std::size_t k = 0; k < a.size(); ++k) {
        CPPUNIT_ASSERT_DOUBLES_EQUAL(a[k].gap, b[k].gap, 1e-12);
        CPPUNIT_ASSERT_EQUAL(a[k].featureA, b[k].featureA);
        CPPUNIT_ASSERT_EQUAL(a[k].featureB, b[k].featureB);
      }
    };
    const auto checkPoints = [&M](const ContactList& a, const ContactList& b) {
      for (std::size_t k = 0; k < a.size(); ++k) {
        assertVec(M.point(a[k].pointA), b[k].pointA, 1e-12);
        assertVec(M.m.rotate(a[k].normal), b[k].normal, 1e-12);
      }
    };
    // box–box face stack, edge–edge
    {
      const Vec3 hA{0.5, 0.3, 0.2}, hB{2.0, 2.0, 0.5};
      const Pose B = pose({0.0, 0.0, 0.0});
      const Pose A = pose({0.1, -0.2, 0.698}, fromAxisAngle({0.0, 0.0, 1.0}, M_PI / 6.0));
      ContactList a, b;
      narrowphase::boxBox(A, hA, B, hB, 0.0, a);
      narrowphase::boxBox(M.apply(A), hA, M.apply(B), hB, 0.0, b);
      CPPUNIT_ASSERT_EQUAL(std::size_t(4), a.size());
      check(a, b);
      checkPoints(a, b);
      const Vec3 h{1.0, 1.0, 1.0};
      const Pose E = pose({0.0, 0.0, 0.0}, fromAxisAngle({1.0, 0.0, 0.0}, M_PI / 4.0));
      const Pose F = pose({0.3, -0.2, 2.7}, fromAxisAngle({0.0, 1.0, 0.0}, M_PI / 4.0));
      ContactList e, f;
      narrowphase::boxBox(E, h, F, h, 0.0, e);
      narrowphase::boxBox(M.apply(E), h, M.apply(F), h, 0.0, f);
      CPPUNIT_ASSERT_EQUAL(std::size_t(1), e.size());
      check(e, f);
      checkPoints(e, f);
    }
    // box–plane, capsule–plane, capsule–capsule, sphere pairs
    {
      Plane pl;
      pl.offset = 0.5;
      const Pose box = pose({0.2, 0.1, 0.747}, fromAxisAngle({0.0, 0.0, 1.0}, M_PI / 6.0));
      ContactList a, b;
      narrowphase::boxPlane(box, {1.0, 0.5, 0.25}, pl, 0.0, a);
      narrowphase::boxPlane(M.apply(box), {1.0, 0.5, 0.25}, M.apply(pl), 0.0, b);
      CPPUNIT_ASSERT_EQUAL(std::size_t(4), a.size());
      check(a, b);
      checkPoints(a, b);
      const Pose cap = pose({0.0, 0.0, 0.78}, fromAxisAngle({0.0, 1.0, 0.0}, M_PI / 2.0));
      ContactList c, d;
      narrowphase::capsulePlane(cap, 0.3, 1.0, pl, 0.0, c);
      narrowphase::capsulePlane(M.apply(cap), 0.3, 1.0, M.apply(pl), 0.0, d);
      CPPUNIT_ASSERT_EQUAL(std::size_t(2), c.size());
      check(c, d);
      checkPoints(c, d);
      const Pose cap2 = pose({0.3, 0.1, 0.3}, fromAxisAngle({1.0, 0.0, 0.0}, M_PI / 2.0));
      ContactList g, k;
      narrowphase::capsuleCapsule(cap, 0.3, 1.0, cap2, 0.2, 1.0, 0.0, g);
      narrowphase::capsuleCapsule(M.apply(cap), 0.3, 1.0, M.apply(cap2), 0.2, 1.0, 0.0, k);
      CPPUNIT_ASSERT_EQUAL(std::size_t(1), g.size());
      check(g, k);
      checkPoints(g, k);
      const Vec3 s{0.9, 0.2, 1.0};
      ContactList sb0, sb1, sc0, sc1;
      const Pose bx = pose({0.5, 0.0, 0.0}, fromAxisAngle({0.0, 0.0, 1.0}, 0.4));
      narrowphase::sphereBox(s, 0.6, bx, {0.5, 0.5, 0.5}, 0.0, sb0);
      narrowphase::sphereBox(M.point(s), 0.6, M.apply(bx), {0.5, 0.5, 0.5}, 0.0, sb1);
      CPPUNIT_ASSERT_EQUAL(std::size_t(1), sb0.size());
      check(sb0, sb1);
      checkPoints(sb0, sb1);
      narrowphase::sphereCapsule(s, 0.6, cap, 0.3, 1.0, 0.0, sc0);
      narrowphase::sphereCapsule(M.point(s), 0.6, M.apply(cap), 0.3, 1.0, 0.0, sc1);
      CPPUNIT_ASSERT_EQUAL(std::size_t(1), sc0.size());
      check(sc0, sc1);
      checkPoints(sc0, sc1);
    }
  }

  void deterministic() {
    const Vec3 hC{0.5, 0.5, 0.5};
    const Pose C0 = pose({0.01, 0.02, 0.0}, fromAxisAngle({0.1, 0.2, 1.0}, 0.05));
    const Pose C1 = pose({0.0, 0.0, 0.999}, fromAxisAngle({0.0, 0.3, 1.0}, 0.7));
    ContactList a, b;
    narrowphase::boxBox(C1, hC, C0, hC, 0.01, a);
    narrowphase::boxBox(C1, hC, C0, hC, 0.01, b);
    CPPUNIT_ASSERT(!a.empty());
    CPPUNIT_ASSERT(bitIdentical(a, b));
    assertSortedByFeature(a);
    // Appending after other contacts gives the same points.
    ContactList c(3);
    narrowphase::boxBox(C1, hC, C0, hC, 0.01, c);
    CPPUNIT_ASSERT(bitIdentical(a, ContactList(c.begin() + 3, c.end())));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(NarrowphaseTest);
