// race_mujoco: MuJoCo (Debian libmujoco-dev 2.2) in the race (issue 24). Budgets: solver
// iterations per step (MuJoCo's tolerance kept at its default 1e-8: a step may stop
// earlier). The scene is written as MJCF (one free body per grain or cube, planes for the
// ground and walls) and loaded with mj_loadXML. One thread.
//
//   race_mujoco --scene NAME [--state FILE] [--quick] [--steps K] [--budgets 5,20,100]
//               [--solver newton|cg|pgs] [--cone elliptic|pyramidal] [--max-bodies-newton N]
//               [--csv FILE] [--series-dir DIR] [--keep-xml FILE] [--njmax ROWS]
//
// Settings, as a competent user sets them: condim 3 (Coulomb friction only: no torsional
// or rolling friction, as the other engines), the scene's mu, the bodies' mass and diagonal
// inertia given explicitly (<inertial>), integrator Euler (MuJoCo's default), solimp at its
// default (0.9 0.95 0.001); solref time constant 0.02 s (the default) for the box scenes at
// h = 1/60 (MuJoCo raises it to 2h itself) and 0.004 s for the 1 cm grains at h = 1e-3
// (4 steps, above the 2h floor: the default 0.02 s would let the grains sink); nconmax 48 per
// body (boxes: up to 8 points per pair with up to 8 neighbours) or 12 (spheres), njmax 4 rows per
// contact up to --njmax (8,000, see kMaxRows). Newton with elliptic cones builds a dense Hessian:
// the run is refused above --max-bodies-newton bodies (default 600; 2.2 allocates its data in one
// arena of at most 2 GiB), with a message.
#include <mujoco/mujoco.h>

#include <unistd.h>
#include <cmath>
#include <fstream>
#include <sstream>

#include "race_driver.hpp"

namespace {

constexpr const char* kUsage =
    "usage: race_mujoco --scene NAME [--state FILE] [--quick] [--steps K] [--budgets 5,20,100]\n"
    "                   [--solver newton|cg|pgs] [--cone elliptic|pyramidal] [--max-bodies-newton "
    "N]\n"
    "                   [--csv FILE] [--series-dir DIR] [--keep-xml FILE] [--njmax ROWS]\n";

// 2.2 allocates efc_AR (njmax x njmax doubles) and its dense nv x nv matrices in one arena of
// at most 2 GiB: 8,000 rows fit beside 500 free bodies; a scene needing more rows gets
// MuJoCo's warning (counted in the row's settings); one whose data does not fit (about 600
// free bodies and more: 1,240 cubes already do not) is reported and gives no row.
constexpr std::size_t kMaxRows = 8000;

std::string mjcf(const race::Scene& s, const std::string& solver, const std::string& cone,
                 int iterations, std::size_t maxRows) {
  const bool spheres = s.bodies.front().kind == race::Kind::Sphere;
  const std::size_t n = s.bodies.size();
  const std::size_t ncon = (spheres ? 12 : 48) * n + 64;
  std::ostringstream x;
  x.precision(17);
  x << "<mujoco model=\"race_" << s.name << "\">\n"
    << "  <option timestep=\"" << s.h << "\" gravity=\"0 0 " << s.gravity << "\" solver=\""
    << (solver == "newton" ? "Newton"
        : solver == "cg"   ? "CG"
                           : "PGS")
    << "\" cone=\"" << cone << "\" iterations=\"" << iterations << "\"/>\n"
    << "  <size nconmax=\"" << ncon << "\" njmax=\"" << std::min<std::size_t>(4 * ncon, maxRows)
    << "\"/>\n"
    << "  <default><geom condim=\"3\" friction=\"" << s.mu << " 0 0\" solref=\""
    << (spheres ? 0.004 : 0.02) << " 1\"/></default>\n"
    << "  <worldbody>\n";
  for (const race::Plane& p : s.planes)
    x << "    <geom type=\"plane\" size=\"0 0 1\" pos=\"" << p.d * p.n[0] << " " << p.d * p.n[1]
      << " " << p.d * p.n[2] << "\" zaxis=\"" << p.n[0] << " " << p.n[1] << " " << p.n[2]
      << "\"/>\n";
  for (const race::Body& f : s.fixed)
    x << "    <geom type=\"box\" size=\"" << f.half[0] << " " << f.half[1] << " " << f.half[2]
      << "\" pos=\"" << f.x[0] << " " << f.x[1] << " " << f.x[2] << "\" quat=\"" << f.q[0] << " "
      << f.q[1] << " " << f.q[2] << " " << f.q[3] << "\"/>\n";
  for (const race::Body& b : s.bodies) {
    x << "    <body pos=\"" << b.x[0] << " " << b.x[1] << " " << b.x[2] << "\" quat=\"" << b.q[0]
      << " " << b.q[1] << " " << b.q[2] << " " << b.q[3]
      << "\"><freejoint/><inertial pos=\"0 0 0\" mass=\"" << b.mass << "\" diaginertia=\""
      << b.inertia[0] << " " << b.inertia[1] << " " << b.inertia[2] << "\"/>";
    if (b.kind == race::Kind::Sphere)
      x << "<geom type=\"sphere\" size=\"" << b.half[0] << "\"/>";
    else
      x << "<geom type=\"box\" size=\"" << b.half[0] << " " << b.half[1] << " " << b.half[2]
        << "\"/>";
    x << "</body>\n";
  }
  x << "  </worldbody>\n</mujoco>\n";
  return x.str();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::vector<std::string> known = race::commonOptions();
    known.insert(known.end(), {"cone", "max-bodies-newton", "keep-xml", "njmax"});
    const race::Args a(argc, argv, known, kUsage);
    const race::Scene s = race::makeScene(a.get("scene", ""), a.get("state", ""), a.quick,
                                          std::atol(a.get("steps", "0").c_str()));
    const std::string solver = a.get("solver", "newton"), cone = a.get("cone", "elliptic");
    if ((solver != "newton" && solver != "cg" && solver != "pgs") ||
        (cone != "elliptic" && cone != "pyramidal")) {
      std::fprintf(stderr, "race_mujoco: --solver newton|cg|pgs and --cone elliptic|pyramidal\n%s",
                   kUsage);
      return 2;
    }
    const long maxNewton = std::atol(a.get("max-bodies-newton", "600").c_str());
    if (solver == "newton" && static_cast<long>(s.bodies.size()) > maxNewton) {
      std::printf(
          "race_mujoco: %s: Newton skipped: %zu bodies > --max-bodies-newton %ld (dense Hessian, 2 "
          "GiB arena)\n",
          s.name.c_str(), s.bodies.size(), maxNewton);
      return 0;
    }
    const std::string label = solver + "_" + cone;
    const std::size_t maxRows =
        static_cast<std::size_t>(std::atol(a.get("njmax", std::to_string(kMaxRows)).c_str()));
    for (double budget : a.list("budgets", "5,10,20,50,100,200,500")) {
      const std::string xml = mjcf(s, solver, cone, static_cast<int>(budget), maxRows);
      std::string path = a.get("keep-xml", "");
      const bool keep = !path.empty();
      if (!keep) path = "/tmp/race_mujoco_" + std::to_string(::getpid()) + ".xml";
      {
        std::ofstream f(path);
        f << xml;
        if (!f) throw std::runtime_error("cannot write " + path);
      }
      char error[1000] = "";
      mjModel* m = mj_loadXML(path.c_str(), nullptr, error, sizeof error);
      if (!keep) std::remove(path.c_str());
      if (!m && std::string(error).find("mjData") != std::string::npos) {
        std::printf(
            "race_mujoco: %s (%zu bodies): does not fit MuJoCo 2.2's data arena (%s): no row\n",
            s.name.c_str(), s.bodies.size(), error);
        return 0;
      }
      if (!m) throw std::runtime_error(std::string("mj_loadXML: ") + error);
      mjData* d = mj_makeData(m);
      if (!d) throw std::runtime_error("mj_makeData failed (arena too large?)");
      // initial velocities: free joint qvel = linear (world), angular (body frame)
      for (std::size_t i = 0; i < s.bodies.size(); ++i) {
        const race::Body& b = s.bodies[i];
        mjtNum wb[3], q[4] = {b.q[0], b.q[1], b.q[2], b.q[3]}, qc[4];
        mju_negQuat(qc, q);
        const mjtNum w[3] = {b.w[0], b.w[1], b.w[2]};
        mju_rotVecQuat(wb, w, qc);
        for (int k = 0; k < 3; ++k) {
          d->qvel[6 * i + k] = b.v[k];
          d->qvel[6 * i + 3 + k] = wb[k];
        }
      }
      mj_forward(m, d);
      long warnings = 0;
      auto step = [&]() {
        mj_step(m, d);
        return -1.0;
      };
      auto read = [&](std::vector<race::Body>& out) {
        for (std::size_t i = 0; i < out.size(); ++i) {
          const mjtNum* qp = d->qpos + 7 * i;
          const mjtNum* qv = d->qvel + 6 * i;
          mjtNum w[3];
          mju_rotVecQuat(w, qv + 3, qp + 3);
          for (int k = 0; k < 3; ++k) {
            out[i].x[k] = qp[k];
            out[i].v[k] = qv[k];
            out[i].w[k] = w[k];
          }
          out[i].q = {qp[3], qp[4], qp[5], qp[6]};
        }
      };
      const race::LoopResult lr =
          race::runLoop(s, race::seriesPath(a, s.name, "mujoco", label, budget), step, read);
      for (int k = 0; k < mjNWARNING; ++k) warnings += d->warning[k].number;
      race::Row row;
      row.scene = s.name;
      row.engine = "mujoco";
      row.solver = label;
      row.budgetKind = "iterations";
      row.budget = budget;
      row.bodies = s.bodies.size();
      row.h = s.h;
      row.msStep = lr.msStep;
      row.m = lr.m;
      char settings[160];
      std::snprintf(settings, sizeof settings,
                    "condim 3; solref %g 1; tolerance 1e-8; %ld warnings",
                    s.bodies.front().kind == race::Kind::Sphere ? 0.004 : 0.02, warnings);
      row.settings = settings;
      race::writeRow(a.get("csv", "race.csv"), row);
      mj_deleteData(d);
      mj_deleteModel(m);
    }
    return 0;
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "race_mujoco: %s\n", ex.what());
    return 3;
  }
}
