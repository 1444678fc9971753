// IO: XML models (nsdyn.load_xml), their runs with the outputs as NumPy tables (a model
// with a <scene> stepped by the scene engine, as `nsdyn run` does; the others by their
// Kernel simulation), and the HDF5 files of the project read back (scene files of
// SceneHdf5Writer, results files of `nsdyn run --format hdf5`: nsdyn.read_results).
#include <nsdyn/Kernel.hpp>
#include <nsdyn/SceneEngine.hpp>
#include <nsdyn/io/SceneEngineFromModel.hpp>
#include <nsdyn/io/SceneHdf5Writer.hpp>
#include <nsdyn/io/Writers.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include <algorithm>
#include <climits>

#include "bindings.hpp"

namespace nsdpy {
namespace {

using namespace nsdyn;

/// A loaded model and the recorder of its outputs; a model with a <scene>: the SceneEngine
/// that steps it (io::makeSceneEngine, as `nsdyn run`) and the figures its columns read.
struct Loaded {
  std::unique_ptr<io::LoadedModel> run;
  std::unique_ptr<io::Recorder> recorder;
  long step = 0;
  std::shared_ptr<SceneEngine> engine;
  std::shared_ptr<io::SceneFigures> figures;

  explicit Loaded(std::unique_ptr<io::LoadedModel> r) : run(std::move(r)) {
    if (run->scene) {
      // nsdyn::Error naming the file for what the engine does not step (nsdyn run refuses it)
      engine = io::makeSceneEngine(*run);
      engine->initialize();
      figures = std::make_shared<io::SceneFigures>();
      run->scene->figures = figures;
      sceneFigures();
    }
    // the statistics of the last steps only, as a Simulation made in Python (kernel.cpp):
    // memory does not grow with the steps (the step.FIELD columns read the last one)
    if (run->simulation) run->simulation->setStatisticsHistory(1000);
    recorder = std::make_unique<io::Recorder>(run->outputs);
    recorder->recordInitial(run->t0);
  }

  /// What the scene.FIELD and step.FIELD columns read, and the state of the bodies the
  /// output columns read, before a row (as nsdyn run's loop, on one process).
  void sceneFigures() {
    io::SceneParts one;
    io::fillSceneFigures(*run, *engine, 0, one);
  }

  /// Every scene body's state copied into its NewtonEulerDS (system(name) reads the engine's
  /// state after run()).
  void syncSystems() {
    const BodyStore& bodies = engine->bodies();
    const std::vector<BodyShapes>& all = run->scene->contacts->bodies();
    for (std::size_t b = 0; b < bodies.size(); ++b) {
      const auto id = static_cast<std::size_t>(bodies.id[b]);
      if (bodies.isStatic[b] || id >= all.size() || !all[id].body()) continue;
      NewtonEulerDS& ds = *all[id].body();
      for (std::size_t j = 0; j < 7; ++j) ds.qMutable()(j) = bodies.q[7 * b + j];
      for (std::size_t j = 0; j < 6; ++j) ds.velocityMutable()(j) = bodies.v[6 * b + j];
    }
  }
};

/// The steps of a model with a <scene> on its SceneEngine, recorded as `nsdyn run` does.
long runScene(Loaded& l, long maxSteps) {
  long done = 0;
  try {
    while (done < maxSteps && l.step < l.run->steps && !l.recorder->full()) {
      l.engine->step();
      ++l.step;
      ++done;
      l.sceneFigures();
      l.recorder->recordStep(l.step, l.engine->time());
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
  } catch (...) {
    l.syncSystems();
    throw;
  }
  l.syncSystems();
  return done;
}

py::dict tables(const Loaded& l) {
  py::dict out;
  for (const io::Table& t : l.recorder->tables()) {
    const auto rows = static_cast<py::ssize_t>(t.rows.size()),
               cols = static_cast<py::ssize_t>(t.columns.size());
    py::array_t<double> a({rows, cols});
    auto v = a.mutable_unchecked<2>();
    for (py::ssize_t i = 0; i < rows; ++i)
      for (py::ssize_t j = 0; j < cols; ++j)
        v(i, j) = j < static_cast<py::ssize_t>(t.rows[static_cast<std::size_t>(i)].size())
                      ? t.rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]
                      : 0.0;
    py::dict table;
    table["columns"] = t.columns;
    table["data"] = a;
    out[py::str(t.name)] = table;
  }
  return out;
}

long runLoaded(Loaded& l, py::handle steps) {
  Simulation& sim = *l.run->simulation;
  const long long count = toSteps(steps, "LoadedModel.run: steps");
  const long maxSteps =
      count < 0 ? l.run->steps - l.step : static_cast<long>(std::min<long long>(count, LONG_MAX));
  if (l.engine) return runScene(l, maxSteps);
  long done = 0;
  if (auto* ed = dynamic_cast<EventDriven*>(&sim)) {
    while (done < maxSteps && ed->hasNextEvent() && !l.recorder->full()) {
      if (!ed->advanceToEvent()) break;
      ed->processEvents();
      ++l.step;
      ++done;
      l.recorder->recordEvent(l.step, ed->startingTime(),
                              ed->lastEventStatistics().type == EventType::NonSmooth);
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    }
    return done;
  }
  while (done < maxSteps && l.step < l.run->steps && !l.recorder->full()) {
    sim.computeOneStep();
    ++l.step;
    ++done;
    l.recorder->recordStep(l.step, sim.nextTime());
    sim.nextStep();
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  }
  return done;
}

}  // namespace

void initIo(py::module_& m) {
  py::class_<Loaded, std::shared_ptr<Loaded>>(m, "LoadedModel",
                                              "an XML model, loaded and initialised")
      .def_property_readonly("name", [](const Loaded& l) { return l.run->name; })
      .def_property_readonly("file", [](const Loaded& l) { return l.run->file; })
      .def_property_readonly("simulation_type",
                             [](const Loaded& l) { return l.run->simulationType; })
      .def_property_readonly("t0", [](const Loaded& l) { return l.run->t0; })
      .def_property_readonly("T", [](const Loaded& l) { return l.run->T; })
      .def_property_readonly("h", [](const Loaded& l) { return l.run->h; })
      .def_property_readonly("steps", [](const Loaded& l) { return l.run->steps; })
      .def_property_readonly(
          "step", [](const Loaded& l) { return l.step; }, "steps done")
      .def_property_readonly(
          "engine", [](const Loaded& l) { return l.engine; }, py::keep_alive<0, 1>(),
          "a model with a <scene>: the nsdyn.SceneEngine run() steps (None otherwise)")
      // parts returned to Python keep the loaded model (and so the Model) alive
      .def_property_readonly(
          "model", [](const Loaded& l) { return l.run->model; }, py::keep_alive<0, 1>())
      .def_property_readonly(
          "simulation", [](const Loaded& l) { return l.run->simulation; }, py::keep_alive<0, 1>())
      .def_property_readonly(
          "systems",
          [](const Loaded& l) {
            py::dict d;
            for (const auto& [name, ds] : l.run->systems) d[py::str(name)] = ds;
            return d;
          },
          py::keep_alive<0, 1>())
      .def_property_readonly(
          "interactions",
          [](const Loaded& l) {
            py::dict d;
            for (const auto& [name, inter] : l.run->interactions) d[py::str(name)] = inter;
            return d;
          },
          py::keep_alive<0, 1>())
      .def(
          "system", [](const Loaded& l, const std::string& name) { return l.run->system(name); },
          py::keep_alive<0, 1>())
      .def(
          "interaction",
          [](const Loaded& l, const std::string& name) { return l.run->interaction(name); },
          py::keep_alive<0, 1>())
      .def("run", &runLoaded, py::arg("steps") = py::none(),
           "run the remaining steps (or `steps` of them), recording the outputs; Ctrl-C stops "
           "between steps; a <scene> is stepped by its SceneEngine (engine), as `nsdyn run` does")
      .def("tables", &tables,
           "the outputs recorded so far: {name: {'columns': [...], 'data': (rows, cols)}}")
      .def(
          "write_results",
          [](const Loaded& l, py::handle directory, py::handle formatArg) {
            const std::string dir = toPath(directory, "LoadedModel.write_results: directory");
            const std::string format = toText(formatArg, "LoadedModel.write_results: format");
            io::makeDirectories(dir);
            py::list written;
            if (format == "hdf5") {
              const std::string path = io::joinPath(dir, l.run->name + ".h5");
              io::writeHdf5(l.recorder->tables(), path);
              written.append(path);
            } else if (format == "csv") {
              for (const io::Table& t : l.recorder->tables()) {
                const std::string path = io::joinPath(dir, t.name + ".csv");
                io::writeCsv(t, path);
                written.append(path);
              }
            } else {
              throw py::value_error(
                  "LoadedModel.write_results: format: expected 'csv' or 'hdf5', "
                  "found '" +
                  format + "'");
            }
            return written;
          },
          py::arg("directory"), py::arg("format") = "csv",
          "write the tables as `nsdyn run` does; the paths written");

  m.def(
      "load_xml",
      [](py::handle path) {
        return std::make_shared<Loaded>(io::XmlLoader().loadFile(toPath(path, "load_xml: path")));
      },
      py::arg("path"),
      "load and initialise an XML model (nsdyn.Error with the loader's message on a bad file)");
  m.def(
      "load_xml_string",
      [](py::handle xml) {
        return std::make_shared<Loaded>(
            io::XmlLoader().loadString(toText(xml, "load_xml_string: xml")));
      },
      py::arg("xml"));
  m.def(
      "read_hdf5_dataset",
      [](py::handle file, py::handle dataset) {
        const std::vector<std::vector<double>> rows = io::readSceneHdf5Dataset(
            toPath(file, "read_hdf5_dataset: path"), toText(dataset, "read_hdf5_dataset: dataset"));
        const auto r = static_cast<py::ssize_t>(rows.size());
        const py::ssize_t c = rows.empty() ? 0 : static_cast<py::ssize_t>(rows[0].size());
        py::array_t<double> a({r, c});
        auto v = a.mutable_unchecked<2>();
        for (py::ssize_t i = 0; i < r; ++i)
          for (py::ssize_t j = 0; j < c; ++j)
            v(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
        return a;
      },
      py::arg("path"), py::arg("dataset"),
      "a 2-D dataset (e.g. 'data/dynamic') of an HDF5 file, as a NumPy array");
  m.def("_read_results_hdf5", &readResultsHdf5, py::arg("path"),
        "the tables of a results file of `nsdyn run --format hdf5`: {name: {'columns': [...], "
        "'data': (rows, cols)}}");
}

}  // namespace nsdpy
