// Sphere, capsule and box against one triangle (Kernel/src/mechanics/terrain): points, normals
// and gaps against hand-computed face, edge and vertex cases.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>

#include <nsdyn/TriangleNarrowphase.hpp>

using namespace nsdyn;
using namespace nsdyn::narrowphase;

namespace {

void near(const Vec3& expected, const Vec3& got, double tol = 1e-14) {
  for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(expected[k], got[k], tol);
}

// pointA − pointB = gap normal, |normal| = 1
void consistent(const ContactPoint& c) {
  CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, std::sqrt(quaternion::dot(c.normal, c.normal)), 1e-14);
  for (std::size_t k = 0; k < 3; ++k)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(c.pointA[k] - c.pointB[k], c.gap * c.normal[k], 1e-14);
}

const TriangleVertices kT{{{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0}, {0.0, 1.0, 0.0}}};

Pose pose(const Vec3& p, const Quat& q = {1.0, 0.0, 0.0, 0.0}) {
  Pose x;
  x.position = p;
  x.orientation = q;
  return x;
}

}  // namespace

class TriangleContactTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TriangleContactTest);
  CPPUNIT_TEST(sphereFaceEdgeVertex);
  CPPUNIT_TEST(capsuleLyingAndAcrossAnEdge);
  CPPUNIT_TEST(boxFlatTiltedAndOnAVertex);
  CPPUNIT_TEST(boxEdgeAcrossARidge);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sphereFaceEdgeVertex() {
    ContactList out;
    // face region: normal +z, gap = height − r
    CPPUNIT_ASSERT_EQUAL(1, sphereTriangle({0.25, 0.25, 0.3}, 0.5, kT, 0.0, out));
    near({0, 0, 1}, out[0].normal);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.2, out[0].gap, 1e-15);
    near({0.25, 0.25, -0.2}, out[0].pointA);
    near({0.25, 0.25, 0.0}, out[0].pointB);
    CPPUNIT_ASSERT_EQUAL(kTriangleFace, out[0].featureB);
    // edge 1 (v1 → v2, x + y = 1): the closest point (0.5, 0.5, 0)
    out.clear();
    CPPUNIT_ASSERT_EQUAL(1, sphereTriangle({0.8, 0.8, 0.4}, 0.6, kT, 0.0, out));
    const double d = std::sqrt(0.34);
    near({0.3 / d, 0.3 / d, 0.4 / d}, out[0].normal);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(d - 0.6, out[0].gap, 1e-15);
    near({0.5, 0.5, 0.0}, out[0].pointB);
    CPPUNIT_ASSERT_EQUAL(kTriangleEdge + 1, out[0].featureB);
    consistent(out[0]);
    // vertex 0
    out.clear();
    CPPUNIT_ASSERT_EQUAL(1, sphereTriangle({-0.3, -0.4, 0.0}, 0.6, kT, 0.0, out));
    near({-0.6, -0.8, 0.0}, out[0].normal);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.1, out[0].gap, 1e-15);
    near({0.0, 0.0, 0.0}, out[0].pointB);
    CPPUNIT_ASSERT_EQUAL(0, out[0].featureB);
    consistent(out[0]);
    // beyond the margin: nothing; within it: reported
    out.clear();
    CPPUNIT_ASSERT_EQUAL(0, sphereTriangle({-0.3, -0.4, 0.0}, 0.4, kT, 0.05, out));
    CPPUNIT_ASSERT_EQUAL(1, sphereTriangle({-0.3, -0.4, 0.0}, 0.4, kT, 0.1, out));
    // one-sided: a centre below the face still gets the face normal
    out.clear();
    sphereTriangle({0.2, 0.2, -0.05}, 0.1, kT, 0.0, out);
    near({0, 0, 1}, out[0].normal);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.15, out[0].gap, 1e-15);
  }

  void capsuleLyingAndAcrossAnEdge() {
    ContactList out;
    // lying along x on the face (axis z turned onto x): both ends, as capsulePlane
    const double s = std::sqrt(0.5);
    CPPUNIT_ASSERT_EQUAL(
        2, capsuleTriangle(pose({0.3, 0.3, 0.09}, {s, 0.0, s, 0.0}), 0.1, 0.1, kT, 0.0, out));
    CPPUNIT_ASSERT_EQUAL(1, out[0].featureA);
    CPPUNIT_ASSERT_EQUAL(2, out[1].featureA);
    for (const ContactPoint& c : out) {
      near({0, 0, 1}, c.normal);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.01, c.gap, 1e-15);
      CPPUNIT_ASSERT_EQUAL(kTriangleFace, c.featureB);
    }
    near({0.2, 0.3, -0.01}, out[0].pointA, 1e-15);
    near({0.4, 0.3, -0.01}, out[1].pointA, 1e-15);
    // across the ridge edge 0 of a triangle sloping down beyond it: the side point on the edge
    const TriangleVertices ridge{{{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0}, {0.5, 1.0, -0.5}}};
    out.clear();
    const Quat alongY{s, -s, 0.0, 0.0};  // body z onto world y
    CPPUNIT_ASSERT_EQUAL(
        1, capsuleTriangle(pose({0.5, 0.0, 0.05}, alongY), 0.1, 0.3, ridge, 0.0, out));
    CPPUNIT_ASSERT_EQUAL(0, out[0].featureA);
    CPPUNIT_ASSERT_EQUAL(kTriangleEdge + 0, out[0].featureB);
    near({0, 0, 1}, out[0].normal, 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.05, out[0].gap, 1e-15);
    near({0.5, 0.0, 0.0}, out[0].pointB, 1e-15);
    consistent(out[0]);
  }

  void boxFlatTiltedAndOnAVertex() {
    ContactList out;
    const TriangleVertices big{{{-2.0, -2.0, 0.0}, {2.0, -2.0, 0.0}, {0.0, 2.0, 0.0}}};
    // flat: its 4 lower corners (vertex ids 0..3), as boxPlane
    CPPUNIT_ASSERT_EQUAL(4, boxTriangle(pose({0.0, 0.0, 0.29}), {0.1, 0.2, 0.3}, big, 0.0, out));
    for (int k = 0; k < 4; ++k) {
      const ContactPoint& c = out[static_cast<std::size_t>(k)];
      CPPUNIT_ASSERT_EQUAL(k, c.featureA);
      CPPUNIT_ASSERT_EQUAL(kTriangleFace, c.featureB);
      near({0, 0, 1}, c.normal);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.01, c.gap, 1e-15);
      near({(k & 1) ? 0.1 : -0.1, (k & 2) ? 0.2 : -0.2, -0.01}, c.pointA, 1e-15);
      consistent(c);
    }
    // turned 45 degrees about x: its lowest edge, two points at its ends
    out.clear();
    const double c45 = std::cos(M_PI / 8), s45 = std::sin(M_PI / 8);
    CPPUNIT_ASSERT_EQUAL(2, boxTriangle(pose({0.0, 0.0, 0.14}, {c45, s45, 0.0, 0.0}),
                                        {0.1, 0.1, 0.1}, big, 0.0, out));
    for (const ContactPoint& c : out) {
      near({0, 0, 1}, c.normal, 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.14 - 0.1 * std::sqrt(2.0), c.gap, 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c.pointA[1], 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, std::abs(c.pointA[0]), 1e-15);
    }
    // a steep triangle's top vertex under the box's lower face: one point (box face 24, vertex 0)
    out.clear();
    const TriangleVertices steep{{{0.0, 0.0, 0.0}, {-0.5, -0.5, -1.0}, {0.5, -0.5, -1.0}}};
    CPPUNIT_ASSERT_EQUAL(1, boxTriangle(pose({0.0, 0.0, 0.09}), {0.3, 0.3, 0.1}, steep, 0.0, out));
    near({0, 0, 1}, out[0].normal);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.01, out[0].gap, 1e-15);
    near({0.0, 0.0, 0.0}, out[0].pointB);
    near({0.0, 0.0, -0.01}, out[0].pointA, 1e-15);
    CPPUNIT_ASSERT_EQUAL(24, out[0].featureA);
    CPPUNIT_ASSERT_EQUAL(0, out[0].featureB);
    // separated beyond the margin
    out.clear();
    CPPUNIT_ASSERT_EQUAL(0, boxTriangle(pose({0.0, 0.0, 0.35}), {0.1, 0.2, 0.3}, big, 0.01, out));
  }

  /// A cube turned 45 degrees about y (lowest edge along y) over the ridge edge (along x) of a
  /// triangle sloping down: the edge–edge axis +z, one point where the edges cross.
  void boxEdgeAcrossARidge() {
    ContactList out;
    const TriangleVertices ridge{{{1.0, 0.0, 0.0}, {-1.0, 0.0, 0.0}, {0.0, -1.0, -1.0}}};
    const double c = std::cos(M_PI / 8), s = std::sin(M_PI / 8);
    CPPUNIT_ASSERT_EQUAL(
        1, boxTriangle(pose({0.0, 0.0, 0.14}, {c, 0.0, s, 0.0}), {0.1, 0.1, 0.1}, ridge, 0.0, out));
    near({0, 0, 1}, out[0].normal, 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.14 - 0.1 * std::sqrt(2.0), out[0].gap, 1e-15);
    near({0.0, 0.0, 0.14 - 0.1 * std::sqrt(2.0)}, out[0].pointA, 1e-15);
    near({0.0, 0.0, 0.0}, out[0].pointB, 1e-15);
    CPPUNIT_ASSERT_EQUAL(kTriangleEdge + 0, out[0].featureB);
    CPPUNIT_ASSERT(out[0].featureA >= 8 && out[0].featureA < 20);  // a box edge
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TriangleContactTest);
