// race_scenes.cpp: the scenes of the race (see race_scenes.hpp for the sources of each).
#include "race_scenes.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace race {

namespace {

Body cube(double half, double mass, double x, double y, double z) {
  Body b;
  b.kind = Kind::Box;
  b.half = {half, half, half};
  b.mass = mass;
  const double i = mass * (2 * half) * (2 * half) / 6.0;  // m (a^2 + a^2) / 12, a = 2 half
  b.inertia = {i, i, i};
  b.x = {x, y, z};
  return b;
}

Body fixedBox(std::array<double, 3> half, std::array<double, 3> x, std::array<double, 4> q) {
  Body b;
  b.kind = Kind::Box;
  b.half = half;
  b.x = x;
  b.q = q;
  return b;  // mass 0: static
}

std::array<double, 4> multiply(const std::array<double, 4>& a, const std::array<double, 4>& b) {
  return {a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
          a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
          a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
          a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]};
}

}  // namespace

const char* sceneNames() {
  return "bullet3000, jolt_pyramid, pyramid20, shallow, column, ratio, hopper";
}

Scene pyramid2d(int base) {
  Scene s;
  s.name = "pyramid20";
  s.h = 1.0 / 60.0;
  s.gravity = -9.81;
  s.mu = 0.6;
  s.e = 0.0;
  s.planes = {Plane{{0, 0, 1}, 0.0}};
  s.lengthScale = 1.0;
  const double half = 0.5, mass = 1000.0;
  for (int row = 0; row < base; ++row)
    for (int k = 0; k < base - row; ++k)
      s.bodies.push_back(
          cube(half, mass, (k - 0.5 * (base - row - 1)) * 2 * half, 0.0, half + row * 2 * half));
  s.steps = 600;
  s.driftFrom = 60;  // 1 s: the contacts have taken the weight
  return s;
}

std::vector<Body> hopperParts(std::size_t count) {
  // granular_scene's hopper (Benchmarks/granular_scene.cpp, scenes::hopper): grains of
  // 1 cm +- 20 % (pitch d = 2.4 cm), outlet 6 d at 0.2 m over the floor top (z = 0), top
  // width max(0.3, sqrt(n) d 0.6), 4 plates at 60 degrees, 2 cm thick, a floor slab
  const double d = 0.024, pi = std::acos(-1.0);
  const double outlet = 6 * d, top = std::max(0.3, std::sqrt(double(count)) * d * 0.6);
  const double t = 0.02, theta = pi / 3, zOutlet = 0.2;
  const double run = 0.5 * (top - outlet), slant = run / std::cos(theta);
  const double c = std::cos(theta), sn = std::sin(theta), r = std::sqrt(0.5);
  const std::array<double, 4> tilt{std::cos(-0.5 * theta), 0.0, std::sin(-0.5 * theta), 0.0};
  const double off0 = 0.5 * outlet + 0.5 * slant * c + 0.5 * t * sn;
  const double off2 = 0.5 * slant * sn - 0.5 * t * c;
  struct Turn {
    double cosPhi, sinPhi;
    std::array<double, 4> q;
  };
  const Turn turns[4] = {
      {1, 0, {1, 0, 0, 0}}, {-1, 0, {0, 0, 0, 1}}, {0, 1, {r, 0, 0, r}}, {0, -1, {r, 0, 0, -r}}};
  std::vector<Body> parts;
  for (const Turn& k : turns)
    parts.push_back(fixedBox({0.5 * slant, 0.5 * top + t, 0.5 * t},
                             {k.cosPhi * off0, k.sinPhi * off0, zOutlet + off2},
                             multiply(k.q, tilt)));
  parts.push_back(
      fixedBox({0.5 * top + t, 0.5 * top + t, 0.5 * t}, {0, 0, -0.5 * t}, {1, 0, 0, 0}));
  return parts;
}

Scene bullet3000(int layers, int size) {
  Scene s;
  s.name = "bullet3000";
  s.h = 1.0 / 60.0;
  s.gravity = -10.0;
  s.mu = 0.25;
  s.e = 0.0;
  s.planes = {Plane{{0, 0, 1}, 0.0}};
  s.lengthScale = 2.0;
  s.referenceIterations = 5;
  const double half = 1.0, gap = 1.0, pitch = 2 * half + gap;
  double offset = -size * pitch * 0.5;
  double up = 2 * half;  // their y: the height
  for (int k = 0; k < layers; ++k) {
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < size; ++i)
        s.bodies.push_back(cube(half, 2.0, offset + i * pitch, offset + j * pitch, up));
    offset -= 0.05 * gap * (size - 1);
    up += pitch;
  }
  s.steps = 600;
  s.driftFrom = 420;
  return s;
}

Scene joltPyramid(int height) {
  Scene s;
  s.name = "jolt_pyramid";
  s.h = 1.0 / 60.0;
  s.gravity = -9.81;
  s.mu = 0.2;
  s.e = 0.0;
  s.planes = {Plane{{0, 0, 1}, 0.0}};
  s.lengthScale = 2.0;
  const double size = 2.0, separation = 0.5, half = 1.0;
  const double mass = 1000.0 * size * size * size;
  for (int i = 0; i < height; ++i)
    for (int j = i / 2; j < height - (i + 1) / 2; ++j)
      for (int k = i / 2; k < height - (i + 1) / 2; ++k) {
        const double shift = (i & 1) ? half : 0.0;
        s.bodies.push_back(cube(half, mass, -height + size * j + shift, -height + size * k + shift,
                                1.0 + (size + separation) * i));
      }
  s.steps = 600;
  s.driftFrom = 120;
  return s;
}

Scene sphereState(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read the state file " + path);
  Scene s;
  std::string line;
  if (!std::getline(in, line) || line.rfind("#", 0) != 0)
    throw std::runtime_error(path +
                             ":1: expected a '# scene ...' header (granular_scene --export-state)");
  std::istringstream hs(line.substr(1));
  std::string key;
  std::vector<double> box;
  while (hs >> key) {
    if (key == "scene")
      hs >> s.name;
    else if (key == "h")
      hs >> s.h;
    else if (key == "mu")
      hs >> s.mu;
    else if (key == "e")
      hs >> s.e;
    else if (key == "gravity")
      hs >> s.gravity;
    else if (key == "box") {
      std::string first;
      hs >> first;
      if (first != "none") {
        box.push_back(std::stod(first));
        double v = 0;
        for (int k = 1; k < 6 && hs >> v; ++k) box.push_back(v);
        if (box.size() != 6) throw std::runtime_error(path + ":1: 'box' needs 6 numbers");
      }
    }
  }
  if (box.size() == 6)
    s.planes = {Plane{{0, 0, 1}, box[2]}, Plane{{1, 0, 0}, box[0]}, Plane{{-1, 0, 0}, -box[3]},
                Plane{{0, 1, 0}, box[1]}, Plane{{0, -1, 0}, -box[4]}};
  long lineNo = 1;
  double rmax = 0;
  while (std::getline(in, line)) {
    ++lineNo;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    Body b;
    double r = 0;
    ls >> b.x[0] >> b.x[1] >> b.x[2] >> b.q[0] >> b.q[1] >> b.q[2] >> b.q[3] >> b.v[0] >> b.v[1] >>
        b.v[2] >> b.w[0] >> b.w[1] >> b.w[2] >> r >> b.mass;
    if (!ls || !(r > 0) || !(b.mass > 0))
      throw std::runtime_error(path + ":" + std::to_string(lineNo) +
                               ": expected 15 numbers (x q v w radius mass)");
    b.kind = Kind::Sphere;
    b.half = {r, r, r};
    const double i = 0.4 * b.mass * r * r;
    b.inertia = {i, i, i};
    rmax = std::max(rmax, r);
    s.bodies.push_back(b);
  }
  if (s.bodies.empty()) throw std::runtime_error(path + ": no spheres");
  if (s.name == "hopper") s.fixed = hopperParts(s.bodies.size());
  s.lengthScale = 2 * rmax;
  s.steps = 100;
  s.driftFrom = 0;
  return s;
}

Scene makeScene(const std::string& name, const std::string& state, bool quick, long steps) {
  Scene s;
  if (name == "bullet3000")
    s = quick ? bullet3000(4, 4) : bullet3000();
  else if (name == "jolt_pyramid")
    s = quick ? joltPyramid(4) : joltPyramid();
  else if (name == "pyramid20")
    s = quick ? pyramid2d(6) : pyramid2d();
  else if (name == "shallow" || name == "column" || name == "ratio" || name == "hopper") {
    if (state.empty())
      throw std::runtime_error("scene " + name +
                               " needs --state FILE (granular_scene --export-state)");
    s = sphereState(state);
    if (s.name != name)
      throw std::runtime_error(state + ": a state of scene '" + s.name + "', not '" + name + "'");
  } else
    throw std::runtime_error("unknown scene '" + name + "' (" + sceneNames() + ")");
  if (quick && (name == "bullet3000" || name == "jolt_pyramid" || name == "pyramid20")) {
    s.steps = 120;
    s.driftFrom = 90;
  }
  if (quick && s.bodies.front().kind == Kind::Sphere) s.steps = 20;
  if (steps > 0) {
    s.steps = steps;
    if (s.driftFrom >= steps) s.driftFrom = steps / 2;  // the settling time kept when it fits
  }
  return s;
}

}  // namespace race
