// Terrains and mechanisms in contact (issue 26): TriangleMeshShape and HeightfieldShape
// (static shapes, as HalfSpaceShape: make_static_body, SceneEngine.add_static), the
// GenericMechanical problem (joints, limits, motors and detected contacts in one problem),
// JointAxisR (motors, limits, a torque callable: a PD controller in Python) and the
// ContactManager that puts a TimeStepping's detected contacts in the problem.
#include <nsdyn/ContactManager.hpp>
#include <nsdyn/Error.hpp>
#include <nsdyn/GenericMechanical.hpp>
#include <nsdyn/HeightfieldShape.hpp>
#include <nsdyn/JointAxisR.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/TriangleMeshShape.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "bindings.hpp"

namespace nsdpy {
namespace {

using namespace nsdyn;

std::string typeName(py::handle obj) {
  return py::str(py::type::handle_of(obj).attr("__name__"));
}

/// A joint with a free axis (PivotJointR, PrismaticJointR; the Kernel refuses the others).
SP::NewtonEulerJointR jointOf(py::handle obj, const std::string& arg) {
  if (!py::isinstance<NewtonEulerJointR>(obj))
    throw py::type_error(arg + ": expected a joint (PivotJointR, PrismaticJointR), found " +
                         typeName(obj));
  return obj.cast<SP::NewtonEulerJointR>();
}

/// A rate target: a number or a callable t -> number (called with the GIL).
JointAxisR::TargetFunction targetOf(py::handle obj, const std::string& arg) {
  if (PyCallable_Check(obj.ptr())) {
    py::function f = py::reinterpret_borrow<py::function>(obj);
    return [f, arg](double t) {
      py::gil_scoped_acquire gil;
      return toReal(f(t), arg + " (value returned by the callable)");
    };
  }
  const double v = toReal(obj, arg);
  return [v](double) { return v; };
}

/// An (n, k) array of reals.
Array rowsOf(py::handle obj, const std::string& arg, py::ssize_t k, bool allowNonFinite) {
  Array a = readArray(obj, arg, allowNonFinite);
  if (a.shape.size() != 2 || a.shape[1] != k)
    throw py::value_error(arg + ": expected an array of shape (n, " + std::to_string(k) + ")");
  return a;
}

void initTerrain(py::module_& m) {
  py::class_<TerrainShape, Shape, std::shared_ptr<TerrainShape>>(
      m, "TerrainShape", "a static terrain of triangles (TriangleMeshShape, HeightfieldShape)")
      .def("vertexCount", &TerrainShape::vertexCount)
      .def("triangleCount", &TerrainShape::triangleCount)
      .def("faceNormal",
           [](const TerrainShape& s, std::int32_t t) {
             if (t < 0 || static_cast<std::size_t>(t) >= s.triangleCount())
               throw py::index_error("faceNormal: triangle index out of range");
             const Shape::Vec3 n = s.faceNormal(t);
             return toNumpy(n.data(), {3});
           })
      .def("vertices", [](const TerrainShape& s) {
        std::vector<double> v;
        for (std::size_t k = 0; k < s.vertexCount(); ++k) {
          const Shape::Vec3 p = s.vertex(static_cast<std::int32_t>(k));
          v.insert(v.end(), p.begin(), p.end());
        }
        return toNumpy(v.data(), {static_cast<py::ssize_t>(s.vertexCount()), 3});
      });
  py::class_<TriangleMeshShape, TerrainShape, std::shared_ptr<TriangleMeshShape>>(
      m, "TriangleMeshShape",
      "a static triangle mesh: vertices (n, 3), triangles (m, 3) of vertex indices, "
      "counter-clockwise seen from outside")
      .def(py::init([](py::handle vertices, py::handle triangles, const std::string& name) {
             const Array v = rowsOf(vertices, "TriangleMeshShape: vertices", 3, true);
             const Array t = rowsOf(triangles, "TriangleMeshShape: triangles", 3, false);
             std::vector<Shape::Vec3> points;
             for (std::size_t k = 0; k + 2 < v.values.size(); k += 3)
               points.push_back({v.values[k], v.values[k + 1], v.values[k + 2]});
             std::vector<TerrainShape::Triangle> tris;
             for (std::size_t k = 0; k + 2 < t.values.size(); k += 3) {
               TerrainShape::Triangle tri{};
               for (std::size_t c = 0; c < 3; ++c) {
                 const double x = t.values[k + c];
                 if (x != std::floor(x) || x < -1e9 || x > 1e9)
                   throw py::value_error(
                       "TriangleMeshShape: triangles: expected integer vertex "
                       "indices, found " +
                       std::to_string(x) + " in triangle " + std::to_string(k / 3));
                 tri[c] = static_cast<std::int32_t>(x);
               }
               tris.push_back(tri);
             }
             return std::make_shared<TriangleMeshShape>(std::move(points), std::move(tris), name);
           }),
           py::arg("vertices"), py::arg("triangles"), py::arg("name") = "TriangleMeshShape")
      .def_static(
          "fromFile",
          [](py::handle path, py::handle scale) {
            return std::const_pointer_cast<TriangleMeshShape>(
                TriangleMeshShape::fromFile(toPath(path, "TriangleMeshShape.fromFile: path"),
                                            toReal(scale, "TriangleMeshShape.fromFile: scale")));
          },
          py::arg("path"), py::arg("scale") = 1.0,
          "an OBJ or STL file (the formats of assimp), coordinates times scale");
  py::class_<HeightfieldShape, TerrainShape, std::shared_ptr<HeightfieldShape>>(
      m, "HeightfieldShape",
      "a static heightfield: heights[j, i] at (x0 + i dx, y0 + j dy), the grid centred on the "
      "shape origin")
      .def(py::init([](py::handle heights, py::handle dx, py::object dy, const std::string& name) {
             // NaN allowed here so that the Kernel names the hole ("a heightfield has no hole")
             const Array a = readArray(heights, "HeightfieldShape: heights", true);
             if (a.shape.size() != 2)
               throw py::value_error(
                   "HeightfieldShape: heights: expected a 2-D array (ny, nx), found " +
                   std::to_string(a.shape.size()) + " dimension(s)");
             const double sx = toReal(dx, "HeightfieldShape: dx");
             const double sy = dy.is_none() ? sx : toReal(dy, "HeightfieldShape: dy");
             return std::make_shared<HeightfieldShape>(static_cast<std::size_t>(a.shape[1]),
                                                       static_cast<std::size_t>(a.shape[0]), sx, sy,
                                                       a.values, name);
           }),
           py::arg("heights"), py::arg("dx"), py::arg("dy") = py::none(),
           py::arg("name") = "HeightfieldShape")
      .def("nx", &HeightfieldShape::nx)
      .def("ny", &HeightfieldShape::ny)
      .def("dx", &HeightfieldShape::dx)
      .def("dy", &HeightfieldShape::dy);
}

void initProblemAndAxes(py::module_& m) {
  py::class_<GenericMechanical, OneStepNSProblem, std::shared_ptr<GenericMechanical>>(
      m, "GenericMechanical",
      "joints, limits, motors, contacts and a ContactManager's contacts in one problem")
      .def(py::init([](const std::string& solver) {
             if (!nsd_solver_find(NSD_KIND_GMP, solver.c_str()))
               badInput("solver: no GMP solver '" + solver + "' (newton, nsgs)");
             return std::make_shared<GenericMechanical>(solver);
           }),
           py::arg("solver") = "newton")
      .def(
          "reaction",
          [](const GenericMechanical& p, const Interaction& inter) {
            return toNumpy(p.reaction(inter));
          },
          py::arg("inter"), "lambda / h of the interaction over the last step");

  py::class_<JointAxisR, NewtonEulerR, std::shared_ptr<JointAxisR>>(
      m, "JointAxisR", "the free axis of a PivotJointR (angle) or PrismaticJointR (displacement)")
      .def_static(
          "motor",
          [](py::handle joint, py::handle target, py::handle maxForce) {
            return JointAxisR::motor(jointOf(joint, "JointAxisR.motor: joint"),
                                     targetOf(target, "JointAxisR.motor: target"),
                                     toReal(maxForce, "JointAxisR.motor: maxForce"));
          },
          py::arg("joint"), py::arg("target"), py::arg("maxForce"),
          "a velocity motor (an Interaction; GenericMechanical only): target a number or a "
          "callable t -> rate, the impulse within +-maxForce h")
      .def_static(
          "lowerLimit",
          [](py::handle joint, py::handle lower, py::handle e) {
            return JointAxisR::lowerLimit(jointOf(joint, "JointAxisR.lowerLimit: joint"),
                                          toReal(lower, "JointAxisR.lowerLimit: lower"),
                                          toReal(e, "JointAxisR.lowerLimit: e"));
          },
          py::arg("joint"), py::arg("lower"), py::arg("e") = 0.0)
      .def_static(
          "upperLimit",
          [](py::handle joint, py::handle upper, py::handle e) {
            return JointAxisR::upperLimit(jointOf(joint, "JointAxisR.upperLimit: joint"),
                                          toReal(upper, "JointAxisR.upperLimit: upper"),
                                          toReal(e, "JointAxisR.upperLimit: e"));
          },
          py::arg("joint"), py::arg("upper"), py::arg("e") = 0.0)
      .def_static(
          "applyTorque",
          [](py::handle joint, py::handle torque) {
            if (!PyCallable_Check(torque.ptr()))
              throw py::type_error(
                  "JointAxisR.applyTorque: torque: expected a callable (t, angle, rate) -> "
                  "torque, found " +
                  typeName(torque));
            py::function f = py::reinterpret_borrow<py::function>(torque);
            JointAxisR::applyTorque(
                jointOf(joint, "JointAxisR.applyTorque: joint"),
                [f](double t, double angle, double rate) {
                  py::gil_scoped_acquire gil;
                  return toReal(f(t, angle, rate),
                                "JointAxisR.applyTorque: torque (value returned by the callable)");
                });
          },
          py::arg("joint"), py::arg("torque"),
          "a hinge torque tau = torque(t, angle, rate) on its bodies (their body moment)")
      .def_static("work", &JointAxisR::work, py::arg("inter"),
                  "lambda (rate_k + rate_k+1) / 2 of a motor or limit over the last step")
      .def("coordinate",
           [](const JointAxisR& a, py::handle q) {
             return a.coordinate(toSiconosVector(q, "JointAxisR.coordinate: q"));
           })
      .def("isMotor", &JointAxisR::isMotor)
      .def("maxForce", &JointAxisR::maxForce)
      .def("targetVelocity", &JointAxisR::targetVelocity, py::arg("t"));
}

void initContactManager(py::module_& m) {
  py::class_<ContactManager, std::shared_ptr<ContactManager>>(
      m, "ContactManager",
      "detected contacts of bodies with shapes in a TimeStepping (sim.insertInteractionManager)")
      .def(py::init([](py::handle margin) {
             ContactManagerOptions o;
             o.detection.margin = toReal(margin, "ContactManager: margin");
             if (!(o.detection.margin >= 0.0))
               throw py::value_error("ContactManager: margin: expected a distance >= 0");
             o.detection.breakingDistance = o.detection.margin;
             return std::make_shared<ContactManager>(o);
           }),
           py::arg("margin") = 0.0)
      .def(
          "setDefaultMaterial",
          [](ContactManager& c, py::handle mu, py::handle e) {
            c.setDefaultMaterial({toReal(mu, "setDefaultMaterial: mu"),
                                  toReal(e, "setDefaultMaterial: restitution")});
          },
          py::arg("mu"), py::arg("restitution") = 0.0)
      .def(
          "setMaterial",
          [](ContactManager& c, int a, int b, py::handle mu, py::handle e) {
            c.setMaterial(a, b,
                          {toReal(mu, "setMaterial: mu"), toReal(e, "setMaterial: restitution")});
          },
          py::arg("groupA"), py::arg("groupB"), py::arg("mu"), py::arg("restitution") = 0.0)
      .def(
          "addBody",
          [](ContactManager& c, const std::shared_ptr<BodyShapes>& body, py::object nsds,
             int group) {
            if (!body) throw py::type_error("addBody: body: expected a Body, found None");
            if (body->isStatic()) return c.addBody(*body, group);
            if (nsds.is_none())
              throw py::value_error(
                  "addBody: nsds: expected the model's NonSmoothDynamicalSystem for a dynamic "
                  "body, found None");
            return c.addBody(*nsds.cast<SP::NonSmoothDynamicalSystem>(), *body, group);
          },
          py::arg("body"), py::arg("nsds") = py::none(), py::arg("group") = 0,
          "a Body (make_body: also inserted into nsds; make_static_body: not in the model)")
      .def("statistics", [](const ContactManager& c) {
        py::dict d;
        d["contacts"] = c.statistics().contacts;
        d["active"] = c.statistics().active;
        d["contactWork"] = c.statistics().contactWork;
        return d;
      });
  // TimeStepping.insertInteractionManager, on the class of kernel.cpp
  py::object ts = m.attr("TimeStepping");
  ts.attr("insertInteractionManager") = py::cpp_function(
      [](TimeStepping& sim, const std::shared_ptr<ContactManager>& manager) {
        if (!manager) throw py::type_error("insertInteractionManager: expected a ContactManager");
        sim.insertInteractionManager(manager);
      },
      py::name("insertInteractionManager"), py::is_method(ts), py::arg("manager"),
      "a ContactManager: its contacts in the problem (FrictionContact(3) or GenericMechanical), "
      "before model.initialize(sim)");
}

}  // namespace

void initMechanism(py::module_& m) {
  initTerrain(m);
  initProblemAndAxes(m);
  initContactManager(m);
}

}  // namespace nsdpy
