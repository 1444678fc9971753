// A box resting on a static convex-hull floor (a pair without a closed form: convexManifold)
// stepped by the SceneEngine for 1 s: with the manifold (4 points) it neither rocks nor
// sinks; with convexContact's single point (ccd.manifold off, the behaviour before) it
// rocks about that point.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nsdyn/nsd_options.h>

#include <nsdyn/BodyFactory.hpp>
#include <nsdyn/BoxShape.hpp>
#include <nsdyn/ConvexHullShape.hpp>
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
  std::string str() const {
    std::ostringstream s;
    s << "max penetration " << maxPenetration << " m, sink " << sink << " m, rotation " << rotation
      << " rad, kinetic " << kinetic << " J, contacts " << contacts;
    return s.str();
  }
};

// A 10 cm box (1000 kg/m3) set down flat (gap 0, at rest, turned by 0.3 rad about z) on
// the top facet of a static 1 m x 1 m x 0.2 m hull slab, 1000 steps of 1 ms.
Rest restOnHullFloor(bool manifold) {
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
  std::vector<Shape::Vec3> slab;
  for (int i = 0; i < 8; ++i)
    slab.push_back({(i & 1) ? 0.5 : -0.5, (i & 2) ? 0.5 : -0.5, (i & 4) ? 0.1 : -0.1});
  engine.addStatic({inst(std::make_shared<ConvexHullShape>(slab))});
  BodySpec box;
  box.name = "box";
  box.shapes = {inst(std::make_shared<BoxShape>(Shape::Vec3{0.05, 0.05, 0.05}))};
  box.density = 1000.0;
  box.position = {0.1, -0.05, 0.15};
  box.orientation = fromAxisAngle({0, 0, 1}, 0.3);
  const std::size_t b = engine.addBody(box);
  const Shape::Quat q0 = box.orientation;
  Rest r;
  for (int step = 0; step < 1000; ++step) {
    const auto& report = engine.step();
    r.maxPenetration = std::max(r.maxPenetration, report.maxPenetration);
    const double* q = &engine.bodies().q[7 * b];
    const double c = std::abs(q0[0] * q[3] + q0[1] * q[4] + q0[2] * q[5] + q0[3] * q[6]);
    r.rotation = std::max(r.rotation, 2.0 * std::acos(std::min(1.0, c)));
    r.contacts = report.contacts;
  }
  r.sink = 0.15 - engine.bodies().q[7 * b + 2];
  r.kinetic = engine.bodies().kineticEnergy(b);
  return r;
}

}  // namespace

class ConvexManifoldRestTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ConvexManifoldRestTest);
  CPPUNIT_TEST(boxRestsOnAHullFloor);
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
};

CPPUNIT_TEST_SUITE_REGISTRATION(ConvexManifoldRestTest);
