// bullet_scene: the granular scene of `granular_scene --export-state` run by Bullet
// (btDiscreteDynamicsWorld), for the peer comparison of Benchmarks/peers (issue
// "Performance at scale"). One thread, fixed step h of the state (1e-3), no substeps.
//
//   bullet_scene --state FILE --steps K [--solver si|mlcp] [--iterations N] [--csv FILE]
//                [--breaking-threshold M] [--max-bodies B] [--broadphase sap|dbvt]
//
// Settings (scaled to spheres of radius 1 cm, stated in doc/benchmarks.md):
//   * spheres: btSphereShape (its margin is its radius, Bullet's rule for spheres), mass and
//     inertia 2/5 m r^2 of the state; planes: btStaticPlaneShape (floor, 4 walls), margin 0;
//   * friction 0.5 on every pair (a combine callback: Bullet's default multiplies the two
//     bodies' frictions), restitution 0, no damping, no rolling friction, no sleeping
//     (DISABLE_DEACTIVATION: the default thresholds would put 1 cm grains to sleep at once);
//   * contact breaking threshold absolute (relative mode off) = --breaking-threshold,
//     default 1 mm = 0.1 r (Bullet's default is 2 cm, twice a radius); it is also the
//     enlargement of the AABBs in the broadphase;
//   * broadphase: bt32BitAxisSweep3 over the container + 10 cm (default, --broadphase sap),
//     or btDbvtBroadphase (--broadphase dbvt: its leaves are fattened by a fixed 5 cm, so
//     it reports ~170 partners per 1 cm sphere; see below);
//   * solver si: btSequentialImpulseConstraintSolver, --iterations (default 10), warm
//     starting (0.85), two friction directions per contact, split impulse on (its
//     penetration threshold scaled from -4 cm to -0.4 mm), ERP 0.2 / split ERP 0.2, CFM 0;
//   * solver mlcp: btMLCPSolver + btDantzigSolver (the dense Dantzig LCP with friction
//     bounds), the same settings, islands not merged (minimum batch 1); it falls back to
//     --iterations SI sweeps when Dantzig fails (counted in the note). Refuses more than
//     --max-bodies bodies (default 400): its matrix is dense.
#include <btBulletDynamicsCommon.h>

#include <BulletDynamics/MLCPSolvers/btDantzigSolver.h>
#include <BulletDynamics/MLCPSolvers/btMLCPSolver.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>

#include <chrono>
#include <memory>

#include "peer_common.hpp"

namespace {

constexpr const char* kUsage =
    "usage: bullet_scene --state FILE --steps K [--solver si|mlcp] [--iterations N] [--csv FILE]\n"
    "                    [--breaking-threshold M] [--max-bodies B] [--broadphase sap|dbvt]\n";

double gMu = 0.5;
btScalar combinedFriction(const btCollisionObject*, const btCollisionObject*) { return btScalar(gMu); }
btScalar combinedRestitution(const btCollisionObject*, const btCollisionObject*) { return btScalar(0); }

}  // namespace

int main(int argc, char** argv) {
  try {
    peers::Args args(argc, argv, {"state", "steps", "solver", "iterations", "csv", "breaking-threshold", "max-bodies",
                                        "broadphase"},
                     kUsage);
    const std::string statePath = args.get("state", "");
    if (statePath.empty()) {
      std::fprintf(stderr, "%s", kUsage);
      return 2;
    }
    const long steps = std::atol(args.get("steps", "100").c_str());
    const std::string solverName = args.get("solver", "si");
    const int iterations = std::atoi(args.get("iterations", "10").c_str());
    const std::string csv = args.get("csv", "bullet_scene.csv");
    const double breaking = std::atof(args.get("breaking-threshold", "0.001").c_str());
    const long maxBodies = std::atol(args.get("max-bodies", "400").c_str());
    const std::string broadphaseName = args.get("broadphase", "sap");
    if ((solverName != "si" && solverName != "mlcp") || (broadphaseName != "sap" && broadphaseName != "dbvt")) {
      std::fprintf(stderr, "%s", kUsage);
      return 2;
    }

    const peers::State st = peers::load(statePath);
    const std::size_t n = st.spheres.size();
    if (solverName == "mlcp" && static_cast<long>(n) > maxBodies) {
      std::printf("bullet_scene: mlcp (Dantzig) skipped: %zu bodies > --max-bodies %ld\n", n, maxBodies);
      return 0;
    }
    gMu = st.mu;

    // world
    gContactBreakingThreshold = btScalar(breaking);
    gCalculateCombinedFrictionCallback = &combinedFriction;
    gCalculateCombinedRestitutionCallback = &combinedRestitution;
    auto config = std::make_unique<btDefaultCollisionConfiguration>();
    auto dispatcher = std::make_unique<btCollisionDispatcher>(config.get());
    dispatcher->setDispatcherFlags(dispatcher->getDispatcherFlags() &
                                   ~btCollisionDispatcher::CD_USE_RELATIVE_CONTACT_BREAKING_THRESHOLD);
    // Broadphase. btDbvtBroadphase fattens its tree leaves by DBVT_BP_MARGIN = 5 cm (a
    // compile-time constant for metre-sized objects) and reports the pairs of the fattened
    // leaves: ~170 partners per 1 cm sphere, 340k manifolds at 2,000 spheres. The sweep and
    // prune (bt32BitAxisSweep3, quantised over the container + 10 cm) reports true AABB
    // overlaps: the choice for small grains; --broadphase dbvt keeps Bullet's default.
    std::unique_ptr<btBroadphaseInterface> broadphase;
    if (broadphaseName == "dbvt") broadphase = std::make_unique<btDbvtBroadphase>();
    else {
      double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
      for (const peers::Sphere& s : st.spheres)
        for (int d = 0; d < 3; ++d) {
          lo[d] = std::min(lo[d], s.x[d] - s.radius);
          hi[d] = std::max(hi[d], s.x[d] + s.radius);
        }
      if (st.hasBox)
        for (int d = 0; d < 3; ++d) {
          lo[d] = std::min(lo[d], st.box[d]);
          hi[d] = std::max(hi[d], st.box[d + 3]);
        }
      broadphase = std::make_unique<bt32BitAxisSweep3>(btVector3(btScalar(lo[0] - 0.1), btScalar(lo[1] - 0.1), btScalar(lo[2] - 0.1)),
                                                       btVector3(btScalar(hi[0] + 0.1), btScalar(hi[1] + 0.1), btScalar(hi[2] + 0.1)),
                                                       static_cast<unsigned>(n + 16));
    }
    std::unique_ptr<btDantzigSolver> dantzig;
    std::unique_ptr<btSequentialImpulseConstraintSolver> solver;
    btMLCPSolver* mlcp = nullptr;
    if (solverName == "mlcp") {
      dantzig = std::make_unique<btDantzigSolver>();
      auto m = std::make_unique<btMLCPSolver>(dantzig.get());
      mlcp = m.get();
      solver = std::move(m);
    } else {
      solver = std::make_unique<btSequentialImpulseConstraintSolver>();
    }
    auto world = std::make_unique<btDiscreteDynamicsWorld>(dispatcher.get(), broadphase.get(), solver.get(), config.get());
    world->setGravity(btVector3(0, 0, btScalar(st.gravity)));
    btContactSolverInfo& info = world->getSolverInfo();
    info.m_numIterations = iterations;
    info.m_solverMode = SOLVER_USE_WARMSTARTING | SOLVER_SIMD | SOLVER_USE_2_FRICTION_DIRECTIONS;
    info.m_splitImpulse = 1;
    info.m_splitImpulsePenetrationThreshold = btScalar(-0.0004);
    info.m_erp = btScalar(0.2);
    info.m_erp2 = btScalar(0.2);
    info.m_globalCfm = btScalar(0);
    info.m_linearSlop = btScalar(0);
    if (mlcp) info.m_minimumSolverBatchSize = 1;

    // planes (static)
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> statics;
    for (const peers::Plane& p : peers::planes(st)) {
      auto shape = std::make_unique<btStaticPlaneShape>(btVector3(btScalar(p.n[0]), btScalar(p.n[1]), btScalar(p.n[2])),
                                                         btScalar(p.d));
      shape->setMargin(0);
      btRigidBody::btRigidBodyConstructionInfo ci(0, nullptr, shape.get(), btVector3(0, 0, 0));
      ci.m_friction = btScalar(st.mu);
      ci.m_restitution = 0;
      auto body = std::make_unique<btRigidBody>(ci);
      world->addRigidBody(body.get());
      shapes.push_back(std::move(shape));
      statics.push_back(std::move(body));
    }
    // spheres
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    bodies.reserve(n);
    for (const peers::Sphere& s : st.spheres) {
      auto shape = std::make_unique<btSphereShape>(btScalar(s.radius));
      btVector3 inertia;
      shape->calculateLocalInertia(btScalar(s.mass), inertia);
      btTransform t;
      t.setIdentity();
      t.setOrigin(btVector3(btScalar(s.x[0]), btScalar(s.x[1]), btScalar(s.x[2])));
      t.setRotation(btQuaternion(btScalar(s.q[1]), btScalar(s.q[2]), btScalar(s.q[3]), btScalar(s.q[0])));
      btRigidBody::btRigidBodyConstructionInfo ci(btScalar(s.mass), nullptr, shape.get(), inertia);
      ci.m_startWorldTransform = t;
      ci.m_friction = btScalar(st.mu);
      ci.m_restitution = 0;
      ci.m_linearDamping = 0;
      ci.m_angularDamping = 0;
      auto body = std::make_unique<btRigidBody>(ci);
      body->setLinearVelocity(btVector3(btScalar(s.v[0]), btScalar(s.v[1]), btScalar(s.v[2])));
      body->setAngularVelocity(btVector3(btScalar(s.w[0]), btScalar(s.w[1]), btScalar(s.w[2])));
      body->setActivationState(DISABLE_DEACTIVATION);
      world->addRigidBody(body.get());
      shapes.push_back(std::move(shape));
      bodies.push_back(std::move(body));
    }

    const auto planes = peers::planes(st);
    peers::Snapshot snap;
    snap.x.resize(n);
    snap.r.resize(n);
    auto capture = [&]() {
      for (std::size_t b = 0; b < n; ++b) {
        const btVector3& o = bodies[b]->getWorldTransform().getOrigin();
        snap.x[b] = {double(o.x()), double(o.y()), double(o.z())};
        snap.r[b] = st.spheres[b].radius;
      }
    };
    capture();
    long touching = 0;
    const double penetrationStart = peers::maxPenetration(snap, planes, &touching);
    double penetration = 0.0, penetrationEnd = 0.0;  // over the steps (after each), and after the last  // of the start state, too
    std::printf("bullet_scene: %zu spheres, start max penetration %.3e m, %ld touching pairs; solver %s, %d iterations, "
                "breaking threshold %g m\n",
                n, penetrationStart, touching, solverName.c_str(), iterations, double(gContactBreakingThreshold));

    double seconds = 0.0, contacts = 0.0, touchingSum = 0.0;
    for (long k = 0; k < steps; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      world->stepSimulation(btScalar(st.h), 0);  // maxSubSteps 0: one step of exactly h
      const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      seconds += dt;
      if (std::getenv("PEERS_VERBOSE"))
        std::printf("  step %ld: %.3f ms, %d broadphase pairs, %d manifolds\n", k, 1e3 * dt,
                    broadphase->getOverlappingPairCache()->getNumOverlappingPairs(), dispatcher->getNumManifolds());
      long c = 0;
      for (int m = 0; m < dispatcher->getNumManifolds(); ++m) c += dispatcher->getManifoldByIndexInternal(m)->getNumContacts();
      contacts += static_cast<double>(c);
      capture();
      penetrationEnd = peers::maxPenetration(snap, planes, &touching);
      penetration = std::max(penetration, penetrationEnd);
      touchingSum += static_cast<double>(touching);
    }
    double ke = 0.0;
    for (std::size_t b = 0; b < n; ++b) {
      const btVector3 v = bodies[b]->getLinearVelocity(), w = bodies[b]->getAngularVelocity();
      const double vv[3] = {v.x(), v.y(), v.z()}, ww[3] = {w.x(), w.y(), w.z()};
      ke += peers::kinetic(st.spheres[b], vv, ww);
    }

    peers::Row row;
    row.engine = "bullet";
    row.solver = solverName == "si" ? "seq_impulse" : "mlcp_dantzig";
    row.iterations = iterations;
    row.bodies = n;
    row.steps = steps;
    row.msStep = 1e3 * seconds / static_cast<double>(steps);
    row.contactsMean = contacts / static_cast<double>(steps);
    row.touchingMean = touchingSum / static_cast<double>(steps);
    row.maxPenetration = penetration;
    row.penetrationEnd = penetrationEnd;
    row.kineticEnd = ke;
    row.pileHeight = peers::pileHeight(snap, st);
    char note[96];
    std::snprintf(note, sizeof note, "%s; breaking %g m", broadphaseName.c_str(), breaking);
    row.note = note;
    if (mlcp) row.note += "; SI fallbacks " + std::to_string(mlcp->getNumFallbacks());
    peers::writeRow(csv, row);

    for (auto& b : bodies) world->removeRigidBody(b.get());
    for (auto& b : statics) world->removeRigidBody(b.get());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bullet_scene: %s\n", e.what());
    return 3;
  }
}
