// NumPy <-> SiconosVector / SimpleMatrix, with the checks of every binding.
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

std::string typeName(py::handle obj) { return py::str(py::type::handle_of(obj).attr("__name__")); }

}  // namespace

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
    const bool contiguous = (arr.flags() & py::array::c_style) || (arr.flags() & py::array::f_style);
    if (!contiguous)
      throw py::value_error(arg + ": expected a contiguous array, found a non-contiguous view of shape " +
                            shapeText(std::vector<py::ssize_t>(arr.shape(), arr.shape() + arr.ndim())) +
                            " (use numpy.ascontiguousarray)");
  } else if (py::isinstance<py::float_>(obj) || py::isinstance<py::int_>(obj) ||
             py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj)) {
    try {
      arr = py::array::ensure(obj);
    } catch (...) {
    }
    if (!arr || (arr.dtype().kind() != 'f' && arr.dtype().kind() != 'i' && arr.dtype().kind() != 'b'))
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
        throw py::value_error(arg + ": expected finite values, found " + std::to_string(out.values[i]) +
                              " at flat index " + std::to_string(i));
  return out;
}

std::vector<double> toVector(py::handle obj, const std::string& arg, py::ssize_t size, bool allowNonFinite) {
  Array a = readArray(obj, arg, allowNonFinite);
  if (a.shape.size() == 0) a.shape = {1};
  if (a.shape.size() != 1)
    throw py::value_error(arg + ": expected a vector of shape " + shapeText({size}) + ", found shape " +
                          shapeText(a.shape));
  if (size >= 0 && a.shape[0] != size)
    throw py::value_error(arg + ": expected shape " + shapeText({size}) + ", found shape " + shapeText(a.shape));
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

nsdyn::SimpleMatrix toSimpleMatrix(py::handle obj, const std::string& arg, py::ssize_t rows, py::ssize_t cols,
                                   bool rowFromVector) {
  Array a = readArray(obj, arg);
  if (a.shape.size() == 1 && rowFromVector) a.shape = {1, a.shape[0]};
  if (a.shape.size() != 2 || (rows >= 0 && a.shape[0] != rows) || (cols >= 0 && a.shape[1] != cols))
    throw py::value_error(arg + ": expected a matrix of shape " + shapeText({rows, cols}) + ", found shape " +
                          shapeText(a.shape));
  nsdyn::SimpleMatrix m(static_cast<std::size_t>(a.shape[0]), static_cast<std::size_t>(a.shape[1]));
  for (py::ssize_t i = 0; i < a.shape[0]; ++i)
    for (py::ssize_t j = 0; j < a.shape[1]; ++j)
      m(static_cast<std::size_t>(i), static_cast<std::size_t>(j)) = a.values[static_cast<std::size_t>(i * a.shape[1] + j)];
  return m;
}

py::array_t<double> toNumpy(const double* data, std::vector<py::ssize_t> shape) {
  py::array_t<double> out(shape);
  if (out.size() > 0) std::memcpy(out.mutable_data(), data, static_cast<std::size_t>(out.size()) * sizeof(double));
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
  if (r * c > 0) std::memcpy(out.mutable_data(), m.data(), static_cast<std::size_t>(r * c) * sizeof(double));
  return out;
}

std::function<nsdyn::SiconosVector(double)> vectorOfTime(py::function f, const std::string& arg,
                                                         std::size_t size) {
  return [f, arg, size](double t) {
    py::gil_scoped_acquire gil;
    py::object r = f(t);
    return toSiconosVector(r, arg + " (value returned by the callable)", static_cast<py::ssize_t>(size));
  };
}

}  // namespace nsdpy
