// A small mixed scene written as a scene HDF5 file, for the tests of the Siconos layout
// (SiconosLayoutTest.cpp) and of Siconos's own tools on it (siconos_tools_check.py):
// a floor (half-space, tilted by nothing), a static wall box, and five dynamic bodies,
// one of each finite shape (sphere, box, capsule, cylinder, convex hull), the box and the
// cylinder turned, all thrown sideways so that they move, turn and touch.
#ifndef NSDYN_TESTS_IO_SICONOSSCENE_HPP
#define NSDYN_TESTS_IO_SICONOSSCENE_HPP

#include <memory>
#include <string>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/SceneEngine.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/io/SceneHdf5Writer.hpp"
#include "nsdyn/nsd_solvers.h"

namespace siconos_scene {

using Vec3 = nsdyn::Shape::Vec3;
using Quat = nsdyn::Shape::Quat;

constexpr double kH = 2e-3;

inline nsdyn::ShapeInstance inst(std::shared_ptr<const nsdyn::Shape> s, const Vec3& at = {0, 0, 0},
                                 const Quat& r = {1, 0, 0, 0}) {
  nsdyn::ShapeInstance i;
  i.shape = std::move(s);
  i.position = at;
  i.orientation = r;
  return i;
}

inline nsdyn::BodySpec body(const std::string& name, std::vector<nsdyn::ShapeInstance> shapes,
                            const Vec3& x, const Quat& q, const std::array<double, 6>& v) {
  nsdyn::BodySpec s;
  s.name = name;
  s.shapes = std::move(shapes);
  s.density = 1000.0;
  s.position = x;
  s.orientation = q;
  s.velocity = v;
  return s;
}

/// The scene: static bodies first (Siconos ids −1 floor, −2 wall), then the dynamic ones
/// (ids 1 sphere, 2 box, 3 capsule, 4 cylinder, 5 hull).
inline std::unique_ptr<nsdyn::SceneEngine> build() {
  nsdyn::SceneEngine::Options o;
  o.h = kH;
  o.solver = "nsgs";
  nsd_solver_options_default(&o.solverOptions);
  o.solverOptions.tolerance = 1e-10;
  o.solverOptions.max_iterations = 10000;
  o.contacts.detection.threads = 1;
  auto e = std::make_unique<nsdyn::SceneEngine>(o);
  e->setDefaultMaterial({0.4, 0.0});
  const auto axis = [](double x, double y, double z, double a) {
    return nsdyn::quaternion::fromAxisAngle({x, y, z}, a);
  };
  e->addBody(
      nsdyn::makeStaticBody({inst(std::make_shared<nsdyn::HalfSpaceShape>(Vec3{0, 0, 1}, 0.0))}));
  e->addBody(nsdyn::makeStaticBody({inst(std::make_shared<nsdyn::BoxShape>(Vec3{0.02, 0.3, 0.1}))},
                                   {0.5, 0.0, 0.1}, axis(0, 0, 1, 0.2)));
  e->addBody(body("sphere", {inst(std::make_shared<nsdyn::SphereShape>(0.05))}, {0, 0, 0.06},
                  {1, 0, 0, 0}, {0.8, 0.1, 0, 0, 0, 2}));
  e->addBody(body("box", {inst(std::make_shared<nsdyn::BoxShape>(Vec3{0.05, 0.03, 0.02}))},
                  {0.15, 0.12, 0.08}, axis(0.2, 0.3, 1.0, 0.5), {0.5, 0, 0.3, 1.0, -2.0, 0.5}));
  e->addBody(body(
      "capsule",
      {inst(std::make_shared<nsdyn::CapsuleShape>(0.02, 0.05), {0.01, 0, 0}, axis(0, 1, 0, 0.3))},
      {-0.1, 0.1, 0.1}, axis(1, 0, 0, 0.7), {0.3, -0.2, 0, 0, 3, 0}));
  e->addBody(body("cylinder", {inst(std::make_shared<nsdyn::CylinderShape>(0.03, 0.04))},
                  {0.1, -0.15, 0.1}, axis(1, 1, 0, 0.9), {0.2, 0.4, 0, 2, 0, 1}));
  e->addBody(body("hull",
                  {inst(std::make_shared<nsdyn::ConvexHullShape>(std::vector<Vec3>{
                      {0.04, 0, 0}, {-0.03, 0.03, 0}, {-0.03, -0.03, 0}, {0, 0, 0.05}}))},
                  {-0.15, -0.1, 0.05}, axis(0, 0, 1, 0.4), {0.4, 0, 0.5, 0, 0, 4}));
  return e;
}

/// Run the scene for @p steps steps, writing @p path (the initial state and every step).
inline void write(const std::string& path, int steps) {
  auto e = build();
  nsdyn::io::SceneHdf5Writer w(path, kH);
  w.writeStep(e->time(), e->bodies(), e->contacts());
  w.writeSolver(e->time(), 0, 0.0);
  for (int k = 0; k < steps; ++k) {
    const auto& r = e->step();
    w.writeStep(r.time, e->bodies(), e->contacts());
    w.writeSolver(r.time, r.solver.iterations, r.solver.residual);
    w.writeEnergy(r.time, r.kineticEnergy, r.potentialEnergy, 0.0,
                  r.kineticEnergy + r.potentialEnergy);
  }
  w.close();
}

}  // namespace siconos_scene

#endif
