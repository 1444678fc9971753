// The schema table's rows of a <scene>'s peridynamic bodies: <PeridynamicBody>, its shape
// (<box>, <cylinder>, <sphere>, <mesh>, <sheet>), its <peridynamicMaterial>,
// <precrack> and <prescribe>. A row: element, attribute, type, enum values, default,
// required, context, and the text of its line in doc/xml-reference.md.

#include "SchemaRows.hpp"

namespace nsdyn::io::xml::schema::rows {

std::vector<Attribute> peridynamicRows() {
  return {
      {"PeridynamicBody", "name", Nm, "", "", Req, Any,
       "body name (a new scene name); its output files are named after it"},
      {"PeridynamicBody", "spacing", N, "", "", Req, Any,
       "lattice spacing Δx of the points (m, > 0); the shape's extents should be multiples of "
       "it"},
      {"PeridynamicBody", "horizon", N, "", "3 × spacing", Opt, Any,
       "horizon δ (m, ≥ spacing; default 3 × spacing): points closer than δ are bonded"},
      {"PeridynamicBody", "density", N, "", "", Req, Any, "density ρ (kg/m³, > 0)"},
      {"PeridynamicBody", "method", E, "substitution|newton|verlet", "substitution", Opt, Any,
       "the step's solver: `substitution` (semi-implicit successive substitution with line "
       "search, default), `newton` (Newton with a sparse Cholesky, CHOLMOD) or `verlet` "
       "(explicit velocity Verlet)"},
      {"PeridynamicBody", "tolerance", N, "", "1e-6", Opt, Any,
       "relative residual at which the implicit methods stop (> 0, default 1e-6)"},
      {"PeridynamicBody", "iterations", I, "", "500", Opt, Any,
       "iteration budget of the implicit methods per step (≥ 1, default 500)"},
      {"PeridynamicBody", "line-search", B, "", "true", Opt, Any,
       "the successive substitution's one-step line search on the step energy (default true)"},
      {"PeridynamicBody", "surface-correction", B, "", "true", Opt, Any,
       "correct the stiffness of points near free surfaces (volume method; default true)"},
      {"PeridynamicBody", "fracture", B, "", "true", Opt, Any,
       "break bonds stretched past the material's critical stretch after each step (default "
       "true; without `critical-stretch` or `fracture-energy` no bond breaks)"},
      {"PeridynamicBody", "exact-response", B, "", "true", Opt, Any,
       "the body's iteration matrix M + h²θ² K in the scene's contact problem, so that a "
       "contact acts on the whole body within the step (default true; with the implicit "
       "methods and the bond-based material; `false`: the points' masses only)"},
      {"PeridynamicBody", "self-contact", B, "", "false", Opt, Any,
       "contacts between points of the body that no intact bond joins: the faces of a crack, "
       "fragments, a folded sheet (default false: the body's points never touch each other)"},
      {"PeridynamicBody", "contact-radius", N, "", "0", Opt, Any,
       "radius of each point as a contact sphere (m, ≥ 0; default 0: spacing / 2)"},
      {"PeridynamicBody", "threads", I, "", "0", Opt, Any,
       "OpenMP threads of the body's passes (0: automatic, default); results do not depend on it"},
      {"PeridynamicBody", "group", I, "", "0", Opt, Any,
       "group of the points for the contact materials (default 0)"},
      {"box", "centre", V, "", "0 0 0", Opt, Any, "centre (3 entries, m, default 0 0 0)"},
      {"box", "half-extents", V, "", "", Req, Any,
       "half-extents along x, y, z (3 entries, m, each > 0, multiples of spacing / 2)"},
      {"cylinder", "centre", V, "", "0 0 0", Opt, Any, "centre (3 entries, m, default 0 0 0)"},
      {"cylinder", "radius", N, "", "", Req, Any, "radius (m, > 0)"},
      {"cylinder", "length", N, "", "", Req, Any, "length along the axis (m, > 0)"},
      {"cylinder", "axis", E, "x|y|z", "z", Opt, Any, "the axis: `x`, `y` or `z` (default)"},
      {"sphere", "centre", V, "", "0 0 0", Opt, Any, "centre (3 entries, m, default 0 0 0)"},
      {"sphere", "radius", N, "", "", Req, Any, "radius (m, > 0)"},
      {"mesh", "file", T, "", "", Req, Any,
       "a closed triangle mesh (OBJ, STL, PLY, ... read by assimp), relative to the model file: "
       "the lattice points inside it"},
      {"mesh", "scale", N, "", "1", Opt, Any, "factor on the file's coordinates (> 0, default 1)"},
      {"mesh", "translation", V, "", "0 0 0", Opt, Any,
       "moves the points after they are made (3 entries, m, default 0 0 0)"},
      {"sheet", "centre", V, "", "0 0 0", Opt, Any, "centre (3 entries, m, default 0 0 0)"},
      {"sheet", "u", V, "", "1 0 0", Opt, Any,
       "first in-plane direction (3 entries, not zero, normalised; default 1 0 0)"},
      {"sheet", "w", V, "", "0 1 0", Opt, Any,
       "second in-plane direction (3 entries, normalised, orthogonal to `u`; default 0 1 0)"},
      {"sheet", "half-u", N, "", "", Req, Any, "half-size along `u` (m, > 0)"},
      {"sheet", "half-w", N, "", "", Req, Any, "half-size along `w` (m, > 0)"},
      {"sheet", "thickness", N, "", "", Req, Any,
       "thickness (m, > 0): a 2D body of one layer of points, volume spacing² × thickness each"},
      {"peridynamicMaterial", "model", E, "bond-based|lps|neo-hookean|saint-venant-kirchhoff|sheet",
       "", Req, Any,
       "`bond-based` (prototype microelastic brittle, ν = 1/4 in 3D, 1/3 in 2D), `lps` (linear "
       "peridynamic solid, any ν in (−1, 1/2)), `neo-hookean` or `saint-venant-kirchhoff` "
       "(hyperelastic, correspondence), `sheet` (cloth and thin plates, on a `<sheet>` body "
       "only: a bond-based membrane, ν = 1/3, plus bending stiffness D = E t³ / (12 (1 − ν²)) "
       "from virtual bonds along the normal; SheetMaterial)"},
      {"peridynamicMaterial", "E", N, "", "", Req, Any, "Young's modulus (Pa, > 0)"},
      {"peridynamicMaterial", "nu", N, "", K, Opt, Any,
       "Poisson's ratio (default 0.25, 1/3 for a bond-based sheet and the `sheet` model; "
       "bond-based, sheet: that value only)"},
      {"peridynamicMaterial", "critical-stretch", N, "", "", Opt, Any,
       "critical stretch s₀ of a bond (> 0): a bond stretched beyond it breaks; absent (and no "
       "`fracture-energy`): no fracture"},
      {"peridynamicMaterial", "fracture-energy", N, "", "", Opt, Any,
       "fracture energy G₀ (J/m², > 0) from which the critical stretch is set by the bond-based "
       "relations: √(5G₀/(9Kδ)) in 3D (K = E/(3(1 − 2ν))), √(4πG₀/(9Eδ)) for a sheet (the "
       "`sheet` model's membrane too); not with `critical-stretch`"},
      {"peridynamicMaterial", "stabilisation", N, "", "1", Opt, Any,
       "`neo-hookean`, `saint-venant-kirchhoff`: weight of the bond-level stabilisation against "
       "zero-energy modes, in units of the shear modulus (≥ 0, default 1)"},
      {"peridynamicMaterial", "bending-scale", N, "", "1", Opt, Any,
       "`sheet`: factor on the plate bending stiffness E t³ / (12 (1 − ν²)) of the `<sheet>`'s "
       "thickness t (≥ 0, finite, default 1; 0: a pure membrane); above 0 the body's horizon "
       "must be ≥ 2√2 × spacing"},
      {"precrack", "a", V, "", "", Req, Any, "one end of the crack segment (3 entries, m)"},
      {"precrack", "b", V, "", "", Req, Any, "the other end (3 entries, m)"},
      {"precrack", "direction", V, "", "", Req, Any,
       "the direction the segment is swept along to make the crack plane (3 entries, not zero): "
       "bonds crossing {a + s (b − a) + t direction} are removed; a crack that cuts no bond is "
       "refused"},
      {"prescribe", "lower", V, "", "", Req, Any, "lower corner of the region (3 entries, m)"},
      {"prescribe", "upper", V, "", "", Req, Any,
       "upper corner (3 entries, m; above `lower` in each coordinate)"},
      {"prescribe", "velocity", V, "", "0 0 0", Opt, Any,
       "the velocity the points whose reference position lies in the region move with (3 "
       "entries, m/s, default 0 0 0: held); at least one point must lie in it"},
  };
}

}  // namespace nsdyn::io::xml::schema::rows
