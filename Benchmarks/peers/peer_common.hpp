// peer_common.hpp: what the peer drivers (bullet_scene, ode_scene) share: the settled state
// written by `granular_scene --export-state` (one sphere a line: x y z qw qx qy qz vx vy vz
// wx wy wz radius mass, angular velocity in the world frame; a header "# scene S h .. mu ..
// e .. gravity .. box xmin ymin zmin xmax ymax zmax"), the measures computed by the driver
// itself from positions (so that every engine is measured the same way), and the CSV row.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace peers {

struct Sphere {
  double x[3];
  double q[4];  // w x y z
  double v[3];
  double w[3];  // world frame
  double radius;
  double mass;
};

struct State {
  std::string scene;
  double h = 1e-3, mu = 0.5, e = 0.0, gravity = -9.81;
  bool hasBox = false;
  double box[6] = {0, 0, 0, 0, 0, 0};  // xmin ymin zmin xmax ymax zmax
  std::vector<Sphere> spheres;
};

inline State load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read state file " + path);
  State s;
  std::string line;
  if (!std::getline(in, line) || line.rfind("#", 0) != 0) throw std::runtime_error("state file without a '# scene' header: " + path);
  {
    std::istringstream hs(line.substr(1));
    std::string key;
    while (hs >> key) {
      if (key == "scene") hs >> s.scene;
      else if (key == "h") hs >> s.h;
      else if (key == "mu") hs >> s.mu;
      else if (key == "e") hs >> s.e;
      else if (key == "gravity") hs >> s.gravity;
      else if (key == "box") {
        std::string first;
        hs >> first;
        if (first == "none") s.hasBox = false;
        else {
          s.hasBox = true;
          s.box[0] = std::stod(first);
          for (int k = 1; k < 6; ++k) hs >> s.box[k];
        }
      }
    }
  }
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    Sphere p{};
    ls >> p.x[0] >> p.x[1] >> p.x[2] >> p.q[0] >> p.q[1] >> p.q[2] >> p.q[3] >> p.v[0] >> p.v[1] >> p.v[2] >> p.w[0] >>
        p.w[1] >> p.w[2] >> p.radius >> p.mass;
    if (!ls) throw std::runtime_error("bad sphere line in " + path + ": " + line);
    s.spheres.push_back(p);
  }
  if (s.spheres.empty()) throw std::runtime_error("no spheres in " + path);
  return s;
}

/// The planes of the container (floor z = zmin, 4 walls), as n.x >= d (n points inside).
struct Plane {
  double n[3];
  double d;
};
inline std::vector<Plane> planes(const State& s) {
  if (!s.hasBox) return {};
  const double* b = s.box;
  return {{{0, 0, 1}, b[2]}, {{1, 0, 0}, b[0]}, {{-1, 0, 0}, -b[3]}, {{0, 1, 0}, b[1]}, {{0, -1, 0}, -b[4]}};
}

/// Positions and radii for the measures.
struct Snapshot {
  std::vector<std::array<double, 3>> x;
  std::vector<double> r;
};

/// Largest overlap (r1 + r2 - distance, sphere-sphere; r - signed distance to the plane,
/// sphere-plane) over all pairs, brute force over the neighbour cells of a uniform grid
/// (cell = largest diameter). 0 when nothing overlaps. @p touching: pairs with overlap > 0.
inline double maxPenetration(const Snapshot& s, const std::vector<Plane>& pl, long* touching = nullptr) {
  const std::size_t n = s.x.size();
  double rmax = 0.0;
  for (double r : s.r) rmax = std::max(rmax, r);
  const double cell = 2.0 * rmax;
  auto key = [](long i, long j, long k) {
    return (static_cast<unsigned long long>(i & 0x1FFFFF) << 42) | (static_cast<unsigned long long>(j & 0x1FFFFF) << 21) |
           static_cast<unsigned long long>(k & 0x1FFFFF);
  };
  std::unordered_map<unsigned long long, std::vector<std::size_t>> grid;
  grid.reserve(2 * n);
  std::vector<std::array<long, 3>> c(n);
  for (std::size_t a = 0; a < n; ++a) {
    for (int d = 0; d < 3; ++d) c[a][d] = static_cast<long>(std::floor(s.x[a][d] / cell));
    grid[key(c[a][0], c[a][1], c[a][2])].push_back(a);
  }
  double worst = 0.0;
  long count = 0;
  for (std::size_t a = 0; a < n; ++a) {
    for (const Plane& p : pl) {
      const double dist = p.n[0] * s.x[a][0] + p.n[1] * s.x[a][1] + p.n[2] * s.x[a][2] - p.d;
      const double o = s.r[a] - dist;
      if (o > 0) {
        ++count;
        worst = std::max(worst, o);
      }
    }
    for (long di = -1; di <= 1; ++di)
      for (long dj = -1; dj <= 1; ++dj)
        for (long dk = -1; dk <= 1; ++dk) {
          auto it = grid.find(key(c[a][0] + di, c[a][1] + dj, c[a][2] + dk));
          if (it == grid.end()) continue;
          for (std::size_t b : it->second) {
            if (b <= a) continue;
            const double dx = s.x[a][0] - s.x[b][0], dy = s.x[a][1] - s.x[b][1], dz = s.x[a][2] - s.x[b][2];
            const double o = s.r[a] + s.r[b] - std::sqrt(dx * dx + dy * dy + dz * dz);
            if (o > 0) {
              ++count;
              worst = std::max(worst, o);
            }
          }
        }
  }
  if (touching) *touching = count;
  return worst;
}

/// Highest sphere top above the floor (z + r - zmin; zmin = 0 without a box).
inline double pileHeight(const Snapshot& s, const State& st) {
  double top = -1e300;
  for (std::size_t a = 0; a < s.x.size(); ++a) top = std::max(top, s.x[a][2] + s.r[a]);
  return top - (st.hasBox ? st.box[2] : 0.0);
}

/// Kinetic energy of solid spheres: m v^2 / 2 + (2/5 m r^2) w^2 / 2.
inline double kinetic(const Sphere& p, const double v[3], const double w[3]) {
  const double I = 0.4 * p.mass * p.radius * p.radius;
  return 0.5 * p.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * I * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
}

/// One result row (also the header of the combined CSV of run_peers.sh).
struct Row {
  std::string engine, solver;
  int iterations = 0;
  std::size_t bodies = 0;
  long steps = 0;
  double msStep = 0, contactsMean = 0, touchingMean = 0, maxPenetration = 0, penetrationEnd = 0, kineticEnd = 0, pileHeight = 0;
  std::string note;
};

inline const char* csvHeader() {
  return "engine,solver,iterations,bodies,steps,ms_step,contacts_mean,touching_mean,max_penetration,penetration_end,kinetic_end,"
         "pile_height,failed_steps,note";
}

inline void writeRow(const std::string& csvPath, const Row& r) {
  bool fresh = true;
  {
    std::ifstream probe(csvPath);
    fresh = !probe || probe.peek() == std::ifstream::traits_type::eof();
  }
  std::FILE* f = std::fopen(csvPath.c_str(), "a");
  if (!f) throw std::runtime_error("cannot write " + csvPath);
  if (fresh) std::fprintf(f, "%s\n", csvHeader());
  std::fprintf(f, "%s,%s,%d,%zu,%ld,%.4f,%.1f,%.1f,%.3e,%.3e,%.6e,%.5f,,%s\n", r.engine.c_str(), r.solver.c_str(), r.iterations,
               r.bodies, r.steps, r.msStep, r.contactsMean, r.touchingMean, r.maxPenetration, r.penetrationEnd, r.kineticEnd,
               r.pileHeight, r.note.c_str());
  std::fclose(f);
  std::printf("%-7s %-12s it %3d  bodies %6zu  steps %5ld  %9.3f ms/step  contacts %8.1f  touching %8.1f  "
              "max pen %.3e m (end %.3e)  KE %.4e J  pile %.4f m  %s\n",
              r.engine.c_str(), r.solver.c_str(), r.iterations, r.bodies, r.steps, r.msStep, r.contactsMean, r.touchingMean,
              r.maxPenetration, r.penetrationEnd, r.kineticEnd, r.pileHeight, r.note.c_str());
}

/// --key value options.
struct Args {
  std::unordered_map<std::string, std::string> kv;
  Args(int argc, char** argv, const std::vector<std::string>& known, const char* usage) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a.rfind("--", 0) != 0 || i + 1 >= argc ||
          std::find(known.begin(), known.end(), a.substr(2)) == known.end()) {
        std::fprintf(stderr, "%s", usage);
        std::exit(2);
      }
      kv[a.substr(2)] = argv[++i];
    }
  }
  std::string get(const std::string& k, const std::string& dflt) const {
    auto it = kv.find(k);
    return it == kv.end() ? dflt : it->second;
  }
};

}  // namespace peers
