// Convex hulls and cylinders on planes (narrowphase hullPlane / cylinderPlane: several exact
// points, stable features), bodies coming to rest on a floor with both simulators (the
// Kernel's TimeStepping + ContactManager and the SceneEngine), and the convex pairs of
// convexContact against exact or brute-force signed distances (the spurious deep MPR
// contacts of Examples/MixedPile among them).
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <nsdyn/nsd_options.h>
#include <nsdyn/nsd_solvers.h>
#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/CapsuleShape.hpp>
#include <nsdyn/ContactDetector.hpp>
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/ConvexContact.hpp>
#include <nsdyn/ConvexHullShape.hpp>
#include <nsdyn/CylinderShape.hpp>
#include <nsdyn/FrictionContact.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/Narrowphase.hpp>
#include <nsdyn/Quaternion.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;
using namespace nsdyn::narrowphase;
using nsdyn::quaternion::fromAxisAngle;

namespace {

constexpr double kG = 9.81;

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
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double norm(const Vec3& a) {
  return std::sqrt(dot(a, a));
}
Vec3 unit(const Vec3& a) {
  return scale(a, 1.0 / norm(a));
}

Pose pose(const Vec3& x, const Quat& q = Quat{1, 0, 0, 0}) {
  Pose p;
  p.position = x;
  p.orientation = q;
  return p;
}

Plane plane(const Vec3& n, double offset) {
  Plane p;
  p.normal = unit(n);
  p.offset = offset;
  return p;
}

ShapeInstance inst(std::shared_ptr<const Shape> s) {
  ShapeInstance i;
  i.shape = std::move(s);
  return i;
}

// The rotation taking +z to the unit n (about z × n).
Quat zTo(const Vec3& n) {
  const Vec3 axis = cross({0, 0, 1}, n);
  const double s = norm(axis);
  if (s < 1e-15) return n[2] > 0 ? Quat{1, 0, 0, 0} : fromAxisAngle({1, 0, 0}, M_PI);
  return fromAxisAngle(axis, std::atan2(s, n[2]));
}

void assertConsistent(const ContactPoint& c) {
  CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, norm(c.normal), 1e-12);
  const Vec3 d = sub(c.pointA, c.pointB);
  for (std::size_t k = 0; k < 3; ++k)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(c.gap * c.normal[k], d[k], 1e-12);
}

std::vector<Vec3> cubePoints(double a) {
  std::vector<Vec3> v;
  for (int i = 0; i < 8; ++i) v.push_back({(i & 1) ? a : -a, (i & 2) ? a : -a, (i & 4) ? a : -a});
  return v;
}

// A regular prism: an m-gon of circumradius r at z = 0 and z = h (vertices 0..m−1 the bottom).
std::vector<Vec3> prismPoints(int m, double r, double h) {
  std::vector<Vec3> v;
  for (int z = 0; z < 2; ++z)
    for (int k = 0; k < m; ++k) {
      const double t = 2.0 * M_PI * k / m;
      v.push_back({r * std::cos(t), r * std::sin(t), z * h});
    }
  return v;
}

// --- signed distances for the convexContact checks ---------------------------------------

// sep(n) = (A's lowest level − B's highest level) along n: a lower bound of the signed
// distance for every unit n, equal to it at the best n.
double separation(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, const Vec3& n) {
  const Vec3 m{-n[0], -n[1], -n[2]};
  return dot(n, a.supportWorld(m, pa.position, pa.orientation)) -
         dot(n, b.supportWorld(n, pb.position, pb.orientation));
}

// Brute force: the largest separation over a Fibonacci sphere of directions, then a
// Nelder–Mead climb in the tangent plane from the best few (independent of convexContact).
double bruteForceGap(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb) {
  const int count = 6000;
  std::vector<std::pair<double, Vec3>> samples;
  for (int i = 0; i < count; ++i) {
    const double z = 1.0 - 2.0 * (i + 0.5) / count, r = std::sqrt(1.0 - z * z),
                 phi = i * 2.399963229728653;
    const Vec3 n{r * std::cos(phi), r * std::sin(phi), z};
    samples.emplace_back(separation(a, pa, b, pb, n), n);
  }
  const int starts = 4;
  std::partial_sort(samples.begin(), samples.begin() + starts, samples.end(),
                    [](const auto& x, const auto& y) { return x.first > y.first; });
  double best = -std::numeric_limits<double>::infinity();
  for (int s = 0; s < starts; ++s) {
    Vec3 n0 = samples[static_cast<std::size_t>(s)].second;
    double f0 = samples[static_cast<std::size_t>(s)].first;
    for (int restart = 0; restart < 5; ++restart) {
      const Vec3 t1 = unit(cross(n0, std::abs(n0[0]) < 0.6 ? Vec3{1, 0, 0} : Vec3{0, 1, 0}));
      const Vec3 t2 = cross(n0, t1);
      auto at = [&](double x, double y) { return unit(add(n0, add(scale(t1, x), scale(t2, y)))); };
      auto F = [&](double x, double y) { return -separation(a, pa, b, pb, at(x, y)); };
      const double size = restart == 0 ? 0.03 : 1e-3 / restart;
      double P[3][2] = {{0, 0}, {size, 0}, {0, size}};
      double V[3];
      for (int i = 0; i < 3; ++i) V[i] = F(P[i][0], P[i][1]);
      for (int it = 0; it < 600; ++it) {
        int o[3] = {0, 1, 2};
        std::sort(o, o + 3, [&](int i, int j) { return V[i] < V[j]; });
        const int lo = o[0], mid = o[1], hi = o[2];
        const double c[2] = {(P[lo][0] + P[mid][0]) / 2, (P[lo][1] + P[mid][1]) / 2};
        auto setHi = [&](double x, double y, double f) {
          P[hi][0] = x;
          P[hi][1] = y;
          V[hi] = f;
        };
        const double r[2] = {2 * c[0] - P[hi][0], 2 * c[1] - P[hi][1]};
        const double fr = F(r[0], r[1]);
        if (fr < V[lo]) {
          const double e[2] = {3 * c[0] - 2 * P[hi][0], 3 * c[1] - 2 * P[hi][1]};
          const double fe = F(e[0], e[1]);
          if (fe < fr)
            setHi(e[0], e[1], fe);
          else
            setHi(r[0], r[1], fr);
        } else if (fr < V[mid]) {
          setHi(r[0], r[1], fr);
        } else {
          const double k[2] = {(c[0] + P[hi][0]) / 2, (c[1] + P[hi][1]) / 2};
          const double fk = F(k[0], k[1]);
          if (fk < V[hi]) {
            setHi(k[0], k[1], fk);
          } else {
            for (int i : {mid, hi}) {
              P[i][0] = (P[i][0] + P[lo][0]) / 2;
              P[i][1] = (P[i][1] + P[lo][1]) / 2;
              V[i] = F(P[i][0], P[i][1]);
            }
          }
        }
      }
      const int lo = V[0] < V[1] ? (V[0] < V[2] ? 0 : 2) : (V[1] < V[2] ? 1 : 2);
      n0 = at(P[lo][0], P[lo][1]);
      f0 = std::max(f0, -V[lo]);
    }
    best = std::max(best, f0);
  }
  return best;
}

// Closest point of the triangle (a, b, c) to p (Voronoi regions of the vertices, edges, face).
Vec3 closestOnTriangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = sub(p, b);
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return add(a, scale(ab, d1 / (d1 - d3)));
  const Vec3 cp = sub(p, c);
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return add(a, scale(ac, d2 / (d2 - d6)));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return add(b, scale(sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))));
  const double den = 1.0 / (va + vb + vc);
  return add(a, add(scale(ab, vb * den), scale(ac, vc * den)));
}

// Exact signed distance from the sphere (centre, radius) to the hull: outside, the distance
// to the nearest facet triangle; inside, minus the distance to the nearest facet plane.
double sphereHullGap(const Vec3& centre, double radius, const ConvexHullShape& hull,
                     const Pose& ph) {
  const Vec3 c = ph.toBody(centre);
  const auto& v = hull.vertices();
  double inside = std::numeric_limits<double>::infinity(),
         outside = std::numeric_limits<double>::infinity();
  bool isInside = true;
  for (const auto& t : hull.triangles()) {
    const Vec3 n = unit(cross(sub(v[t[1]], v[t[0]]), sub(v[t[2]], v[t[0]])));
    const double h = dot(n, sub(c, v[t[0]]));
    if (h > 0) isInside = false;
    inside = std::min(inside, -h);
    outside = std::min(outside, norm(sub(c, closestOnTriangle(c, v[t[0]], v[t[1]], v[t[2]]))));
  }
  return (isInside ? -inside : outside) - radius;
}

// --- the spurious deep contacts of Examples/MixedPile (libccd MPR, fixed) -------------------

// Hull 13 of `MixedPile --steps 560` (its shape's world pose at step 549) and sphere 77:
// MPR reported gap −0.149 m; the shapes are 1.155 mm apart (inside the 1.156 mm margin).
const std::vector<Vec3> kPileHull = {
    {-0.035893497962467595, 0.04683564654959238, -0.015248979704986372},
    {0.062898999706033965, 0.019570467129723858, 0.018493282186385972},
    {-0.045871478002634469, -0.017225643650478503, -0.034134508349864048},
    {-0.026879244957002554, 0.050858219911014704, -0.014258595555001311},
    {-0.018839796181276337, -0.047826946743482722, -0.023568146397199251},
    {-0.067645593063138817, 0.019284449705345034, -0.0096625208326604917},
    {0.026639570317250127, -0.05184505869157055, -0.011864300210907957},
    {-0.062451285979094828, 0.024864482409032045, 0.014412498844048766},
    {-0.062698283703021884, 0.026243429264482976, 0.012155980603887676},
    {-0.041331298831114346, 0.045837610361405295, 0.010995601580183301},
    {0.0064431279241254479, 0.051034502969203414, 0.02174186736426462},
    {0.054793802141927139, -0.033475032725536251, 0.0155716610820812},
    {0.035014552501691734, -0.032204936841093178, -0.032131295338526093},
    {-0.04798901754640205, 0.030158683906627116, 0.025938189022332248}};
const Pose kPileHullPose =
    pose({-0.69864624951970755, -0.41542104227634424, 0.039027472417810606},
         {-0.13549203689133082, 0.21673692509969536, -0.13407673324936273, 0.95743952437662905});
const Vec3 kPileSphereCentre{-0.58807885958245709, -0.4736106852386856, 0.076716822794225495};
const double kPileSphereRadius = 0.07673473235689654;
const double kPileMargin = 0.0011559675662308421;

}  // namespace

class PlaneContactsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(PlaneContactsTest);
  CPPUNIT_TEST(hullsRestingOnAFace);
  CPPUNIT_TEST(hullEdgeAndVertexAndMargin);
  CPPUNIT_TEST(hullFaceOfManyVerticesReducedStably);
  CPPUNIT_TEST(hullOfMoreThan32VerticesKeepsKeysDistinct);
  CPPUNIT_TEST(cylinderStandingLyingTilted);
  CPPUNIT_TEST(detectorDispatchesHullAndCylinder);
  CPPUNIT_TEST(bodiesComeToRestOnTheirFaces);
  CPPUNIT_TEST(mixedPileSpuriousContacts);
  CPPUNIT_TEST(sphereHullAgainstExactDistance);
  CPPUNIT_TEST(capsuleCylinderAgainstBruteForce);
  CPPUNIT_TEST(sphereOffBoxEdgeAgainstClosedForm);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// A cube, a tetrahedron and an irregular hull resting on a face, on a tilted plane, turned
  /// about its normal, penetrating / touching / within the margin: one contact per vertex of
  /// that face (4, 3, 3), each gap the exact height, featureA the vertex index.
  void hullsRestingOnAFace() {
    struct Case {
      std::string name;
      std::vector<Vec3> points;
      Vec3 faceNormal;             // outward normal of the resting face, body frame
      std::set<int> faceVertices;  // indices into the hull's vertices()
    };
    const std::vector<Case> cases = {{"cube", cubePoints(0.05), {0, 0, -1}, {0, 1, 2, 3}},
                                     {"tetrahedron",
                                      {{0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0}, {0, 0, 0.1}},
                                      unit({1, 1, 1}),
                                      {1, 2, 3}},
                                     {"irregular",
                                      {{-0.04, -0.03, 0.0},
                                       {0.05, -0.02, 0.0},
                                       {0.01, 0.045, 0.0},
                                       {-0.02, 0.01, 0.06},
                                       {0.03, 0.02, 0.04},
                                       {0.0, -0.01, 0.05},
                                       {-0.025, 0.02, 0.03}},
                                      {0, 0, -1},
                                      {0, 1, 2}}};
    const Plane pl = plane({0.2, -0.3, 1.0}, 0.07);
    for (const Case& c : cases) {
      const ConvexHullShape hull(c.points);
      CPPUNIT_ASSERT_EQUAL(c.points.size(), hull.vertices().size());
      // Orientation: the face normal onto −n, then a turn about n.
      const Quat faceDown = quaternion::multiply(zTo({-pl.normal[0], -pl.normal[1], -pl.normal[2]}),
                                                 quaternion::conjugate(zTo(c.faceNormal)));
      const Quat q = quaternion::multiply(fromAxisAngle(pl.normal, 0.7), faceDown);
      const Vec3 onFace = c.points[static_cast<std::size_t>(*c.faceVertices.begin())];
      for (double h : {-2e-4, 0.0, 3e-4}) {
        // Place the face at height h above the plane.
        Pose p = pose({0.3, -0.2, 0.0}, q);
        const double now = dot(pl.normal, p.toWorld(onFace)) - pl.offset;
        p.position = add(p.position, scale(pl.normal, h - now));
        ContactList out;
        const int count = hullPlane(p, hull.vertices(), pl, 1e-3, out);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(c.name, static_cast<int>(c.faceVertices.size()), count);
        std::set<int> seen;
        for (const ContactPoint& cp : out) {
          assertConsistent(cp);
          CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(c.name, h, cp.gap, 1e-14);
          for (std::size_t k = 0; k < 3; ++k)
            CPPUNIT_ASSERT_DOUBLES_EQUAL(pl.normal[k], cp.normal[k], 1e-15);
          const Vec3 v = p.toWorld(hull.vertices()[static_cast<std::size_t>(cp.featureA)]);
          for (std::size_t k = 0; k < 3; ++k)
            CPPUNIT_ASSERT_DOUBLES_EQUAL(v[k], cp.pointA[k], 1e-14);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, dot(pl.normal, cp.pointB) - pl.offset, 1e-14);
          CPPUNIT_ASSERT_EQUAL(0, cp.featureB);
          seen.insert(cp.featureA);
        }
        CPPUNIT_ASSERT_MESSAGE(c.name, seen == c.faceVertices);
        CPPUNIT_ASSERT(std::is_sorted(
            out.begin(), out.end(),
            [](const ContactPoint& x, const ContactPoint& y) { return x.featureA < y.featureA; }));
      }
    }
  }

  /// A cube on an edge (2 points) and on a vertex (1 point); far above: none; a large
  /// margin takes in the upper vertices, still at most 4 points, the deepest kept.
  void hullEdgeAndVertexAndMargin() {
    const ConvexHullShape cube(cubePoints(0.05));
    const Plane floor = plane({0, 0, 1}, 0.0);
    const double d = 0.05 * std::sqrt(2.0);
    ContactList out;
    // On the edge x = −a, z = −a (vertices 0 and 2): turned by 45° about y.
    const Pose edge = pose({0, 0, d - 1e-4}, fromAxisAngle({0, 1, 0}, M_PI / 4));
    CPPUNIT_ASSERT_EQUAL(2, hullPlane(edge, cube.vertices(), floor, 1e-3, out));
    for (const ContactPoint& c : out) CPPUNIT_ASSERT_DOUBLES_EQUAL(-1e-4, c.gap, 1e-15);
    // On a vertex: the body diagonal along z.
    out.clear();
    const Quat vq = quaternion::conjugate(zTo(unit({-1, -1, -1})));  // (1, 1, 1) down
    const Pose vertex = pose({0, 0, 0.05 * std::sqrt(3.0) + 2e-4}, vq);
    CPPUNIT_ASSERT_EQUAL(1, hullPlane(vertex, cube.vertices(), floor, 1e-3, out));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2e-4, out[0].gap, 1e-15);
    const Vec3 low = vertex.toWorld(cube.vertices()[static_cast<std::size_t>(out[0].featureA)]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2e-4, low[2], 1e-15);  // the vertex (+a, +a, +a), turned down
    CPPUNIT_ASSERT_EQUAL(7, out[0].featureA);
    out.clear();
    CPPUNIT_ASSERT_EQUAL(0, hullPlane(vertex, cube.vertices(), floor, 1e-4, out));
    // Margin 1 m: all 8 vertices qualify, 4 kept, the deepest among them.
    out.clear();
    const Pose tilted = pose({0, 0, 0.1}, fromAxisAngle({1, 2, 0.5}, 0.4));
    CPPUNIT_ASSERT_EQUAL(4, hullPlane(tilted, cube.vertices(), floor, 1.0, out));
    double deepest = 1e9;
    for (const Vec3& v : cube.vertices()) deepest = std::min(deepest, tilted.toWorld(v)[2]);
    double least = 1e9;
    for (const ContactPoint& c : out) least = std::min(least, c.gap);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(deepest, least, 1e-15);
  }

  /// A hexagonal prism on its hexagon: 6 candidates, 4 kept (the rule: deepest, farthest,
  /// largest triangle, largest added area), the same 4 under round-off tilts and heights.
  void hullFaceOfManyVerticesReducedStably() {
    const ConvexHullShape prism(prismPoints(6, 0.05, 0.03));
    CPPUNIT_ASSERT_EQUAL(std::size_t(12), prism.vertices().size());
    const Plane floor = plane({0, 0, 1}, 0.0);
    std::set<int> reference;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int trial = 0; trial < 50; ++trial) {
      const Quat q = trial == 0 ? Quat{1, 0, 0, 0}
                                : fromAxisAngle({u(rng), u(rng), 0.0}, 1e-10 * (1.0 + u(rng)));
      const Pose p = pose({0.01, 0.02, trial == 0 ? 0.0 : 1e-9 * u(rng)}, q);
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(4, hullPlane(p, prism.vertices(), floor, 1e-3, out));
      std::set<int> f;
      for (const ContactPoint& c : out) {
        CPPUNIT_ASSERT(c.featureA < 6);  // bottom vertices
        CPPUNIT_ASSERT_DOUBLES_EQUAL(
            p.toWorld(prism.vertices()[static_cast<std::size_t>(c.featureA)])[2], c.gap, 1e-15);
        f.insert(c.featureA);
      }
      if (trial == 0) reference = f;
      CPPUNIT_ASSERT(f == reference);
    }
    // Flat: the lowest index is the deepest (0), then its opposite (3), then the largest
    // triangle with 0–3 (1, the first of 1, 2, 4, 5), then the largest area added (4).
    CPPUNIT_ASSERT(reference == (std::set<int>{0, 1, 3, 4}));
    // A clear tilt: the deepest vertex is kept.
    const Pose tilted = pose({0, 0, 0.0}, fromAxisAngle({1, 0, 0}, 0.01));
    ContactList out;
    CPPUNIT_ASSERT_EQUAL(4, hullPlane(tilted, prism.vertices(), floor, 1e-3, out));
    double deepest = 1e9;
    for (int k = 0; k < 6; ++k)
      deepest = std::min(deepest, tilted.toWorld(prism.vertices()[static_cast<std::size_t>(k)])[2]);
    double least = 1e9;
    for (const ContactPoint& c : out) least = std::min(least, c.gap);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(deepest, least, 1e-15);
  }

  /// A 40-gon prism (80 vertices) on its base: 4 points whose features fit the key's 5 bits
  /// and are distinct; vertex index mod 32 when the residues differ, the rank otherwise.
  void hullOfMoreThan32VerticesKeepsKeysDistinct() {
    const ConvexHullShape prism(prismPoints(40, 0.05, 0.02));
    CPPUNIT_ASSERT_EQUAL(std::size_t(80), prism.vertices().size());
    const Plane floor = plane({0, 0, 1}, 0.0);
    for (double turn : {0.0, 0.3, 1.1, 2.0}) {
      // Tilted a little about a horizontal axis so that the deepest vertex varies.
      const Pose p = pose({0, 0, 0}, fromAxisAngle({std::cos(turn), std::sin(turn), 0}, 1e-3));
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(4, hullPlane(p, prism.vertices(), floor, 1e-3, out));
      std::set<int> f;
      for (const ContactPoint& c : out) {
        CPPUNIT_ASSERT(c.featureA >= 0 && c.featureA < 32);
        f.insert(c.featureA);
      }
      CPPUNIT_ASSERT_EQUAL(std::size_t(4), f.size());
    }
  }

  /// Standing: 4 points of the lower rim (body x, y, −x, −y); lying: the two ends of the
  /// lowest line; tilted: the deepest rim point; exact gaps, on a tilted plane too.
  void cylinderStandingLyingTilted() {
    const double r = 0.04, L = 0.06, margin = 1e-3;
    for (const Vec3& nrm : {Vec3{0, 0, 1}, unit({0.3, -0.2, 1.0})}) {
      const Plane pl = plane(nrm, -0.02);
      const Vec3& n = pl.normal;
      const Quat up = zTo(n);
      auto centreAt = [&](double height) { return scale(n, pl.offset + height); };
      // Standing on its −z cap, the cap 1e-4 into the plane.
      {
        const Pose p =
            pose(centreAt(L - 1e-4), quaternion::multiply(up, fromAxisAngle({0, 0, 1}, 0.3)));
        ContactList out;
        CPPUNIT_ASSERT_EQUAL(4, cylinderPlane(p, r, L, pl, margin, out));
        for (int k = 0; k < 4; ++k) {
          const ContactPoint& c = out[static_cast<std::size_t>(k)];
          assertConsistent(c);
          CPPUNIT_ASSERT_EQUAL(8 + k, c.featureA);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(-1e-4, c.gap, 1e-15);
          const Vec3 body[4] = {{r, 0, -L}, {0, r, -L}, {-r, 0, -L}, {0, -r, -L}};
          const Vec3 w = p.toWorld(body[k]);
          for (std::size_t j = 0; j < 3; ++j)
            CPPUNIT_ASSERT_DOUBLES_EQUAL(w[j], c.pointA[j], 1e-15);
        }
      }
      // Lying: axis perpendicular to n, the axis at height r − 2e-4.
      {
        const Quat lying = quaternion::multiply(up, fromAxisAngle({1, 0, 0}, M_PI / 2));
        const Pose p = pose(centreAt(r - 2e-4), lying);
        ContactList out;
        CPPUNIT_ASSERT_EQUAL(2, cylinderPlane(p, r, L, pl, margin, out));
        CPPUNIT_ASSERT_EQUAL(8, out[0].featureA);
        CPPUNIT_ASSERT_EQUAL(12, out[1].featureA);
        const Vec3 axis = p.rotate({0, 0, 1});
        for (const ContactPoint& c : out) {
          assertConsistent(c);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(-2e-4, c.gap, 1e-15);
          // the ends of the lowest line: ±L along the axis from the centre's foot
          const Vec3 foot = sub(p.position, scale(n, r));
          CPPUNIT_ASSERT_DOUBLES_EQUAL(L, std::abs(dot(sub(c.pointA, foot), axis)), 1e-15);
          CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, norm(cross(sub(c.pointA, foot), axis)), 1e-15);
        }
      }
      // Tilted by 0.3 rad: one point, the deepest of the lower rim, gap exact.
      {
        const double alpha = 0.3;
        const Quat tilted = quaternion::multiply(up, fromAxisAngle({1, 0, 0}, alpha));
        const double lowest =
            L * std::cos(alpha) + r * std::sin(alpha);  // centre height when touching
        const Pose p = pose(centreAt(lowest + 5e-4), tilted);
        ContactList out;
        CPPUNIT_ASSERT_EQUAL(1, cylinderPlane(p, r, L, pl, margin, out));
        assertConsistent(out[0]);
        CPPUNIT_ASSERT_EQUAL(8, out[0].featureA);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(5e-4, out[0].gap, 1e-15);
        // the support point of the cylinder in −n is that rim point
        const CylinderShape cyl(r, L);
        const Vec3 s = cyl.supportWorld(scale(n, -1.0), p.position, p.orientation);
        for (std::size_t j = 0; j < 3; ++j)
          CPPUNIT_ASSERT_DOUBLES_EQUAL(s[j], out[0].pointA[j], 1e-15);
        // a margin taking in the +90° / −90° points of the lower cap too: 3 points
        out.clear();
        CPPUNIT_ASSERT_EQUAL(3, cylinderPlane(p, r, L, pl, r * std::sin(alpha) + 1e-3, out));
        CPPUNIT_ASSERT_EQUAL(8, out[0].featureA);
        CPPUNIT_ASSERT_EQUAL(9, out[1].featureA);
        CPPUNIT_ASSERT_EQUAL(11, out[2].featureA);
      }
      // Far above: nothing.
      ContactList none;
      CPPUNIT_ASSERT_EQUAL(0, cylinderPlane(pose(centreAt(L + 0.01), up), r, L, pl, margin, none));
    }
  }

  /// The ContactDetector (both simulators' detection) gives a hull its face's vertices and a
  /// cylinder its rim points on a half-space, with distinct keys.
  void detectorDispatchesHullAndCylinder() {
    std::vector<BodyShapes> bodies;
    bodies.push_back(makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
    bodies.push_back(makeBody({inst(std::make_shared<ConvexHullShape>(cubePoints(0.05)))}, 1000.0,
                              {0, 0, 0.05 - 1e-5}));
    bodies.push_back(makeBody({inst(std::make_shared<CylinderShape>(0.04, 0.06))}, 1000.0,
                              {0.5, 0, 0.06 - 1e-5}));
    bodies.push_back(makeBody({inst(std::make_shared<CylinderShape>(0.04, 0.06))}, 1000.0,
                              {1.0, 0, 0.04 - 1e-5}, fromAxisAngle({0, 1, 0}, M_PI / 2)));
    ContactDetector::Options o;
    o.margin = 1e-3;
    o.breakingDistance = 1e-3;
    o.threads = 1;
    ContactDetector det(bodies, o);
    const auto& c = det.detect();
    int perBody[4] = {0, 0, 0, 0};
    std::set<std::uint64_t> keys;
    for (const DetectedContact& d : c) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-1e-5, d.gap, 1e-12);
      ++perBody[d.bodyB];
      keys.insert(d.key);
    }
    CPPUNIT_ASSERT_EQUAL(4, perBody[1]);
    CPPUNIT_ASSERT_EQUAL(4, perBody[2]);
    CPPUNIT_ASSERT_EQUAL(2, perBody[3]);
    CPPUNIT_ASSERT_EQUAL(c.size(), keys.size());
  }

  /// Bodies dropped 1 mm onto a floor, 1 s at h = 1 ms, by both simulators: a cube hull and
  /// a tetrahedron rest on a face, a cylinder stands and one lies; the centre height is
  /// the exact resting value within 1e-4 m and does not sink between 0.5 s and 1 s (with one
  /// support point they sank about 2 cm/s and 2.5 mm/s).
  void bodiesComeToRestOnTheirFaces() {
    const double h = 1e-3;
    const int steps = 1000;
    struct Part {
      std::string name;
      std::shared_ptr<const Shape> shape;
      Quat orientation;
      double height;  // centre of mass at rest
    };
    const double s = 0.1, r = 0.04, L = 0.05;
    const std::vector<Part> parts = {
        {"cube hull", std::make_shared<ConvexHullShape>(cubePoints(0.05)),
         fromAxisAngle({0, 0, 1}, 0.3), 0.05},
        {"tetrahedron",
         std::make_shared<ConvexHullShape>(
             std::vector<Vec3>{{0, 0, 0}, {s, 0, 0}, {0, s, 0}, {0, 0, s}}),
         Quat{1, 0, 0, 0}, s / 4},
        {"standing cylinder", std::make_shared<CylinderShape>(r, L), Quat{1, 0, 0, 0}, L},
        {"lying cylinder", std::make_shared<CylinderShape>(r, L),
         fromAxisAngle({1, 0, 0}, M_PI / 2), r}};
    std::vector<BodySpec> specs;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      BodySpec b;
      b.name = parts[k].name;
      b.shapes = {inst(parts[k].shape)};
      b.density = 1000.0;
      b.orientation = parts[k].orientation;
      const Vec3 low = parts[k].shape->supportWorld({0, 0, -1}, {0, 0, 0}, parts[k].orientation);
      b.position = {0.3 * static_cast<double>(k), 0.0, 1e-3 - low[2]};
      specs.push_back(b);
    }
    const BodyShapes floor =
        makeStaticBody({inst(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))});
    const ContactMaterial material{0.5, 0.0};

    // The Kernel: TimeStepping + ContactManager + MoreauJeanOSI(0.5).
    auto model = std::make_shared<Model>(0.0, (steps + 0.5) * h);
    auto problem = std::make_shared<FrictionContact>(3, "nsgs");
    problem->optionsMutable().tolerance = 1e-12;
    problem->optionsMutable().max_iterations = 100000;
    auto sim = std::make_shared<TimeStepping>(std::make_shared<TimeDiscretisation>(0.0, h),
                                              std::make_shared<MoreauJeanOSI>(0.5), problem);
    auto contacts = std::make_shared<ContactManager>();
    sim->insertInteractionManager(contacts);
    contacts->setDefaultMaterial(material);
    contacts->addBody(*model->nonSmoothDynamicalSystem(), floor);
    std::vector<SP::NewtonEulerDS> kernelBodies;
    for (const BodySpec& spec : specs) {
      BodyShapes b = makeBody(spec);
      b.body()->setFExt(SiconosVector({0.0, 0.0, -b.body()->scalarMass() * kG}));
      kernelBodies.push_back(b.body());
      contacts->addBody(*model->nonSmoothDynamicalSystem(), std::move(b));
    }
    model->initialize(sim);

    // The SceneEngine on the same scene.
    SceneEngine::Options eo;
    eo.h = h;
    eo.solver = "nsgs";
    nsd_solver_options_default(&eo.solverOptions);
    eo.solverOptions.tolerance = 1e-12;
    eo.solverOptions.max_iterations = 100000;
    eo.contacts.detection.threads = 1;
    SceneEngine engine(eo);
    engine.setDefaultMaterial(material);
    engine.addBody(floor);
    for (const BodySpec& spec : specs) engine.addBody(spec);

    std::vector<double> kernelHalf(parts.size()), engineHalf(parts.size());
    for (int step = 1; step <= steps; ++step) {
      sim->computeOneStep();
      sim->nextStep();
      engine.step();
      if (step == steps / 2) {
        for (std::size_t k = 0; k < parts.size(); ++k) {
          kernelHalf[k] = kernelBodies[k]->q()(2);
          engineHalf[k] = engine.bodies().q[7 * (k + 1) + 2];
        }
      }
    }
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const double zk = kernelBodies[k]->q()(2), ze = engine.bodies().q[7 * (k + 1) + 2];
      const std::string what =
          parts[k].name + ": kernel " + std::to_string(zk) + ", engine " + std::to_string(ze);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, parts[k].height, zk, 1e-4);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, parts[k].height, ze, 1e-4);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + " (sinking)", kernelHalf[k], zk, 1e-6);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + " (sinking)", engineHalf[k], ze, 1e-6);
      CPPUNIT_ASSERT_MESSAGE(what, engine.bodies().kineticEnergy(k + 1) < 1e-10);
    }
  }

  /// libccd's MPR reported, for one step, contacts tens of centimetres deep between shapes
  /// that were not even touching (Examples/MixedPile: sphere–hull −0.149 m, capsule–cylinder
  /// −0.125 m; the true gaps are +1.155 mm, inside the margin). Its direction, taken from
  /// the nearest point of a portal that all but touches the origin, was arbitrary, and the
  /// gap measured along it the overlap of the shapes' extents. convexContact now searches
  /// the least overlap over directions itself; both gaps within 1e-8 of the exact value.
  void mixedPileSpuriousContacts() {
    {
      const ConvexHullShape hull(kPileHull);
      const SphereShape sphere(kPileSphereRadius);
      const double exact = sphereHullGap(kPileSphereCentre, kPileSphereRadius, hull, kPileHullPose);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.1552e-3, exact, 1e-7);
      for (int order = 0; order < 2; ++order) {
        ContactList out;
        const int n = order == 0 ? convexContact(hull, kPileHullPose, sphere,
                                                 pose(kPileSphereCentre), kPileMargin, out)
                                 : convexContact(sphere, pose(kPileSphereCentre), hull,
                                                 kPileHullPose, kPileMargin, out);
        CPPUNIT_ASSERT_EQUAL(1, n);
        assertConsistent(out[0]);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(exact, out[0].gap, 1e-8);
      }
    }
    {
      const CapsuleShape capsule(0.036399019689953273, 0.041598879645660877);
      const CylinderShape cylinder(0.047116916449158427, 0.047116916449158427);
      const Pose pc = pose(
          {-0.25994916982439276, -0.44511764290828332, 0.036336375443031622},
          {-0.38883152369389534, -0.69428836318949327, -0.13145376350975313, -0.59117985671085549});
      const Pose py = pose(
          {-0.12491925130694648, -0.44949972711313335, 0.038849925811406845},
          {0.16446745896431059, -0.57092473931312715, 0.41713708333229438, -0.6877441753232727});
      const double reference = bruteForceGap(capsule, pc, cylinder, py);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(1.1556e-3, reference, 1e-7);
      ContactList out;
      CPPUNIT_ASSERT_EQUAL(1, convexContact(capsule, pc, cylinder, py, kPileMargin, out));
      assertConsistent(out[0]);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(reference, out[0].gap, 1e-8);
    }
  }

  /// Random spheres against random hulls (14 points on an ellipsoid, as in MixedPile), from
  /// 2 cm apart to deep overlap: convexContact's gap within 1e-8 of the exact signed distance
  /// (nearest facet), and no contact beyond the margin.
  void sphereHullAgainstExactDistance() {
    std::mt19937 rng(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::normal_distribution<double> g;
    const double margin = 1e-3;
    double worst = 0.0;
    int contacts = 0;
    for (int trial = 0; trial < 400; ++trial) {
      std::vector<Vec3> pts;
      for (int k = 0; k < 14; ++k) {
        const Vec3 d = unit({g(rng), g(rng), g(rng)});
        pts.push_back({0.07 * d[0], 0.05 * d[1], 0.035 * d[2]});
      }
      const ConvexHullShape hull(pts);
      const double radius = 0.03 + 0.04 * (0.5 + 0.5 * u(rng));
      const Pose ph = pose({u(rng), u(rng), u(rng)},
                           fromAxisAngle({u(rng), u(rng), u(rng) + 1e-3}, 3.0 * u(rng)));
      // centre along a random direction, at a random signed distance from the hull
      const Vec3 dir = unit({g(rng), g(rng), g(rng)});
      const double target = -0.03 + 0.05 * (0.5 + 0.5 * u(rng));
      // bisection on the distance along dir for gap = target
      double lo = 0.0, hi = 0.3;
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        const Vec3 c = add(ph.toWorld(hull.centroid()), scale(dir, mid));
        (sphereHullGap(c, radius, hull, ph) < target ? lo : hi) = mid;
      }
      const Vec3 centre = add(ph.toWorld(hull.centroid()), scale(dir, 0.5 * (lo + hi)));
      const double exact = sphereHullGap(centre, radius, hull, ph);
      const SphereShape sphere(radius);
      ContactList out;
      const int n = convexContact(sphere, pose(centre), hull, ph, margin, out);
      if (exact > margin + 1e-9) {
        CPPUNIT_ASSERT_EQUAL(0, n);
        continue;
      }
      if (exact < margin - 1e-9) CPPUNIT_ASSERT_EQUAL(1, n);
      if (n == 0) continue;
      ++contacts;
      assertConsistent(out[0]);
      worst = std::max(worst, std::abs(out[0].gap - exact));
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE("trial " + std::to_string(trial), exact, out[0].gap,
                                           1e-8);
    }
    CPPUNIT_ASSERT(contacts > 200);
  }

  /// Random capsule–cylinder pairs (the sizes of MixedPile) from apart to deep overlap:
  /// the gap within 1e-7 of a brute-force search over directions (never below it: a
  /// spurious deep answer would be), the normal's separation equal to the gap.
  void capsuleCylinderAgainstBruteForce() {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const double margin = 1e-3;
    int contacts = 0;
    for (int trial = 0; trial < 40; ++trial) {
      const CapsuleShape capsule(0.035 + 0.003 * u(rng), 0.04 + 0.003 * u(rng));
      const CylinderShape cylinder(0.047 + 0.003 * u(rng), 0.047 + 0.003 * u(rng));
      const Pose pc = pose({0, 0, 0}, fromAxisAngle({u(rng), u(rng), u(rng) + 1e-3}, 3.0 * u(rng)));
      const Pose py = pose({0.09 * u(rng), 0.09 * u(rng), 0.09 * u(rng)},
                           fromAxisAngle({u(rng), u(rng), u(rng) + 1e-3}, 3.0 * u(rng)));
      const double reference = bruteForceGap(capsule, pc, cylinder, py);
      ContactList out;
      const int n = convexContact(capsule, pc, cylinder, py, margin, out);
      if (reference > margin + 1e-7) {
        CPPUNIT_ASSERT_EQUAL(0, n);
        continue;
      }
      if (reference < margin - 1e-7) CPPUNIT_ASSERT_EQUAL(1, n);
      if (n == 0) continue;
      ++contacts;
      assertConsistent(out[0]);
      const std::string what =
          "trial " + std::to_string(trial) + " reference " + std::to_string(reference);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, reference, out[0].gap, 1e-7);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(out[0].gap, separation(capsule, pc, cylinder, py, out[0].normal),
                                   1e-12);
    }
    CPPUNIT_ASSERT(contacts > 20);
  }

  /// A sphere off a box's edges and corners (the normal along the centre's offset from
  /// the edge or corner, where libccd's MPR was off by up to ~18°), separated within the
  /// margin and penetrating: gap and normal of convexContact equal narrowphase::sphereBox's.
  void sphereOffBoxEdgeAgainstClosedForm() {
    const Vec3 half{0.05, 0.03, 0.02};
    const BoxShape box(half);
    const Pose pb = pose({0.2, -0.1, 0.3}, fromAxisAngle({0.3, -0.5, 1.0}, 0.8));
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    int count = 0;
    for (int trial = 0; trial < 200; ++trial) {
      const double r = 0.02 + 0.01 * (0.5 + 0.5 * u(rng));
      // a point outside beyond at least two faces (an edge or corner region), at a
      // distance r + g from the box
      Vec3 local{u(rng) * half[0], u(rng) * half[1], u(rng) * half[2]};
      const int k = trial % 3;
      local[static_cast<std::size_t>((k + 1) % 3)] =
          (u(rng) > 0 ? 1 : -1) * half[static_cast<std::size_t>((k + 1) % 3)];
      local[static_cast<std::size_t>((k + 2) % 3)] =
          (u(rng) > 0 ? 1 : -1) * half[static_cast<std::size_t>((k + 2) % 3)];
      if (trial % 4 == 0)
        local[static_cast<std::size_t>(k)] =
            (u(rng) > 0 ? 1 : -1) * half[static_cast<std::size_t>(k)];
      Vec3 out{0, 0, 0};
      for (int j : {(k + 1) % 3, (k + 2) % 3})
        out[static_cast<std::size_t>(j)] = local[static_cast<std::size_t>(j)] > 0 ? 1 : -1;
      if (trial % 4 == 0)
        out[static_cast<std::size_t>(k)] = local[static_cast<std::size_t>(k)] > 0 ? 1 : -1;
      out = unit(add(out, scale(Vec3{u(rng), u(rng), u(rng)}, 0.3)));
      for (std::size_t j = 0; j < 3; ++j)
        if (out[j] * local[j] < 0 && std::abs(std::abs(local[j]) - half[j]) < 1e-15) out[j] = 0;
      out = unit(out);
      const double g = -0.004 + 0.005 * (0.5 + 0.5 * u(rng));
      const Vec3 centre = pb.toWorld(add(local, scale(out, r + g)));
      ContactList closed, ccd;
      const int nc = sphereBox(centre, r, pb, half, 1e-3, closed);
      const int nv = convexContact(SphereShape(r), pose(centre), box, pb, 1e-3, ccd);
      CPPUNIT_ASSERT_EQUAL(nc, nv);
      if (nc == 0) continue;
      ++count;
      assertConsistent(ccd[0]);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(closed[0].gap, ccd[0].gap, 1e-9);
      for (std::size_t j = 0; j < 3; ++j)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(closed[0].normal[j], ccd[0].normal[j], 1e-6);
    }
    CPPUNIT_ASSERT(count > 100);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PlaneContactsTest);
