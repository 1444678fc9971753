// race_quality.hpp: the one quality code of the race (issue 24): every engine's driver hands
// it the bodies after each step (pose, velocity) and it computes the same measures for all:
// penetration from positions and shapes (max and mean, the start state excluded), kinetic
// energy over time, pile top, drift of a resting pile, and (nsdyn only) the Siconos error of
// each step; then one CSV row per (scene, engine, budget). No engine computes its own.
#pragma once

#include <array>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace race {

enum class Kind { Sphere, Box };

/// A dynamic body of a scene: shape (sphere: radius = half[0]; box: half-extents), mass and
/// principal inertia (body frame), pose (x, q = w x y z) and velocity (v, angular w, world).
struct Body {
  Kind kind = Kind::Sphere;
  std::array<double, 3> half{0, 0, 0};
  double mass = 0;
  std::array<double, 3> inertia{0, 0, 0};
  std::array<double, 3> x{0, 0, 0};
  std::array<double, 4> q{1, 0, 0, 0};
  std::array<double, 3> v{0, 0, 0};
  std::array<double, 3> w{0, 0, 0};
  /// Bounding radius (sphere: r; box: |half|).
  double boundingRadius() const;
};

/// A static plane bounding the free space: n.x >= d (n unit, pointing into the free space).
struct Plane {
  std::array<double, 3> n{0, 0, 1};
  double d = 0;
};

/// Overlap of two bodies (> 0 when they interpenetrate: sphere-sphere exact, sphere-box by
/// the closest point, box-box by separating axes: the smallest overlap over the 15 axes).
double overlap(const Body& a, const Body& b);
/// Depth of a body below a plane (sphere: r - distance; box: deepest vertex); <= 0 if none.
double overlap(const Body& a, const Plane& p);
/// Highest point of a body along +z.
double topOf(const Body& b);
/// Kinetic energy: m v^2 / 2 + w_b . I w_b / 2 (w_b: the angular velocity in the body frame).
double kineticEnergy(const Body& b);

/// Penetration of one configuration over all pairs (uniform grid broadphase).
struct Penetration {
  double max = 0.0;  ///< largest overlap (0 if none)
  double sum = 0.0;  ///< sum of the overlaps of the overlapping pairs
  long pairs = 0;    ///< overlapping pairs (body-body and body-plane)
};
/// @p fixed: static boxes (each body against each, by its bounding sphere first).
Penetration penetration(const std::vector<Body>& bodies, const std::vector<Plane>& planes,
                        const std::vector<Body>& fixed = {});

/// The measures of one run.
struct Measures {
  long steps = 0;
  double penMax = 0, penMean = 0, penEnd = 0;  ///< over the steps >= 1 (start excluded)
  double keStart = 0, keEnd = 0, keMax = 0;    ///< keMax over the steps >= 1
  double topStart = 0, topEnd = 0;             ///< highest point above the floor
  double driftMean = 0, driftMax = 0;          ///< |x_end - x_ref| over the bodies
  double errMax = -1, errMean = -1;            ///< Siconos error per step (-1: not given)
};

/// Accumulates the measures over a run: start() with the state before the first step, then
/// step() after each step. Drift is measured from the state after step @p driftFrom (0: the
/// start state) to the last one. An optional series file gets one line per step: step, time,
/// kinetic energy, max penetration, top, Siconos error.
class Tracker {
 public:
  Tracker(std::vector<Plane> planes, double floorZ, long driftFrom = 0,
          std::string seriesPath = "");
  ~Tracker();
  Tracker(const Tracker&) = delete;
  Tracker& operator=(const Tracker&) = delete;
  /// Static boxes counted in the penetration (the hopper's plates); before start().
  void setFixed(std::vector<Body> fixed) { fixed_ = std::move(fixed); }
  void start(const std::vector<Body>& bodies);
  /// @p siconosError < 0: none (peers).
  void step(const std::vector<Body>& bodies, double time, double siconosError = -1.0);
  Measures finish() const;

 private:
  std::vector<Plane> planes_;
  std::vector<Body> fixed_;
  double floor_;
  long driftFrom_;
  std::FILE* series_ = nullptr;
  std::vector<std::array<double, 3>> ref_, last_;
  Measures m_;
  double penSum_ = 0;
  long penPairs_ = 0;
  double errSum_ = 0;
  long errCount_ = 0;
};

/// One CSV row per (scene, engine, budget).
struct Row {
  std::string scene, engine, solver, budgetKind;  // budgetKind: iterations | tolerance
  double budget = 0;
  std::size_t bodies = 0;
  double h = 0;
  double msStep = 0;
  double iterationsMean = -1;  // < 0: not reported by the engine
  long failedSteps = -1;       // < 0: not applicable
  Measures m;
  std::string settings;  // free text (no comma)
};
const char* csvHeader();
/// Appends @p r to @p path (header when the file is new or empty), with the 1-minute load
/// average of the machine (from /proc/loadavg) and prints it; throws on a write error.
void writeRow(const std::string& path, const Row& r);
/// The 1-minute load average (-1 where unreadable).
double loadAverage();

}  // namespace race
