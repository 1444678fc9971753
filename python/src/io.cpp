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

#include <hdf5.h>

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

/// Closes an HDF5 identifier at the end of a scope (H5Oclose, H5Sclose, ...).
struct H5Id {
  hid_t id;
  herr_t (*close)(hid_t);
  H5Id(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
  H5Id(const H5Id&) = delete;
  H5Id& operator=(const H5Id&) = delete;
  ~H5Id() {
    if (id >= 0) close(id);
  }
};

/// The string-array attribute "columns" of @p set (variable- or fixed-length strings);
/// nsdyn::Error naming the file and the dataset when it has none.
std::vector<std::string> columnNames(hid_t set, const std::string& path, const std::string& name) {
  std::vector<std::string> out;
  const htri_t exists = H5Aexists(set, "columns");
  if (exists <= 0)
    throw Error("results HDF5 reader (" + path + ")",
                "a string attribute 'columns' on every table (as nsdyn writes them)",
                (exists < 0 ? "an unreadable attribute list on dataset " : "none on dataset ") +
                    name + " (a damaged file, or not a results file)");
  H5Id attr(H5Aopen(set, "columns", H5P_DEFAULT), H5Aclose);
  H5Id type(attr.id >= 0 ? H5Aget_type(attr.id) : -1, H5Tclose);
  H5Id space(attr.id >= 0 ? H5Aget_space(attr.id) : -1, H5Sclose);
  const std::string what = "results HDF5 reader (" + path + ")";
  if (type.id < 0 || space.id < 0 || H5Tget_class(type.id) != H5T_STRING)
    throw Error(what, "a string attribute 'columns'", "another attribute on dataset " + name);
  const hssize_t n = H5Sget_simple_extent_npoints(space.id);
  if (n < 0)
    throw Error(what, "a string attribute 'columns'", "an unreadable one on dataset " + name);
  const auto count = static_cast<std::size_t>(n);
  if (H5Tis_variable_str(type.id) > 0) {
    H5Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.id, H5T_VARIABLE);
    std::vector<char*> names(count, nullptr);
    if (count > 0 && H5Aread(attr.id, mem.id, names.data()) < 0)
      throw Error(what, "a string attribute 'columns'", "an unreadable one on dataset " + name);
    for (char* c : names) {
      out.emplace_back(c ? c : "");
      if (c) H5free_memory(c);
    }
  } else {
    const std::size_t size = H5Tget_size(type.id);
    H5Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.id, size);
    std::vector<char> buffer(count * size + 1, '\0');
    if (count > 0 && H5Aread(attr.id, mem.id, buffer.data()) < 0)
      throw Error(what, "a string attribute 'columns'", "an unreadable one on dataset " + name);
    for (std::size_t k = 0; k < count; ++k) {
      const char* c = buffer.data() + k * size;
      std::size_t len = 0;
      while (len < size && c[len] != '\0') ++len;
      out.emplace_back(c, len);
    }
  }
  return out;
}

/// @p text as a Python str; nsdyn::Error (@p what: expected @p expected) when it is not UTF-8.
py::str utf8(const std::string& text, const std::string& what, const std::string& expected) {
  PyObject* s = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), nullptr);
  if (!s) {
    PyErr_Clear();
    throw Error(what, expected, "bytes that are not (a damaged file)");
  }
  return py::reinterpret_steal<py::str>(s);
}

/// Every 2-D dataset at the root of the results file @p path (`nsdyn run --format hdf5`,
/// io::writeHdf5): {name: {"columns": [...], "data": (rows, cols) float64}}, in file order.
/// Groups are left out (a scene file's data/...); anything else that is not a readable table
/// of numbers, and a file without any table, is an nsdyn::Error naming the file and the
/// dataset: a damaged file is refused, never read as fewer tables or as garbage sizes.
py::dict readResultsHdf5(const std::string& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // the messages below say what failed
  H5Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (file.id < 0) throw Error("results HDF5 reader", "an HDF5 file that can be opened", path);
  const std::string what = "results HDF5 reader (" + path + ")";
  H5G_info_t info{};
  if (H5Gget_info(file.id, &info) < 0) throw Error(what, "a readable root group", "a damaged one");
  hsize_t fileSize = 0;
  if (H5Fget_filesize(file.id, &fileSize) < 0) fileSize = 0;
  py::dict out;
  for (hsize_t k = 0; k < info.nlinks; ++k) {
    const ssize_t len =
        H5Lget_name_by_idx(file.id, ".", H5_INDEX_NAME, H5_ITER_INC, k, nullptr, 0, H5P_DEFAULT);
    if (len < 0) throw Error(what, "readable link names", "link " + std::to_string(k));
    std::string name(static_cast<std::size_t>(len) + 1, '\0');
    H5Lget_name_by_idx(file.id, ".", H5_INDEX_NAME, H5_ITER_INC, k, name.data(), name.size(),
                       H5P_DEFAULT);
    name.resize(static_cast<std::size_t>(len));
    const py::str key = utf8(name, what, "table names that are UTF-8 text");
    const std::string dataset = "dataset '" + name + "'";
    H5Id object(H5Oopen(file.id, name.c_str(), H5P_DEFAULT), H5Oclose);
    if (object.id < 0)
      throw Error(what, "an object that can be opened", dataset + " that cannot (a damaged file)");
    const H5I_type_t type = H5Iget_type(object.id);
    if (type == H5I_GROUP) continue;
    if (type != H5I_DATASET)
      throw Error(what, "tables (2-D datasets) and groups", "another object: " + dataset);
    H5Id space(H5Dget_space(object.id), H5Sclose);
    const int rank = space.id < 0 ? -1 : H5Sget_simple_extent_ndims(space.id);
    if (rank != 2)
      throw Error(
          what, "tables of 2 dimensions",
          dataset + (rank < 0 ? " with an unreadable shape" : " of " + std::to_string(rank)));
    hsize_t dims[2] = {0, 0};
    H5Sget_simple_extent_dims(space.id, dims, nullptr);
    H5Id fileType(H5Dget_type(object.id), H5Tclose);
    const H5T_class_t cls = fileType.id < 0 ? H5T_NO_CLASS : H5Tget_class(fileType.id);
    if (cls != H5T_FLOAT && cls != H5T_INTEGER)
      throw Error(what, "a dataset of numbers", dataset + " of another type");
    // the bytes the shape needs against those the file holds: a damaged size would else
    // ask NumPy for terabytes, or read past the end of the file
    const hsize_t element = H5Tget_size(fileType.id);
    const std::string shape = "(" + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) + ")";
    const bool tooLarge =
        dims[1] != 0 && (dims[0] > fileSize / dims[1] || dims[0] * dims[1] > fileSize / element);
    const hsize_t needed = tooLarge ? 0 : dims[0] * dims[1] * element;
    H5Id plist(H5Dget_create_plist(object.id), H5Pclose);
    const bool contiguous = plist.id >= 0 && H5Pget_layout(plist.id) == H5D_CONTIGUOUS;
    const hsize_t stored = H5Dget_storage_size(object.id);
    const haddr_t offset = contiguous && needed > 0 ? H5Dget_offset(object.id) : 0;
    if (tooLarge || (contiguous && needed > 0 &&
                     (stored != needed || offset == HADDR_UNDEF || offset > fileSize ||
                      needed > fileSize - offset)))
      throw Error(what, "a table whose shape fits the file",
                  dataset + " of shape " + shape + " in a file of " + std::to_string(fileSize) +
                      " bytes (a damaged file)");
    py::array_t<double> data(
        {static_cast<py::ssize_t>(dims[0]), static_cast<py::ssize_t>(dims[1])});
    if (dims[0] * dims[1] > 0 && H5Dread(object.id, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                                         H5P_DEFAULT, data.mutable_data()) < 0)
      throw Error(what, "a dataset of numbers that can be read", dataset + " that cannot");
    const std::vector<std::string> columns = columnNames(object.id, path, name);
    if (columns.size() != dims[1])
      throw Error(what, std::to_string(dims[1]) + " column names on " + dataset,
                  std::to_string(columns.size()));
    py::list names;
    for (const std::string& c : columns)
      names.append(utf8(c, what, "column names that are UTF-8 text on " + dataset));
    py::dict table;
    table["columns"] = names;
    table["data"] = data;
    out[key] = table;
  }
  if (out.empty())
    throw Error(what,
                "at least one table (a 2-D dataset at the root, as `nsdyn run --format hdf5` "
                "writes)",
                info.nlinks == 0
                    ? "an empty file"
                    : "groups only (a scene file? read it with nsdyn.read_hdf5_dataset)");
  return out;
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
