// Result writers: CSV, HDF5 (C API), VTK XML PolyData, gnuplot PNG.
#include "nsdyn/io/Writers.hpp"

#include <hdf5.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "nsdyn/Error.hpp"
#include "nsdyn/io/WriteFault.hpp"

namespace nsdyn::io {

std::string joinPath(const std::string& dir, const std::string& file) {
  if (dir.empty() || dir == ".") return file;
  return dir.back() == '/' ? dir + file : dir + "/" + file;
}

void makeDirectories(const std::string& dir) {
  if (dir.empty()) return;
  std::string partial;
  std::size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    partial = dir.substr(0, pos);
    if (partial.empty()) continue;
    struct stat st {};
    if (::stat(partial.c_str(), &st) == 0) continue;
    if ((writeFault("mkdir", partial) || ::mkdir(partial.c_str(), 0755) != 0) && errno != EEXIST)
      throw WriteError("output directory", "a directory that can be created",
                       writeFailure(partial));
  }
}

namespace {

// A file written under a temporary name and renamed when complete (through the
// write-failure hook, WriteFault.hpp).
class AtomicFile {
 public:
  AtomicFile(const std::string& path, const char* who)
      : path_(path), tmp_(path + ".part"), who_(who) {}
  ~AtomicFile() {
    if (!committed_) std::remove(tmp_.c_str());
  }
  const std::string& tmp() const { return tmp_; }
  void commit() {
    if (!renameWritten(tmp_, path_))
      throw WriteError(who_, "a file that can be renamed to " + path_, writeFailure(tmp_));
    committed_ = true;
  }

 private:
  std::string path_, tmp_;
  const char* who_;
  bool committed_ = false;
};

}  // namespace

void writeCsv(const Table& table, const std::string& path) {
  AtomicFile file(path, "CSV writer");
  std::FILE* f = openForWrite(file.tmp(), "w");
  if (!f) throw WriteError("CSV writer", "a writable file", writeFailure(path));
  for (std::size_t c = 0; c < table.columns.size(); ++c)
    std::fprintf(f, "%s%s", c ? "," : "", table.columns[c].c_str());
  std::fputc('\n', f);
  auto put = [f](const double* row, std::size_t n) {
    for (std::size_t c = 0; c < n; ++c) std::fprintf(f, "%s%.17g", c ? "," : "", row[c]);
    std::fputc('\n', f);
  };
  const std::size_t width = table.columns.size();
  try {
    // the rows on disk first (a streaming Recorder), a block at a time
    readSpool(table.spool, width, table.spooledRows, [&](const double* v, std::size_t n) {
      for (std::size_t r = 0; r < n; ++r) put(v + r * width, width);
    });
  } catch (...) {
    std::fclose(f);
    throw;
  }
  for (const std::vector<double>& row : table.rows) put(row.data(), row.size());
  if (!closeWritten(f, file.tmp()))
    throw WriteError("CSV writer", "all rows written", writeFailure(path));
  file.commit();
}

void writeHdf5(const std::vector<Table>& tables, const std::string& path) {
  AtomicFile file(path, "HDF5 writer");
  const std::string& tmp = file.tmp();
  // HDF5 prints its error stack by default; the message below says what failed
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  hid_t h5 = writeFault("hdf5 create", tmp)
                 ? -1
                 : H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (h5 < 0) throw WriteError("HDF5 writer", "a writable file", writeFailure(path));
  bool ok = true;
  int error = 0;             // errno of the first failed write
  bool injectedOnly = true;  // every failure so far injected by the test hook (WriteFault.hpp)
  auto check = [&](bool done) {
    if (ok && !done) {
      ok = false;
      error = errno;
      injectedOnly = lastWriteFaultInjected();
    }
    return ok;
  };
  for (const Table& table : tables) {
    if (!ok) break;
    const hsize_t width = table.columns.size();
    const hsize_t dims[2] = {table.rowCount(), width};
    hid_t space = H5Screate_simple(2, dims, nullptr);
    hid_t set = -1;
    if (check(!writeFault("hdf5 dataset", tmp))) {
      // no modification time in the header: the same run writes the same bytes
      hid_t props = H5Pcreate(H5P_DATASET_CREATE);
      H5Pset_obj_track_times(props, false);
      set = H5Dcreate2(h5, table.name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, props,
                       H5P_DEFAULT);
      H5Pclose(props);
    }
    check(set >= 0);
    // the dataset has its final size: the spooled rows, then the rows in memory, are
    // written into it block by block (hyperslabs), so no copy of the whole table is made
    hsize_t next = 0;
    auto write = [&](const double* block, std::size_t n) {
      if (!ok || n == 0 || width == 0) return;
      const hsize_t start[2] = {next, 0}, count[2] = {n, width};
      hid_t mem = H5Screate_simple(2, count, nullptr);
      check(!writeFault("hdf5 write", tmp) &&
            H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr) >= 0 &&
            H5Dwrite(set, H5T_NATIVE_DOUBLE, mem, space, H5P_DEFAULT, block) >= 0);
      H5Sclose(mem);
      next += n;
    };
    try {
      readSpool(table.spool, width, table.spooledRows, write);
    } catch (...) {
      // a spool that cannot be read: the objects closed in order, then the file
      if (set >= 0) H5Dclose(set);
      H5Sclose(space);
      H5Fclose(h5);
      throw;
    }
    std::vector<double> data;
    data.reserve(table.rows.size() * width);
    for (const auto& row : table.rows) data.insert(data.end(), row.begin(), row.end());
    write(data.data(), table.rows.size());
    // column names: an array of variable-length strings
    const hsize_t n = table.columns.size();
    std::vector<const char*> names;
    for (const auto& c : table.columns) names.push_back(c.c_str());
    hid_t strType = H5Tcopy(H5T_C_S1);
    H5Tset_size(strType, H5T_VARIABLE);
    hid_t attrSpace = H5Screate_simple(1, &n, nullptr);
    hid_t attr = ok ? H5Acreate2(set, "columns", strType, attrSpace, H5P_DEFAULT, H5P_DEFAULT) : -1;
    check(attr >= 0 && !writeFault("hdf5 attribute", tmp) &&
          H5Awrite(attr, strType, names.data()) >= 0);
    if (attr >= 0) H5Aclose(attr);
    H5Sclose(attrSpace);
    H5Tclose(strType);
    if (set >= 0) H5Dclose(set);
    H5Sclose(space);
  }
  check(!writeFault("hdf5 flush", tmp) && H5Fflush(h5, H5F_SCOPE_LOCAL) >= 0);
  // a failed file is detached from the disk before it is closed: its close cannot fail
  // again (a failed H5Fclose crashes the library at exit); the .part file is removed
  if (!ok && !injectedOnly) detachHdf5File(h5);
  check(H5Fclose(h5) >= 0 && !writeFault("hdf5 close", tmp));
  if (!ok) {
    errno = error;
    throw WriteError("HDF5 writer", "every dataset written", writeFailure(path));
  }
  file.commit();
}

std::string writeVtk(const std::vector<VtkFrame>& frames, const VtkSpec& spec,
                     const std::string& dir, const std::string& name, const std::string& spool,
                     std::size_t spooledFrames) {
  makeDirectories(dir);
  const std::string pvdPath = joinPath(dir, name + ".pvd");
  AtomicFile pvdFile(pvdPath, "VTK writer");
  std::FILE* pvd = openForWrite(pvdFile.tmp(), "w");
  if (!pvd) throw WriteError("VTK writer", "a writable file", writeFailure(pvdPath));
  std::fprintf(
      pvd,
      "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n");
  const std::size_t n = spec.bodies.size();
  // a failure throws; the .pvd is closed (and removed, uncommitted) below
  auto writeFrame = [&](const VtkFrame& frame) {
    if (frame.points.size() != 3 * n || frame.orientations.size() != 4 * n ||
        frame.velocities.size() != 3 * n || frame.angularVelocities.size() != 3 * n) {
      throw Error("VTK writer", "frames of " + std::to_string(n) + " bodies",
                  "a frame of step " + std::to_string(frame.step) + " with other sizes");
    }
    char fileName[64];
    std::snprintf(fileName, sizeof fileName, "%s_%06ld.vtp", "frame", frame.step);
    const std::string vtpName = name + "_" + fileName;
    const std::string vtpPath = joinPath(dir, vtpName);
    // each frame under a temporary name too: no partial .vtp under its final name
    AtomicFile vtpFile(vtpPath, "VTK writer");
    std::FILE* f = openForWrite(vtpFile.tmp(), "w");
    if (!f) throw WriteError("VTK writer", "a writable file", writeFailure(vtpPath));
    std::fprintf(f,
                 "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" "
                 "byte_order=\"LittleEndian\">\n");
    std::fprintf(f, "  <PolyData>\n    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\">\n", n,
                 n);
    std::fprintf(f,
                 "      <Points>\n        <DataArray type=\"Float64\" NumberOfComponents=\"3\" "
                 "format=\"ascii\">\n");
    for (std::size_t b = 0; b < n; ++b)
      std::fprintf(f, "          %.17g %.17g %.17g\n", frame.points[3 * b], frame.points[3 * b + 1],
                   frame.points[3 * b + 2]);
    std::fprintf(f, "        </DataArray>\n      </Points>\n");
    std::fprintf(f,
                 "      <PointData Scalars=\"radius\">\n        <DataArray type=\"Float64\" "
                 "Name=\"radius\" format=\"ascii\">\n");
    for (const BodySpec& body : spec.bodies) std::fprintf(f, "          %.17g\n", body.radius);
    std::fprintf(f,
                 "        </DataArray>\n        <DataArray type=\"Int32\" Name=\"body\" "
                 "format=\"ascii\">\n");
    for (std::size_t b = 0; b < n; ++b) std::fprintf(f, "          %zu\n", b);
    std::fprintf(f, "        </DataArray>\n");
    // orientation (quaternion, scalar first), velocity and angular velocity (world frame)
    const struct {
      const char* name;
      std::size_t components;
      const std::vector<double>* values;
    } arrays[] = {{"orientation", 4, &frame.orientations},
                  {"velocity", 3, &frame.velocities},
                  {"angular_velocity", 3, &frame.angularVelocities}};
    for (const auto& a : arrays) {
      std::fprintf(f,
                   "        <DataArray type=\"Float64\" Name=\"%s\" NumberOfComponents=\"%zu\" "
                   "format=\"ascii\">\n",
                   a.name, a.components);
      for (std::size_t b = 0; b < n; ++b) {
        std::fprintf(f, "         ");
        for (std::size_t c = 0; c < a.components; ++c)
          std::fprintf(f, " %.17g", (*a.values)[a.components * b + c]);
        std::fprintf(f, "\n");
      }
      std::fprintf(f, "        </DataArray>\n");
    }
    std::fprintf(f, "      </PointData>\n");
    std::fprintf(f,
                 "      <Verts>\n        <DataArray type=\"Int64\" Name=\"connectivity\" "
                 "format=\"ascii\">\n");
    for (std::size_t b = 0; b < n; ++b) std::fprintf(f, "          %zu\n", b);
    std::fprintf(f,
                 "        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" "
                 "format=\"ascii\">\n");
    for (std::size_t b = 0; b < n; ++b) std::fprintf(f, "          %zu\n", b + 1);
    std::fprintf(f,
                 "        </DataArray>\n      </Verts>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
    if (!closeWritten(f, vtpFile.tmp()))
      throw WriteError("VTK writer", "a complete file", writeFailure(vtpPath));
    vtpFile.commit();
    std::fprintf(pvd, "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", frame.time,
                 vtpName.c_str());
  };
  try {
    // the spooled frames first (a streaming Recorder), one block at a time
    const std::size_t width = vtkFrameWidth(spec);
    VtkFrame frame;
    readSpool(spool, width, spooledFrames, [&](const double* v, std::size_t count) {
      for (std::size_t r = 0; r < count; ++r, v += width) {
        frame.step = static_cast<long>(v[0]);
        frame.time = v[1];
        const double* p = v + 2;
        frame.points.assign(p, p + 3 * n);
        frame.orientations.assign(p + 3 * n, p + 7 * n);
        frame.velocities.assign(p + 7 * n, p + 10 * n);
        frame.angularVelocities.assign(p + 10 * n, p + 13 * n);
        writeFrame(frame);
      }
    });
    for (const VtkFrame& kept : frames) writeFrame(kept);
  } catch (...) {
    std::fclose(pvd);
    throw;
  }
  std::fprintf(pvd, "  </Collection>\n</VTKFile>\n");
  if (!closeWritten(pvd, pvdFile.tmp()))
    throw WriteError("VTK writer", "a complete file", writeFailure(pvdPath));
  pvdFile.commit();
  return pvdPath;
}

namespace {

// Single quotes closed and reopened for a gnuplot string.
std::string gnuplotQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// Single quotes for the shell ('\'' inside).
std::string shellQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

bool plotPng(const OutputSpec& output, const std::string& csvPath, const std::string& pngPath) {
  // curves: as given, or every column but the first in one panel
  std::vector<CurveSpec> curves = output.curves;
  if (curves.empty())
    for (std::size_t c = 1; c < output.columns.size(); ++c)
      curves.push_back({c, output.columns[c].name, ""});
  if (curves.empty()) return false;
  std::vector<std::string> panels;
  for (const CurveSpec& c : curves)
    if (std::find(panels.begin(), panels.end(), c.panel) == panels.end()) panels.push_back(c.panel);

  const std::string script = pngPath + ".gp";
  std::FILE* gp = std::fopen(script.c_str(), "w");
  if (!gp) return false;
  const int n = static_cast<int>(panels.size());
  std::fprintf(gp, "set terminal pngcairo size 1000,%d noenhanced\n", 300 * n);
  std::fprintf(gp, "set output %s\nset datafile separator ','\nset key autotitle columnhead\n",
               gnuplotQuoted(pngPath).c_str());
  std::fprintf(gp, "set multiplot layout %d,1 title %s\nset grid\n", n,
               gnuplotQuoted(output.plotTitle.empty() ? output.name : output.plotTitle).c_str());
  for (int p = 0; p < n; ++p) {
    std::fprintf(gp, "set ylabel %s\n", gnuplotQuoted(panels[p]).c_str());
    if (p == n - 1)
      std::fprintf(gp, "set xlabel %s\n", gnuplotQuoted(output.columns.front().name).c_str());
    std::string plot = "plot ";
    bool first = true;
    for (const CurveSpec& c : curves) {
      if (c.panel != panels[p]) continue;
      plot += (first ? "" : ", ") + gnuplotQuoted(csvPath) +
              " using 1:" + std::to_string(c.column + 1) + " with lines title " +
              gnuplotQuoted(c.title);
      first = false;
    }
    std::fprintf(gp, "%s\n", plot.c_str());
  }
  std::fprintf(gp, "unset multiplot\n");
  std::fclose(gp);
  const std::string cmd = "gnuplot " + shellQuoted(script) + " > /dev/null 2>&1";
  const bool ok = std::system(cmd.c_str()) == 0;
  std::remove(script.c_str());
  return ok;
}

}  // namespace nsdyn::io
