// The schema table's rows of the root, its parameters, plugins and functions, the element data
// types, the systems and the interactions (laws and relations).
// A row: element, attribute, type, enum values, default, required, context, and the text
// of its line in doc/xml-reference.md (nsdyn_schema_gen writes the page's tables from it).

#include "SchemaRows.hpp"

namespace nsdyn::io::xml::schema::rows {

std::vector<Attribute> modelRows() {
  return {
      // ---- the root, parameters, plugins, functions ----
      {"nsdyn", "version", T, "", "1", Opt, Any, "format version, `1` (optional)"},
      {"nsdyn", "name", F, "", "the file name without extension", Opt, Any,
       "name of the run: checkpoint file `NAME.checkpoint`, HDF5 file `NAME.h5`, VTK files "
       "`NAME_*.vtp`, `NAME.pvd` (default: the file name without extension); letters, digits, `_` "
       "and `-`"},
      {"parameter", "name", Nm, "", "", Req, Any,
       "parameter name; `t`, `k`, `h` and `pi` are reserved"},
      {"parameter", "value", N, "", "", Req, Any,
       "a number or an expression of the parameters defined before it"},
      {"plugin", "library", T, "", "", Req, Any,
       "path of the library, relative to the model file's folder unless absolute"},
      {"function", "name", Nm, "", "", Req, Any,
       "function name, used by the `function` attributes"},
      {"function", "args", E, "t|q|q v t", "", Req, Any, "`t`, `q` or `q v t`"},
      {"function", "returns", E, "vector|matrix", "", Req, Any,
       "`vector` or `matrix` (rows separated by `;`)"},

      // ---- element data ----
      {"vector", "size", I, "", "", Opt, Any, "the number of entries expected"},
      {"matrix", "rows", I, "", "", Opt, Any, "the rows expected"},
      {"matrix", "cols", I, "", "", Opt, Any, "the columns expected"},
      {"matrix", "form", E, "full|diagonal", "full", Opt, Any, "all entries or the diagonal"},
      {"functionRef", "function", Nm, "", "", Req, Any, "a registered function (no content)"},
      {"axisAngleType", "axis", V, "", "", Req, Any, "3 entries, e.g. `axis=\"1 2 3\"`"},
      {"axisAngleType", "angle", N, "", "", Req, Any,
       "the angle in radians, e.g. `angle=\"pi/4\"`"},
      {"vectorOrFunction", "function", Nm, "", "", Opt, Any,
       "a registered vector function instead of the entries (no content)"},
      {"matrixOrFunction", "function", Nm, "", "", Opt, Any,
       "a registered matrix function instead of the entries (no content)"},

      // ---- systems ----
      {"LagrangianDS", "name", Nm, "", "", Req, Any, "system name (outputs read `NAME.q[i]`, ...)"},
      {"LagrangianLinearTIDS", "name", Nm, "", "", Req, Any, "system name"},
      {"NewtonEulerDS", "name", Nm, "", "", Req, Any, "system name"},
      {"NewtonEulerDS", "gyroscopic", B, "", "true", Opt, Any,
       "the gyroscopic term −Ω × IΩ in the wrench and its Jacobian in the Newton matrix (default "
       "true, as Siconos)"},
      {"NewtonEulerDS", "gyroscopic-scheme", E, "trapezoidal|energy-momentum", "trapezoidal", Opt,
       Any,
       "how the Newton iterations treat it (NewtonEulerDS::GyroscopicScheme): `trapezoidal` "
       "(default, Siconos: θ-average of −Ω × IΩ at both ends of the step) or `energy-momentum` "
       "(the body momentum IΩ carried by the rotation of the step: with θ = ½ and no moment, "
       "kinetic energy and world angular momentum kept to round-off)"},
      {"boundaryCondition", "indices", T, "", "", Req, Any,
       "velocity indices 0–5, distinct (0–2: velocity of the centre of mass, world frame; 3–5: "
       "angular velocity, body frame), e.g. `indices=\"0\"` or `indices=\"3 4 5\"`"},
      {"boundaryCondition", "values", T, "", "", Opt, Any,
       "one value per index: numbers or expressions of `t` and the parameters, e.g. "
       "`values=\"2+cos(pi*t/2)\"` (entries separated as in vectors: use commas if an entry has "
       "blanks)"},
      {"boundaryCondition", "function", Nm, "", "", Opt, Any,
       "instead of `values`: name of a vector function of `t`, one entry per index"},
      {"FirstOrderLinearDS", "name", Nm, "", "", Req, Any, "system name"},
      {"FirstOrderLinearTIDS", "name", Nm, "", "", Req, Any, "system name"},

      // ---- interactions ----
      {"interaction", "name", Nm, "", "", Req, Any,
       "interaction name (outputs read `NAME.y0[i]`, `NAME.lambda1[i]`, ...)"},
      {"interaction", "systems", Ns, "", "", Req, Any,
       "one or two different system names separated by a blank; both of one kind. For joints and "
       "two-body contacts the order matters: the first is body 1 (the sphere of a "
       "`<SpherePlaneContact>`, the body whose frame `absolute=\"false\"` refers to)"},
      {"NewtonImpactNSL", "e", N, "", "", Req, Any, "restitution coefficient in [0, 1]"},
      {"NewtonImpactNSL", "size", I, "", "1", Opt, Any, "rows (default 1; at most 1,000,000)"},
      {"NewtonImpactFrictionNSL", "en", N, "", "", Req, Any, "normal restitution in [0, 1]"},
      {"NewtonImpactFrictionNSL", "et", N, "", "0", Opt, Any,
       "tangential restitution in [0, 1] (default 0)"},
      {"NewtonImpactFrictionNSL", "mu", N, "", "", Req, Any, "friction coefficient ≥ 0"},
      {"NewtonImpactFrictionNSL", "dim", I, "", "", Req, Any,
       "contact dimension, 2 or 3 (the law size)"},
      {"ComplementarityConditionNSL", "size", I, "", "1", Opt, Any,
       "rows (default 1; at most 1,000,000)"},
      {"EqualityConditionNSL", "size", I, "", "1", Opt, Any, "rows (default 1; at most 1,000,000)"},
      {"MixedComplementarityConditionNSL", "equalities", I, "", "", Req, Any,
       "number of equality rows (at most 1,000,000)"},
      {"MixedComplementarityConditionNSL", "complementarities", I, "", "", Req, Any,
       "number of complementarity rows (at most 1,000,000)"},
      {"RelayNSL", "size", I, "", "1", Opt, Any, "rows (default 1; at most 1,000,000)"},
      {"RelayNSL", "lb", N, "", "-1", Opt, Any, "lower bound (default −1)"},
      {"RelayNSL", "ub", N, "", "1", Opt, Any, "upper bound (default 1)"},
      {"SpherePlaneContact", "radius", N, "", "", Req, Any, "sphere radius R ≥ 0"},
      {"SpherePlaneContact", "normal", V, "", "", Req, Any,
       "plane normal N, 3 entries, world frame, pointing towards the sphere (non-zero; "
       "normalised)"},
      {"SpherePlaneContact", "offset", N, "", "0", Opt, Any,
       "plane offset along N (default 0): the fixed plane N·x = offset, or offset from the second "
       "body's centre"},
      {"KneeJointR", "point", V, "", "", Req, Any, "the joint point P, 3 entries"},
      {"KneeJointR", "absolute", B, "", "", Req, Any,
       "`true`: P in the world frame; `false`: in the frame of the first body"},
      {"PivotJointR", "point", V, "", "", Req, Any, "the joint point, 3 entries"},
      {"PivotJointR", "axis", V, "", "", Req, Any,
       "the hinge axis, 3 entries, not zero (normalised)"},
      {"PivotJointR", "absolute", B, "", "", Req, Any,
       "`true`: point and axis in the world frame (at the initial state); `false`: in the frame of "
       "the first body"},
      {"PrismaticJointR", "axis", V, "", "", Req, Any,
       "the sliding axis, 3 entries, not zero (normalised)"},
      {"PrismaticJointR", "absolute", B, "", "", Req, Any,
       "`true`: the axis in the world frame (at the initial state); `false`: in the frame of the "
       "first body"},
      {"PivotJointR", "motor-position", X, "", "", Opt, Any,
       "a position servo on the velocity motor: the reference angle (rad, 0 at the initial "
       "state), an expression of t and the parameters; the motor's target rate is then "
       "`motor-velocity` (default 0) + `position-gain` × (reference − angle at the current "
       "state): a PD law on the angle; needs `position-gain` and the motor's limit"},
      {"PivotJointR", "position-gain", N, "", "", Opt, Any,
       "the servo's gain kp (1/s, ≥ 0, finite) of `motor-position`"},
      {"PivotJointR", "motor-velocity", X, "", "", Opt, Any,
       "a velocity motor: the target angle rate (rad/s), a number or an expression of t and the "
       "parameters (e.g. `2*t`); needs `max-torque` and a `<GenericMechanical>` problem"},
      {"PivotJointR", "max-torque", N, "", "", Opt, Any,
       "the motor's torque (N m) limit (≥ 0, finite): its impulse per step stays within "
       "±max-torque × h"},
      {"PivotJointR", "lower-limit", N, "", "", Opt, Any,
       "a joint limit: the angle (rad, 0 at the initial state) stays ≥ this (a unilateral row)"},
      {"PivotJointR", "upper-limit", N, "", "", Opt, Any, "a joint limit: the angle stays ≤ this"},
      {"PivotJointR", "limit-restitution", N, "", "0", Opt, Any,
       "Newton restitution of the limits (in [0, 1], default 0)"},
      {"PrismaticJointR", "motor-position", X, "", "", Opt, Any,
       "a position servo on the velocity motor: the reference displacement (m, 0 at the initial "
       "state), an expression of t and the parameters; the motor's target rate is then "
       "`motor-velocity` (default 0) + `position-gain` × (reference − displacement at the current "
       "state): a PD law on the displacement; needs `position-gain` and the motor's limit"},
      {"PrismaticJointR", "position-gain", N, "", "", Opt, Any,
       "the servo's gain kp (1/s, ≥ 0, finite) of `motor-position`"},
      {"PrismaticJointR", "motor-velocity", X, "", "", Opt, Any,
       "a velocity motor: the target displacement rate (m/s), a number or an expression of t and "
       "the "
       "parameters (e.g. `2*t`); needs `max-force` and a `<GenericMechanical>` problem"},
      {"PrismaticJointR", "max-force", N, "", "", Opt, Any,
       "the motor's force (N) limit (≥ 0, finite): its impulse per step stays within ±max-force × "
       "h"},
      {"PrismaticJointR", "lower-limit", N, "", "", Opt, Any,
       "a joint limit: the displacement (m, 0 at the initial state) stays ≥ this (a unilateral "
       "row)"},
      {"PrismaticJointR", "upper-limit", N, "", "", Opt, Any,
       "a joint limit: the displacement stays ≤ this"},
      {"PrismaticJointR", "limit-restitution", N, "", "0", Opt, Any,
       "Newton restitution of the limits (in [0, 1], default 0)"},
  };
}

}  // namespace nsdyn::io::xml::schema::rows
