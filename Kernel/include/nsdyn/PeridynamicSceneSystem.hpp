/// @file PeridynamicSceneSystem.hpp
/// @brief A peridynamic body in a SceneEngine (SceneSystem.hpp): its points are spheres of the
///        body store, in frictional contact with the scene's rigid and static bodies in the
///        one friction-contact problem; their free velocity comes from a PeridynamicStepper
///        (doc/peridynamics.md, "Contact").
#ifndef NSDYN_PERIDYNAMICSCENESYSTEM_HPP
#define NSDYN_PERIDYNAMICSCENESYSTEM_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nsdyn/KernelExport.hpp"
#include "nsdyn/PeridynamicStepper.hpp"
#include "nsdyn/SceneSystem.hpp"

namespace nsdyn {

class PeridynamicBody;

/// Options of a PeridynamicSceneSystem.
struct NSDYN_KERNEL_API PeridynamicSceneOptions {
  /// makePeridynamicStepper name: "substitution" (default), "newton", "verlet".
  std::string stepper = "substitution";
  /// The stepper's tolerance, iterations, line search, threads; h, θ and gravity are the
  /// engine's (SceneEngineOptions), set at each step.
  PeridynamicStepOptions step;
  /// Material group of the points (contact materials, SceneEngine::setMaterial).
  int group = 0;
  /// Break the bonds stretched past the critical stretch after each step (breakBonds, then
  /// refresh when any broke).
  bool fracture = true;
};

/// A peridynamic body as points of a SceneEngine.
///
/// attach: each point i becomes a dynamic sphere body of the store (radius
/// body.contactRadius(), mass m_i, rotation locked: BodyStore::lockRotation), all in one
/// collision family of their own (BodyStore::setFamily): the points of the body never collide
/// with each other (they are bonded; self-contact of a body is not handled), but with every
/// other body of the scene.
///
/// The step: the stepper's free step from (x_k, v_k) with the engine's h, θ and gravity and
/// body.force gives the free end positions x̃ and velocities ṽ; ṽ_i is point i's free
/// velocity in the engine, so that the engine's x_{k+1} = x_k + h (θ v_{k+1} + (1 − θ) v_k)
/// is x̃ when no contact acts. A contact impulse r on point i changes its velocity by r / m_i
/// (the lumped mass, rotation locked) and its position by h θ r / m_i. Approximation: within
/// the step the contact sees the point's inertia only, not the stiffness of its bonds (the
/// body's iteration matrix M + h²θ² K is replaced by M); the body's elastic response to the
/// impulse enters through the next step's internal forces. So a contact stops the touching
/// points only while the rest of the body keeps its free motion for that step (an error of
/// about g h² per step for a body resting on a support), and the body rings on its contact
/// layer: θ = 1/2 leaves that ringing undamped and a block on a slope below its friction angle
/// walks down (1.2 mm in 0.2 s, h = 1 ms, E = 1 MPa); θ = 3/4 damps it within about 20 steps,
/// after which the block sticks (PeridynamicSceneTest: 1.5e-5 m in all, 2e-11 m over the last
/// 0.1 s). The exact coupling (the body's iteration matrix in the Delassus operator) is not
/// done yet. Prescribed points take part in
/// the contacts with their mass and are put back on their prescribed motion after the step.
///
/// Between steps the store holds the state: freeVelocity reads x_k and v_k from the points'
/// q and v (a user moving the body writes there, or before addSystem).
///
/// endStep: positions and velocities back into the body (the points' q and v), then the
/// bonds stretched past the critical stretch are broken (options.fracture). lastReport()
/// tells the stepper's iterations, residual and Φ decrease and the bonds broken.
class NSDYN_KERNEL_API PeridynamicSceneSystem : public SceneSystem {
 public:
  using Options = PeridynamicSceneOptions;

  /// What the body did in the last step.
  struct Report {
    PeridynamicStepReport step;     ///< the free step (iterations, residual, Φ start/end)
    std::size_t bondsBroken = 0;    ///< directed bonds broken after the step
    std::size_t contactPoints = 0;  ///< points with a nonzero contact impulse
  };

  /// nsdyn::Error naming the body for a null body, an unknown stepper or a group < 0.
  PeridynamicSceneSystem(std::shared_ptr<PeridynamicBody> body, const Options& options = Options());
  ~PeridynamicSceneSystem() override;

  std::string name() const override;
  void attach(SceneEngine& engine) override;
  void freeVelocity(const SceneEngine& engine, double* vel) override;
  void endStep(SceneEngine& engine) override;

  PeridynamicBody& body() { return *body_; }
  const PeridynamicBody& body() const { return *body_; }
  /// Store index of point i (after attach).
  std::size_t storeIndex(std::size_t point) const { return first_ + point; }
  /// The collision family of the points (after attach).
  std::int32_t family() const { return family_; }
  const Report& lastReport() const { return report_; }
  /// Totals over the steps done: stepper iterations, bonds broken.
  long totalIterations() const { return iterations_; }
  std::size_t totalBondsBroken() const { return broken_; }

 private:
  std::shared_ptr<PeridynamicBody> body_;
  Options options_;
  std::unique_ptr<PeridynamicStepper> stepper_;
  std::size_t first_ = 0;
  std::int32_t family_ = 0;
  bool attached_ = false;
  std::vector<double> xFree_, vFree_;
  Report report_;
  long iterations_ = 0;
  std::size_t broken_ = 0;
};

}  // namespace nsdyn

#endif
