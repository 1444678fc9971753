// NumPy <-> SiconosVector / SimpleMatrix, with the checks of every binding.
#include <climits>
#include <cmath>
#include <cstring>

#include "bindings.hpp"

namespace nsdpy {

void badInput(const std::string& message) {
  PyErr_SetString(BadInputError, message.c_str());
  throw py::error_already_set();
}

namespace {

std::string shapeText(const std::vector<py::ssize_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += shape[i] < 0 ? std::string("n") : std::to_string(shape[i]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string typeName(py::handle obj) {
  return py::str(py::type::handle_of(obj).attr("__name__"));
}

}  // namespace

std::string shortRepr(py::handle obj) {
  std::string r = py::repr(obj);
  if (r.size() > 80) r = r.substr(0, 77) + "...";
  return r;
}

namespace {
[[noreturn]] void wrongType(py::handle obj, const std::string& arg, const std::string& expected) {
  throw py::type_error(arg + ": expected " + expected + ", found " + typeName(obj) + " " +
                       shortRepr(obj));
}
}  // namespace

double toReal(py::handle obj, const std::string& arg) {
  // numbers and NumPy scalars; not strings (float("1") would take them)
  if (!obj || obj.is_none() || py::isinstance<py::str>(obj) || py::isinstance<py::bytes>(obj) ||
      !PyNumber_Check(obj.ptr()))
    wrongType(obj, arg, "a real number");
  const double v = PyFloat_AsDouble(obj.ptr());
  if (v == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    wrongType(obj, arg, "a real number");
  }
  return v;
}

long long toInteger(py::handle obj, const std::string& arg, long long lo, long long hi) {
  // int, bool and NumPy integers (__index__); a float is refused, even 2.0
  if (!obj || obj.is_none() || !PyIndex_Check(obj.ptr())) wrongType(obj, arg, "an integer");
  py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(obj.ptr()));
  if (!value) {
    PyErr_Clear();
    wrongType(obj, arg, "an integer");
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow != 0 || v < lo || v > hi)
    throw py::value_error(arg + ": expected an integer " +
                          (hi == LLONG_MAX
                               ? ">= " + std::to_string(lo)
                               : "in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]") +
                          ", found " + std::string(py::str(value)));
  return v;
}

std::string toText(py::handle obj, const std::string& arg) {
  if (!obj || !py::isinstance<py::str>(obj)) wrongType(obj, arg, "a str");
  return obj.cast<std::string>();
}

std::string toPath(py::handle obj, const std::string& arg) {
  if (obj && !py::isinstance<py::str>(obj) && PyObject_HasAttrString(obj.ptr(), "__fspath__")) {
    py::object p = py::reinterpret_steal<py::object>(PyOS_FSPath(obj.ptr()));
    if (!p) throw py::error_already_set();
    if (py::isinstance<py::str>(p)) return p.cast<std::string>();
  }
  if (!obj || !py::isinstance<py::str>(obj)) wrongType(obj, arg, "a path (str or os.PathLike)");
  return obj.cast<std::string>();
}

py::object toCallback(py::handle obj, const std::string& arg) {
  if (obj.is_none()) return py::none();
  if (!PyCallable_Check(obj.ptr())) wrongType(obj, arg, "a callable or None");
  return py::reinterpret_borrow<py::object>(obj);
}

long long toSteps(py::handle obj, const std::string& arg) {
  if (obj.is_none()) return -1;
  if (!PyIndex_Check(obj.ptr())) wrongType(obj, arg, "a count of steps (int >= 0) or None");
  const long long limit = 9223372036854775807LL;
  py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(obj.ptr()));
  if (!value) throw py::error_already_set();
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow < 0 || (overflow == 0 && v < 0))
    throw py::value_error(arg + ": expected a count of steps >= 0 (None: until T), found " +
                          std::string(py::str(value)));
  return overflow > 0 ? limit : v;
}

void refuseKeywords(const py::kwargs& kwargs, const std::string& function,
                    const std::string& known) {
  for (auto item : kwargs)
    throw py::type_error(function + ": unexpected keyword argument '" +
                         std::string(py::str(item.first)) + "' (keywords: " + known + ")");
}

Array readArray(py::handle obj, const std::string& arg, bool allowNonFinite) {
  Array out;
  if (obj.is_none()) throw py::type_error(arg + ": expected an array of real numbers, found None");
  py::array arr;
  if (py::isinstance<py::array>(obj)) {
    arr = py::reinterpret_borrow<py::array>(obj);
    const char kind = arr.dtype().kind();
    if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b')
      throw py::type_error(arg + ": expected an array of real numbers (float64), found dtype " +
                           std::string(py::str(arr.dtype())));
    const bool contiguous =
        (arr.flags() & py::array::c_style) || (arr.flags() & py::array::f_style);
    if (!contiguous)
      throw py::value_error(
          arg + ": expected a contiguous array, found a non-contiguous view of shape " +
          shapeText(std::vector<py::ssize_t>(arr.shape(), arr.shape() + arr.ndim())) +
          " (use numpy.ascontiguousarray)");
  } else if (py::isinstance<py::float_>(obj) || py::isinstance<py::int_>(obj) ||
             py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
    try {
      arr = py::array::ensure(obj);
    } catch (...) {
    }
    if (!arr ||
        (arr.dtype().kind() != 'f' && arr.dtype().kind() != 'i' && arr.dtype().kind() != 'b'))
      throw py::type_error(arg + ": expected a sequence of real numbers, found " + typeName(obj) +
                           " that is not one");
  } else {
    throw py::type_error(arg + ": expected an array of real numbers (numpy.ndarray, list), found " +
                         typeName(obj));
  }
  // a C-ordered float64 copy of the values
  auto c = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(arr);
  if (!c) throw py::error_already_set();
  out.shape.assign(c.shape(), c.shape() + c.ndim());
  out.values.assign(c.data(), c.data() + c.size());
  if (!allowNonFinite)
    for (std::size_t i = 0; i < out.values.size(); ++i)
      if (!std::isfinite(out.values[i]))
        throw py::value_error(arg + ": expected finite values, found " +
                              std::to_string(out.values[i]) + " at flat index " +
                              std::to_string(i));
  return out;
}

std::vector<double> toVector(py::handle obj, const std::string& arg, py::ssize_t size,
                             bool allowNonFinite) {
  Array a = readArray(obj, arg, allowNonFinite);
  if (a.shape.size() == 0) a.shape = {1};
  if (a.shape.size() != 1)
    throw py::value_error(arg + ": expected a vector of shape " + shapeText({size}) +
                          ", found shape " + shapeText(a.shape));
  if (size >= 0 && a.shape[0] != size)
    throw py::value_error(arg + ": expected shape " + shapeText({size}) + ", found shape " +
                          shapeText(a.shape));
  return std::move(a.values);
}

nsdyn::SiconosVector toSiconosVector(py::handle obj, const std::string& arg, py::ssize_t size) {
  return nsdyn::SiconosVector(toVector(obj, arg, size));
}

std::array<double, 3> toVec3(py::handle obj, const std::string& arg) {
  const std::vector<double> v = toVector(obj, arg, 3);
  return {v[0], v[1], v[2]};
}

std::array<double, 4> toQuat(py::handle obj, const std::string& arg) {
  const std::vector<double> v = toVector(obj, arg, 4);
  return {v[0], v[1], v[2], v[3]};
}

nsdyn::SimpleMatrix toSimpleMatrix(py::handle obj, const std::string& arg, py::ssize_t rows,
                                   py::ssize_t cols, bool rowFromVector) {
  Array a = readArray(obj, arg);
  if (a.shape.size() == 1 && rowFromVector) a.shape = {1, a.shape[0]};
  if (a.shape.size() != 2 || (rows >= 0 && a.shape[0] != rows) || (cols >= 0 && a.shape[1] != cols))
    throw py::value_error(arg + ": expected a matrix of shape " + shapeText({rows, cols}) +
                          ", found shape " + shapeText(a.shape));
  nsdyn::SimpleMatrix m(static_cast<std::size_t>(a.shape[0]), static_cast<std::size_t>(a.shape[1]));
  for (py::ssize_t i = 0; i < a.shape[0]; ++i)
    for (py::ssize_t j = 0; j < a.shape[1]; ++j)
      m(static_cast<std::size_t>(i), static_cast<std::size_t>(j)) =
          a.values[static_cast<std::size_t>(i * a.shape[1] + j)];
  return m;
}

py::array_t<double> toNumpy(const double* data, std::vector<py::ssize_t> shape) {
  py::array_t<double> out(shape);
  if (out.size() > 0)
    std::memcpy(out.mutable_data(), data, static_cast<std::size_t>(out.size()) * sizeof(double));
  return out;
}

py::array_t<double> toNumpy(const nsdyn::SiconosVector& v) {
  return toNumpy(v.data(), {static_cast<py::ssize_t>(v.size())});
}

py::array_t<double> toNumpy(const std::vector<double>& v) {
  return toNumpy(v.data(), {static_cast<py::ssize_t>(v.size())});
}

py::array_t<double> toNumpy(const nsdyn::SimpleMatrix& m) {
  // the matrix is column-major: a Fortran-ordered array of the same values
  const auto r = static_cast<py::ssize_t>(m.rows()), c = static_cast<py::ssize_t>(m.cols());
  py::array_t<double, py::array::f_style> out({r, c});
  if (r * c > 0)
    std::memcpy(out.mutable_data(), m.data(), static_cast<std::size_t>(r * c) * sizeof(double));
  return out;
}

std::function<nsdyn::SiconosVector(double)> vectorOfTime(py::function f, const std::string& arg,
                                                         std::size_t size) {
  return [f, arg, size](double t) {
    py::gil_scoped_acquire gil;
    py::object r = f(t);
    return toSiconosVector(r, arg + " (value returned by the callable)",
                           static_cast<py::ssize_t>(size));
  };
}

}  // namespace nsdpy
