/// @file scene_measures.hpp
/// @brief Figures measured on the bodies of the granular scene examples (the heap of
///        ColumnCollapse and HopperDischarge).
#ifndef NSDYN_EXAMPLES_SCENE_MEASURES_HPP
#define NSDYN_EXAMPLES_SCENE_MEASURES_HPP

#include <vector>

#include "nsdyn/BodyShapes.hpp"

namespace nsdyn::examples {

/// The heap around the vertical axis through (cx, cy), heights above z = floorTop.
struct Heap {
  double height = 0.0;     ///< highest sphere top (m)
  double runout = 0.0;     ///< radius holding 95 % of the spheres (centre distance + radius, m)
  double slope = 0.0;      ///< fitted angle of the surface (degrees)
  double coneAngle = 0.0;  ///< atan(height / runout) (degrees)
};

/// The heap of the dynamic bodies of @p bodies (spheres: the characteristic size of a
/// body's first shape is its radius; static bodies are skipped). Surface of the heap:
/// radial bins one mean diameter wide from the axis, the surface height of a bin is the
/// highest sphere top in it; the angle of repose is the least-squares slope of the
/// surface heights over the bins whose height lies between 15 % and 85 % of the heap's
/// height (the flank: neither the plateau of the top nor the scattered single spheres
/// at the toe). All zero when there is no dynamic body.
Heap measureHeap(const std::vector<BodyShapes>& bodies, double cx, double cy, double floorTop);

}  // namespace nsdyn::examples

#endif
