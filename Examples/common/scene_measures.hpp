/// @file scene_measures.hpp
/// @brief Figures measured on the bodies and contacts of the scene examples, read from the
///        engine's arrays (BodyStore, SceneContacts): heights, counts, the deepest gap and the
///        heap of ColumnCollapse and HopperDischarge.
#ifndef NSDYN_EXAMPLES_SCENE_MEASURES_HPP
#define NSDYN_EXAMPLES_SCENE_MEASURES_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>

#include "nsdyn/BodyStore.hpp"
#include "nsdyn/SceneContacts.hpp"

namespace nsdyn::examples {

/// The centre of dynamic body b of the store (q[7b..7b+2]).
struct Centre {
  double x, y, z;
};

/// The highest centre height of the dynamic bodies, and 0 when that is higher (0 without one).
double highestCentre(const BodyStore& bodies);

/// How many dynamic bodies have their centre where @p inside says.
std::size_t countBodies(const BodyStore& bodies, const std::function<bool(const Centre&)>& inside);

/// The deepest gap of the contacts, and 0 when that is deeper (0 without one; < 0: overlap).
double deepestGap(const SceneContacts& contacts);
/// The same over the contacts of body @p b; @p count receives how many there are.
double deepestGapOf(const SceneContacts& contacts, std::int32_t b, std::size_t& count);

/// The heap around the vertical axis through (cx, cy), heights above z = floorTop.
struct Heap {
  double height = 0.0;     ///< highest sphere top (m)
  double runout = 0.0;     ///< radius holding 95 % of the spheres (centre distance + radius, m)
  double slope = 0.0;      ///< fitted angle of the surface (degrees)
  double coneAngle = 0.0;  ///< atan(height / runout) (degrees)
};

/// The heap of the dynamic bodies of @p bodies whose centre is below @p below (spheres: the
/// characteristic size of a body's first shape is its radius; static bodies are skipped).
/// Surface of the heap: radial bins one mean diameter wide from the axis, the surface height
/// of a bin is the highest sphere top in it; the angle of repose is the least-squares slope
/// of the surface heights over the bins whose height lies between 15 % and 85 % of the
/// heap's height (the flank: neither the plateau of the top nor the scattered single spheres
/// at the toe). All zero when no dynamic body is below.
Heap measureHeap(const BodyStore& bodies, double cx, double cy, double floorTop,
                 double below = std::numeric_limits<double>::infinity());

}  // namespace nsdyn::examples

#endif
