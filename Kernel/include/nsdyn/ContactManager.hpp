/// @file ContactManager.hpp
/// @brief Contacts between rigid bodies with shapes, detected every step and
///        kept in arrays (ContactSet), with warm start by contact key.
#ifndef NSDYN_KERNEL_CONTACTMANAGER_HPP
#define NSDYN_KERNEL_CONTACTMANAGER_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/ContactSet.hpp"
#include "nsdyn/InteractionManager.hpp"
#include "nsdyn/KernelExport.hpp"

namespace nsdyn {

class NonSmoothDynamicalSystem;
class OneStepIntegrator;

/// Coulomb friction, Newton restitution and rolling resistance between two groups of bodies.
struct NSDYN_KERNEL_API ContactMaterial {
  double mu = 0.5;           ///< friction coefficient (≥ 0)
  double restitution = 0.0;  ///< normal restitution e in [0, 1]
  /// Rolling resistance length (m, ≥ 0; 0: none, the default): the rolling moment about the
  /// contact's tangent axes is bounded by rolling × the normal force, so a sphere of radius R
  /// rests on an incline of angle θ iff tan θ ≤ rolling / R. Only RollingFrictionContact
  /// uses it (FrictionContact and GenericMechanical refuse a material with rolling > 0).
  double rolling = 0.0;
};

/// Options of ContactManager.
struct NSDYN_KERNEL_API ContactManagerOptions {
  /// Detection: margin (envelope: contacts are detected, and warm-started,
  /// while gap ≤ margin; they enter the problem when gap + ½ h u_n ≤ 0),
  /// breaking distance (≥ margin: a contact known at the previous step is kept
  /// while gap ≤ breakingDistance), threads (0: OpenMP default).
  ContactDetectorOptions detection;
  /// When detection.margin is 0: margin = relativeMargin × the smallest
  /// characteristic size of the finite shapes (set at initialize(); 0 keeps a
  /// zero margin). A margin keeps resting contacts detected through round-off.
  double relativeMargin = 0.02;
  /// A contact enters the problem when gap + ½ h u_n ≤ relativeActivation × the
  /// smallest shape size (Siconos: ≤ 0). The small positive threshold keeps a
  /// body placed exactly on another (gap 0 up to round-off) in contact from the
  /// first step, instead of letting it fall through by g h² for one step.
  double relativeActivation = 1e-9;
  /// A contact that carried a normal impulse at the last step and that the rule above now
  /// leaves out enters the problem with the row u_n,k+1 ≥ −(gap + ½ h u_n,k) / h (it may
  /// close its gap, never pulls, and lets the body leave at no cost). Unset (the library's
  /// default, today off with every solver: the same bits as earlier runs) or true / false.
  /// Turn it on with `auto` or `apgd` at loose tolerances or in budget mode: within a
  /// tolerance of 1e-6 these solvers, which converge from both sides, can leave a loaded
  /// resting contact opening at round-off speed (a few 1e-8 m/s), past the threshold at the
  /// next step at gap 0, and the body above falls freely for a step, over and over (a
  /// resting stack's kinetic energy 1e-10 → 0.1 J in 6 steps; none at 1e-8). Not on by
  /// default for them: at 1e-8 and below the kept row stalls the sweeps on a capsule
  /// rolling on a plane (doc/design.md "Loaded contacts kept"). Restitution > 0 keeps the
  /// rule above. ContactManager and SceneEngine.
  std::optional<bool> keepLoadedContacts;
  /// Overlap at t0 deeper than this fraction of the smaller shape's
  /// characteristic size is reported (warnings() after initialize; stderr at the first
  /// step, so that a model stepped by the SceneEngine reports it once), pair named.
  double overlapWarningFraction = 0.05;
  /// Warm start from the previous step's impulses (by contact key).
  bool warmStart = true;
  /// Swept detection (default off): at each step start, body b's detection distance
  /// grows by sweep_b = h (|v_b| + |Ω_b| R_b) (v_b, Ω_b its velocity at t_k, R_b the
  /// radius of the sphere about its centre of mass that bounds its shapes): its AABBs are
  /// inflated by margin + sweep_b and a pair (a, b) is a contact while gap ≤ margin +
  /// sweep_a + sweep_b. An approaching contact is thus in the contact set before it
  /// penetrates, and enters the problem by the usual rule gap + ½ h u_n ≤ activation
  /// (Moreau–Jean, γ = ½): the penetration after an impact at normal speed |u_n| is then
  /// below h |u_n| (without the sweep, up to 1.5 h |u_n| − margin).
  bool sweptDetection = false;
  /// Position correction of overlaps (Baumgarte / Chrono-like stabilisation; 0: off,
  /// the default, Siconos's semantics). For an active contact with gap < 0 at t_k, the
  /// normal row of the problem asks u_n,k+1 ≥ min(β |gap| / h, maxRecoverySpeed) instead of
  /// ≥ 0 (q_n += max(β gap / h, −maxRecoverySpeed)): an overlap is pushed out over a few
  /// steps at a bounded speed. β in [0, 1]. The correction does work on the bodies:
  /// Statistics::contactWork then includes it (it may be > 0), and the energy balance
  /// ΔE = Σ contactWork still closes.
  double stabilisationFactor = 0.0;
  /// Cap of the separating speed the correction asks for (m/s, > 0).
  double maxRecoverySpeed = 0.1;
};

/// The InteractionManager of rigid-body scenes (Siconos: the collision manager
/// of siconos.mechanics), without an object per contact.
///
/// Bodies (BodyShapes, dynamic or static) are added with a group; materials
/// (μ, e) are set per pair of groups. Each step (TimeStepping):
///  1. detection at q_k (ContactDetector: uniform grid, closed forms, convexContact),
///     contacts sorted by key;
///  2. persistent contacts: a contact of the previous step whose key is found
///     again is warm-started with its impulse, the tangential part rotated
///     into the new tangent plane (same magnitude); keys are merged as two
///     sorted lists, O(contacts);
///  3. the ContactSet: frame, points, 3×6 Jacobian blocks, u_k, material,
///     activity (gap + ½ h u_n ≤ 0) — filled in parallel over contacts;
///  4. FrictionContact(3) solves the active contacts (matrix-free operator
///     J M⁻¹ Jᵀ for "apgd", sparse-block W for the other solvers), or GenericMechanical
///     solves them with the model's Interactions (joints, motors) in one problem, or
///     RollingFrictionContact with a rolling resistance (ContactMaterial::rolling);
///  5. computeInput: p = Jᵀ λ (+ J_Rᵀ r_R, the rolling torques) summed per body through a
///     body → contacts index (deterministic order, parallel over bodies).
/// Restriction: with FrictionContact(3) the model must have no Interaction (joints and
/// detected contacts in one problem: GenericMechanical); initialize() says so.
class NSDYN_KERNEL_API ContactManager : public InteractionManager {
 public:
  using Options = ContactManagerOptions;
  struct Statistics {
    std::size_t contacts = 0;            ///< detected (gap ≤ margin)
    std::size_t active = 0;              ///< in the step's problem
    std::size_t warmStarted = 0;         ///< contacts found at the previous step
    double detectionSeconds = 0.0;       ///< last step: detection
    double assemblySeconds = 0.0;        ///< last step: contact arrays and warm start
    double totalDetectionSeconds = 0.0;  ///< every step so far
    double contactWork = 0.0;  ///< last step: Σ λ·(u_k + u_{k+1})/2 (work of the contact impulses)
    std::size_t stabilised = 0;  ///< last step: active contacts with a position correction
    double maxSweep = 0.0;  ///< last step: the largest sweep distance of a body (sweptDetection)
  };

  explicit ContactManager(const Options& options = Options());
  std::string className() const override { return "ContactManager"; }

  /// Add a body in @p group (≥ 0); returns its index. A dynamic body's
  /// NewtonEulerDS must also be in the model: the overload with @p nsds inserts it.
  std::size_t addBody(BodyShapes body, int group = 0);
  std::size_t addBody(NonSmoothDynamicalSystem& nsds, BodyShapes body, int group = 0);
  const std::vector<BodyShapes>& bodies() const { return bodies_; }
  int group(std::size_t body) const { return groups_.at(body); }

  /// Material of the pairs of groups without their own (default μ = 0.5, e = 0).
  void setDefaultMaterial(const ContactMaterial& material);
  /// Material between @p groupA and @p groupB (symmetric); nsdyn::Error for μ < 0,
  /// e outside [0, 1] or rolling < 0 (or not finite).
  void setMaterial(int groupA, int groupB, const ContactMaterial& material);
  ContactMaterial material(int groupA, int groupB) const;
  const ContactMaterial& defaultMaterial() const { return default_; }
  /// The materials set per pair of groups (lower group first).
  const std::map<std::pair<int, int>, ContactMaterial>& materials() const { return materials_; }

  const Options& options() const { return options_; }
  /// The options as given, before initialize() set the margin from relativeMargin (and the
  /// breaking distance to at least it): for an engine that sizes them over more bodies (a
  /// scene with peridynamic points).
  Options declaredOptions() const;
  /// Detection threads (0: OpenMP default); results do not depend on it.
  void setThreads(int threads);

  void initialize(Simulation& simulation) override;
  void updateInteractions(Simulation& simulation, double t) override;
  ContactSet* contactSet() override { return &contacts_; }
  void computeInput(double t) override;
  void afterStep(Simulation& simulation) override;

  const ContactSet& contacts() const { return contacts_; }
  const ContactDetector& detector() const { return detector_; }
  const Statistics& statistics() const { return stats_; }
  /// Overlaps at t0 found by initialize() (also printed on stderr).
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  bool derivedMargin_ = false;  // initialize() set the margin from relativeMargin
  double declaredBreaking_ = 0.0;
  void fillContacts(double h);
  void updateSweep(double h);
  void warmStartFromPrevious();
  static void checkMaterial(const ContactMaterial& m, const std::string& what);

  Options options_;
  std::vector<BodyShapes> bodies_;
  std::vector<int> groups_;
  std::vector<std::int32_t> dynamicIndex_;  // body -> column block, -1 static
  ContactMaterial default_;
  std::map<std::pair<int, int>, ContactMaterial> materials_;
  ContactDetector detector_;
  ContactSet contacts_;
  // previous step: keys, frames and impulses (sorted by key)
  std::vector<std::uint64_t> prevKey_;
  std::vector<double> prevFrame_, prevImpulse_, prevRolling_;
  // body -> contacts index (CSR), rebuilt each step
  std::vector<std::int32_t> bodyStart_, bodyContacts_;
  double h_ = 0.0;
  double activation_ = 0.0;             // absolute activation threshold
  std::vector<double> boundingRadius_;  // per body, about its centre of mass (0 for static bodies)
  std::vector<double> sweep_;           // per body, this step (sweptDetection)
  Statistics stats_;
  std::vector<std::string> warnings_;
  bool warningsPrinted_ = true;  // warnings_ go to stderr at the first step
  bool initialized_ = false;
};

namespace SP {
using ContactManager = std::shared_ptr<nsdyn::ContactManager>;
}

}  // namespace nsdyn

#endif
