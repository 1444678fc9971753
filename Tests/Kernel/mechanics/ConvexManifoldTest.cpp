// Contact manifolds of the convex pairs without a closed form (convexManifold,
// Kernel/src/mechanics/ccd/ConvexManifold.cpp): a box on a hull facet, cylinders lying and
// standing on boxes, a capsule and a hull on a hull facet get several points with their
// exact gaps and stable feature ids; tilted pairs keep convexContact's single point.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nsdyn/BoxShape.hpp>
#include <nsdyn/CapsuleShape.hpp>
#include <nsdyn/ConvexContact.hpp>
#include <nsdyn/ConvexHullShape.hpp>
#include <nsdyn/CylinderShape.hpp>
#include <nsdyn/Narrowphase.hpp>
#include <nsdyn/Quaternion.hpp>

using namespace nsdyn;
using namespace nsdyn::narrowphase;
using nsdyn::quaternion::fromAxisAngle;
using nsdyn::quaternion::multiply;

namespace {

Vec3 add(const Vec3& a, const Vec3& b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}
Vec3 sub(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3 scale(const Vec3& a, double s) {
  return {a[0] * s, a[1] * s, a[2] * s};
}
double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
double norm(const Vec3& a) {
  return std::sqrt(dot(a, a));
}

// A rigid placement of the whole scene: world = G x + T (the identity, or a turned frame).
struct World {
  Quat g{1, 0, 0, 0};
  Vec3 t{0, 0, 0};
  Pose place(const Vec3& x, const Quat& q = Quat{1, 0, 0, 0}) const {
    Pose p;
    p.position = add(t, quaternion::rotate(g, x));
    p.orientation = multiply(g, q);
    return p;
  }
  Vec3 point(const Vec3& x) const { return add(t, quaternion::rotate(g, x)); }
  Vec3 dir(const Vec3& x) const { return quaternion::rotate(g, x); }
};

const World kWorlds[2] = {World{},
                          World{fromAxisAngle({0.3, -0.5, 0.8}, 0.9), Vec3{1.5, -2.0, 0.7}}};

void assertConsistent(const ContactPoint& c) {
  CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, norm(c.normal), 1e-12);
  const Vec3 d = sub(c.pointA, c.pointB);
  for (std::size_t k = 0; k < 3; ++k)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(c.gap * c.normal[k], d[k], 1e-12);
}

void assertVec(const std::string& what, const Vec3& e, const Vec3& a, double eps) {
  for (std::size_t k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, e[k], a[k], eps);
}

// Each point of @p out is one of @p expected (distinct ones), within 1e-9.
void assertAt(const std::string& what, const std::vector<Vec3>& expected,
              const std::vector<Vec3>& actual) {
  std::set<std::size_t> used;
  for (const Vec3& p : actual) {
    std::size_t hit = expected.size();
    for (std::size_t k = 0; k < expected.size(); ++k)
      if (norm(sub(expected[k], p)) < 1e-9) hit = k;
    CPPUNIT_ASSERT_MESSAGE(what + ": a point off the expected ones", hit < expected.size());
    CPPUNIT_ASSERT_MESSAGE(what + ": a point twice", used.insert(hit).second);
  }
}

std::set<std::pair<int, int>> features(const ContactList& out) {
  std::set<std::pair<int, int>> f;
  for (const ContactPoint& c : out) f.insert({c.featureA, c.featureB});
  return f;
}

bool same(const ContactPoint& x, const ContactPoint& y) {
  return x.pointA == y.pointA && x.pointB == y.pointB && x.normal == y.normal && x.gap == y.gap &&
         x.featureA == y.featureA && x.featureB == y.featureB;
}

std::vector<Vec3> slabPoints(double a, double b, double c) {
  std::vector<Vec3> v;
  for (int i = 0; i < 8; ++i) v.push_back({(i & 1) ? a : -a, (i & 2) ? b : -b, (i & 4) ? c : -c});
  return v;
}

// The rotation taking +z to the unit n.
Quat zTo(const Vec3& n) {
  const Vec3 axis{-n[1], n[0], 0.0};
  const double s = norm(axis);
  if (s < 1e-15) return n[2] > 0 ? Quat{1, 0, 0, 0} : fromAxisAngle({1, 0, 0}, M_PI);
  return fromAxisAngle(axis, std::atan2(s, n[2]));
}

const double kMargin = 1e-3;
const double kGaps[3] = {-2e-4, 0.0, 3e-4};

}  // namespace

class ConvexManifoldTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConvexManifoldTest);
  CPPUNIT_TEST(boxOnHullFacet);
  CPPUNIT_TEST(boxOnTetrahedronFace);
  CPPUNIT_TEST(boxOverTheFacetEdgeAndManyVertexFacets);
  CPPUNIT_TEST(cylinderLyingOnABox);
  CPPUNIT_TEST(cylinderStandingOnABox);
  CPPUNIT_TEST(capsuleAndHullOnAHullFacet);
  CPPUNIT_TEST(edgesAndSmallTilts);
  CPPUNIT_TEST(tiltedPairsKeepTheSinglePoint);
  CPPUNIT_TEST(featuresStableAndDeterministic);
  CPPUNIT_TEST(cylinderCapOverAnEdge);
  CPPUNIT_TEST(boxEdgeAcrossACylinderCap);
  CPPUNIT_TEST(deepOverlapsTakeTheLeastPenetrationAxis);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// A 10 cm box on the top facet (two triangles) of a 1 m x 1 m x 0.2 m hull slab, turned
  /// by 0.3 rad about the normal, at -0.2, 0 and +0.3 mm: 4 points at the box's bottom
  /// corners, each gap the separation, normal the facet's; the swapped pair the same
  /// seen from the hull. The single point of convexContact has the same gap.
  void boxOnHullFacet() {
    const ConvexHullShape slab(slabPoints(0.5, 0.5, 0.1));
    const BoxShape box({0.05, 0.05, 0.05});
    const Quat turn = fromAxisAngle({0, 0, 1}, 0.3);
    for (const World& w : kWorlds)
      for (double g : kGaps) {
        const Pose pb = w.place({0.1, -0.05, 0.15 + g}, turn);
        const Pose ph = w.place({0, 0, 0});
        std::vector<Vec3> corners;
        for (int i = 0; i < 4; ++i)
          corners.push_back(pb.toWorld({(i & 1) ? 0.05 : -0.05, (i & 2) ? 0.05 : -0.05, -0.05}));
        for (int order = 0; order < 2; ++order) {
          ContactList out, single;
          const int n = order == 0 ? convexManifold(box, pb, slab, ph, kMargin, out)
                                   : convexManifold(slab, ph, box, pb, kMargin, out);
          CPPUNIT_ASSERT_EQUAL(4, n);
          CPPUNIT_ASSERT_EQUAL(1, convexContact(box, pb, slab, ph, kMargin, single));
          CPPUNIT_ASSERT_DOUBLES_EQUAL(g, single[0].gap, 1e-9);
          std::vector<Vec3> onBox;
          for (const ContactPoint& c : out) {
            assertConsistent(c);
            CPPUNIT_ASSERT_DOUBLES_EQUAL(g, c.gap, 1e-9);
            assertVec("normal", w.dir({0, 0, order == 0 ? 1.0 : -1.0}), c.normal, 1e-12);
            onBox.push_back(order == 0 ? c.pointA : c.pointB);
            // (box bottom vertex 0-3, hull facet 30)
            const int fb = order == 0 ? c.featureA : c.featureB;
            const int fh = order == 0 ? c.featureB : c.featureA;
            CPPUNIT_ASSERT(fb >= 0 && fb < 4);
            CPPUNIT_ASSERT_EQUAL(30, fh);
          }
          assertAt("box on slab", corners, onBox);
          CPPUNIT_ASSERT_EQUAL(std::size_t(4), features(out).size());
        }
      }
  }

  /// A box resting on the slanted face x + y + z = 1 of a tetrahedron of 1 m, turned about
  /// the face normal: 4 points at its bottom corners.
  void boxOnTetrahedronFace() {
    const ConvexHullShape tet({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    const BoxShape box({0.05, 0.04, 0.03});
    const Vec3 n = scale(Vec3{1, 1, 1}, 1.0 / std::sqrt(3.0));
    const Quat q = multiply(zTo(n), fromAxisAngle({0, 0, 1}, 0.4));
    for (double g : kGaps) {
      const Pose pb = pose(add(Vec3{1.0 / 3, 1.0 / 3, 1.0 / 3}, scale(n, 0.03 + g)), q);
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(4, convexManifold(box, pb, tet, pose({0, 0, 0}), kMargin, out));
      std::vector<Vec3> corners, at;
      for (int i = 0; i < 4; ++i)
        corners.push_back(pb.toWorld({(i & 1) ? 0.05 : -0.05, (i & 2) ? 0.04 : -0.04, -0.03}));
      for (const ContactPoint& c : out) {
        assertConsistent(c);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(g, c.gap, 1e-9);
        assertVec("normal", n, c.normal, 1e-12);
        at.push_back(c.pointA);
      }
      assertAt("box on tetrahedron", corners, at);
    }
  }

  /// A box half over the edge x = 0.5 of the slab's top facet: 2 corners inside (box vertex,
  /// facet 30) and 2 points where its bottom edges cross the facet's edge (box edge 8-19,
  /// hull edge 15-29), on x = 0.5. A 20-gon prism hull on its face: 4 points with distinct
  /// keys, although its vertex ids taken mod 15 collide (vertices 0 and 15 are both 0: the
  /// kept points are then labelled by rank).
  void boxOverTheFacetEdgeAndManyVertexFacets() {
    const ConvexHullShape slab(slabPoints(0.5, 0.5, 0.1));
    const BoxShape box({0.05, 0.05, 0.05});
    for (const World& w : kWorlds)
      for (double g : kGaps) {
        const Pose pb = w.place({0.5, 0.0, 0.15 + g}, fromAxisAngle({0, 0, 1}, 0.3));
        ContactList out;
        CPPUNIT_ASSERT_EQUAL(4, convexManifold(box, pb, slab, w.place({0, 0, 0}), kMargin, out));
        int inside = 0, crossing = 0;
        for (const ContactPoint& c : out) {
          assertConsistent(c);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(g, c.gap, 1e-9);
          const Vec3 local = pb.toBody(c.pointA);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.05, local[2], 1e-12);
          const Vec3 onSlab = sub(c.pointB, w.t);
          const Vec3 x = quaternion::rotateTranspose(w.g, onSlab);
          if (c.featureB == 30) {
            ++inside;
            CPPUNIT_ASSERT(c.featureA >= 0 && c.featureA < 4);
            CPPUNIT_ASSERT(x[0] < 0.5);
          } else {
            ++crossing;
            CPPUNIT_ASSERT(c.featureA >= 8 && c.featureA < 20);
            CPPUNIT_ASSERT(c.featureB >= 15 && c.featureB < 30);
            CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, x[0], 1e-12);
          }
        }
        CPPUNIT_ASSERT_EQUAL(2, inside);
        CPPUNIT_ASSERT_EQUAL(2, crossing);
      }
    std::vector<Vec3> prism;
    for (int z = 0; z < 2; ++z)
      for (int k = 0; k < 20; ++k)
        prism.push_back(
            {0.05 * std::cos(0.1 * M_PI * k), 0.05 * std::sin(0.1 * M_PI * k), 0.04 * z});
    const ConvexHullShape hull(prism);
    ContactList out;
    CPPUNIT_ASSERT_EQUAL(
        4, convexManifold(hull, pose({0.1, 0.1, 0.1 - 1e-4}), slab, pose({0, 0, 0}), kMargin, out));
    std::set<std::pair<int, int>> keys;
    for (const ContactPoint& c : out) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-1e-4, c.gap, 1e-12);
      keys.insert({c.featureA & 31, c.featureB & 31});
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), keys.size());
  }

  /// A cylinder (r 4 cm, length 10 cm) lying on a box along x: 2 points, the ends of its
  /// lowest line (features 26, 27 on the box's top face 25), gaps the separation.
  void cylinderLyingOnABox() {
    const BoxShape floor({0.5, 0.5, 0.1});
    const CylinderShape cyl(0.04, 0.05);
    const Quat alongX = fromAxisAngle({0, 1, 0}, M_PI / 2);
    for (const World& w : kWorlds)
      for (double g : kGaps) {
        const Pose pc = w.place({0.1, 0.2, 0.14 + g}, alongX);
        ContactList out;
        CPPUNIT_ASSERT_EQUAL(2, convexManifold(cyl, pc, floor, w.place({0, 0, 0}), kMargin, out));
        std::vector<Vec3> at;
        for (const ContactPoint& c : out) {
          assertConsistent(c);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(g, c.gap, 1e-9);
          assertVec("normal", w.dir({0, 0, 1}), c.normal, 1e-9);
          CPPUNIT_ASSERT_EQUAL(25, c.featureB);
          at.push_back(c.pointA);
        }
        CPPUNIT_ASSERT_EQUAL(26, out[0].featureA);
        CPPUNIT_ASSERT_EQUAL(27, out[1].featureA);
        assertAt("lying cylinder", {w.point({0.05, 0.2, 0.1 + g}), w.point({0.15, 0.2, 0.1 + g})},
                 at);
      }
  }

  /// A standing cylinder: on a large box, 4 of the 8 rim points of its lower cap (on the
  /// rim, gaps the separation); on a box smaller than its cap, the box's 4 top corners
  /// (features: cap 24, box vertices 4-7).
  void cylinderStandingOnABox() {
    const CylinderShape cyl(0.04, 0.05);
    for (const World& w : kWorlds)
      for (double g : kGaps) {
        const Pose pc = w.place({0.1, 0.2, 0.15 + g});
        ContactList out;
        const BoxShape floor({0.5, 0.5, 0.1});
        CPPUNIT_ASSERT_EQUAL(4, convexManifold(cyl, pc, floor, w.place({0, 0, 0}), kMargin, out));
        for (const ContactPoint& c : out) {
          assertConsistent(c);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(g, c.gap, 1e-9);
          const Vec3 local = pc.toBody(c.pointA);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(0.04, std::hypot(local[0], local[1]), 1e-12);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.05, local[2], 1e-12);
          CPPUNIT_ASSERT(c.featureA >= 0 && c.featureA < 8);
        }
        const BoxShape post({0.02, 0.02, 0.02});
        const Pose pp = w.place({0.1, 0.2, 0.08}, fromAxisAngle({0, 0, 1}, 0.2));
        const Pose pc2 = w.place({0.1, 0.2, 0.15 + g});
        out.clear();
        CPPUNIT_ASSERT_EQUAL(4, convexManifold(cyl, pc2, post, pp, kMargin, out));
        std::vector<Vec3> corners, at;
        for (int i = 0; i < 4; ++i)
          corners.push_back(pp.toWorld({(i & 1) ? 0.02 : -0.02, (i & 2) ? 0.02 : -0.02, 0.02}));
        std::set<int> ids;
        for (const ContactPoint& c : out) {
          assertConsistent(c);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(g, c.gap, 1e-9);
          CPPUNIT_ASSERT_EQUAL(24, c.featureA);
          ids.insert(c.featureB);
          at.push_back(c.pointB);
        }
        assertAt("cylinder on a post", corners, at);
        CPPUNIT_ASSERT(ids == std::set<int>({4, 5, 6, 7}));
      }
  }

  /// A capsule lying on the slab hull: 2 points below its end spheres (features 1, 2 on
  /// facet 30); a small irregular hull resting on a face: 3 points at that face's vertices.
  void capsuleAndHullOnAHullFacet() {
    const ConvexHullShape slab(slabPoints(0.5, 0.5, 0.1));
    const CapsuleShape cap(0.03, 0.06);
    const ConvexHullShape small({{-0.04, -0.03, 0.0},
                                 {0.05, -0.02, 0.0},
                                 {0.01, 0.045, 0.0},
                                 {-0.02, 0.01, 0.06},
                                 {0.03, 0.02, 0.04},
                                 {0.0, -0.01, 0.05},
                                 {-0.025, 0.02, 0.03}});
    for (const World& w : kWorlds)
      for (double g : kGaps) {
        const Pose ph = w.place({0, 0, 0});
        const Pose pc = w.place({-0.1, 0.1, 0.13 + g}, fromAxisAngle({1, 0, 0}, M_PI / 2));
        ContactList out;
        CPPUNIT_ASSERT_EQUAL(2, convexManifold(cap, pc, slab, ph, kMargin, out));
        std::vector<Vec3> at;
        for (const ContactPoint& c : out) {
          assertConsistent(c);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(g, c.gap, 1e-9);
          CPPUNIT_ASSERT_EQUAL(30, c.featureB);
          at.push_back(c.pointA);
        }
        CPPUNIT_ASSERT_EQUAL(1, out[0].featureA);
        CPPUNIT_ASSERT_EQUAL(2, out[1].featureA);
        assertAt("capsule", {w.point({-0.1, 0.16, 0.1 + g}), w.point({-0.1, 0.04, 0.1 + g})}, at);

        const Pose ps = w.place({0.2, 0.1, 0.1 + g}, fromAxisAngle({0, 0, 1}, 1.1));
        out.clear();
        CPPUNIT_ASSERT_EQUAL(3, convexManifold(small, ps, slab, ph, kMargin, out));
        at.clear();
        std::set<int> ids;
        for (const ContactPoint& c : out) {
          assertConsistent(c);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(g, c.gap, 1e-9);
          at.push_back(c.pointA);
          ids.insert(c.featureA);
          CPPUNIT_ASSERT_EQUAL(30, c.featureB);
        }
        std::vector<Vec3> face;
        for (std::size_t i = 0; i < 3; ++i) face.push_back(ps.toWorld(small.vertices()[i]));
        assertAt("hull on hull", face, at);
        CPPUNIT_ASSERT(ids == std::set<int>({0, 1, 2}));
      }
  }

  /// Line contacts and small tilts: a box on an edge (45 degrees) gets the 2 ends of that
  /// edge; a box tilted by 0.02 rad (within the 0.05 of a face) keeps the points within the
  /// margin: its lower edge (the other is 2 mm up); a margin of 3 mm takes all 4, each with
  /// its own gap.
  void edgesAndSmallTilts() {
    const ConvexHullShape slab(slabPoints(0.5, 0.5, 0.1));
    const BoxShape box({0.05, 0.05, 0.05});
    const Pose ph = pose({0, 0, 0});
    const double d = 0.05 * std::sqrt(2.0);
    ContactList out;
    const Pose edge = pose({0, 0, 0.1 + d - 1e-4}, fromAxisAngle({1, 0, 0}, M_PI / 4));
    CPPUNIT_ASSERT_EQUAL(2, convexManifold(box, edge, slab, ph, kMargin, out));
    for (const ContactPoint& c : out) CPPUNIT_ASSERT_DOUBLES_EQUAL(-1e-4, c.gap, 1e-12);
    assertAt("edge", {edge.toWorld({-0.05, -0.05, -0.05}), edge.toWorld({0.05, -0.05, -0.05})},
             {out[0].pointA, out[1].pointA});
    // The edge's ends (box vertices 0 and 1, edge 8) on the facet (30).
    CPPUNIT_ASSERT(features(out) == (std::set<std::pair<int, int>>{{0, 30}, {1, 30}}));

    const double a = 0.02;
    const Quat tilt = fromAxisAngle({1, 0, 0}, a);
    Pose pb = pose({0, 0, 0}, tilt);
    const double low = dot(Vec3{0, 0, 1}, pb.toWorld({0, -0.05, -0.05}));
    pb.position = {0.0, 0.0, 0.1 - low - 1e-4};
    out.clear();
    CPPUNIT_ASSERT_EQUAL(2, convexManifold(box, pb, slab, ph, kMargin, out));
    for (const ContactPoint& c : out) CPPUNIT_ASSERT_DOUBLES_EQUAL(-1e-4, c.gap, 1e-12);
    out.clear();
    CPPUNIT_ASSERT_EQUAL(4, convexManifold(box, pb, slab, ph, 3e-3, out));
    for (const ContactPoint& c : out) {
      const double expected = dot(Vec3{0, 0, 1}, c.pointA) - 0.1;
      CPPUNIT_ASSERT_DOUBLES_EQUAL(expected, c.gap, 1e-12);
      assertVec("on the box", c.pointA, pb.toWorld(pb.toBody(c.pointA)), 1e-15);
    }
  }

  /// Tilted beyond the flat angle, the pair keeps convexContact's single point, the same
  /// bits: a box on a corner, a cylinder on its rim, a capsule on an end, a box's edge
  /// across a lying cylinder (lines crossing at 0.7 rad); and with options.manifold off.
  void tiltedPairsKeepTheSinglePoint() {
    const ConvexHullShape slab(slabPoints(0.5, 0.5, 0.1));
    const BoxShape floor({0.5, 0.5, 0.1}), box({0.05, 0.05, 0.05});
    const CylinderShape cyl(0.04, 0.05);
    const CapsuleShape cap(0.03, 0.06);
    const Quat corner = multiply(fromAxisAngle({1, 0, 0}, 0.3), fromAxisAngle({0, 1, 0}, 0.2));
    const Quat rim = fromAxisAngle({1, 0, 0}, 0.4), end = fromAxisAngle({0, 1, 0}, 0.3);
    struct Case {
      const Shape* a;
      const Shape* b;
      Quat q;
    };
    const Case cases[4] = {
        {&box, &slab, corner},
        {&cyl, &floor, rim},
        {&cap, &slab, end},
        {&box, &cyl, multiply(fromAxisAngle({0, 0, 1}, 0.7), fromAxisAngle({1, 0, 0}, M_PI / 4))}};
    for (int k = 0; k < 4; ++k) {
      const Case& c = cases[k];
      Pose pa = pose({0.02, -0.03, 0.0}, c.q);
      const Pose pb =
          k == 3 ? pose({0.0, 0.0, 0.0}, fromAxisAngle({0, 1, 0}, M_PI / 2)) : pose({0, 0, 0});
      // Lowered onto B: the lowest point of A 0.1 mm into B's top.
      const double top = c.b->supportWorld({0, 0, 1}, pb.position, pb.orientation)[2];
      const double low = c.a->supportWorld({0, 0, -1}, pa.position, pa.orientation)[2];
      pa.position[2] += top - low - 1e-4;
      ContactList one, many, off;
      CPPUNIT_ASSERT_EQUAL(1, convexContact(*c.a, pa, *c.b, pb, kMargin, one));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(std::to_string(k), 1,
                                   convexManifold(*c.a, pa, *c.b, pb, kMargin, many));
      CPPUNIT_ASSERT(same(one[0], many[0]));
      ConvexContactOptions o;
      o.manifold = false;
      CPPUNIT_ASSERT_EQUAL(1, convexManifold(*c.a, pa, *c.b, pb, kMargin, off, o));
      CPPUNIT_ASSERT(same(one[0], off[0]));
    }
    // Flat but with the manifold off: the single point.
    ConvexContactOptions o;
    o.manifold = false;
    ContactList out;
    CPPUNIT_ASSERT_EQUAL(
        1, convexManifold(box, pose({0, 0, 0.15}), slab, pose({0, 0, 0}), kMargin, out, o));
  }

  /// Rocking by 1e-4 rad and sliding by 1 mm keep the 4 feature pairs (the contact keys, for
  /// the warm start); the same input gives the same bits.
  void featuresStableAndDeterministic() {
    const ConvexHullShape slab(slabPoints(0.5, 0.5, 0.1));
    const BoxShape box({0.05, 0.05, 0.05});
    const CylinderShape cyl(0.04, 0.05);
    const Pose ph = pose({0, 0, 0});
    for (const Shape* s : {static_cast<const Shape*>(&box), static_cast<const Shape*>(&cyl)}) {
      const double h = 0.05;  // half height of both
      std::set<std::pair<int, int>> ref;
      for (int k = 0; k < 4; ++k) {
        const Quat q = k == 0 ? Quat{1, 0, 0, 0}
                              : fromAxisAngle({k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0, 0.3}, 1e-4);
        const Pose p = pose({1e-3 * k, 0.0, 0.1 + h - 5e-5}, q);
        ContactList out, again;
        CPPUNIT_ASSERT_EQUAL(4, convexManifold(*s, p, slab, ph, kMargin, out));
        CPPUNIT_ASSERT_EQUAL(4, convexManifold(*s, p, slab, ph, kMargin, again));
        for (std::size_t i = 0; i < out.size(); ++i) CPPUNIT_ASSERT(same(out[i], again[i]));
        if (k == 0) ref = features(out);
        CPPUNIT_ASSERT(ref == features(out));
      }
    }
  }

  /// A standing cylinder (r 4 cm) tilted by 0.01 rad about y, its cap over the edge x = 0.5
  /// of a box and of the hull slab (centre at x = 0.48), its deepest rim point beyond the
  /// edge: the least overlap is along the cap's normal (the box's top edge under the cap);
  /// the deepest points are where the rim itself meets that edge seen along the normal
  /// (closed form, in the cylinder's frame), the other points rim points above the face,
  /// each with its own gap. Before the rim was taken as a circle (its 8 inscribed points
  /// only), the chord crossings lay inside the rim, higher than convexContact's point, and
  /// the pair kept that single point.
  void cylinderCapOverAnEdge() {
    const CylinderShape cyl(0.04, 0.05);
    const BoxShape floor({0.5, 0.5, 0.1});
    const ConvexHullShape slab(slabPoints(0.5, 0.5, 0.1));
    const double r = 0.04, h = 0.05, a = 0.01, cx = 0.48;
    const double u0 = (0.5 - cx + h * std::sin(a)) / std::cos(a);
    for (const Shape* f : {static_cast<const Shape*>(&floor), static_cast<const Shape*>(&slab)})
      for (double g : kGaps) {
        const double cz = 0.1 + g + u0 * std::sin(a) + h * std::cos(a);
        const Pose pc = pose({cx, 0.2, cz}, fromAxisAngle({0, 1, 0}, a));
        // The box's top edge in the cylinder's frame: x = u, z = e; the cap at z = -h.
        const Vec3 edge = pc.toBody({0.5, 0.2, 0.1});
        const double u = edge[0], v = std::sqrt(r * r - u * u), gap = -h - edge[2];
        const Vec3 cross1 = pc.toWorld({u, v, -h}), cross2 = pc.toWorld({u, -v, -h});
        const Vec3 axis = pc.rotate({0, 0, 1});
        for (int order = 0; order < 2; ++order) {
          ContactList out;
          const int n = order == 0 ? convexManifold(cyl, pc, *f, pose({0, 0, 0}), kMargin, out)
                                   : convexManifold(*f, pose({0, 0, 0}), cyl, pc, kMargin, out);
          CPPUNIT_ASSERT_EQUAL(4, n);
          int crossings = 0;
          for (const ContactPoint& c : out) {
            assertConsistent(c);
            const Vec3& onCyl = order == 0 ? c.pointA : c.pointB;
            assertVec("normal", scale(axis, order == 0 ? 1.0 : -1.0), c.normal, 1e-12);
            const Vec3& onFloor = order == 0 ? c.pointB : c.pointA;
            CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, onFloor[2], 1e-12);
            CPPUNIT_ASSERT(onFloor[0] <= 0.5 + 1e-12);
            const Vec3 local = pc.toBody(onCyl);
            CPPUNIT_ASSERT_DOUBLES_EQUAL(-h, local[2], 1e-12);
            CPPUNIT_ASSERT_DOUBLES_EQUAL(r, std::hypot(local[0], local[1]), 1e-12);
            if (norm(sub(onCyl, cross1)) < 1e-12 || norm(sub(onCyl, cross2)) < 1e-12) {
              ++crossings;
              CPPUNIT_ASSERT_DOUBLES_EQUAL(gap, c.gap, 1e-12);
              // (rim edge 16-23, box edge 8-19 / hull edge 15-29)
              const int fc = order == 0 ? c.featureA : c.featureB;
              const int ff = order == 0 ? c.featureB : c.featureA;
              CPPUNIT_ASSERT(fc >= 16 && fc < 24);
              CPPUNIT_ASSERT(f == &floor ? (ff >= 8 && ff < 20) : (ff >= 15 && ff < 30));
            } else {
              CPPUNIT_ASSERT(c.gap > gap);
            }
          }
          CPPUNIT_ASSERT_EQUAL(2, crossings);
        }
      }
  }

  /// A box resting on an edge (45 degrees about x) across the cap of a standing cylinder,
  /// 1 cm off its axis: 2 points where the edge meets the rim, x = ±√(r² − 0.01²) (closed
  /// form; the inscribed octagon's chords gave points up to 3 mm inside), at the separation.
  void boxEdgeAcrossACylinderCap() {
    const CylinderShape cyl(0.04, 0.05);
    const BoxShape box({0.08, 0.03, 0.03});
    const double d = 0.03 * std::sqrt(2.0), x = std::sqrt(0.04 * 0.04 - 0.01 * 0.01);
    for (const World& w : kWorlds)
      for (double g : kGaps) {
        const Pose pb = w.place({0.0, 0.01, 0.05 + d + g}, fromAxisAngle({1, 0, 0}, M_PI / 4));
        ContactList out;
        CPPUNIT_ASSERT_EQUAL(2, convexManifold(box, pb, cyl, w.place({0, 0, 0}), kMargin, out));
        std::vector<Vec3> at;
        for (const ContactPoint& c : out) {
          assertConsistent(c);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(g, c.gap, 1e-12);
          assertVec("normal", w.dir({0, 0, 1}), c.normal, 1e-12);
          at.push_back(c.pointB);
          CPPUNIT_ASSERT(c.featureB >= 16 && c.featureB < 24);  // rim edges (box edge, rim edge)
        }
        assertAt("edge on cap", {w.point({-x, 0.01, 0.05}), w.point({x, 0.01, 0.05})}, at);
      }
  }

  /// Deep overlaps: a 0.2 x 0.4 x 0.6 m hull box 9 cm into a 0.3 x 0.2 x 0.1 m box above
  /// its top face (least penetration along z: 0.09 m, against 0.16 along x, 0.21 along y)
  /// takes the face axis z and the gap -0.09, in both orders and through the manifold (4
  /// points at that depth); turned by 0.6 rad about z the least overlap stays the face axis
  /// z. Over 300 random deep overlaps of the two, the normal's overlap is within 1e-8 of
  /// the least over the 15 separating axes (face normals and edge cross products).
  void deepOverlapsTakeTheLeastPenetrationAxis() {
    const ConvexHullShape hull(slabPoints(0.1, 0.2, 0.3));
    const BoxShape box({0.15, 0.1, 0.05});
    for (double turn : {0.0, 0.6}) {
      const Pose ph = pose({0.02, 0.01, 0.26}, fromAxisAngle({0, 0, 1}, turn)),
                 pb = pose({0, 0, 0});
      ContactList one, many, swapped;
      CPPUNIT_ASSERT_EQUAL(1, convexContact(hull, ph, box, pb, kMargin, one));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.09, one[0].gap, 1e-9);
      assertVec("normal", {0, 0, 1}, one[0].normal, 1e-8);
      CPPUNIT_ASSERT_EQUAL(4, convexManifold(hull, ph, box, pb, kMargin, many));
      for (const ContactPoint& c : many) {
        CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.09, c.gap, 1e-12);
        assertVec("normal", {0, 0, 1}, c.normal, 0.0);
      }
      CPPUNIT_ASSERT_EQUAL(4, convexManifold(box, pb, hull, ph, kMargin, swapped));
      for (const ContactPoint& c : swapped) assertVec("normal", {0, 0, -1}, c.normal, 0.0);
    }
    unsigned seed = 12345;
    auto uniform = [&seed] {
      seed = seed * 1103515245u + 12345u;
      return ((seed >> 8) & 0xffff) / 32767.5 - 1.0;
    };
    int deep = 0;
    for (int t = 0; t < 300; ++t) {
      const Pose ph = pose({0.12 * uniform(), 0.12 * uniform(), 0.12 * uniform()},
                           fromAxisAngle({uniform(), uniform(), uniform() + 1e-3}, 3 * uniform()));
      const Pose pb =
          pose({0, 0, 0}, fromAxisAngle({uniform(), uniform() + 1e-3, uniform()}, 3 * uniform()));
      Vec3 axes[15];
      int count = 0;
      for (int i = 0; i < 3; ++i) {
        Vec3 e{0, 0, 0};
        e[static_cast<std::size_t>(i)] = 1.0;
        axes[count++] = ph.rotate(e);
        axes[count++] = pb.rotate(e);
      }
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          Vec3 e{0, 0, 0}, f{0, 0, 0};
          e[static_cast<std::size_t>(i)] = 1.0;
          f[static_cast<std::size_t>(j)] = 1.0;
          const Vec3 a = ph.rotate(e), b = pb.rotate(f);
          const Vec3 c{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                       a[0] * b[1] - a[1] * b[0]};
          if (norm(c) > 1e-6) axes[count++] = scale(c, 1.0 / norm(c));
        }
      // sep(n): the hull's lowest level along n minus the box's highest
      auto sep = [&](const Vec3& n) {
        return dot(n, hull.supportWorld(scale(n, -1.0), ph.position, ph.orientation)) -
               dot(n, box.supportWorld(n, pb.position, pb.orientation));
      };
      double best = -HUGE_VAL;
      for (int k = 0; k < count; ++k)
        best = std::max({best, sep(axes[k]), sep(scale(axes[k], -1.0))});
      if (best > -0.02) continue;  // deep only
      ++deep;
      ContactList out;
      CPPUNIT_ASSERT(convexManifold(hull, ph, box, pb, kMargin, out) >= 1);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(best, sep(out[0].normal), 1e-8);
      double least = HUGE_VAL;
      for (const ContactPoint& c : out) least = std::min(least, c.gap);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(best, least, 1e-8);
    }
    CPPUNIT_ASSERT(deep > 100);
  }

 private:
  static Pose pose(const Vec3& x, const Quat& q = Quat{1, 0, 0, 0}) {
    Pose p;
    p.position = x;
    p.orientation = q;
    return p;
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConvexManifoldTest);
