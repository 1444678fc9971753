// <PeridynamicBody> in a <scene>: its shape (<box>, <cylinder>, <sphere>,
// <mesh>, <sheet>) made by the Kernel's generators, its <peridynamicMaterial>,
// <precrack>s, initial <velocity> and <prescribe>d regions; kept in
// LoadedScene::peridynamicBodies.

#include <sys/stat.h>

#include "Loader.hpp"
#include "nsdyn/BondBasedMaterial.hpp"
#include "nsdyn/LinearPeridynamicSolid.hpp"
#include "nsdyn/NeoHookeanMaterial.hpp"
#include "nsdyn/PeridynamicGenerators.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"
#include "nsdyn/SheetMaterial.hpp"
#include "nsdyn/StVenantKirchhoffMaterial.hpp"

namespace nsdyn::io::xml {

namespace {

const std::vector<std::string>& shapeChildren() {
  static const std::vector<std::string> s = {"box", "cylinder", "sphere", "mesh", "sheet"};
  return s;
}

double norm(const Vec3& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

// Lattice sites of the box around a shape of extents @p e (an upper bound of
// its points).
double latticeSites(const std::vector<double>& extents, double spacing) {
  double sites = 1.0;
  for (double e : extents) sites *= std::max(1.0, std::ceil(e / spacing));
  return sites;
}

}  // namespace

// <peridynamicMaterial model E nu critical-stretch fracture-energy stabilisation bending-scale> of
// a peridynamic body of horizon @p horizon (a 2D body when @p sheet; model `sheet` on one only).
std::shared_ptr<const PeridynamicMaterial> Loader::peridynamicMaterial(const Node& m,
                                                                       double horizon,
                                                                       bool sheet) const {
  check(m, {schema::allowed("peridynamicMaterial"), {}});
  requiredAttribute(m, "model", "the material model");
  const std::string model =
      choice(m, "model", schema::values("peridynamicMaterial", "model"), std::string());
  const bool sheetModel = model == "sheet";  // on a <sheet> body (peridynamicBody checked)
  PeridynamicElasticity e;
  e.youngModulus = positive(m, "E", std::nullopt, "Young's modulus (Pa)");
  // the sheet model's membrane is bond-based: the same fixed ν and fracture relation
  const bool bondBased = model == "bond-based" || sheetModel;
  const double bondNu = sheet ? 1.0 / 3.0 : 0.25;
  e.poissonRatio = number(m, "nu", bondBased ? bondNu : 0.25, "Poisson's ratio");
  if (bondBased && std::abs(e.poissonRatio - bondNu) > 1e-12)
    fail(m, "attribute 'nu': expected " +
                std::string(sheetModel ? "1/3 (the sheet model's bond-based membrane)"
                            : sheet    ? "1/3 (a bond-based sheet)"
                                       : "0.25") +
                " (the " + model + " model fixes Poisson's ratio; `lps` takes any), found " +
                timeText(e.poissonRatio));
  if (!bondBased && !(e.poissonRatio > -1.0 && e.poissonRatio < 0.5))
    fail(m, "attribute 'nu': expected a Poisson's ratio in (-1, 0.5), found " +
                timeText(e.poissonRatio));
  const bool stretch = m.attribute("critical-stretch"), energy = m.attribute("fracture-energy");
  if (stretch && energy) fail(m, "expected 'critical-stretch' or 'fracture-energy', found both");
  if (stretch)
    e.criticalStretch = positive(m, "critical-stretch", std::nullopt, "the critical stretch");
  if (energy) {
    const double g0 = positive(m, "fracture-energy", std::nullopt, "the fracture energy (J/m^2)");
    if (bondBased) {
      e.criticalStretch =
          BondBasedMaterial::criticalStretchFromEnergy(g0, horizon, e.youngModulus, sheet ? 2 : 3);
    } else {  // the same relations with the model's bulk modulus
      const double pi = std::acos(-1.0);
      const double bulk = e.youngModulus / (3.0 * (1.0 - 2.0 * e.poissonRatio));
      e.criticalStretch = sheet ? std::sqrt(4.0 * pi * g0 / (9.0 * e.youngModulus * horizon))
                                : std::sqrt(5.0 * g0 / (9.0 * bulk * horizon));
    }
  }
  const bool hyperelastic = model == "neo-hookean" || model == "saint-venant-kirchhoff";
  if (!hyperelastic && m.attribute("stabilisation"))
    fail(m,
         "attribute 'stabilisation': expected it on a hyperelastic model "
         "only (neo-hookean, "
         "saint-venant-kirchhoff), found it on model '" +
             model + "'");
  const double stabilisation =
      hyperelastic ? nonNegative(m, "stabilisation", 1.0, "the stabilisation weight") : 0.0;
  if (!sheetModel && m.attribute("bending-scale"))
    fail(m, "attribute 'bending-scale': expected it on model 'sheet' only, found it on model '" +
                model + "'");
  SheetMaterialOptions so;
  if (sheetModel)  // (a number attribute is finite: the reader refuses inf and nan)
    so.bendingScale = nonNegative(m, "bending-scale", 1.0, "the bending stiffness scale");
  try {
    if (sheetModel) return std::make_shared<SheetMaterial>(e, so);
    if (bondBased) return std::make_shared<BondBasedMaterial>(e);
    if (model == "lps") return std::make_shared<LinearPeridynamicSolid>(e);
    if (model == "neo-hookean") return std::make_shared<NeoHookeanMaterial>(e, stabilisation);
    return std::make_shared<StVenantKirchhoffMaterial>(e, stabilisation);
  } catch (const nsdyn::Error& x) {
    fail(m, x.what());
  }
}

// The points of the shape element @p s, made by the generator of its kind.
std::unique_ptr<PeridynamicBody> Loader::peridynamicShape(
    const Node& s, const PeridynamicBodyOptions& o,
    std::shared_ptr<const PeridynamicMaterial> material) const {
  const std::string kind = s.name();
  check(s, {schema::allowed(kind), {}});
  const Vec3 centre = vec3Attribute(s, "centre", Vec3{0.0, 0.0, 0.0}, "the centre (3, m)");
  // a lattice far larger than a scene may hold is refused before it is made
  const std::size_t most = std::min(kMaxSceneBodies, limits_.sceneBodies);
  auto bound = [&](double sites) {
    if (sites > 4.0 * static_cast<double>(most))
      fail(s, "expected at most " + std::to_string(most) + " points in a scene (spacing = " +
                  timeText(o.spacing) + " m), found about " + timeText(std::floor(sites), 15) +
                  " lattice sites: a larger spacing or a smaller "
                  "shape");
  };
  std::unique_ptr<PeridynamicBody> body;
  try {
    if (kind == "box") {
      const Vec3 h =
          positiveVec3(s, "half-extents", std::nullopt, "the half-extents along x, y, z (m)");
      bound(latticeSites({2 * h[0], 2 * h[1], 2 * h[2]}, o.spacing));
      body = peridynamics::box(centre, h, o, material);
    } else if (kind == "cylinder") {
      const double r = positive(s, "radius", std::nullopt, "the radius (m)");
      const double l = positive(s, "length", std::nullopt, "the length along the axis (m)");
      const std::string axis = choice(s, "axis", schema::values("cylinder", "axis"), "z");
      bound(latticeSites({2 * r, 2 * r, l}, o.spacing));
      body = peridynamics::cylinder(centre, r, l,
                                    axis == "x"   ? 0
                                    : axis == "y" ? 1
                                                  : 2,
                                    o, material);
    } else if (kind == "sphere") {
      const double r = positive(s, "radius", std::nullopt, "the radius (m)");
      bound(latticeSites({2 * r, 2 * r, 2 * r}, o.spacing));
      body = peridynamics::sphere(centre, r, o, material);
    } else if (kind == "mesh") {
      const std::string given = requiredAttribute(s, "file", "the path of a closed mesh file");
      const std::string path = besideModel(given);
      struct stat info {};
      if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
        fail(s, "attribute 'file': expected a readable mesh file, found '" + given + "' (" + path +
                    ": no such file)");
      const double scale = positive(s, "scale", 1.0, "the scale factor");
      const Vec3 t = vec3Attribute(s, "translation", Vec3{0.0, 0.0, 0.0}, "the translation (3, m)");
      body = peridynamics::meshFile(path, scale, o, material);
      if (norm(t) > 0.0) body->translate(t);
    } else {  // sheet
      Vec3 u = vec3Attribute(s, "u", Vec3{1.0, 0.0, 0.0}, "the first in-plane direction (3)");
      Vec3 w = vec3Attribute(s, "w", Vec3{0.0, 1.0, 0.0}, "the second in-plane direction (3)");
      const double nu = norm(u), nw = norm(w);
      if (!(nu > 0.0) || !(nw > 0.0))
        fail(s, "expected in-plane directions u and w not zero, found u = " + vec3Text(u) +
                    ", w = " + vec3Text(w));
      for (std::size_t k = 0; k < 3; ++k) {
        u[k] /= nu;
        w[k] /= nw;
      }
      if (std::abs(u[0] * w[0] + u[1] * w[1] + u[2] * w[2]) > 1e-9)
        fail(s, "expected orthogonal in-plane directions u and w, found u = " + vec3Text(u) +
                    ", w = " + vec3Text(w) + " (normalised)");
      const double hu = positive(s, "half-u", std::nullopt, "the half-size along u (m)");
      const double hw = positive(s, "half-w", std::nullopt, "the half-size along w (m)");
      bound(latticeSites({2 * hu, 2 * hw}, o.spacing));
      body = peridynamics::sheet(centre, u, w, hu, hw, o, material);
    }
  } catch (const LoadError&) {
    throw;
  } catch (const nsdyn::Error& e) {
    fail(s, e.what());
  }
  return body;
}

// <PeridynamicBody name spacing horizon density method tolerance iterations
// line-search surface-correction fracture exact-response self-contact contact-radius threads
// group>
// with one shape, a <peridynamicMaterial>, <precrack>s, a <velocity> and <prescribe>
// regions, applied in that order.
void Loader::peridynamicBody(const Node& n) {
  std::vector<std::string> children = shapeChildren();
  children.insert(children.end(), {"peridynamicMaterial", "precrack", "velocity", "prescribe"});
  check(n, {schema::allowed("PeridynamicBody"), children});
  LoadedScene& scene = *out_->scene;
  const std::string name = requiredAttribute(n, "name", "the body name");
  validName(n, name);
  newSceneName(n, name);

  PeridynamicBodyOptions o;
  o.name = name;
  o.spacing = positive(n, "spacing", std::nullopt, "the lattice spacing (m)");
  o.horizon = positive(n, "horizon", 3.0 * o.spacing, "the horizon (m)");
  if (!(o.horizon >= o.spacing))
    fail(n, "attribute 'horizon': expected a horizon >= spacing = " + timeText(o.spacing) +
                " m, found " + timeText(o.horizon));
  o.density = positive(n, "density", std::nullopt, "the density (kg/m^3)");
  o.surfaceCorrection = boolean(n, "surface-correction", o.surfaceCorrection);
  o.contactRadius = nonNegative(n, "contact-radius", 0.0, "the contact radius (m)");
  o.threads = intAttribute(n, "threads", 0, 0, "OpenMP threads, 0: automatic", 4096);

  LoadedPeridynamicBody loaded;
  loaded.line = lineOf(n);
  loaded.method = choice(n, "method", schema::values("PeridynamicBody", "method"), "substitution");
  loaded.step.tolerance = positive(n, "tolerance", 1e-6, "the relative residual tolerance");
  loaded.step.maxIterations =
      intAttribute(n, "iterations", 500, 1, "the iterations of a step", 100000000);
  loaded.step.lineSearch = boolean(n, "line-search", true);
  loaded.step.threads = o.threads;
  loaded.step.gravity = scene.gravity;
  loaded.fracture = boolean(n, "fracture", true);
  loaded.exactResponse = boolean(n, "exact-response", true);
  loaded.selfContact = boolean(n, "self-contact", false);
  loaded.group = groupOf(n);

  Node shape;
  for (Node c : n.children()) {
    if (c.type() != pugi::node_element) continue;
    const auto& s = shapeChildren();
    if (std::find(s.begin(), s.end(), c.name()) == s.end()) continue;
    if (shape)
      throw LoadError(file_, lineOf(c),
                      "<" + std::string(c.name()) +
                          ">: expected one shape in <PeridynamicBody>, found a second (<" +
                          shape.name() + "> at line " + std::to_string(lineOf(shape)) + ")");
    shape = c;
  }
  if (!shape)
    fail(n,
         "expected a shape (<box>, <cylinder>, <sphere>, <mesh> or "
         "<sheet>), found none");
  const bool sheet = std::strcmp(shape.name(), "sheet") == 0;
  if (sheet) o.thickness = positive(shape, "thickness", std::nullopt, "the sheet thickness (m)");
  const Node materialNode = single(n, "peridynamicMaterial", true);
  if (!sheet && trim(materialNode.attribute("model").value()) == "sheet")
    fail(materialNode,
         "attribute 'model': expected 'sheet' on a body whose shape is a <sheet> "
         "(a 2D body of one layer of points), found it on a <" +
             std::string(shape.name()) + "> (line " + std::to_string(lineOf(shape)) + ")");
  const auto material = peridynamicMaterial(materialNode, o.horizon, sheet);
  // the sheet model's bending triplets need the diagonal neighbours' i–k bonds
  if (const auto* cloth = dynamic_cast<const SheetMaterial*>(material.get())) {
    const double least = 2.0 * std::sqrt(2.0) * o.spacing;
    if (cloth->options().bendingScale > 0.0 && o.horizon < least * (1.0 - 1e-9))
      fail(n,
           "attribute 'horizon': expected a horizon >= 2 sqrt(2) x spacing = " + timeText(least) +
               " m for the sheet model's bending (the i-k bonds of its diagonal triplets; "
               "bending-scale=\"0\" at line " +
               std::to_string(lineOf(materialNode)) + " takes any), found " + timeText(o.horizon));
  }
  std::unique_ptr<PeridynamicBody> body = peridynamicShape(shape, o, material);

  // the points against the scene's limit (each is a contact sphere of the
  // scene)
  std::size_t points = scene.bodyNames.size();
  for (const LoadedPeridynamicBody& b : scene.peridynamicBodies) points += b.body->size();
  const std::size_t most = std::min(kMaxSceneBodies, limits_.sceneBodies);
  if (body->size() > most - std::min(most, points))
    fail(shape, "expected at most " + std::to_string(most - std::min(most, points)) +
                    " points (a scene holds at most " + std::to_string(most) +
                    " bodies and points, " + std::to_string(points) +
                    " before this element), found " + std::to_string(body->size()));

  bool cracked = false;
  for (Node p : n.children("precrack")) {
    check(p, {schema::allowed("precrack"), {}});
    const Vec3 a = vec3Attribute(p, "a", std::nullopt, "one end of the crack (3, m)");
    const Vec3 b = vec3Attribute(p, "b", std::nullopt, "the other end of the crack (3, m)");
    const Vec3 d = vec3Attribute(p, "direction", std::nullopt, "the sweep direction (3)");
    if (!(norm(d) > 0.0))
      fail(p, "attribute 'direction': expected a direction not zero, found " + vec3Text(d));
    try {
      body->precrack(a, b, d);
    } catch (const nsdyn::Error& e) {
      fail(p, e.what());
    }
    cracked = true;
  }
  if (cracked) {
    try {
      body->refresh();
    } catch (const nsdyn::Error& e) {
      fail(n, e.what());
    }
  }
  if (Node v = single(n, "velocity", false))
    body->setVelocity(vec3(vectorData(v, 3, "the initial velocity of every point (3, m/s)")));
  for (Node p : n.children("prescribe")) {
    check(p, {schema::allowed("prescribe"), {}});
    const Vec3 lo = vec3Attribute(p, "lower", std::nullopt, "the lower corner (3, m)");
    const Vec3 hi = vec3Attribute(p, "upper", std::nullopt, "the upper corner (3, m)");
    for (std::size_t k = 0; k < 3; ++k)
      if (!(lo[k] < hi[k]))
        fail(p, "expected lower < upper in each coordinate, found lower = " + vec3Text(lo) +
                    ", upper = " + vec3Text(hi));
    const Vec3 v = vec3Attribute(p, "velocity", Vec3{0.0, 0.0, 0.0}, "the velocity (3, m/s)");
    auto inside = [&](const double* X) {
      return X[0] >= lo[0] && X[0] <= hi[0] && X[1] >= lo[1] && X[1] <= hi[1] && X[2] >= lo[2] &&
             X[2] <= hi[2];
    };
    if (body->prescribe(inside) == 0)
      fail(p, "expected a region holding points of body '" + name +
                  "', found none (lower = " + vec3Text(lo) + ", upper = " + vec3Text(hi) + ")");
    for (std::size_t i = 0; i < body->size(); ++i)
      if (inside(&body->X[3 * i]))
        for (std::size_t k = 0; k < 3; ++k) body->v[3 * i + k] = v[k];
  }
  loaded.body = std::move(body);
  scene.peridynamicBodies.push_back(std::move(loaded));
}

}  // namespace nsdyn::io::xml
