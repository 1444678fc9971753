/// @file SceneSystem.hpp
/// @brief The extension point of SceneEngine for a system kind that owns some bodies of the
///        store and gives their free velocity itself (a deformable body whose points are
///        bodies of the store, PeridynamicSceneSystem.hpp), so that its contacts are solved in
///        the scene's one friction-contact problem (doc/design.md, "One scene engine").
#ifndef NSDYN_SCENESYSTEM_HPP
#define NSDYN_SCENESYSTEM_HPP

#include <cstddef>
#include <string>

#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

class SceneEngine;

/// A system kind in a SceneEngine. The engine knows nothing of the kind: it calls, in order,
///  - attach(engine), once, from SceneEngine::addSystem (before the first step): the system
///    adds its bodies (engine.addBody, BodyStore::lockRotation, setFamily, ...) and keeps
///    their indices;
///  - at the start of each step, beginStep(engine), before the contact detection: the system
///    may write its bodies' state into the store (what a user changed on its own object);
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
  virtual void beginStep(SceneEngine& engine) { (void)engine; }
  virtual void freeVelocity(const SceneEngine& engine, double* vel) = 0;
  virtual void endStep(SceneEngine& engine) = 0;

  /// @name Contacts between the system's own bodies (optional)
  /// A system whose bodies may touch each other (they are not all in one collision family:
  /// BodyStore::family) but only some of their pairs are contacts (the others joined by the
  /// system itself, e.g. bonded points) says so by filtersContacts(); after each detection the
  /// engine then drops every detected pair of two of its bodies for which keepsContact(a, b)
  /// (store indices) is false.
  /// @{
  virtual bool filtersContacts() const { return false; }
  virtual bool keepsContact(std::size_t a, std::size_t b) const {
    (void)a, (void)b;
    return true;
  }
  /// @}

  /// @name Coupled response (optional)
  /// A system whose bodies are coupled within the step (a deformable body: its iteration
  /// matrix A = M + h²θ² K, not the store's diagonal M) says so by coupled() and gives the
  /// engine the exact response of its bodies to contact impulses. The engine then solves the
  /// contacts on W = J A⁻¹ Jᵀ: the operator (APGD) applies the correction below after M⁻¹,
  /// the other solvers (NSGS included) take W assembled with it. Linear velocities and linear
  /// impulses only (the system's bodies have their rotation locked). At each step with
  /// contacts on its bodies, after freeVelocity:
  ///  - beginResponse(engine, touched, count): @p touched, sorted, are the store indices of
  ///    its bodies in this step's active contacts; false: no correction this step (the
  ///    lumped response, the engine's step as without coupling);
  ///  - responseBlock(a, b, out): into @p out (3×3, row-major) the velocity of body
  ///    touched[a] per unit impulse on touched[b], minus the store's δ_ab invMass I: the
  ///    correction (A⁻¹ − M⁻¹)_ab added to the lumped response;
  ///  - correctVelocity(engine, impulse, vel) after the solve, once the engine has set
  ///    v = v_free + M⁻¹ Jᵀ r: @p impulse holds the linear impulse Jᵀ r on each touched body
  ///    (3 per entry of touched), and the system adds (A⁻¹ − M⁻¹) Jᵀ r to the velocities of
  ///    all its bodies in @p vel (6 per body of the store).
  /// @{
  virtual bool coupled() const { return false; }
  /// The store indices [first, first + count) of the system's bodies (the coupled systems and
  /// those that filter their contacts must give them).
  virtual std::size_t firstBody() const { return 0; }
  virtual std::size_t bodyCount() const { return 0; }
  virtual bool beginResponse(const SceneEngine& engine, const std::size_t* touched,
                             std::size_t count) {
    (void)engine, (void)touched, (void)count;
    return false;
  }
  virtual void responseBlock(std::size_t a, std::size_t b, double* out) const {
    (void)a, (void)b;
    for (int k = 0; k < 9; ++k) out[k] = 0.0;
  }
  virtual void correctVelocity(const SceneEngine& engine, const double* impulse, double* vel) {
    (void)engine, (void)impulse, (void)vel;
  }
  /// @}
};

}  // namespace nsdyn

#endif
