// The schema table's rows of the <simulation> (integrators, problems, Newton loop,
// projection, events) and the <outputs>, and the wordings of inherited attributes.
// A row: element, attribute, type, enum values, default, required, context, and the text
// of its line in doc/xml-reference.md (nsdyn_schema_gen writes the page's tables from it).

#include "SchemaRows.hpp"

namespace nsdyn::io::xml::schema::rows {

std::vector<Attribute> simulationRows() {
  return {
      // ---- simulation ----
      {"simulation", "type", E, "TimeStepping|TimeSteppingDirectProjection|EventDriven",
       "TimeStepping", Opt, Any,
       "`TimeStepping` (default), `TimeSteppingDirectProjection` or `EventDriven`"},
      {"simulation", "t0", N, "", "0", Opt, Any, "initial time (default 0)"},
      {"simulation", "T", N, "", "", Req, Any, "final time (> t0, finite)"},
      {"simulation", "h", N, "", "", Req, Any,
       "time step (> 0 and ≤ T − t0); for EventDriven the output grid"},
      {"simulation", "steps", I, "", "ceil((T - t0) / h)", Opt, Any,
       "TimeStepping: number of steps to run (default ceil((T − t0)/h)); at most 1e15 in a file, "
       "and `nsdyn run` refuses more than 1e8 unless `--max-steps N`"},
      {"simulation", "on-failure", E, "stop|continue", "stop", Opt, Any,
       "`stop` (default): `nsdyn run` ends at the first step whose solve failed (results up to it "
       "written, exit status 1); `continue`: runs to the end, still exit status 1 with the count "
       "and the first failure on stderr. `nsdyn run --on-failure` overrides it"},
      {"integrator", "theta", N, "", "0.5", Opt, Any, "θ in [0, 1] (default 0.5)"},
      {"integrator", "systems", Ns, "", "every system", Opt, Any,
       "the systems it integrates, names separated by blanks (default: every system of its kind no "
       "other integrator claimed)"},
      {"MoreauJeanOSI", "constraints", E, "end-of-step|midpoint", "end-of-step", Opt, Any,
       "`end-of-step` (default, Siconos: bilateral constraints hold on H v_{k+1}, Jacobians at the "
       "iterate) or `midpoint` (they hold on H(θ v_{k+1} + (1−θ) v_k) with Jacobians at the "
       "θ-point configuration: with θ = 1/2 joints do no work and a jointed system keeps its "
       "energy)"},
      {"MoreauJeanDirectProjectionOSI", "activate-threshold", N, "", K, Opt, Any, "default 1e-7"},
      {"MoreauJeanDirectProjectionOSI", "deactivate-velocity-threshold", N, "", K, Opt, Any,
       "default 0"},
      {"CvodeOSI", "method", E, "adams|bdf", "adams", Opt, Any, "`adams` (default) or `bdf`"},
      {"CvodeOSI", "rtol", N, "", K, Opt, Any, "relative tolerance (default 10 ε)"},
      {"CvodeOSI", "atol", N, "", K, Opt, Any, "absolute tolerance (default 100 ε)"},
      {"CvodeOSI", "max-steps-per-event", I, "", K, Opt, Any,
       "CVODE steps allowed between two events (default 100000)"},
      {"CvodeOSI", "max-step", N, "", K, Opt, Any,
       "largest internal step in s (default 0: unbounded)"},
      {"CvodeOSI", "max-order", I, "", K, Opt, Any, "largest order (default 0: CVODE's)"},
      {"problem", "solver", T, "", "lemke (LCP, MLCP, Relay)", Opt, Any,
       "Numerics LCP solver by name (default `lemke`; see `nsdyn solve --list-solvers`)"},
      {"problem", "fallback", T, "", "", Opt, Any,
       "a second solver of the same kind, run from the first one's λ when the first stops without "
       "meeting its tolerance (iteration cap, time limit, failure); the step then counts as solved "
       "if the fallback meets it. Also on `<MLCP>`, `<Relay>`, `<FrictionContact>` (e.g. "
       "`solver=\"nsgs\" fallback=\"newton_ac\"`). Default: none"},
      {"problem", "warm-start", B, "", K, Opt, Any,
       "start iterative solvers from the previous λ (default true)"},
      {"problem", "storage", E, "dense|sparse-block", K, Opt, Any,
       "Delassus matrix `sparse-block` (default, as the Kernel's `OneStepNSProblem`) or `dense`"},
      {"problem", "mode", E, "tolerance|budget", "tolerance", Opt, TS,
       "time stepping: `tolerance` (default: a solve that stops short of its `tolerance`, at "
       "`max-iterations` or `time-limit`, is a failed step) or `budget` (`max-iterations`, and "
       "`time-limit` when set, are the step's fixed budget: a solve that stops there is accepted "
       "whatever its residual, reported in `step.residual`, `step.above_tolerance` and the run's "
       "summary; no `fallback`, refused with it, and no APGD cold retry). Also on `<MLCP>`, "
       "`<Relay>`, `<FrictionContact>`; see \"Budget mode\" below"},
      {"LCP", "role", E, "impact|acceleration", "impact", Opt, ED,
       "EventDriven only: `impact` (default) or `acceleration`"},
      {"FrictionContact", "dim", I, "", "", Req, Any, "2 or 3"},
      {"FrictionContact", "fallback-time-factor", N, "", "1", Opt, Any,
       "`<scene>` (scene engine) only: the `fallback` runs at most this factor times the first "
       "solver's wall time on the step (never under 10 ms nor over `time-limit` when set; ≥ 0, "
       "default 1; 0: no time bound, for bit-identical runs)"},
      {"FrictionContact", "fallback-iterations", I, "", "0", Opt, Any,
       "`<scene>` only: the `fallback`'s iterations at most (≥ 0; default 0: `max-iterations`). A "
       "fallback stopped at its bound leaves the step failed with its residual"},
      {"GenericMechanical", "fallback-time-factor", N, "", "1", Opt, Any,
       "the `fallback` runs at most this factor times the first solver's wall time on the step "
       "(Kernel `OneStepNSProblem::setFallbackBound`; never under 10 ms; ≥ 0, default 1; 0: no "
       "time bound, the run the same on any machine)"},
      {"GenericMechanical", "fallback-iterations", I, "", "0", Opt, Any,
       "the `fallback`'s iterations at most (≥ 0; default 0: `max-iterations`)"},
      {"newton", "mode", E, "auto|linear|nonlinear", "auto", Opt, Any,
       "`<simulation>`: `auto` (default: Newton iterations when a system is nonlinear — rigid "
       "bodies, M(q), user internal forces — or has a `<boundaryCondition>`; else one pass), "
       "`linear` (one pass, linearised at the step start; refused with boundary conditions) or "
       "`nonlinear` (always Newton)"},
      {"newton", "tolerance", N, "", K, Opt, Any,
       "`<simulation>`: tolerance on ‖R − p‖₂ per system (default 1e-6)"},
      {"newton", "max-iterations", I, "", K, Opt, Any,
       "`<simulation>`: iterations per step (default 50)"},
      {"projection", "max-iterations", I, "", K, Opt, Any,
       "projections per step at most (default 20; 0: none)"},
      {"projection", "unilateral-tolerance", N, "", K, Opt, Any, "penetration left (default 1e-8)"},
      {"projection", "equality-tolerance", N, "", K, Opt, Any,
       "joint violation left (default 1e-8)"},
      {"projection", "solver", T, "", K, Opt, Any,
       "Numerics MLCP solver of the projection (default `enum`)"},
      {"events", "event-tolerance", N, "", K, Opt, Any,
       "gap and velocity below which a contact is closed / at rest (default ≈ 2.2e-12)"},
      {"events", "impact-velocity-threshold", N, "", K, Opt, Any,
       "impacts slower than this end an accumulation (default 1e-6 m/s)"},
      {"events", "min-impact-interval", N, "", K, Opt, Any,
       "impacts of one contact closer than this end an accumulation (default 1e-9 s)"},
      {"events", "max-events", I, "", K, Opt, Any,
       "the run stops after this many events (default 1e6)"},

      // ---- outputs ----
      {"outputs", "format", E, "csv|hdf5", "csv", Opt, Any,
       "`csv` (default; one file `NAME.csv` per output) or `hdf5` (one file `RUN.h5`, one dataset "
       "per output); `nsdyn run --format` overrides it"},
      {"sceneFiles", "every", I, "", "1", Opt, Any, "steps between frames (default 1)"},
      {"sceneFiles", "vtk", B, "", K, Opt, Any, "write the VTK frames (default false)"},
      {"sceneFiles", "hdf5", B, "", K, Opt, Any, "write `NAME.hdf5` (default false)"},
      {"output", "name", F, "", "", Req, Any,
       "file (`NAME.csv`, `NAME.png`) or dataset name; letters, digits, `_` and `-`"},
      {"output", "every", I, "", "1", Opt, Any, "steps (or events) between rows (default 1)"},
      {"output", "initial-row", B, "", "true", Opt, Any,
       "write row 0, the initial state (default true)"},
      {"output", "before-rows", B, "", "false", Opt, Any,
       "EventDriven: also a row just before each nonsmooth event (default false)"},
      {"output", "max-rows", I, "", "no limit", Opt, Any,
       "the table holds at most this many rows (row 0 and before-rows included); the run ends, "
       "successfully, as soon as it has them, before T (default: no limit)"},
      {"column", "name", T, "", "", Req, Any, "column name (CSV header)"},
      {"column", "value", X, "", "", Req, Any, "the expression"},
      {"column", "initial", X, "", "value", Opt, Any,
       "row 0: this expression instead, or `next` for the value of the next row"},
      {"column", "sum", B, "", "false", Opt, Any,
       "the column holds the running sum of `value` over every step (row 0: 0)"},
      {"column", "before", X, "", "", Opt, Any,
       "EventDriven: the value on the row before a nonsmooth event (default `value`)"},
      {"plot", "title", T, "", "", Opt, Any, "title of the figure (default the output name)"},
      {"curve", "column", T, "", "", Req, Any, "column name"},
      {"curve", "title", T, "", "the column", Opt, Any, "key (default the column name)"},
      {"curve", "panel", T, "", "", Opt, Any,
       "y label; curves with the same label share a panel, panels stacked in order"},
      {"vtk", "every", I, "", "1", Opt, Any, "steps between frames (default 1)"},
      {"body", "system", Nm, "", "", Req, Any,
       "the system (rigid body or Lagrangian system; orientation and velocities as above)"},
      {"body", "x", X, "", "q[0]", Opt, Any, "expression of the point's x (default `S.q[0]`)"},
      {"body", "y", X, "", "q[1]", Opt, Any, "expression of y (default `S.q[1]`, or 0)"},
      {"body", "z", X, "", "q[2]", Opt, Any, "expression of z (default `S.q[2]`, or 0)"},
      {"body", "radius", N, "", "0", Opt, Any, "point data \"radius\" (default 0), for glyphs"},
  };
}

std::vector<Wording> wordings() {
  return {
      {"EulerMoreauOSI", "systems", "as for `<MoreauJeanOSI>`"},
      {"MoreauJeanDirectProjectionOSI", "systems", "as for `<MoreauJeanOSI>`"},
      {"MLCP", "solver", "Numerics MLCP solver (default `lemke`)"},
      {"MLCP", "fallback", "as for `<LCP>`"},
      {"MLCP", "warm-start", "as for `<LCP>`"},
      {"MLCP", "storage", "as for `<LCP>`"},
      {"MLCP", "mode", "as for `<LCP>`: `tolerance` (default) or `budget`"},
      {"Relay", "solver", "the LCP solver (default `lemke`)"},
      {"Relay", "fallback", "as for `<LCP>` (an LCP solver)"},
      {"Relay", "warm-start", "as for `<LCP>`"},
      {"Relay", "storage", "as for `<LCP>`"},
      {"Relay", "mode", "as for `<LCP>`: `tolerance` (default) or `budget`"},
      {"FrictionContact", "solver",
       "Numerics fc2d/fc3d solver (default `nsgs` in 2D with tolerance 1e-4, `auto` in 3D: by "
       "size and tolerance, its NSGS with Anderson acceleration; in a `<scene>`, `nsgs` is "
       "Gauss-Seidel on body velocities and `auto` the same sweeps with Anderson acceleration)"},
      {"FrictionContact", "fallback",
       "as for `<LCP>`, e.g. `newton_ac` behind `nsgs` (granular flows: HopperDischarge)"},
      {"FrictionContact", "warm-start", "as for `<LCP>`"},
      {"FrictionContact", "storage", "as for `<LCP>`"},
      {"FrictionContact", "mode", "as for `<LCP>`: `tolerance` (default) or `budget`"},
      {"GenericMechanical", "solver",
       "Numerics GMP solver: `newton` (default, global semismooth Newton) or `nsgs` (Gauss–Seidel "
       "over the blocks)"},
      {"GenericMechanical", "fallback", "as for `<LCP>` (a GMP solver)"},
      {"GenericMechanical", "warm-start", "as for `<LCP>`"},
      {"GenericMechanical", "storage", "as for `<LCP>`"},
      {"GenericMechanical", "mode", "as for `<LCP>`: `tolerance` (default) or `budget`"},
      {"RollingFrictionContact", "solver",
       "Numerics rfc3d solver: `nsgs` (default, Gauss–Seidel over the contacts) or `pg` "
       "(projected gradient)"},
      {"RollingFrictionContact", "fallback", "as for `<LCP>` (an rfc3d solver)"},
      {"RollingFrictionContact", "warm-start", "as for `<LCP>`"},
      {"RollingFrictionContact", "storage", "as for `<LCP>`"},
      {"RollingFrictionContact", "mode", "as for `<LCP>`: `tolerance` (default) or `budget`"},
  };
}

}  // namespace nsdyn::io::xml::schema::rows
