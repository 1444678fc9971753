/// @file DetectionOptions.hpp
/// @brief The options of contact detection's stages (ContactDetectorOptions::broadphase and
///        ::ccd): the uniform-grid broadphase and the convex contact search. The stages
///        themselves are internal to the Kernel library (Kernel/src/include/nsdyn).
#ifndef NSDYN_KERNEL_DETECTIONOPTIONS_HPP
#define NSDYN_KERNEL_DETECTIONOPTIONS_HPP

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

/// Options of the uniform-grid broadphase (Kernel/API.md, "Broadphase").
struct NSDYN_KERNEL_API BroadphaseOptions {
  /// Cell edge h; ≤ 0: cellSizeFactor × the median of the boxes' largest edge.
  double cellSize = 0.0;
  double cellSizeFactor = 2.0;
  /// Boxes overlapping more cells than this are handled apart (walls, infinite slabs).
  double maxCellsPerBox = 512.0;
  /// OpenMP threads; 0: omp_get_max_threads(). Ignored without OpenMP.
  int threads = 0;
};

/// Tolerance and cap of the convex contact search (Kernel/API.md, "Narrowphase").
struct NSDYN_KERNEL_API ConvexContactOptions {
  unsigned long maxIterations = 1000;  ///< cap on the polytope expansions
  double tolerance = 1e-9;  ///< stop when upper − lower bound of the depth ≤ tolerance (m)
  double distanceTolerance = 1e-12;  ///< unused (kept for the scene files' options)
  /// convexManifold: false gives convexContact's single point (the behaviour before the
  /// manifolds; ContactDetector calls convexManifold).
  bool manifold = true;
};

}  // namespace nsdyn

#endif
