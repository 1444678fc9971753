// race_quality.cpp: the shared measures of the race (see race_quality.hpp).
#include "race_quality.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

namespace race {

namespace {

using V3 = std::array<double, 3>;
using M3 = std::array<V3, 3>;  // columns: the body axes in the world

double dot(const V3& a, const V3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
V3 sub(const V3& a, const V3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

/// The body axes (columns of the rotation of q = w x y z, normalised).
M3 axes(const std::array<double, 4>& qin) {
  const double s = std::sqrt(qin[0] * qin[0] + qin[1] * qin[1] + qin[2] * qin[2] + qin[3] * qin[3]);
  const double w = qin[0] / s, x = qin[1] / s, y = qin[2] / s, z = qin[3] / s;
  M3 a;
  a[0] = {1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)};
  a[1] = {2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)};
  a[2] = {2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)};
  return a;
}

/// Half-width of a box along the unit direction @p l.
double extent(const Body& b, const M3& a, const V3& l) {
  return std::fabs(dot(l, a[0])) * b.half[0] + std::fabs(dot(l, a[1])) * b.half[1] +
         std::fabs(dot(l, a[2])) * b.half[2];
}

double sphereBox(const Body& s, const Body& b) {
  const M3 a = axes(b.q);
  const V3 d = sub(s.x, b.x);
  V3 local{dot(d, a[0]), dot(d, a[1]), dot(d, a[2])};
  bool inside = true;
  double out2 = 0.0, depth = 1e300;
  for (int i = 0; i < 3; ++i) {
    const double e = std::fabs(local[i]) - b.half[i];
    if (e > 0) {
      inside = false;
      out2 += e * e;
    }
    depth = std::min(depth, -e);
  }
  return inside ? s.half[0] + depth : s.half[0] - std::sqrt(out2);
}

double boxBox(const Body& p, const Body& q) {
  const M3 a = axes(p.q), b = axes(q.q);
  const V3 d = sub(q.x, p.x);
  double best = 1e300;
  auto test = [&](V3 l) {
    const double n = std::sqrt(dot(l, l));
    if (n < 1e-9) return;  // parallel edges: covered by the face axes
    for (double& c : l) c /= n;
    best = std::min(best, extent(p, a, l) + extent(q, b, l) - std::fabs(dot(l, d)));
  };
  for (int i = 0; i < 3; ++i) test(a[i]);
  for (int i = 0; i < 3; ++i) test(b[i]);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) test(cross(a[i], b[j]));
  return best;
}

}  // namespace

double Body::boundingRadius() const {
  return kind == Kind::Sphere
             ? half[0]
             : std::sqrt(half[0] * half[0] + half[1] * half[1] + half[2] * half[2]);
}

double overlap(const Body& a, const Body& b) {
  if (a.kind == Kind::Sphere && b.kind == Kind::Sphere)
    return a.half[0] + b.half[0] - std::sqrt(dot(sub(a.x, b.x), sub(a.x, b.x)));
  if (a.kind == Kind::Sphere) return sphereBox(a, b);
  if (b.kind == Kind::Sphere) return sphereBox(b, a);
  return boxBox(a, b);
}

double overlap(const Body& a, const Plane& p) {
  const double dist = dot(p.n, a.x) - p.d;
  if (a.kind == Kind::Sphere) return a.half[0] - dist;
  return extent(a, axes(a.q), p.n) - dist;
}

double topOf(const Body& b) {
  if (b.kind == Kind::Sphere) return b.x[2] + b.half[0];
  return b.x[2] + extent(b, axes(b.q), {0.0, 0.0, 1.0});
}

double kineticEnergy(const Body& b) {
  const M3 a = axes(b.q);
  double rot = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double wi = dot(b.w, a[i]);
    rot += b.inertia[i] * wi * wi;
  }
  return 0.5 * b.mass * dot(b.v, b.v) + 0.5 * rot;
}

Penetration penetration(const std::vector<Body>& bodies, const std::vector<Plane>& planes,
                        const std::vector<Body>& fixed) {
  Penetration p;
  const std::size_t n = bodies.size();
  double rmax = 0.0;
  for (const Body& b : bodies) rmax = std::max(rmax, b.boundingRadius());
  const double cell = std::max(2.0 * rmax, 1e-12);
  auto key = [](long i, long j, long k) {
    return (static_cast<unsigned long long>(i & 0x1FFFFF) << 42) |
           (static_cast<unsigned long long>(j & 0x1FFFFF) << 21) |
           static_cast<unsigned long long>(k & 0x1FFFFF);
  };
  std::unordered_map<unsigned long long, std::vector<std::size_t>> grid;
  grid.reserve(2 * n);
  std::vector<std::array<long, 3>> c(n);
  for (std::size_t a = 0; a < n; ++a) {
    for (int d = 0; d < 3; ++d) c[a][d] = static_cast<long>(std::floor(bodies[a].x[d] / cell));
    grid[key(c[a][0], c[a][1], c[a][2])].push_back(a);
  }
  auto add = [&](double o) {
    if (o <= 0) return;
    ++p.pairs;
    p.sum += o;
    p.max = std::max(p.max, o);
  };
  for (std::size_t a = 0; a < n; ++a) {
    for (const Plane& pl : planes) add(overlap(bodies[a], pl));
    for (const Body& f : fixed) {
      const V3 d = sub(bodies[a].x, f.x);
      const double reach = bodies[a].boundingRadius() + f.boundingRadius();
      if (dot(d, d) < reach * reach) add(overlap(bodies[a], f));
    }
    for (long di = -1; di <= 1; ++di)
      for (long dj = -1; dj <= 1; ++dj)
        for (long dk = -1; dk <= 1; ++dk) {
          auto it = grid.find(key(c[a][0] + di, c[a][1] + dj, c[a][2] + dk));
          if (it == grid.end()) continue;
          for (std::size_t b : it->second) {
            if (b <= a) continue;
            const V3 d = sub(bodies[a].x, bodies[b].x);
            const double reach = bodies[a].boundingRadius() + bodies[b].boundingRadius();
            if (dot(d, d) >= reach * reach) continue;
            add(overlap(bodies[a], bodies[b]));
          }
        }
  }
  return p;
}

Tracker::Tracker(std::vector<Plane> planes, double floorZ, long driftFrom, std::string seriesPath)
    : planes_(std::move(planes)), floor_(floorZ), driftFrom_(driftFrom) {
  if (!seriesPath.empty()) {
    series_ = std::fopen(seriesPath.c_str(), "w");
    if (!series_) throw std::runtime_error("cannot write the series file " + seriesPath);
    std::fprintf(series_, "step,time,kinetic,pen_max,top,siconos_error\n");
  }
}

Tracker::~Tracker() {
  if (series_) std::fclose(series_);
}

void Tracker::start(const std::vector<Body>& bodies) {
  m_ = Measures();
  penSum_ = errSum_ = 0;
  penPairs_ = errCount_ = 0;
  last_.clear();
  for (const Body& b : bodies) {
    m_.keStart += kineticEnergy(b);
    m_.topStart = std::max(m_.topStart, topOf(b) - floor_);
    last_.push_back(b.x);
  }
  if (driftFrom_ == 0) ref_ = last_;
}

void Tracker::step(const std::vector<Body>& bodies, double time, double siconosError) {
  ++m_.steps;
  const Penetration p = penetration(bodies, planes_, fixed_);
  m_.penMax = std::max(m_.penMax, p.max);
  m_.penEnd = p.max;
  penSum_ += p.sum;
  penPairs_ += p.pairs;
  double ke = 0.0, top = -1e300;
  last_.resize(bodies.size());
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    ke += kineticEnergy(bodies[b]);
    top = std::max(top, topOf(bodies[b]) - floor_);
    last_[b] = bodies[b].x;
  }
  m_.keEnd = ke;
  m_.keMax = std::max(m_.keMax, ke);
  m_.topEnd = top;
  if (m_.steps == driftFrom_) ref_ = last_;
  if (siconosError >= 0) {
    m_.errMax = std::max(m_.errMax, siconosError);
    errSum_ += siconosError;
    ++errCount_;
  }
  if (series_)
    std::fprintf(series_, "%ld,%.9g,%.6e,%.6e,%.9g,%.6e\n", m_.steps, time, ke, p.max, top,
                 siconosError);
}

Measures Tracker::finish() const {
  Measures m = m_;
  m.penMean = penPairs_ > 0 ? penSum_ / static_cast<double>(penPairs_) : 0.0;
  m.errMean = errCount_ > 0 ? errSum_ / static_cast<double>(errCount_) : -1.0;
  if (!ref_.empty() && ref_.size() == last_.size()) {
    double sum = 0.0;
    for (std::size_t b = 0; b < last_.size(); ++b) {
      const V3 d = sub(last_[b], ref_[b]);
      const double len = std::sqrt(dot(d, d));
      sum += len;
      m.driftMax = std::max(m.driftMax, len);
    }
    m.driftMean = last_.empty() ? 0.0 : sum / static_cast<double>(last_.size());
  }
  return m;
}

const char* csvHeader() {
  return "scene,engine,solver,budget_kind,budget,bodies,h,steps,ms_step,iterations_mean,failed_"
         "steps,pen_max,pen_mean,"
         "pen_end,ke_start,ke_end,ke_max,top_start,top_end,drift_mean,drift_max,siconos_err_max,"
         "siconos_err_mean,load_avg,"
         "settings";
}

double loadAverage() {
  std::ifstream in("/proc/loadavg");
  double l = -1.0;
  if (!(in >> l)) return -1.0;
  return l;
}

void writeRow(const std::string& path, const Row& r) {
  bool fresh = true;
  {
    std::ifstream probe(path);
    fresh = !probe || probe.peek() == std::ifstream::traits_type::eof();
  }
  std::FILE* f = std::fopen(path.c_str(), "a");
  if (!f) throw std::runtime_error("cannot write " + path);
  if (fresh) std::fprintf(f, "%s\n", csvHeader());
  auto opt = [](double v, const char* fmt) {
    if (v < 0) return std::string();
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return std::string(buf);
  };
  std::string settings = r.settings;
  std::replace(settings.begin(), settings.end(), ',', ';');
  const Measures& m = r.m;
  std::fprintf(f,
               "%s,%s,%s,%s,%g,%zu,%.9g,%ld,%.4f,%s,%s,%.4e,%.4e,%.4e,%.5e,%.5e,%.5e,%.6g,%.6g,%."
               "4e,%.4e,%s,%s,%.2f,%s\n",
               r.scene.c_str(), r.engine.c_str(), r.solver.c_str(), r.budgetKind.c_str(), r.budget,
               r.bodies, r.h, m.steps, r.msStep, opt(r.iterationsMean, "%.1f").c_str(),
               r.failedSteps < 0 ? "" : std::to_string(r.failedSteps).c_str(), m.penMax, m.penMean,
               m.penEnd, m.keStart, m.keEnd, m.keMax, m.topStart, m.topEnd, m.driftMean, m.driftMax,
               opt(m.errMax, "%.3e").c_str(), opt(m.errMean, "%.3e").c_str(), loadAverage(),
               settings.c_str());
  const bool bad = std::ferror(f) != 0;
  if (std::fclose(f) != 0 || bad) throw std::runtime_error("cannot write " + path);
  std::printf(
      "%-12s %-7s %-16s %s %-7g %9.3f ms/step  pen max %.3e mean %.3e end %.3e  KE end %.3e max "
      "%.3e  top %.4g  "
      "drift mean %.3e max %.3e%s\n",
      r.scene.c_str(), r.engine.c_str(), r.solver.c_str(),
      r.budgetKind == "tolerance" ? "tol" : "it ", r.budget, r.msStep, m.penMax, m.penMean,
      m.penEnd, m.keEnd, m.keMax, m.topEnd, m.driftMean, m.driftMax,
      m.errMax >= 0 ? ("  err max " + opt(m.errMax, "%.2e")).c_str() : "");
  std::fflush(stdout);
}

}  // namespace race
