// nsdyn.peridynamics, the motion: one free step of a body (free_step, stable_step),
// PeridynamicSimulation (bodies on their own), PeridynamicSceneSystem (a body's points in a
// SceneEngine, in contact with its rigid and static bodies: SceneEngine.add_peridynamic_body,
// Scene.add_peridynamic_body) and the VTK / HDF5 writers of the IO library. Keywords become the
// C++ options; every check and message is the Kernel's (nsdyn.Error).
#include <nsdyn/Error.hpp>
#include <nsdyn/PeridynamicSceneSystem.hpp>
#include <nsdyn/PeridynamicSimulation.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/VelocityVerlet.hpp>
#include <nsdyn/io/PeridynamicHdf5Writer.hpp>
#include <nsdyn/io/PeridynamicVtkWriter.hpp>

#include <climits>
#include <vector>

#include "peridynamics.hpp"

namespace nsdpy {

using namespace nsdyn;

PeridynamicStepOptions stepOptions(const std::string& who, py::handle tolerance,
                                   py::handle iterations, py::handle lineSearch,
                                   py::handle accelerate, py::handle threads) {
  PeridynamicStepOptions o;
  o.tolerance = toReal(tolerance, who + ": tolerance");
  o.maxIterations = static_cast<int>(toInteger(iterations, who + ": iterations", 0, INT_MAX));
  o.lineSearch = toFlag(lineSearch, who + ": line_search");
  o.accelerate = toFlag(accelerate, who + ": accelerate");
  o.threads = static_cast<int>(toInteger(threads, who + ": threads", 0, INT_MAX));
  return o;
}

py::dict stepReportDict(const PeridynamicStepReport& r) {
  py::dict d;
  d["status"] = std::string(nsd_status_name(r.status));
  d["converged"] = r.status == NSD_OK;
  d["iterations"] = r.iterations;
  d["residual"] = r.residual;
  d["energy_start"] = r.energyStart;
  d["energy_end"] = r.energyEnd;
  d["monotone"] = r.monotone;
  d["seconds"] = r.seconds;
  d["bond_updates"] = r.bondUpdates;
  d["stable_step"] = r.stableStep;
  return d;
}

namespace {

/// h, theta, gravity of a step (the C++ stepper checks their range).
void motion(PeridynamicStepOptions& o, const std::string& who, py::handle h, py::handle theta,
            py::handle gravity) {
  o.h = toReal(h, who + ": h");
  o.theta = toReal(theta, who + ": theta");
  o.gravity = toVec3(gravity, who + ": gravity");
}

py::dict simulationReport(const PeridynamicSimulation::StepReport& r) {
  py::dict d = stepReportDict(r.solver);
  d["step"] = r.step;
  d["time"] = r.time;
  d["bonds_broken"] = r.bondsBroken;
  d["kinetic_energy"] = r.kineticEnergy;
  d["elastic_energy"] = r.elasticEnergy;
  d["potential_energy"] = r.potentialEnergy;
  return d;
}

py::dict sceneReport(const PeridynamicSceneSystem::Report& r) {
  py::dict d = stepReportDict(r.step);
  d["bonds_broken"] = r.bondsBroken;
  d["contact_points"] = r.contactPoints;
  d["response_points"] = r.responsePoints;
  d["lumped_response"] = r.lumpedResponse;
  d["response_seconds"] = r.responseSeconds;
  return d;
}

/// The keywords of the step options, shared by the functions below.
#define NSDPY_STEP_KEYWORDS                                                                \
  py::arg("tolerance") = 1e-6, py::arg("iterations") = 500, py::arg("line_search") = true, \
  py::arg("accelerate") = true, py::arg("threads") = 0

void initSteps(py::module_& pd) {
  pd.def(
      "free_step",
      [](py::handle body, py::handle method, py::handle h, py::handle theta, py::handle gravity,
         py::handle tol, py::handle it, py::handle ls, py::handle acc, py::handle threads) {
        const std::string who = "nsdyn.peridynamics.free_step";
        auto b = peridynamicBody(body, who + ": body");
        PeridynamicStepOptions o = stepOptions(who, tol, it, ls, acc, threads);
        motion(o, who, h, theta, gravity);
        auto stepper = makePeridynamicStepper(toText(method, who + ": method"));
        std::vector<double> x(3 * b->size()), v(3 * b->size());
        const PeridynamicStepReport r = stepper->freeStep(*b, o, x.data(), v.data());
        const auto n = static_cast<py::ssize_t>(b->size());
        return py::make_tuple(toNumpy(x.data(), {n, 3}), toNumpy(v.data(), {n, 3}),
                              stepReportDict(r));
      },
      py::arg("body"), py::kw_only(), py::arg("method") = "substitution", py::arg("h") = 1e-4,
      py::arg("theta") = 1.0, py::arg("gravity") = py::make_tuple(0.0, 0.0, 0.0),
      NSDPY_STEP_KEYWORDS,
      "one step of the body without contact by the stepper 'substitution', 'newton' or "
      "'verlet' (h = 0: statics): (x, v, report), the body unchanged");
  pd.def(
      "stable_step",
      [](py::handle body) {
        return VelocityVerlet::stableStep(*peridynamicBody(body, "stable_step: body"));
      },
      py::arg("body"), "the largest stable explicit step of the body (s)");
}

void initSimulation(py::module_& pd) {
  using S = PeridynamicSimulation;
  py::class_<S, std::shared_ptr<S>>(
      pd, "Simulation",
      "peridynamic bodies stepped on their own, without contact (nsdyn::PeridynamicSimulation)")
      .def(py::init([](py::handle h, py::handle theta, py::handle gravity, py::handle method,
                       py::handle tol, py::handle it, py::handle ls, py::handle acc,
                       py::handle threads, py::handle fracture) {
             const std::string who = "nsdyn.peridynamics.Simulation";
             S::Options o;
             o.step = stepOptions(who, tol, it, ls, acc, threads);
             motion(o.step, who, h, theta, gravity);
             o.method = toText(method, who + ": method");
             o.fracture = toFlag(fracture, who + ": fracture");
             return std::make_shared<S>(o);
           }),
           py::kw_only(), py::arg("h") = 1e-4, py::arg("theta") = 1.0,
           py::arg("gravity") = py::make_tuple(0.0, 0.0, 0.0), py::arg("method") = "substitution",
           NSDPY_STEP_KEYWORDS, py::arg("fracture") = true,
           "h (s; the stepper checks it), theta in [1/2, 1], gravity (3), method 'substitution', "
           "'newton' or 'verlet', tolerance, iterations, line_search, accelerate, threads, "
           "fracture (break bonds after each step)")
      .def(
          "add",
          [](S& s, py::handle body) {
            return s.add(peridynamicBody(body, "Simulation.add: body"));
          },
          py::arg("body"), "add a body (kept by the simulation); returns its index")
      .def(
          "body",
          [](py::object self, py::handle index) {
            auto s = self.cast<std::shared_ptr<S>>();
            const long long i = toInteger(index, "Simulation.body: index", 0, LLONG_MAX);
            if (static_cast<std::size_t>(i) >= s->size())
              throw py::index_error("Simulation.body: index " + std::to_string(i) +
                                    " out of range for a simulation of " +
                                    std::to_string(s->size()) + " bodies");
            // the body the simulation holds (its Python object when it has one)
            return std::shared_ptr<PeridynamicBody>(s, &s->body(static_cast<std::size_t>(i)));
          },
          py::arg("index"))
      .def("__len__", &S::size)
      .def(
          "step", [](S& s) { return simulationReport(s.step()); },
          "one step of every body, then fracture; the report (a dict)")
      .def(
          "run",
          [](S& s, py::handle count) {
            const long long steps = toInteger(count, "Simulation.run: steps", 0, LLONG_MAX);
            for (long long k = 0; k < steps; ++k) {
              s.step();
              if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            }
            return simulationReport(s.lastReport());
          },
          py::arg("steps"), "steps in C++ (Ctrl-C between steps); the last step's report")
      .def(
          "equilibrium", [](S& s) { return simulationReport(s.equilibrium()); },
          "static equilibrium of every body (h = 0): positions updated, velocities untouched")
      .def_property_readonly("last_report",
                             [](const S& s) { return simulationReport(s.lastReport()); })
      .def_property_readonly("time", &S::time)
      .def_property_readonly("steps", &S::steps)
      .def("total_energy", &S::totalEnergy, "kinetic + elastic + potential of gravity and loads")
      .def_property_readonly("method", [](const S& s) { return s.stepper().name(); })
      .def_property_readonly("h", [](const S& s) { return s.options().step.h; })
      .def_property_readonly("theta", [](const S& s) { return s.options().step.theta; })
      .def_property_readonly("tolerance", [](const S& s) { return s.options().step.tolerance; })
      .def_property_readonly("iterations",
                             [](const S& s) { return s.options().step.maxIterations; })
      .def_property_readonly(
          "gravity", [](const S& s) { return toNumpy(s.options().step.gravity.data(), {3}); })
      .def_property_readonly("fracture", [](const S& s) { return s.options().fracture; });
}

std::shared_ptr<PeridynamicSceneSystem> makeSystem(py::handle body, py::handle stepper,
                                                   py::handle tol, py::handle it, py::handle ls,
                                                   py::handle acc, py::handle threads,
                                                   py::handle group, py::handle fracture,
                                                   py::handle exact, py::handle limit,
                                                   py::handle self) {
  const std::string who = "nsdyn.peridynamics.SceneSystem";
  PeridynamicSceneOptions o;
  o.exactResponse = toFlag(exact, who + ": exact_response");
  o.selfContact = toFlag(self, who + ": self_contact");
  o.exactResponseLimit =
      static_cast<std::size_t>(toInteger(limit, who + ": exact_response_limit", 0, LLONG_MAX));
  o.stepper = toText(stepper, who + ": stepper");
  o.step = stepOptions(who, tol, it, ls, acc, threads);
  o.group = static_cast<int>(toInteger(group, who + ": group", INT_MIN, INT_MAX));
  o.fracture = toFlag(fracture, who + ": fracture");
  return std::make_shared<PeridynamicSceneSystem>(peridynamicBody(body, who + ": body"), o);
}

void initScene(py::module_& m, py::module_& pd) {
  using P = PeridynamicSceneSystem;
  py::class_<P, std::shared_ptr<P>>(
      pd, "SceneSystem",
      "a peridynamic body in a SceneEngine (nsdyn::PeridynamicSceneSystem): its points are "
      "spheres of the engine, in frictional contact with the other bodies; their free motion "
      "from the stepper")
      .def(py::init(&makeSystem), py::arg("body"), py::kw_only(),
           py::arg("stepper") = "substitution", NSDPY_STEP_KEYWORDS, py::arg("group") = 0,
           py::arg("fracture") = true, py::arg("exact_response") = true,
           py::arg("exact_response_limit") = 1000, py::arg("self_contact") = false,
           "exact_response: the body's iteration matrix M + h^2 theta^2 K in the contact "
           "problem (implicit steppers, bond-wise materials), up to exact_response_limit points "
           "in contact; False: the points' masses only. self_contact: points no bond joins "
           "collide")
      .def_property_readonly("name", &P::name)
      .def_property_readonly(
          "body",
          [](py::object self) {
            auto p = self.cast<std::shared_ptr<P>>();
            return std::shared_ptr<PeridynamicBody>(p, &p->body());
          },
          "the peridynamic body (its Python object when it has one)")
      .def_property_readonly("family", &P::family, "collision family of the points")
      .def_property_readonly("self_contact", &P::filtersContacts,
                             "points of the body that no intact bond joins collide")
      .def_property_readonly("exact_response", &P::coupled,
                             "the body's iteration matrix in the contact problem (asked for and "
                             "possible: an implicit stepper)")
      .def(
          "store_index",
          [](const P& p, py::handle point) {
            return p.storeIndex(static_cast<std::size_t>(
                toInteger(point, "SceneSystem.store_index: point", 0, LLONG_MAX)));
          },
          py::arg("point"), "index in the engine of point i (after add_peridynamic_body)")
      .def_property_readonly("last_report", [](const P& p) { return sceneReport(p.lastReport()); })
      .def_property_readonly("total_iterations", &P::totalIterations)
      .def_property_readonly("total_bonds_broken", &P::totalBondsBroken);

  py::object engine = m.attr("SceneEngine");
  engine.attr("add_system") = py::cpp_function(
      [](SceneEngine& e, std::shared_ptr<P> system) {
        e.addSystem(std::static_pointer_cast<SceneSystem>(system));
      },
      py::name("add_system"), py::is_method(engine), py::arg("system"),
      "add an nsdyn.peridynamics.SceneSystem (before the first step): its points become bodies "
      "of the engine");
  engine.attr("add_peridynamic_body") = py::cpp_function(
      [](SceneEngine& e, py::handle body, py::handle stepper, py::handle tol, py::handle it,
         py::handle ls, py::handle acc, py::handle threads, py::handle group, py::handle fracture,
         py::handle exact, py::handle limit, py::handle self) {
        auto system = makeSystem(body, stepper, tol, it, ls, acc, threads, group, fracture, exact,
                                 limit, self);
        e.addSystem(system);
        return system;
      },
      py::name("add_peridynamic_body"), py::is_method(engine), py::arg("body"), py::kw_only(),
      py::arg("stepper") = "substitution", NSDPY_STEP_KEYWORDS, py::arg("group") = 0,
      py::arg("fracture") = true, py::arg("exact_response") = true,
      py::arg("exact_response_limit") = 1000, py::arg("self_contact") = false,
      "add a peridynamic body (before the first step) through a new SceneSystem, returned");
  engine.attr("peridynamic_systems") = py::cpp_function(
      [](const SceneEngine& e) {
        std::vector<std::shared_ptr<P>> out;
        for (const auto& system : e.systems())
          if (auto p = std::dynamic_pointer_cast<P>(system)) out.push_back(p);
        return out;
      },
      py::name("peridynamic_systems"), py::is_method(engine),
      "the engine's peridynamic bodies as SceneSystems, in the order added (those of an XML "
      "<scene> included: LoadedModel.engine)");
  py::object scene = m.attr("Scene");
  scene.attr("add_peridynamic_body") = py::cpp_function(
      [](py::object self, py::object body, const py::kwargs& kw) {
        return self.attr("engine").attr("add_peridynamic_body")(body, **kw);
      },
      py::name("add_peridynamic_body"), py::is_method(scene), py::arg("body"),
      "SceneEngine.add_peridynamic_body on the scene's engine (same keywords)");
}

void initWriters(py::module_& pd) {
  using V = io::PeridynamicVtkWriter;
  py::class_<V>(pd, "VtkWriter",
                "VTK XML frames of a body (.vtp per frame, a .pvd collection): displacement, "
                "velocity, damage, stress, von_mises, prescribed, volume, reference")
      .def(py::init([](py::handle dir, py::handle name) {
             return std::make_unique<V>(toPath(dir, "VtkWriter: dir"),
                                        toText(name, "VtkWriter: name"));
           }),
           py::arg("dir"), py::arg("name"))
      .def(
          "write_frame",
          [](V& w, py::handle time, py::handle body) {
            w.writeFrame(toReal(time, "VtkWriter.write_frame: time"),
                         *peridynamicBody(body, "VtkWriter.write_frame: body"));
          },
          py::arg("time"), py::arg("body"))
      .def("finish", &V::finish, "write the .pvd file; its path")
      .def_property_readonly("frame_count", &V::frameCount)
      .def_property_readonly("files", &V::files)
      .def_property_readonly("pvd_path", &V::pvdPath);

  using H = io::PeridynamicHdf5Writer;
  py::class_<H>(pd, "Hdf5Writer",
                "one HDF5 file of bodies: reference once, positions, velocities, damage per step; "
                "written as path.part and renamed by close()")
      .def(py::init([](py::handle path) {
             return std::make_unique<H>(toPath(path, "Hdf5Writer: path"));
           }),
           py::arg("path"))
      .def(
          "write_step",
          [](H& w, py::handle time, py::handle bodies) {
            std::vector<std::shared_ptr<PeridynamicBody>> held;
            if (py::isinstance<PeridynamicBody>(bodies)) {
              held.push_back(peridynamicBody(bodies, "Hdf5Writer.write_step: bodies"));
            } else {
              if (!py::isinstance<py::iterable>(bodies))
                throw py::type_error(
                    "Hdf5Writer.write_step: bodies: expected a Body or a list of them");
              for (py::handle b : py::iter(bodies))
                held.push_back(peridynamicBody(b, "Hdf5Writer.write_step: bodies"));
            }
            std::vector<const PeridynamicBody*> list;
            for (const auto& b : held) list.push_back(b.get());
            w.writeStep(toReal(time, "Hdf5Writer.write_step: time"), list);
          },
          py::arg("time"), py::arg("bodies"))
      .def("close", &H::close)
      .def("discard", &H::discard)
      .def_property_readonly("path", &H::path)
      .def_property_readonly("steps", &H::steps)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](H& w, py::handle type, py::handle, py::handle) {
        if (type.is_none())
          w.close();
        else
          w.discard();
        return false;
      });
  pd.def(
      "read_hdf5",
      [](py::handle path, py::handle dataset) {
        std::vector<std::size_t> dims;
        const std::vector<double> v = io::readHdf5Doubles(
            toPath(path, "read_hdf5: path"), toText(dataset, "read_hdf5: dataset"), dims);
        std::vector<py::ssize_t> shape(dims.begin(), dims.end());
        return toNumpy(v.data(), shape);
      },
      py::arg("path"), py::arg("dataset"),
      "a dataset of a file of Hdf5Writer ('peridynamics/NAME/positions', 'time', ...) as an "
      "array of its shape");
}

}  // namespace

void initPeridynamicsRun(py::module_& m, py::module_& pd) {
  initSteps(pd);
  initSimulation(pd);
  initScene(m, pd);
  initWriters(pd);
}

}  // namespace nsdpy
