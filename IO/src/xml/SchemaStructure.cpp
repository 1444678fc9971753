// The content of each element of a model file (Schema.hpp, Structure): what the XSD says may
// be inside it. An element of the table not listed here is declared inside its parent and
// holds attributes only. The order is the XSD's: the named types, then the top-level elements
// (each followed by the local elements it declares).

#include "Schema.hpp"

namespace nsdyn::io::xml::schema {

namespace {

constexpr Kind L = Kind::Local, G = Kind::Global, Ty = Kind::Type;

// the pose children of a shape, a rigid body's data, a static body's
#define NSDYN_FINITE_SHAPES "SphereShape, BoxShape, CapsuleShape, CylinderShape, ConvexHullShape"
#define NSDYN_POSE "position:vector, quaternion:vector, axisAngle:axisAngleType"

const std::vector<Structure> kStructure = {
    // ---- element data and shared types ----
    {"vector", Ty, "text"},
    {"matrix", Ty, "text"},
    {"functionRef", Ty, ""},
    {"vectorOrFunction", Ty, ""},
    {"matrixOrFunction", Ty, ""},
    {"axisAngleType", Ty, ""},
    {"shapePose", Ty, "all(position:vector?, quaternion:vector?, axisAngle:axisAngleType?)"},
    {"problem", Ty, "seq(options?)"},
    {"integrator", Ty, ""},

    // ---- the root ----
    {"nsdyn", G, "seq(parameters?, plugin*, functions?, model, simulation, outputs?)"},
    {"parameters", L, "seq(parameter*)"},
    {"functions", L, "seq(function*)"},
    {"function", L, "text"},
    {"model", G, "seq(systems?, interactions?, scene?)"},
    {"systems", L,
     "choice(LagrangianDS, LagrangianLinearTIDS, NewtonEulerDS, FirstOrderLinearDS, "
     "FirstOrderLinearTIDS)+"},
    {"interactions", L, "seq(interaction*)"},

    // ---- scenes ----
    {"SphereShape", G, ""},
    {"BoxShape", G, ""},
    {"CapsuleShape", G, ""},
    {"CylinderShape", G, ""},
    {"ConvexHullShape", G, ""},
    {"HalfSpaceShape", G, ""},
    {"TriangleMeshShape", G, ""},
    {"HeightfieldShape", G, ""},
    {"scene", G,
     "seq(ContactManager?, choice(RigidBody, StaticBody, latticePacking, randomPacking, "
     "container, hopper, chute, roughBase, PeridynamicBody)+)"},
    {"ContactManager", G, "seq(material*, recovery?)"},
    {"RigidBody", G,
     "choice(" NSDYN_FINITE_SHAPES ", " NSDYN_POSE
     ", velocity:vector, angularVelocity:vector, inertia:matrix, fExt:vectorOrFunction, "
     "mExt:vectorOrFunction)+"},
    {"StaticBody", G,
     "choice(" NSDYN_FINITE_SHAPES
     ", HalfSpaceShape, TriangleMeshShape, HeightfieldShape, " NSDYN_POSE ")+"},
    {"particle", G, ""},
    {"region", G, ""},
    {"latticePacking", G, "all(particle, region)"},
    {"randomPacking", G, "all(particle, region)"},
    {"container", G, ""},
    {"hopper", G, ""},
    {"roughBase", G, ""},
    {"chute", G, ""},
    {"PeridynamicBody", G,
     "seq(choice(box, cylinder, sphere, mesh, sheet), peridynamicMaterial, precrack*, "
     "velocity:vector?, prescribe*)"},

    // ---- systems ----
    {"LagrangianDS", G,
     "all(q0:vector, v0:vector?, mass:matrixOrFunction, fInt:functionRef?, "
     "jacobianFIntq:functionRef?, jacobianFIntv:functionRef?, fExt:vectorOrFunction?)"},
    {"LagrangianLinearTIDS", G,
     "all(q0:vector, v0:vector?, mass:matrix, K:matrix?, C:matrix?, fExt:vectorOrFunction?)"},
    {"NewtonEulerDS", G,
     "all(mass:numberText, inertia:matrix, position:vector?, quaternion:vector?, "
     "axisAngle:axisAngleType?, velocity:vector?, angularVelocity:vector?, "
     "fExt:vectorOrFunction?, mExt:vectorOrFunction?, boundaryCondition?)"},
    {"FirstOrderLinearDS", G, "all(x0:vector, A:matrixOrFunction, b:vectorOrFunction?)"},
    {"FirstOrderLinearTIDS", G, "all(x0:vector, A:matrix, b:vector?)"},

    // ---- interactions: a nonsmooth law, then a relation ----
    {"interaction", G,
     "seq(choice(NewtonImpactNSL, NewtonImpactFrictionNSL, ComplementarityConditionNSL, "
     "EqualityConditionNSL, MixedComplementarityConditionNSL, RelayNSL), "
     "choice(LagrangianLinearTIR, LagrangianScleronomousR, NewtonEulerR, SpherePlaneContact, "
     "KneeJointR, PivotJointR, PrismaticJointR, FixedJointR, FirstOrderLinearR, "
     "FirstOrderLinearTIR))"},
    {"LagrangianLinearTIR", L, "all(H:matrix, b:vector?)"},
    {"LagrangianScleronomousR", L, "all(h:functionRef, G:functionRef)"},
    {"NewtonEulerR", L, "all(C:matrix, e:vector?)"},
    {"FirstOrderLinearR", L,
     "all(C:matrixOrFunction, D:matrixOrFunction?, B:matrixOrFunction, e:vectorOrFunction?, "
     "F:matrix?, u:vectorOrFunction?)"},
    {"FirstOrderLinearTIR", L, "all(C:matrix, D:matrix?, B:matrix, e:vector?)"},

    // ---- simulation ----
    {"simulation", G,
     "seq(choice(MoreauJeanOSI, EulerMoreauOSI, MoreauJeanDirectProjectionOSI, CvodeOSI)+, "
     "choice(LCP, MLCP, Relay, FrictionContact, GenericMechanical, RollingFrictionContact){0,2}, "
     "newton?, projection?, "
     "events?)"},
    {"options", G, ""},  // Numerics' option table: written by the generator

    // ---- outputs ----
    {"outputs", G, "seq(output*, vtk?, sceneFiles?)"},
    {"output", L, "seq(column+, plot?)"},
    {"plot", L, "seq(curve*)"},
    {"vtk", L, "seq(body*)"},
};

#undef NSDYN_FINITE_SHAPES
#undef NSDYN_POSE

}  // namespace

const std::vector<Structure>& structure() {
  return kStructure;
}

}  // namespace nsdyn::io::xml::schema
