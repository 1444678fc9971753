/// @file MassProperties.hpp
/// @brief Mass, centre of mass and inertia of a set of shapes of uniform density.
#ifndef NSDYN_KERNEL_MASSPROPERTIES_HPP
#define NSDYN_KERNEL_MASSPROPERTIES_HPP

#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/ShapeInstance.hpp"

namespace nsdyn {

/// Mass properties in a body frame: mass, centre of mass, inertia about the
/// centre of mass (body-frame axes).
struct NSDYN_KERNEL_API MassProperties {
  double mass = 0.0;
  Shape::Vec3 centerOfMass{0.0, 0.0, 0.0};
  Shape::Mat3 inertia{};

  /// Properties of @p shapes (offset poses in the body frame) at density @p density:
  /// each part ρV at p + R c with inertia R (ρI) Rᵀ, combined by the parallel-axis
  /// theorem about the common centre of mass. Shapes are taken as disjoint (overlaps
  /// count twice). Throws nsdyn::Error naming @p object for no shapes, a null or
  /// infinite (half-space) shape, a non-unit offset quaternion, or a density that
  /// is not finite and > 0.
  static MassProperties fromShapes(const std::vector<ShapeInstance>& shapes, double density,
                                   const std::string& object = "body");
};

}  // namespace nsdyn

#endif
