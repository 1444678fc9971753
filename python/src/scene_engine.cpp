// nsdyn.SceneEngine: the array-based rigid-body scene engine (nsdyn/SceneEngine.hpp) —
// bodies in a struct of arrays, gravity owned by the scene, contacts in arrays, one
// Moreau-Jean step per step(). A thin layer: keywords to SceneEngineOptions, NumPy copies of
// the store's and the contacts' arrays, checked setters, run(steps) looping in C++.
#include <nsdyn/nsd_options.h>
#include <nsdyn/nsd_solvers.h>
#include <nsdyn/Error.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/SceneEngine.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <sstream>

#include "bindings.hpp"

namespace nsdpy {
namespace {

using namespace nsdyn;

std::string text(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

std::string typeName(py::handle obj) {
  return py::str(py::type::handle_of(obj).attr("__name__"));
}

/// ValueError "SceneEngine: KEYWORD: expected WHAT, found VALUE" unless @p ok.
void require(bool ok, const std::string& keyword, const std::string& what, double value) {
  if (!ok)
    throw py::value_error("SceneEngine: " + keyword + ": expected " + what + ", found " +
                          text(value));
}

/// A real number from Python: TypeError / ValueError (NaN, infinity) naming @p arg.
double scalar(py::handle obj, const std::string& arg) {
  return toVector(obj, arg, 1)[0];
}

/// A solver option of the option table ("a__b" is "a.b"), set through nsd_option_set.
void setSolverOption(NsdSolverOptions& o, std::string name, py::handle value) {
  for (std::size_t k; (k = name.find("__")) != std::string::npos;) name.replace(k, 2, ".");
  std::string s;
  if (py::isinstance<py::bool_>(value)) {
    s = value.cast<bool>() ? "1" : "0";
  } else if (py::isinstance<py::int_>(value)) {
    s = std::to_string(value.cast<long long>());
  } else if (py::isinstance<py::float_>(value)) {
    s = text(value.cast<double>());
  } else if (py::isinstance<py::str>(value)) {
    s = value.cast<std::string>();
  } else {
    throw py::type_error("SceneEngine: option " + name +
                         ": expected a number, a bool or a string, found " + typeName(value));
  }
  NsdReport rep{};
  if (nsd_option_set(&o, name.c_str(), s.c_str(), &rep) != NSD_OK)
    badInput("SceneEngine: " + std::string(rep.message));
}

/// The engine's options from the constructor's keywords (each named in its refusal).
SceneEngineOptions engineOptions(double h, double theta, py::handle gravity, double t0,
                                 const std::string& solver, py::object tolerance,
                                 py::object maxIterations, int threads, bool warmStart,
                                 py::object margin, double relativeMargin, py::object breaking,
                                 double relativeActivation, double overlapWarning, bool swept,
                                 double stabilisation, double maxRecovery, bool gyroscopic,
                                 const std::string& mode, const py::kwargs& options) {
  SceneEngineOptions o;
  require(std::isfinite(h) && h > 0.0, "h", "a finite time step > 0", h);
  require(theta >= 0.0 && theta <= 1.0, "theta", "a number in [0, 1]", theta);
  require(std::isfinite(t0), "t0", "a finite time", t0);
  o.h = h;
  o.theta = theta;
  o.t0 = t0;
  o.gravity = toVec3(gravity, "gravity");
  o.solver = solver;
  require(threads >= 0, "threads", "a thread count >= 0 (0: the OpenMP default)", threads);
  ContactManagerOptions& c = o.contacts;
  c.detection.threads = threads;
  c.warmStart = warmStart;
  if (!margin.is_none()) {
    const double m = scalar(margin, "margin");
    require(std::isfinite(m) && m >= 0.0, "margin", "a finite distance >= 0", m);
    c.detection.margin = m;
  }
  c.detection.breakingDistance = c.detection.margin;
  if (!breaking.is_none()) {
    const double b = scalar(breaking, "breaking_distance");
    require(std::isfinite(b) && b >= c.detection.margin, "breaking_distance",
            "a finite distance >= margin (" + text(c.detection.margin) + ")", b);
    c.detection.breakingDistance = b;
  }
  require(std::isfinite(relativeMargin) && relativeMargin >= 0.0, "relative_margin",
          "a finite number >= 0", relativeMargin);
  c.relativeMargin = relativeMargin;
  require(std::isfinite(relativeActivation) && relativeActivation >= 0.0, "relative_activation",
          "a finite number >= 0", relativeActivation);
  c.relativeActivation = relativeActivation;
  require(std::isfinite(overlapWarning) && overlapWarning >= 0.0, "overlap_warning_fraction",
          "a finite number >= 0", overlapWarning);
  c.overlapWarningFraction = overlapWarning;
  c.sweptDetection = swept;
  require(stabilisation >= 0.0 && stabilisation <= 1.0, "stabilisation", "a factor in [0, 1]",
          stabilisation);
  c.stabilisationFactor = stabilisation;
  require(std::isfinite(maxRecovery) && maxRecovery > 0.0, "max_recovery_speed",
          "a finite speed > 0", maxRecovery);
  c.maxRecoverySpeed = maxRecovery;
  o.gyroscopic = gyroscopic;
  if (!parseSolveMode(mode, o.solveMode))
    throw py::value_error("SceneEngine: mode: expected 'tolerance' or 'budget', found '" + mode +
                          "'");
  // solver options: the table's defaults, then tolerance, max_iterations and **options
  nsd_solver_options_default(&o.solverOptions);
  if (!tolerance.is_none()) setSolverOption(o.solverOptions, "tolerance", tolerance);
  if (!maxIterations.is_none()) setSolverOption(o.solverOptions, "max_iterations", maxIterations);
  for (auto item : options) {
    const std::string name = py::str(item.first);
    // the overlap recovery (doc/python.md): recovery=True/False, recovery_slop,
    // recovery_relative_slop, recovery_max_speed, recovery_slops_per_step, recovery_iterations,
    // recovery_tolerance
    if (name.rfind("recovery", 0) == 0) {
      OverlapRecoveryOptions& r = o.recovery;
      const auto real = [&]() { return toReal(item.second, "SceneEngine: " + name); };
      if (name == "recovery")
        r.enabled = py::cast<bool>(item.second);
      else if (name == "recovery_slop")
        r.slop = real();
      else if (name == "recovery_relative_slop")
        r.relativeSlop = real();
      else if (name == "recovery_max_speed")
        r.maxSpeed = real();
      else if (name == "recovery_slops_per_step")
        r.slopsPerStep = real();
      else if (name == "recovery_tolerance")
        r.tolerance = real();
      else if (name == "recovery_iterations")
        r.iterations =
            static_cast<int>(toInteger(item.second, "SceneEngine: " + name, INT_MIN, INT_MAX));
      else
        throw py::type_error("SceneEngine: unknown keyword '" + name +
                             "' (recovery, recovery_slop, recovery_relative_slop, "
                             "recovery_max_speed, recovery_slops_per_step, recovery_iterations, "
                             "recovery_tolerance)");
      continue;
    }
    if (name == "speculative_contacts") {  // SceneEngineOptions::speculativeContacts
      o.speculativeContacts = py::cast<bool>(item.second);
      continue;
    }
    if (name == "keep_loaded_contacts") {  // ContactManagerOptions::keepLoadedContacts
      if (item.second.is_none())
        o.contacts.keepLoadedContacts.reset();  // the library default (off)
      else
        o.contacts.keepLoadedContacts = py::cast<bool>(item.second);
      continue;
    }
    if (name == "warm_start" || name == "threads")
      throw py::type_error("SceneEngine: " + name +
                           " is a keyword of SceneEngine itself (given twice)");
    setSolverOption(o.solverOptions, name, item.second);
  }
  return o;
}

/// A body index from Python: IndexError naming the value and the body count.
std::size_t bodyIndex(const SceneEngine& e, long long b, const std::string& what) {
  const std::size_t n = e.bodies().size();
  if (b < 0 || static_cast<unsigned long long>(b) >= n)
    throw py::index_error(what + ": body index " + std::to_string(b) +
                          " out of range for a scene of " + std::to_string(n) +
                          " bodies (expected 0 <= index < " + std::to_string(n) + ")");
  return static_cast<std::size_t>(b);
}

void refuseAfterStart(const SceneEngine& e, const std::string& what) {
  if (e.initialized())
    throw Error("SceneEngine." + what, "bodies added before the first step (or initialize())",
                "a body added after it");
}

/// An (n, w) array of the store (n bodies), checked: shape, dtype, finite values.
std::vector<double> bodyRows(const SceneEngine& e, py::handle obj, const std::string& arg,
                             py::ssize_t w) {
  Array a = readArray(obj, arg);
  const auto n = static_cast<py::ssize_t>(e.bodies().size());
  if (a.shape.size() != 2 || a.shape[0] != n || a.shape[1] != w) {
    std::string found = "(";
    for (std::size_t i = 0; i < a.shape.size(); ++i)
      found += (i ? ", " : "") + std::to_string(a.shape[i]);
    found += a.shape.size() == 1 ? ",)" : ")";
    throw py::value_error(arg + ": expected shape (" + std::to_string(n) + ", " +
                          std::to_string(w) + ") (one row per body), found shape " + found);
  }
  return std::move(a.values);
}

void setQ(SceneEngine& e, py::handle obj) {
  std::vector<double> q = bodyRows(e, obj, "q", 7);
  const std::size_t n = e.bodies().size();
  for (std::size_t b = 0; b < n; ++b) {
    const double* r = &q[7 * b + 3];
    const double norm = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    if (!(std::fabs(norm - 1.0) <= 1e-8))
      throw py::value_error(
          "q: expected unit quaternions in columns 3:7 (|norm - 1| <= 1e-8), found norm " +
          text(norm) + " in row " + std::to_string(b) + " (" + e.bodies().describe(b) + ")");
  }
  std::copy(q.begin(), q.end(), e.bodies().q.begin());  // in place: the store keeps its arrays
}

void setV(SceneEngine& e, py::handle obj) {
  std::vector<double> v = bodyRows(e, obj, "v", 6);
  const BodyStore& s = e.bodies();
  for (std::size_t b = 0; b < s.size(); ++b) {
    if (!s.isStatic[b]) continue;
    for (std::size_t k = 0; k < 6; ++k)
      if (v[6 * b + k] != 0.0)
        throw py::value_error("v: expected a zero row for the static " + s.describe(b) +
                              ", found " + text(v[6 * b + k]) + " in row " + std::to_string(b) +
                              ", column " + std::to_string(k));
  }
  std::copy(v.begin(), v.end(), e.bodies().v.begin());
}

template <class T>
py::array_t<T> copyOf(const std::vector<T>& v, std::vector<py::ssize_t> shape) {
  py::array_t<T> out(shape);
  if (out.size() > 0) std::copy(v.begin(), v.begin() + out.size(), out.mutable_data());
  return out;
}

py::array_t<bool> flags(const std::vector<std::uint8_t>& v) {
  py::array_t<bool> out(static_cast<py::ssize_t>(v.size()));
  bool* d = out.mutable_data();
  for (std::size_t i = 0; i < v.size(); ++i) d[i] = v[i] != 0;
  return out;
}

py::dict reportDict(const SceneEngine::StepReport& r) {
  py::dict d;
  d["step"] = r.step;
  d["time"] = r.time;
  d["contacts"] = r.contacts;
  d["active"] = r.active;
  d["warm_started"] = r.warmStarted;
  d["stabilised"] = r.stabilised;
  d["iterations"] = r.solver.iterations;
  d["residual"] = r.solver.residual;
  d["drift_jumps"] = r.solver.drift_jumps;
  // the solver's status; accepted: the step's verdict (budget mode accepts a solve stopped at
  // its budget above tolerance: above_tolerance)
  d["status"] = std::string(nsd_status_name(r.aboveTolerance ? NSD_MAX_ITERATIONS : r.status));
  d["converged"] = r.status == NSD_OK && !r.aboveTolerance;
  d["accepted"] = r.status == NSD_OK;
  d["above_tolerance"] = r.aboveTolerance;
  d["message"] = std::string(r.solver.message);
  d["cold_restart"] = r.coldRestart;
  d["kinetic_energy"] = r.kineticEnergy;
  d["potential_energy"] = r.potentialEnergy;
  d["contact_work"] = r.contactWork;
  d["max_penetration"] = r.maxPenetration;
  d["speculative"] = r.speculative;
  d["recovered"] = r.recovered;
  d["recovery_iterations"] = r.recoveryIterations;
  d["detect_seconds"] = r.detectSeconds;
  d["contact_seconds"] = r.contactSeconds;
  d["free_seconds"] = r.freeSeconds;
  d["solve_seconds"] = r.solveSeconds;
  d["update_seconds"] = r.updateSeconds;
  d["total_seconds"] = r.totalSeconds;
  return d;
}

py::dict contactDict(const SceneEngine& e) {
  const SceneContacts& c = e.contacts();
  const auto n = static_cast<py::ssize_t>(c.size());
  py::dict d;
  d["key"] = copyOf(c.key, {n});
  d["body_a"] = copyOf(c.bodyA, {n});
  d["body_b"] = copyOf(c.bodyB, {n});
  d["point_a"] = toNumpy(c.pointA.data(), {n, 3});
  d["point_b"] = toNumpy(c.pointB.data(), {n, 3});
  d["frame"] = toNumpy(c.frame.data(), {n, 3, 3});
  d["arm_a"] = toNumpy(c.armA.data(), {n, 3});
  d["arm_b"] = toNumpy(c.armB.data(), {n, 3});
  d["gap"] = toNumpy(c.gap.data(), {n});
  d["mu"] = toNumpy(c.mu.data(), {n});
  d["restitution"] = toNumpy(c.restitution.data(), {n});
  d["bias"] = toNumpy(c.bias.data(), {n});
  d["velocity_start"] = toNumpy(c.velocityStart.data(), {n, 3});
  d["velocity"] = toNumpy(c.velocity.data(), {n, 3});
  d["impulse"] = toNumpy(c.impulse.data(), {n, 3});
  d["active"] = flags(c.active);
  d["warm"] = flags(c.warm);
  return d;
}

}  // namespace

void initSceneEngine(py::module_& m) {
  py::class_<SceneEngine, std::shared_ptr<SceneEngine>>(
      m, "SceneEngine",
      "rigid bodies in arrays, stepped by Moreau-Jean (nsdyn::SceneEngine): gravity owned by the "
      "scene, "
      "contacts detected every step and kept in arrays, the friction-contact problem solved by "
      "nsgs "
      "(body-velocity Gauss-Seidel), apgd (on the operator) or any FC3D solver (W assembled)")
      .def(
          py::init([](py::handle h, py::handle theta, py::handle gravity, py::handle t0,
                      py::handle solver, py::object tolerance, py::object maxIterations,
                      py::handle threads, bool warmStart, py::object margin,
                      py::handle relativeMargin, py::object breaking, py::handle relativeActivation,
                      py::handle overlapWarning, bool swept, py::handle stabilisation,
                      py::handle maxRecovery, bool gyroscopic, py::handle muArg,
                      py::handle restitutionArg, py::handle mode, const py::kwargs& options) {
            // each keyword read by name: a wrong type is a TypeError naming it and its value
            auto real = [](py::handle v, const char* name) {
              return toReal(v, std::string("SceneEngine: ") + name);
            };
            const SceneEngineOptions o = engineOptions(
                real(h, "h"), real(theta, "theta"), gravity, real(t0, "t0"),
                toText(solver, "SceneEngine: solver"), tolerance, maxIterations,
                static_cast<int>(toInteger(threads, "SceneEngine: threads", INT_MIN, INT_MAX)),
                warmStart, margin, real(relativeMargin, "relative_margin"), breaking,
                real(relativeActivation, "relative_activation"),
                real(overlapWarning, "overlap_warning_fraction"), swept,
                real(stabilisation, "stabilisation"), real(maxRecovery, "max_recovery_speed"),
                gyroscopic, toText(mode, "SceneEngine: mode"), options);
            const double mu = real(muArg, "mu"), restitution = real(restitutionArg, "restitution");
            std::shared_ptr<SceneEngine> e;
            try {
              e = std::make_shared<SceneEngine>(o);  // its own checks: the solver name among others
            } catch (const Error& err) {
              throw py::value_error(err.what());
            }
            try {
              e->setDefaultMaterial({mu, restitution});
            } catch (const Error& err) {
              throw py::value_error(std::string(err.what()) + " (keywords mu, restitution)");
            }
            return e;
          }),
          py::kw_only(), py::arg("h") = 1e-3, py::arg("theta") = 0.5,
          py::arg("gravity") = py::make_tuple(0.0, 0.0, -9.81), py::arg("t0") = 0.0,
          py::arg("solver") = "nsgs", py::arg("tolerance") = 1e-4,
          py::arg("max_iterations") = py::none(), py::arg("threads") = 0,
          py::arg("warm_start") = true, py::arg("margin") = py::none(),
          py::arg("relative_margin") = 0.02, py::arg("breaking_distance") = py::none(),
          py::arg("relative_activation") = 1e-9, py::arg("overlap_warning_fraction") = 0.05,
          py::arg("swept_detection") = false, py::arg("stabilisation") = 0.0,
          py::arg("max_recovery_speed") = 0.1, py::arg("gyroscopic") = true, py::arg("mu") = 0.5,
          py::arg("restitution") = 0.0, py::arg("mode") = "tolerance",
          "keywords: see doc/python.md (SceneEngine); mode: 'tolerance' or 'budget' (the "
          "solver's max_iterations / time_limit accepted as the step's budget); **options: solver "
          "options of the option "
          "table "
          "(nsgs__local_tolerance=1e-12)")
      // ---- bodies --------------------------------------------------------------------------
      .def(
          "add_body",
          [](SceneEngine& e, py::handle body, py::object density, py::object mass,
             py::object position, py::object orientation, py::object velocity,
             const std::string& name, int group) {
            refuseAfterStart(e, "add_body");
            if (py::isinstance<BodyShapes>(body)) {
              if (!density.is_none() || !mass.is_none() || !position.is_none() ||
                  !orientation.is_none() || !velocity.is_none() || !name.empty())
                throw py::type_error(
                    "add_body: density, mass, position, orientation, velocity and name go with "
                    "shapes, "
                    "not with an nsdyn.Body (it has its own)");
              return e.addBody(body.cast<const BodyShapes&>(), group);
            }
            BodySpec spec;
            spec.name = name.empty() ? "body #" + std::to_string(e.bodies().size()) : name;
            spec.shapes = shapeList(body);
            if (!density.is_none()) spec.density = scalar(density, "density");
            if (!mass.is_none()) spec.mass = scalar(mass, "mass");
            if (density.is_none() && mass.is_none()) spec.density = 1000.0;
            if (!position.is_none()) spec.position = toVec3(position, "position");
            if (!orientation.is_none()) spec.orientation = toQuat(orientation, "orientation");
            if (!velocity.is_none()) {
              const std::vector<double> v = toVector(velocity, "velocity", 6);
              for (std::size_t i = 0; i < 6; ++i) spec.velocity[i] = v[i];
            }
            return e.addBody(spec, group);
          },
          py::arg("body"), py::kw_only(), py::arg("density") = py::none(),
          py::arg("mass") = py::none(), py::arg("position") = py::none(),
          py::arg("orientation") = py::none(), py::arg("velocity") = py::none(),
          py::arg("name") = "", py::arg("group") = 0,
          "a body: an nsdyn.Body (make_body, random_packing, container, ground_plane: static ones "
          "too), or shapes "
          "with density (1000 by default) or mass, position, orientation (w, x, y, z), velocity "
          "(6: linear, then "
          "angular in the body frame); returns its index")
      .def(
          "add_bodies",
          [](SceneEngine& e, py::iterable bodies, int group) {
            refuseAfterStart(e, "add_bodies");
            py::list out;
            for (py::handle b : bodies) {
              if (!py::isinstance<BodyShapes>(b))
                throw py::type_error("bodies: expected nsdyn.Body items, found " + typeName(b));
              out.append(e.addBody(b.cast<const BodyShapes&>(), group));
            }
            return out;
          },
          py::arg("bodies"), py::arg("group") = 0, "nsdyn.Body items; returns their indices")
      .def(
          "add_static",
          [](SceneEngine& e, py::handle shapes, py::handle position, py::handle orientation,
             int group) {
            refuseAfterStart(e, "add_static");
            return e.addStatic(shapeList(shapes), toVec3(position, "position"),
                               toQuat(orientation, "orientation"), group);
          },
          py::arg("shapes"), py::arg("position") = py::make_tuple(0.0, 0.0, 0.0),
          py::arg("orientation") = py::make_tuple(1.0, 0.0, 0.0, 0.0), py::arg("group") = 0,
          "a static body (infinite mass; half-spaces only there); returns its index")
      .def(
          "set_material",
          [](SceneEngine& e, int a, int b, double mu, double restitution) {
            e.setMaterial(a, b, {mu, restitution});
          },
          py::arg("group_a"), py::arg("group_b"), py::arg("mu"), py::arg("restitution") = 0.0)
      .def(
          "set_default_material",
          [](SceneEngine& e, double mu, double restitution) {
            e.setDefaultMaterial({mu, restitution});
          },
          py::arg("mu"), py::arg("restitution") = 0.0)
      .def(
          "material",
          [](const SceneEngine& e, int a, int b) {
            const ContactMaterial c = e.material(a, b);
            return py::make_tuple(c.mu, c.restitution);
          },
          py::arg("group_a"), py::arg("group_b"), "(mu, restitution) of a pair of groups")
      .def(
          "set_force",
          [](SceneEngine& e, py::handle index, py::handle force, py::handle torque) {
            const long long b = toInteger(index, "set_force: body", LLONG_MIN, LLONG_MAX);
            const std::size_t i = bodyIndex(e, b, "set_force");
            e.bodies().setForce(i, toVec3(force, "force"), toVec3(torque, "torque"));
          },
          py::arg("body"), py::arg("force"), py::arg("torque") = py::make_tuple(0.0, 0.0, 0.0),
          "constant applied load of a dynamic body: world force, body-frame torque (added to "
          "gravity)")
      .def(
          "body_name",
          [](const SceneEngine& e, py::handle index) {
            const long long b = toInteger(index, "body_name: body", LLONG_MIN, LLONG_MAX);
            return e.bodies().name(bodyIndex(e, b, "body_name"));
          },
          py::arg("body"))
      // ---- stepping --------------------------------------------------------------------------
      .def("initialize", &SceneEngine::initialize,
           "margins from the shapes, overlap warnings, the detector (done by the first step; no "
           "body can be added "
           "afterwards)")
      .def(
          "step", [](SceneEngine& e) { return reportDict(e.step()); },
          "one time step; its report (a dict: step, time, contacts, active, iterations, residual, "
          "status, energies, "
          "contact_work, max_penetration, seconds of each phase)")
      .def(
          "run",
          [](SceneEngine& e, py::handle count) {
            const long long steps = toInteger(count, "SceneEngine.run: steps", 0, LLONG_MAX);
            for (long long k = 0; k < steps; ++k) {
              e.step();
              if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            }
            return reportDict(e.lastReport());
          },
          py::arg("steps"),
          "steps in C++ (no history kept); Ctrl-C stops between steps (KeyboardInterrupt, the step "
          "finished); "
          "returns the last step's report")
      .def_property_readonly("last_report",
                             [](const SceneEngine& e) { return reportDict(e.lastReport()); })
      .def_property_readonly("time", &SceneEngine::time)
      .def_property_readonly("steps", &SceneEngine::steps)
      .def_property_readonly("h", [](const SceneEngine& e) { return e.options().h; })
      .def_property_readonly("solver", [](const SceneEngine& e) { return e.options().solver; })
      .def_property_readonly(
          "gravity", [](const SceneEngine& e) { return toNumpy(e.options().gravity.data(), {3}); })
      .def_property_readonly("initialized", &SceneEngine::initialized)
      .def_property_readonly("margin", &SceneEngine::margin, "absolute margin (after initialize())")
      .def_property_readonly("breaking_distance", &SceneEngine::breakingDistance)
      .def_property_readonly("activation", &SceneEngine::activation)
      .def_property_readonly("warnings", &SceneEngine::warnings, "overlaps found at t0")
      .def("kinetic_energy", &SceneEngine::kineticEnergy)
      .def("potential_energy", &SceneEngine::potentialEnergy)
      // ---- arrays (copies) --------------------------------------------------------------------
      .def_property_readonly("body_count", [](const SceneEngine& e) { return e.bodies().size(); })
      .def_property_readonly("dynamic_count",
                             [](const SceneEngine& e) { return e.bodies().dynamicCount(); })
      .def("__len__", [](const SceneEngine& e) { return e.bodies().size(); })
      .def_property(
          "q",
          [](const SceneEngine& e) {
            return toNumpy(e.bodies().q.data(), {static_cast<py::ssize_t>(e.bodies().size()), 7});
          },
          &setQ,
          "(n, 7) positions of the centres of mass and quaternions (w, x, y, z) body -> world; a "
          "copy")
      .def_property(
          "v",
          [](const SceneEngine& e) {
            return toNumpy(e.bodies().v.data(), {static_cast<py::ssize_t>(e.bodies().size()), 6});
          },
          &setV, "(n, 6) linear velocity (world) and angular velocity (body frame); a copy")
      .def("set_q", &setQ, py::arg("q"), "(n, 7): finite, unit quaternions")
      .def("set_v", &setV, py::arg("v"), "(n, 6): finite, zero rows for static bodies")
      .def_property_readonly(
          "mass", [](const SceneEngine& e) { return toNumpy(e.bodies().mass); },
          "(n,) 0 for a static body")
      .def_property_readonly(
          "inertia",
          [](const SceneEngine& e) {
            return toNumpy(e.bodies().inertia.data(),
                           {static_cast<py::ssize_t>(e.bodies().size()), 3, 3});
          },
          "(n, 3, 3) body-frame inertia about the centre of mass")
      .def_property_readonly("force",
                             [](const SceneEngine& e) {
                               return toNumpy(e.bodies().force.data(),
                                              {static_cast<py::ssize_t>(e.bodies().size()), 3});
                             })
      .def_property_readonly("torque",
                             [](const SceneEngine& e) {
                               return toNumpy(e.bodies().torque.data(),
                                              {static_cast<py::ssize_t>(e.bodies().size()), 3});
                             })
      .def_property_readonly("group",
                             [](const SceneEngine& e) {
                               return copyOf(e.bodies().group,
                                             {static_cast<py::ssize_t>(e.bodies().size())});
                             })
      .def_property_readonly("id",
                             [](const SceneEngine& e) {
                               return copyOf(e.bodies().id,
                                             {static_cast<py::ssize_t>(e.bodies().size())});
                             })
      .def_property_readonly("is_static",
                             [](const SceneEngine& e) { return flags(e.bodies().isStatic); })
      .def_property_readonly("contact_count",
                             [](const SceneEngine& e) { return e.contacts().size(); })
      .def("contacts", &contactDict,
           "the contacts of the last step (copies), sorted by key: key, body_a, body_b, point_a, "
           "point_b (n, 3), "
           "frame (n, 3, 3: rows n, t1, t2), arm_a, arm_b, gap, mu, restitution, bias, "
           "velocity_start, velocity, "
           "impulse (n, 3; local frame, normal first), active, warm");
}

}  // namespace nsdpy
