// nsdyn.Scene: rigid bodies run to a final time T, a thin object over an nsdyn.SceneEngine
// (nsdyn/SceneEngine.hpp, the engine of `nsdyn run` for every <scene>): the constructor's
// keywords become SceneEngineOptions (gravity owned by the scene), the bodies live in the
// engine's BodyStore, every array is read from the engine, and open_hdf5 writes the scene
// file layout of `nsdyn run` (io::SceneHdf5Writer).
#include <nsdyn/Error.hpp>
#include <nsdyn/Kernel.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/io/SceneHdf5Writer.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"

namespace nsdpy {
namespace {

using namespace nsdyn;

/// A scene: a SceneEngine stepped from 0 to T, and the scene file it writes if asked.
struct Scene {
  double T;
  std::shared_ptr<SceneEngine> engine;
  /// The dynamic bodies added as an nsdyn.Body: store index and the Body's NewtonEulerDS,
  /// whose f_ext / m_ext (constants or callables of t) are the body's applied load.
  std::vector<std::pair<std::size_t, SP::NewtonEulerDS>> systems;
  bool loadsSet = false;
  std::unique_ptr<io::SceneHdf5Writer> hdf5;  // results file (Siconos mechanics layout), if asked

  Scene(double finalTime, double h, const std::string& solver, double tolerance,
        py::handle maxIterations, double g, double mu, double e, const std::string& mode,
        py::handle timeLimit, bool recovery, bool speculative)
      : T(finalTime) {
    if (!std::isfinite(g))
      throw py::value_error("Scene: gravity: expected a finite number (m/s^2), found " +
                            std::string(py::str(py::float_(g))));
    if (!(std::isfinite(tolerance) && tolerance > 0.0))
      throw py::value_error("Scene: tolerance: expected a finite number > 0, found " +
                            std::string(py::str(py::float_(tolerance))));
    SceneEngineOptions o;
    o.h = h;
    o.theta = 0.5;
    o.gravity = {0.0, 0.0, -g};
    o.solver = solver;
    o.recovery.enabled = recovery;
    o.speculativeContacts = speculative;
    o.solverOptions.tolerance = tolerance;
    if (!maxIterations.is_none()) {
      o.solverOptions.max_iterations =
          static_cast<int>(toInteger(maxIterations, "Scene: max_iterations", 1, 2147483647LL));
    }
    if (!parseSolveMode(mode, o.solveMode))
      throw py::value_error("Scene: mode: expected 'tolerance' or 'budget', found '" + mode + "'");
    if (!timeLimit.is_none()) {
      const double seconds = toReal(timeLimit, "Scene: time_limit");
      if (!(std::isfinite(seconds) && seconds >= 0.0))
        throw py::value_error(
            "Scene: time_limit: expected a finite number of seconds >= 0 (0: none), found " +
            shortRepr(timeLimit));
      o.solverOptions.time_limit = seconds;
    }
    try {
      engine = std::make_shared<SceneEngine>(o);  // checks the solver name among others
    } catch (const Error& err) {
      throw py::value_error(err.what());
    }
    engine->setDefaultMaterial({mu, e});
  }

  void refuseAfterStart(const std::string& what) const {
    if (engine->initialized())
      throw py::value_error(what + ": the scene is initialised; add bodies before the first step");
  }

  std::size_t addBody(const BodyShapes& body, int group) {
    refuseAfterStart("add_body");
    const std::size_t k = engine->addBody(body, group);
    if (!body.isStatic()) {
      const SP::NewtonEulerDS& ds = body.body();
      // the loads are read from the NewtonEulerDS at every step (initialize()); the store's
      // copy of their value at t = 0 would count them twice
      if (ds->hasFExt() || ds->hasMExt()) engine->bodies().setForce(k, {0.0, 0.0, 0.0});
      systems.emplace_back(k, ds);
    }
    return k;
  }

  /// The Bodies' loads (set before the first step), then the engine's initialize().
  void initialize() {
    if (!loadsSet) {
      for (const auto& [k, ds] : systems) {
        if (!ds->hasFExt() && !ds->hasMExt()) continue;
        engine->bodies().setForceFunction(
            k, [d = ds](double t, const double*, const double*, double* wrench) {
              const SiconosVector f = d->computeFExt(t), m = d->computeMExt(t);
              for (std::size_t i = 0; i < 3; ++i) {
                wrench[i] = f(i);
                wrench[3 + i] = m(i);
              }
            });
      }
      loadsSet = true;
    }
    if (!engine->initialized()) engine->initialize();
  }

  /// A step t_k -> t_{k+1} <= T is left (TimeStepping's rule).
  bool hasNextStep() const {
    const SceneEngineOptions& o = engine->options();
    return o.t0 + static_cast<double>(engine->steps() + 1) * o.h <= T;
  }

  /// Solver figures of the last step (zero when no contact was active, as StepStatistics).
  bool solved() const { return engine->steps() > 0 && engine->lastReport().active > 0; }

  /// The frame of the current time: bodies, contacts, solver, energies (as `nsdyn run`).
  void writeFrame() {
    const double t = engine->time();
    const SceneEngine::StepReport& r = engine->lastReport();
    const bool stepped = engine->steps() > 0;
    const double kinetic = stepped ? r.kineticEnergy : engine->kineticEnergy();
    const double potential = stepped ? r.potentialEnergy : engine->potentialEnergy();
    hdf5->writeStep(t, engine->bodies(), engine->contacts());
    hdf5->writeSolver(t, solved() ? r.solver.iterations : 0, solved() ? r.solver.residual : 0.0);
    hdf5->writeEnergy(t, kinetic, potential, stepped ? r.contactWork : 0.0, kinetic + potential);
  }

  /// One step, written to the HDF5 file if one is open.
  void oneStep() {
    engine->step();
    if (hdf5) writeFrame();
  }
};

/// (n, w) rows of q (w = 7) or v (w = 6) of the dynamic bodies, in the order added.
py::array_t<double> stackState(const Scene& s, bool velocity) {
  const BodyStore& b = s.engine->bodies();
  const std::size_t w = velocity ? 6 : 7;
  const std::vector<double>& src = velocity ? b.v : b.q;
  py::array_t<double> out(
      {static_cast<py::ssize_t>(b.dynamicCount()), static_cast<py::ssize_t>(w)});
  double* d = out.mutable_data();
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.isStatic[i]) continue;
    for (std::size_t k = 0; k < w; ++k) *d++ = src[w * i + k];
  }
  return out;
}

/// Every body as an nsdyn.Body at the engine's current state (new objects).
py::list bodySnapshots(const Scene& s) {
  const BodyStore& b = s.engine->bodies();
  py::list out;
  for (std::size_t i = 0; i < b.size(); ++i) {
    std::vector<ShapeInstance> shapes(b.shapes.begin() + b.shapeStart[i],
                                      b.shapes.begin() + b.shapeStart[i + 1]);
    if (b.isStatic[i]) {
      out.append(std::make_shared<BodyShapes>(
          std::move(shapes), Shape::Vec3{b.q[7 * i], b.q[7 * i + 1], b.q[7 * i + 2]},
          Shape::Quat{b.q[7 * i + 3], b.q[7 * i + 4], b.q[7 * i + 5], b.q[7 * i + 6]}));
      continue;
    }
    SiconosVector q(7), v(6);
    for (std::size_t k = 0; k < 7; ++k) q(k) = b.q[7 * i + k];
    for (std::size_t k = 0; k < 6; ++k) v(k) = b.v[6 * i + k];
    SimpleMatrix inertia(3, 3);
    for (std::size_t r = 0; r < 3; ++r)
      for (std::size_t c = 0; c < 3; ++c) inertia(r, c) = b.inertia[9 * i + 3 * r + c];
    auto ds = std::make_shared<NewtonEulerDS>(q, v, b.mass[i], inertia);
    out.append(std::make_shared<BodyShapes>(ds, std::move(shapes)));
  }
  return out;
}

py::dict contactArrays(const Scene& s) {
  const SceneContacts& cs = s.engine->contacts();
  const auto n = static_cast<py::ssize_t>(cs.size());
  const double h = s.engine->options().h;
  py::dict d;
  d["body_a"] = py::array_t<std::int32_t>(n, cs.bodyA.data());
  d["body_b"] = py::array_t<std::int32_t>(n, cs.bodyB.data());
  d["point_a"] = toNumpy(cs.pointA.data(), {n, 3});
  d["point_b"] = toNumpy(cs.pointB.data(), {n, 3});
  d["frame"] = toNumpy(cs.frame.data(), {n, 3, 3});
  d["gap"] = toNumpy(cs.gap.data(), {n});
  d["mu"] = toNumpy(cs.mu.data(), {n});
  d["impulse"] = toNumpy(cs.impulse.data(), {n, 3});
  py::array_t<double> force = toNumpy(cs.impulse.data(), {n, 3});
  double* f = force.mutable_data();
  for (py::ssize_t i = 0; i < 3 * n; ++i) f[i] /= h;
  d["force"] = force;
  d["velocity"] = toNumpy(cs.velocity.data(), {n, 3});
  py::array_t<bool> active(n);
  bool* a = active.mutable_data();
  for (py::ssize_t i = 0; i < n; ++i) a[i] = cs.active[static_cast<std::size_t>(i)] != 0;
  d["active"] = active;
  return d;
}

/// A material group from Python: an integer in [0, 2^31 - 1] (@p what names it).
int groupOf(py::handle group, const std::string& what) {
  const std::string arg = what.find(':') == std::string::npos ? what + ": group" : what;
  return static_cast<int>(toInteger(group, arg, 0, 2147483647LL));
}

/// A property of the Kernel-based Scene that has no counterpart on the engine.
[[noreturn]] void removed(const std::string& name, const std::string& instead) {
  throw py::attribute_error("nsdyn.Scene." + name +
                            " was removed: the scene is stepped by an nsdyn.SceneEngine (no Kernel "
                            "Model, TimeStepping or FrictionContact); use " +
                            instead);
}

}  // namespace

void initScene(py::module_& m) {
  py::class_<Scene, std::shared_ptr<Scene>>(
      m, "Scene",
      "rigid bodies with contacts, run from 0 to T by an nsdyn.SceneEngine (the engine of "
      "`nsdyn run`: Moreau-Jean theta = 0.5, contacts detected every step, FC3D solver)")
      .def(py::init([](py::handle T, py::handle h, py::handle solver, py::handle tolerance,
                       py::handle maxIterations, py::handle gravity, py::handle mu,
                       py::handle restitution, py::handle mode, py::handle timeLimit,
                       py::handle recovery, py::handle speculative, const py::kwargs& unknown) {
             refuseKeywords(unknown, "Scene",
                            "T, h, solver, tolerance, max_iterations, gravity, mu, restitution, "
                            "mode, time_limit, recovery, speculative_contacts");
             auto flag = [](py::handle v, const char* name) {
               if (!py::isinstance<py::bool_>(v))
                 throw py::type_error(std::string("Scene: ") + name +
                                      ": expected True or False, found " + shortRepr(v));
               return v.cast<bool>();
             };
             const double t = toReal(T, "Scene: T"), step = toReal(h, "Scene: h");
             if (!(std::isfinite(t) && t > 0.0))
               throw py::value_error("Scene: T: expected a finite final time > 0, found " +
                                     shortRepr(T));
             if (!(std::isfinite(step) && step > 0.0))
               throw py::value_error("Scene: h: expected a finite time step > 0, found " +
                                     shortRepr(h));
             return std::make_shared<Scene>(
                 t, step, toText(solver, "Scene: solver"), toReal(tolerance, "Scene: tolerance"),
                 maxIterations, toReal(gravity, "Scene: gravity"), toReal(mu, "Scene: mu"),
                 toReal(restitution, "Scene: restitution"), toText(mode, "Scene: mode"), timeLimit,
                 flag(recovery, "recovery"), flag(speculative, "speculative_contacts"));
           }),
           py::arg("T"), py::arg("h") = 1e-3, py::kw_only(), py::arg("solver") = "nsgs",
           py::arg("tolerance") = 1e-4, py::arg("max_iterations") = py::none(),
           py::arg("gravity") = 9.81, py::arg("mu") = 0.5, py::arg("restitution") = 0.0,
           py::arg("mode") = "tolerance", py::arg("time_limit") = py::none(),
           py::arg("recovery") = true, py::arg("speculative_contacts") = false,
           "final time T, step h; solver: nsgs (body-velocity Gauss-Seidel), auto (the same, "
           "Anderson-accelerated), apgd or any FC3D solver; mode: 'tolerance' (a solve short of "
           "tolerance: status max_iterations) or "
           "'budget' (max_iterations, and time_limit seconds per solve, accepted as the step's "
           "budget: status ok, above_tolerance); gravity g: (0, 0, -g), owned by the scene; mu, "
           "restitution: the default "
           "material; recovery: the overlap recovery (on); speculative_contacts: landings "
           "stopped at the surface (off). A wrong argument: TypeError / ValueError naming it and "
           "its value")
      .def(
          "add_body",
          [](Scene& s, py::handle b, py::handle group) {
            if (!py::isinstance<BodyShapes>(b))
              throw py::type_error(
                  "Scene.add_body: body: expected an nsdyn.Body (make_body, ground_plane, the "
                  "generators), found " +
                  std::string(py::str(py::type::handle_of(b).attr("__name__"))) + " " +
                  shortRepr(b));
            return s.addBody(b.cast<const BodyShapes&>(), groupOf(group, "Scene.add_body"));
          },
          py::arg("body"), py::arg("group") = 0,
          "add a body (its description is copied into the engine; its NewtonEulerDS's f_ext / "
          "m_ext, set before the first step, are its applied load); returns its index")
      .def(
          "add_bodies",
          [](Scene& s, py::handle items, py::handle group) {
            if (!py::isinstance<py::iterable>(items))
              throw py::type_error(
                  "Scene.add_bodies: bodies: expected an iterable of nsdyn.Body, "
                  "found " +
                  std::string(py::str(py::type::handle_of(items).attr("__name__"))));
            const int g = groupOf(group, "Scene.add_bodies");
            std::size_t n = 0;
            for (py::handle b : py::reinterpret_borrow<py::iterable>(items)) {
              if (!py::isinstance<BodyShapes>(b))
                throw py::type_error("bodies: expected nsdyn.Body items, found " +
                                     std::string(py::str(py::type::handle_of(b).attr("__name__"))));
              s.addBody(b.cast<const BodyShapes&>(), g);
              ++n;
            }
            return n;
          },
          py::arg("bodies"), py::arg("group") = 0, "add nsdyn.Body items; returns their count")
      .def(
          "set_material",
          [](Scene& s, py::handle a, py::handle b, py::handle mu, py::handle e) {
            s.engine->setMaterial(groupOf(a, "Scene.set_material: group_a"),
                                  groupOf(b, "Scene.set_material: group_b"),
                                  {toReal(mu, "Scene.set_material: mu"),
                                   toReal(e, "Scene.set_material: restitution")});
          },
          py::arg("group_a"), py::arg("group_b"), py::arg("mu"), py::arg("restitution") = 0.0)
      .def("initialize", &Scene::initialize,
           "done by the first step; bodies are refused afterwards")
      .def(
          "step",
          [](Scene& s) {
            s.initialize();
            if (!s.hasNextStep()) return false;
            s.oneStep();
            return true;
          },
          "one time step; False at T")
      .def(
          "run",
          [](Scene& s, py::handle steps, py::handle callback) {
            const long long maxSteps = toSteps(steps, "Scene.run: steps");
            const py::object call = toCallback(callback, "Scene.run: callback");
            s.initialize();
            long long done = 0;
            while ((maxSteps < 0 || done < maxSteps) && s.hasNextStep()) {
              s.oneStep();
              ++done;
              if (!call.is_none()) call();  // the step is finished
              if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            }
            return done;
          },
          py::arg("steps") = py::none(), py::arg("callback") = py::none(),
          "steps (None: until T; a count >= 0, else ValueError); callback() after each step (the "
          "arrays are those of the step); Ctrl-C stops between steps")
      .def(
          "open_hdf5",
          [](Scene& s, py::handle file) {
            const std::string path = toPath(file, "Scene.open_hdf5: path");
            s.initialize();
            s.hdf5 = std::make_unique<io::SceneHdf5Writer>(path, s.engine->options().h);
            s.writeFrame();
          },
          py::arg("path"),
          "write the current state and every following step to an HDF5 file (data/dynamic, "
          "velocities, cf, solv, energy: the layout of `nsdyn run`'s scene files); read it back "
          "with nsdyn.read_hdf5_dataset")
      .def("close_hdf5",
           [](Scene& s) {
             if (s.hdf5) s.hdf5->close();
             s.hdf5.reset();
           })
      .def_property_readonly("time", [](const Scene& s) { return s.engine->time(); })
      .def_property_readonly("T", [](const Scene& s) { return s.T; })
      .def_property_readonly("h", [](const Scene& s) { return s.engine->options().h; })
      .def_property_readonly(
          "engine", [](const Scene& s) { return s.engine; },
          "the nsdyn.SceneEngine underneath (shared: its arrays are the scene's; stepping it "
          "directly bypasses T and the HDF5 file)")
      .def_property_readonly(
          "last_report", [](const Scene& s) { return py::cast(s.engine).attr("last_report"); },
          "the engine's report of the last step (SceneEngine.last_report)")
      .def_property_readonly("model",
                             [](const Scene&) -> py::object {
                               removed("model", "scene.engine (nsdyn.SceneEngine) and scene.T");
                             })
      .def_property_readonly("simulation",
                             [](const Scene&) -> py::object {
                               removed("simulation",
                                       "scene.time, scene.h, scene.last_report, scene.engine");
                             })
      .def_property_readonly("problem",
                             [](const Scene&) -> py::object {
                               removed("problem",
                                       "the keywords solver, tolerance, max_iterations of "
                                       "nsdyn.Scene(...), and scene.last_statistics()");
                             })
      .def_property_readonly("body_count",
                             [](const Scene& s) { return s.engine->bodies().dynamicCount(); })
      .def("bodies", &bodySnapshots,
           "every body, static ones included, in the order added: new nsdyn.Body objects at "
           "the current state (changing them does not change the scene)")
      .def(
          "positions", [](const Scene& s) { return stackState(s, false); },
          "(n, 7) x, y, z, quaternion (w, x, y, z) of the dynamic bodies, in the order added")
      .def(
          "velocities", [](const Scene& s) { return stackState(s, true); },
          "(n, 6) linear velocity (world) and angular velocity (body frame, as NewtonEulerDS)")
      .def("contacts", &contactArrays,
           "the contacts of the last step: body_a, body_b (indices among all bodies), point_a, "
           "point_b, frame (rows n, t1, t2), gap, mu, impulse (n, 3; local frame), force = "
           "impulse / h, velocity, active")
      .def("kinetic_energy", [](const Scene& s) { return s.engine->kineticEnergy(); })
      .def("last_statistics", [](const Scene& s) {
        const SceneEngine::StepReport& r = s.engine->lastReport();
        const bool solved = s.solved();
        py::dict d;
        d["iterations"] = solved ? r.solver.iterations : 0;
        d["residual"] = solved ? r.solver.residual : 0.0;
        // the solver's status; accepted: the step's verdict (budget mode: above_tolerance ok)
        const bool above = solved && r.aboveTolerance;
        d["status"] =
            std::string(nsd_status_name(above ? NSD_MAX_ITERATIONS : (solved ? r.status : NSD_OK)));
        d["accepted"] = !solved || r.status == NSD_OK;
        d["above_tolerance"] = above;
        d["contacts"] = s.engine->contacts().size();
        d["active"] = s.engine->contacts().activeCount;
        return d;
      });
}

}  // namespace nsdpy
