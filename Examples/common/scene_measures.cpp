// Figures measured on the bodies and contacts of the scene examples.
#include "scene_measures.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace nsdyn::examples {

namespace {
bool counted(const BodyStore& bodies, std::size_t b) {
  return !bodies.isStatic[b] && !bodies.ghost[b];
}
}  // namespace

double highestCentre(const BodyStore& bodies) {
  double top = 0.0;
  for (std::size_t b = 0; b < bodies.size(); ++b)
    if (counted(bodies, b)) top = std::max(top, bodies.q[7 * b + 2]);
  return top;
}

std::size_t countBodies(const BodyStore& bodies, const std::function<bool(const Centre&)>& inside) {
  std::size_t n = 0;
  for (std::size_t b = 0; b < bodies.size(); ++b)
    if (counted(bodies, b) && inside({bodies.q[7 * b], bodies.q[7 * b + 1], bodies.q[7 * b + 2]}))
      ++n;
  return n;
}

double deepestGap(const SceneContacts& contacts) {
  double gap = 0.0;
  for (double g : contacts.gap) gap = std::min(gap, g);
  return gap;
}

double deepestGapOf(const SceneContacts& contacts, std::int32_t b, std::size_t& count) {
  double gap = 0.0;
  count = 0;
  for (std::size_t c = 0; c < contacts.size(); ++c)
    if (contacts.bodyA[c] == b || contacts.bodyB[c] == b) {
      ++count;
      gap = std::min(gap, contacts.gap[c]);
    }
  return gap;
}

Heap measureHeap(const BodyStore& bodies, double cx, double cy, double floorTop, double below) {
  std::vector<double> rho, top, radius;
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    if (!counted(bodies, b)) continue;
    const double* q = &bodies.q[7 * b];
    if (!(q[2] < below)) continue;
    // a sphere: its radius
    const double r = bodies.shapes[bodies.shapeStart[b]].shape->characteristicSize();
    rho.push_back(std::hypot(q[0] - cx, q[1] - cy));
    top.push_back(q[2] + r - floorTop);
    radius.push_back(r);
  }
  Heap heap;
  if (rho.empty()) return heap;
  double meanDiameter = 0.0;
  for (double r : radius) meanDiameter += 2.0 * r / static_cast<double>(radius.size());
  std::vector<double> reach(rho.size());
  for (std::size_t i = 0; i < rho.size(); ++i) reach[i] = rho[i] + radius[i];
  std::vector<double> sorted = reach;
  const std::size_t k95 = std::min(
      sorted.size() - 1, static_cast<std::size_t>(0.95 * static_cast<double>(sorted.size())));
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

}  // namespace nsdyn::examples
