// HopperDischarge: spheres (radius 2.5 cm ± 20 %, mu = 0.5, e = 0) fall into a square
// hopper (scenes::hopper, plates at 60 deg, outlet 30 cm) and discharge onto a rough
// floor where they form a heap; the discharged count, the discharge rate (spheres/s)
// and the heap's angle of repose are printed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "nsdyn/SphereShape.hpp"
#include "scene_run.hpp"

using namespace nsdyn;
namespace ex = nsdyn::examples;

namespace {

/// The heap around the vertical axis through (cx, cy), heights above z = floorTop.
struct Heap {
  double height = 0.0;   ///< highest sphere top (m)
  double runout = 0.0;   ///< radius holding 95 % of the spheres (centre distance + radius, m)
  double slope = 0.0;    ///< fitted angle of the surface (degrees)
  double coneAngle = 0.0;  ///< atan(height / runout) (degrees)
};

/// Surface of the heap: radial bins one mean diameter wide from the axis, the
/// surface height of a bin is the highest sphere top in it; the angle of repose is
/// the least-squares slope of the surface heights over the bins whose height lies
/// between 15 % and 85 % of the heap's height (the flank: neither the plateau of the
/// top nor the scattered single spheres at the toe).
Heap measureHeap(const std::vector<BodyShapes>& bodies, double cx, double cy, double floorTop) {
  std::vector<double> rho, top, radius;
  for (const BodyShapes& b : bodies) {
    if (b.isStatic()) continue;
    const SiconosVector& q = b.body()->q();
    const double r = b.shapes().front().shape->characteristicSize();  // a sphere: its radius
    rho.push_back(std::hypot(q(0) - cx, q(1) - cy));
    top.push_back(q(2) + r - floorTop);
    radius.push_back(r);
  }
  Heap heap;
  if (rho.empty()) return heap;
  double meanDiameter = 0.0;
  for (double r : radius) meanDiameter += 2.0 * r / static_cast<double>(radius.size());
  std::vector<double> reach(rho.size());
  for (std::size_t i = 0; i < rho.size(); ++i) reach[i] = rho[i] + radius[i];
  std::vector<double> sorted = reach;
  const std::size_t k95 = std::min(sorted.size() - 1, static_cast<std::size_t>(0.95 * static_cast<double>(sorted.size())));
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(k95), sorted.end());
  heap.runout = sorted[k95];
  heap.height = *std::max_element(top.begin(), top.end());
  heap.coneAngle = std::atan2(heap.height, heap.runout) * 180.0 / M_PI;
  const std::size_t bins = static_cast<std::size_t>(std::ceil(heap.runout / meanDiameter)) + 1;
  std::vector<double> surface(bins, 0.0);
  for (std::size_t i = 0; i < rho.size(); ++i) {
    const std::size_t b = static_cast<std::size_t>(rho[i] / meanDiameter);
    if (b < bins) surface[b] = std::max(surface[b], top[i]);
  }
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0, n = 0.0;
  for (std::size_t b = 0; b < bins; ++b) {
    if (surface[b] < 0.15 * heap.height || surface[b] > 0.85 * heap.height) continue;
    const double x = (static_cast<double>(b) + 0.5) * meanDiameter;
    sx += x;
    sy += surface[b];
    sxx += x * x;
    sxy += x * surface[b];
    n += 1.0;
  }
  const double det = n * sxx - sx * sx;
  if (n >= 2.0 && det > 0.0) heap.slope = std::atan(-(n * sxy - sx * sy) / det) * 180.0 / M_PI;
  return heap;
}

}  // namespace

int main(int argc, char** argv) {
  long count = 20000;
  double T = 3.0;
  double h = 1e-3;
  int iterations = 1000;
  double tolerance = 1e-4;
  bool shuffle = false;
  std::string solver = "nsgs";
  const std::vector<ex::ExtraOption> extras{
      {"--count", "a number of spheres in [10, 200000]",
       [&](const char* v) { count = std::atol(v); return count >= 10 && count <= 200000; }},
      {"--time", "a duration in (0, 100] s", [&](const char* v) { T = std::atof(v); return T > 0.0 && T <= 100.0; }},
      ex::stepOption(h, 5e-3),
      ex::switchOption("--shuffle", shuffle),
      {"--tolerance", "a solver tolerance in (0, 1)",
       [&](const char* v) { tolerance = std::atof(v); return tolerance > 0.0 && tolerance < 1.0; }},
      {"--iterations", "a solver iteration cap in [10, 1000000]",
       [&](const char* v) { iterations = std::atoi(v); return iterations >= 10 && iterations <= 1000000; }},
      {"--solver", "a friction solver name (nsgs, apgd, psor, ...)", [&](const char* v) { solver = v; return *v != 0; }}};
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "HopperDischarge", "spheres discharging from a hopper onto a floor (ContactManager, FrictionContact(3))",
      extras,
      "  --count N          number of spheres (default 20000)\n"
      "  --time T           simulated time in s (default 3)\n"
      "  --step H           time step in s (default 1e-3)\n"
      "  --tolerance E      solver tolerance on the Siconos error (default 1e-4)\n"
      "  --iterations N     solver iteration cap (default 1000)\n"
      "  --shuffle          NSGS visits the contacts in a new random order each sweep\n"
      "  --solver NAME      friction solver (default nsgs)\n");
  try {
    ContactManager::Options options;
    options.detection.margin = 0.005;  // 20 % of the radius: approaches up to 2.5 m/s at h = 2 ms
    options.detection.breakingDistance = 0.005;
    ex::Scene scene(T, h, solver, tolerance, options);
    scene.problem->optionsMutable().max_iterations = iterations;
    scene.problem->optionsMutable().nsgs.shuffle = shuffle ? 1 : 0;
    scene.contacts->setDefaultMaterial({0.5, 0.0});
    scenes::ParticleSpec grain;
    grain.radius = 0.025;
    grain.sizeSpread = 0.2;
    grain.density = 2500.0;
    grain.namePrefix = "sphere";
    const double rmax = grain.radius * (1.0 + grain.sizeSpread);
    const double bounding = static_cast<double>(count) * 4.0 / 3.0 * M_PI * rmax * rmax * rmax;
    // expected heap: a cone at 20 deg holding the spheres at packing fraction 0.6
    const double tanRepose = std::tan(20.0 * M_PI / 180.0);
    const double heapVolume = static_cast<double>(count) * 4.0 / 3.0 * M_PI * std::pow(grain.radius, 3) / 0.6;
    const double heapRadius = std::cbrt(3.0 * heapVolume / (M_PI * tanRepose));
    scenes::HopperSpec hop;
    hop.outletWidth = 0.3;
    hop.topWidth = std::max(1.0, 0.6 * std::cbrt(bounding / 0.3));
    hop.outletHeight = std::max(0.4, 1.5 * heapRadius * tanRepose);
    hop.floor = false;
    const double funnelTop = hop.outletHeight + 0.5 * (hop.topWidth - hop.outletWidth) * std::tan(hop.angle);
    for (auto& part : scenes::hopper(hop)) scene.addBody(std::move(part.body));
    // the floor: the plane z = 0 under a rough base of static spheres (nominal radius,
    // touching, square lattice) over a disc larger than the expected heap
    scene.addBody(makeStaticBody({{std::make_shared<HalfSpaceShape>(Shape::Vec3{0.0, 0.0, 1.0}, 0.0)}}));
    const double r0 = grain.radius;
    const double reach = 1.4 * heapRadius + 0.2;
    const long n = static_cast<long>(std::ceil(reach / (2.0 * r0)));
    auto bump = std::make_shared<SphereShape>(r0);
    long bumps = 0;
    for (long i = -n; i <= n; ++i)
      for (long j = -n; j <= n; ++j) {
        const double x = 2.0 * r0 * static_cast<double>(i), y = 2.0 * r0 * static_cast<double>(j);
        if (std::hypot(x, y) > reach) continue;
        scene.addBody(makeStaticBody({{bump}}, {x, y, r0}));
        ++bumps;
      }
    const double floorTop = 2.0 * r0;
    // the spheres: random packing (bounding spheres at volume fraction 0.3) above the plates
    const double side = hop.topWidth - 2.0 * rmax;
    const double height = bounding / (0.3 * side * side);
    const scenes::Region region{{-0.5 * side, -0.5 * side, funnelTop + 0.02},
                                {0.5 * side, 0.5 * side, funnelTop + 0.02 + height}};
    for (const BodySpec& spec : scenes::randomPacking(grain, region, static_cast<std::size_t>(count), 11))
      scene.addBody(makeBody(spec));
    scene.initialize();
    std::printf("HopperDischarge: %ld spheres above a hopper %.3g m wide (outlet %.3g m at %.3g m), %ld spheres in the "
                "rough base\n",
                count, hop.topWidth, hop.outletWidth, hop.outletHeight, bumps);
    const long steps = std::lround(T / h);
    // discharged: spheres whose centre is below the outlet by more than the largest radius
    const double below = hop.outletHeight - rmax;
    auto discharged = [&]() {
      long k = 0;
      for (const BodyShapes& b : scene.contacts->bodies())
        if (!b.isStatic() && b.body()->q()(2) < below) ++k;
      return k;
    };
    std::vector<double> times, counts;
    ex::SceneColumns columns{{"discharged", "above_floor", "heap_height", "repose_deg"}, [&]() {
                               const long d = discharged();
                               times.push_back(scene.simulation->nextTime());
                               counts.push_back(static_cast<double>(d));
                               double above = 0.0;
                               for (const BodyShapes& b : scene.contacts->bodies())
                                 if (!b.isStatic() && b.body()->q()(2) > 0.0) above += 1.0;
                               // the heap: the discharged spheres only
                               std::vector<BodyShapes> heapBodies;
                               if (d > 0)
                                 for (const BodyShapes& b : scene.contacts->bodies())
                                   if (!b.isStatic() && b.body()->q()(2) < below) heapBodies.push_back(b);
                               const Heap heap = measureHeap(heapBodies, 0.0, 0.0, floorTop);
                               return std::vector<double>{static_cast<double>(d), above, heap.height, heap.slope};
                             }};
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "HopperDischarge", columns, 100);
    // rate: spheres discharged between the times when 20 % and 60 % of them had left
    double t20 = -1.0, t60 = -1.0;
    for (std::size_t k = 0; k < times.size(); ++k) {
      if (t20 < 0.0 && counts[k] >= 0.2 * count) t20 = times[k];
      if (t60 < 0.0 && counts[k] >= 0.6 * count) t60 = times[k];
    }
    std::vector<BodyShapes> heapBodies;
    for (const BodyShapes& b : scene.contacts->bodies())
      if (!b.isStatic() && b.body()->q()(2) < below) heapBodies.push_back(b);
    const Heap heap = measureHeap(heapBodies, 0.0, 0.0, floorTop);
    std::printf("  discharge:               %ld of %ld spheres discharged", discharged(), count);
    if (t60 > t20 && t20 >= 0.0)
      std::printf(", rate %.1f spheres/s (from 20 %% at t = %.3g s to 60 %% at t = %.3g s)\n",
                  0.4 * static_cast<double>(count) / (t60 - t20), t20, t60);
    else
      std::printf(", rate not measured (60 %% not reached)\n");
    std::printf("  heap:                    height %.3f m, runout radius %.3f m, angle of repose %.1f deg "
                "(surface fit), atan(height/runout) %.1f deg\n",
                heap.height, heap.runout, heap.slope, heap.coneAngle);
    return ex::finishScene(scene, run, opt, "HopperDischarge", "HopperDischarge: discharged spheres",
                           {{10, "discharged", 0}, {2, "kinetic (J)", 1}},
                           {"spheres", "energy (J)"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "HopperDischarge: %s\n", e.what());
    return 3;
  }
}
