// <scene>: gravity, the <ContactManager> and its <material>s and <recovery>, generators
// (packings, container, hopper, chute, rough base), the step-size warning.

#include "Loader.hpp"

namespace nsdyn::io::xml {

// A warning when a body falling under the scene's gravity moves more than the smallest
// dynamic shape's bounding radius s in one step: after one step of fall its speed is g h
// and it moves g h^2 per step, so contacts are missed from then on (h = 1000 put bodies
// 4.9e6 m under the floor without a word). Warned when g h^2 > s, i.e. h > sqrt(s / g).
void Loader::stepSizeCheck(const Node& simulationNode) {
  const LoadedScene& scene = *out_->scene;
  const double g =
      std::sqrt(scene.gravity[0] * scene.gravity[0] + scene.gravity[1] * scene.gravity[1] +
                scene.gravity[2] * scene.gravity[2]);
  double smallest = INFINITY;
  for (const BodyShapes& b : scene.contacts->bodies())
    if (!b.isStatic())
      for (const auto& s : b.shapes())
        if (s.shape->isFinite()) smallest = std::min(smallest, s.shape->characteristicSize());
  const double h = out_->h;
  if (!(g > 0.0) || !std::isfinite(smallest) || !(g * h * h > smallest)) return;
  const std::string message =
      file_ + ":" + std::to_string(lineOf(simulationNode)) + ": <simulation>: h = " + timeText(h) +
      " s is too large for the scene: a body falling under its gravity (" + timeText(g) +
      " m/s^2) moves g h^2 = " + timeText(g * h * h, 3) +
      " m per step, more than the smallest body radius " + timeText(smallest) +
      " m, so contacts are missed (bodies pass through each other and the floor); h <= " +
      "sqrt(radius / g) = " + timeText(std::sqrt(smallest / g), 3) + " s avoids it";
  out_->warnings.push_back(message);
  std::cerr << "nsdyn: warning: " << message << "\n";
}

// <scene gravity="0 0 -9.81">: the contact manager, bodies and generators, in order.
void Loader::scene(const Node& n) {
  check(n, {schema::allowed("scene"),
            {"ContactManager", "RigidBody", "StaticBody", "latticePacking", "randomPacking",
             "container", "hopper", "chute", "roughBase", "PeridynamicBody"}});
  out_->scene = std::make_shared<LoadedScene>();
  LoadedScene& scene = *out_->scene;
  scene.gravity = vec3Attribute(n, "gravity", Vec3{0.0, 0.0, 0.0}, "the gravity g (3, m/s^2)");
  for (const auto& s : out_->systems) sceneNames_.insert(s.first);
  contactManager(single(n, "ContactManager", false));
  for (Node c : n.children()) {
    if (c.type() != pugi::node_element) continue;
    const std::string kind = c.name();
    if (kind == "RigidBody")
      rigidBody(c);
    else if (kind == "StaticBody")
      staticBody(c);
    else if (kind == "latticePacking" || kind == "randomPacking")
      packing(c);
    else if (kind == "container" || kind == "hopper" || kind == "chute" || kind == "roughBase")
      staticGenerator(c);
    else if (kind == "PeridynamicBody")
      peridynamicBody(c);
  }
  if (scene.bodyNames.empty() && scene.peridynamicBodies.empty())
    fail(n,
         "expected bodies (<RigidBody>, <StaticBody>, <PeridynamicBody> or a generator), found "
         "none");
}

// <ContactManager margin breaking-distance threads ... swept-detection stabilisation-factor
// max-recovery-speed> with <material> children.
// <recovery enabled slop relative-slop max-speed slops-per-step iterations tolerance>: the
// scene engine's overlap recovery (OverlapRecoveryOptions), kept in LoadedScene::recovery.
void Loader::overlapRecovery(const Node& n) {
  if (!n) return;
  check(n, {schema::allowed("recovery"), {}});
  OverlapRecoveryOptions& r = out_->scene->recovery;
  r.enabled = boolean(n, "enabled", true);
  r.slop = nonNegative(n, "slop", r.slop, "the allowed penetration (m), 0: relative-slop");
  r.relativeSlop = nonNegative(n, "relative-slop", r.relativeSlop,
                               "the allowed penetration as a fraction of the smallest size");
  r.maxSpeed = nonNegative(n, "max-speed", r.maxSpeed,
                           "the recovery speed cap (m/s), 0: slops-per-step x slop / h");
  r.slopsPerStep = positive(n, "slops-per-step", r.slopsPerStep,
                            "the recovery speed cap in slops of correction per step");
  r.iterations = intAttribute(n, "iterations", r.iterations, 1, "Gauss-Seidel sweeps", 1000000);
  r.tolerance = positive(n, "tolerance", r.tolerance, "the stopping test of the sweeps");
}

void Loader::contactManager(const Node& n) {
  ContactManagerOptions o;
  std::vector<std::pair<std::pair<int, int>, ContactMaterial>> materials;
  std::optional<ContactMaterial> fallback;
  if (n) {
    check(n, {schema::allowed("ContactManager"), {"material", "recovery"}});
    overlapRecovery(single(n, "recovery", false));
    o.detection.margin = nonNegative(n, "margin", 0.0, "the detection margin (m)");
    o.detection.breakingDistance =
        number(n, "breaking-distance", o.detection.margin, "the breaking distance (m)");
    if (!(o.detection.breakingDistance >= o.detection.margin))
      fail(n, "attribute 'breaking-distance': expected a distance >= margin = " +
                  numberText(o.detection.margin) + ", found " +
                  numberText(o.detection.breakingDistance));
    o.detection.threads = intAttribute(n, "threads", 0, 0, "detection threads, 0: OpenMP default",
                                       kMaxDetectionThreads);
    o.relativeMargin = nonNegative(n, "relative-margin", o.relativeMargin,
                                   "a fraction of the smallest shape size");
    o.relativeActivation = nonNegative(n, "relative-activation", o.relativeActivation,
                                       "a fraction of the smallest shape size");
    o.overlapWarningFraction = nonNegative(n, "overlap-warning-fraction", o.overlapWarningFraction,
                                           "a fraction of the smaller shape's size");
    o.warmStart = boolean(n, "warm-start", o.warmStart);
    o.sweptDetection = boolean(n, "swept-detection", o.sweptDetection);
    if (n.attribute("keep-loaded-contacts"))  // absent: unset, the library default (off)
      o.keepLoadedContacts = boolean(n, "keep-loaded-contacts", false);
    out_->scene->speculativeContacts =
        boolean(n, "speculative-contacts", out_->scene->speculativeContacts);
    o.stabilisationFactor = number(n, "stabilisation-factor", o.stabilisationFactor,
                                   "a position-correction factor in [0, 1], 0: off");
    if (!(o.stabilisationFactor >= 0.0 && o.stabilisationFactor <= 1.0))
      fail(n,
           "attribute 'stabilisation-factor': expected a position-correction factor in [0, 1], "
           "found " +
               numberText(o.stabilisationFactor));
    o.maxRecoverySpeed = positive(n, "max-recovery-speed", o.maxRecoverySpeed,
                                  "the largest separating speed of the position correction (m/s)");
    o.detection.broadphase.cellSize = nonNegative(n, "cell-size", o.detection.broadphase.cellSize,
                                                  "the broadphase cell edge (m), 0: automatic");
    o.detection.broadphase.cellSizeFactor =
        positive(n, "cell-size-factor", o.detection.broadphase.cellSizeFactor,
                 "a factor of the median box edge");
    o.detection.broadphase.maxCellsPerBox = positive(
        n, "max-cells-per-box", o.detection.broadphase.maxCellsPerBox, "a number of cells");
    o.detection.ccd.maxIterations = static_cast<unsigned long>(
        integer(n, "ccd-max-iterations", static_cast<long>(o.detection.ccd.maxIterations), 1,
                "polytope expansions of convexContact"));
    o.detection.ccd.tolerance = positive(n, "ccd-tolerance", o.detection.ccd.tolerance,
                                         "the depth tolerance of convexContact (m)");
    o.detection.ccd.manifold = boolean(n, "convex-manifold", o.detection.ccd.manifold);
    for (Node m : n.children("material")) {
      check(m, {schema::allowed("material"), {}});
      ContactMaterial mat;
      mat.mu = number(m, "mu", mat.mu, "the friction coefficient");
      mat.restitution =
          number(m, "restitution", mat.restitution, "the restitution coefficient in [0, 1]");
      mat.rolling = number(m, "rolling", mat.rolling, "the rolling resistance length (m)");
      if (!(mat.rolling >= 0.0))
        fail(m, "attribute 'rolling': expected a rolling resistance length >= 0 (m), found " +
                    numberText(mat.rolling));
      if (!(mat.mu >= 0.0))
        fail(m,
             "attribute 'mu': expected a friction coefficient >= 0, found " + numberText(mat.mu));
      if (!(mat.restitution >= 0.0 && mat.restitution <= 1.0))
        fail(m, "attribute 'restitution': expected a coefficient in [0, 1], found " +
                    numberText(mat.restitution));
      if (!m.attribute("groups")) {
        if (fallback) fail(m, "expected one default <material> (without 'groups'), found a second");
        fallback = mat;
        continue;
      }
      const SiconosVector g = vectorAttribute(m, "groups", 2, "two body groups");
      for (std::size_t k = 0; k < 2; ++k)
        if (g(k) != std::floor(g(k)) || g(k) < 0.0 || g(k) > INT_MAX)
          fail(m, "attribute 'groups': expected two integers in [0, 2147483647], found '" +
                      trim(m.attribute("groups").value()) + "'");
      const std::pair<int, int> key{static_cast<int>(std::min(g(0), g(1))),
                                    static_cast<int>(std::max(g(0), g(1)))};
      for (const auto& other : materials)
        if (other.first == key)
          fail(m, "expected one <material> per pair of groups, found groups " +
                      std::to_string(key.first) + " " + std::to_string(key.second) +
                      " a second time");
      materials.emplace_back(key, mat);
    }
  }
  auto manager = std::make_shared<ContactManager>(o);
  if (fallback) manager->setDefaultMaterial(*fallback);
  for (const auto& m : materials) manager->setMaterial(m.first.first, m.first.second, m.second);
  out_->scene->contacts = manager;
}

// <particle kind radius length half-extents size-spread density random-orientation name-prefix>
scenes::ParticleSpec Loader::particle(const Node& p) const {
  check(p, {schema::allowed("particle"), {}});
  scenes::ParticleSpec s;
  const std::string kind = choice(p, "kind", schema::values("particle", "kind"), "sphere");
  s.kind = kind == "sphere"    ? scenes::ParticleKind::Sphere
           : kind == "box"     ? scenes::ParticleKind::Box
           : kind == "capsule" ? scenes::ParticleKind::Capsule
                               : scenes::ParticleKind::Cylinder;
  s.radius = positive(p, "radius", s.radius, "the radius (m)");
  s.length = positive(p, "length", s.length, "the length along the shape z axis (m)");
  s.halfExtents = positiveVec3(p, "half-extents", s.halfExtents, "the box half-extents (m)");
  s.sizeSpread = number(p, "size-spread", s.sizeSpread, "the relative size spread in [0, 1)");
  if (!(s.sizeSpread >= 0.0 && s.sizeSpread < 1.0))
    fail(p, "attribute 'size-spread': expected a relative spread in [0, 1), found " +
                numberText(s.sizeSpread));
  s.density = positive(p, "density", s.density, "the density (kg/m^3)");
  s.randomOrientation = boolean(p, "random-orientation", s.randomOrientation);
  if (p.attribute("name-prefix")) {
    s.namePrefix = trim(p.attribute("name-prefix").value());
    validName(p, s.namePrefix);
  }
  return s;
}

// <region lower="x y z" upper="x y z"/>
scenes::Region Loader::region(const Node& r) const {
  check(r, {schema::allowed("region"), {}});
  scenes::Region g;
  g.lower = vec3Attribute(r, "lower", std::nullopt, "the lower corner (3, m)");
  g.upper = vec3Attribute(r, "upper", std::nullopt, "the upper corner (3, m)");
  for (std::size_t i = 0; i < 3; ++i)
    if (!(g.lower[i] < g.upper[i]))
      fail(r, "expected lower < upper in each coordinate, found lower = " + vec3Text(g.lower) +
                  ", upper = " + vec3Text(g.upper));
  return g;
}

// <latticePacking count gap seed group> / <randomPacking count seed max-attempts group>
// with <particle> and <region>: bodies made at load time.
void Loader::packing(const Node& n) {
  const bool lattice = std::strcmp(n.name(), "latticePacking") == 0;
  if (lattice)
    check(n, {schema::allowed("latticePacking"), {"particle", "region"}});
  else
    check(n, {schema::allowed("randomPacking"), {"particle", "region"}});
  const scenes::ParticleSpec p = particle(single(n, "particle", true));
  const scenes::Region r = region(single(n, "region", true));
  const std::size_t most = std::min(kMaxSceneBodies, limits_.sceneBodies);
  const auto count = static_cast<std::size_t>(
      integer(n, "count", std::nullopt, lattice ? 0 : 1, "number of particles",
              static_cast<long>(most)));  // a lattice of 0: a parameter turned it off
  const std::size_t before = out_->scene->bodyNames.size();
  if (count > most - std::min(most, before))
    fail(n, "attribute 'count': expected at most " + std::to_string(most - std::min(most, before)) +
                " particles (a scene holds at most " + std::to_string(most) + " bodies, " +
                std::to_string(before) + " before this element), found " + std::to_string(count));
  const auto seed = static_cast<std::uint64_t>(integer(n, "seed", 1, 0, "random seed"));
  const int group = groupOf(n);
  std::vector<nsdyn::BodySpec> specs;
  try {
    if (lattice)
      specs = scenes::latticePacking(p, r, count,
                                     nonNegative(n, "gap", 0.0, "the gap between sites (m)"), seed);
    else
      specs = scenes::randomPacking(
          p, r, count, seed,
          static_cast<std::size_t>(integer(n, "max-attempts", 1000, 1, "attempts per particle")));
  } catch (const LoadError&) {
    throw;
  } catch (const nsdyn::Error& e) {
    fail(n, e.what());
  }
  for (const nsdyn::BodySpec& spec : specs) {
    newSceneName(n, spec.name);
    BodyShapes body = [&] {
      try {
        return makeBody(spec);
      } catch (const nsdyn::Error& e) {
        fail(n, e.what());
      }
    }();
    addSceneBody(n, spec.name, std::move(body), group);
  }
}

// <container>, <hopper>, <chute>: static parts made at load time.
void Loader::staticGenerator(const Node& n) {
  const std::string kind = n.name();
  std::vector<scenes::StaticPart> parts;
  try {
    if (kind == "roughBase") {
      parts = roughBase(n);
    } else if (kind == "container") {
      check(n, {schema::allowed("container"), {}});
      scenes::ContainerSpec c;
      c.inner.lower =
          vec3Attribute(n, "lower", std::nullopt, "the inner region's lower corner (3, m)");
      c.inner.upper =
          vec3Attribute(n, "upper", std::nullopt, "the inner region's upper corner (3, m)");
      for (std::size_t i = 0; i < 3; ++i)
        if (!(c.inner.lower[i] < c.inner.upper[i]))
          fail(n, "expected lower < upper in each coordinate, found lower = " +
                      vec3Text(c.inner.lower) + ", upper = " + vec3Text(c.inner.upper));
      c.planes = boolean(n, "planes", c.planes);
      c.wallThickness = positive(n, "wall-thickness", c.wallThickness, "the wall thickness (m)");
      c.wallHeight =
          nonNegative(n, "wall-height", c.wallHeight, "the wall height (m), 0: the region's");
      c.namePrefix = namePrefix(n, c.namePrefix);
      parts = scenes::container(c);
    } else if (kind == "hopper") {
      check(n, {schema::allowed("hopper"), {}});
      scenes::HopperSpec h;
      h.center =
          vec3Attribute(n, "center", h.center, "the outlet centre x, y and the floor top z (m)");
      h.outletWidth = positive(n, "outlet-width", h.outletWidth, "the outlet width (m)");
      h.topWidth = positive(n, "top-width", h.topWidth, "the width at the top (m)");
      if (!(h.topWidth > h.outletWidth))
        fail(n, "attribute 'top-width': expected a width > outlet-width = " +
                    numberText(h.outletWidth) + ", found " + numberText(h.topWidth));
      h.angle = number(n, "angle", h.angle, "the plate angle from the horizontal (rad)");
      if (!(h.angle > 0.0 && h.angle < M_PI / 2))
        fail(n,
             "attribute 'angle': expected an angle in (0, pi/2) rad, found " + numberText(h.angle));
      h.outletHeight =
          positive(n, "outlet-height", h.outletHeight, "the outlet height above the floor (m)");
      h.plates = intAttribute(n, "plates", h.plates, 2, "2 or 4 plates");
      if (h.plates != 2 && h.plates != 4)
        fail(n, "attribute 'plates': expected 2 or 4, found " + std::to_string(h.plates));
      h.depth = positive(n, "depth", h.depth, "the depth of a two-plate hopper (m)");
      h.sideWalls = boolean(n, "side-walls", h.sideWalls);
      h.wallThickness = positive(n, "wall-thickness", h.wallThickness, "the plate thickness (m)");
      h.floor = boolean(n, "floor", h.floor);
      h.namePrefix = namePrefix(n, h.namePrefix);
      parts = scenes::hopper(h);
    } else {
      check(n, {schema::allowed("chute"), {}});
      scenes::ChuteSpec c;
      c.origin = vec3Attribute(n, "origin", c.origin, "the top end of the bed surface (3, m)");
      c.angle = number(n, "angle", c.angle, "the inclination (rad)");
      if (!(c.angle > 0.0 && c.angle < M_PI / 2))
        fail(n,
             "attribute 'angle': expected an angle in (0, pi/2) rad, found " + numberText(c.angle));
      c.length = positive(n, "length", c.length, "the bed length (m)");
      c.width = positive(n, "width", c.width, "the width between the walls (m)");
      c.wallHeight = positive(n, "wall-height", c.wallHeight, "the wall height (m)");
      c.thickness = positive(n, "thickness", c.thickness, "the bed and wall thickness (m)");
      c.planes = boolean(n, "planes", c.planes);
      c.namePrefix = namePrefix(n, c.namePrefix);
      parts = scenes::chute(c);
    }
  } catch (const LoadError&) {
    throw;
  } catch (const nsdyn::Error& e) {
    fail(n, e.what());
  }
  const int group = groupOf(n);
  for (scenes::StaticPart& part : parts) {
    newSceneName(n, part.name);
    addSceneBody(n, part.name, std::move(part.body), group);
  }
}

// <roughBase radius reach center name-prefix>: scenes::roughBase (static spheres of the
// radius touching on a square lattice over a disc of the reach, named name-prefix + k).
std::vector<scenes::StaticPart> Loader::roughBase(const Node& n) const {
  check(n, {schema::allowed("roughBase"), {}});
  scenes::RoughBaseSpec b;
  b.radius = positive(n, "radius", std::nullopt, "the sphere radius (m)");
  b.reach = positive(n, "reach", std::nullopt, "the radius of the disc covered (m)");
  b.center = vec3Attribute(n, "center", b.center, "the disc centre x, y and the plane z (3, m)");
  b.namePrefix = namePrefix(n, b.namePrefix);
  // a loader's lower body limit (LoaderLimits), before the generator counts its sites:
  // at most (2 cells + 1)^2 of them
  const double cells = std::floor(b.reach / (2.0 * b.radius)),
               room = static_cast<double>(
                   limits_.sceneBodies -
                   std::min(limits_.sceneBodies, out_->scene->bodyNames.size()));
  if (limits_.sceneBodies < kMaxSceneBodies && cells <= 2000.0 &&
      (2.0 * cells + 1.0) * (2.0 * cells + 1.0) > room)
    fail(n, "expected a base of at most " + std::to_string(static_cast<long>(room)) +
                " spheres (the loader's limit), found reach / (2 radius) = " +
                std::to_string(static_cast<long>(cells)));
  return scenes::roughBase(b);
}

}  // namespace nsdyn::io::xml
