// race_scenes.hpp: the scenes of the race (issue 24), one description shared by every driver
// (nsdyn, Bullet, ODE, MuJoCo): bodies, static planes, time step, gravity, friction. z is up
// in every scene (the scenes of others are y-up: their (x, y, z) is our (x, z, y)).
//
//   bullet3000   Bullet's BenchmarkDemo "3000" (examples/Benchmarks/BenchmarkDemo.cpp,
//                createTest1): 47 layers of 8 x 8 cubes of half-extent 1, mass 2, 1 m gaps
//                (pitch 3 m) in the three directions, each layer shifted by -0.35 m in x and
//                y, the first layer's centres 2 m above the ground (a box whose top is the
//                plane z = 0: a plane here); g = -10; friction 0.5 per body, which Bullet
//                multiplies: 0.25 per pair; restitution 0; h = 1/60 (the demo's
//                stepSimulation at 60 Hz); the demo's own solver setting: 5 SI iterations.
//   jolt_pyramid Jolt's PerformanceTest "Pyramid" (PerformanceTest/PyramidScene.h): 15
//                layers, layer i of (15 - i)^2 cubes of side 2 m (1,240 in all), touching
//                side by side, layers 0.5 m apart (centres at 1 + 2.5 i), odd layers shifted
//                by half a cube; floor: the plane z = 0 (a static box of top z = 0 there);
//                Jolt's defaults: density 1000 (8,000 kg per cube), friction 0.2 (combined
//                sqrt(0.2 0.2)), restitution 0, g = -9.81, h = 1/60.
//   pyramid20    ours: a pyramid of boxes of base 20 in one vertical plane (Box2D's and
//                Bepu's classic stacking test, built here from our own choice of sizes):
//                row i (0 at the floor) of 20 - i cubes of side 1 m, touching side by
//                side, each row on the one below (no gap), centred by half a cube; 210
//                cubes, density 1000 (1,000 kg), friction 0.6, e 0, g -9.81, h 1/60.
//   shallow, column, ratio, hopper  nsdyn's granular scenes of `granular_scene
//                --export-state` (spheres of 1 cm +- 20 %, density 2500, mu 0.5, e 0, h 1e-3;
//                ratio: the upper half of the grains 100 times denser; a box of planes, or
//                for the hopper a funnel of 4 static box plates at 60 degrees over a floor
//                slab, rebuilt from the sphere count as granular_scene builds it), read from
//                the state file: any size (run.sh: COUNTS 2000,10000,30000).
// --quick sizes: bullet3000 4 layers of 4 x 4, jolt_pyramid 4 layers (30 cubes), pyramid20
// of base 6 (21 cubes); the sphere piles come from the state file given (run.sh makes
// 200-sphere states for --quick).
#pragma once

#include <string>
#include <vector>

#include "race_quality.hpp"

namespace race {

struct Scene {
  std::string name;
  double h = 1e-3;
  double gravity = -9.81;  // along z
  double mu = 0.5, e = 0.0;
  std::vector<Plane> planes;  // floor first
  std::vector<Body> fixed;    // static boxes (mass 0; the hopper's plates and floor slab)
  std::vector<Body> bodies;
  long steps = 100;             // steps of a run
  long driftFrom = 0;           // drift measured from the state after this step
  double lengthScale = 1.0;     // typical body size (m): for the engines' tolerances and margins
  int referenceIterations = 0;  // the iterations the scene's authors set (0: none)
};

/// Bullet's "3000" with @p layers layers of @p size x @p size cubes.
Scene bullet3000(int layers = 47, int size = 8);
/// Jolt's "Pyramid" of @p height layers.
Scene joltPyramid(int height = 15);
/// A pyramid of boxes of base @p base in the x-z plane (ours).
Scene pyramid2d(int base = 20);
/// The static parts of granular_scene's hopper for @p count grains (plates, then the floor).
std::vector<Body> hopperParts(std::size_t count);
/// A pile of spheres from a state file of `granular_scene --export-state` (scene name from
/// its header); throws naming the file and line on a bad file.
Scene sphereState(const std::string& path);
/// The scenes makeScene knows, comma-separated (for messages).
const char* sceneNames();
/// By name (bullet3000, jolt_pyramid, pyramid20, shallow, column, ratio, hopper); @p state: the
/// state file of the sphere piles; @p quick: the small sizes; @p steps > 0 overrides the scene's
/// steps (the drift reference step kept, or half the run when it does not fit). Throws on an
/// unknown name.
Scene makeScene(const std::string& name, const std::string& state, bool quick, long steps);

}  // namespace race
