// Shapes with exact mass properties (Kernel/src/mechanics/shapes): closed forms,
// Qhull convex hulls, support points, AABBs, composite bodies, bad input.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <memory>
#include <random>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/CapsuleShape.hpp>
#include <nsdyn/ConvexHullShape.hpp>
#include <nsdyn/CylinderShape.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/SphereShape.hpp>

using namespace nsdyn;
using Vec3 = Shape::Vec3;
using Quat = Shape::Quat;
using Mat3 = Shape::Mat3;

namespace {

double maxDiff(const Mat3& a, const Mat3& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) d = std::max(d, std::abs(a[i][j] - b[i][j]));
  return d;
}

Mat3 diag(double a, double b, double c) {
  return Mat3{Vec3{a, 0, 0}, Vec3{0, b, 0}, Vec3{0, 0, c}};
}

Mat3 rotateInertia(const Quat& q, const Mat3& I) {
  const SimpleMatrix R = quaternion::rotationMatrix(q);
  Mat3 out{};
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t a = 0; a < 3; ++a)
        for (std::size_t b = 0; b < 3; ++b) out[i][j] += R(i, a) * I[a][b] * R(j, b);
  return out;
}

std::vector<Vec3> boxCorners(const Vec3& h) {
  std::vector<Vec3> p;
  for (int i = 0; i < 8; ++i)
    p.push_back({(i & 1 ? 1 : -1) * h[0], (i & 2 ? 1 : -1) * h[1], (i & 4 ? 1 : -1) * h[2]});
  return p;
}

const Quat rotated = quaternion::fromAxisAngle({1.0, 2.0, -0.5}, 0.7);

}  // namespace

class ShapesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ShapesTest);
  CPPUNIT_TEST(sphere);
  CPPUNIT_TEST(box);
  CPPUNIT_TEST(capsule);
  CPPUNIT_TEST(cylinder);
  CPPUNIT_TEST(hullOfBoxCornersIsTheBox);
  CPPUNIT_TEST(hullOfOctahedronWithInteriorPoints);
  CPPUNIT_TEST(hullOfRotatedCubeRotatesInertia);
  CPPUNIT_TEST(supportPoints);
  CPPUNIT_TEST(boundingBoxesAtRotatedPose);
  CPPUNIT_TEST(halfSpace);
  CPPUNIT_TEST(compositeBodyParallelAxis);
  CPPUNIT_TEST(bodyFromMassAndExplicitInertia);
  CPPUNIT_TEST(staticBody);
  CPPUNIT_TEST(badInputsThrow);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sphere() {
    const double r = 0.3;
    SphereShape s(r);
    const double V = 4.0 / 3.0 * M_PI * r * r * r;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(V, s.volume(), 1e-15);
    CPPUNIT_ASSERT(maxDiff(s.inertiaPerUnitDensity(),
                           diag(0.4 * V * r * r, 0.4 * V * r * r, 0.4 * V * r * r)) < 1e-16);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(r, s.characteristicSize(), 0.0);
    CPPUNIT_ASSERT(s.kind() == ShapeKind::Sphere);
    CPPUNIT_ASSERT_EQUAL(std::string("SphereShape"), s.kindName());
  }

  void box() {
    BoxShape b({0.5, 1.0, 1.5});  // full sizes 1, 2, 3
    const double m = 6.0;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(m, b.volume(), 1e-14);
    CPPUNIT_ASSERT(maxDiff(b.inertiaPerUnitDensity(),
                           diag(m / 12 * (4 + 9), m / 12 * (1 + 9), m / 12 * (1 + 4))) < 1e-14);
    const Vec3 h = b.localHalfExtents();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.5, h[2], 0.0);
  }

  void capsule() {
    const double r = 0.2, L = 0.5;
    CapsuleShape c(r, L);
    const double vc = M_PI * r * r * 2 * L, vs = 4.0 / 3.0 * M_PI * r * r * r;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(vc + vs, c.volume(), 1e-15);
    // Hemisphere (volume vs/2): about its centroid 83/320 m r², centroid at L + 3r/8.
    const double hemi =
        2 * (vs / 2 * (83.0 / 320.0) * r * r + vs / 2 * (L + 3 * r / 8) * (L + 3 * r / 8));
    const double transverse = vc * (3 * r * r + 4 * L * L) / 12 + hemi;
    const double axial = vc * r * r / 2 + 0.4 * vs * r * r;
    CPPUNIT_ASSERT(maxDiff(c.inertiaPerUnitDensity(), diag(transverse, transverse, axial)) < 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(r + L, c.localHalfExtents()[2], 1e-15);
  }

  void cylinder() {
    const double r = 0.4, L = 0.25, h = 2 * L;
    CylinderShape c(r, L);
    const double V = M_PI * r * r * h;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(V, c.volume(), 1e-15);
    const double t = V * (3 * r * r + h * h) / 12;
    CPPUNIT_ASSERT(maxDiff(c.inertiaPerUnitDensity(), diag(t, t, V * r * r / 2)) < 1e-15);
  }

  void hullOfBoxCornersIsTheBox() {
    const Vec3 h{0.5, 1.0, 1.5};
    BoxShape b(h);
    ConvexHullShape hull(boxCorners(h));
    CPPUNIT_ASSERT_EQUAL(std::size_t(8), hull.vertices().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(12), hull.triangles().size());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(b.volume(), hull.volume(), 1e-12);
    for (std::size_t i = 0; i < 3; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, hull.centroid()[i], 1e-12);
    CPPUNIT_ASSERT(maxDiff(b.inertiaPerUnitDensity(), hull.inertiaPerUnitDensity()) < 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(b.characteristicSize(), hull.characteristicSize(), 1e-12);
  }

  void hullOfOctahedronWithInteriorPoints() {
    // Regular octahedron |x| + |y| + |z| ≤ a, shifted, plus random interior points:
    // V = 4/3 a³, I = V a²/5 on each axis, centroid at the shift.
    const double a = 0.7;
    const Vec3 shift{1.0, -2.0, 0.5};
    std::vector<Vec3> pts;
    for (int axis = 0; axis < 3; ++axis)
      for (double s : {-1.0, 1.0}) {
        Vec3 p = shift;
        p[static_cast<std::size_t>(axis)] += s * a;
        pts.push_back(p);
      }
    std::mt19937 gen(42);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int k = 0; k < 200; ++k) {
      Vec3 p{u(gen), u(gen), u(gen)};
      const double n = std::abs(p[0]) + std::abs(p[1]) + std::abs(p[2]);
      const double scale = 0.99 * a * std::abs(u(gen)) / n;
      pts.push_back({shift[0] + scale * p[0], shift[1] + scale * p[1], shift[2] + scale * p[2]});
    }
    ConvexHullShape hull(pts);
    CPPUNIT_ASSERT_EQUAL(std::size_t(6), hull.vertices().size());
    CPPUNIT_ASSERT_EQUAL(std::size_t(8), hull.triangles().size());
    const double V = 4.0 / 3.0 * a * a * a;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(V, hull.volume(), 1e-13);
    for (std::size_t i = 0; i < 3; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(shift[i], hull.centroid()[i], 1e-13);
    CPPUNIT_ASSERT(maxDiff(hull.inertiaPerUnitDensity(),
                           diag(V * a * a / 5, V * a * a / 5, V * a * a / 5)) < 1e-13);
  }

  void hullOfRotatedCubeRotatesInertia() {
    // A non-cubic box (so that the rotation shows), rotated 30° about a skew axis.
    const Vec3 h{0.5, 0.3, 0.2};
    const Quat q = quaternion::fromAxisAngle({1.0, 1.0, 0.0}, M_PI / 6);
    std::vector<Vec3> pts;
    for (const Vec3& p : boxCorners(h)) pts.push_back(quaternion::rotate(q, p));
    ConvexHullShape hull(pts);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(8 * h[0] * h[1] * h[2], hull.volume(), 1e-12);
    CPPUNIT_ASSERT(maxDiff(hull.inertiaPerUnitDensity(),
                           rotateInertia(q, BoxShape(h).inertiaPerUnitDensity())) < 1e-12);
    // The unit cube (isotropic inertia) rotated 30°: I unchanged = R I Rᵀ.
    std::vector<Vec3> cube;
    for (const Vec3& p : boxCorners({0.5, 0.5, 0.5})) cube.push_back(quaternion::rotate(q, p));
    CPPUNIT_ASSERT(maxDiff(ConvexHullShape(cube).inertiaPerUnitDensity(),
                           diag(1.0 / 6, 1.0 / 6, 1.0 / 6)) < 1e-12);
  }

  void supportPoints() {
    const Vec3 d{0.3, -0.4, 1.2};
    const double dn = std::sqrt(quaternion::dot(d, d));
    const Vec3 s = SphereShape(2.0).support(d);
    for (std::size_t i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 * d[i] / dn, s[i], 1e-15);
    const Vec3 b = BoxShape({1, 2, 3}).support(d);
    CPPUNIT_ASSERT(b == (Vec3{1, -2, 3}));
    const Vec3 c = CapsuleShape(0.5, 1.0).support(d);
    for (std::size_t i = 0; i < 3; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL((i == 2 ? 1.0 : 0.0) + 0.5 * d[i] / dn, c[i], 1e-15);
    const Vec3 y = CylinderShape(0.5, 1.0).support(d);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 * 0.3 / 0.5, y[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.5 * 0.4 / 0.5, y[1], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, y[2], 0.0);
    const Vec3 yz = CylinderShape(0.5, 1.0).support({0, 0, -1});
    CPPUNIT_ASSERT(yz == (Vec3{0, 0, -1}));
    ConvexHullShape hull(boxCorners({1, 2, 3}));
    CPPUNIT_ASSERT(hull.support(d) == (Vec3{1, -2, 3}));
    // Support is the max of d·x over the shape: compare with sampled surface points of the
    // cylinder.
    const CylinderShape cyl(0.5, 1.0);
    const double best = quaternion::dot(cyl.support(d), d);
    for (int k = 0; k < 360; ++k) {
      const double t = k * M_PI / 180;
      for (double z : {-1.0, 1.0})
        CPPUNIT_ASSERT(quaternion::dot({0.5 * std::cos(t), 0.5 * std::sin(t), z}, d) <=
                       best + 1e-15);
    }
  }

  void boundingBoxesAtRotatedPose() {
    const Vec3 x{1.0, -2.0, 3.0};
    std::vector<SP::Shape> shapes{
        std::make_shared<SphereShape>(0.5), std::make_shared<BoxShape>(Vec3{0.5, 0.2, 0.1}),
        std::make_shared<CapsuleShape>(0.2, 0.6), std::make_shared<CylinderShape>(0.3, 0.4),
        std::make_shared<ConvexHullShape>(boxCorners({0.3, 0.2, 0.6}))};
    for (const SP::Shape& s : shapes) {
      const Shape::Aabb box = s->boundingBox(x, rotated);
      for (std::size_t i = 0; i < 3; ++i)
        for (double sign : {-1.0, 1.0}) {
          Vec3 e{0, 0, 0};
          e[i] = sign;
          const Vec3 p = s->supportWorld(e, x, rotated);
          for (std::size_t k = 0; k < 3; ++k) {
            CPPUNIT_ASSERT(p[k] >= box.min[k] - 1e-14);
            CPPUNIT_ASSERT(p[k] <= box.max[k] + 1e-14);
          }
          // tight: the extreme face of the box is reached
          CPPUNIT_ASSERT_DOUBLES_EQUAL(sign > 0 ? box.max[i] : box.min[i], p[i], 1e-14);
        }
    }
    // Sphere: exactly x ± r whatever the rotation.
    const Shape::Aabb sb = shapes[0]->boundingBox(x, rotated);
    for (std::size_t i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(x[i] - 0.5, sb.min[i], 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(x[i] + 0.5, sb.max[i], 1e-15);
    }
    // Box: half-width Σ_j |R_ij| h_j, and every corner inside.
    const Vec3 h{0.5, 0.2, 0.1};
    const SimpleMatrix R = quaternion::rotationMatrix(rotated);
    const Shape::Aabb bb = shapes[1]->boundingBox(x, rotated);
    for (std::size_t i = 0; i < 3; ++i) {
      const double w =
          std::abs(R(i, 0)) * h[0] + std::abs(R(i, 1)) * h[1] + std::abs(R(i, 2)) * h[2];
      CPPUNIT_ASSERT_DOUBLES_EQUAL(x[i] + w, bb.max[i], 1e-14);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(x[i] - w, bb.min[i], 1e-14);
    }
    for (const Vec3& c : boxCorners(h)) {
      const Vec3 w = quaternion::rotate(rotated, c);
      for (std::size_t i = 0; i < 3; ++i)
        CPPUNIT_ASSERT(x[i] + w[i] <= bb.max[i] + 1e-14 && x[i] + w[i] >= bb.min[i] - 1e-14);
    }
  }

  void halfSpace() {
    HalfSpaceShape p({0, 0, 2}, 1.0);  // z ≤ 0.5
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, p.offset(), 0.0);
    CPPUNIT_ASSERT(!p.isFinite());
    CPPUNIT_ASSERT(std::isinf(p.volume()));
    CPPUNIT_ASSERT(p.support({0, 0, 3}) == (Vec3{0, 0, 0.5}));
    CPPUNIT_ASSERT(std::isinf(p.support({1, 0, 0})[0]));
    const Shape::Aabb b = p.boundingBox({0, 0, 1}, {1, 0, 0, 0});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.5, b.max[2], 1e-15);
    CPPUNIT_ASSERT(std::isinf(b.min[2]) && std::isinf(b.max[0]) && std::isinf(b.min[1]));
    // Turned upside down (180° about x): z ≥ −0.5 + 1.
    const Shape::Aabb f = p.boundingBox({0, 0, 1}, quaternion::fromAxisAngle({1, 0, 0}, M_PI));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, f.min[2], 1e-15);
    CPPUNIT_ASSERT(std::isinf(f.max[2]));
  }

  void compositeBodyParallelAxis() {
    // Two spheres of radius r at ±a on x: m = 2ρV, I_xx = 2 (2/5) mₛ r², I_yy = I_zz = 2 ((2/5) mₛ
    // r² + mₛ a²).
    const double r = 0.1, a = 0.5, rho = 1000.0;
    auto s = std::make_shared<SphereShape>(r);
    const Vec3 x0{1.0, 2.0, 3.0};
    BodyShapes body = makeBody({ShapeInstance{s, {0.0, 0, 0}}, ShapeInstance{s, {2 * a, 0, 0}}},
                               rho, x0, rotated);
    const double ms = rho * s->volume();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2 * ms, body.body()->scalarMass(), 1e-12);
    const SimpleMatrix& I = body.body()->inertia();
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2 * 0.4 * ms * r * r, I(0, 0), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2 * (0.4 * ms * r * r + ms * a * a), I(1, 1), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2 * (0.4 * ms * r * r + ms * a * a), I(2, 2), 1e-12);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, I(0, 1), 1e-12);
    // Centre of mass at x0 + R (a, 0, 0); shapes at ∓a about it.
    const Vec3 c = quaternion::rotate(rotated, {a, 0, 0});
    for (std::size_t i = 0; i < 3; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(x0[i] + c[i], body.position()[i], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-a, body.shapes()[0].position[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(a, body.shapes()[1].position[0], 1e-15);
    // A box offset with a rotation: R I Rᵀ about the centre of mass.
    auto box = std::make_shared<BoxShape>(Vec3{0.3, 0.2, 0.1});
    const Quat q = quaternion::fromAxisAngle({0, 0, 1}, M_PI / 6);
    const MassProperties mp = MassProperties::fromShapes({ShapeInstance{box, {1, 1, 1}, q}}, 2.0);
    Mat3 expected = box->inertiaPerUnitDensity();
    for (auto& row : expected)
      for (double& v : row) v *= 2.0;
    CPPUNIT_ASSERT(maxDiff(mp.inertia, rotateInertia(q, expected)) < 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, mp.centerOfMass[2], 1e-15);
  }

  void bodyFromMassAndExplicitInertia() {
    auto c = std::make_shared<CylinderShape>(0.2, 0.3);
    BodySpec spec;
    spec.shapes = {ShapeInstance{c, {0, 0, 1}}};
    spec.mass = 3.0;
    BodyShapes b = makeBody(spec);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, b.body()->scalarMass(), 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0 * 0.04 / 2, b.body()->inertia()(2, 2), 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, b.position()[2], 1e-15);
    spec.inertia = diag(1, 2, 3);
    BodyShapes e = makeBody(spec);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, e.body()->inertia()(1, 1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, e.shapes()[0].position[2], 0.0);  // offsets kept as given
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, e.position()[2], 0.0);
  }

  void staticBody() {
    BodyShapes ground =
        makeStaticBody({ShapeInstance{std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0)}});
    CPPUNIT_ASSERT(ground.isStatic());
    CPPUNIT_ASSERT(!ground.body());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, ground.boundingBox().max[2], 0.0);
    BodyShapes wall =
        makeStaticBody({ShapeInstance{std::make_shared<BoxShape>(Vec3{1, 1, 1})}}, {0, 0, 5});
    CPPUNIT_ASSERT_DOUBLES_EQUAL(6.0, wall.boundingBox().max[2], 0.0);
  }

  void badInputsThrow() {
    const double nan = std::nan("");
    CPPUNIT_ASSERT_THROW(SphereShape(0.0), Error);
    CPPUNIT_ASSERT_THROW(SphereShape(-1.0), Error);
    CPPUNIT_ASSERT_THROW(SphereShape{nan}, Error);
    CPPUNIT_ASSERT_THROW(SphereShape{INFINITY}, Error);
    CPPUNIT_ASSERT_THROW(BoxShape({1, 0, 1}), Error);
    CPPUNIT_ASSERT_THROW(BoxShape({1, 1, -2}), Error);
    CPPUNIT_ASSERT_THROW(CapsuleShape(0.1, 0.0), Error);
    CPPUNIT_ASSERT_THROW(CapsuleShape(-0.1, 1.0), Error);
    CPPUNIT_ASSERT_THROW(CylinderShape(0.1, nan), Error);
    CPPUNIT_ASSERT_THROW(CylinderShape(0.0, 1.0), Error);
    CPPUNIT_ASSERT_THROW(HalfSpaceShape({0, 0, 0}, 1.0), Error);
    CPPUNIT_ASSERT_THROW(HalfSpaceShape({0, 0, 1}, nan), Error);
    try {
      SphereShape(-2.5);
      CPPUNIT_FAIL("no throw");
    } catch (const Error& e) {
      CPPUNIT_ASSERT_EQUAL(std::string("SphereShape"), e.object());
      CPPUNIT_ASSERT(std::string(e.what()).find("-2.5") != std::string::npos);
    }
    // Convex hulls without 4 affinely independent points.
    CPPUNIT_ASSERT_THROW(ConvexHullShape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}), Error);
    CPPUNIT_ASSERT_THROW(
        ConvexHullShape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.2, 0}}),
        Error);  // coplanar
    CPPUNIT_ASSERT_THROW(ConvexHullShape({{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}}),
                         Error);  // collinear
    CPPUNIT_ASSERT_THROW(ConvexHullShape({{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}}),
                         Error);  // duplicates
    CPPUNIT_ASSERT_THROW(ConvexHullShape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, nan}}), Error);
    try {
      ConvexHullShape({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}});
      CPPUNIT_FAIL("no throw");
    } catch (const Error& e) {
      CPPUNIT_ASSERT_EQUAL(std::string("ConvexHullShape"), e.object());
      CPPUNIT_ASSERT(std::string(e.what()).find("affinely independent") != std::string::npos);
    }
    auto s = std::make_shared<SphereShape>(0.1);
    BodySpec spec;
    spec.name = "grain 7";
    spec.shapes = {ShapeInstance{s}};
    try {
      makeBody(spec);  // neither mass nor density
      CPPUNIT_FAIL("no throw");
    } catch (const Error& e) {
      CPPUNIT_ASSERT_EQUAL(std::string("grain 7"), e.object());
    }
    spec.density = 1.0;
    spec.mass = 1.0;
    CPPUNIT_ASSERT_THROW(makeBody(spec), Error);  // both
    spec.mass.reset();
    spec.density = -1.0;
    CPPUNIT_ASSERT_THROW(makeBody(spec), Error);
    spec.density.reset();
    spec.inertia = diag(1, 1, 1);
    CPPUNIT_ASSERT_THROW(makeBody(spec), Error);                // inertia without mass
    CPPUNIT_ASSERT_THROW(makeBody({}, 1.0, {0, 0, 0}), Error);  // no shape
    CPPUNIT_ASSERT_THROW(
        makeBody({ShapeInstance{std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0)}}, 1.0,
                 {0, 0, 0}),
        Error);
    CPPUNIT_ASSERT_THROW(makeBody({ShapeInstance{nullptr}}, 1.0, {0, 0, 0}), Error);
    CPPUNIT_ASSERT_THROW(makeBody({ShapeInstance{s}}, 1.0, {0, 0, 0}, {2, 0, 0, 0}), Error);
    CPPUNIT_ASSERT_THROW(makeBody({ShapeInstance{s, {0, 0, 0}, {0.5, 0, 0, 0}}}, 1.0, {0, 0, 0}),
                         Error);
    CPPUNIT_ASSERT_THROW(makeStaticBody({}), Error);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ShapesTest);
