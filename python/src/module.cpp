// The compiled part of the nsdyn Python package: nsdyn._nsdyn (python/nsdyn/__init__.py
// re-exports it). One file per layer: numerics.cpp, kernel.cpp, mechanics.cpp,
// scene_engine.cpp, scene.cpp, io.cpp.
#include <nsdyn/Error.hpp>

#include "bindings.hpp"

namespace nsdpy {
PyObject* BadInputError = nullptr;
}

PYBIND11_MODULE(_nsdyn, m) {
  m.doc() =
      "nsdyn: nonsmooth dynamics (Numerics solvers, Kernel models, mechanics scenes, XML models)";
  m.attr("__version__") = NSD_VERSION_STRING;
  // nsdyn.Error: a Kernel/IO error (nsdyn::Error), with the C++ message.
  static py::exception<nsdyn::Error> error(m, "Error", PyExc_RuntimeError);  // NOLINT
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const nsdyn::Error& e) {
      error(e.what());
    }
  });
  // nsdyn.BadInputError: a Numerics status NSD_BAD_INPUT (a ValueError), with the C message.
  nsdpy::BadInputError = PyErr_NewException("nsdyn.BadInputError", PyExc_ValueError, nullptr);
  if (!nsdpy::BadInputError) throw py::error_already_set();
  m.attr("BadInputError") = py::handle(nsdpy::BadInputError);
  nsdpy::initNumerics(m);
  nsdpy::initGmp(m);
  nsdpy::initRfc(m);
  nsdpy::initGfc(m);
  nsdpy::initKernel(m);
  nsdpy::initMechanics(m);
  nsdpy::initMechanism(m);    // after initMechanics and initKernel: terrains, GMP, motors
  nsdpy::initSceneEngine(m);  // after initMechanics: its shapes and bodies
  nsdpy::initScene(m);        // after initSceneEngine: Scene.engine is one
  nsdpy::initIo(m);
  nsdpy::initPeridynamics(m);  // after initScene: SceneEngine/Scene.add_peridynamic_body
}
