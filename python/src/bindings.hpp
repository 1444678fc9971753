// Shared declarations of the nsdyn Python module (python/src): the conversions between
// NumPy arrays and the library's vectors and matrices, with the checks every binding makes
// (shape, dtype, contiguity, finiteness: a Python exception naming the argument).
#ifndef NSDYN_PYTHON_BINDINGS_HPP
#define NSDYN_PYTHON_BINDINGS_HPP

#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <nsdyn/numerics.h>
#include <nsdyn/ShapeInstance.hpp>
#include <nsdyn/SiconosVector.hpp>
#include <nsdyn/SimpleMatrix.hpp>

namespace py = pybind11;

namespace nsdpy {

/// A double array read from Python: values in row-major order and the shape.
struct Array {
  std::vector<double> values;
  std::vector<py::ssize_t> shape;
};

/// Read @p obj (ndarray, list, tuple, number) as a real array. TypeError for a dtype that
/// is not real (complex, object, strings) or an object that is not array-like; ValueError for
/// a non-contiguous ndarray or (unless @p allowNonFinite) a NaN/inf, naming @p arg.
Array readArray(py::handle obj, const std::string& arg, bool allowNonFinite = false);

/// A 1-D vector; @p size >= 0: the size required (ValueError naming the expected shape).
std::vector<double> toVector(py::handle obj, const std::string& arg, py::ssize_t size = -1,
                             bool allowNonFinite = false);
nsdyn::SiconosVector toSiconosVector(py::handle obj, const std::string& arg, py::ssize_t size = -1);
std::array<double, 3> toVec3(py::handle obj, const std::string& arg);
std::array<double, 4> toQuat(py::handle obj, const std::string& arg);
/// A 2-D matrix (rows, cols), -1: any. A 1-D array is a row when @p rowFromVector.
nsdyn::SimpleMatrix toSimpleMatrix(py::handle obj, const std::string& arg, py::ssize_t rows = -1,
                                   py::ssize_t cols = -1, bool rowFromVector = true);

/// Copies into new NumPy arrays (the Kernel reassigns its state vectors at every step, so
/// views of them would not stay valid: see doc/python.md).
py::array_t<double> toNumpy(const nsdyn::SiconosVector& v);
py::array_t<double> toNumpy(const std::vector<double>& v);
py::array_t<double> toNumpy(const nsdyn::SimpleMatrix& m);
py::array_t<double> toNumpy(const double* data, std::vector<py::ssize_t> shape);

/// Python callables turned into the Kernel's std::function types. Each call converts the
/// arguments to NumPy arrays, calls, and checks the result's shape; an exception raised by
/// the callable goes up through the Kernel as the same Python exception.
std::function<nsdyn::SiconosVector(double)> vectorOfTime(py::function f, const std::string& arg,
                                                         std::size_t size);

/// The shapes argument of bodies and scenes (mechanics.cpp): a Shape, or a list of Shape or
/// (Shape, position[, orientation]) tuples; TypeError/ValueError naming the item.
std::vector<nsdyn::ShapeInstance> shapeList(py::handle shapes);

/// Scalar arguments of the public entry points, read from any Python object so that a wrong
/// one is named (pybind11's own casts say "incompatible function arguments" without naming
/// the argument). @p arg is "function: name". TypeError naming @p arg, the type and the value
/// for an object of the wrong type; ValueError for an integer outside [@p lo, @p hi].
double toReal(py::handle obj, const std::string& arg);
long long toInteger(py::handle obj, const std::string& arg, long long lo, long long hi);
std::string toText(py::handle obj, const std::string& arg);
/// A file path: str or os.PathLike (pathlib.Path), as open() takes it.
std::string toPath(py::handle obj, const std::string& arg);
/// A callable or None (TypeError naming @p arg otherwise).
py::object toCallback(py::handle obj, const std::string& arg);
/// The count of steps of a run: None (-1: all), or an integer >= 0; ValueError naming @p arg
/// and the value for a negative one (-1 does not mean "all").
long long toSteps(py::handle obj, const std::string& arg);
/// repr(obj), cut to 80 characters, for the messages above.
std::string shortRepr(py::handle obj);
/// TypeError for keywords a function does not take (its **kwargs): names the first and lists
/// the keywords it takes (@p known).
void refuseKeywords(const py::kwargs& kwargs, const std::string& function,
                    const std::string& known);

/// Raise nsdyn.BadInputError (a ValueError) with @p message.
[[noreturn]] void badInput(const std::string& message);

void initNumerics(py::module_& m);
void initGmp(py::module_& m);  // nsdyn.gmp (gmp.cpp), after initNumerics: its Problem type
void initRfc(py::module_& m);  // nsdyn.rfc (rfc.cpp), after initNumerics: its Problem type
void initGfc(py::module_& m);  // nsdyn.gfc_velocity/_error/_reduce (gfc.cpp), after initNumerics
/// numerics.cpp, for gmp.cpp: a matrix from an array or a sparse matrix (as nsdyn.lcp takes
/// M; owned by the caller), a new nsdyn.Problem taking what @p p holds (zeroed), and the
/// NsdProblem of an nsdyn.Problem (TypeError for anything else).
NsdMatrix* toMatrixCopy(py::handle obj, const std::string& arg, py::ssize_t rows, py::ssize_t cols);
py::object wrapProblem(NsdProblem* p);
const NsdProblem& problemOf(py::handle obj);
void initKernel(py::module_& m);
void initMechanics(py::module_& m);
void initMechanism(py::module_& m);    // terrains, GenericMechanical, JointAxisR (mechanism.cpp)
void initSceneEngine(py::module_& m);  // nsdyn.SceneEngine (scene_engine.cpp)
void initScene(py::module_& m);        // nsdyn.Scene over a SceneEngine (scene.cpp)
void initIo(py::module_& m);
/// nsdyn.peridynamics (peridynamics.cpp), after initScene: adds SceneEngine/Scene methods.
void initPeridynamics(py::module_& m);

/// The exception types, created by module.cpp.
extern PyObject* BadInputError;  // a new reference kept for the process (never released)

/// nsdyn.read_results on an HDF5 results file (results_hdf5.cpp).
py::dict readResultsHdf5(const std::string& path);

}  // namespace nsdpy

#endif
