// nsdyn.read_results on an HDF5 file (`nsdyn run --format hdf5`, io::writeHdf5): the
// tables read with the HDF5 C library, every damage refused naming the file.
#include <nsdyn/Error.hpp>

#include <hdf5.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "child_read.hpp"

namespace nsdpy {
namespace {

using nsdyn::Error;

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

/// One table of a results file as read by the HDF5 library, before any Python object exists
/// (so that a child process can read it: probeInChild).
struct RawTable {
  std::string name;
  std::vector<std::string> columns;
  hsize_t rows = 0, cols = 0;
  std::vector<double> data;
};

/// Every 2-D dataset at the root of @p path, in file order; nsdyn::Error naming the file and
/// the dataset for anything that is not a readable table of numbers (groups are left out).
std::vector<RawTable> readRawTables(const std::string& path, hsize_t& links) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // the messages below say what failed
  H5Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (file.id < 0) throw Error("results HDF5 reader", "an HDF5 file that can be opened", path);
  const std::string what = "results HDF5 reader (" + path + ")";
  H5G_info_t info{};
  if (H5Gget_info(file.id, &info) < 0) throw Error(what, "a readable root group", "a damaged one");
  links = info.nlinks;
  hsize_t fileSize = 0;
  if (H5Fget_filesize(file.id, &fileSize) < 0) fileSize = 0;
  std::vector<RawTable> out;
  for (hsize_t k = 0; k < info.nlinks; ++k) {
    const ssize_t len =
        H5Lget_name_by_idx(file.id, ".", H5_INDEX_NAME, H5_ITER_INC, k, nullptr, 0, H5P_DEFAULT);
    if (len < 0) throw Error(what, "readable link names", "link " + std::to_string(k));
    std::string name(static_cast<std::size_t>(len) + 1, '\0');
    H5Lget_name_by_idx(file.id, ".", H5_INDEX_NAME, H5_ITER_INC, k, name.data(), name.size(),
                       H5P_DEFAULT);
    name.resize(static_cast<std::size_t>(len));
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
    // ask for terabytes, or read past the end of the file
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
    RawTable t;
    t.name = name;
    t.rows = dims[0];
    t.cols = dims[1];
    t.data.resize(static_cast<std::size_t>(dims[0] * dims[1]));
    if (!t.data.empty() &&
        H5Dread(object.id, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t.data.data()) < 0)
      throw Error(what, "a dataset of numbers that can be read", dataset + " that cannot");
    t.columns = columnNames(object.id, path, name);
    if (t.columns.size() != dims[1])
      throw Error(what, std::to_string(dims[1]) + " column names on " + dataset,
                  std::to_string(t.columns.size()));
    out.push_back(std::move(t));
  }
  return out;
}

/// The tables as bytes (the child's answer to readInChild) and back.
void put(std::string& out, const void* data, std::size_t size) {
  out.append(static_cast<const char*>(data), size);
}
void putSize(std::string& out, std::uint64_t n) {
  put(out, &n, sizeof n);
}
void putText(std::string& out, const std::string& s) {
  putSize(out, s.size());
  out += s;
}

std::string toBytes(const std::vector<RawTable>& tables, hsize_t links) {
  std::string out;
  putSize(out, links);
  putSize(out, tables.size());
  for (const RawTable& t : tables) {
    putText(out, t.name);
    putSize(out, t.columns.size());
    for (const std::string& c : t.columns) putText(out, c);
    putSize(out, t.rows);
    putSize(out, t.cols);
    put(out, t.data.data(), t.data.size() * sizeof(double));
  }
  return out;
}

/// Reads what toBytes wrote; the bytes come from our own child, a short answer is an Error.
struct BytesReader {
  const std::string& in;
  std::size_t at = 0;
  [[noreturn]] static void truncated() {
    throw Error("results HDF5 reader", "a whole answer from its reading process",
                "a truncated one");
  }
  void get(void* data, std::size_t size) {
    if (size > in.size() - at) truncated();
    std::memcpy(data, in.data() + at, size);
    at += size;
  }
  std::uint64_t size() {
    std::uint64_t n = 0;
    get(&n, sizeof n);
    return n;
  }
  std::string text() {
    const std::uint64_t n = size();
    if (n > in.size() - at) truncated();
    std::string s = in.substr(at, n);
    at += n;
    return s;
  }
};

std::vector<RawTable> fromBytes(const std::string& in, hsize_t& links) {
  BytesReader r{in};
  links = r.size();
  std::vector<RawTable> tables;
  const std::uint64_t count = r.size();
  for (std::uint64_t k = 0; k < count; ++k) {
    RawTable t;
    t.name = r.text();
    const std::uint64_t columns = r.size();
    for (std::uint64_t c = 0; c < columns; ++c) t.columns.push_back(r.text());
    t.rows = r.size();
    t.cols = r.size();
    const std::uint64_t n = t.rows * t.cols;
    if (t.cols != 0 && (t.rows > in.size() || n > (in.size() - r.at) / sizeof(double)))
      BytesReader::truncated();  // more numbers than bytes
    t.data.resize(n);
    r.get(t.data.data(), n * sizeof(double));
    tables.push_back(std::move(t));
  }
  return tables;
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

}  // namespace

/// Every 2-D dataset at the root of the results file @p path (`nsdyn run --format hdf5`,
/// io::writeHdf5): {name: {"columns": [...], "data": (rows, cols) float64}}, in file order.
/// Groups are left out (a scene file's data/...); anything else that is not a readable table
/// of numbers, and a file without any table, is an nsdyn::Error naming the file and the
/// dataset: a damaged file is refused, never read as fewer tables or as garbage sizes.
/// libhdf5 itself can crash, corrupt memory or loop on some damaged files (52 of 8,184
/// one-byte changes of a results file, measured): the file is read in a child process
/// (readInChild) and the tables come back through a pipe; a child that dies or runs out of
/// time (30 s + 1 s per MiB, NSDYN_HDF5_PROBE_SECONDS) is an nsdyn::Error naming the file.
py::dict readResultsHdf5(const std::string& path) {
  const std::string what = "results HDF5 reader (" + path + ")";
  struct stat st {};
  double seconds = 30.0 + (::stat(path.c_str(), &st) == 0 ? double(st.st_size) / (1 << 20) : 0.0);
  if (const char* env = std::getenv("NSDYN_HDF5_PROBE_SECONDS"); env && std::atof(env) > 0.0)
    seconds = std::atof(env);
  std::string bytes;
  {
    py::gil_scoped_release free;  // a long read lets other Python threads run
    bytes = readInChild(
        [&path] {
          hsize_t links = 0;
          std::vector<RawTable> tables = readRawTables(path, links);
          return toBytes(tables, links);
        },
        seconds, what, "HDF5 library");
  }
  hsize_t links = 0;
  std::vector<RawTable> raw = fromBytes(bytes, links);
  py::dict out;
  for (RawTable& t : raw) {
    const std::string dataset = "dataset '" + t.name + "'";
    const py::str key = utf8(t.name, what, "table names that are UTF-8 text");
    py::list names;
    for (const std::string& c : t.columns)
      names.append(utf8(c, what, "column names that are UTF-8 text on " + dataset));
    py::array_t<double> data({static_cast<py::ssize_t>(t.rows), static_cast<py::ssize_t>(t.cols)});
    std::copy(t.data.begin(), t.data.end(), data.mutable_data());
    py::dict table;
    table["columns"] = names;
    table["data"] = data;
    out[key] = table;
  }
  if (out.empty())
    throw Error(what,
                "at least one table (a 2-D dataset at the root, as `nsdyn run --format hdf5` "
                "writes)",
                links == 0 ? "an empty file"
                           : "groups only (a scene file? read it with nsdyn.read_hdf5_dataset)");
  return out;
}

}  // namespace nsdpy
