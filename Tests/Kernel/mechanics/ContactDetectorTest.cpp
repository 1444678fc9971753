// Contact detection over scenes (Kernel/src/mechanics/detection): known contacts, the
// broadphase result equal to an all-pairs dispatch, sorted unique keys, thread independence.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/CapsuleShape.hpp>
#include <nsdyn/ContactDetector.hpp>
#include <nsdyn/ConvexHullShape.hpp>
#include <nsdyn/CylinderShape.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/SphereShape.hpp>

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace nsdyn;
using Vec3 = Shape::Vec3;

namespace {

ShapeInstance inst(std::shared_ptr<const Shape> s, const Vec3& p = {0, 0, 0}) {
  ShapeInstance i;
  i.shape = std::move(s);
  i.position = p;
  return i;
}
BodyShapes sphere(double r, const Vec3& p) {
  return makeBody({inst(std::make_shared<SphereShape>(r))}, 1000.0, p);
}
BodyShapes floorPlane() {
  return makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))});
}
ContactDetector::Options opts(double margin) {
  ContactDetector::Options o;
  o.margin = margin;
  o.breakingDistance = 2 * margin;
  return o;
}

void assertSortedUnique(const std::vector<DetectedContact>& c) {
  for (std::size_t k = 1; k < c.size(); ++k) CPPUNIT_ASSERT(c[k - 1].key < c[k].key);
  for (const auto& d : c) {
    CPPUNIT_ASSERT(d.bodyA < d.bodyB);
    CPPUNIT_ASSERT_EQUAL(
        ContactDetector::makeKey(d.bodyA, d.bodyB, d.shapeA, d.shapeB, d.featureA, d.featureB),
        d.key);
  }
}

std::vector<BodyShapes> randomPile(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<BodyShapes> bodies;
  // Container: floor z >= 0 and walls at x, y = 0 and 4 (solid outside), one static body.
  bodies.push_back(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0)),
                                   inst(std::make_shared<HalfSpaceShape>(Vec3{1, 0, 0}, 0.0)),
                                   inst(std::make_shared<HalfSpaceShape>(Vec3{-1, 0, 0}, -4.0)),
                                   inst(std::make_shared<HalfSpaceShape>(Vec3{0, 1, 0}, 0.0)),
                                   inst(std::make_shared<HalfSpaceShape>(Vec3{0, -1, 0}, -4.0))}));
  for (std::size_t k = 0; k < n; ++k) {
    const Vec3 p{4 * u(rng), 4 * u(rng), 3 * u(rng)};
    if (k % 2 == 0) {
      bodies.push_back(sphere(0.1 + 0.1 * u(rng), p));
    } else {
      const Vec3 h{0.08 + 0.08 * u(rng), 0.08 + 0.08 * u(rng), 0.08 + 0.08 * u(rng)};
      const Shape::Quat q = quaternion::fromAxisAngle(
          {u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5 + 1e-3}, 6.28 * u(rng));
      bodies.push_back(makeBody({inst(std::make_shared<BoxShape>(h))}, 1000.0, p, q));
    }
  }
  return bodies;
}

// Capsules, cylinders and hulls (a tetrahedron) at random orientations in a box of planes:
// their AABBs come from the support map rotated into the body frame and back.
std::vector<BodyShapes> randomRoundPile(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<BodyShapes> bodies;
  bodies.push_back(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0)),
                                   inst(std::make_shared<HalfSpaceShape>(Vec3{1, 0, 0}, 0.0)),
                                   inst(std::make_shared<HalfSpaceShape>(Vec3{0, 1, 0}, 0.0))}));
  for (std::size_t k = 0; k < n; ++k) {
    const Vec3 p{3 * u(rng), 3 * u(rng), 2 * u(rng)};
    const Shape::Quat q =
        quaternion::fromAxisAngle({u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5 + 1e-3}, 6.28 * u(rng));
    std::shared_ptr<const Shape> shape;
    const double a = 0.05 + 0.1 * u(rng), b = 0.05 + 0.15 * u(rng);
    if (k % 3 == 0)
      shape = std::make_shared<CapsuleShape>(a, b);
    else if (k % 3 == 1)
      shape = std::make_shared<CylinderShape>(a, b);
    else
      shape = std::make_shared<ConvexHullShape>(
          std::vector<Vec3>{{a, 0, 0}, {0, b, 0}, {0, 0, a + b}, {-a, -b, -a}});
    bodies.push_back(makeBody({inst(shape)}, 1000.0, p, q));
  }
  return bodies;
}

}  // namespace

class ContactDetectorTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ContactDetectorTest);
  CPPUNIT_TEST(sphereOnPlane);
  CPPUNIT_TEST(boxOnPlane);
  CPPUNIT_TEST(twoSpheres);
  CPPUNIT_TEST(capsuleOnBox);
  CPPUNIT_TEST(hullOnPlaneAndBox);
  CPPUNIT_TEST(noSelfOrStaticPairs);
  CPPUNIT_TEST(options);
  CPPUNIT_TEST(pileMatchesBruteForce);
  CPPUNIT_TEST(rotatedShapesMatchBruteForce);
  CPPUNIT_TEST(threadIndependent);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sphereOnPlane() {
    ContactDetector d({sphere(0.5, {1, 2, 0.51}), floorPlane()}, opts(0.02));
    const auto& c = d.detect();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), c.size());
    CPPUNIT_ASSERT_EQUAL(0, c[0].bodyA);
    CPPUNIT_ASSERT_EQUAL(1, c[0].bodyB);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.01, c[0].gap, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, c[0].normal[2], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c[0].pointB[2], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.01, c[0].pointA[2], 1e-12);
    // Plane first: A is the plane's body, the normal flips.
    ContactDetector d2({floorPlane(), sphere(0.5, {1, 2, 0.51})}, opts(0.02));
    const auto& c2 = d2.detect();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), c2.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, c2[0].normal[2], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.01, c2[0].gap, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c2[0].pointA[2], 1e-12);
    // Outside the margin: nothing.
    ContactDetector d3({sphere(0.5, {1, 2, 0.53}), floorPlane()}, opts(0.02));
    CPPUNIT_ASSERT(d3.detect().empty());
  }

  void boxOnPlane() {
    ContactDetector d(
        {floorPlane(),
         makeBody({inst(std::make_shared<BoxShape>(Vec3{0.5, 0.3, 0.2}))}, 500.0, {0, 0, 0.2})},
        opts(1e-3));
    const auto& c = d.detect();
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), c.size());
    assertSortedUnique(c);
    for (const auto& k : c) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, k.gap, 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, k.normal[2], 1e-12);  // from the box (B) to the plane (A)
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), d.statistics().closedFormPairs);
  }

  void twoSpheres() {
    ContactDetector d({sphere(0.5, {0, 0, 0}), sphere(0.5, {1, 0, 0})}, opts(0.0));
    const auto& c = d.detect();
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), c.size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, c[0].gap, 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, c[0].normal[0], 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, c[0].pointA[0], 1e-12);
  }

  void capsuleOnBox() {
    // Capsule along x (body z rotated about y), radius 0.2, resting 1e-3 above a static box top z =
    // 0.5.
    ShapeInstance cap = inst(std::make_shared<CapsuleShape>(0.2, 0.5));
    cap.orientation = quaternion::fromAxisAngle({0, 1, 0}, M_PI / 2);
    ContactDetector d({makeBody({cap}, 1000.0, {0.1, 0.2, 0.701}),
                       makeStaticBody({inst(std::make_shared<BoxShape>(Vec3{1, 1, 0.5}))})},
                      opts(0.01));
    const auto& c = d.detect();
    CPPUNIT_ASSERT(!c.empty());
    for (const auto& k : c) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1e-3, k.gap, 1e-6);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, k.normal[2], 1e-6);
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), d.statistics().ccdPairs);
  }

  void hullOnPlaneAndBox() {
    auto tet = std::make_shared<ConvexHullShape>(
        std::vector<Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    // On the plane: the three vertices of its face z = 0 (narrowphase::hullPlane), exact.
    ContactDetector d({makeBody({inst(tet)}, 1000.0, {0, 0, 0.002}), floorPlane()}, opts(0.01));
    const auto& c = d.detect();
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), c.size());
    for (const auto& k : c) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.002, k.gap, 1e-12);
    // On a static box (top z = 0): convexManifold, the same three vertices of its face
    // (one point before the manifolds: the convex pairs got convexContact's single point).
    ContactDetector d2(
        {makeBody({inst(tet)}, 1000.0, {-0.2, -0.2, 0.002}),
         makeStaticBody({inst(std::make_shared<BoxShape>(Vec3{2, 2, 0.5}))}, {0, 0, -0.5})},
        opts(0.01));
    const auto& c2 = d2.detect();
    CPPUNIT_ASSERT_EQUAL(std::size_t(3), c2.size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), d2.statistics().ccdPairs);
    for (const auto& k : c2) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.002, k.gap, 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, k.normal[2], 1e-12);
    }
    assertSortedUnique(c2);
  }

  void noSelfOrStaticPairs() {
    // Two overlapping spheres of one body: no contact with each other.
    auto s = std::make_shared<SphereShape>(0.5);
    ContactDetector d({makeBody({inst(s, {0, 0, 0}), inst(s, {0.3, 0, 0})}, 1000.0, {0, 0, 5})},
                      opts(0.01));
    CPPUNIT_ASSERT(d.detect().empty());
    // A static box sunk in a static plane, and another static box overlapping it: nothing.
    ContactDetector d2(
        {makeStaticBody({inst(std::make_shared<BoxShape>(Vec3{1, 1, 1}))}), floorPlane(),
         makeStaticBody({inst(std::make_shared<BoxShape>(Vec3{1, 1, 1}))}, {0.5, 0, 0})},
        opts(0.01));
    CPPUNIT_ASSERT(d2.detect().empty());
    // A two-sphere body on the plane: one contact per sphere, distinct shape indices.
    ContactDetector d3(
        {floorPlane(), makeBody({inst(s, {0, 0, 0}), inst(s, {2, 0, 0})}, 1000.0, {0, 0, 0.5})},
        opts(0.01));
    const auto& c = d3.detect();
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), c.size());
    CPPUNIT_ASSERT_EQUAL(0, c[0].shapeB);
    CPPUNIT_ASSERT_EQUAL(1, c[1].shapeB);
    assertSortedUnique(c);
  }

  void options() {
    ContactDetector::Options o;
    o.margin = -1;
    CPPUNIT_ASSERT_THROW(ContactDetector({floorPlane()}, o), Error);
    o.margin = 0.1;
    o.breakingDistance = 0.05;
    CPPUNIT_ASSERT_THROW(ContactDetector({floorPlane()}, o), Error);
    CPPUNIT_ASSERT_EQUAL((std::uint64_t(3) << 43) | (std::uint64_t(7) << 22) |
                             (std::uint64_t(1) << 16) | (std::uint64_t(2) << 10) |
                             (std::uint64_t(20) << 5) | 25u,
                         ContactDetector::makeKey(3, 7, 1, 2, 20, 25));
  }

  void pileMatchesBruteForce() {
    ContactDetector d(randomPile(500, 7), opts(0.02));
    const auto c = d.detect();
    const auto ref = d.detectBruteForce();
    CPPUNIT_ASSERT(c.size() > 100);
    CPPUNIT_ASSERT_EQUAL(ref.size(), c.size());
    for (std::size_t k = 0; k < c.size(); ++k) {
      CPPUNIT_ASSERT_EQUAL(ref[k].key, c[k].key);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(ref[k].gap, c[k].gap, 1e-12);
      CPPUNIT_ASSERT(c[k].gap <= 0.02);
    }
    assertSortedUnique(c);
    bool plane = false;
    for (const auto& k : c) plane = plane || k.bodyA == 0;
    CPPUNIT_ASSERT(plane);
  }

  // A bounding box too small (a wrong rotation, a support point missed) drops pairs that
  // the all-pairs dispatch finds; too large ones only cost time.
  void rotatedShapesMatchBruteForce() {
    ContactDetector d(randomRoundPile(400, 5), opts(0.02));
    const auto c = d.detect();
    const auto ref = d.detectBruteForce();
    CPPUNIT_ASSERT(c.size() > 100);
    CPPUNIT_ASSERT_EQUAL(ref.size(), c.size());
    for (std::size_t k = 0; k < c.size(); ++k) {
      CPPUNIT_ASSERT_EQUAL(ref[k].key, c[k].key);
      CPPUNIT_ASSERT_EQUAL(ref[k].gap, c[k].gap);
    }
    assertSortedUnique(c);
  }

  void threadIndependent() {
    std::vector<DetectedContact> first;
    for (int t : {1, 2, 4}) {
#ifdef _OPENMP
      omp_set_num_threads(t);
#endif
      ContactDetector::Options o = opts(0.02);
      o.threads = 0;
      ContactDetector d(randomPile(500, 11), o);
      const auto c = d.detect();
      o.threads = t;
      d.setOptions(o);
      const auto c2 = d.detect();
      CPPUNIT_ASSERT_EQUAL(c.size(), c2.size());
      CPPUNIT_ASSERT(std::memcmp(c.data(), c2.data(), c.size() * sizeof(DetectedContact)) == 0);
      if (t == 1) {
        first = c;
        CPPUNIT_ASSERT(!first.empty());
      } else {
        CPPUNIT_ASSERT_EQUAL(first.size(), c.size());
        CPPUNIT_ASSERT(std::memcmp(first.data(), c.data(), c.size() * sizeof(DetectedContact)) ==
                       0);
      }
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ContactDetectorTest);
