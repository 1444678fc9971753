// Mechanics: shapes, rigid bodies, joints and the scene generators (nsdyn.Scene, stepped by
// the scene engine, is in scene.cpp; nsdyn.SceneEngine in scene_engine.cpp).
#include <nsdyn/Kernel.hpp>

#include "bindings.hpp"

namespace nsdpy {
namespace {

using namespace nsdyn;

std::array<double, 6> toVec6(py::handle obj, const std::string& arg) {
  const std::vector<double> v = toVector(obj, arg, 6);
  return {v[0], v[1], v[2], v[3], v[4], v[5]};
}

bool isCallableObject(py::handle h) {
  return PyCallable_Check(h.ptr()) != 0;
}

/// A body argument of a joint: a NewtonEulerDS, or a Body of the scene generators (its rigid body).
SP::NewtonEulerDS jointBody(py::handle obj, const std::string& arg) {
  if (obj.is_none()) return nullptr;
  if (py::isinstance<NewtonEulerDS>(obj)) return obj.cast<SP::NewtonEulerDS>();
  if (py::isinstance<BodyShapes>(obj)) {
    auto b = obj.cast<std::shared_ptr<BodyShapes>>();
    if (b->isStatic()) throw py::value_error(arg + ": expected a moving body, found a static one");
    return b->body();
  }
  throw py::type_error(arg + ": expected a NewtonEulerDS (or a Body), found " +
                       std::string(py::str(py::type::handle_of(obj).attr("__name__"))));
}

void initJoints(py::module_& m) {
  // Relations of rigid bodies and the joints (Siconos names and argument order). A joint keeps
  // its bodies weakly: link it with nsds.link(Interaction(EqualityConditionNSL(joint.rows()),
  // joint), body1, body2), the model keeps the bodies alive.
  py::class_<NewtonEulerR, LagrangianR, std::shared_ptr<NewtonEulerR>>(m, "NewtonEulerR")
      .def(py::init([](py::handle C, py::object e) {
             if (isCallableObject(C)) {
               if (e.is_none() || !isCallableObject(e))
                 throw py::type_error(
                     "h, jachq: expected two callables (q, t) -> h and (q, t) -> jachq");
               py::function h = py::reinterpret_borrow<py::function>(C),
                            J = py::reinterpret_borrow<py::function>(e);
               return std::make_shared<NewtonEulerR>(
                   NewtonEulerR::OutputFunction([h](const SiconosVector& q, double t) {
                     py::gil_scoped_acquire gil;
                     return toSiconosVector(h(toNumpy(q), t), "h (value returned by the callable)");
                   }),
                   NewtonEulerR::JacobianFunction([J](const SiconosVector& q, double t) {
                     py::gil_scoped_acquire gil;
                     return toSimpleMatrix(J(toNumpy(q), t),
                                           "jachq (value returned by the callable)");
                   }));
             }
             SimpleMatrix c = toSimpleMatrix(C, "C");
             if (e.is_none()) return std::make_shared<NewtonEulerR>(c);
             return std::make_shared<NewtonEulerR>(
                 c, toSiconosVector(e, "e", static_cast<py::ssize_t>(c.rows())));
           }),
           py::arg("C"), py::arg("e") = py::none(),
           "y = C q + e (C: size x 7 per body), or NewtonEulerR(h, jachq) with callables (q, t) -> "
           "h, jachq")
      .def(
          "computeh",
          [](const NewtonEulerR& r, py::handle q, double t) {
            return toNumpy(r.computeh(toSiconosVector(q, "q"), t));
          },
          py::arg("q"), py::arg("t") = 0.0, "h(q, t); q = (q1) or (q1, q2), 7 entries per body")
      .def(
          "jachq",
          [](const NewtonEulerR& r, py::handle q, double t) {
            return toNumpy(r.computeJacobianQ(toSiconosVector(q, "q"), t));
          },
          py::arg("q"), py::arg("t") = 0.0, "dh/dq (7 columns per body)");
  py::class_<NewtonEulerJointR, NewtonEulerR, std::shared_ptr<NewtonEulerJointR>>(
      m, "NewtonEulerJointR")
      .def("rows", &NewtonEulerJointR::rows, "number of rows: the size of its EqualityConditionNSL")
      .def("numberOfConstraints", &NewtonEulerJointR::rows)
      .def("bodyCount", &NewtonEulerJointR::bodyCount)
      .def("body1", &NewtonEulerJointR::body1)
      .def("body2", &NewtonEulerJointR::body2);
  py::class_<KneeJointR, NewtonEulerJointR, std::shared_ptr<KneeJointR>>(m, "KneeJointR",
                                                                         "ball joint, 3 rows")
      .def(py::init([](py::handle P, bool absoluteRef, py::handle d1, py::handle d2) {
             SP::NewtonEulerDS b1 = jointBody(d1, "d1"), b2 = jointBody(d2, "d2");
             SiconosVector p = toSiconosVector(P, "P", 3);
             if (b2) return std::make_shared<KneeJointR>(p, absoluteRef, b1, b2);
             return std::make_shared<KneeJointR>(p, absoluteRef, b1);
           }),
           py::arg("P"), py::arg("absoluteRef"), py::arg("d1"), py::arg("d2") = py::none(),
           "point P (world if absoluteRef, else body-1 frame) shared by d1 and d2 (or the world)")
      .def("point", [](const KneeJointR& j) { return toNumpy(j.point()); })
      .def("absoluteRef", &KneeJointR::absoluteRef)
      .def("absolutePoint", [](const KneeJointR& j) { return toNumpy(j.absolutePoint()); })
      .def("G1P0", [](const KneeJointR& j) { return toNumpy(j.G1P0()); })
      .def("G2P0", [](const KneeJointR& j) { return toNumpy(j.G2P0()); });
  py::class_<PivotJointR, NewtonEulerJointR, std::shared_ptr<PivotJointR>>(m, "PivotJointR",
                                                                           "hinge, 5 rows")
      .def(py::init([](py::handle P, py::handle A, bool absoluteRef, py::handle d1, py::handle d2) {
             SP::NewtonEulerDS b1 = jointBody(d1, "d1"), b2 = jointBody(d2, "d2");
             SiconosVector p = toSiconosVector(P, "P", 3), a = toSiconosVector(A, "A", 3);
             if (b2) return std::make_shared<PivotJointR>(p, a, absoluteRef, b1, b2);
             return std::make_shared<PivotJointR>(p, a, absoluteRef, b1);
           }),
           py::arg("P"), py::arg("A"), py::arg("absoluteRef"), py::arg("d1"),
           py::arg("d2") = py::none(),
           "rotation about the axis A through P (world if absoluteRef, else body-1 frame)")
      .def("point", [](const PivotJointR& j) { return toNumpy(j.point()); })
      .def("absoluteRef", &PivotJointR::absoluteRef)
      .def("absolutePoint", [](const PivotJointR& j) { return toNumpy(j.absolutePoint()); })
      .def(
          "axis", [](const PivotJointR& j) { return toNumpy(j.axis()); }, "unit axis, body-1 frame")
      .def(
          "worldAxis",
          [](const PivotJointR& j, py::handle q) {
            return toNumpy(j.worldAxis(toSiconosVector(q, "q")));
          },
          py::arg("q"));
  py::class_<PrismaticJointR, NewtonEulerJointR, std::shared_ptr<PrismaticJointR>>(
      m, "PrismaticJointR", "slider, 5 rows")
      .def(py::init([](py::handle axis, bool absoluteRef, py::handle d1, py::handle d2) {
             SP::NewtonEulerDS b1 = jointBody(d1, "d1"), b2 = jointBody(d2, "d2");
             SiconosVector a = toSiconosVector(axis, "axis", 3);
             if (b2) return std::make_shared<PrismaticJointR>(a, absoluteRef, b1, b2);
             return std::make_shared<PrismaticJointR>(a, absoluteRef, b1);
           }),
           py::arg("axis"), py::arg("absoluteRef"), py::arg("d1"), py::arg("d2") = py::none(),
           "translation along axis (world if absoluteRef, else body-1 frame), no relative rotation")
      .def("absoluteRef", &PrismaticJointR::absoluteRef)
      .def(
          "axis", [](const PrismaticJointR& j) { return toNumpy(j.axis()); },
          "unit axis, body-1 frame");
  py::class_<FixedJointR, NewtonEulerJointR, std::shared_ptr<FixedJointR>>(m, "FixedJointR",
                                                                           "weld, 6 rows")
      .def(py::init([](py::handle d1, py::handle d2) {
             SP::NewtonEulerDS b1 = jointBody(d1, "d1"), b2 = jointBody(d2, "d2");
             if (b2) return std::make_shared<FixedJointR>(b1, b2);
             return std::make_shared<FixedJointR>(b1);
           }),
           py::arg("d1"), py::arg("d2") = py::none(), "d1 welded to d2 (or to the world)");
}

/// The type name of a Python object, for messages.
std::string pyTypeName(py::handle obj) {
  return py::str(py::type::handle_of(obj).attr("__name__"));
}

}  // namespace

std::vector<nsdyn::ShapeInstance> shapeList(py::handle shapes) {
  using nsdyn::Shape;
  using nsdyn::ShapeInstance;
  std::vector<ShapeInstance> out;
  py::list items;
  if (py::isinstance<Shape>(shapes))
    items.append(shapes);
  else if (py::isinstance<py::list>(shapes) || py::isinstance<py::tuple>(shapes))
    items = py::list(py::reinterpret_borrow<py::object>(shapes));
  else
    throw py::type_error(
        "shapes: expected a Shape or a list of Shape / (Shape, position, orientation), found " +
        pyTypeName(shapes));
  for (std::size_t k = 0; k < items.size(); ++k) {
    py::handle it = items[k];
    const std::string arg = "shapes[" + std::to_string(k) + "]";
    ShapeInstance si;
    if (py::isinstance<Shape>(it)) {
      si.shape = it.cast<std::shared_ptr<Shape>>();
    } else if (py::isinstance<py::tuple>(it) && py::len(it) >= 1 && py::len(it) <= 3 &&
               py::isinstance<Shape>(py::reinterpret_borrow<py::tuple>(it)[0])) {
      py::tuple t(py::reinterpret_borrow<py::tuple>(it));
      si.shape = t[0].cast<std::shared_ptr<Shape>>();
      if (t.size() > 1) si.position = toVec3(t[1], arg + " position");
      if (t.size() > 2) si.orientation = toQuat(t[2], arg + " orientation");
    } else {
      throw py::type_error(arg + ": expected a Shape or (Shape, position, orientation), found " +
                           pyTypeName(it));
    }
    out.push_back(std::move(si));
  }
  if (out.empty()) throw py::value_error("shapes: expected at least one shape");
  return out;
}

void initMechanics(py::module_& m) {
  initJoints(m);
  py::class_<Shape, std::shared_ptr<Shape>>(m, "Shape")
      .def("kindName", &Shape::kindName)
      .def("volume", &Shape::volume)
      .def("characteristicSize", &Shape::characteristicSize);
  py::class_<SphereShape, Shape, std::shared_ptr<SphereShape>>(m, "SphereShape")
      .def(py::init([](py::handle r) {
             return std::make_shared<SphereShape>(toReal(r, "SphereShape: radius"));
           }),
           py::arg("radius"))
      .def("radius", &SphereShape::radius);
  py::class_<BoxShape, Shape, std::shared_ptr<BoxShape>>(m, "BoxShape")
      .def(py::init([](py::handle half) {
             return std::make_shared<BoxShape>(toVec3(half, "BoxShape: half_extents"));
           }),
           py::arg("half_extents"))
      .def("halfExtents", [](const BoxShape& b) {
        return toNumpy(std::vector<double>(b.halfExtents().begin(), b.halfExtents().end()));
      });
  py::class_<CapsuleShape, Shape, std::shared_ptr<CapsuleShape>>(m, "CapsuleShape")
      .def(py::init([](py::handle r, py::handle half) {
             return std::make_shared<CapsuleShape>(toReal(r, "CapsuleShape: radius"),
                                                   toReal(half, "CapsuleShape: half_length"));
           }),
           py::arg("radius"), py::arg("half_length"));
  py::class_<CylinderShape, Shape, std::shared_ptr<CylinderShape>>(m, "CylinderShape")
      .def(py::init([](py::handle r, py::handle half) {
             return std::make_shared<CylinderShape>(toReal(r, "CylinderShape: radius"),
                                                    toReal(half, "CylinderShape: half_length"));
           }),
           py::arg("radius"), py::arg("half_length"));
  py::class_<HalfSpaceShape, Shape, std::shared_ptr<HalfSpaceShape>>(m, "HalfSpaceShape")
      .def(py::init([](py::handle normal, py::handle offset) {
             return std::make_shared<HalfSpaceShape>(toVec3(normal, "HalfSpaceShape: normal"),
                                                     toReal(offset, "HalfSpaceShape: offset"));
           }),
           py::arg("normal") = py::make_tuple(0.0, 0.0, 1.0), py::arg("offset") = 0.0);
  py::class_<ConvexHullShape, Shape, std::shared_ptr<ConvexHullShape>>(m, "ConvexHullShape")
      .def(py::init([](py::handle points) {
             Array a = readArray(points, "ConvexHullShape: points");
             if (a.shape.size() != 2 || a.shape[1] != 3)
               throw py::value_error("ConvexHullShape: points: expected shape (n, 3)");
             std::vector<Shape::Vec3> p;
             for (py::ssize_t i = 0; i < a.shape[0]; ++i)
               p.push_back({a.values[static_cast<std::size_t>(3 * i)],
                            a.values[static_cast<std::size_t>(3 * i + 1)],
                            a.values[static_cast<std::size_t>(3 * i + 2)]});
             return std::make_shared<ConvexHullShape>(p);
           }),
           py::arg("points"));

  py::class_<BodyShapes, std::shared_ptr<BodyShapes>>(
      m, "Body", "a rigid body (or a static one) with its shapes")
      .def_property_readonly("is_static", &BodyShapes::isStatic)
      .def_property_readonly("ds", &BodyShapes::body, "the NewtonEulerDS (None for a static body)")
      .def("position",
           [](const BodyShapes& b) {
             auto p = b.position();
             return toNumpy(p.data(), {3});
           })
      .def("orientation", [](const BodyShapes& b) {
        auto q = b.orientation();
        return toNumpy(q.data(), {4});
      });

  m.def(
      "make_body",
      [](py::handle shapes, py::object density, py::object mass, py::handle position,
         py::handle orientation, py::handle velocity, const std::string& name) {
        BodySpec spec;
        spec.name = name;
        spec.shapes = shapeList(shapes);
        if (!density.is_none()) spec.density = toReal(density, "make_body: density");
        if (!mass.is_none()) spec.mass = toReal(mass, "make_body: mass");
        if (density.is_none() && mass.is_none()) spec.density = 1000.0;
        spec.position = toVec3(position, "position");
        spec.orientation = toQuat(orientation, "orientation");
        spec.velocity = toVec6(velocity, "velocity");
        return std::make_shared<BodyShapes>(makeBody(spec));
      },
      py::arg("shapes"), py::kw_only(), py::arg("density") = py::none(),
      py::arg("mass") = py::none(), py::arg("position") = py::make_tuple(0.0, 0.0, 0.0),
      py::arg("orientation") = py::make_tuple(1.0, 0.0, 0.0, 0.0),
      py::arg("velocity") = py::make_tuple(0.0, 0.0, 0.0, 0.0, 0.0, 0.0), py::arg("name") = "body",
      "a rigid body of these shapes (density 1000 when neither density nor mass is given)");
  m.def(
      "make_static_body",
      [](py::handle shapes, py::handle position, py::handle orientation) {
        return std::make_shared<BodyShapes>(makeStaticBody(
            shapeList(shapes), toVec3(position, "position"), toQuat(orientation, "orientation")));
      },
      py::arg("shapes"), py::arg("position") = py::make_tuple(0.0, 0.0, 0.0),
      py::arg("orientation") = py::make_tuple(1.0, 0.0, 0.0, 0.0));

  // ---- scene generators ------------------------------------------------------------------
  auto particle = [](const std::string& kind, double radius, double length, py::handle half,
                     double spread, double density) {
    scenes::ParticleSpec p;
    if (kind == "sphere")
      p.kind = scenes::ParticleKind::Sphere;
    else if (kind == "box")
      p.kind = scenes::ParticleKind::Box;
    else if (kind == "capsule")
      p.kind = scenes::ParticleKind::Capsule;
    else if (kind == "cylinder")
      p.kind = scenes::ParticleKind::Cylinder;
    else
      throw py::value_error("kind: expected sphere, box, capsule or cylinder, found '" + kind +
                            "'");
    p.radius = radius;
    p.length = length;
    p.halfExtents = toVec3(half, "half_extents");
    p.sizeSpread = spread;
    p.density = density;
    return p;
  };
  m.def(
      "random_packing",
      [particle](std::size_t count, py::handle lower, py::handle upper, const std::string& kind,
                 double radius, double length, py::handle half, double spread, double density,
                 std::uint64_t seed) {
        const scenes::ParticleSpec p = particle(kind, radius, length, half, spread, density);
        const scenes::Region r{toVec3(lower, "lower"), toVec3(upper, "upper")};
        py::list out;
        for (const BodySpec& s : scenes::randomPacking(p, r, count, seed))
          out.append(std::make_shared<BodyShapes>(makeBody(s)));
        return out;
      },
      py::arg("count"), py::arg("lower"), py::arg("upper"), py::kw_only(),
      py::arg("kind") = "sphere", py::arg("radius") = 0.05, py::arg("length") = 0.1,
      py::arg("half_extents") = py::make_tuple(0.05, 0.05, 0.05), py::arg("size_spread") = 0.0,
      py::arg("density") = 1000.0, py::arg("seed") = 1,
      "count particles placed at random without overlap in the box [lower, upper]");
  m.def(
      "lattice_packing",
      [particle](std::size_t count, py::handle lower, py::handle upper, const std::string& kind,
                 double radius, double length, py::handle half, double spread, double density,
                 double gap, std::uint64_t seed) {
        const scenes::ParticleSpec p = particle(kind, radius, length, half, spread, density);
        const scenes::Region r{toVec3(lower, "lower"), toVec3(upper, "upper")};
        py::list out;
        for (const BodySpec& s : scenes::latticePacking(p, r, count, gap, seed))
          out.append(std::make_shared<BodyShapes>(makeBody(s)));
        return out;
      },
      py::arg("count"), py::arg("lower"), py::arg("upper"), py::kw_only(),
      py::arg("kind") = "sphere", py::arg("radius") = 0.05, py::arg("length") = 0.1,
      py::arg("half_extents") = py::make_tuple(0.05, 0.05, 0.05), py::arg("size_spread") = 0.0,
      py::arg("density") = 1000.0, py::arg("gap") = 0.0, py::arg("seed") = 1);
  m.def(
      "container",
      [](py::handle lower, py::handle upper, bool planes, double thickness, double height) {
        scenes::ContainerSpec c;
        c.inner = {toVec3(lower, "lower"), toVec3(upper, "upper")};
        c.planes = planes;
        c.wallThickness = thickness;
        c.wallHeight = height;
        py::list out;
        for (scenes::StaticPart& part : scenes::container(c))
          out.append(std::make_shared<BodyShapes>(part.body));
        return out;
      },
      py::arg("lower"), py::arg("upper"), py::kw_only(), py::arg("planes") = true,
      py::arg("wall_thickness") = 0.05, py::arg("wall_height") = 0.0,
      "static floor and walls around the box [lower, upper]");
  m.def(
      "ground_plane",
      [](py::handle height) {
        ShapeInstance i;
        i.shape = std::make_shared<HalfSpaceShape>(Shape::Vec3{0.0, 0.0, 1.0},
                                                   toReal(height, "ground_plane: height"));
        return std::make_shared<BodyShapes>(makeStaticBody({i}));
      },
      py::arg("height") = 0.0, "a static half-space z <= height");
}

}  // namespace nsdpy
