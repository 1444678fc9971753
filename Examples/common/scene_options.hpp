/// @file scene_options.hpp
/// @brief The command-line options shared by the rigid-body scene examples (friction solver,
///        threads) and the small shape helpers they all use (a shape instance, the floor).
#ifndef NSDYN_EXAMPLES_SCENE_OPTIONS_HPP
#define NSDYN_EXAMPLES_SCENE_OPTIONS_HPP

#include <memory>
#include <string>
#include <vector>

#include "example_utils.hpp"
#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/OverlapRecovery.hpp"
#include "nsdyn/ShapeInstance.hpp"

namespace nsdyn::examples {

/// @p shape at the body's origin, unrotated.
ShapeInstance instance(std::shared_ptr<const Shape> shape);
/// The floor z = 0: a static body with HalfSpaceShape(e_z, 0).
BodyShapes groundPlane();

/// `--threads N`: detection and solver threads @p threads, in [0, 1024] (0: the OpenMP default).
ExtraOption threadsOption(int& threads);
/// Its help line, with the default @p threads.
std::string threadsHelp(int threads);

/// The friction solver of a scene example: its defaults are the example's, its
/// command-line options (solverOptions) overwrite them.
struct SolverChoice {
  std::string solver = "nsgs";  ///< friction solver name
  double tolerance = 1e-4;      ///< on the Siconos error
  int iterations = 1000;        ///< iteration cap (max_iterations)
  bool shuffle = false;         ///< NSGS visits the contacts in a new random order each sweep
  std::string fallback;         ///< solver run when the first stops short (empty: none)
  /// Budget mode (SolveMode::Budget): the iteration cap is the step's fixed budget, a step
  /// stopped there is accepted with its residual reported (no fallback then); tolerance mode
  /// (false): a step short of the tolerance is a failed step.
  bool budget = false;
  int checkEvery = 1;  ///< NSGS and PSOR: the Siconos error every k sweeps (pgs.check_every)
  int anderson = 0;    ///< NSGS and PSOR: Anderson acceleration, differences kept (nsgs.anderson)
  /// overlap recovery after the position update (SceneEngine; the engine's default: on)
  bool recovery = OverlapRecoveryOptions{}.enabled;
  int recoveryIterations = OverlapRecoveryOptions{}.iterations;   ///< its sweeps per step
  double recoveryTolerance = OverlapRecoveryOptions{}.tolerance;  ///< their stopping test
  bool speculative = false;  ///< speculative contacts (SceneEngineOptions::speculativeContacts)
};

/// Which options of a SolverChoice an example offers, and how it spells them;
/// `--solver NAME` always.
struct SolverFlags {
  bool tolerance = true;  ///< `--tolerance E`, in (0, 1)
  /// The iteration cap: "--iterations" or "--max-iterations"; empty: not offered.
  std::string iterations = "--iterations";
  int minIterations = 10;  ///< the accepted caps: [minIterations, maxIterations]
  int maxIterations = 1000000;
  bool shuffle = true;  ///< `--shuffle`
};

/// The options of @p flags, writing into @p choice (for parseArguments).
std::vector<ExtraOption> solverOptions(SolverChoice& choice,
                                       const SolverFlags& flags = SolverFlags());
/// Their help lines, with the defaults of @p defaults: --solver, --tolerance, the
/// iteration cap, --shuffle (those offered), --fallback.
std::string solverHelp(const SolverChoice& defaults, const SolverFlags& flags = SolverFlags());

/// The shortest %e form of @p x that reads back as @p x, without the exponent's leading
/// zeros (1e-4, 2.5e-3); %g from 0.01 to 10^6 (1000, 0.5).
std::string shortNumber(double x);

}  // namespace nsdyn::examples

#endif
