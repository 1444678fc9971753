// IO: XML models (nsdyn.load_xml), their runs with the outputs as NumPy tables, and the
// HDF5 files of the project read back (scene files of SceneHdf5Writer).
#include <nsdyn/Kernel.hpp>
#include <nsdyn/io/SceneHdf5Writer.hpp>
#include <nsdyn/io/Writers.hpp>
#include <nsdyn/io/XmlLoader.hpp>

#include "bindings.hpp"

namespace nsdpy {
namespace {

using namespace nsdyn;

/// A loaded model and the recorder of its outputs.
struct Loaded {
  std::unique_ptr<io::LoadedModel> run;
  std::unique_ptr<io::Recorder> recorder;
  long step = 0;

  explicit Loaded(std::unique_ptr<io::LoadedModel> r) : run(std::move(r)) {
    recorder = std::make_unique<io::Recorder>(run->outputs);
    recorder->recordInitial(run->t0);
  }
};

py::dict tables(const Loaded& l) {
  py::dict out;
  for (const io::Table& t : l.recorder->tables()) {
    const auto rows = static_cast<py::ssize_t>(t.rows.size()), cols = static_cast<py::ssize_t>(t.columns.size());
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

long runLoaded(Loaded& l, py::object steps) {
  Simulation& sim = *l.run->simulation;
  const long maxSteps = steps.is_none() ? l.run->steps - l.step : steps.cast<long>();
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
  py::class_<Loaded, std::shared_ptr<Loaded>>(m, "LoadedModel", "an XML model, loaded and initialised")
      .def_property_readonly("name", [](const Loaded& l) { return l.run->name; })
      .def_property_readonly("file", [](const Loaded& l) { return l.run->file; })
      .def_property_readonly("simulation_type", [](const Loaded& l) { return l.run->simulationType; })
      .def_property_readonly("t0", [](const Loaded& l) { return l.run->t0; })
      .def_property_readonly("T", [](const Loaded& l) { return l.run->T; })
      .def_property_readonly("h", [](const Loaded& l) { return l.run->h; })
      .def_property_readonly("steps", [](const Loaded& l) { return l.run->steps; })
      .def_property_readonly("step", [](const Loaded& l) { return l.step; }, "steps done")
      // parts returned to Python keep the loaded model (and so the Model) alive
      .def_property_readonly("model", [](const Loaded& l) { return l.run->model; }, py::keep_alive<0, 1>())
      .def_property_readonly("simulation", [](const Loaded& l) { return l.run->simulation; }, py::keep_alive<0, 1>())
      .def_property_readonly("systems", [](const Loaded& l) {
        py::dict d;
        for (const auto& [name, ds] : l.run->systems) d[py::str(name)] = ds;
        return d;
      }, py::keep_alive<0, 1>())
      .def_property_readonly("interactions", [](const Loaded& l) {
        py::dict d;
        for (const auto& [name, inter] : l.run->interactions) d[py::str(name)] = inter;
        return d;
      }, py::keep_alive<0, 1>())
      .def("system", [](const Loaded& l, const std::string& name) { return l.run->system(name); }, py::keep_alive<0, 1>())
      .def("interaction", [](const Loaded& l, const std::string& name) { return l.run->interaction(name); },
           py::keep_alive<0, 1>())
      .def("run", &runLoaded, py::arg("steps") = py::none(),
           "run the remaining steps (or `steps` of them), recording the outputs; Ctrl-C stops between steps")
      .def("tables", &tables, "the outputs recorded so far: {name: {'columns': [...], 'data': (rows, cols)}}")
      .def("write_results", [](const Loaded& l, const std::string& dir, const std::string& format) {
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
          throw py::value_error("format: expected csv or hdf5, found '" + format + "'");
        }
        return written;
      }, py::arg("directory"), py::arg("format") = "csv", "write the tables as `nsdyn run` does; the paths written");

  m.def("load_xml", [](const std::string& path) {
    return std::make_shared<Loaded>(io::XmlLoader().loadFile(path));
  }, py::arg("path"), "load and initialise an XML model (nsdyn.Error with the loader's message on a bad file)");
  m.def("load_xml_string", [](const std::string& xml) {
    return std::make_shared<Loaded>(io::XmlLoader().loadString(xml));
  }, py::arg("xml"));
  m.def("read_hdf5_dataset", [](const std::string& path, const std::string& name) {
    const std::vector<std::vector<double>> rows = io::readSceneHdf5Dataset(path, name);
    const auto r = static_cast<py::ssize_t>(rows.size());
    const py::ssize_t c = rows.empty() ? 0 : static_cast<py::ssize_t>(rows[0].size());
    py::array_t<double> a({r, c});
    auto v = a.mutable_unchecked<2>();
    for (py::ssize_t i = 0; i < r; ++i)
      for (py::ssize_t j = 0; j < c; ++j) v(i, j) = rows[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    return a;
  }, py::arg("path"), py::arg("dataset"), "a 2-D dataset (e.g. 'data/dynamic') of an HDF5 file, as a NumPy array");
}

}  // namespace nsdpy
