// The schema table's rows of a <scene>: its contact manager, bodies, shapes and generators.
// A row: element, attribute, type, enum values, default, required, context, and the text
// of its line in doc/xml-reference.md (nsdyn_schema_gen writes the page's tables from it).

#include "SchemaRows.hpp"

namespace nsdyn::io::xml::schema::rows {

std::vector<Attribute> sceneRows() {
  return {
      // ---- scenes ----
      {"scene", "gravity", V, "", "0 0 0", Opt, Any,
       "g (3 entries, m/s², world frame; default 0 0 0): each dynamic body gets the constant f_ext "
       "= m g, whose potential −f_ext·x is `scene.potential_energy`"},
      {"recovery", "enabled", B, "", "true", Opt, Any,
       "`true` (default, with or without the element) or `false`: the step without recovery"},
      {"recovery", "slop", N, "", K, Opt, Any,
       "allowed penetration (m, ≥ 0); default 0: `relative-slop` × the smallest shape size"},
      {"recovery", "relative-slop", N, "", K, Opt, Any,
       "the slop as a fraction of the smallest shape size (default 0.01)"},
      {"recovery", "max-speed", N, "", K, Opt, Any,
       "recovery speed cap (m/s, ≥ 0): at most `max-speed` × h of correction per step; default 0: "
       "`slops-per-step` × the slop / h"},
      {"recovery", "slops-per-step", N, "", K, Opt, Any,
       "used when `max-speed` is 0: the cap as slops of correction per step (> 0, default 1: 0.1 "
       "m/s for 1 cm spheres at h = 1 ms, 1.04 m/s for 2 m cubes at 60 Hz)"},
      {"recovery", "iterations", I, "", K, Opt, Any,
       "Gauss–Seidel sweeps of the pseudo-impulse problem (≥ 1, default 100)"},
      {"recovery", "tolerance", N, "", K, Opt, Any,
       "their stopping test on the Siconos error (> 0, default 1e-6)"},
      {"ContactManager", "margin", N, "", "0", Opt, Any,
       "detection margin (m, ≥ 0; default 0): contacts are detected, and warm-started, while gap ≤ "
       "margin; they enter the problem when gap + ½ h u_n ≤ the activation threshold. 0: "
       "`relative-margin` × the smallest shape size"},
      {"ContactManager", "breaking-distance", N, "", "margin", Opt, Any,
       "a contact known at the previous step is kept while gap ≤ this (m, ≥ margin; default: the "
       "margin)"},
      {"ContactManager", "threads", I, "", "0", Opt, Any,
       "detection threads, 0 to 4096 as the solvers' `threads` (default 0: the OpenMP default); "
       "results do not depend on it"},
      {"ContactManager", "relative-margin", N, "", K, Opt, Any,
       "used when `margin` is 0: the margin as a fraction of the smallest characteristic shape "
       "size (default 0.02)"},
      {"ContactManager", "relative-activation", N, "", K, Opt, Any,
       "a contact enters the problem when gap + ½ h u_n ≤ this fraction of the smallest shape size "
       "(default 1e-9)"},
      {"ContactManager", "overlap-warning-fraction", N, "", K, Opt, Any,
       "overlaps at t0 deeper than this fraction of the smaller shape's size are reported on "
       "stderr (default 0.05)"},
      {"ContactManager", "warm-start", B, "", K, Opt, Any,
       "start each solve from the previous step's impulses, by contact key (default true)"},
      {"ContactManager", "cell-size", N, "", K, Opt, Any,
       "broadphase grid cell edge (m; default 0: `cell-size-factor` × the median box edge)"},
      {"ContactManager", "cell-size-factor", N, "", K, Opt, Any, "see `cell-size` (default 2)"},
      {"ContactManager", "max-cells-per-box", N, "", K, Opt, Any,
       "boxes overlapping more cells are handled apart (default 512)"},
      {"ContactManager", "ccd-max-iterations", I, "", K, Opt, Any,
       "cap on the polytope expansions of `convexContact` (default 1000)"},
      {"ContactManager", "ccd-tolerance", N, "", K, Opt, Any,
       "`convexContact` tolerance on the depth, m (default 1e-9)"},
      {"ContactManager", "convex-manifold", B, "", K, Opt, Any,
       "`true` (default): convex pairs without a closed form (hull–box, hull–hull, cylinder–box, "
       "capsule–box, …) lying flat on each other get up to 4 contact points, the overlap of their "
       "touching faces and edges (`convexManifold`); `false`: one point per pair, the deepest "
       "(`convexContact`, the behaviour before)"},
      {"ContactManager", "swept-detection", B, "", K, Opt, Any,
       "`true`: each step, a body's detection distance grows by h (|v| + |ω| R), R the radius "
       "bounding its shapes about its centre of mass (velocities at t_k): a pair is a contact "
       "while gap ≤ margin + the two sweeps, so an approaching contact is in the problem's contact "
       "set before it penetrates and enters the problem by the usual rule (gap + ½ h u_n ≤ "
       "activation). The penetration of an impact at normal speed |u_n| is then < h |u_n| "
       "(without: up to 1.5 h |u_n| − margin). Default `false` (Siconos's behaviour)"},
      {"ContactManager", "speculative-contacts", B, "", K, Opt, Any,
       "`true`: a contact the usual rule leaves out (ahead = gap + ½ h u_n above the activation "
       "threshold) with restitution 0 enters the problem a step early with u_n ≥ −ahead / h, so a "
       "landing stops at the surface instead of sinking up to ½ h |u_n|; the detection is swept "
       "(twice `swept-detection`'s sweep). Scene engine only "
       "(SceneEngineOptions::speculativeContacts, doc/design.md \"Speculative contacts\"). "
       "Default `false`"},
      {"ContactManager", "keep-loaded-contacts", B, "", K, Opt, Any,
       "`true`: a contact that carried a normal impulse at the last step and that the usual rule "
       "now leaves out enters the problem with u_n ≥ −(gap + ½ h u_n) / h (it may close its gap, "
       "never pulls): a resting contact that a solver converging from both sides (`auto`, "
       "`apgd`, Newton, an accelerated sweep) left opening at round-off speed does not drop its "
       "body for a step (at loose tolerances or a fixed budget; at 1e-8 and below the kept row "
       "can stall the sweeps on a rolling capsule); `false` or absent (the default): the usual "
       "rule for every contact (ContactManagerOptions::keepLoadedContacts, doc/design.md "
       "\"Loaded contacts kept\")"},
      {"ContactManager", "stabilisation-factor", N, "", K, Opt, Any,
       "β in [0, 1] (default 0: off, Siconos's behaviour): position correction of overlaps. For an "
       "active contact with gap < 0 at t_k, the normal row asks u_n,k+1 ≥ min(β |gap| / h, "
       "`max-recovery-speed`) instead of ≥ 0, so an overlap is pushed out over a few steps. The "
       "correction does work on the bodies: the contact work (`ContactManager` statistics, "
       "`data/energy`) includes it and may be > 0; the energy balance still closes with it"},
      {"ContactManager", "max-recovery-speed", N, "", K, Opt, Any,
       "the largest separating speed the correction asks for (m/s, > 0; default 0.1)"},
      {"material", "groups", V, "", "", Opt, Any,
       "two body groups (integers ≥ 0), e.g. `groups=\"0 1\"`; absent: the default material"},
      {"material", "mu", N, "", K, Opt, Any, "friction coefficient μ ≥ 0 (default 0.5)"},
      {"material", "restitution", N, "", K, Opt, Any, "normal restitution e in [0, 1] (default 0)"},
      {"material", "rolling", N, "", K, Opt, Any,
       "rolling resistance length (m, ≥ 0; default 0): the rolling moment is bounded by rolling × "
       "the normal force (a sphere of radius R rests on a slope θ iff tan θ ≤ rolling / R); needs "
       "a `<RollingFrictionContact>` problem when > 0"},
      {"RigidBody", "name", Nm, "", "", Req, Any, "body name, also its system name"},
      {"RigidBody", "group", I, "", "0", Opt, Any,
       "group for the materials (integer from 0 to 2147483647, default 0)"},
      {"RigidBody", "density", N, "", "", Opt, Any, "density (kg/m³, > 0)"},
      {"RigidBody", "mass", N, "", "", Opt, Any, "mass (kg, > 0)"},
      {"StaticBody", "name", Nm, "", "", Req, Any, "body name"},
      {"StaticBody", "group", I, "", "0", Opt, Any, "group for the materials (default 0)"},
      {"SphereShape", "radius", N, "", "", Req, Any, "radius (m, > 0)"},
      {"BoxShape", "half-extents", V, "", "", Req, Any,
       "half-extents along x, y, z (3 entries, m, each > 0)"},
      {"CapsuleShape", "radius", N, "", "", Req, Any, "radius (m, > 0)"},
      {"CapsuleShape", "half-length", N, "", "", Req, Any, "half of the segment's length (m, > 0)"},
      {"CylinderShape", "radius", N, "", "", Req, Any, "radius (m, > 0)"},
      {"CylinderShape", "half-length", N, "", "", Req, Any, "half of the height (m, > 0)"},
      {"ConvexHullShape", "points", T, "", "", Req, Any,
       "the points x y z of the shape frame, separated by `;` (e.g. `0 0 0; 1 0 0; 0 1 0; 0 0 1`)"},
      {"HalfSpaceShape", "normal", V, "", "", Req, Any, "outward normal n (3 entries, not zero)"},
      {"HalfSpaceShape", "offset", N, "", "0", Opt, Any, "offset along n (m, default 0)"},
      {"TriangleMeshShape", "file", T, "", "", Opt, Any,
       "an OBJ or STL file (or another format of assimp), relative to the model file; or give "
       "`vertices` and `triangles`"},
      {"TriangleMeshShape", "scale", N, "", "1", Opt, Any,
       "factor on the file's coordinates (> 0, default 1)"},
      {"TriangleMeshShape", "vertices", T, "", "", Opt, Any,
       "inline vertices x y z of the shape frame, separated by `;`"},
      {"TriangleMeshShape", "triangles", T, "", "", Opt, Any,
       "inline triangles, three vertex indices (from 0) each, counter-clockwise seen from outside "
       "(above), separated by `;`"},
      {"HeightfieldShape", "nx", I, "", "", Opt, Any,
       "grid points along x (≥ 2; required unless `image`)"},
      {"HeightfieldShape", "ny", I, "", "", Opt, Any,
       "grid points along y (≥ 2; required unless `image`)"},
      {"HeightfieldShape", "image", T, "", "", Opt, Any,
       "a grey-level PNG image (8 or 16 bits; colour turned grey, alpha dropped; read by libpng), "
       "relative to the model file: its W × H pixels are the grid (nx = W, ny = H, the top row "
       "the far +y edge), the height of a pixel z-offset + height-scale × level / full level; "
       "without nx, ny, heights, file, height"},
      {"HeightfieldShape", "height-scale", N, "", "", Opt, Any,
       "with `image`: the height of the full grey level above level 0 (m; required there)"},
      {"HeightfieldShape", "z-offset", N, "", "0", Opt, Any,
       "with `image`: the height of grey level 0 (m, default 0)"},
      {"HeightfieldShape", "spacing", N, "", "", Req, Any, "grid spacing along x (m, > 0)"},
      {"HeightfieldShape", "spacing-y", N, "", "spacing", Opt, Any,
       "grid spacing along y (m, > 0; default `spacing`)"},
      {"HeightfieldShape", "heights", T, "", "", Opt, Any,
       "nx × ny heights (m), x fastest (row j holds y = y0 + j dy), separated by blanks, commas "
       "or `;`; or give `file`"},
      {"HeightfieldShape", "file", T, "", "", Opt, Any,
       "a text or CSV file of the nx × ny heights in the same order (blanks, commas, `;`; lines "
       "starting with `#` skipped), relative to the model file"},
      {"HeightfieldShape", "height", X, "", "", Opt, Any,
       "the height as an expression of `x`, `y` (the grid point in the shape frame: x = x0 + i "
       "dx, y = y0 + j dy, the grid centred on the shape origin), `i`, `j` (its indices from 0) "
       "and the parameters, evaluated at every grid point, e.g. `if(x <= 2, 0, 0.3*(x - 2))`; "
       "or give `heights` or `file`"},
      {"particle", "kind", E, "sphere|box|capsule|cylinder", "sphere", Opt, Any,
       "`sphere` (default), `box`, `capsule` or `cylinder`"},
      {"particle", "radius", N, "", K, Opt, Any,
       "sphere, capsule and cylinder radius (m, default 0.05)"},
      {"particle", "length", N, "", K, Opt, Any,
       "capsule segment length and cylinder height, along z (m, default 0.1)"},
      {"particle", "half-extents", V, "", K, Opt, Any,
       "box half-extents (3 entries, m, default 0.05 0.05 0.05)"},
      {"particle", "size-spread", N, "", K, Opt, Any, "relative size spread in [0, 1) (default 0)"},
      {"particle", "density", N, "", K, Opt, Any, "density (kg/m³, default 1000)"},
      {"particle", "random-orientation", B, "", K, Opt, Any,
       "a uniformly distributed random rotation per particle (default false)"},
      {"particle", "name-prefix", Nm, "", K, Opt, Any, "name prefix (default `grain`)"},
      {"region", "lower", V, "", "", Req, Any, "lower corner (3 entries, m)"},
      {"region", "upper", V, "", "", Req, Any,
       "upper corner (3 entries, m; above `lower` in each coordinate)"},
      {"latticePacking", "count", I, "", "", Req, Any,
       "number of particles (0 to 2,097,152, and at most the bodies a scene has room for: 2^21 in "
       "all; 0: none, e.g. a parameter turning the packing off)"},
      {"latticePacking", "gap", N, "", "0", Opt, Any,
       "extra space between sites (m, ≥ 0, default 0)"},
      {"latticePacking", "seed", I, "", "1", Opt, Any,
       "seed of the sizes and orientations (integer ≥ 0, default 1)"},
      {"latticePacking", "group", I, "", "0", Opt, Any, "group of the particles (default 0)"},
      {"randomPacking", "count", I, "", "", Req, Any,
       "number of particles (1 to 2,097,152, and at most the bodies a scene has room for: 2^21 in "
       "all)"},
      {"randomPacking", "seed", I, "", "1", Opt, Any, "random seed (integer ≥ 0, default 1)"},
      {"randomPacking", "max-attempts", I, "", "1000", Opt, Any,
       "attempts per particle (default 1000)"},
      {"randomPacking", "group", I, "", "0", Opt, Any, "group of the particles (default 0)"},
      {"container", "lower", V, "", "", Req, Any, "inner lower corner (3 entries, m)"},
      {"container", "upper", V, "", "", Req, Any, "inner upper corner (3 entries, m)"},
      {"container", "planes", B, "", K, Opt, Any,
       "true (default): half-spaces; false: boxes outside the region"},
      {"container", "wall-thickness", N, "", K, Opt, Any,
       "box wall and floor thickness (m, > 0, default 0.05)"},
      {"container", "wall-height", N, "", K, Opt, Any,
       "box wall height above the floor (m; default 0: the region's height)"},
      {"container", "name-prefix", Nm, "", K, Opt, Any, "name prefix (default `container`)"},
      {"container", "group", I, "", "0", Opt, Any, "group of the parts (default 0)"},
      {"hopper", "center", V, "", K, Opt, Any,
       "outlet centre x, y and the floor top z (3 entries, m, default 0 0 0)"},
      {"hopper", "outlet-width", N, "", K, Opt, Any, "outlet width (m, > 0, default 0.1)"},
      {"hopper", "top-width", N, "", K, Opt, Any,
       "width at the top of the plates (m, > outlet-width, default 1)"},
      {"hopper", "angle", N, "", K, Opt, Any,
       "plate angle from the horizontal (rad, in (0, π/2), default π/3)"},
      {"hopper", "outlet-height", N, "", K, Opt, Any,
       "outlet height above the floor top (m, > 0, default 0.5)"},
      {"hopper", "plates", I, "", K, Opt, Any, "4 (default: square funnel) or 2 (wedge along x)"},
      {"hopper", "depth", N, "", K, Opt, Any,
       "extent along y of a two-plate hopper (m, default 0.5)"},
      {"hopper", "side-walls", B, "", K, Opt, Any,
       "two-plate hopper: walls closing the wedge at y = ±depth/2 (default true)"},
      {"hopper", "wall-thickness", N, "", K, Opt, Any,
       "plate, wall and floor thickness (m, default 0.02)"},
      {"hopper", "floor", B, "", K, Opt, Any, "add a floor slab (default true)"},
      {"hopper", "name-prefix", Nm, "", K, Opt, Any, "name prefix (default `hopper`)"},
      {"hopper", "group", I, "", "0", Opt, Any, "group of the parts (default 0)"},
      {"chute", "origin", V, "", K, Opt, Any,
       "top end of the bed surface, on its centre line (3 entries, m, default 0 0 0)"},
      {"chute", "angle", N, "", K, Opt, Any,
       "inclination from the horizontal (rad, in (0, π/2), default π/6)"},
      {"chute", "length", N, "", K, Opt, Any, "bed length along the slope (m, default 2)"},
      {"chute", "width", N, "", K, Opt, Any, "width between the walls (m, default 0.5)"},
      {"chute", "wall-height", N, "", K, Opt, Any, "wall height above the bed (m, default 0.2)"},
      {"chute", "thickness", N, "", K, Opt, Any, "bed and wall thickness (m, default 0.05)"},
      {"chute", "planes", B, "", K, Opt, Any, "true: half-spaces; false (default): box slabs"},
      {"chute", "name-prefix", Nm, "", K, Opt, Any, "name prefix (default `chute`)"},
      {"chute", "group", I, "", "0", Opt, Any, "group of the parts (default 0)"},
      {"roughBase", "radius", N, "", "", Req, Any, "sphere radius r (m, > 0)"},
      {"roughBase", "reach", N, "", "", Req, Any,
       "radius of the disc covered (m, > 0; at most 2000 spheres along it and 2,097,152 spheres in "
       "all: a larger base is refused with its sphere count and the memory it would need, about "
       "1.7 KB a sphere)"},
      {"roughBase", "center", V, "", K, Opt, Any,
       "disc centre x, y and the plane's z (3 entries, m, default 0 0 0)"},
      {"roughBase", "name-prefix", Nm, "", K, Opt, Any, "name prefix (default `bump`)"},
      {"roughBase", "group", I, "", "0", Opt, Any, "group of the spheres (default 0)"},
  };
}

}  // namespace nsdyn::io::xml::schema::rows
