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

namespace peridynamics {
class StepMatrix;
}

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
  /// Contacts between points of the body itself that no intact bond joins (the faces of a
  /// crack or a pre-crack, fragments, a folded cloth): the points are then not one collision
  /// family, and the bonded pairs the detection finds are dropped (SceneSystem::keepsContact).
  /// Off by default: each point is then paired with its touching neighbours by the detection,
  /// then dropped, a cost of about one narrow-phase test per neighbour within 2 contact radii.
  bool selfContact = false;
  /// The body's response to contact impulses within the step: true (exact), the body's
  /// iteration matrix A = M + h²θ² K at the free end positions (K the material's tangent,
  /// factored by CHOLMOD) in the contact problem, so that a contact acts on the whole body at
  /// once; false (lumped), the points' masses only (cheaper: no factor, no solve).
  bool exactResponse = true;
  /// Exact response up to this many points in contact in a step (each costs 3 solves with
  /// the factor, and W holds a dense block per pair of their contacts); a step with more
  /// takes the lumped response and is counted (Report::lumpedResponse).
  std::size_t exactResponseLimit = 1000;
};

/// A peridynamic body as points of a SceneEngine.
///
/// attach: each point i becomes a dynamic sphere body of the store (radius
/// body.contactRadius(), mass m_i, rotation locked: BodyStore::lockRotation), all in one
/// collision family of their own (BodyStore::setFamily): the points of the body never collide
/// with each other, but with every other body of the scene. With Options::selfContact they
/// are in no family and two points no intact bond joins collide (crack faces, fragments, a
/// folded sheet).
///
/// The step: the stepper's free step from (x_k, v_k) with the engine's h, θ and gravity and
/// body.force gives the free end positions x̃ and velocities ṽ; ṽ_i is point i's free
/// velocity in the engine, so that the engine's x_{k+1} = x_k + h (θ v_{k+1} + (1 − θ) v_k)
/// is x̃ when no contact acts. The exact response (Options::exactResponse; implicit steppers,
/// materials with bondwiseTangent()): the contact impulses act through the body's iteration
/// matrix A = M + h²θ² K(x̃), Δv = A⁻¹ Jᵀ r, in the contact problem itself (the coupled-response
/// hooks of SceneSystem: H = M/(h²θ²) + K factored by CHOLMOD at each step with contacts, the
/// blocks of A⁻¹ − M⁻¹ between the points in contact given to the engine, one more solve for
/// every point's velocity after the solve), so that a contact acts on the whole body within
/// the step: a block below its friction angle stays put at θ = 1/2 (PeridynamicSceneTest:
/// 1.1e-9 m in 0.2 s). Otherwise (lumped response) a contact impulse r on point i changes its
/// velocity by r / m_i only and the body answers through its bonds at the next step: the
/// touching points stop while the rest keeps its free motion (an error of about g h² per
/// step) and the body rings on its contact layer, undamped at θ = 1/2 (the same block walks
/// 5.4 mm in 0.2 s), damped in about 20 steps at θ = 3/4 (doc/peridynamics.md, "Contact").
/// Prescribed points take part in the contacts with their mass (the exact response holds
/// them: A⁻¹ is 0 there) and are put back on their prescribed motion after the step.
///
/// Between steps the store and the body both hold the state: beginStep copies into the store
/// what was changed on the body since the last step, freeVelocity then reads x_k and v_k from
/// the points' q and v (so a change on either is taken).
///
/// endStep: positions and velocities back into the body (the points' q and v), then the
/// bonds stretched past the critical stretch are broken (options.fracture). lastReport()
/// tells the stepper's iterations, residual and Φ decrease and the bonds broken.
class NSDYN_KERNEL_API PeridynamicSceneSystem : public SceneSystem {
 public:
  using Options = PeridynamicSceneOptions;

  /// What the body did in the last step.
  struct Report {
    PeridynamicStepReport step;      ///< the free step (iterations, residual, Φ start/end)
    std::size_t bondsBroken = 0;     ///< directed bonds broken after the step
    std::size_t contactPoints = 0;   ///< points with a nonzero contact impulse
    std::size_t responsePoints = 0;  ///< points of the contact problem (exact response)
    bool lumpedResponse = false;     ///< exact response asked for but not given this step
    double responseSeconds = 0.0;    ///< factor and solves of the exact response
    std::size_t impulsePoints = 0;   ///< points with a nonzero impulse (exact response)
  };

  /// nsdyn::Error naming the body for a null body, an unknown stepper or a group < 0.
  PeridynamicSceneSystem(std::shared_ptr<PeridynamicBody> body, const Options& options = Options());
  ~PeridynamicSceneSystem() override;

  std::string name() const override;
  void attach(SceneEngine& engine) override;
  /// The points whose position or velocity in the PeridynamicBody changed since the last step
  /// (a user prescribing a motion on the body, not on the store) are copied into the store.
  void beginStep(SceneEngine& engine) override;
  void freeVelocity(const SceneEngine& engine, double* vel) override;
  void endStep(SceneEngine& engine) override;
  /// Options::selfContact: a detected pair of two points is a contact unless an intact bond
  /// joins them.
  bool filtersContacts() const override { return options_.selfContact; }
  bool keepsContact(std::size_t a, std::size_t b) const override;
  /// The exact response (Options::exactResponse): the body's iteration matrix in the contact
  /// problem (SceneSystem.hpp, "Coupled response").
  bool coupled() const override;
  std::size_t firstBody() const override { return first_; }
  std::size_t bodyCount() const override;
  bool beginResponse(const SceneEngine& engine, const std::size_t* touched,
                     std::size_t count) override;
  void responseBlock(std::size_t a, std::size_t b, double* out) const override;
  void correctVelocity(const SceneEngine& engine, const double* impulse, double* vel) override;

  PeridynamicBody& body() { return *body_; }
  const PeridynamicBody& body() const { return *body_; }
  /// Store index of point i (after attach).
  std::size_t storeIndex(std::size_t point) const { return first_ + point; }
  /// The collision family of the points (after attach; 0 with self-contact).
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
  std::vector<double> xSeen_, vSeen_;  // the body's x and v as the last step left them
  // the exact response: H = M/(h²θ²) + K factored at x̃, A⁻¹ = H⁻¹/(h²θ²); the touched
  // points, A⁻¹ − M⁻¹ between them (9 per pair), a solve's vector
  std::unique_ptr<peridynamics::StepMatrix> matrix_;
  std::vector<std::size_t> touched_;
  std::vector<double> columns_, work_;
  double responseScale_ = 0.0;  // 1/(h²θ²)
  bool responding_ = false;
  Report report_;
  long iterations_ = 0;
  std::size_t broken_ = 0;
};

}  // namespace nsdyn

#endif
