// race_bullet: Bullet (btDiscreteDynamicsWorld, sequential impulse) in the race (issue 24).
// Budgets: SI iterations per step. One thread, one step of exactly h per call (no substeps).
//
//   race_bullet --scene NAME [--state FILE] [--quick] [--steps K] [--budgets 5,10,50]
//               [--csv FILE] [--series-dir DIR]
//
// Settings, as a competent user tunes them for each scale:
//   * every scene: friction of the scene on every pair (a combine callback), restitution 0,
//     no damping, no sleeping (DISABLE_DEACTIVATION), warm starting (0.85), SIMD, two
//     friction directions, split impulse on, ERP 0.2, split ERP 0.2, CFM 0;
//   * box scenes (bullet3000, jolt_pyramid: metre-sized cubes): Bullet's defaults as the
//     BenchmarkDemo uses them: btDbvtBroadphase, btBoxShape (collision margin 0.04 inside
//     the box: its surface is exact), contact breaking threshold 0.02 m, split impulse
//     penetration threshold -0.04 m, friction direction caching (the demo's setting);
//     static planes (btStaticPlaneShape) for the ground;
//   * sphere piles (1 cm grains): as Benchmarks/peers: bt32BitAxisSweep3 over the pile
//     (the Dbvt fattens leaves by 5 cm), breaking threshold 1 mm, split impulse threshold
//     -0.4 mm (Bullet's defaults scaled by the grain size).
#include <btBulletDynamicsCommon.h>

#include <memory>

#include "race_driver.hpp"

namespace {

constexpr const char* kUsage =
    "usage: race_bullet --scene NAME [--state FILE] [--quick] [--steps K] [--budgets 5,10,50] "
    "[--csv FILE]\n"
    "                   [--series-dir DIR]\n";

double gMu = 0.5;
btScalar combinedFriction(const btCollisionObject*, const btCollisionObject*) {
  return btScalar(gMu);
}
btScalar combinedRestitution(const btCollisionObject*, const btCollisionObject*) {
  return btScalar(0);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const race::Args a(argc, argv, race::commonOptions(), kUsage);
    const race::Scene s = race::makeScene(a.get("scene", ""), a.get("state", ""), a.quick,
                                          std::atol(a.get("steps", "0").c_str()));
    const bool spheres = s.bodies.front().kind == race::Kind::Sphere;
    gMu = s.mu;
    gCalculateCombinedFrictionCallback = &combinedFriction;
    gCalculateCombinedRestitutionCallback = &combinedRestitution;
    for (double budget : a.list("budgets", "5,10,20,50,100,200,500")) {
      const int iterations = static_cast<int>(budget);
      gContactBreakingThreshold = btScalar(spheres ? 1e-3 : 0.02);
      auto config = std::make_unique<btDefaultCollisionConfiguration>();
      auto dispatcher = std::make_unique<btCollisionDispatcher>(config.get());
      if (spheres)
        dispatcher->setDispatcherFlags(
            dispatcher->getDispatcherFlags() &
            ~btCollisionDispatcher::CD_USE_RELATIVE_CONTACT_BREAKING_THRESHOLD);
      std::unique_ptr<btBroadphaseInterface> broadphase;
      if (spheres) {
        btVector3 lo(1e30, 1e30, 1e30), hi(-1e30, -1e30, -1e30);
        for (const race::Body& b : s.fixed)  // the hopper's parts: their centre +- reach
          for (int d = 0; d < 3; ++d) {
            lo[d] = std::min(lo[d], btScalar(b.x[d] - b.boundingRadius()));
            hi[d] = std::max(hi[d], btScalar(b.x[d] + b.boundingRadius()));
          }
        for (const race::Body& b : s.bodies)
          for (int d = 0; d < 3; ++d) {
            lo[d] = std::min(lo[d], btScalar(b.x[d] - 0.1));
            hi[d] = std::max(hi[d], btScalar(b.x[d] + 0.1));
          }
        broadphase = std::make_unique<bt32BitAxisSweep3>(
            lo, hi, static_cast<unsigned>(s.bodies.size() + 16));
      } else {
        broadphase = std::make_unique<btDbvtBroadphase>();
      }
      auto solver = std::make_unique<btSequentialImpulseConstraintSolver>();
      auto world = std::make_unique<btDiscreteDynamicsWorld>(dispatcher.get(), broadphase.get(),
                                                             solver.get(), config.get());
      world->setGravity(btVector3(0, 0, btScalar(s.gravity)));
      btContactSolverInfo& info = world->getSolverInfo();
      info.m_numIterations = iterations;
      info.m_solverMode = SOLVER_USE_WARMSTARTING | SOLVER_SIMD | SOLVER_USE_2_FRICTION_DIRECTIONS;
      if (!spheres) info.m_solverMode |= SOLVER_ENABLE_FRICTION_DIRECTION_CACHING;
      info.m_splitImpulse = 1;
      info.m_splitImpulsePenetrationThreshold = btScalar(spheres ? -4e-4 : -0.04);
      info.m_erp = btScalar(0.2);
      info.m_erp2 = btScalar(0.2);
      info.m_globalCfm = btScalar(0);

      std::vector<std::unique_ptr<btCollisionShape>> shapes;
      std::vector<std::unique_ptr<btRigidBody>> statics, bodies;
      for (const race::Plane& p : s.planes) {
        auto shape = std::make_unique<btStaticPlaneShape>(
            btVector3(btScalar(p.n[0]), btScalar(p.n[1]), btScalar(p.n[2])), btScalar(p.d));
        btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, shape.get(), btVector3(0, 0, 0));
        ci.m_friction = btScalar(s.mu);
        auto body = std::make_unique<btRigidBody>(ci);
        world->addRigidBody(body.get());
        shapes.push_back(std::move(shape));
        statics.push_back(std::move(body));
      }
      for (const race::Body& f : s.fixed) {
        auto shape = std::make_unique<btBoxShape>(
            btVector3(btScalar(f.half[0]), btScalar(f.half[1]), btScalar(f.half[2])));
        btTransform t;
        t.setIdentity();
        t.setOrigin(btVector3(btScalar(f.x[0]), btScalar(f.x[1]), btScalar(f.x[2])));
        t.setRotation(
            btQuaternion(btScalar(f.q[1]), btScalar(f.q[2]), btScalar(f.q[3]), btScalar(f.q[0])));
        btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, shape.get(), btVector3(0, 0, 0));
        ci.m_startWorldTransform = t;
        ci.m_friction = btScalar(s.mu);
        auto body = std::make_unique<btRigidBody>(ci);
        world->addRigidBody(body.get());
        shapes.push_back(std::move(shape));
        statics.push_back(std::move(body));
      }
      for (const race::Body& b : s.bodies) {
        std::unique_ptr<btCollisionShape> shape;
        if (b.kind == race::Kind::Sphere)
          shape = std::make_unique<btSphereShape>(btScalar(b.half[0]));
        else
          shape = std::make_unique<btBoxShape>(
              btVector3(btScalar(b.half[0]), btScalar(b.half[1]), btScalar(b.half[2])));
        btTransform t;
        t.setIdentity();
        t.setOrigin(btVector3(btScalar(b.x[0]), btScalar(b.x[1]), btScalar(b.x[2])));
        t.setRotation(
            btQuaternion(btScalar(b.q[1]), btScalar(b.q[2]), btScalar(b.q[3]), btScalar(b.q[0])));
        btRigidBody::btRigidBodyConstructionInfo ci(
            btScalar(b.mass), nullptr, shape.get(),
            btVector3(btScalar(b.inertia[0]), btScalar(b.inertia[1]), btScalar(b.inertia[2])));
        ci.m_startWorldTransform = t;
        ci.m_friction = btScalar(s.mu);
        ci.m_restitution = 0;
        auto body = std::make_unique<btRigidBody>(ci);
        body->setLinearVelocity(btVector3(btScalar(b.v[0]), btScalar(b.v[1]), btScalar(b.v[2])));
        body->setAngularVelocity(btVector3(btScalar(b.w[0]), btScalar(b.w[1]), btScalar(b.w[2])));
        body->setActivationState(DISABLE_DEACTIVATION);
        world->addRigidBody(body.get());
        shapes.push_back(std::move(shape));
        bodies.push_back(std::move(body));
      }
      auto step = [&]() {
        world->stepSimulation(btScalar(s.h), 0);  // maxSubSteps 0: one step of exactly h
        return -1.0;
      };
      auto read = [&](std::vector<race::Body>& out) {
        for (std::size_t i = 0; i < out.size(); ++i) {
          const btTransform& t = bodies[i]->getWorldTransform();
          const btQuaternion q = t.getRotation();
          const btVector3 v = bodies[i]->getLinearVelocity(), w = bodies[i]->getAngularVelocity();
          for (int d = 0; d < 3; ++d) {
            out[i].x[d] = double(t.getOrigin()[d]);
            out[i].v[d] = double(v[d]);
            out[i].w[d] = double(w[d]);
          }
          out[i].q = {double(q.w()), double(q.x()), double(q.y()), double(q.z())};
        }
      };
      const race::LoopResult lr =
          race::runLoop(s, race::seriesPath(a, s.name, "bullet", "si", budget), step, read);
      race::Row row;
      row.scene = s.name;
      row.engine = "bullet";
      row.solver = "si";
      row.budgetKind = "iterations";
      row.budget = budget;
      row.bodies = s.bodies.size();
      row.h = s.h;
      row.msStep = lr.msStep;
      row.m = lr.m;
      row.settings = spheres ? "axis sweep; breaking 1 mm; split impulse -0.4 mm"
                             : "dbvt; breaking 0.02; split impulse -0.04; friction caching";
      race::writeRow(a.get("csv", "race.csv"), row);
      for (auto& b : bodies) world->removeRigidBody(b.get());
      for (auto& b : statics) world->removeRigidBody(b.get());
    }
    return 0;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "race_bullet: %s\n", ex.what());
    return 3;
  }
}
