// race_ode: ODE (double precision, dWorldQuickStep: projected SOR) in the race (issue 24).
// Budgets: QuickStep iterations per step. One thread.
//
//   race_ode --scene NAME [--state FILE] [--quick] [--steps K] [--budgets 5,20,100]
//            [--csv FILE] [--series-dir DIR]
//
// Settings, as a competent user tunes them for each scale:
//   * contact joints: dContactApprox1 (the friction pyramid scaled by the normal force: mu is
//     Coulomb's), two tangent directions, no bounce, up to 8 contacts per pair; world ERP
//     0.2; SOR over-relaxation 1.3 (ODE's default); no auto-disable, no damping;
//   * box scenes (metre-sized cubes): dBox geoms, dPlane ground, dHashSpace levels 2^-1 ..
//     2^3 m, ODE's default CFM 1e-5 and a contact surface layer of 1 mm (the ODE manual's
//     advice against jitter of resting boxes);
//   * sphere piles (1 cm grains): as Benchmarks/peers: dSphere, dPlane walls, hash levels
//     2^-7 .. 2^-3 m, CFM 1e-9 (nearly rigid), surface layer 0.
#include <ode/ode.h>

#include "race_driver.hpp"

namespace {

constexpr const char* kUsage =
    "usage: race_ode --scene NAME [--state FILE] [--quick] [--steps K] [--budgets 5,20,100] [--csv "
    "FILE]\n"
    "                [--series-dir DIR]\n";

constexpr int kMaxContacts = 8;

struct Collide {
  dWorldID world;
  dJointGroupID group;
  double mu;
};

void nearCallback(void* data, dGeomID a, dGeomID b) {
  auto* c = static_cast<Collide*>(data);
  dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
  if (!ba && !bb) return;
  dContact contact[kMaxContacts];
  const int found = dCollide(a, b, kMaxContacts, &contact[0].geom, sizeof(dContact));
  for (int i = 0; i < found; ++i) {
    contact[i].surface.mode = dContactApprox1;
    contact[i].surface.mu = c->mu;
    contact[i].surface.bounce = 0;
    dJointID j = dJointCreateContact(c->world, c->group, &contact[i]);
    dJointAttach(j, ba, bb);
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const race::Args a(argc, argv, race::commonOptions(), kUsage);
    const race::Scene s = race::makeScene(a.get("scene", ""), a.get("state", ""), a.quick,
                                          std::atol(a.get("steps", "0").c_str()));
    const bool spheres = s.bodies.front().kind == race::Kind::Sphere;
    dInitODE2(0);
    for (double budget : a.list("budgets", "5,10,20,50,100,200,500")) {
      const int iterations = static_cast<int>(budget);
      dWorldID world = dWorldCreate();
      dSpaceID space = dHashSpaceCreate(nullptr);
      if (spheres)
        dHashSpaceSetLevels(space, -7, -3);
      else
        dHashSpaceSetLevels(space, -1, 3);
      dJointGroupID group = dJointGroupCreate(0);
      dWorldSetGravity(world, 0, 0, s.gravity);
      dWorldSetERP(world, 0.2);
      dWorldSetCFM(world, spheres ? 1e-9 : 1e-5);
      dWorldSetQuickStepNumIterations(world, iterations);
      dWorldSetContactSurfaceLayer(world, spheres ? 0.0 : 1e-3);
      dWorldSetAutoDisableFlag(world, 0);
      for (const race::Plane& p : s.planes) dCreatePlane(space, p.n[0], p.n[1], p.n[2], p.d);
      for (const race::Body& f : s.fixed) {  // static boxes: geoms without a body
        dGeomID g = dCreateBox(space, 2 * f.half[0], 2 * f.half[1], 2 * f.half[2]);
        dGeomSetPosition(g, f.x[0], f.x[1], f.x[2]);
        const dQuaternion q{f.q[0], f.q[1], f.q[2], f.q[3]};
        dGeomSetQuaternion(g, q);
      }
      std::vector<dBodyID> bodies;
      for (const race::Body& b : s.bodies) {
        dBodyID id = dBodyCreate(world);
        dMass m;
        dMassSetParameters(&m, b.mass, 0, 0, 0, b.inertia[0], b.inertia[1], b.inertia[2], 0, 0, 0);
        dBodySetMass(id, &m);
        dBodySetPosition(id, b.x[0], b.x[1], b.x[2]);
        const dQuaternion q{b.q[0], b.q[1], b.q[2], b.q[3]};
        dBodySetQuaternion(id, q);
        dBodySetLinearVel(id, b.v[0], b.v[1], b.v[2]);
        dBodySetAngularVel(id, b.w[0], b.w[1], b.w[2]);
        dGeomID g = b.kind == race::Kind::Sphere
                        ? dCreateSphere(space, b.half[0])
                        : dCreateBox(space, 2 * b.half[0], 2 * b.half[1], 2 * b.half[2]);
        dGeomSetBody(g, id);
        bodies.push_back(id);
      }
      Collide col{world, group, s.mu};
      auto step = [&]() {
        dSpaceCollide(space, &col, &nearCallback);
        dWorldQuickStep(world, s.h);
        dJointGroupEmpty(group);
        return -1.0;
      };
      auto read = [&](std::vector<race::Body>& out) {
        for (std::size_t i = 0; i < out.size(); ++i) {
          const dReal* x = dBodyGetPosition(bodies[i]);
          const dReal* q = dBodyGetQuaternion(bodies[i]);
          const dReal* v = dBodyGetLinearVel(bodies[i]);
          const dReal* w = dBodyGetAngularVel(bodies[i]);
          for (int d = 0; d < 3; ++d) {
            out[i].x[d] = x[d];
            out[i].v[d] = v[d];
            out[i].w[d] = w[d];
          }
          out[i].q = {q[0], q[1], q[2], q[3]};
        }
      };
      const race::LoopResult lr =
          race::runLoop(s, race::seriesPath(a, s.name, "ode", "quickstep", budget), step, read);
      race::Row row;
      row.scene = s.name;
      row.engine = "ode";
      row.solver = "quickstep";
      row.budgetKind = "iterations";
      row.budget = budget;
      row.bodies = s.bodies.size();
      row.h = s.h;
      row.msStep = lr.msStep;
      row.m = lr.m;
      row.settings = spheres ? "ERP 0.2; CFM 1e-9; layer 0" : "ERP 0.2; CFM 1e-5; layer 1 mm";
      race::writeRow(a.get("csv", "race.csv"), row);
      dJointGroupDestroy(group);
      dSpaceDestroy(space);
      dWorldDestroy(world);
    }
    dCloseODE();
    return 0;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "race_ode: %s\n", ex.what());
    return 3;
  }
}
