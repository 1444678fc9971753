// Scene bodies: shapes (<SphereShape>, <BoxShape>, ...), <RigidBody>, <StaticBody>.

#include "Loader.hpp"

namespace nsdyn::io::xml {

// <SphereShape radius>, <BoxShape half-extents>, <CapsuleShape radius half-length>,
// <CylinderShape radius half-length>, <ConvexHullShape points>, <HalfSpaceShape normal
// offset>, each with an optional offset pose (<position>, <quaternion> or <axisAngle>).
ShapeInstance Loader::shapeInstance(const Node& n) const {
  const std::string kind = n.name();
  const std::vector<std::string> pose = {"position", "quaternion", "axisAngle"};
  ShapeInstance si;
  if (kind == "TriangleMeshShape" || kind == "HeightfieldShape") {
    check(n, {schema::allowed(kind), pose});
    si.shape = terrainShape(n);
  }
  try {
    if (si.shape) {
    } else if (kind == "SphereShape") {
      check(n, {schema::allowed(kind), pose});
      si.shape =
          std::make_shared<SphereShape>(positive(n, "radius", std::nullopt, "the radius (m)"));
    } else if (kind == "BoxShape") {
      check(n, {schema::allowed(kind), pose});
      si.shape = std::make_shared<BoxShape>(
          positiveVec3(n, "half-extents", std::nullopt, "the half-extents along x, y, z (m)"));
    } else if (kind == "CapsuleShape" || kind == "CylinderShape") {
      check(n, {schema::allowed(kind), pose});
      const double r = positive(n, "radius", std::nullopt, "the radius (m)");
      const double l = positive(n, "half-length", std::nullopt, "the half-length along z (m)");
      if (kind == "CapsuleShape")
        si.shape = std::make_shared<CapsuleShape>(r, l);
      else
        si.shape = std::make_shared<CylinderShape>(r, l);
    } else if (kind == "ConvexHullShape") {
      check(n, {schema::allowed(kind), pose});
      const std::string meaning = "the hull's points x y z, separated by ';' (shape frame)";
      const std::string text = requiredAttribute(n, "points", meaning);
      // counted before anything is split or evaluated (a 10^6-point hull took 905 MB, 70 s)
      const std::size_t rows =
          1 + static_cast<std::size_t>(std::count(text.begin(), text.end(), ';'));
      if (rows > kMaxHullPoints)
        fail(n, "attribute 'points': expected at most " + std::to_string(kMaxHullPoints) +
                    " points, found " + std::to_string(rows) + " (separated by ';')");
      std::vector<Vec3> points;
      std::vector<double> flat;
      for (const auto& row : splitEntries(text))
        for (const auto& e : row)
          flat.push_back(evaluate(n, e, "attribute 'points' entry " + std::to_string(flat.size())));
      if (flat.size() % 3 != 0)
        fail(n, "attribute 'points': expected " + meaning + ", 3 entries per point, found " +
                    std::to_string(flat.size()) + " entries");
      for (std::size_t k = 0; k < flat.size(); k += 3)
        points.push_back({flat[k], flat[k + 1], flat[k + 2]});
      if (points.size() < 4)
        fail(n, "attribute 'points': expected at least 4 points, not all in one plane, found " +
                    std::to_string(points.size()));
      si.shape = std::make_shared<ConvexHullShape>(points);
    } else {
      check(n, {schema::allowed(kind), pose});
      const Vec3 normal = vec3Attribute(n, "normal", std::nullopt, "the outward normal (3)");
      if (!(std::abs(normal[0]) + std::abs(normal[1]) + std::abs(normal[2]) > 0.0))
        fail(n,
             "attribute 'normal': expected a normal of non-zero length, found " + vec3Text(normal));
      si.shape = std::make_shared<HalfSpaceShape>(
          normal, number(n, "offset", 0.0, "offset along the normal (m)"));
    }
  } catch (const LoadError&) {
    throw;
  } catch (const nsdyn::Error& e) {
    fail(n, e.what());
  }
  if (Node p = single(n, "position", false))
    si.position = vec3(vectorData(p, 3, "the shape's position in the body frame (3)"));
  si.orientation = toQuat(orientationChildren(n));
  return si;
}

// At most kMaxBodyShapes shapes on a body (the contact detector's limit, which the Kernel
// met only at Model::initialize(), blamed on <simulation>).
void Loader::shapeCount(const Node& body) const {
  std::size_t count = 0;
  for (Node c : body.children())
    if (isShape(c)) ++count;
  if (count > kMaxBodyShapes)
    fail(body, "expected at most " + std::to_string(kMaxBodyShapes) + " shapes on a body, found " +
                   std::to_string(count));
}

int Loader::groupOf(const Node& n) const {
  return intAttribute(n, "group", 0, 0, "the body group, for materials");
}

// A new scene body name (dynamic bodies are systems too: a name no system has).
void Loader::newSceneName(const Node& n, const std::string& name) {
  if (!sceneNames_.insert(name).second)
    fail(n, "expected a new body name, found '" + name + "' a second time");
}

// Add @p body (made at element @p n) to the contact manager and, when dynamic, to the
// systems, with f_ext = m g.
void Loader::addSceneBody(const Node& n, const std::string& name, BodyShapes body, int group) {
  LoadedScene& scene = *out_->scene;
  if (scene.bodyNames.size() >= limits_.sceneBodies)
    fail(n, "expected at most " + std::to_string(limits_.sceneBodies) +
                " scene bodies (the loader's limit), found more");
  try {
    if (!body.isStatic()) {
      const double m = body.body()->scalarMass();
      body.body()->setFExt(
          SiconosVector({m * scene.gravity[0], m * scene.gravity[1], m * scene.gravity[2]}));
      addSystem(name, body.body());
    }
    scene.contacts->addBody(*model_->nonSmoothDynamicalSystem(), std::move(body), group);
  } catch (const nsdyn::Error& e) {
    fail(n, e.what());
  }
  bodyIndex_.emplace(name, scene.bodyNames.size());
  scene.bodyNames.push_back(name);
}

// Position, orientation and velocities of a body element.
void Loader::bodyPose(const Node& n, Vec3& position, Shape::Quat& orientation) const {
  if (Node p = single(n, "position", false))
    position =
        vec3(vectorData(p, 3, "the position of the body's reference frame (3, world frame)"));
  orientation = toQuat(orientationChildren(n));
}

// <RigidBody name group density|mass> with its shapes (<inertia> with a mass).
void Loader::rigidBody(const Node& n) {
  std::vector<std::string> children = {"position",        "quaternion", "axisAngle", "velocity",
                                       "angularVelocity", "inertia",    "fExt",      "mExt"};
  children.insert(children.end(), shapeElements().begin(), shapeElements().end());
  check(n, {schema::allowed("RigidBody"), children});
  nsdyn::BodySpec spec;
  spec.name = requiredAttribute(n, "name", "body name");
  validName(n, spec.name);
  newSceneName(n, spec.name);
  const int group = groupOf(n);
  shapeCount(n);
  for (Node c : n.children()) {
    if (!isShape(c)) continue;
    if (std::strcmp(c.name(), "HalfSpaceShape") == 0)
      fail(c,
           "expected a finite shape on a dynamic body, found a half-space (put it in a "
           "<StaticBody>)");
    if (std::strcmp(c.name(), "TriangleMeshShape") == 0 ||
        std::strcmp(c.name(), "HeightfieldShape") == 0)
      fail(c, std::string("expected a finite shape on a dynamic body, found a terrain <") +
                  c.name() + "> (put it in a <StaticBody>)");
    spec.shapes.push_back(shapeInstance(c));
  }
  if (spec.shapes.empty())
    fail(n,
         "expected at least one shape (SphereShape, BoxShape, CapsuleShape, CylinderShape, "
         "ConvexHullShape), found none");
  const bool density = n.attribute("density"), mass = n.attribute("mass");
  if (density && mass) fail(n, "expected either attribute 'density' or 'mass', found both");
  if (!density && !mass)
    fail(n,
         "expected attribute 'density' (kg/m^3) or 'mass' (kg) for a body with shapes, found "
         "neither");
  if (density) spec.density = positive(n, "density", std::nullopt, "the density (kg/m^3)");
  if (mass) spec.mass = positive(n, "mass", std::nullopt, "the mass (kg)");
  if (Node in = single(n, "inertia", false)) {
    if (!mass)
      fail(in,
           "expected <inertia> with attribute 'mass' only (a density gives the inertia), found "
           "'density'");
    const SimpleMatrix I = inertiaData(in);
    Shape::Mat3 J;
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < 3; ++j) J[i][j] = I(i, j);
    spec.inertia = J;
  }
  bodyPose(n, spec.position, spec.orientation);
  if (Node v = single(n, "velocity", false)) {
    const SiconosVector x = vectorData(v, 3, "the velocity of the centre of mass (3, world frame)");
    for (std::size_t i = 0; i < 3; ++i) spec.velocity[i] = x(i);
  }
  if (Node w = single(n, "angularVelocity", false)) {
    const SiconosVector x = vectorData(w, 3, "the angular velocity (3, body frame)");
    for (std::size_t i = 0; i < 3; ++i) spec.velocity[3 + i] = x(i);
  }
  // extra loads: <fExt> (world frame, added to m g) and <mExt> (body frame), constant or of t
  std::optional<TimeVector> force, moment;
  if (Node f = single(n, "fExt", false))
    force = bodyLoad(f, "the external force added to m g (3, world frame)");
  if (Node f = single(n, "mExt", false))
    moment = bodyLoad(f, "the external moment m_ext (3, body frame)");
  BodyShapes body = [&] {
    try {
      return makeBody(spec);
    } catch (const nsdyn::Error& e) {
      fail(n, e.what());
    }
  }();
  const SP::NewtonEulerDS ds = body.body();
  addSceneBody(n, spec.name, std::move(body), group);
  if (force || moment) {
    // the loads as given (without the weight), for an engine that owns gravity
    SceneBodyLoads& loads = out_->scene->loads[out_->scene->bodyNames.size() - 1];
    if (force && force->function) loads.forceOfTime = force->function;
    if (force && !force->function)
      for (std::size_t i = 0; i < 3; ++i) loads.force[i] = force->constant(i);
    if (moment && moment->function) loads.momentOfTime = moment->function;
    if (moment && !moment->function)
      for (std::size_t i = 0; i < 3; ++i) loads.moment[i] = moment->constant(i);
  }
  if (force) {
    const double m = ds->scalarMass();
    const Vec3 weight{m * out_->scene->gravity[0], m * out_->scene->gravity[1],
                      m * out_->scene->gravity[2]};
    if (force->function) {
      const FunctionRegistry::VectorOfTime f = force->function;
      ds->setFExt([weight, f](double t) {
        const SiconosVector x = f(t);
        return SiconosVector({weight[0] + x(0), weight[1] + x(1), weight[2] + x(2)});
      });
    } else {
      const SiconosVector& x = force->constant;
      ds->setFExt(SiconosVector({weight[0] + x(0), weight[1] + x(1), weight[2] + x(2)}));
    }
  }
  if (moment) {
    if (moment->function)
      ds->setMExt(moment->function);
    else
      ds->setMExt(moment->constant);
  }
}

// <StaticBody name group> with its shapes (half-spaces too), at a fixed pose.
void Loader::staticBody(const Node& n) {
  std::vector<std::string> children = {"position", "quaternion", "axisAngle"};
  children.insert(children.end(), shapeElements().begin(), shapeElements().end());
  check(n, {schema::allowed("StaticBody"), children});
  const std::string name = requiredAttribute(n, "name", "body name");
  validName(n, name);
  newSceneName(n, name);
  const int group = groupOf(n);
  shapeCount(n);
  std::vector<ShapeInstance> shapes;
  for (Node c : n.children())
    if (isShape(c)) shapes.push_back(shapeInstance(c));
  if (shapes.empty()) fail(n, "expected at least one shape, found none");
  Vec3 position{0.0, 0.0, 0.0};
  Shape::Quat orientation{1.0, 0.0, 0.0, 0.0};
  bodyPose(n, position, orientation);
  BodyShapes body = [&] {
    try {
      return makeStaticBody(shapes, position, orientation);
    } catch (const nsdyn::Error& e) {
      fail(n, e.what());
    }
  }();
  addSceneBody(n, name, std::move(body), group);
}

}  // namespace nsdyn::io::xml
