// ode_scene: the granular scene of `granular_scene --export-state` run by ODE (the Open
// Dynamics Engine, double precision), for the peer comparison of Benchmarks/peers (issue
// "Performance at scale"). One thread, fixed step h of the state (1e-3).
//
//   ode_scene --state FILE --steps K [--solver quick|dantzig] [--iterations N] [--csv FILE]
//             [--erp E] [--cfm C] [--max-bodies B]
//
// Settings (stated in doc/benchmarks.md):
//   * spheres: dSphere geoms on bodies with dMassSetSphereTotal (the state's mass, 2/5 m r^2);
//     planes: dPlane geoms (floor, 4 walls), static; collision space: dHashSpace with cell
//     levels 2^-7 .. 2^-3 m (cells of 8 mm .. 12.5 cm around the 2 cm grains), dCollide
//     through dSpaceCollide, at most 4 contacts per pair (spheres and planes give 1);
//   * contact joints: mode dContactApprox1 (the friction pyramid scaled by the normal force,
//     so mu is Coulomb's coefficient: 0.5, two tangent directions), no bounce (e = 0),
//     no per-contact soft ERP/CFM: the world ERP (--erp, default 0.2) and CFM (--cfm,
//     default 1e-9: nearly rigid), contact surface layer 0, max correcting velocity
//     unlimited (ODE's default);
//   * solver quick: dWorldQuickStep (its projected SOR), --iterations (default 20), SOR
//     over-relaxation 1.3 (ODE's default); solver dantzig: dWorldStep (the dense Dantzig LCP
//     with friction bounds, O(n^3)); refuses more than --max-bodies bodies (default 400);
//   * no auto-disable (ODE's default), no damping.
#include <ode/ode.h>

#include <chrono>

#include "peer_common.hpp"

namespace {

constexpr const char* kUsage =
    "usage: ode_scene --state FILE --steps K [--solver quick|dantzig] [--iterations N] [--csv FILE]\n"
    "                 [--erp E] [--cfm C] [--max-bodies B]\n";

constexpr int kMaxContacts = 4;

struct Collide {
  dWorldID world;
  dJointGroupID group;
  double mu;
  long contacts = 0;
};

void nearCallback(void* data, dGeomID a, dGeomID b) {
  auto* c = static_cast<Collide*>(data);
  dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
  if (!ba && !bb) return;  // plane-plane
  dContact contact[kMaxContacts];
  const int found = dCollide(a, b, kMaxContacts, &contact[0].geom, sizeof(dContact));
  for (int i = 0; i < found; ++i) {
    contact[i].surface.mode = dContactApprox1;
    contact[i].surface.mu = c->mu;
    contact[i].surface.bounce = 0;
    dJointID j = dJointCreateContact(c->world, c->group, &contact[i]);
    dJointAttach(j, ba, bb);
  }
  c->contacts += found;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    peers::Args args(argc, argv, {"state", "steps", "solver", "iterations", "csv", "erp", "cfm", "max-bodies"}, kUsage);
    const std::string statePath = args.get("state", "");
    if (statePath.empty()) {
      std::fprintf(stderr, "%s", kUsage);
      return 2;
    }
    const long steps = std::atol(args.get("steps", "100").c_str());
    const std::string solverName = args.get("solver", "quick");
    const int iterations = std::atoi(args.get("iterations", "20").c_str());
    const std::string csv = args.get("csv", "ode_scene.csv");
    const double erp = std::atof(args.get("erp", "0.2").c_str());
    const double cfm = std::atof(args.get("cfm", "1e-9").c_str());
    const long maxBodies = std::atol(args.get("max-bodies", "400").c_str());
    if (solverName != "quick" && solverName != "dantzig") {
      std::fprintf(stderr, "%s", kUsage);
      return 2;
    }

    const peers::State st = peers::load(statePath);
    const std::size_t n = st.spheres.size();
    if (solverName == "dantzig" && static_cast<long>(n) > maxBodies) {
      std::printf("ode_scene: dWorldStep (Dantzig) skipped: %zu bodies > --max-bodies %ld\n", n, maxBodies);
      return 0;
    }

    dInitODE2(0);
    dWorldID world = dWorldCreate();
    dSpaceID space = dHashSpaceCreate(nullptr);
    dHashSpaceSetLevels(space, -7, -3);
    dJointGroupID group = dJointGroupCreate(0);
    dWorldSetGravity(world, 0, 0, st.gravity);
    dWorldSetERP(world, erp);
    dWorldSetCFM(world, cfm);
    dWorldSetQuickStepNumIterations(world, iterations);
    dWorldSetContactSurfaceLayer(world, 0);
    dWorldSetAutoDisableFlag(world, 0);

    for (const peers::Plane& p : peers::planes(st)) dCreatePlane(space, p.n[0], p.n[1], p.n[2], p.d);
    std::vector<dBodyID> bodies;
    bodies.reserve(n);
    for (const peers::Sphere& s : st.spheres) {
      dBodyID b = dBodyCreate(world);
      dMass m;
      dMassSetSphereTotal(&m, s.mass, s.radius);
      dBodySetMass(b, &m);
      dBodySetPosition(b, s.x[0], s.x[1], s.x[2]);
      dQuaternion q = {s.q[0], s.q[1], s.q[2], s.q[3]};
      dBodySetQuaternion(b, q);
      dBodySetLinearVel(b, s.v[0], s.v[1], s.v[2]);
      dBodySetAngularVel(b, s.w[0], s.w[1], s.w[2]);
      dGeomID g = dCreateSphere(space, s.radius);
      dGeomSetBody(g, b);
      bodies.push_back(b);
    }

    const auto planes = peers::planes(st);
    peers::Snapshot snap;
    snap.x.resize(n);
    snap.r.resize(n);
    auto capture = [&]() {
      for (std::size_t b = 0; b < n; ++b) {
        const dReal* o = dBodyGetPosition(bodies[b]);
        snap.x[b] = {o[0], o[1], o[2]};
        snap.r[b] = st.spheres[b].radius;
      }
    };
    capture();
    long touching = 0;
    const double penetrationStart = peers::maxPenetration(snap, planes, &touching);
    double penetration = 0.0, penetrationEnd = 0.0;  // over the steps (after each), and after the last
    std::printf("ode_scene: %zu spheres, start max penetration %.3e m, %ld touching pairs; %s, %d iterations, ERP %g, "
                "CFM %g\n",
                n, penetrationStart, touching, solverName == "quick" ? "dWorldQuickStep" : "dWorldStep (Dantzig)", solverName == "quick" ? iterations : 0, erp, cfm);

    Collide col{world, group, st.mu};
    double seconds = 0.0, touchingSum = 0.0;
    for (long k = 0; k < steps; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      dSpaceCollide(space, &col, &nearCallback);
      if (solverName == "quick") dWorldQuickStep(world, st.h);
      else dWorldStep(world, st.h);
      dJointGroupEmpty(group);
      seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      capture();
      penetrationEnd = peers::maxPenetration(snap, planes, &touching);
      penetration = std::max(penetration, penetrationEnd);
      touchingSum += static_cast<double>(touching);
    }
    double ke = 0.0;
    for (std::size_t b = 0; b < n; ++b) {
      const dReal* v = dBodyGetLinearVel(bodies[b]);
      const dReal* w = dBodyGetAngularVel(bodies[b]);
      const double vv[3] = {v[0], v[1], v[2]}, ww[3] = {w[0], w[1], w[2]};
      ke += peers::kinetic(st.spheres[b], vv, ww);
    }

    peers::Row row;
    row.engine = "ode";
    row.solver = solverName == "quick" ? "quickstep" : "step_dantzig";
    row.iterations = solverName == "quick" ? iterations : 0;
    row.bodies = n;
    row.steps = steps;
    row.msStep = 1e3 * seconds / static_cast<double>(steps);
    row.contactsMean = static_cast<double>(col.contacts) / static_cast<double>(steps);
    row.touchingMean = touchingSum / static_cast<double>(steps);
    row.maxPenetration = penetration;
    row.penetrationEnd = penetrationEnd;
    row.kineticEnd = ke;
    row.pileHeight = peers::pileHeight(snap, st);
    char note[96];
    std::snprintf(note, sizeof note, "ERP %g CFM %g", erp, cfm);
    row.note = note;
    peers::writeRow(csv, row);

    dJointGroupDestroy(group);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    dCloseODE();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ode_scene: %s\n", e.what());
    return 3;
  }
}
