/// @file SceneSystem.hpp
/// @brief The extension point of SceneEngine for a system kind that owns some bodies of the
///        store and gives their free velocity itself (a deformable body whose points are
///        bodies of the store, PeridynamicSceneSystem.hpp), so that its contacts are solved in
///        the scene's one friction-contact problem (doc/design.md, "One scene engine").
#ifndef NSDYN_SCENESYSTEM_HPP
#define NSDYN_SCENESYSTEM_HPP

#include <string>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

class SceneEngine;

/// A system kind in a SceneEngine. The engine knows nothing of the kind: it calls, in order,
///  - attach(engine), once, from SceneEngine::addSystem (before the first step): the system
///    adds its bodies (engine.addBody, BodyStore::lockRotation, setFamily, ...) and keeps
///    their indices;
///  - at each step, freeVelocity(engine, vel) after the engine's own free-velocity loop:
///    @p vel holds 6 values per body of the store (world linear velocity, world angular
///    velocity), the velocity the bodies would have at t_{k+1} without contact; the system
///    overwrites those of its bodies. The contact impulses r then act through the store's
///    M⁻¹ (invMass, invInertia): v_{k+1} = v_free + M⁻¹ Jᵀ r, and the engine moves the bodies
///    by x_{k+1} = x_k + h (θ v_{k+1} + (1 − θ) v_k);
///  - endStep(engine) after the update, the overlap recovery and the end of the step
///    (energies, contact work): the system reads the store's q and v back (engine.time()
///    and steps() are still those of t_k there; engine.lastReport() holds this step's contacts,
///    energies and work, its step and time not yet set).
/// Without a system the engine's step is the same, bit for bit. One process only (the
/// engine refuses systems over several parts: their bodies would migrate).
class NSDYN_KERNEL_API SceneSystem {
 public:
  virtual ~SceneSystem() = default;
  /// A short name for messages ("peridynamic body 'plate'").
  virtual std::string name() const = 0;
  virtual void attach(SceneEngine& engine) = 0;
  virtual void freeVelocity(const SceneEngine& engine, double* vel) = 0;
  virtual void endStep(SceneEngine& engine) = 0;
};

}  // namespace nsdyn

#endif
