// ColumnCollapse: a column of spheres (radius 5 cm ± 20 %, mu = 0.5, e = 0) released
// on a plane floor, without side walls, collapses into a heap; the heap's angle of
// repose (fit of its surface), the mass kept above the floor, the time per step and
// the share of contact detection are printed.
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
  long count = 10000;
  double T = 4.0;
  double h = 1e-3;
  double aspect = 1.0;
  bool smooth = false;
  int iterations = 1000;
  double tolerance = 1e-4;
  bool shuffle = false;
  std::string solver = "nsgs";
  const std::vector<ex::ExtraOption> extras{
      {"--count", "a number of spheres in [10, 200000]",
       [&](const char* v) { count = std::atol(v); return count >= 10 && count <= 200000; }},
      {"--time", "a duration in (0, 100] s", [&](const char* v) { T = std::atof(v); return T > 0.0 && T <= 100.0; }},
      {"--aspect", "a column aspect ratio (height / width) in [0.5, 20]",
       [&](const char* v) { aspect = std::atof(v); return aspect >= 0.5 && aspect <= 20.0; }},
      ex::stepOption(h, 5e-3), ex::switchOption("--smooth", smooth),
      ex::switchOption("--shuffle", shuffle),
      {"--tolerance", "a solver tolerance in (0, 1)",
       [&](const char* v) { tolerance = std::atof(v); return tolerance > 0.0 && tolerance < 1.0; }},
      {"--iterations", "a solver iteration cap in [10, 1000000]",
       [&](const char* v) { iterations = std::atoi(v); return iterations >= 10 && iterations <= 1000000; }},
      {"--solver", "a friction solver name (nsgs, apgd, psor, ...)", [&](const char* v) { solver = v; return *v != 0; }}};
  const ex::ExampleOptions opt = ex::parseArguments(
      argc, argv, "ColumnCollapse", "collapse of a column of spheres on a plane (ContactManager, FrictionContact(3))",
      extras,
      "  --count N          number of spheres (default 10000)\n"
      "  --time T           simulated time in s (default 4)\n"
      "  --aspect A         height / width of the initial column (default 1)\n"
      "  --step H           time step in s (default 1e-3)\n"
      "  --smooth           no rough base: the spheres land on the bare plane\n"
      "  --tolerance E      solver tolerance on the Siconos error (default 1e-4)\n"
      "  --iterations N     solver iteration cap (default 1000)\n"
      "  --shuffle          NSGS visits the contacts in a new random order each sweep\n"
      "  --solver NAME      friction solver (default nsgs)\n");
  const bool rough = !smooth;
  try {
    ex::Scene scene(T, h, solver, tolerance);
    scene.problem->optionsMutable().max_iterations = iterations;
    scene.problem->optionsMutable().nsgs.shuffle = shuffle ? 1 : 0;
    scene.contacts->setDefaultMaterial({0.5, 0.0});
    // the floor: the plane z = 0, no side walls
    scene.addBody(makeStaticBody({{std::make_shared<HalfSpaceShape>(Shape::Vec3{0.0, 0.0, 1.0}, 0.0)}}));
    scenes::ParticleSpec grain;
    grain.radius = 0.05;
    grain.sizeSpread = 0.2;
    grain.density = 2500.0;
    grain.namePrefix = "sphere";
    // a square column of width W and height aspect * W, random packing of the bounding
    // spheres at volume fraction 0.3: count * v = 0.3 * aspect * W^3
    const double rmax = grain.radius * (1.0 + grain.sizeSpread);
    const double v = 4.0 / 3.0 * M_PI * rmax * rmax * rmax;
    const double width = std::cbrt(static_cast<double>(count) * v / (0.3 * aspect));
    // the rough base: static spheres of the nominal radius on a square lattice of
    // spacing one diameter (touching), resting on the plane, over a disc larger than
    // the expected runout W/2 (1 + 2 a); without it the spheres (no rolling
    // resistance) would roll away on the smooth plane for ever
    double floorTop = 0.0;
    long bumps = 0;
    if (rough) {
      const double r0 = grain.radius;
      const double reach = 0.5 * width * (1.0 + 2.0 * aspect) + 0.3;
      const long n = static_cast<long>(std::ceil(reach / (2.0 * r0)));
      auto bump = std::make_shared<SphereShape>(r0);
      for (long i = -n; i <= n; ++i)
        for (long j = -n; j <= n; ++j) {
          const double x = 2.0 * r0 * static_cast<double>(i), y = 2.0 * r0 * static_cast<double>(j);
          if (std::hypot(x, y) > reach) continue;
          scene.addBody(makeStaticBody({{bump}}, {x, y, r0}));
          ++bumps;
        }
      floorTop = 2.0 * r0;
    }
    const scenes::Region region{{-0.5 * width, -0.5 * width, floorTop},
                                {0.5 * width, 0.5 * width, floorTop + aspect * width}};
    for (const BodySpec& spec : scenes::randomPacking(grain, region, static_cast<std::size_t>(count), 7))
      scene.addBody(makeBody(spec));
    scene.initialize();
    std::printf("ColumnCollapse: %ld spheres in a column %.3g m wide and %.3g m high (aspect %.3g), %ld spheres "
                "in the rough base\n",
                count, width, aspect * width, aspect, bumps);
    const long steps = std::lround(T / h);
    // mass above the floor (spheres whose centre is above z = 0), the heap's figures
    ex::SceneColumns columns{{"above_floor", "height", "runout", "repose_deg", "cone_deg", "min_gap"}, [&]() {
                               double above = 0.0;
                               for (const BodyShapes& b : scene.contacts->bodies())
                                 if (!b.isStatic() && b.body()->q()(2) > 0.0) above += 1.0;
                               const Heap heap = measureHeap(scene.contacts->bodies(), 0.0, 0.0, floorTop);
                               const ContactSet& cs = scene.contacts->contacts();
                               double minGap = 0.0;
                               for (std::size_t c = 0; c < cs.size(); ++c) minGap = std::min(minGap, cs.gap[c]);
                               return std::vector<double>{above,          heap.height,    heap.runout,
                                                          heap.slope,     heap.coneAngle, minGap};
                             }};
    const ex::SceneRunResult run = ex::runScene(scene, steps, opt, "ColumnCollapse", columns, 100);
    const Heap heap = measureHeap(scene.contacts->bodies(), 0.0, 0.0, floorTop);
    std::printf("  heap:                    height %.3f m, runout radius %.3f m, angle of repose %.1f deg "
                "(surface fit), atan(height/runout) %.1f deg\n",
                heap.height, heap.runout, heap.slope, heap.coneAngle);
    return ex::finishScene(scene, run, opt, "ColumnCollapse", "ColumnCollapse: energy and heap",
                           {{2, "kinetic (J)", 0}, {3, "potential (J)", 0}, {11, "height (m)", 1}, {12, "runout (m)", 1}},
                           {"energy (J)", "length (m)"});
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ColumnCollapse: %s\n", e.what());
    return 3;
  }
}
