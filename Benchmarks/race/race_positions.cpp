// race_positions.cpp: scene and positions files of the race (see race_positions.hpp).
#include "race_positions.hpp"

#include <fstream>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace race {

void writeScene(const Scene& s, std::ostream& out) {
  out.precision(17);
  out << "# race scene " << s.name << " h " << s.h << " gravity " << s.gravity << " mu " << s.mu
      << " e " << s.e << " steps " << s.steps << " drift_from " << s.driftFrom << " length_scale "
      << s.lengthScale << " reference_iterations " << s.referenceIterations << "\n";
  for (const Plane& p : s.planes)
    out << "plane " << p.n[0] << " " << p.n[1] << " " << p.n[2] << " " << p.d << "\n";
  for (const Body& f : s.fixed)
    out << "fixed " << f.half[0] << " " << f.half[1] << " " << f.half[2] << " " << f.x[0] << " "
        << f.x[1] << " " << f.x[2] << " " << f.q[0] << " " << f.q[1] << " " << f.q[2] << " "
        << f.q[3] << "\n";
  for (const Body& b : s.bodies) {
    out << "body " << (b.kind == Kind::Sphere ? "sphere" : "box");
    for (double v : b.half) out << " " << v;
    out << " " << b.mass;
    for (double v : b.inertia) out << " " << v;
    for (double v : b.x) out << " " << v;
    for (double v : b.q) out << " " << v;
    for (double v : b.v) out << " " << v;
    for (double v : b.w) out << " " << v;
    out << "\n";
  }
}

PositionsResult measurePositions(const Scene& s, const std::string& path,
                                 const std::string& seriesPath) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the positions file " + path);
  long lineNo = 0;
  std::string line;
  auto fail = [&](const std::string& what) {
    throw std::runtime_error(path + ":" + std::to_string(lineNo) + ": " + what);
  };
  auto next = [&]() {
    if (!std::getline(in, line)) {
      ++lineNo;
      fail("unexpected end of file (" + std::to_string(s.steps) + " steps of " +
           std::to_string(s.bodies.size()) + " bodies expected)");
    }
    ++lineNo;
  };
  next();
  {
    std::istringstream hs(line);
    std::string hash, race, positions, key;
    std::size_t n = 0;
    if (!(hs >> hash >> race >> positions >> key >> n) || hash != "#" || race != "race" ||
        positions != "positions" || key != "bodies")
      fail("expected the header '# race positions bodies N'");
    if (n != s.bodies.size())
      fail("bodies " + std::to_string(n) + ", the scene " + s.name + " has " +
           std::to_string(s.bodies.size()));
  }
  double ms = 0.0, iterations = 0.0;
  long iterationSteps = 0;
  std::vector<double> err(static_cast<std::size_t>(s.steps));
  long k = 0;
  auto step = [&]() {
    next();
    std::istringstream ls(line);
    std::string a, b, c, d;
    long index = 0;
    double t = 0, e = 0, it = 0;
    if (!(ls >> a >> index >> b >> t >> c >> e >> d >> it) || a != "step" || b != "ms" ||
        c != "err" || d != "iterations")
      fail("expected 'step K ms T err E iterations I'");
    if (index != k + 1)
      fail("step " + std::to_string(index) + ", expected " + std::to_string(k + 1));
    if (!(t >= 0)) fail("ms " + line.substr(line.find("ms")) + ": a time >= 0 expected");
    ms += t;
    if (it >= 0) {
      iterations += it;
      ++iterationSteps;
    }
    err[static_cast<std::size_t>(k)] = e;
    return 0.0;
  };
  auto read = [&](std::vector<Body>& bodies) {
    for (Body& o : bodies) {
      next();
      std::istringstream ls(line);
      ls >> o.x[0] >> o.x[1] >> o.x[2] >> o.q[0] >> o.q[1] >> o.q[2] >> o.q[3] >> o.v[0] >>
          o.v[1] >> o.v[2] >> o.w[0] >> o.w[1] >> o.w[2];
      if (!ls) fail("expected 13 numbers (x q v w) of a body");
    }
  };
  // runLoop times step(); here the times are the engine's, from the file
  Tracker t(s.planes, s.planes.empty() ? 0.0 : s.planes.front().d, s.driftFrom, seriesPath);
  t.setFixed(s.fixed);
  std::vector<Body> bodies = s.bodies;
  t.start(bodies);
  for (k = 0; k < s.steps; ++k) {
    step();
    read(bodies);
    t.step(bodies, static_cast<double>(k + 1) * s.h, err[static_cast<std::size_t>(k)]);
  }
  PositionsResult r;
  r.loop.msStep = ms / static_cast<double>(std::max<long>(s.steps, 1));
  r.loop.m = t.finish();
  r.iterationsMean = iterationSteps > 0 ? iterations / static_cast<double>(iterationSteps) : -1.0;
  return r;
}

}  // namespace race
