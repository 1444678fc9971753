// HDF5 output of rigid-body scenes in the layout of Siconos's mechanics I/O (C API).
#include "nsdyn/io/SceneHdf5Writer.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "SceneHdf5Siconos.hpp"
#include "SceneWriterChecks.hpp"
#include "nsdyn/BodyStore.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SceneContacts.hpp"
#include "nsdyn/io/WriteFault.hpp"

namespace nsdyn::io {

static_assert(std::is_same<hid_t, std::int64_t>::value, "SceneHdf5Writer stores hid_t as int64_t");

namespace {

constexpr hsize_t kChunkRows = 1024;

// Layout: name, info (as Siconos's "info" attribute), column names.
struct Layout {
  const char* name;
  const char* info;
  std::vector<const char*> columns;
};

const std::vector<Layout>& layouts() {
  static const std::vector<Layout> l = {
      {"dynamic",
       "time, ds id, translation, orientation",
       {"time", "id", "x", "y", "z", "qw", "qx", "qy", "qz"}},
      {"velocities",
       "time, ds id, translational velocities (world), angular velocities (world)",
       {"time", "id", "vx", "vy", "vz", "wx", "wy", "wz"}},
      {"static",
       "time (0), static id, translation, orientation",
       {"time", "id", "x", "y", "z", "qw", "qx", "qy", "qz"}},
      {"cf",
       "time [0], mu [1], contact point A [2:4], contact point B [5:7], contact normal (from B to "
       "A) "
       "[8:10], contact force (global frame, impulse / h) [11:13], gap [14:16], relative velocity "
       "(local frame) [17:19], reaction impulse (local frame) [20:22], contact index [23], body A "
       "id "
       "[24], body B id [25]",
       {"time", "mu",  "pAx",      "pAy",       "pAz",       "pBx",     "pBy",    "pBz",    "nx",
        "ny",   "nz",  "fx",       "fy",        "fz",        "gap",     "gap_t1", "gap_t2", "un",
        "ut1",  "ut2", "lambda_n", "lambda_t1", "lambda_t2", "contact", "idA",    "idB"}},
      {"solv",
       "time, solver iterations, solver residual, local precision",
       {"time", "iterations", "residual", "local_precision"}},
      {"energy",
       "time, kinetic energy, potential energy (gravity), contact work, total energy",
       {"time", "kinetic", "potential", "contact_work", "total"}},
  };
  return l;
}

bool writeStringAttribute(hid_t object, const char* name, const std::string& value) {
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

bool writeStringsAttribute(hid_t object, const char* name, const std::vector<const char*>& values) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  const hsize_t n = values.size();
  hid_t space = H5Screate_simple(1, &n, nullptr);
  hid_t attr = H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  const bool ok = attr >= 0 && H5Awrite(attr, type, values.data()) >= 0;
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
  return ok;
}

// Create or overwrite a scalar attribute of type @p memType.
template <class T>
bool writeScalarAttribute(hid_t object, const char* name, hid_t fileType, hid_t memType, T value) {
  if (H5Aexists(object, name) > 0) H5Adelete(object, name);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(object, name, fileType, space, H5P_DEFAULT, H5P_DEFAULT);
  const bool ok = attr >= 0 && H5Awrite(attr, memType, &value) >= 0;
  if (attr >= 0) H5Aclose(attr);
  H5Sclose(space);
  return ok;
}

}  // namespace

SceneHdf5Writer::SceneHdf5Writer(const std::string& path, double h)
    : file_("scene HDF5 writer", path), h_(h) {
  if (!(h > 0.0) || !std::isfinite(h))  // the .part file goes with file_
    throw Error("scene HDF5 writer (" + path + ")", "a time step h finite and > 0",
                "h = " + std::to_string(h));
  bool ok = !writeFault("hdf5 attribute", file_.partPath()) &&
            writeStringAttribute(file_.id(), "format", kFormat);
  ok = ok && writeScalarAttribute(file_.id(), "dimension", H5T_STD_I32LE, H5T_NATIVE_INT, 3);
  ok = ok && writeScalarAttribute(file_.id(), "h", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, h);
  // no modification times in the object headers: the same run writes the same bytes
  hid_t groupProps = H5Pcreate(H5P_GROUP_CREATE);
  H5Pset_obj_track_times(groupProps, false);
  group_ = ok ? H5Gcreate2(file_.id(), "data", H5P_DEFAULT, groupProps, H5P_DEFAULT) : -1;
  H5Pclose(groupProps);
  ok = group_ >= 0 && ok;
  // the groups of shapes, objects and laws Siconos's tools open (filled at the first step
  // and at close())
  ok = ok && detail::createSiconosGroups(group_);
  for (const Layout& l : layouts()) {
    if (!ok) break;
    const hsize_t cols = l.columns.size();
    const hsize_t dims[2] = {0, cols};
    const hsize_t maxDims[2] = {H5S_UNLIMITED, cols};
    const hsize_t chunk[2] = {kChunkRows, cols};
    hid_t space = H5Screate_simple(2, dims, maxDims);
    hid_t props = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(props, 2, chunk);
    H5Pset_obj_track_times(props, false);
    hid_t set =
        writeFault("hdf5 dataset", file_.partPath())
            ? -1
            : H5Dcreate2(group_, l.name, H5T_IEEE_F64LE, space, H5P_DEFAULT, props, H5P_DEFAULT);
    H5Pclose(props);
    H5Sclose(space);
    ok = set >= 0 && writeStringAttribute(set, "info", l.info) &&
         writeStringsAttribute(set, "columns", l.columns);
    if (set >= 0) sets_.push_back(Dataset{l.name, l.columns.size(), set, 0});
  }
  if (!ok) fail("the datasets of data/ created");
  flush();
}

SceneHdf5Writer::~SceneHdf5Writer() {
  try {
    close();
  } catch (...) {
  }
}

void SceneHdf5Writer::closeObjects() {
  // the datasets and the group (the file is closed after them by file_)
  for (Dataset& s : sets_) H5Dclose(s.id);
  sets_.clear();
  if (group_ >= 0) H5Gclose(group_);
  group_ = -1;
}

void SceneHdf5Writer::fail(const std::string& what) {
  file_.fail(what, [this] { closeObjects(); });
}

void SceneHdf5Writer::flush() {
  file_.flush([this] { closeObjects(); });
}

void SceneHdf5Writer::discard() {
  file_.discard([this] { closeObjects(); });
}

void SceneHdf5Writer::close() {
  if (!file_.isOpen()) return;
  if (writeFault("hdf5 write", file_.partPath()) || !detail::writeSiconosLaws(group_, mus_))
    fail("the laws of data/nslaws written");
  file_.commit([this] { closeObjects(); });
}

SceneHdf5Writer::Dataset& SceneHdf5Writer::dataset(const std::string& name) {
  if (!file_.isOpen())
    throw Error(
        "scene HDF5 writer",
        file_.failed() ? "a file without a write failure" : "an open file (close() was called)",
        file_.path());
  for (Dataset& s : sets_)
    if (s.name == name) return s;
  throw Error("scene HDF5 writer (" + file_.path() + ")", "a dataset of data/", name);
}

std::size_t SceneHdf5Writer::rows(const std::string& name) const {
  for (const Dataset& s : sets_)
    if (s.name == name) return s.rows;
  return 0;
}

void SceneHdf5Writer::append(Dataset& set, const std::vector<double>& values) {
  const std::size_t added = values.size() / set.columns;
  if (added == 0) return;
  const hsize_t newDims[2] = {set.rows + added, set.columns};
  if (writeFault("hdf5 write", file_.partPath()))
    fail(std::to_string(added) + " rows appended to data/" + set.name);
  bool ok = H5Dset_extent(set.id, newDims) >= 0;
  hid_t fileSpace = ok ? H5Dget_space(set.id) : -1;
  const hsize_t start[2] = {set.rows, 0};
  const hsize_t count[2] = {added, set.columns};
  hid_t memSpace = H5Screate_simple(2, count, nullptr);
  ok = fileSpace >= 0 &&
       H5Sselect_hyperslab(fileSpace, H5S_SELECT_SET, start, nullptr, count, nullptr) >= 0;
  ok = ok &&
       H5Dwrite(set.id, H5T_NATIVE_DOUBLE, memSpace, fileSpace, H5P_DEFAULT, values.data()) >= 0;
  H5Sclose(memSpace);
  if (fileSpace >= 0) H5Sclose(fileSpace);
  if (!ok) fail(std::to_string(added) + " rows appended to data/" + set.name);
  set.rows += added;
}

int SceneHdf5Writer::bodyId(const std::vector<BodyShapes>& bodies, std::size_t index) {
  if (index >= bodies.size())
    throw Error("scene HDF5 writer", "a body index below " + std::to_string(bodies.size()),
                std::to_string(index));
  int before = 0;
  const bool isStatic = bodies[index].isStatic();
  for (std::size_t b = 0; b < index; ++b)
    if (bodies[b].isStatic() == isStatic) ++before;
  return isStatic ? -(before + 1) : before + 1;
}

void SceneHdf5Writer::writeStep(double time, const std::vector<BodyShapes>& bodies,
                                const ContactSet& contacts) {
  writeStep(time, SceneFrameView::of(bodies, contacts, "scene HDF5 writer (" + file_.path() + ")"));
}

void SceneHdf5Writer::writeStep(double time, const BodyStore& bodies,
                                const SceneContacts& contacts) {
  writeStep(time, SceneFrameView::of(bodies, contacts, "scene HDF5 writer (" + file_.path() + ")"));
}

void SceneHdf5Writer::writeStep(double time, const SceneFrameView& frame) {
  const std::string who = "scene HDF5 writer (" + file_.path() + ")";
  Dataset& dynamicSet = dataset("dynamic");
  if (started_ && frame.bodyCount != bodyCount_)
    throw Error(who, "the " + std::to_string(bodyCount_) + " bodies of the first step",
                std::to_string(frame.bodyCount));
  frame.check(who, true);
  const std::size_t n = frame.bodyCount;

  // the frame's bodies in the order of their global ids (one process: the frame's order)
  order_.resize(n);
  for (std::size_t b = 0; b < n; ++b) order_[b] = b;
  bool sorted = true;
  for (std::size_t b = 1; b < n && sorted; ++b) sorted = frame.id[b - 1] < frame.id[b];
  if (!sorted) {
    std::sort(order_.begin(), order_.end(),
              [&](std::size_t a, std::size_t b) { return frame.id[a] < frame.id[b]; });
    for (std::size_t k = 1; k < n; ++k)
      if (frame.id[order_[k - 1]] == frame.id[order_[k]])
        throw Error(who + ": body " + std::to_string(order_[k]), "a global id of no other body",
                    "id " + std::to_string(frame.id[order_[k]]) + ", also that of body " +
                        std::to_string(order_[k - 1]));
  }

  ids_.assign(n, 0);
  std::vector<double> rowsStatic;
  if (!started_) {
    // Siconos ids: +1, +2, ... dynamic, −1, −2, ... static, in the order of the global ids
    std::vector<std::int64_t> dynamicIds, staticIds;
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t b = order_[k];
      if (frame.isStaticBody(b)) {
        staticIds.push_back(frame.id[b]);
        ids_[b] = -static_cast<int>(staticIds.size());
        const double* q = &frame.q[7 * b];
        rowsStatic.insert(rowsStatic.end(), {0.0, static_cast<double>(ids_[b]), q[0], q[1], q[2],
                                             q[3], q[4], q[5], q[6]});
      } else {
        dynamicIds.push_back(frame.id[b]);
        ids_[b] = static_cast<int>(dynamicIds.size());
      }
    }
    dynamicIds_ = std::move(dynamicIds);
    staticIds_ = std::move(staticIds);
  } else {
    for (std::size_t b = 0; b < n; ++b) {
      const std::int64_t gid = frame.id[b];
      auto at = std::lower_bound(dynamicIds_.begin(), dynamicIds_.end(), gid);
      const bool dynamicBefore = at != dynamicIds_.end() && *at == gid;
      if (dynamicBefore) {
        ids_[b] = static_cast<int>(1 + (at - dynamicIds_.begin()));
      } else {
        at = std::lower_bound(staticIds_.begin(), staticIds_.end(), gid);
        if (at == staticIds_.end() || *at != gid)
          throw Error(who + ": body " + std::to_string(b), "a body of the first step",
                      "global id " + std::to_string(gid));
        ids_[b] = -static_cast<int>(1 + (at - staticIds_.begin()));
      }
      if (frame.isStaticBody(b) != (ids_[b] < 0))
        throw Error(who,
                    "body " + std::to_string(b) + " as at the first step (" +
                        (ids_[b] < 0 ? "static" : "dynamic") + ")",
                    "a body of the other kind");
    }
  }

  std::vector<double> rowsDynamic, rowsVelocity;
  rowsDynamic.reserve(9 * n);
  rowsVelocity.reserve(8 * n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t b = order_[k];
    if (frame.isStaticBody(b)) continue;
    const double id = ids_[b];
    const double* q = &frame.q[7 * b];
    const double* v = &frame.velocity[6 * b];
    rowsDynamic.insert(rowsDynamic.end(), {time, id, q[0], q[1], q[2], q[3], q[4], q[5], q[6]});
    rowsVelocity.insert(rowsVelocity.end(), {time, id, v[0], v[1], v[2], v[3], v[4], v[5]});
  }
  std::vector<double> rowsCf;
  for (std::size_t c = 0; c < frame.contactCount; ++c) {
    if (!frame.active[c]) continue;
    const double* fr = &frame.frame[9 * c];
    const double* l = &frame.impulse[3 * c];
    const double* pA = &frame.pointA[3 * c];
    const double* pB = &frame.pointB[3 * c];
    const double* u = &frame.contactVelocity[3 * c];
    double force[3];
    for (std::size_t k = 0; k < 3; ++k)
      force[k] = (l[0] * fr[k] + l[1] * fr[3 + k] + l[2] * fr[6 + k]) / h_;
    rowsCf.insert(rowsCf.end(),
                  {time,
                   frame.mu[c],
                   pA[0],
                   pA[1],
                   pA[2],
                   pB[0],
                   pB[1],
                   pB[2],
                   fr[0],
                   fr[1],
                   fr[2],
                   force[0],
                   force[1],
                   force[2],
                   frame.gap[c],
                   0.0,
                   0.0,
                   u[0],
                   u[1],
                   u[2],
                   l[0],
                   l[1],
                   l[2],
                   static_cast<double>(c),
                   static_cast<double>(ids_[static_cast<std::size_t>(frame.bodyA[c])]),
                   static_cast<double>(ids_[static_cast<std::size_t>(frame.bodyB[c])])});
  }

  if (!started_) {
    append(dataset("static"), rowsStatic);
    if (writeFault("hdf5 write", file_.partPath()) ||
        !detail::writeSiconosObjects(group_, time, frame, ids_, order_))
      fail("the shapes and objects of data/ref and data/input written");
    bool ok = !writeFault("hdf5 attribute", file_.partPath()) &&
              writeScalarAttribute(file_.id(), "number_of_bodies", H5T_STD_I64LE, H5T_NATIVE_LLONG,
                                   static_cast<long long>(n));
    ok = writeScalarAttribute(file_.id(), "number_of_dynamic_bodies", H5T_STD_I64LE,
                              H5T_NATIVE_LLONG, static_cast<long long>(dynamicIds_.size())) &&
         ok;
    ok = writeScalarAttribute(file_.id(), "number_of_static_bodies", H5T_STD_I64LE,
                              H5T_NATIVE_LLONG, static_cast<long long>(staticIds_.size())) &&
         ok;
    if (!ok) fail("the body-count attributes written");
    bodyCount_ = n;
    started_ = true;
  }
  append(dynamicSet, rowsDynamic);
  append(dataset("velocities"), rowsVelocity);
  append(dataset("cf"), rowsCf);
  noteFriction(rowsCf);
  flush();
}

void SceneHdf5Writer::noteFriction(const std::vector<double>& cfRows) {
  for (std::size_t r = 1; r < cfRows.size(); r += 26) {
    const double mu = cfRows[r];
    const auto at = std::lower_bound(mus_.begin(), mus_.end(), mu);
    if (at == mus_.end() || *at != mu) mus_.insert(at, mu);
  }
}

void SceneHdf5Writer::appendRows(const std::string& name, const std::vector<double>& rows) {
  Dataset& set = dataset(name);
  if (rows.size() % set.columns != 0)
    throw Error("scene HDF5 writer (" + file_.path() + ")",
                "rows of " + std::to_string(set.columns) + " values for data/" + name,
                std::to_string(rows.size()) + " values");
  append(set, rows);
  if (name == "cf") noteFriction(rows);
  flush();
}

void SceneHdf5Writer::writeAttribute(const std::string& name, std::int64_t value) {
  if (!file_.isOpen()) dataset("");  // the error of a closed file
  if (writeFault("hdf5 attribute", file_.partPath()) ||
      !writeScalarAttribute(file_.id(), name.c_str(), H5T_STD_I64LE, H5T_NATIVE_LLONG,
                            static_cast<long long>(value)))
    fail("the attribute " + name + " written");
}

void SceneHdf5Writer::writeSolver(double time, int iterations, double residual,
                                  double localPrecision) {
  append(dataset("solv"), {time, static_cast<double>(iterations), residual, localPrecision});
  flush();
}

void SceneHdf5Writer::writeEnergy(double time, double kinetic, double potential, double contactWork,
                                  double total) {
  append(dataset("energy"), {time, kinetic, potential, contactWork, total});
  flush();
}

std::vector<std::vector<double>> readSceneHdf5Dataset(const std::string& path,
                                                      const std::string& name) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) throw Error("scene HDF5 reader", "an HDF5 file that can be opened", path);
  hid_t set = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  if (set < 0) {
    H5Fclose(file);
    throw Error("scene HDF5 reader (" + path + ")", "a dataset", name);
  }
  hid_t space = H5Dget_space(set);
  hsize_t dims[2] = {0, 0};
  const int rank = space >= 0 ? H5Sget_simple_extent_ndims(space) : -1;
  if (rank == 2) H5Sget_simple_extent_dims(space, dims, nullptr);
  std::vector<double> flat(static_cast<std::size_t>(dims[0] * dims[1]));
  const bool ok = rank == 2 && (flat.empty() || H5Dread(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL,
                                                        H5P_DEFAULT, flat.data()) >= 0);
  if (space >= 0) H5Sclose(space);
  H5Dclose(set);
  H5Fclose(file);
  if (!ok) throw Error("scene HDF5 reader (" + path + ")", "a 2-D dataset of numbers", name);
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(dims[0]));
  for (std::size_t r = 0; r < rows.size(); ++r)
    rows[r].assign(flat.begin() + static_cast<std::ptrdiff_t>(r * dims[1]),
                   flat.begin() + static_cast<std::ptrdiff_t>((r + 1) * dims[1]));
  return rows;
}

}  // namespace nsdyn::io
