// Terrains in the scene engine: a sphere on a mesh floor (2 triangles, a 20 x 20 grid) and on
// a flat heightfield follows the same path as on a plane; a box sliding across the triangle
// edges of a mesh floor does not snag (|v_z| ≤ 1e-9); terrains on a dynamic body refused.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <nsdyn/nsd_options.h>
#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/CapsuleShape.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/HalfSpaceShape.hpp>
#include <nsdyn/HeightfieldShape.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/SphereShape.hpp>
#include <nsdyn/TriangleMeshShape.hpp>

using namespace nsdyn;
using Vec3 = Shape::Vec3;

namespace {

ShapeInstance inst(std::shared_ptr<const Shape> s) {
  ShapeInstance i;
  i.shape = std::move(s);
  return i;
}

/// A flat square floor z = 0 of n x n cells of side @p cell, centred on the origin.
std::shared_ptr<const TriangleMeshShape> gridFloor(int n, double cell) {
  std::vector<Vec3> v;
  std::vector<TerrainShape::Triangle> t;
  const double x0 = -0.5 * n * cell;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) v.push_back({x0 + i * cell, x0 + j * cell, 0.0});
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const int a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
      t.push_back({a, b, c});
      t.push_back({a, c, d});
    }
  return std::make_shared<TriangleMeshShape>(std::move(v), std::move(t), "grid floor");
}

SceneEngine::Options options(double h) {
  SceneEngine::Options o;
  o.h = h;
  o.solver = "nsgs";
  nsd_solver_options_default(&o.solverOptions);
  o.solverOptions.tolerance = 1e-14;
  o.solverOptions.max_iterations = 1000;
  o.contacts.detection.threads = 1;
  return o;
}

/// Positions and velocities of one body over @p steps steps on the floor @p floor.
struct Path {
  std::vector<double> q, v;
  double maxVz = 0.0;        // largest |v_z| after the first contact step
  std::size_t contacts = 0;  // at the last step
};

Path run(std::shared_ptr<const Shape> floor, std::shared_ptr<const Shape> body, const Vec3& x0,
         const std::array<double, 6>& v0, double mu, int steps, double h,
         const Shape::Quat& q0 = {1.0, 0.0, 0.0, 0.0}) {
  SceneEngine e(options(h));
  e.setDefaultMaterial(ContactMaterial{mu, 0.0});
  e.addStatic({inst(std::move(floor))});
  BodySpec s;
  s.shapes = {inst(std::move(body))};
  s.density = 1000.0;
  s.position = x0;
  s.orientation = q0;
  s.velocity = v0;
  e.addBody(s);
  Path p;
  for (int k = 0; k < steps; ++k) {
    const auto& r = e.step();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(r.solver.message), NSD_OK, r.status);
    for (int i = 0; i < 7; ++i) p.q.push_back(e.bodies().q[7 + static_cast<std::size_t>(i)]);
    for (int i = 0; i < 6; ++i) p.v.push_back(e.bodies().v[6 + static_cast<std::size_t>(i)]);
    if (k > 0) p.maxVz = std::max(p.maxVz, std::abs(e.bodies().v[6 + 2]));
    p.contacts = r.active;
  }
  return p;
}

double maxDiff(const std::vector<double>& a, const std::vector<double>& b) {
  CPPUNIT_ASSERT_EQUAL(a.size(), b.size());
  double d = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::abs(a[k] - b[k]));
  return d;
}

}  // namespace

class TerrainSceneTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(TerrainSceneTest);
  CPPUNIT_TEST(sphereOnFloorsEqualsPlane);
  CPPUNIT_TEST(boxSlidesAcrossEdgesWithoutSnag);
  CPPUNIT_TEST(capsuleRollsAsOnAPlane);
  CPPUNIT_TEST(terrainOnDynamicBodyRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// A sphere dropped with a horizontal velocity lands, slides then rolls over many triangle
  /// edges and vertices: its path equals the path on the plane z = 0 to 1e-12 over 1 s.
  void sphereOnFloorsEqualsPlane() {
    const double h = 0.005;
    const int steps = 200;
    const auto sphere = std::make_shared<SphereShape>(0.05);
    const Vec3 x0{0.013, -0.021, 0.06};
    const std::array<double, 6> v0{0.6, 0.35, 0.0, 0.0, 0.0, 0.0};
    const Path plane =
        run(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0), sphere, x0, v0, 0.3, steps, h);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), plane.contacts);
    CPPUNIT_ASSERT(plane.q[7 * (steps - 1)] > 0.4);  // it travelled across many cells

    // two triangles
    const auto two = std::make_shared<TriangleMeshShape>(
        std::vector<Vec3>{{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}},
        std::vector<TerrainShape::Triangle>{{0, 1, 2}, {0, 2, 3}});
    const Path p2 = run(two, sphere, x0, v0, 0.3, steps, h);
    CPPUNIT_ASSERT(maxDiff(plane.q, p2.q) <= 1e-12);
    CPPUNIT_ASSERT(maxDiff(plane.v, p2.v) <= 1e-12);

    // a 20 x 20 grid of 0.1 m cells (800 triangles)
    const Path p20 = run(gridFloor(20, 0.1), sphere, x0, v0, 0.3, steps, h);
    CPPUNIT_ASSERT(maxDiff(plane.q, p20.q) <= 1e-12);
    CPPUNIT_ASSERT(maxDiff(plane.v, p20.v) <= 1e-12);
    CPPUNIT_ASSERT_EQUAL(std::size_t(1), p20.contacts);

    // a flat heightfield of 41 x 41 heights, 0.05 m apart
    const auto field =
        std::make_shared<HeightfieldShape>(41, 41, 0.05, 0.05, std::vector<double>(41 * 41, 0.0));
    const Path pf = run(field, sphere, x0, v0, 0.3, steps, h);
    CPPUNIT_ASSERT(maxDiff(plane.q, pf.q) <= 1e-12);
    CPPUNIT_ASSERT(maxDiff(plane.v, pf.v) <= 1e-12);
  }

  /// A box resting on a 20 x 20 mesh floor, pushed at 1.39 m/s (μ = 0.1) along a direction oblique
  /// to the grid: it slides across the triangles' edges and diagonals, |v_z| ≤ 1e-9 throughout, and
  /// its path is the one on the plane.
  void boxSlidesAcrossEdgesWithoutSnag() {
    const double h = 0.005;
    const int steps = 200;
    const auto box = std::make_shared<BoxShape>(Vec3{0.08, 0.06, 0.04});
    const Vec3 x0{-0.31, -0.27, 0.04};
    const std::array<double, 6> v0{1.2, 0.7, 0.0, 0.0, 0.0, 0.0};
    const Path mesh = run(gridFloor(20, 0.1), box, x0, v0, 0.1, steps, h);
    CPPUNIT_ASSERT(mesh.maxVz <= 1e-9);
    CPPUNIT_ASSERT_EQUAL(std::size_t(4), mesh.contacts);
    const double travelled =
        std::hypot(mesh.q[7 * (steps - 1)] - x0[0], mesh.q[7 * (steps - 1) + 1] - x0[1]);
    CPPUNIT_ASSERT(travelled > 0.5);  // over about 5 cells
    const Path plane =
        run(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0), box, x0, v0, 0.1, steps, h);
    CPPUNIT_ASSERT(maxDiff(plane.q, mesh.q) <= 1e-12);
    // the box stays flat on the floor: its height and orientation unchanged
    for (int k = 0; k < steps; ++k) {
      CPPUNIT_ASSERT(std::abs(mesh.q[7 * static_cast<std::size_t>(k) + 2] - 0.04) <= 1e-9);
      CPPUNIT_ASSERT(std::abs(mesh.q[7 * static_cast<std::size_t>(k) + 3] - 1.0) <= 1e-12);
    }
  }

  /// A capsule lying across the grid (axis turned 30 degrees from y), pushed sideways: it
  /// rolls and slides over the triangles as on the plane (two end points, to 1e-12).
  void capsuleRollsAsOnAPlane() {
    const double h = 0.005;
    const int steps = 200;
    const auto capsule = std::make_shared<CapsuleShape>(0.04, 0.12);
    const Vec3 x0{0.05, -0.3, 0.04};
    const Shape::Quat q0 = quaternion::fromAxisAngle({0.5, std::sqrt(0.75), 0.0}, M_PI / 2);
    const std::array<double, 6> v0{0.2, 0.9, 0.0, 0.0, 0.0, 0.0};
    const Path plane = run(std::make_shared<HalfSpaceShape>(Vec3{0, 0, 1}, 0.0), capsule, x0, v0,
                           0.3, steps, h, q0);
    const Path mesh = run(gridFloor(20, 0.1), capsule, x0, v0, 0.3, steps, h, q0);
    CPPUNIT_ASSERT_EQUAL(std::size_t(2), mesh.contacts);
    CPPUNIT_ASSERT(mesh.q[7 * (steps - 1) + 1] > 0.0);  // across several cells
    CPPUNIT_ASSERT(maxDiff(plane.q, mesh.q) <= 1e-12);
    CPPUNIT_ASSERT(maxDiff(plane.v, mesh.v) <= 1e-12);
  }

  void terrainOnDynamicBodyRefused() {
    SceneEngine e(options(1e-3));
    BodySpec s;
    s.shapes = {inst(gridFloor(2, 1.0))};
    s.density = 1.0;
    try {
      e.addBody(s);
      CPPUNIT_FAIL("no error");
    } catch (const Error& err) {
      CPPUNIT_ASSERT(std::string(err.what()).find("TriangleMeshShape") != std::string::npos);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TerrainSceneTest);
