/// @file BodyFactory.hpp
/// @brief makeBody / makeStaticBody: a NewtonEulerDS with its shapes, mass from a density or given.
#ifndef NSDYN_KERNEL_BODYFACTORY_HPP
#define NSDYN_KERNEL_BODYFACTORY_HPP

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/MassProperties.hpp"

namespace nsdyn {

/// What makeBody needs. The shapes' offsets are given in a reference frame
/// placed at (position, orientation) in the world. Give exactly one of:
///  - density: mass, centre of mass and inertia from the shapes (MassProperties);
///  - mass alone: the same at the uniform density mass / (total volume);
///  - mass and inertia: taken as given, the reference frame origin being the
///    centre of mass and @p inertia (body axes) about it.
/// velocity: (linear velocity of the centre of mass in the world frame, angular
/// velocity in the body frame), as NewtonEulerDS.
struct NSDYN_KERNEL_API BodySpec {
  std::string name = "body";
  std::vector<ShapeInstance> shapes;
  std::optional<double> density;
  std::optional<double> mass;
  std::optional<Shape::Mat3> inertia;
  Shape::Vec3 position{0.0, 0.0, 0.0};
  Shape::Quat orientation{1.0, 0.0, 0.0, 0.0};
  std::array<double, 6> velocity{};
};

/// The body of @p spec: a NewtonEulerDS with q = (world centre of mass, orientation)
/// and the shapes re-expressed about the centre of mass (offset − c; rotations kept,
/// the body axes being the reference axes, so the inertia is a full 3×3).
/// Throws nsdyn::Error naming spec.name for: no shape, a half-space (use makeStaticBody),
/// neither mass nor density, both, an inertia without a mass, a mass or density not
/// finite and > 0, a non-unit quaternion (and the NewtonEulerDS checks).
NSDYN_KERNEL_API BodyShapes makeBody(const BodySpec& spec);
/// makeBody with a density.
NSDYN_KERNEL_API BodyShapes makeBody(const std::vector<ShapeInstance>& shapes, double density,
                                     const Shape::Vec3& position,
                                     const Shape::Quat& orientation = {1.0, 0.0, 0.0, 0.0},
                                     const std::array<double, 6>& velocity = {});
/// Static body (infinite mass, no NewtonEulerDS): half-spaces, fixed walls and obstacles.
NSDYN_KERNEL_API BodyShapes makeStaticBody(const std::vector<ShapeInstance>& shapes,
                                           const Shape::Vec3& position = {0.0, 0.0, 0.0},
                                           const Shape::Quat& orientation = {1.0, 0.0, 0.0, 0.0});

}  // namespace nsdyn

#endif
