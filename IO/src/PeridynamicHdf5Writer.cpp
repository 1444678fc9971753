// HDF5 output of peridynamic bodies (C API): a group per body, one slab per output step.
#include "nsdyn/io/PeridynamicHdf5Writer.hpp"

#include <hdf5.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"
#include "nsdyn/io/WriteFault.hpp"

namespace nsdyn::io {

static_assert(std::is_same<hid_t, std::int64_t>::value,
              "PeridynamicHdf5Writer stores hid_t as int64_t");

namespace {

bool stringAttribute(hid_t object, const char* name, const std::string& value) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.empty() ? 1 : value.size());
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  const bool ok = attr >= 0 && H5Awrite(attr, type, value.empty() ? "" : value.c_str()) >= 0;
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  return ok;
}

template <class T>
bool scalarAttribute(hid_t object, const char* name, hid_t fileType, hid_t memType, T value) {
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(object, name, fileType, space, H5P_DEFAULT, H5P_DEFAULT);
  const bool ok = attr >= 0 && H5Awrite(attr, memType, &value) >= 0;
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  return ok;
}

// A fixed dataset of @p rank dims written at once.
bool fixedDataset(hid_t group, const char* name, int rank, const hsize_t* dims, hid_t fileType,
                  hid_t memType, const void* data) {
  hid_t space = H5Screate_simple(rank, dims, nullptr);
  hid_t props = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_obj_track_times(props, false);
  hid_t set = H5Dcreate2(group, name, fileType, space, H5P_DEFAULT, props, H5P_DEFAULT);
  H5Pclose(props);
  bool ok = set >= 0;
  hsize_t count = 1;
  for (int k = 0; k < rank; ++k) count *= dims[k];
  if (ok && count > 0) ok = H5Dwrite(set, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0;
  if (set >= 0) H5Dclose(set);
  H5Sclose(space);
  return ok;
}

// An empty float64 dataset growing along its first dimension: (0, rest...), one row per chunk.
hid_t growingDataset(hid_t group, const char* name, const std::vector<hsize_t>& rest) {
  std::vector<hsize_t> dims{0}, maxDims{H5S_UNLIMITED}, chunk{1};
  for (hsize_t r : rest) {
    dims.push_back(r);
    maxDims.push_back(r);
    chunk.push_back(r > 0 ? r : 1);
  }
  if (rest.empty()) chunk[0] = 1024;
  const int rank = static_cast<int>(dims.size());
  hid_t space = H5Screate_simple(rank, dims.data(), maxDims.data());
  hid_t props = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(props, rank, chunk.data());
  H5Pset_obj_track_times(props, false);
  hid_t set = H5Dcreate2(group, name, H5T_IEEE_F64LE, space, H5P_DEFAULT, props, H5P_DEFAULT);
  H5Pclose(props);
  H5Sclose(space);
  return set;
}

// Append one row (the dataset's other dimensions' worth of @p data) at row @p row.
bool appendRow(hid_t set, std::size_t row, const double* data) {
  hid_t space = H5Dget_space(set);
  if (space < 0) return false;
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  H5Sclose(space);
  dims[0] = row + 1;
  if (H5Dset_extent(set, dims.data()) < 0) return false;
  space = H5Dget_space(set);
  std::vector<hsize_t> start(dims.size(), 0), count = dims;
  start[0] = row;
  count[0] = 1;
  hid_t mem = H5Screate_simple(rank, count.data(), nullptr);
  bool ok = space >= 0 && H5Sselect_hyperslab(space, H5S_SELECT_SET, start.data(), nullptr,
                                              count.data(), nullptr) >= 0;
  hsize_t values = 1;
  for (hsize_t c : count) values *= c;
  ok = ok && (values == 0 || H5Dwrite(set, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, data) >= 0);
  H5Sclose(mem);
  if (space >= 0) H5Sclose(space);
  return ok;
}

}  // namespace

PeridynamicHdf5Writer::PeridynamicHdf5Writer(const std::string& path)
    : file_("peridynamic HDF5 writer", path) {
  bool ok = !writeFault("hdf5 attribute", file_.partPath()) &&
            stringAttribute(file_.id(), "format", kFormat);
  hid_t groupProps = H5Pcreate(H5P_GROUP_CREATE);
  H5Pset_obj_track_times(groupProps, false);
  top_ = ok ? H5Gcreate2(file_.id(), "peridynamics", H5P_DEFAULT, groupProps, H5P_DEFAULT) : -1;
  H5Pclose(groupProps);
  time_ = top_ >= 0 ? growingDataset(file_.id(), "time", {}) : -1;
  if (!ok || top_ < 0 || time_ < 0) fail("the group peridynamics and the dataset time created");
}

PeridynamicHdf5Writer::~PeridynamicHdf5Writer() {
  try {
    close();
  } catch (...) {
  }
}

void PeridynamicHdf5Writer::closeObjects() {
  for (BodySets& b : bodies_) {
    for (hid_t id : {b.positions, b.velocities, b.damage})
      if (id >= 0) H5Dclose(id);
    if (b.group >= 0) H5Gclose(b.group);
  }
  bodies_.clear();
  if (time_ >= 0) H5Dclose(time_);
  time_ = -1;
  if (top_ >= 0) H5Gclose(top_);
  top_ = -1;
}

void PeridynamicHdf5Writer::fail(const std::string& what) {
  file_.fail(what, [this] { closeObjects(); });
}

void PeridynamicHdf5Writer::discard() {
  file_.discard([this] { closeObjects(); });
}

void PeridynamicHdf5Writer::close() {
  file_.commit([this] { closeObjects(); });
}

void PeridynamicHdf5Writer::createBody(const PeridynamicBody& body) {
  const std::string& name = body.name();
  hid_t groupProps = H5Pcreate(H5P_GROUP_CREATE);
  H5Pset_obj_track_times(groupProps, false);
  hid_t group = writeFault("hdf5 dataset", file_.partPath())
                    ? -1
                    : H5Gcreate2(top_, name.c_str(), H5P_DEFAULT, groupProps, H5P_DEFAULT);
  H5Pclose(groupProps);
  if (group < 0) fail("the group peridynamics/" + name + " created");
  BodySets sets{name, body.size(), group, -1, -1, -1};
  bodies_.push_back(sets);
  BodySets& b = bodies_.back();
  const auto n = static_cast<hsize_t>(body.size());
  const PeridynamicBodyOptions& o = body.options();
  bool ok = scalarAttribute(group, "points", H5T_STD_I64LE, H5T_NATIVE_LLONG,
                            static_cast<long long>(body.size()));
  ok = ok && scalarAttribute(group, "bonds", H5T_STD_I64LE, H5T_NATIVE_LLONG,
                             static_cast<long long>(body.bondCount()));
  ok = ok && scalarAttribute(group, "spacing", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, o.spacing);
  ok = ok && scalarAttribute(group, "horizon", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, o.horizon);
  ok = ok && scalarAttribute(group, "density", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, o.density);
  ok = ok && scalarAttribute(group, "thickness", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, o.thickness);
  ok = ok && stringAttribute(group, "material", body.material().kind());
  const hsize_t d2[2] = {n, 3};
  ok = ok &&
       fixedDataset(group, "reference", 2, d2, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, body.X.data());
  ok = ok &&
       fixedDataset(group, "volume", 1, &n, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, body.volume.data());
  ok = ok && fixedDataset(group, "prescribed", 1, &n, H5T_STD_U8LE, H5T_NATIVE_UINT8,
                          body.prescribed.data());
  if (ok) b.positions = growingDataset(group, "positions", {n, 3});
  if (ok) b.velocities = growingDataset(group, "velocities", {n, 3});
  if (ok) b.damage = growingDataset(group, "damage", {n});
  if (!ok || b.positions < 0 || b.velocities < 0 || b.damage < 0)
    fail("the datasets of peridynamics/" + name + " written");
}

void PeridynamicHdf5Writer::writeStep(double time,
                                      const std::vector<const PeridynamicBody*>& bodies) {
  const std::string who = "peridynamic HDF5 writer (" + file_.path() + ")";
  if (!file_.isOpen())
    throw Error(
        who,
        file_.failed() ? "a file without a write failure" : "an open file (close() was called)",
        "a step written");
  if (!std::isfinite(time)) throw Error(who, "a finite time", std::to_string(time));
  if (steps_ > 0 && bodies.size() != bodies_.size())
    throw Error(who, "the " + std::to_string(bodies_.size()) + " bodies of the first step",
                std::to_string(bodies.size()));
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const PeridynamicBody* b = bodies[k];
    if (!b) throw Error(who, "a body", "a null pointer at " + std::to_string(k));
    const std::string& name = b->name();
    if (steps_ == 0) {
      if (name.empty() || name == "." || name.find('/') != std::string::npos)
        throw Error(who, "a body name without '/'", "'" + name + "'");
      for (std::size_t j = 0; j < k; ++j)
        if (bodies[j]->name() == name)
          throw Error(who, "bodies of distinct names", "'" + name + "' twice");
    } else if (name != bodies_[k].name || b->size() != bodies_[k].points) {
      throw Error(who,
                  "body " + std::to_string(k) + " as at the first step ('" + bodies_[k].name +
                      "', " + std::to_string(bodies_[k].points) + " points)",
                  "'" + name + "', " + std::to_string(b->size()) + " points");
    }
  }
  if (steps_ == 0)
    for (const PeridynamicBody* b : bodies) createBody(*b);
  if (writeFault("hdf5 write", file_.partPath()))
    fail("step " + std::to_string(steps_) + " written");
  bool ok = appendRow(time_, steps_, &time);
  for (std::size_t k = 0; k < bodies.size() && ok; ++k) {
    const PeridynamicBody& b = *bodies[k];
    ok = appendRow(bodies_[k].positions, steps_, b.x.data()) &&
         appendRow(bodies_[k].velocities, steps_, b.v.data()) &&
         appendRow(bodies_[k].damage, steps_, b.damage.data());
  }
  if (!ok) fail("step " + std::to_string(steps_) + " written");
  ++steps_;
  if (writeFault("hdf5 flush", file_.partPath()) || H5Fflush(file_.id(), H5F_SCOPE_LOCAL) < 0)
    fail("a file flushed");
}

std::vector<double> readHdf5Doubles(const std::string& path, const std::string& name,
                                    std::vector<std::size_t>& dims) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) throw Error("HDF5 reader", "an HDF5 file that can be opened", path);
  hid_t set = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  if (set < 0) {
    H5Fclose(file);
    throw Error("HDF5 reader (" + path + ")", "a dataset", name);
  }
  hid_t space = H5Dget_space(set);
  const int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  std::vector<hsize_t> d(rank > 0 ? static_cast<std::size_t>(rank) : 0);
  if (rank > 0) H5Sget_simple_extent_dims(space, d.data(), nullptr);
  std::size_t count = 1;
  dims.assign(d.begin(), d.end());
  for (hsize_t x : d) count *= static_cast<std::size_t>(x);
  std::vector<double> out(count);
  const bool ok = rank >= 0 && (count == 0 || H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                                                      H5P_DEFAULT, out.data()) >= 0);
  if (space >= 0) H5Sclose(space);
  H5Dclose(set);
  H5Fclose(file);
  if (!ok) throw Error("HDF5 reader (" + path + ")", "a dataset of numbers", name);
  return out;
}

}  // namespace nsdyn::io
