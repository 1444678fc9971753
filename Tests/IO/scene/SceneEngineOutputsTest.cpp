// The scene writers on a SceneEngine (IO/src/SceneFrameView.cpp, SceneHdf5Writer.cpp,
// SceneVtkWriter.cpp): the HDF5 file of an engine run reads back equal, bit for bit, to the
// engine's arrays at every step; the same spheres stepped by the Kernel's path (TimeStepping
// + ContactManager + MoreauJeanOSI) and by the SceneEngine write the same HDF5 rows to
// round-off; the view of a BodyStore points into its arrays; one-part checks.
#include <cppunit/extensions/HelperMacros.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ContactManager.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/FrictionContact.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/MoreauJeanOSI.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/TimeDiscretisation.hpp"
#include "nsdyn/TimeStepping.hpp"
#include "nsdyn/io/SceneFrameView.hpp"
#include "nsdyn/io/SceneHdf5Writer.hpp"
#include "nsdyn/io/SceneVtkWriter.hpp"
#include "nsdyn/nsd_solvers.h"

namespace fs = std::filesystem;
using nsdyn::BodyShapes;
using nsdyn::BodySpec;
using nsdyn::SceneEngine;
using nsdyn::ShapeInstance;
using Vec3 = nsdyn::Shape::Vec3;
using Rows = std::vector<std::vector<double>>;

namespace {

constexpr double kH = 1e-3;
constexpr double kG = 9.81;

std::string scratch(const std::string& name) {
  const fs::path dir = fs::path(NSDYN_BINARY_DIR) / "Tests" / "IO" / "scene" /
                       ("scratch-engine-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

ShapeInstance inst(std::shared_ptr<const nsdyn::Shape> s) {
  ShapeInstance i;
  i.shape = std::move(s);
  return i;
}

/// A scene both paths build alike: the static bodies first, then the dynamic ones (same
/// indices, so the same contact keys), μ = 0.5, e = 0.
struct SceneDef {
  std::vector<BodyShapes> statics;
  std::vector<BodySpec> bodies;
};

BodySpec spec(const std::string& name, std::shared_ptr<const nsdyn::Shape> shape, const Vec3& x,
              const nsdyn::Shape::Quat& q = {1.0, 0.0, 0.0, 0.0},
              const std::array<double, 6>& v = {}) {
  BodySpec s;
  s.name = name;
  s.shapes = {inst(std::move(shape))};
  s.density = 1000.0;
  s.position = x;
  s.orientation = q;
  s.velocity = v;
  return s;
}

/// A floor, a static box wall, and one body of each shape, some spinning, some on others.
SceneDef mixedScene() {
  SceneDef d;
  d.statics.push_back(
      nsdyn::makeStaticBody({inst(std::make_shared<nsdyn::HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
  d.statics.push_back(nsdyn::makeStaticBody(
      {inst(std::make_shared<nsdyn::BoxShape>(Vec3{0.02, 0.3, 0.1}))}, {0.32, 0.0, 0.1}));
  const auto axis = [](double x, double y, double z, double a) {
    return nsdyn::quaternion::fromAxisAngle({x, y, z}, a);
  };
  d.bodies.push_back(spec("sphere", std::make_shared<nsdyn::SphereShape>(0.05), {0.0, 0.0, 0.052},
                          {1, 0, 0, 0}, {0.4, 0.0, 0.0, 0.0, 0.0, 3.0}));
  d.bodies.push_back(
      spec("sphere on top", std::make_shared<nsdyn::SphereShape>(0.04), {0.01, 0.0, 0.146}));
  d.bodies.push_back(spec("box", std::make_shared<nsdyn::BoxShape>(Vec3{0.05, 0.03, 0.02}),
                          {0.2, 0.1, 0.06}, axis(0.2, 0.3, 1.0, 0.5),
                          {0.3, 0.0, 0.0, 1.0, -2.0, 0.5}));
  d.bodies.push_back(spec("capsule", std::make_shared<nsdyn::CapsuleShape>(0.03, 0.06),
                          {-0.2, 0.0, 0.08}, axis(1.0, 0.0, 0.0, 1.3),
                          {0.0, 0.2, -0.1, 0.0, 0.0, 0.0}));
  d.bodies.push_back(spec("cylinder", std::make_shared<nsdyn::CylinderShape>(0.04, 0.05),
                          {0.0, -0.2, 0.065}, axis(0.0, 1.0, 0.0, 0.2)));
  const std::vector<Vec3> pts = {{0.05, 0.005, 0.0},     {-0.045, 0.0, 0.005}, {0.0, 0.055, 0.0},
                                 {0.005, -0.05, -0.005}, {0.0, 0.0, 0.04},     {0.005, 0.0, -0.06},
                                 {0.025, 0.025, 0.025}};
  d.bodies.push_back(spec("hull", std::make_shared<nsdyn::ConvexHullShape>(pts), {-0.1, 0.2, 0.12},
                          axis(1.0, 1.0, 0.0, 0.7), {0.0, 0.0, 0.0, 2.0, 0.0, 1.0}));
  return d;
}

/// Six spheres over a floor: two stacks and a rolling one.
SceneDef sphereScene() {
  SceneDef d;
  d.statics.push_back(
      nsdyn::makeStaticBody({inst(std::make_shared<nsdyn::HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
  for (int k = 0; k < 6; ++k) {
    const double r = 0.01 * (0.8 + 0.08 * k);
    d.bodies.push_back(
        spec("ball" + std::to_string(k), std::make_shared<nsdyn::SphereShape>(r),
             {0.006 * (k % 2) + 0.05 * (k / 3), 0.004 * (k % 3), 0.012 + 0.025 * (k % 3)},
             {1, 0, 0, 0}, {k == 5 ? 0.3 : 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}));
  }
  return d;
}

std::unique_ptr<SceneEngine> buildEngine(const SceneDef& d) {
  SceneEngine::Options o;
  o.h = kH;
  o.solver = "nsgs";
  nsd_solver_options_default(&o.solverOptions);
  o.solverOptions.tolerance = 1e-12;
  o.solverOptions.max_iterations = 100000;
  o.contacts.detection.threads = 1;
  o.recovery.enabled = false;  // compared with the Kernel's path, which has no overlap recovery
  auto e = std::make_unique<SceneEngine>(o);
  e->setDefaultMaterial({0.5, 0.0});
  for (const BodyShapes& s : d.statics) e->addBody(s);
  for (const BodySpec& b : d.bodies) e->addBody(b);
  return e;
}

/// The Kernel's path on @p d: TimeStepping (one pass) + ContactManager + MoreauJeanOSI(½).
struct KernelScene {
  std::shared_ptr<nsdyn::Model> model;
  nsdyn::SP::TimeStepping sim;
  nsdyn::SP::ContactManager contacts;

  KernelScene(const SceneDef& d, int steps) {
    model = std::make_shared<nsdyn::Model>(0.0, (steps + 0.5) * kH);
    auto problem = std::make_shared<nsdyn::FrictionContact>(3, "nsgs");
    problem->optionsMutable().tolerance = 1e-12;
    problem->optionsMutable().max_iterations = 100000;
    problem->optionsMutable().threads = 1;
    sim =
        std::make_shared<nsdyn::TimeStepping>(std::make_shared<nsdyn::TimeDiscretisation>(0.0, kH),
                                              std::make_shared<nsdyn::MoreauJeanOSI>(0.5), problem);
    sim->setNewtonOptions(nsdyn::NewtonMode::Linear);
    contacts = std::make_shared<nsdyn::ContactManager>();
    contacts->setThreads(1);
    sim->insertInteractionManager(contacts);
    contacts->setDefaultMaterial({0.5, 0.0});
    for (const BodyShapes& s : d.statics) contacts->addBody(*model->nonSmoothDynamicalSystem(), s);
    for (const BodySpec& b : d.bodies) {
      BodyShapes body = nsdyn::makeBody(b);
      body.body()->setFExt(nsdyn::SiconosVector({0.0, 0.0, -body.body()->scalarMass() * kG}));
      contacts->addBody(*model->nonSmoothDynamicalSystem(), std::move(body));
    }
    model->initialize(sim);
  }
};

/// The rows a writer must append for the engine's state now (computed here from the
/// store and contact arrays, not through SceneFrameView): dynamic, velocities, cf.
void expectedRows(const SceneEngine& e, double t, Rows& dynamic, Rows& velocities, Rows& cf) {
  const nsdyn::BodyStore& s = e.bodies();
  std::vector<double> id(s.size());
  int dyn = 0, stat = 0;
  for (std::size_t b = 0; b < s.size(); ++b) id[b] = s.isStatic[b] ? -(++stat) : ++dyn;
  for (std::size_t b = 0; b < s.size(); ++b) {
    if (s.isStatic[b]) continue;
    const double* q = &s.q[7 * b];
    const double* v = &s.v[6 * b];
    const Vec3 w = nsdyn::quaternion::rotate({q[3], q[4], q[5], q[6]}, {v[3], v[4], v[5]});
    dynamic.push_back({t, id[b], q[0], q[1], q[2], q[3], q[4], q[5], q[6]});
    velocities.push_back({t, id[b], v[0], v[1], v[2], w[0], w[1], w[2]});
  }
  const nsdyn::SceneContacts& c = e.contacts();
  for (std::size_t k = 0; k < c.size(); ++k) {
    if (!c.active[k]) continue;
    const double* f = &c.frame[9 * k];
    const double* l = &c.impulse[3 * k];
    std::vector<double> row{t, c.mu[k]};
    for (std::size_t j = 0; j < 3; ++j) row.push_back(c.pointA[3 * k + j]);
    for (std::size_t j = 0; j < 3; ++j) row.push_back(c.pointB[3 * k + j]);
    for (std::size_t j = 0; j < 3; ++j) row.push_back(f[j]);
    for (std::size_t j = 0; j < 3; ++j)
      row.push_back((l[0] * f[j] + l[1] * f[3 + j] + l[2] * f[6 + j]) / kH);
    row.insert(row.end(), {c.gap[k], 0.0, 0.0});
    for (std::size_t j = 0; j < 3; ++j) row.push_back(c.velocity[3 * k + j]);
    for (std::size_t j = 0; j < 3; ++j) row.push_back(l[j]);
    row.insert(row.end(), {static_cast<double>(k), id[static_cast<std::size_t>(c.bodyA[k])],
                           id[static_cast<std::size_t>(c.bodyB[k])]});
    cf.push_back(row);
  }
}

/// Rows equal bit for bit.
void assertSameRows(const std::string& what, const Rows& expected, const Rows& found) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": rows", expected.size(), found.size());
  for (std::size_t r = 0; r < expected.size(); ++r) {
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": columns", expected[r].size(), found[r].size());
    for (std::size_t c = 0; c < expected[r].size(); ++c)
      CPPUNIT_ASSERT_EQUAL_MESSAGE(
          what + " row " + std::to_string(r) + " column " + std::to_string(c), expected[r][c],
          found[r][c]);
  }
}

long long integerAttribute(const std::string& path, const char* name) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  CPPUNIT_ASSERT(file >= 0);
  hid_t attr = H5Aopen(file, name, H5P_DEFAULT);
  CPPUNIT_ASSERT_MESSAGE(name, attr >= 0);
  long long value = -1;
  CPPUNIT_ASSERT(H5Aread(attr, H5T_NATIVE_LLONG, &value) >= 0);
  H5Aclose(attr);
  H5Fclose(file);
  return value;
}

template <class F>
std::string errorOf(F f) {
  try {
    f();
  } catch (const nsdyn::Error& e) {
    return e.what();
  }
  CPPUNIT_FAIL("no nsdyn::Error thrown");
  return "";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

class SceneEngineOutputsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SceneEngineOutputsTest);
  CPPUNIT_TEST(viewOfAStore);
  CPPUNIT_TEST(hdf5ReadsBackAsTheEngineArrays);
  CPPUNIT_TEST(vtkOfTheEngine);
  CPPUNIT_TEST(bothEnginesWriteTheSameRows);
  CPPUNIT_TEST(onePartOnly);
  CPPUNIT_TEST_SUITE_END();

 public:
  // the view points into the store's and the contacts' arrays; velocities in the world frame
  void viewOfAStore() {
    auto e = buildEngine(mixedScene());
    for (int k = 0; k < 20; ++k) e->step();
    const nsdyn::BodyStore& s = e->bodies();
    const nsdyn::SceneContacts& c = e->contacts();
    CPPUNIT_ASSERT(c.size() > 0);
    nsdyn::io::SceneFrameView v = nsdyn::io::SceneFrameView::of(s, c);
    CPPUNIT_ASSERT_EQUAL(s.size(), v.bodyCount);
    CPPUNIT_ASSERT(v.q == s.q.data() && v.id == s.id.data() && v.isStatic == s.isStatic.data());
    CPPUNIT_ASSERT(v.shapes == s.shapes.data() && v.shapeStart == s.shapeStart.data());
    CPPUNIT_ASSERT(v.ghost == nullptr);
    CPPUNIT_ASSERT_EQUAL(c.size(), v.contactCount);
    CPPUNIT_ASSERT(v.frame == c.frame.data() && v.impulse == c.impulse.data() &&
                   v.mu == c.mu.data() && v.contactVelocity == c.velocity.data() &&
                   v.active == c.active.data());
    for (std::size_t b = 0; b < s.size(); ++b) {
      const Vec3 w = s.angularVelocityWorld(b);
      for (std::size_t i = 0; i < 3; ++i) {
        CPPUNIT_ASSERT_EQUAL(s.isStatic[b] ? 0.0 : s.v[6 * b + i], v.velocity[6 * b + i]);
        CPPUNIT_ASSERT_EQUAL(s.isStatic[b] ? 0.0 : w[i], v.velocity[6 * b + 3 + i]);
      }
    }
    // moved, it still points at its own velocities
    const nsdyn::io::SceneFrameView moved = std::move(v);
    CPPUNIT_ASSERT_EQUAL(s.v[6 * 2], moved.velocity[6 * 2]);
  }

  // every step of a mixed scene, written from the engine, reads back as its arrays
  void hdf5ReadsBackAsTheEngineArrays() {
    const std::string path = scratch("readback") + "/engine.hdf5";
    auto e = buildEngine(mixedScene());
    Rows dynamic, velocities, cf, energy;
    std::size_t activeSeen = 0;
    {
      nsdyn::io::SceneHdf5Writer writer(path, kH);
      writer.writeStep(e->time(), e->bodies(), e->contacts());
      expectedRows(*e, e->time(), dynamic, velocities, cf);
      double work = 0.0;
      for (int k = 0; k < 120; ++k) {
        const SceneEngine::StepReport& r = e->step();
        CPPUNIT_ASSERT_EQUAL_MESSAGE(r.solver.message, NSD_OK, r.status);
        work += r.contactWork;
        activeSeen += r.active;
        writer.writeStep(r.time, e->bodies(), e->contacts());
        writer.writeSolver(r.time, r.solver.iterations, r.solver.residual);
        writer.writeEnergy(r.time, r.kineticEnergy, r.potentialEnergy, work,
                           r.kineticEnergy + r.potentialEnergy);
        expectedRows(*e, r.time, dynamic, velocities, cf);
        energy.push_back({r.time, r.kineticEnergy, r.potentialEnergy, work,
                          r.kineticEnergy + r.potentialEnergy});
      }
      writer.close();
    }
    CPPUNIT_ASSERT_MESSAGE("contacts in the problem", activeSeen > 100);
    using nsdyn::io::readSceneHdf5Dataset;
    assertSameRows("data/dynamic", dynamic, readSceneHdf5Dataset(path, "data/dynamic"));
    assertSameRows("data/velocities", velocities, readSceneHdf5Dataset(path, "data/velocities"));
    assertSameRows("data/cf", cf, readSceneHdf5Dataset(path, "data/cf"));
    assertSameRows("data/energy", energy, readSceneHdf5Dataset(path, "data/energy"));
    assertSameRows("data/static",
                   {{0.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0},
                    {0.0, -2.0, 0.32, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0}},
                   readSceneHdf5Dataset(path, "data/static"));
    CPPUNIT_ASSERT_EQUAL(8LL, integerAttribute(path, "number_of_bodies"));
    CPPUNIT_ASSERT_EQUAL(6LL, integerAttribute(path, "number_of_dynamic_bodies"));
    CPPUNIT_ASSERT_EQUAL(2LL, integerAttribute(path, "number_of_static_bodies"));
  }

  // the bodies file of an engine frame: the finite bodies at the store's positions
  void vtkOfTheEngine() {
    const std::string dir = scratch("vtk");
    auto e = buildEngine(mixedScene());
    for (int k = 0; k < 30; ++k) e->step();
    nsdyn::io::SceneVtkWriter vtk(dir, "engine");
    vtk.writeFrame(e->time(), kH, e->bodies(), e->contacts());
    const std::vector<std::string> pvd = vtk.finish();
    CPPUNIT_ASSERT_EQUAL(std::size_t{4}, vtk.files().size());
    for (const std::string& f : vtk.files()) CPPUNIT_ASSERT_MESSAGE(f, fs::exists(f));
    std::ifstream in(dir + "/engine_bodies_000000.vtp");
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    CPPUNIT_ASSERT(has(s, "NumberOfPoints=\"7\""));  // the floor is left out
    // the points: the wall, then the six dynamic bodies, as %.17g of the store's q
    const nsdyn::BodyStore& b = e->bodies();
    std::string points;
    for (std::size_t i = 1; i < b.size(); ++i) {
      char line[128];
      std::snprintf(line, sizeof line, "          %.17g %.17g %.17g\n", b.q[7 * i], b.q[7 * i + 1],
                    b.q[7 * i + 2]);
      points += line;
    }
    CPPUNIT_ASSERT_MESSAGE(points, has(s, points));
    std::ifstream inc(dir + "/engine_contacts_000000.vtp");
    std::stringstream ctext;
    ctext << inc.rdbuf();
    CPPUNIT_ASSERT(
        has(ctext.str(), "NumberOfPoints=\"" + std::to_string(e->contacts().activeCount) + "\""));
  }

  // six spheres stepped by both engines: the same HDF5 rows to round-off
  void bothEnginesWriteTheSameRows() {
    const std::string dir = scratch("both");
    const SceneDef d = sphereScene();
    const int steps = 200;
    KernelScene k(d, steps);
    auto e = buildEngine(d);
    std::size_t active = 0;
    {
      nsdyn::io::SceneHdf5Writer hk(dir + "/kernel.hdf5", kH), he(dir + "/engine.hdf5", kH);
      for (int step = 0; step < steps; ++step) {
        k.sim->computeOneStep();
        const double t = k.sim->nextTime();
        hk.writeStep(t, k.contacts->bodies(), k.contacts->contacts());
        k.sim->nextStep();
        const SceneEngine::StepReport& r = e->step();
        CPPUNIT_ASSERT_EQUAL_MESSAGE(r.solver.message, NSD_OK, r.status);
        active += r.active;
        he.writeStep(r.time, e->bodies(), e->contacts());
      }
    }
    CPPUNIT_ASSERT_MESSAGE("contacts in the problem", active > 500);
    double worst = 0.0;
    std::string where;
    for (const char* name : {"data/dynamic", "data/velocities", "data/static", "data/cf"}) {
      const Rows a = nsdyn::io::readSceneHdf5Dataset(dir + "/kernel.hdf5", name);
      const Rows b = nsdyn::io::readSceneHdf5Dataset(dir + "/engine.hdf5", name);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(name) + ": rows", a.size(), b.size());
      CPPUNIT_ASSERT_MESSAGE(name, !a.empty());
      // per column, the scale of its values
      std::vector<double> scale(a.front().size(), 0.0);
      for (const auto& row : a)
        for (std::size_t c = 0; c < row.size(); ++c)
          scale[c] = std::max(scale[c], std::fabs(row[c]));
      for (std::size_t r = 0; r < a.size(); ++r)
        for (std::size_t c = 0; c < a[r].size(); ++c) {
          const bool exact =
              c <= 1 || (std::string(name) == "data/cf" && c >= 23);  // time, ids, index
          const double diff = std::fabs(a[r][c] - b[r][c]);
          if (exact) {
            CPPUNIT_ASSERT_EQUAL_MESSAGE(
                std::string(name) + " row " + std::to_string(r) + " column " + std::to_string(c),
                a[r][c], b[r][c]);
            continue;
          }
          const double rel = diff / std::max(scale[c], 1e-300);
          if (rel > worst) {
            worst = rel;
            where =
                std::string(name) + " row " + std::to_string(r) + " column " + std::to_string(c);
          }
        }
    }
    std::cerr << "\nboth engines, 6 spheres, " << steps << " steps: largest difference " << worst
              << " of the column's scale (" << where << ")\n";
    CPPUNIT_ASSERT_MESSAGE(where + ": " + std::to_string(worst), worst < 1e-9);
  }

  // a frame of another part, with ghosts, or with bodies that changed: refused, nothing written
  void onePartOnly() {
    const std::string path = scratch("parts") + "/parts.hdf5";
    auto e = buildEngine(mixedScene());
    e->step();
    nsdyn::io::SceneHdf5Writer writer(path, kH);
    nsdyn::io::SceneVtkWriter vtk(fs::path(path).parent_path().string() + "/vtk", "parts");
    {
      nsdyn::io::SceneFrameView v = nsdyn::io::SceneFrameView::of(e->bodies(), e->contacts());
      v.part = 1;
      v.parts = 2;
      CPPUNIT_ASSERT(has(errorOf([&] { writer.writeStep(0.0, v); }), "part 1 of 2"));
      CPPUNIT_ASSERT(has(errorOf([&] { vtk.writeFrame(0.0, kH, v); }), "part 1 of 2"));
    }
    {
      std::vector<std::uint8_t> ghost(e->bodies().size(), 0);
      ghost[3] = 1;
      nsdyn::io::SceneFrameView v = nsdyn::io::SceneFrameView::of(e->bodies(), e->contacts());
      v.ghost = ghost.data();
      CPPUNIT_ASSERT(has(errorOf([&] { writer.writeStep(0.0, v); }), "ghost"));
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, writer.rows("dynamic"));
    CPPUNIT_ASSERT_EQUAL(std::size_t{0}, vtk.frameCount());
    writer.writeStep(e->time(), e->bodies(), e->contacts());
    CPPUNIT_ASSERT_EQUAL(std::size_t{6}, writer.rows("dynamic"));
    {
      // a body whose global id was not there at the first step
      nsdyn::io::SceneFrameView v = nsdyn::io::SceneFrameView::of(e->bodies(), e->contacts());
      std::vector<std::int64_t> ids(v.id, v.id + v.bodyCount);
      ids[4] = 99;
      v.id = ids.data();
      CPPUNIT_ASSERT(has(errorOf([&] { writer.writeStep(1.0, v); }), "global id 99"));
      // two bodies with one id
      ids[4] = ids[5];
      CPPUNIT_ASSERT(
          has(errorOf([&] { writer.writeStep(1.0, v); }), "a global id of no other body"));
    }
    CPPUNIT_ASSERT_EQUAL(std::size_t{6}, writer.rows("dynamic"));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SceneEngineOutputsTest);
