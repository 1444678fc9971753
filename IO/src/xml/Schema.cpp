// The schema table: every attribute of every element of a model file, once. The order of an
// element's rows is the order of its unknown-attribute message ("expected one of: ...").
// "Kernel's" as a default: the value of the Kernel object the element builds (its C++
// default), which doc/xml-reference.md states.

#include "Schema.hpp"

#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace nsdyn::io::xml::schema {

namespace {

constexpr Type N = Type::Number, I = Type::Integer, B = Type::Bool, E = Type::Enum, Nm = Type::Name,
               F = Type::FileName, V = Type::Vector, Ns = Type::Names, X = Type::Expression,
               T = Type::Text;
constexpr Context Any = Context::Any, TS = Context::TimeStepping, ED = Context::EventDriven;
constexpr bool Req = true, Opt = false;
constexpr const char* K = "Kernel's";

const std::vector<Element> kElements = {
    // the root, parameters, plugins, functions, the model
    {"nsdyn", "", "the root"},
    {"parameters", "", "named numbers"},
    {"parameter", "", "one named number"},
    {"plugin", "", "a shared library of functions"},
    {"functions", "", "functions written in the file"},
    {"function", "", "a function of t, q or (q, v, t)"},
    {"model", "", "systems, interactions or a scene"},
    {"systems", "", "the dynamical systems"},
    {"interactions", "", "the interactions"},
    // shared types of element data (the XSD's named complex types)
    {"vector", "", "element text: entries of a vector"},
    {"matrix", "", "element text: entries of a matrix"},
    {"functionRef", "", "a registered function instead of element text"},
    {"axisAngleType", "", "an orientation as an axis and an angle"},
    // systems
    {"LagrangianDS", "", "a Lagrangian system M(q) v' = f"},
    {"LagrangianLinearTIDS", "", "a linear time-invariant Lagrangian system"},
    {"NewtonEulerDS", "", "a rigid body"},
    {"boundaryCondition", "", "prescribed velocities of a rigid body"},
    {"FirstOrderLinearDS", "", "x' = A(t) x + b(t) + r"},
    {"FirstOrderLinearTIDS", "", "x' = A x + b + r"},
    // interactions: laws and relations
    {"interaction", "", "a law and a relation between one or two systems"},
    {"NewtonImpactNSL", "", "unilateral contact with Newton impacts"},
    {"NewtonImpactFrictionNSL", "", "contact with Coulomb friction"},
    {"ComplementarityConditionNSL", "", "0 <= y _|_ lambda >= 0"},
    {"EqualityConditionNSL", "", "y = 0"},
    {"MixedComplementarityConditionNSL", "", "equalities then complementarities"},
    {"RelayNSL", "", "a relay between lb and ub"},
    {"LagrangianLinearTIR", "", "y = H q + b"},
    {"LagrangianScleronomousR", "", "y = h(q), G = dh/dq"},
    {"NewtonEulerR", "", "y = C q + e on rigid bodies"},
    {"SpherePlaneContact", "", "a sphere against a plane"},
    {"KneeJointR", "", "a ball joint"},
    {"PivotJointR", "", "a hinge"},
    {"PrismaticJointR", "", "a slider"},
    {"FixedJointR", "", "a weld"},
    {"FirstOrderLinearR", "", "y = C x + D lambda + e (+ F u), r = B lambda"},
    {"FirstOrderLinearTIR", "", "time-invariant FirstOrderLinearR"},
    // scenes
    {"scene", "", "bodies with shapes and detected contacts"},
    {"ContactManager", "", "contact detection settings"},
    {"recovery", "", "the scene engine's overlap recovery"},
    {"material", "", "friction and restitution between body groups"},
    {"RigidBody", "", "a dynamic body with shapes"},
    {"StaticBody", "", "a fixed body with shapes"},
    {"SphereShape", "", "a sphere"},
    {"BoxShape", "", "a box"},
    {"CapsuleShape", "", "a capsule along z"},
    {"CylinderShape", "", "a cylinder along z"},
    {"ConvexHullShape", "", "the convex hull of points"},
    {"HalfSpaceShape", "", "a half-space (static bodies)"},
    {"particle", "", "the particles of a packing"},
    {"region", "", "an axis-aligned box"},
    {"latticePacking", "", "particles on a lattice"},
    {"randomPacking", "", "particles at random places"},
    {"container", "", "walls around a region"},
    {"hopper", "", "a hopper of plates"},
    {"chute", "", "an inclined chute"},
    {"roughBase", "", "a floor of fixed spheres"},
    // simulation
    {"simulation", "", "time stepping or event driven"},
    {"integrator", "", "shared attributes of one-step integrators"},
    {"MoreauJeanOSI", "integrator", "Moreau-Jean for mechanical systems"},
    {"EulerMoreauOSI", "integrator", "Euler-Moreau for first order systems"},
    {"MoreauJeanDirectProjectionOSI", "integrator", "Moreau-Jean with position projection"},
    {"CvodeOSI", "", "CVODE between the events of EventDriven"},
    {"problem", "", "shared attributes of one-step nonsmooth problems"},
    {"LCP", "problem", "a linear complementarity problem"},
    {"MLCP", "problem", "a mixed LCP"},
    {"Relay", "problem", "a relay problem"},
    {"FrictionContact", "problem", "a friction-contact problem"},
    {"newton", "", "TimeStepping's Newton loop"},
    {"projection", "", "TimeSteppingDirectProjection's projections"},
    {"events", "", "EventDriven's event settings"},
    // outputs
    {"outputs", "", "tables, VTK frames, scene files"},
    {"sceneFiles", "", "the scene's VTK and HDF5 files"},
    {"output", "", "a table of columns"},
    {"column", "", "a column of a table"},
    {"plot", "", "a plot of a table"},
    {"curve", "", "a curve of a plot"},
    {"vtk", "", "VTK frames of bodies"},
    {"body", "", "a body in the VTK frames"},
};

const std::vector<Attribute> kAttributes = {
    // ---- the root, parameters, plugins, functions ----
    {"nsdyn", "version", T, "", "1", Opt, Any, "the format version, 1"},
    {"nsdyn", "name", F, "", "the file name without extension", Opt, Any, "the run's name"},
    {"parameter", "name", Nm, "", "", Req, Any, "the parameter's name (not t, k, h, pi)"},
    {"parameter", "value", N, "", "", Req, Any, "a number or an expression of earlier ones"},
    {"plugin", "library", T, "", "", Req, Any, "path of a shared library (from the file's folder)"},
    {"function", "name", Nm, "", "", Req, Any, "the function's name"},
    {"function", "args", E, "t|q|q v t", "", Req, Any, "its arguments"},
    {"function", "returns", E, "vector|matrix", "", Req, Any, "what it returns"},

    // ---- element data ----
    {"vector", "size", I, "", "", Opt, Any, "the number of entries expected"},
    {"matrix", "rows", I, "", "", Opt, Any, "the rows expected"},
    {"matrix", "cols", I, "", "", Opt, Any, "the columns expected"},
    {"matrix", "form", E, "full|diagonal", "full", Opt, Any, "all entries or the diagonal"},
    {"functionRef", "function", Nm, "", "", Req, Any, "a registered function (no content)"},
    {"axisAngleType", "axis", V, "", "", Req, Any, "the rotation axis (3, body to world)"},
    {"axisAngleType", "angle", N, "", "", Req, Any, "the rotation angle (rad)"},

    // ---- systems ----
    {"LagrangianDS", "name", Nm, "", "", Req, Any, "the system's name"},
    {"LagrangianLinearTIDS", "name", Nm, "", "", Req, Any, "the system's name"},
    {"NewtonEulerDS", "name", Nm, "", "", Req, Any, "the body's name"},
    {"NewtonEulerDS", "gyroscopic", B, "", "true", Opt, Any, "the gyroscopic term"},
    {"NewtonEulerDS", "gyroscopic-scheme", E, "trapezoidal|energy-momentum", "trapezoidal", Opt,
     Any, "how the Newton iterations treat it"},
    {"boundaryCondition", "indices", T, "", "", Req, Any, "velocity indices 0-5"},
    {"boundaryCondition", "values", T, "", "", Opt, Any, "one value (of t) per index"},
    {"boundaryCondition", "function", Nm, "", "", Opt, Any, "instead of values: a function of t"},
    {"FirstOrderLinearDS", "name", Nm, "", "", Req, Any, "the system's name"},
    {"FirstOrderLinearTIDS", "name", Nm, "", "", Req, Any, "the system's name"},

    // ---- interactions ----
    {"interaction", "name", Nm, "", "", Req, Any, "the interaction's name"},
    {"interaction", "systems", Ns, "", "", Req, Any, "one or two system names"},
    {"NewtonImpactNSL", "e", N, "", "", Req, Any, "the restitution coefficient in [0, 1]"},
    {"NewtonImpactNSL", "size", I, "", "1", Opt, Any, "rows"},
    {"NewtonImpactFrictionNSL", "en", N, "", "", Req, Any, "the normal restitution"},
    {"NewtonImpactFrictionNSL", "et", N, "", "0", Opt, Any, "the tangential restitution"},
    {"NewtonImpactFrictionNSL", "mu", N, "", "", Req, Any, "the friction coefficient"},
    {"NewtonImpactFrictionNSL", "dim", I, "", "", Req, Any, "the contact dimension, 2 or 3"},
    {"ComplementarityConditionNSL", "size", I, "", "1", Opt, Any, "rows"},
    {"EqualityConditionNSL", "size", I, "", "1", Opt, Any, "rows"},
    {"MixedComplementarityConditionNSL", "equalities", I, "", "", Req, Any, "equality rows"},
    {"MixedComplementarityConditionNSL", "complementarities", I, "", "", Req, Any,
     "complementarity rows"},
    {"RelayNSL", "size", I, "", "1", Opt, Any, "rows"},
    {"RelayNSL", "lb", N, "", "-1", Opt, Any, "the lower bound"},
    {"RelayNSL", "ub", N, "", "1", Opt, Any, "the upper bound"},
    {"SpherePlaneContact", "radius", N, "", "", Req, Any, "the sphere's radius (m)"},
    {"SpherePlaneContact", "normal", V, "", "", Req, Any, "the plane's normal (3, world frame)"},
    {"SpherePlaneContact", "offset", N, "", "0", Opt, Any, "the plane's offset along it (m)"},
    {"KneeJointR", "point", V, "", "", Req, Any, "the joint point (3)"},
    {"KneeJointR", "absolute", B, "", "", Req, Any, "true: world frame, false: first body's"},
    {"PivotJointR", "point", V, "", "", Req, Any, "the joint point (3)"},
    {"PivotJointR", "axis", V, "", "", Req, Any, "the hinge axis (3)"},
    {"PivotJointR", "absolute", B, "", "", Req, Any, "true: world frame, false: first body's"},
    {"PrismaticJointR", "axis", V, "", "", Req, Any, "the sliding axis (3)"},
    {"PrismaticJointR", "absolute", B, "", "", Req, Any, "true: world frame, false: first body's"},

    // ---- scenes ----
    {"scene", "gravity", V, "", "0 0 0", Opt, Any, "the gravity g (3, m/s^2)"},
    {"recovery", "enabled", B, "", "true", Opt, Any, "recover overlaps"},
    {"recovery", "slop", N, "", K, Opt, Any, "the allowed penetration (m), 0: relative-slop"},
    {"recovery", "relative-slop", N, "", K, Opt, Any, "it as a fraction of the smallest size"},
    {"recovery", "max-speed", N, "", K, Opt, Any, "the recovery speed cap (m/s)"},
    {"recovery", "iterations", I, "", K, Opt, Any, "Gauss-Seidel sweeps"},
    {"recovery", "tolerance", N, "", K, Opt, Any, "the stopping test of the sweeps"},
    {"ContactManager", "margin", N, "", "0", Opt, Any, "the detection margin (m)"},
    {"ContactManager", "breaking-distance", N, "", "margin", Opt, Any,
     "the distance at which a contact is dropped (m)"},
    {"ContactManager", "threads", I, "", "0", Opt, Any, "detection threads, 0: OpenMP default"},
    {"ContactManager", "relative-margin", N, "", K, Opt, Any, "a fraction of the smallest size"},
    {"ContactManager", "relative-activation", N, "", K, Opt, Any,
     "a fraction of the smallest size"},
    {"ContactManager", "overlap-warning-fraction", N, "", K, Opt, Any,
     "overlaps warned above it (fraction of the smaller shape)"},
    {"ContactManager", "warm-start", B, "", K, Opt, Any, "start from the last step's forces"},
    {"ContactManager", "cell-size", N, "", K, Opt, Any, "the broadphase cell (m), 0: automatic"},
    {"ContactManager", "cell-size-factor", N, "", K, Opt, Any, "a factor of the median box edge"},
    {"ContactManager", "max-cells-per-box", N, "", K, Opt, Any, "cells a box may cover"},
    {"ContactManager", "ccd-max-iterations", I, "", K, Opt, Any, "polytope expansions"},
    {"ContactManager", "ccd-tolerance", N, "", K, Opt, Any, "the depth tolerance (m)"},
    {"ContactManager", "convex-manifold", B, "", K, Opt, Any, "several points per convex pair"},
    {"ContactManager", "swept-detection", B, "", K, Opt, Any, "detect along the step's motion"},
    {"ContactManager", "stabilisation-factor", N, "", K, Opt, Any,
     "position correction in [0, 1], 0: off"},
    {"ContactManager", "max-recovery-speed", N, "", K, Opt, Any,
     "the largest speed of the position correction (m/s)"},
    {"material", "groups", V, "", "", Opt, Any, "two body groups; none: the default material"},
    {"material", "mu", N, "", K, Opt, Any, "the friction coefficient"},
    {"material", "restitution", N, "", K, Opt, Any, "the restitution coefficient in [0, 1]"},
    {"RigidBody", "name", Nm, "", "", Req, Any, "the body's name"},
    {"RigidBody", "group", I, "", "0", Opt, Any, "the body group, for materials"},
    {"RigidBody", "density", N, "", "", Opt, Any, "the density (kg/m^3), or mass"},
    {"RigidBody", "mass", N, "", "", Opt, Any, "the mass (kg), or density"},
    {"StaticBody", "name", Nm, "", "", Req, Any, "the body's name"},
    {"StaticBody", "group", I, "", "0", Opt, Any, "the body group, for materials"},
    {"SphereShape", "radius", N, "", "", Req, Any, "the radius (m)"},
    {"BoxShape", "half-extents", V, "", "", Req, Any, "the half-extents (3, m)"},
    {"CapsuleShape", "radius", N, "", "", Req, Any, "the radius (m)"},
    {"CapsuleShape", "half-length", N, "", "", Req, Any, "the half-length along z (m)"},
    {"CylinderShape", "radius", N, "", "", Req, Any, "the radius (m)"},
    {"CylinderShape", "half-length", N, "", "", Req, Any, "the half-length along z (m)"},
    {"ConvexHullShape", "points", T, "", "", Req, Any, "x y z of each point, separated by ';'"},
    {"HalfSpaceShape", "normal", V, "", "", Req, Any, "the outward normal (3)"},
    {"HalfSpaceShape", "offset", N, "", "0", Opt, Any, "the offset along the normal (m)"},
    {"particle", "kind", E, "sphere|box|capsule|cylinder", "sphere", Opt, Any, "the shape"},
    {"particle", "radius", N, "", K, Opt, Any, "the radius (m)"},
    {"particle", "length", N, "", K, Opt, Any, "the length along the shape's z (m)"},
    {"particle", "half-extents", V, "", K, Opt, Any, "the box half-extents (3, m)"},
    {"particle", "size-spread", N, "", K, Opt, Any, "the relative size spread in [0, 1)"},
    {"particle", "density", N, "", K, Opt, Any, "the density (kg/m^3)"},
    {"particle", "random-orientation", B, "", K, Opt, Any, "orientations at random"},
    {"particle", "name-prefix", Nm, "", K, Opt, Any, "the bodies' names before their number"},
    {"region", "lower", V, "", "", Req, Any, "the lower corner (3, m)"},
    {"region", "upper", V, "", "", Req, Any, "the upper corner (3, m)"},
    {"latticePacking", "count", I, "", "", Req, Any, "the number of particles"},
    {"latticePacking", "gap", N, "", "0", Opt, Any, "the gap between sites (m)"},
    {"latticePacking", "seed", I, "", "1", Opt, Any, "the random seed"},
    {"latticePacking", "group", I, "", "0", Opt, Any, "the body group, for materials"},
    {"randomPacking", "count", I, "", "", Req, Any, "the number of particles"},
    {"randomPacking", "seed", I, "", "1", Opt, Any, "the random seed"},
    {"randomPacking", "max-attempts", I, "", "1000", Opt, Any, "attempts per particle"},
    {"randomPacking", "group", I, "", "0", Opt, Any, "the body group, for materials"},
    {"container", "lower", V, "", "", Req, Any, "the inner region's lower corner (3, m)"},
    {"container", "upper", V, "", "", Req, Any, "the inner region's upper corner (3, m)"},
    {"container", "planes", B, "", K, Opt, Any, "half-spaces instead of boxes"},
    {"container", "wall-thickness", N, "", K, Opt, Any, "the wall thickness (m)"},
    {"container", "wall-height", N, "", K, Opt, Any, "the wall height (m), 0: the region's"},
    {"container", "name-prefix", Nm, "", K, Opt, Any, "the parts' names before their number"},
    {"container", "group", I, "", "0", Opt, Any, "the body group, for materials"},
    {"hopper", "center", V, "", K, Opt, Any, "the outlet centre x, y and the floor top z (m)"},
    {"hopper", "outlet-width", N, "", K, Opt, Any, "the outlet width (m)"},
    {"hopper", "top-width", N, "", K, Opt, Any, "the width at the top (m)"},
    {"hopper", "angle", N, "", K, Opt, Any, "the plate angle from the horizontal (rad)"},
    {"hopper", "outlet-height", N, "", K, Opt, Any, "the outlet height above the floor (m)"},
    {"hopper", "plates", I, "", K, Opt, Any, "2 or 4 plates"},
    {"hopper", "depth", N, "", K, Opt, Any, "the depth of a two-plate hopper (m)"},
    {"hopper", "side-walls", B, "", K, Opt, Any, "walls closing a two-plate hopper"},
    {"hopper", "wall-thickness", N, "", K, Opt, Any, "the plate thickness (m)"},
    {"hopper", "floor", B, "", K, Opt, Any, "a floor under the outlet"},
    {"hopper", "name-prefix", Nm, "", K, Opt, Any, "the parts' names before their number"},
    {"hopper", "group", I, "", "0", Opt, Any, "the body group, for materials"},
    {"chute", "origin", V, "", K, Opt, Any, "the top end of the bed surface (3, m)"},
    {"chute", "angle", N, "", K, Opt, Any, "the inclination (rad)"},
    {"chute", "length", N, "", K, Opt, Any, "the bed length (m)"},
    {"chute", "width", N, "", K, Opt, Any, "the width between the walls (m)"},
    {"chute", "wall-height", N, "", K, Opt, Any, "the wall height (m)"},
    {"chute", "thickness", N, "", K, Opt, Any, "the bed and wall thickness (m)"},
    {"chute", "planes", B, "", K, Opt, Any, "half-spaces instead of boxes"},
    {"chute", "name-prefix", Nm, "", K, Opt, Any, "the parts' names before their number"},
    {"chute", "group", I, "", "0", Opt, Any, "the body group, for materials"},
    {"roughBase", "radius", N, "", "", Req, Any, "the sphere radius (m)"},
    {"roughBase", "reach", N, "", "", Req, Any, "the radius of the disc covered (m)"},
    {"roughBase", "center", V, "", K, Opt, Any, "the disc centre x, y and the plane z (3, m)"},
    {"roughBase", "name-prefix", Nm, "", K, Opt, Any, "the spheres' names before their number"},
    {"roughBase", "group", I, "", "0", Opt, Any, "the body group, for materials"},

    // ---- simulation ----
    {"simulation", "type", E, "TimeStepping|TimeSteppingDirectProjection|EventDriven",
     "TimeStepping", Opt, Any, "the simulation"},
    {"simulation", "t0", N, "", "0", Opt, Any, "the initial time (s)"},
    {"simulation", "T", N, "", "", Req, Any, "the final time (s)"},
    {"simulation", "h", N, "", "", Req, Any, "the time step (s)"},
    {"simulation", "steps", I, "", "ceil((T - t0) / h)", Opt, Any, "the number of steps"},
    {"simulation", "on-failure", E, "stop|continue", "stop", Opt, Any, "what a failed step does"},
    {"integrator", "theta", N, "", "0.5", Opt, Any, "theta in [0, 1]"},
    {"integrator", "systems", Ns, "", "every system", Opt, Any, "the systems it integrates"},
    {"MoreauJeanOSI", "constraints", E, "end-of-step|midpoint", "end-of-step", Opt, Any,
     "where the constraints are written"},
    {"MoreauJeanDirectProjectionOSI", "activate-threshold", N, "", K, Opt, Any,
     "the activation threshold on y"},
    {"MoreauJeanDirectProjectionOSI", "deactivate-velocity-threshold", N, "", K, Opt, Any,
     "the deactivation threshold on the velocity"},
    {"CvodeOSI", "method", E, "adams|bdf", "adams", Opt, Any, "the multistep method"},
    {"CvodeOSI", "rtol", N, "", K, Opt, Any, "the relative tolerance"},
    {"CvodeOSI", "atol", N, "", K, Opt, Any, "the absolute tolerance"},
    {"CvodeOSI", "max-steps-per-event", I, "", K, Opt, Any, "CVODE steps between events"},
    {"CvodeOSI", "max-step", N, "", K, Opt, Any, "the largest internal step (s)"},
    {"CvodeOSI", "max-order", I, "", K, Opt, Any, "the largest order"},
    {"problem", "solver", T, "", "lemke (LCP, MLCP, Relay)", Opt, Any,
     "a solver of Numerics' table for the problem's kind"},
    {"problem", "fallback", T, "", "", Opt, Any, "the solver tried when the first fails"},
    {"problem", "warm-start", B, "", K, Opt, Any, "start from the last solution"},
    {"problem", "storage", E, "dense|sparse-block", K, Opt, Any, "the Delassus storage"},
    {"problem", "mode", E, "tolerance|budget", "tolerance", Opt, TS,
     "tolerance: a short solve fails the step; budget: options bound the solve"},
    {"LCP", "role", E, "impact|acceleration", "impact", Opt, ED, "the EventDriven problem"},
    {"FrictionContact", "dim", I, "", "", Req, Any, "the contact dimension, 2 or 3"},
    {"newton", "mode", E, "auto|linear|nonlinear", "auto", Opt, Any, "the Newton loop"},
    {"newton", "tolerance", N, "", K, Opt, Any, "the tolerance on |R - p| per system"},
    {"newton", "max-iterations", I, "", K, Opt, Any, "Newton iterations per step"},
    {"projection", "max-iterations", I, "", K, Opt, Any, "projections per step"},
    {"projection", "unilateral-tolerance", N, "", K, Opt, Any, "the largest penetration left"},
    {"projection", "equality-tolerance", N, "", K, Opt, Any, "the largest joint violation left"},
    {"projection", "solver", T, "", K, Opt, Any, "an MLCP solver of Numerics' table"},
    {"events", "event-tolerance", N, "", K, Opt, Any, "the gap and velocity tolerance"},
    {"events", "impact-velocity-threshold", N, "", K, Opt, Any, "impacts below it: none (m/s)"},
    {"events", "min-impact-interval", N, "", K, Opt, Any, "impacts closer: one (s)"},
    {"events", "max-events", I, "", K, Opt, Any, "the most events"},

    // ---- outputs ----
    {"outputs", "format", E, "csv|hdf5", "csv", Opt, Any, "the tables' format"},
    {"sceneFiles", "every", I, "", "1", Opt, Any, "steps between frames"},
    {"sceneFiles", "vtk", B, "", K, Opt, Any, "VTK frames of the scene"},
    {"sceneFiles", "hdf5", B, "", K, Opt, Any, "the scene's HDF5 file"},
    {"output", "name", F, "", "", Req, Any, "the file or dataset name"},
    {"output", "every", I, "", "1", Opt, Any, "steps between rows"},
    {"output", "initial-row", B, "", "true", Opt, Any, "a row at t0"},
    {"output", "before-rows", B, "", "false", Opt, Any, "rows before events (EventDriven)"},
    {"output", "max-rows", I, "", "no limit", Opt, Any, "rows; the run ends when it has them"},
    {"column", "name", T, "", "", Req, Any, "the column's name (no commas, no quotes)"},
    {"column", "value", X, "", "", Req, Any, "an expression"},
    {"column", "initial", X, "", "value", Opt, Any, "the row at t0: an expression or next"},
    {"column", "sum", B, "", "false", Opt, Any, "the sum of the values so far"},
    {"column", "before", X, "", "", Opt, Any, "the value before an event (EventDriven)"},
    {"plot", "title", T, "", "", Opt, Any, "the plot's title"},
    {"curve", "column", T, "", "", Req, Any, "a column's name"},
    {"curve", "title", T, "", "the column", Opt, Any, "the curve's title"},
    {"curve", "panel", T, "", "", Opt, Any, "curves of one panel share its name"},
    {"vtk", "every", I, "", "1", Opt, Any, "steps between frames"},
    {"body", "system", Nm, "", "", Req, Any, "a Lagrangian system or rigid body"},
    {"body", "x", X, "", "q[0]", Opt, Any, "an expression"},
    {"body", "y", X, "", "q[1]", Opt, Any, "an expression"},
    {"body", "z", X, "", "q[2]", Opt, Any, "an expression"},
    {"body", "radius", N, "", "0", Opt, Any, "the drawn radius"},
};

const Element* elementNamed(const std::string& name) {
  for (const Element& e : kElements)
    if (name == e.name) return &e;
  return nullptr;
}

const Element& known(const std::string& name) {
  const Element* e = elementNamed(name);
  if (!e) throw std::logic_error("xml::schema: no element <" + name + "> in the table");
  return *e;
}

bool applies(Context row, Context wanted) {
  return row == Context::Any || row == wanted;
}

}  // namespace

const std::vector<Attribute>& attributes() {
  return kAttributes;
}

const std::vector<Element>& elements() {
  return kElements;
}

const std::vector<std::string>& allowed(const std::string& element, Context context) {
  // computed once per (element, context): a scene of 10^5 bodies checks each
  static std::mutex mutex;
  static std::map<std::pair<std::string, Context>, std::vector<std::string>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(element, context);
  auto at = cache.find(key);
  if (at != cache.end()) return at->second;
  const Element& e = known(element);
  std::vector<std::string> names;
  for (const std::string& owner : {std::string(e.base), element})
    if (!owner.empty())
      for (const Attribute& a : kAttributes)
        if (owner == a.element && applies(a.context, context)) names.emplace_back(a.name);
  return cache.emplace(key, std::move(names)).first->second;
}

const Attribute& find(const std::string& element, const std::string& attribute) {
  const Element& e = known(element);
  for (const std::string& owner : {element, std::string(e.base)})
    for (const Attribute& a : kAttributes)
      if (owner == a.element && attribute == a.name) return a;
  throw std::logic_error("xml::schema: no attribute '" + attribute + "' of <" + element +
                         "> in the table");
}

std::vector<std::string> values(const std::string& element, const std::string& attribute) {
  const Attribute& a = find(element, attribute);
  std::vector<std::string> out;
  std::string text = a.values;
  for (std::size_t start = 0; !text.empty();) {
    const std::size_t bar = text.find('|', start);
    out.push_back(text.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
    if (bar == std::string::npos) break;
    start = bar + 1;
  }
  return out;
}

}  // namespace nsdyn::io::xml::schema
