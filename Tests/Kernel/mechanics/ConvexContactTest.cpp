// Convex contacts from support functions (Kernel/src/mechanics/ccd): compared with the
// closed forms of Narrowphase.hpp and with analytic gaps for hulls and cylinders.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <vector>

#include <nsdyn/BoxShape.hpp>
#include <nsdyn/ConvexContact.hpp>
#include <nsdyn/ConvexHullShape.hpp>
#include <nsdyn/CylinderShape.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Narrowphase.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;
using namespace nsdyn::narrowphase;
using nsdyn::quaternion::fromAxisAngle;

namespace {

// Gap tolerance: polytopes are exact to round-off, curved shapes converge to
// about the search tolerance (1e-9 by default); 1e-6 leaves room.
const double gapTol = 1e-6;
const double normalTol = 1e-6;

Vec3 sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
double norm(const Vec3& a) {
  return std::sqrt(dot(a, a));
}

void assertVec(const Vec3& expected, const Vec3& actual, double eps) {
  for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(expected[k], actual[k], eps);
}

void assertConsistent(const ContactPoint& c) {
  CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, norm(c.normal), 1e-12);
  const Vec3 d = sub(c.pointA, c.pointB);
  for (std::size_t k = 0; k < 3; ++k)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(c.gap * c.normal[k], d[k], 1e-12);
}

Pose pose(const Vec3& x, const Quat& q = Quat{1, 0, 0, 0}) {
  Pose p;
  p.position = x;
  p.orientation = q;
  return p;
}

// One convexContact contact, checked for consistency.
ContactPoint ccdOne(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                    const ConvexContactOptions& opt = ConvexContactOptions()) {
  ContactList out;
  CPPUNIT_ASSERT_EQUAL(1, convexContact(a, pa, b, pb, margin, out, opt));
  CPPUNIT_ASSERT_EQUAL(std::size_t(1), out.size());
  assertConsistent(out[0]);
  return out[0];
}

// The convexContact point agrees with the closed form's deepest point: gap, normal,
// and both points lie on the closed form's supporting planes.
void assertMatches(const ContactList& closed, const ContactPoint& c) {
  CPPUNIT_ASSERT(!closed.empty());
  const ContactPoint* deepest = &closed[0];
  for (const ContactPoint& p : closed) {
    if (p.gap < deepest->gap) deepest = &p;
  }
  CPPUNIT_ASSERT_DOUBLES_EQUAL(deepest->gap, c.gap, gapTol);
  assertVec(deepest->normal, c.normal, normalTol);
}

ConvexHullShape octahedron(double s) {
  return ConvexHullShape({{s, 0, 0}, {-s, 0, 0}, {0, s, 0}, {0, -s, 0}, {0, 0, s}, {0, 0, -s}});
}

}  // namespace

class ConvexContactTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConvexContactTest);
  CPPUNIT_TEST(sphereSphereAgainstClosedForm);
  CPPUNIT_TEST(sphereSphereOptions);
  CPPUNIT_TEST(sphereBoxAgainstClosedForm);
  CPPUNIT_TEST(boxBoxFaceAgainstClosedForm);
  CPPUNIT_TEST(octahedronBox);
  CPPUNIT_TEST(octahedronSphere);
  CPPUNIT_TEST(tetrahedronBox);
  CPPUNIT_TEST(cylinderBox);
  CPPUNIT_TEST(separatedTouchingPenetrating);
  CPPUNIT_TEST(swapSymmetry);
  CPPUNIT_TEST(deterministic);
  CPPUNIT_TEST(rejectsHalfSpaceAndBadMargin);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sphereSphereAgainstClosedForm() {
    const SphereShape a(0.5), b(0.7);
    const Vec3 dirn{0.3, -0.4, 0.866};
    const double l = norm(dirn);
    for (double dist :
         {1.0, 1.19, 1.25, 1.3}) {  // penetrating, almost touching, separated within margin
      const Vec3 ca{0.1 + dist * dirn[0] / l, -0.2 + dist * dirn[1] / l, 0.3 + dist * dirn[2] / l};
      const Vec3 cb{0.1, -0.2, 0.3};
      ContactList closed;
      CPPUNIT_ASSERT_EQUAL(1, sphereSphere(ca, 0.5, cb, 0.7, 0.2, closed));
      const ContactPoint c = ccdOne(a, pose(ca), b, pose(cb), 0.2);
      assertMatches(closed, c);
      assertVec(closed[0].pointA, c.pointA, 1e-5);
      assertVec(closed[0].pointB, c.pointB, 1e-5);
    }
  }

  void sphereSphereOptions() {
    const SphereShape a(0.5), b(0.7);
    ConvexContactOptions opt;  // explicit options, tighter than the defaults
    opt.maxIterations = 200;
    opt.tolerance = 1e-12;
    const Vec3 ca{0.4, 0.5, 0.6}, cb{0.0, 0.0, 0.0};
    ContactList closed;
    sphereSphere(ca, 0.5, cb, 0.7, 0.1, closed);
    assertMatches(closed, ccdOne(a, pose(ca), b, pose(cb), 0.1, opt));
  }

  void sphereBoxAgainstClosedForm() {
    const SphereShape s(0.3);
    const Vec3 half{1.0, 0.5, 0.25};
    const BoxShape box(half);
    const Pose pb = pose({0.2, -0.1, 0.4}, fromAxisAngle({0.1, 0.3, 1.0}, 0.4));
    // Above the +z face (face contact), penetrating and separated.
    for (double h : {0.5, 0.56, 0.6}) {
      const Vec3 ca = pb.toWorld({0.3, -0.1, h});
      ContactList closed;
      CPPUNIT_ASSERT_EQUAL(1, sphereBox(ca, 0.3, pb, half, 0.1, closed));
      const ContactPoint c = ccdOne(s, pose(ca), box, pb, 0.1);
      assertMatches(closed, c);
      assertVec(closed[0].pointB, c.pointB, 1e-5);
    }
    // Sphere off a box edge (libccd's MPR was off by up to ~18 degrees there): see
    // PlaneContactsTest for edge and vertex regions against exact distances;
    // sphere–box goes through the closed form in the detector.
  }

  void boxBoxFaceAgainstClosedForm() {
    const Vec3 ha{0.3, 0.2, 0.1}, hb{1.0, 1.0, 0.5};
    const BoxShape a(ha), b(hb);
    const Quat qb = fromAxisAngle({0.2, -0.3, 1.0}, 0.7);
    const Pose pb = pose({0.5, 0.2, -0.3}, qb);
    // A rests on B's +z face, turned about B's z axis by 0.5 rad.
    const Quat qa = quaternion::multiply(qb, fromAxisAngle({0, 0, 1}, 0.5));
    for (double h : {0.58, 0.6, 0.63}) {
      const Pose pa = pose(pb.toWorld({0.1, 0.2, h}), qa);
      ContactList closed;
      CPPUNIT_ASSERT(boxBox(pa, ha, pb, hb, 0.1, closed) >= 1);
      const ContactPoint c = ccdOne(a, pa, b, pb, 0.1);
      assertMatches(closed, c);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(h - 0.6, c.gap, gapTol);
      assertVec(pb.rotate({0, 0, 1}), c.normal, normalTol);
    }
  }

  void octahedronBox() {
    // Octahedron (vertex at −0.8 along z) above the +z face of a box: gap = z − 0.8 − 0.5.
    const ConvexHullShape oct = octahedron(0.8);
    const BoxShape box({1.0, 1.0, 0.5});
    for (double z : {1.25, 1.3, 1.34}) {
      const ContactPoint c = ccdOne(oct, pose({0.1, -0.2, z}), box, pose({0, 0, 0}), 0.05);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z - 1.3, c.gap, gapTol);
      assertVec({0, 0, 1}, c.normal, normalTol);
      assertVec({0.1, -0.2, z - 0.8}, c.pointA, 1e-6);  // the vertex
    }
    // Beyond the margin: nothing.
    ContactList out;
    CPPUNIT_ASSERT_EQUAL(0,
                         convexContact(oct, pose({0, 0, 1.36}), box, pose({0, 0, 0}), 0.05, out));
    CPPUNIT_ASSERT(out.empty());
  }

  void octahedronSphere() {
    // The face x + y + z = s (distance s/√3 from the centre) against a sphere
    // whose centre lies on the face normal at distance d: gap = d − s/√3 − r.
    const double s = 1.0, r = 0.4;
    const ConvexHullShape oct = octahedron(s);
    const SphereShape sp(r);
    const Vec3 n{1 / std::sqrt(3.0), 1 / std::sqrt(3.0), 1 / std::sqrt(3.0)};
    const Pose po = pose({0.2, 0.3, -0.1}, fromAxisAngle({1, 2, 3}, 0.3));
    const Vec3 nw = po.rotate(n);
    for (double d : {0.9, s / std::sqrt(3.0) + r, 1.0}) {
      const Vec3 cs{po.position[0] + d * nw[0], po.position[1] + d * nw[1],
                    po.position[2] + d * nw[2]};
      // A = sphere, B = octahedron: normal from B to A is +nw.
      const ContactPoint c = ccdOne(sp, pose(cs), oct, po, 0.1);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(d - s / std::sqrt(3.0) - r, c.gap, gapTol);
      assertVec(nw, c.normal, normalTol);
    }
  }

  void tetrahedronBox() {
    // Tetrahedron with its face z = 0 down (vertices at z = 0 and apex z = 1) on a box top.
    const ConvexHullShape tet({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    const BoxShape box({2.0, 2.0, 0.5});
    for (double z : {0.48, 0.5, 0.52}) {
      const ContactPoint c = ccdOne(tet, pose({-0.2, 0.1, z}), box, pose({0, 0, 0}), 0.05);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z - 0.5, c.gap, gapTol);
      assertVec({0, 0, 1}, c.normal, normalTol);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z, c.pointA[2], 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, c.pointB[2], 1e-9);
    }
  }

  void cylinderBox() {
    const CylinderShape cyl(0.3, 0.6);  // axis z, half length 0.6
    const BoxShape box({2.0, 2.0, 0.5});
    // Standing on its flat end: gap = z − 0.6 − 0.5.
    for (double z : {1.08, 1.1, 1.13}) {
      const ContactPoint c = ccdOne(cyl, pose({0.1, 0.2, z}), box, pose({0, 0, 0}), 0.05);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z - 1.1, c.gap, gapTol);
      assertVec({0, 0, 1}, c.normal, normalTol);
    }
    // Lying on its side (axis along world x): gap = z − 0.3 − 0.5.
    const Quat side = fromAxisAngle({0, 1, 0}, M_PI / 2);
    for (double z : {0.78, 0.8, 0.83}) {
      const ContactPoint c = ccdOne(cyl, pose({0.1, 0.2, z}, side), box, pose({0, 0, 0}), 0.05);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z - 0.8, c.gap, gapTol);
      assertVec({0, 0, 1}, c.normal, normalTol);
    }
  }

  void separatedTouchingPenetrating() {
    const BoxShape a({0.5, 0.5, 0.5}), b({0.5, 0.5, 0.5});
    const double margin = 0.01;
    ContactList out;
    // Separated by more than the margin: nothing.
    CPPUNIT_ASSERT_EQUAL(0, convexContact(a, pose({0, 0, 1.02}), b, pose({0, 0, 0}), margin, out));
    // Separated within the margin, touching, penetrating.
    const double zs[] = {1.005, 1.0, 0.97};
    for (double z : zs) {
      const ContactPoint c = ccdOne(a, pose({0.2, 0.1, z}), b, pose({0, 0, 0}), margin);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(z - 1.0, c.gap, gapTol);
      assertVec({0, 0, 1}, c.normal, normalTol);
    }
    // margin = 0: separated gives nothing, penetrating one point.
    out.clear();
    CPPUNIT_ASSERT_EQUAL(0, convexContact(a, pose({0, 0, 1.001}), b, pose({0, 0, 0}), 0.0, out));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.03, ccdOne(a, pose({0, 0, 0.97}), b, pose({0, 0, 0}), 0.0).gap,
                                 gapTol);
  }

  void swapSymmetry() {
    const ConvexHullShape oct = octahedron(0.8);
    const CylinderShape cyl(0.3, 0.6);
    const Pose pa = pose({0.1, 0.05, 1.0}, fromAxisAngle({1, 0.2, 0}, 0.3));
    const Pose pb = pose({0, 0, 0}, fromAxisAngle({0, 1, 0.1}, 0.2));
    const ContactPoint ab = ccdOne(oct, pa, cyl, pb, 0.1);
    const ContactPoint ba = ccdOne(cyl, pb, oct, pa, 0.1);
    // The search is not symmetric in A and B (its first directions differ):
    // the swapped query agrees to the tolerance on a curved overlap, not bit
    // for bit (1e-4 is the bound kept from the MPR version).
    CPPUNIT_ASSERT_DOUBLES_EQUAL(ab.gap, ba.gap, 1e-4);
    const ContactPoint s = ab.swapped();
    assertVec(s.normal, ba.normal, 1e-3);
    assertVec(s.pointA, ba.pointA, 1e-3);
    assertVec(s.pointB, ba.pointB, 1e-3);
  }

  void deterministic() {
    const ConvexHullShape oct = octahedron(0.8);
    const SphereShape sp(0.5);
    const Pose pa = pose({0.1, 0.05, 1.1}, fromAxisAngle({1, 0.2, 0}, 0.3));
    const Pose pb = pose({0, 0, 0});
    ContactList first, again;
    convexContact(oct, pa, sp, pb, 0.1, first);
    for (int i = 0; i < 5; ++i) {
      again.clear();
      convexContact(oct, pa, sp, pb, 0.1, again);
      CPPUNIT_ASSERT_EQUAL(first.size(), again.size());
      CPPUNIT_ASSERT_EQUAL(std::size_t(1), again.size());
      CPPUNIT_ASSERT(std::memcmp(&first[0].pointA, &again[0].pointA, sizeof(Vec3)) == 0);
      CPPUNIT_ASSERT(std::memcmp(&first[0].pointB, &again[0].pointB, sizeof(Vec3)) == 0);
      CPPUNIT_ASSERT(std::memcmp(&first[0].normal, &again[0].normal, sizeof(Vec3)) == 0);
      CPPUNIT_ASSERT(std::memcmp(&first[0].gap, &again[0].gap, sizeof(double)) == 0);
    }
  }

  void rejectsHalfSpaceAndBadMargin() {
    const HalfSpaceShape plane({0, 0, 1}, 0.0);
    const SphereShape sp(0.5);
    ContactList out;
    CPPUNIT_ASSERT_THROW(convexContact(sp, pose({0, 0, 0.4}), plane, pose({0, 0, 0}), 0.1, out),
                         Error);
    CPPUNIT_ASSERT_THROW(convexContact(sp, pose({0, 0, 0}), sp, pose({0, 0, 0.5}), -0.1, out),
                         Error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConvexContactTest);
