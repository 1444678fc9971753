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

#include "kernel_helpers.hpp"

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

/// A ContactManager's ContactSet as NumPy arrays (copies).
py::dict contactArrays(const ContactManager& c) {
  const ContactSet& cs = c.contacts();
  const auto n = static_cast<py::ssize_t>(cs.size());
  py::array_t<std::int32_t> a(n), b(n);
  py::array_t<bool> active(n);
  for (py::ssize_t k = 0; k < n; ++k) {
    a.mutable_at(k) = cs.bodyA[static_cast<std::size_t>(k)];
    b.mutable_at(k) = cs.bodyB[static_cast<std::size_t>(k)];
    active.mutable_at(k) = cs.active[static_cast<std::size_t>(k)] != 0;
  }
  std::vector<double> normal(3 * cs.size());
  for (std::size_t k = 0; k < cs.size(); ++k)
    for (std::size_t i = 0; i < 3; ++i) normal[3 * k + i] = cs.frame[9 * k + i];
  py::dict d;
  d["body_a"] = a;
  d["body_b"] = b;
  d["gap"] = toNumpy(cs.gap.data(), {n});
  d["active"] = active;
  d["impulse"] = toNumpy(cs.impulse.data(), {n, 3});
  d["normal"] = toNumpy(normal.data(), {n, 3});
  d["rolling"] = toNumpy(cs.rolling.data(), {n});
  d["rolling_impulse"] = toNumpy(cs.rollingImpulse.data(), {n, 2});
  d["rolling_velocity"] = toNumpy(cs.rollingVelocity.data(), {n, 2});
  d["active_count"] = cs.activeCount();
  return d;
}

/// TimeSteppingDirectProjection with its integrator, and the solve modes of any problem.
void initProjectionAndModes(py::module_& m) {
  py::class_<MoreauJeanDirectProjectionOSI, MoreauJeanOSI,
             std::shared_ptr<MoreauJeanDirectProjectionOSI>>(
      m, "MoreauJeanDirectProjectionOSI", "MoreauJeanOSI for TimeSteppingDirectProjection")
      .def(py::init([](py::handle theta) {
             return std::make_shared<MoreauJeanDirectProjectionOSI>(
                 toReal(theta, "MoreauJeanDirectProjectionOSI: theta"));
           }),
           py::arg("theta") = 0.5)
      .def("activateThreshold", &MoreauJeanDirectProjectionOSI::activateThreshold)
      .def("setActivateThreshold", &MoreauJeanDirectProjectionOSI::setActivateThreshold)
      .def("deactivateVelocityThreshold",
           &MoreauJeanDirectProjectionOSI::deactivateVelocityThreshold)
      .def("setDeactivateVelocityThreshold",
           &MoreauJeanDirectProjectionOSI::setDeactivateVelocityThreshold);
  py::class_<TimeSteppingDirectProjection, TimeStepping,
             std::shared_ptr<TimeSteppingDirectProjection>>(
      m, "TimeSteppingDirectProjection",
      "TimeStepping whose joints and active unilateral rows are projected back onto their "
      "manifold after each step (projection_iterations in the step statistics)")
      .def(py::init([](SP::TimeDiscretisation td, SP::MoreauJeanDirectProjectionOSI osi,
                       SP::OneStepNSProblem problem, py::handle history) {
             if (!td) throw py::type_error("td: expected a TimeDiscretisation, found None");
             if (!osi)
               throw py::type_error("osi: expected a MoreauJeanDirectProjectionOSI, found None");
             if (!problem) throw py::type_error("problem: expected a OneStepNSProblem, found None");
             const auto keep = static_cast<std::size_t>(
                 toInteger(history, "TimeSteppingDirectProjection: statistics_history", 0,
                           kernel_detail::kMaxHistory));
             auto ts = std::make_shared<TimeSteppingDirectProjection>(td, osi, problem);
             ts->setStatisticsHistory(keep);
             return ts;
           }),
           py::arg("td"), py::arg("osi"), py::arg("problem"), py::kw_only(),
           py::arg("statistics_history") = kernel_detail::kDefaultHistory)
      .def("projectionMaxIteration", &TimeSteppingDirectProjection::projectionMaxIteration)
      .def(
          "setProjectionMaxIteration",
          [](TimeSteppingDirectProjection& s, py::handle n) {
            s.setProjectionMaxIteration(
                static_cast<int>(toInteger(n, "setProjectionMaxIteration: n", 0, 1 << 30)));
          },
          py::arg("n"))
      .def("equalityTolerance", &TimeSteppingDirectProjection::equalityTolerance)
      .def(
          "setConstraintTol",
          [](TimeSteppingDirectProjection& s, py::handle tol) {
            const double v = toReal(tol, "setConstraintTol: tol");
            if (!(v > 0.0)) throw py::value_error("setConstraintTol: tol: expected a number > 0");
            s.setConstraintTol(v);
          },
          py::arg("tol"), "tolerance of the equality rows (joints) after a projection")
      .def("unilateralTolerance", &TimeSteppingDirectProjection::unilateralTolerance)
      .def(
          "setConstraintTolUnilateral",
          [](TimeSteppingDirectProjection& s, py::handle tol) {
            const double v = toReal(tol, "setConstraintTolUnilateral: tol");
            if (!(v > 0.0))
              throw py::value_error("setConstraintTolUnilateral: tol: expected a number > 0");
            s.setConstraintTolUnilateral(v);
          },
          py::arg("tol"), "tolerance of the active unilateral rows (limits, contacts)")
      .def("projectionSolver", &TimeSteppingDirectProjection::projectionSolver)
      .def("setProjectionSolver", &TimeSteppingDirectProjection::setProjectionSolver)
      .def("projectionFailures", &TimeSteppingDirectProjection::projectionFailures,
           "steps that ended with a constraint still violated");

  // solve modes and fallback of any problem, on the class of kernel_simulation.cpp
  py::object cls = m.attr("OneStepNSProblem");
  cls.attr("setSolveMode") = py::cpp_function(
      [](OneStepNSProblem& p, const std::string& mode) {
        SolveMode sm = SolveMode::Tolerance;
        if (!parseSolveMode(mode, sm))
          throw py::value_error("setSolveMode: mode: expected 'tolerance' or 'budget', found '" +
                                mode + "'");
        p.setSolveMode(sm);
      },
      py::name("setSolveMode"), py::is_method(cls), py::arg("mode"),
      "'tolerance' (default: a solve short of its tolerance fails the step) or 'budget' "
      "(max_iterations is the step's budget: a solve stopped there is accepted, "
      "above_tolerance in the step statistics)");
  cls.attr("solveMode") = py::cpp_function(
      [](const OneStepNSProblem& p) { return std::string(solveModeName(p.solveMode())); },
      py::name("solveMode"), py::is_method(cls));
  cls.attr("setFallbackSolver") = py::cpp_function(
      [](OneStepNSProblem& p, const std::string& name) {
        if (!name.empty() && !nsd_solver_find(p.numericsKind(), name.c_str()))
          badInput("setFallbackSolver: no solver '" + name + "' for " +
                   nsd_kind_name(p.numericsKind()) + " problems");
        p.setFallbackSolver(name);
      },
      py::name("setFallbackSolver"), py::is_method(cls), py::arg("name"),
      "the solver that finishes a solve short of its tolerance ('': none)");
  cls.attr("setFallbackBound") = py::cpp_function(
      [](OneStepNSProblem& p, py::handle factor, py::handle iterations) {
        p.setFallbackBound(
            toReal(factor, "setFallbackBound: factor"),
            static_cast<int>(toInteger(iterations, "setFallbackBound: iterations", 0, 1 << 30)));
      },
      py::name("setFallbackBound"), py::is_method(cls), py::arg("factor"), py::arg("iterations"),
      "the fallback's time bound (factor x the first solve's time; 0: none) and iterations "
      "(0: max_iterations)");
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
      .def_static(
          "fromImage",
          [](py::handle path, py::handle dx, py::object dy, py::handle heightScale,
             py::handle zOffset) {
            const double sx = toReal(dx, "HeightfieldShape.fromImage: dx");
            const double sy = dy.is_none() ? sx : toReal(dy, "HeightfieldShape.fromImage: dy");
            return std::const_pointer_cast<HeightfieldShape>(HeightfieldShape::fromImage(
                toPath(path, "HeightfieldShape.fromImage: path"), sx, sy,
                toReal(heightScale, "HeightfieldShape.fromImage: height_scale"),
                toReal(zOffset, "HeightfieldShape.fromImage: z_offset")));
          },
          py::arg("path"), py::arg("dx"), py::arg("dy") = py::none(), py::arg("height_scale"),
          py::arg("z_offset") = 0.0,
          "the grey levels of a PNG image (8 or 16 bits; libpng): pixel (x, row) of a W x H "
          "image at grid (x, H - 1 - row), height z_offset + height_scale * level / full level")
      .def("heights",
           [](const HeightfieldShape& h) {
             return toNumpy(h.heights().data(),
                            {static_cast<py::ssize_t>(h.ny()), static_cast<py::ssize_t>(h.nx())});
           })
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
               badInput("solver: no GMP solver '" + solver + "' (newton, nsgs, admm)");
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
      .def(py::init([](py::handle joint) {
             return std::make_shared<JointAxisR>(jointOf(joint, "JointAxisR: joint"));
           }),
           py::arg("joint"),
           "the coordinate reader of the joint's free axis (coordinate(q)); motors and limits "
           "are made by JointAxisR.motor / lowerLimit / upperLimit")
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
      .def(py::init([](py::handle margin, bool swept, py::object breaking, py::handle threads) {
             ContactManagerOptions o;
             o.detection.margin = toReal(margin, "ContactManager: margin");
             if (!(o.detection.margin >= 0.0))
               throw py::value_error("ContactManager: margin: expected a distance >= 0");
             o.detection.breakingDistance =
                 breaking.is_none() ? o.detection.margin
                                    : toReal(breaking, "ContactManager: breaking_distance");
             if (!(o.detection.breakingDistance >= o.detection.margin))
               throw py::value_error(
                   "ContactManager: breaking_distance: expected a distance >= margin (" +
                   std::to_string(o.detection.margin) + "), found " +
                   std::to_string(o.detection.breakingDistance));
             o.sweptDetection = swept;
             o.detection.threads =
                 static_cast<int>(toInteger(threads, "ContactManager: threads", 0, 1 << 16));
             return std::make_shared<ContactManager>(o);
           }),
           py::arg("margin") = 0.0, py::kw_only(), py::arg("swept_detection") = false,
           py::arg("breaking_distance") = py::none(), py::arg("threads") = 0,
           "margin: detection envelope (0: 2 % of the smallest shape); swept_detection: "
           "approaching contacts detected before they penetrate; breaking_distance (>= margin, "
           "default margin); threads of the detection (0: OpenMP default)")
      .def(
          "setThreads",
          [](ContactManager& c, py::handle n) {
            c.setThreads(static_cast<int>(toInteger(n, "setThreads: threads", 0, 1 << 16)));
          },
          py::arg("threads"))
      .def("contacts", &contactArrays,
           "the contacts of the last step as arrays: body_a, body_b (indices in the order of "
           "addBody), gap (m, < 0 penetrating), active (in the step's problem), impulse (n, 3: "
           "normal, t1, t2), normal (n, 3, from B to A), rolling (n: the material's rolling "
           "length, m), "
           "rolling_impulse (n, 2: the rolling moment impulses about t1, t2, N m s; "
           "RollingFrictionContact), rolling_velocity (n, 2: (omega_A - omega_B) on t1, t2), "
           "active_count")
      .def(
          "setDefaultMaterial",
          [](ContactManager& c, py::handle mu, py::handle e, py::handle rolling) {
            c.setDefaultMaterial({toReal(mu, "setDefaultMaterial: mu"),
                                  toReal(e, "setDefaultMaterial: restitution"),
                                  toReal(rolling, "setDefaultMaterial: rolling")});
          },
          py::arg("mu"), py::arg("restitution") = 0.0, py::arg("rolling") = 0.0,
          "rolling: the rolling resistance length (m, >= 0; RollingFrictionContact)")
      .def(
          "setMaterial",
          [](ContactManager& c, int a, int b, py::handle mu, py::handle e, py::handle rolling) {
            c.setMaterial(a, b,
                          {toReal(mu, "setMaterial: mu"), toReal(e, "setMaterial: restitution"),
                           toReal(rolling, "setMaterial: rolling")});
          },
          py::arg("groupA"), py::arg("groupB"), py::arg("mu"), py::arg("restitution") = 0.0,
          py::arg("rolling") = 0.0)
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
      "a ContactManager: its contacts in the problem (FrictionContact(3), RollingFrictionContact "
      "or GenericMechanical), "
      "before model.initialize(sim)");
}

}  // namespace

void initMechanism(py::module_& m) {
  initTerrain(m);
  initProblemAndAxes(m);
  initProjectionAndModes(m);
  initContactManager(m);
}

}  // namespace nsdpy
