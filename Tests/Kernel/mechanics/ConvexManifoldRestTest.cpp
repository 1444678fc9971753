// A box resting on a static convex-hull floor (a pair without a closed form: convexManifold)
// stepped by the SceneEngine for 1 s: with the manifold (4 points) it neither rocks nor
// sinks; with convexContact's single point (ccd.manifold off, the behaviour before) it
// rocks about that point.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nsdyn/nsd_options.h>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/CapsuleShape.hpp>
#include <nsdyn/ConvexHullShape.hpp>
#include <nsdyn/CylinderShape.hpp>
#include <nsdyn/Quaternion.hpp>
#include <nsdyn/SceneEngine.hpp>

using namespace nsdyn;
using nsdyn::quaternion::fromAxisAngle;

namespace {

ShapeInstance inst(std::shared_ptr<const Shape> s) {
  ShapeInstance i;
  i.shape = std::move(s);
  return i;
}

// What 1 s of rest did to the box.
struct Rest {
  double maxPenetration = 0.0;  // deepest overlap of the contacts over the run (m)
  double sink = 0.0;            // fall of the centre of mass from its start (m)
  double rotation = 0.0;        // largest rotation from the start orientation (rad)
  double kinetic = 0.0;         // kinetic energy at the end (J)
  std::size_t contacts = 0;     // contacts at the last step
  std::size_t fewest = 99;      // fewest contacts at a step
  double tilt = 0.0;            // angle of body z to world z at the end (rad)
  std::string str() const {
    std::ostringstream s;
    s << "max penetration " << maxPenetration << " m, sink " << sink << " m, rotation " << rotation
      << " rad, kinetic " << kinetic << " J, contacts " << contacts << " (fewest " << fewest
      << "), final tilt " << tilt << " rad";
    return s.str();
  }
};

// A body of @p shape (1000 kg/m3) set down at rest at @p position, @p orientation on the
// static @p floor (at the origin), 1000 steps of 1 ms; the penetration and rotation
// measured against the start.
Rest restOn(std::shared_ptr<const Shape> floor, std::shared_ptr<const Shape> shape,
            const Shape::Vec3& position, const Shape::Quat& orientation, bool manifold) {
  SceneEngine::Options eo;
  eo.h = 1e-3;
  eo.solver = "nsgs";
  nsd_solver_options_default(&eo.solverOptions);
  eo.solverOptions.tolerance = 1e-10;
  eo.solverOptions.max_iterations = 10000;
  eo.contacts.detection.threads = 1;
  eo.contacts.detection.ccd.manifold = manifold;
  SceneEngine engine(eo);
  engine.setDefaultMaterial(ContactMaterial{0.5, 0.0});
  engine.addStatic({inst(std::move(floor))});
  BodySpec body;
  body.name = "body";
  body.shapes = {inst(std::move(shape))};
  body.density = 1000.0;
  body.position = position;
  body.orientation = orientation;
  const std::size_t b = engine.addBody(body);
  const Shape::Quat q0 = body.orientation;
  Rest r;
  for (int step = 0; step < 1000; ++step) {
    const auto& report = engine.step();
    r.maxPenetration = std::max(r.maxPenetration, report.maxPenetration);
    const double* q = &engine.bodies().q[7 * b];
    const double c = std::abs(q0[0] * q[3] + q0[1] * q[4] + q0[2] * q[5] + q0[3] * q[6]);
    r.rotation = std::max(r.rotation, 2.0 * std::acos(std::min(1.0, c)));
    r.contacts = report.contacts;
    r.fewest = std::min(r.fewest, report.contacts);
  }
  const double* q = &engine.bodies().q[7 * b];
  r.tilt = std::acos(std::min(1.0, 1.0 - 2.0 * (q[4] * q[4] + q[5] * q[5])));
  r.sink = position[2] - engine.bodies().q[7 * b + 2];
  r.kinetic = engine.bodies().kineticEnergy(b);
  return r;
}

// A static 1 m x 1 m x 0.2 m hull slab (top facet z = 0.1, edges at x, y = ±0.5).
std::shared_ptr<const Shape> hullSlab() {
  std::vector<Shape::Vec3> slab;
  for (int i = 0; i < 8; ++i)
    slab.push_back({(i & 1) ? 0.5 : -0.5, (i & 2) ? 0.5 : -0.5, (i & 4) ? 0.1 : -0.1});
  return std::make_shared<ConvexHullShape>(slab);
}

// A 10 cm box (1000 kg/m3) set down flat (gap 0, at rest, turned by 0.3 rad about z) on
// the top facet of a static 1 m x 1 m x 0.2 m hull slab, 1000 steps of 1 ms.
Rest restOnHullFloor(bool manifold) {
  return restOn(hullSlab(), std::make_shared<BoxShape>(Shape::Vec3{0.05, 0.05, 0.05}),
                {0.1, -0.05, 0.15}, fromAxisAngle({0, 0, 1}, 0.3), manifold);
}

}  // namespace

class ConvexManifoldRestTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConvexManifoldRestTest);
  CPPUNIT_TEST(boxRestsOnAHullFloor);
  CPPUNIT_TEST(capsuleRestsOnABox);
  CPPUNIT_TEST(cylinderRestsAcrossAHullEdge);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// With the manifold: 4 contacts, no sinking, no rocking (penetration < 1e-4 m, rotation
  /// < 1e-3 rad; measured 1.4e-16 m and 4.2e-8 rad). With the single point (the detection
  /// before): the box rocks about it and tips onto an edge, measured 0.113 rad, 15.7 mm
  /// deep, still moving after 1 s.
  void boxRestsOnAHullFloor() {
    const Rest with = restOnHullFloor(true);
    const Rest without = restOnHullFloor(false);
    const std::string what = "manifold: " + with.str() + "; single point: " + without.str();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, std::size_t(4), with.contacts);
    CPPUNIT_ASSERT_MESSAGE(what, with.maxPenetration < 1e-4);
    CPPUNIT_ASSERT_MESSAGE(what, std::abs(with.sink) < 1e-4);
    CPPUNIT_ASSERT_MESSAGE(what, with.rotation < 1e-3);
    CPPUNIT_ASSERT_MESSAGE(what, without.rotation > 1e-2);
  }

  /// A capsule (r 3 cm, axis 12 cm) lying on a static box (top face z = 0.1), its axis
  /// turned by 0.4 rad about z.
  void capsuleRestsOnABox() {
    auto run = [](bool manifold) {
      return restOn(
          std::make_shared<BoxShape>(Shape::Vec3{0.5, 0.5, 0.1}),
          std::make_shared<CapsuleShape>(0.03, 0.06), {0.1, -0.05, 0.13},
          quaternion::multiply(fromAxisAngle({0, 0, 1}, 0.4), fromAxisAngle({1, 0, 0}, M_PI / 2)),
          manifold);
    };
    const Rest with = run(true);
    const Rest without = run(false);
    const std::string what = "manifold: " + with.str() + "; single point: " + without.str();
    std::cout << "\ncapsule on a box: " << what << std::endl;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, std::size_t(2), with.contacts);
    CPPUNIT_ASSERT_MESSAGE(what, with.maxPenetration < 1e-4);
    CPPUNIT_ASSERT_MESSAGE(what, std::abs(with.sink) < 1e-4);
    CPPUNIT_ASSERT_MESSAGE(what, with.rotation < 1e-3);
  }

  /// A cylinder (r 4 cm, 10 cm long) standing on the hull slab, its cap over the edge
  /// x = 0.5 (centre at x = 0.47: 1 cm of the cap overhangs), and one lying across that
  /// edge (axis along x, centre at x = 0.47: 2 cm of its side overhangs).
  void cylinderRestsAcrossAHullEdge() {
    auto run = [](bool standing, bool manifold) {
      const Shape::Quat q =
          standing ? fromAxisAngle({0, 0, 1}, 0.2) : fromAxisAngle({0, 1, 0}, M_PI / 2);
      return restOn(hullSlab(), std::make_shared<CylinderShape>(0.04, 0.05),
                    {0.47, 0.1, standing ? 0.15 : 0.14}, q, manifold);
    };
    for (bool standing : {true, false}) {
      const Rest with = run(standing, true);
      const Rest without = run(standing, false);
      const std::string what = std::string(standing ? "standing" : "lying") +
                               ": manifold: " + with.str() + "; single point: " + without.str();
      std::cout << "\ncylinder across a hull edge, " << what << std::endl;
      CPPUNIT_ASSERT_MESSAGE(what, with.contacts >= 2);
      CPPUNIT_ASSERT_MESSAGE(what, with.maxPenetration < 1e-4);
      CPPUNIT_ASSERT_MESSAGE(what, std::abs(with.sink) < 1e-4);
      CPPUNIT_ASSERT_MESSAGE(what, with.rotation < 1e-3);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConvexManifoldRestTest);
