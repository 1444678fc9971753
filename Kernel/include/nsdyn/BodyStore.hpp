/// @file BodyStore.hpp
/// @brief The bodies of a scene in a struct of arrays: pose, twist, mass and body-frame
///        inertia, shapes with offsets, static flag, material group, global id, applied
///        forces. No heap object per body; the scene engine's passes read and write the
///        arrays directly (doc/design.md, "One scene engine").
#ifndef NSDYN_KERNEL_BODYSTORE_HPP
#define NSDYN_KERNEL_BODYSTORE_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/KernelExport.hpp"
#include "nsdyn/ShapeInstance.hpp"

namespace nsdyn {

/// Body b (0 ≤ b < size()) of a scene, in the conventions of NewtonEulerDS (MECHANICS.md §0):
///  - q[7b..7b+6]: centre of mass (world), then the unit quaternion body → world (w, x, y, z);
///  - v[6b..6b+5]: linear velocity of the centre of mass (world), angular velocity Ω (body
///    frame);
///  - mass[b], inertia[9b..] (body frame, row-major, about the centre of mass) and their
///    inverses invMass[b], invInertia[9b..]; zero for a static body (infinite mass);
///  - shapes shapeStart[b] .. shapeStart[b+1] of `shapes` (offsets in the body frame);
///  - isStatic[b]: 1 for a static body (fixed pose, no velocity; half-spaces only there);
///  - ghost[b]: 1 for a copy of a body owned by another part of a distributed scene (its
///    state is refreshed by the owner; not integrated, not counted in energies); 0 on one
///    process;
///  - group[b]: material group (≥ 0); id[b]: global id (unique, ≥ 0; the index by default);
///  - family[b]: collision family (0: none, the default); two bodies of the same nonzero
///    family are never paired by the contact detection (the points of one peridynamic body,
///    bonded together, SceneSystem.hpp); set by setFamily;
///  - force[3b..] (world) and torque[3b..] (body frame): constant applied loads added to
///    gravity (owned by the scene, not here). A body may also have a force callable
///    (forceFunction): F(t, q, v) → 6 values (world force, body torque), added to them.
/// Bodies are appended (addBody, addStatic) and never removed; the arrays may be resized by
/// a distributed implementation (migration), which keeps them consistent.
class NSDYN_KERNEL_API BodyStore {
 public:
  using ForceFunction =
      std::function<void(double t, const double* q, const double* v, double* wrench)>;

  std::size_t size() const { return mass.size(); }
  std::size_t dynamicCount() const { return dynamic_; }

  /// A dynamic body from @p spec (mass properties as makeBody computes them; the shape
  /// offsets re-expressed about the centre of mass). Throws nsdyn::Error as makeBody does,
  /// and for a group < 0. Returns its index.
  std::size_t addBody(const BodySpec& spec, int group = 0);
  /// A dynamic body from a NewtonEulerDS with shapes (its q, v, mass, inertia and constant
  /// f_ext/m_ext are copied; callables are not: nsdyn::Error names the body) or a static
  /// body (its pose). The NewtonEulerDS is not kept.
  std::size_t addBody(const BodyShapes& body, int group = 0);
  /// A static body (infinite mass) at the given pose.
  std::size_t addStatic(const std::vector<ShapeInstance>& bodyShapes,
                        const Shape::Vec3& position = {0.0, 0.0, 0.0},
                        const Shape::Quat& orientation = {1.0, 0.0, 0.0, 0.0}, int group = 0);

  /// Body @p b of @p from appended as it is: pose, twist, mass properties, shapes, flags,
  /// group, id, loads, name, bounding radius and load callable (a distributed
  /// implementation builds the store of one part so from the whole scene). Returns its index.
  std::size_t appendFrom(const BodyStore& from, std::size_t b);
  /// Every body removed (a distributed implementation refills the store after migration).
  void clear();

  /// Name of body b (the BodySpec / NewtonEulerDS name, "static #b" for a static body).
  const std::string& name(std::size_t b) const { return names_.at(b); }
  /// "body 'NAME' (#b)" for messages.
  std::string describe(std::size_t b) const;
  /// nsdyn::Error naming @p what when b is not a body index.
  void checkIndex(std::size_t b, const std::string& what) const;

  /// Applied loads of body b (world force, body-frame torque), added to gravity.
  void setForce(std::size_t b, const Shape::Vec3& force,
                const Shape::Vec3& torque = {0.0, 0.0, 0.0});
  void setForceFunction(std::size_t b, ForceFunction f);
  const std::map<std::size_t, ForceFunction>& forceFunctions() const { return forceFunctions_; }

  /// Collision family of body b (>= 0; 0: none): bodies of one nonzero family never collide
  /// with each other (ContactDetector). nsdyn::Error for a negative family.
  void setFamily(std::size_t b, std::int32_t bodyFamily);
  /// Lock the rotation of dynamic body b: infinite inertia (invInertia = 0, Ω = 0; inertia is
  /// kept, so energies still read ½ Ωᵀ I Ω = 0). Contacts then only push its centre: the
  /// engine's M⁻¹, free velocity, update and recovery all read invInertia (the points of a
  /// peridynamic body, PeridynamicSceneSystem.hpp). nsdyn::Error for a static body.
  void lockRotation(std::size_t b);

  /// Kinetic energy of body b: ½ m |v|² + ½ Ωᵀ I Ω.
  double kineticEnergy(std::size_t b) const;
  /// World angular velocity of body b (R Ω).
  Shape::Vec3 angularVelocityWorld(std::size_t b) const;
  /// Radius of the sphere about the centre of mass that bounds body b's finite shapes.
  double boundingRadius(std::size_t b) const { return boundingRadius_.at(b); }
  /// The smallest characteristic size over the finite shapes (inf when there is none).
  double smallestShapeSize() const;

  /// Release the spare capacity of the arrays (bodies were appended one by one).
  void shrinkToFit();

  /// Normalise the quaternions of the dynamic bodies (after a state was set by hand).
  void normalizeOrientations();

  // The arrays (see the class comment). Resizing them directly is for the engine and a
  // distributed implementation; users read them and write q and v.
  std::vector<double> q, v;
  std::vector<double> mass, invMass, inertia, invInertia;
  std::vector<double> force, torque;
  std::vector<std::uint32_t> shapeStart{0};
  std::vector<ShapeInstance> shapes;
  std::vector<std::uint8_t> isStatic, ghost;
  std::vector<int> group;
  std::vector<std::int32_t> family;
  std::vector<std::int64_t> id;

 private:
  std::size_t addDynamic(const BodyShapes& body, int bodyGroup, const std::string& bodyName);
  std::size_t append(const std::vector<ShapeInstance>& bodyShapes, bool isStaticBody, int bodyGroup,
                     const std::string& bodyName);

  std::size_t dynamic_ = 0;
  std::vector<std::string> names_;
  std::vector<double> boundingRadius_;
  std::map<std::size_t, ForceFunction> forceFunctions_;
};

}  // namespace nsdyn

#endif
