// Files of a distributed run: VTK pieces per rank (.vtp, .pvtp, .pvd), HDF5 gathered by
// rank 0 in SceneHdf5Writer's layout, checkpoints for a restart on any rank count
// (doc/parallel.md "Outputs and checkpoints of a distributed run").
#include "nsdyn/parallel/DistributedSceneFiles.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <tuple>
#include <utility>

#include "nsdyn/Error.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/Shape.hpp"
#include "nsdyn/io/PartFile.hpp"
#include "nsdyn/io/SceneHdf5Writer.hpp"
#include "nsdyn/io/Writers.hpp"
#include "nsdyn/parallel/Collective.hpp"

namespace nsdyn {
namespace parallel {

namespace {

using S = SceneState;
using Vec3 = quaternion::Vec3;
using io::PartFile;

// ---------------------------------------------------------------- common helpers

// The message of what @p f throws ("" when it returns).
std::string faultOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

MPI_Comm duplicate(MPI_Comm comm, int& rank, int& size) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw Error("distributed scene files: MPI not initialised (MPI_Init first)");
  MPI_Comm dup = MPI_COMM_NULL;
  MPI_Comm_dup(comm, &dup);
  MPI_Comm_rank(dup, &rank);
  MPI_Comm_size(dup, &size);
  return dup;
}

void release(MPI_Comm& comm) {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  comm = MPI_COMM_NULL;
}

// "" when @p scene runs on the ranks of @p comm in the same order.
std::string sameRanks(MPI_Comm comm, const DistributedScene& scene, const std::string& who) {
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(comm, scene.comm(), &result);
  if (result == MPI_IDENT || result == MPI_CONGRUENT) return "";
  return who + ": the scene runs on other ranks than the writer's communicator";
}

// Collective: every rank the same decision (the total is the same everywhere).
void checkGatherSize(MPI_Comm comm, std::size_t elements, const std::string& what) {
  unsigned long long mine = elements, total = 0;
  MPI_Allreduce(&mine, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  if (total > static_cast<unsigned long long>(INT_MAX))
    throw Error(what + ": " + std::to_string(total) + " values to gather on rank 0 (at most " +
                std::to_string(INT_MAX) + " per gather)");
}

// Collective: the concatenation of every rank's @p mine on rank 0 (rank order); empty elsewhere.
template <class T>
std::vector<T> gatherTo0(MPI_Comm comm, const std::vector<T>& mine, MPI_Datatype type) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int n = static_cast<int>(mine.size());
  std::vector<int> counts(static_cast<std::size_t>(size)), offsets(static_cast<std::size_t>(size));
  MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<T> all;
  if (rank == 0) {
    std::size_t total = 0;
    for (int p = 0; p < size; ++p) {
      offsets[static_cast<std::size_t>(p)] = static_cast<int>(total);
      total += static_cast<std::size_t>(counts[static_cast<std::size_t>(p)]);
    }
    all.resize(total);
  }
  MPI_Gatherv(mine.data(), n, type, all.data(), counts.data(), offsets.data(), type, 0, comm);
  return all;
}

// Bodies gathered on rank 0: ids and 4 + kWidth doubles each (x, y, z, radius, state).
constexpr std::size_t kBodyDoubles = 4 + S::kWidth;
struct GatheredBodies {
  std::vector<std::int64_t> id;
  std::vector<double> values;  // kBodyDoubles per body, sorted by id
  const double* row(std::size_t k) const { return values.data() + kBodyDoubles * k; }
  const double* state(std::size_t k) const { return row(k) + 4; }
  // index of @p gid, or size() when absent
  std::size_t find(std::int64_t gid) const {
    const auto it = std::lower_bound(id.begin(), id.end(), gid);
    return it != id.end() && *it == gid ? static_cast<std::size_t>(it - id.begin()) : id.size();
  }
};

GatheredBodies gatherBodies(MPI_Comm comm, const BodyArrays& owned, const std::string& who) {
  checkGatherSize(comm, owned.size() * kBodyDoubles, who);
  std::vector<std::int64_t> ids(owned.id.begin(), owned.id.end());
  std::vector<double> values;
  values.reserve(owned.size() * kBodyDoubles);
  for (std::size_t k = 0; k < owned.size(); ++k) {
    values.insert(values.end(), {owned.x[k], owned.y[k], owned.z[k], owned.radius[k]});
    if (owned.width == S::kWidth) {
      values.insert(values.end(), owned.state(k), owned.state(k) + S::kWidth);
    } else {
      values.insert(values.end(), static_cast<std::size_t>(S::kWidth), 0.0);
    }
  }
  const std::vector<std::int64_t> allIds = gatherTo0(comm, ids, MPI_INT64_T);
  const std::vector<double> allValues = gatherTo0(comm, values, MPI_DOUBLE);
  GatheredBodies g;
  std::vector<std::size_t> order(allIds.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return allIds[a] < allIds[b]; });
  g.id.reserve(order.size());
  g.values.reserve(allValues.size());
  for (std::size_t k : order) {
    g.id.push_back(allIds[k]);
    g.values.insert(g.values.end(), allValues.begin() + static_cast<std::ptrdiff_t>(kBodyDoubles * k),
                    allValues.begin() + static_cast<std::ptrdiff_t>(kBodyDoubles * (k + 1)));
  }
  return g;
}

// World angular velocity R Ω of a state.
Vec3 worldOmega(const double* st) {
  return quaternion::rotate({st[3], st[4], st[5], st[6]}, {st[S::kV + 3], st[S::kV + 4], st[S::kV + 5]});
}


// ---------------------------------------------------------------- VTK

constexpr const char* kVtkWho = "distributed VTK writer";

struct ArraySpec {
  const char* name;
  const char* type;  // Float64, Int32, Int64
  int components;
};

const std::vector<ArraySpec>& bodyArrays() {
  static const std::vector<ArraySpec> a = {{"body", "Int64", 1},          {"orientation", "Float64", 4},
                                           {"velocity", "Float64", 3},    {"angular_velocity", "Float64", 3},
                                           {"radius", "Float64", 1},      {"shape_kind", "Int32", 1},
                                           {"rank", "Int32", 1}};
  return a;
}
const std::vector<ArraySpec>& contactArrays() {
  static const std::vector<ArraySpec> a = {{"normal", "Float64", 3}, {"force", "Float64", 3},
                                           {"normal_force", "Float64", 1}, {"gap", "Float64", 1},
                                           {"bodyA", "Int64", 1},   {"bodyB", "Int64", 1}};
  return a;
}
const std::vector<ArraySpec>& staticArrays() {
  static const std::vector<ArraySpec> a = {{"body", "Int64", 1},       {"orientation", "Float64", 4},
                                           {"shape_kind", "Int32", 1}, {"shape_size", "Float64", 1},
                                           {"half_extents", "Float64", 3}};
  return a;
}

// A piece's point data: per array, the values of every point (components per point).
struct PieceData {
  std::vector<Vec3> points;
  std::vector<std::vector<double>> arrays;  // aligned with the ArraySpec list
};

void writePiece(const std::string& path, const std::vector<ArraySpec>& specs, const PieceData& d) {
  PartFile file(path, kVtkWho);
  std::FILE* f = file.get();
  const std::size_t n = d.points.size();
  std::fprintf(f,
               "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
               "  <PolyData>\n    <Piece NumberOfPoints=\"%zu\" NumberOfVerts=\"%zu\" NumberOfLines=\"0\" "
               "NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n      <Points>\n        <DataArray type=\"Float64\" "
               "NumberOfComponents=\"3\" format=\"ascii\">\n",
               n, n);
  for (const Vec3& p : d.points) std::fprintf(f, "          %.17g %.17g %.17g\n", p[0], p[1], p[2]);
  std::fprintf(f, "        </DataArray>\n      </Points>\n      <PointData>\n");
  for (std::size_t a = 0; a < specs.size(); ++a) {
    const ArraySpec& s = specs[a];
    const bool isFloat = std::strcmp(s.type, "Float64") == 0;
    std::fprintf(f, "        <DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"ascii\">\n", s.type,
                 s.name, s.components);
    const std::vector<double>& v = d.arrays[a];
    for (std::size_t i = 0; i < n; ++i) {
      std::fprintf(f, "         ");
      for (int c = 0; c < s.components; ++c) {
        const double x = v[static_cast<std::size_t>(s.components) * i + static_cast<std::size_t>(c)];
        if (isFloat) {
          std::fprintf(f, " %.17g", x);
        } else {
          std::fprintf(f, " %lld", static_cast<long long>(x));
        }
      }
      std::fprintf(f, "\n");
    }
    std::fprintf(f, "        </DataArray>\n");
  }
  std::fprintf(f, "      </PointData>\n      <Verts>\n        <DataArray type=\"Int64\" Name=\"connectivity\" "
                  "format=\"ascii\">\n");
  for (std::size_t i = 0; i < n; ++i) std::fprintf(f, "          %zu\n", i);
  std::fprintf(f, "        </DataArray>\n        <DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n");
  for (std::size_t i = 0; i < n; ++i) std::fprintf(f, "          %zu\n", i + 1);
  std::fprintf(f, "        </DataArray>\n      </Verts>\n    </Piece>\n  </PolyData>\n</VTKFile>\n");
  file.commit();
}

void writePvtp(const std::string& path, const std::vector<ArraySpec>& specs, const std::vector<std::string>& pieces) {
  PartFile file(path, kVtkWho);
  std::FILE* f = file.get();
  std::fprintf(f,
               "<?xml version=\"1.0\"?>\n<VTKFile type=\"PPolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
               "  <PPolyData GhostLevel=\"0\">\n    <PPoints>\n      <PDataArray type=\"Float64\" "
               "NumberOfComponents=\"3\"/>\n    </PPoints>\n    <PPointData>\n");
  for (const ArraySpec& s : specs)
    std::fprintf(f, "      <PDataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\"/>\n", s.type, s.name,
                 s.components);
  std::fprintf(f, "    </PPointData>\n");
  for (const std::string& p : pieces) std::fprintf(f, "    <Piece Source=\"%s\"/>\n", p.c_str());
  std::fprintf(f, "  </PPolyData>\n</VTKFile>\n");
  file.commit();
}

std::string frameName(const std::string& name, const char* kind, std::size_t frame, int rank) {
  char suffix[64];
  if (rank >= 0) {
    std::snprintf(suffix, sizeof suffix, "_%06zu_p%d.vtp", frame, rank);
  } else {
    std::snprintf(suffix, sizeof suffix, "_%06zu.pvtp", frame);
  }
  return name + "_" + kind + suffix;
}

// ---------------------------------------------------------------- hashing

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::uint64_t bitsOf(double d) {
  if (d == 0.0) d = 0.0;  // -0 and +0 alike
  std::uint64_t b = 0;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

struct Hasher {
  std::uint64_t h = 0x6e7364796e667031ull;
  void add(std::uint64_t w) { h = mix(h ^ w); }
  void add(double d) { add(bitsOf(d)); }
  void addInt(std::int64_t i) { add(static_cast<std::uint64_t>(i)); }
};

std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// ---------------------------------------------------------------- checkpoint format

constexpr char kMagic[8] = {'N', 'S', 'D', 'Y', 'N', 'D', 'C', 'P'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderBytes = 56;
constexpr std::size_t kBodyBytes = 8 + 8 * (4 + S::kWidth);  // 168
constexpr std::size_t kMemoryBytes = 4 * 8 + 12 * 8;         // 128
constexpr std::size_t kMemoryInts = 4, kMemoryDoubles = 12;

struct Bytes {
  std::vector<unsigned char> b;
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<unsigned char>(v >> (8 * i)));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<unsigned char>(v >> (8 * i)));
  }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void f64(double d) {
    std::uint64_t v = 0;
    std::memcpy(&v, &d, sizeof v);
    u64(v);
  }
};

struct Reader {
  const unsigned char* p;
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(p[i]) << (8 * i);
    p += 4;
    return v;
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    p += 8;
    return v;
  }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  double f64() {
    const std::uint64_t v = u64();
    double d = 0.0;
    std::memcpy(&d, &v, sizeof d);
    return d;
  }
};

std::string hex(std::uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(v));
  return s;
}

// ---------------------------------------------------------------- HDF5 layout

}  // namespace

// ================================================================ DistributedSceneVtk

DistributedSceneVtk::DistributedSceneVtk(MPI_Comm comm, std::string dir, std::string name)
    : dir_(std::move(dir)), name_(std::move(name)) {
  comm_ = duplicate(comm, rank_, size_);
  std::string fault;
  if (name_.empty() || name_.find('/') != std::string::npos) {
    fault = std::string(kVtkWho) + ": file name prefix '" + name_ + "' (not empty, without '/')";
  } else if (rank_ == 0) {
    fault = faultOf([&] { io::makeDirectories(dir_); });
  }
  try {
    throwIfAnyFault(comm_, fault);
  } catch (...) {
    release(comm_);
    throw;
  }
}

DistributedSceneVtk::~DistributedSceneVtk() { release(comm_); }

void DistributedSceneVtk::writeFrame(const DistributedScene& scene) {
  const std::size_t frame = times_.size();
  const double h = scene.spec().h;
  std::string fault = sameRanks(comm_, scene, kVtkWho);
  const std::string bodyPiece = frameName(name_, "bodies", frame, rank_);
  const std::string contactPiece = frameName(name_, "contacts", frame, rank_);
  if (fault.empty()) {
    fault = faultOf([&] {
      // bodies
      const BodyArrays& b = scene.owned();
      PieceData d;
      d.arrays.resize(bodyArrays().size());
      for (std::size_t k = 0; k < b.size(); ++k) {
        const double* st = b.state(k);
        d.points.push_back({b.x[k], b.y[k], b.z[k]});
        d.arrays[0].push_back(static_cast<double>(b.id[k]));
        d.arrays[1].insert(d.arrays[1].end(), st + 3, st + 7);
        d.arrays[2].insert(d.arrays[2].end(), st + S::kV, st + S::kV + 3);
        const Vec3 w = worldOmega(st);
        d.arrays[3].insert(d.arrays[3].end(), w.begin(), w.end());
        d.arrays[4].push_back(b.radius[k]);
        d.arrays[5].push_back(0.0);
        d.arrays[6].push_back(static_cast<double>(rank_));
      }
      writePiece(io::joinPath(dir_, bodyPiece), bodyArrays(), d);
      // active contacts
      const DistributedScene::ContactMemory& c = scene.contacts();
      const std::vector<double>& points = scene.contactPoints();
      const std::vector<double>& gaps = scene.contactGaps();
      const std::vector<char>& active = scene.contactActive();
      PieceData e;
      e.arrays.resize(contactArrays().size());
      for (std::size_t k = 0; k < c.size(); ++k) {
        if (!active[k]) continue;
        const double* p = &points[6 * k];
        const double* fr = &c.frame[9 * k];
        const double* l = &c.impulse[3 * k];
        e.points.push_back({0.5 * (p[0] + p[3]), 0.5 * (p[1] + p[4]), 0.5 * (p[2] + p[5])});
        e.arrays[0].insert(e.arrays[0].end(), fr, fr + 3);
        for (int i = 0; i < 3; ++i) e.arrays[1].push_back((l[0] * fr[i] + l[1] * fr[3 + i] + l[2] * fr[6 + i]) / h);
        e.arrays[2].push_back(l[0] / h);
        e.arrays[3].push_back(gaps[k]);
        e.arrays[4].push_back(static_cast<double>(c.idA[k]));
        e.arrays[5].push_back(static_cast<double>(c.idB[k]));
      }
      writePiece(io::joinPath(dir_, contactPiece), contactArrays(), e);
    });
  }
  throwIfAnyFault(comm_, fault);

  // rank 0: the collections of the pieces (and the statics once)
  const std::string bodyPvtp = frameName(name_, "bodies", frame, -1);
  const std::string contactPvtp = frameName(name_, "contacts", frame, -1);
  std::vector<std::string> bodyPieces, contactPieces;
  for (int p = 0; p < size_; ++p) {
    bodyPieces.push_back(frameName(name_, "bodies", frame, p));
    contactPieces.push_back(frameName(name_, "contacts", frame, p));
  }
  const std::string staticsPath = io::joinPath(dir_, name_ + "_statics.vtp");
  if (rank_ == 0) {
    fault = faultOf([&] {
      writePvtp(io::joinPath(dir_, bodyPvtp), bodyArrays(), bodyPieces);
      writePvtp(io::joinPath(dir_, contactPvtp), contactArrays(), contactPieces);
      if (!staticsWritten_) {
        const DistributedSceneSpec& sp = scene.spec();
        PieceData d;
        d.arrays.resize(staticArrays().size());
        for (std::size_t k = 0; k < sp.statics.size(); ++k) {
          const BodyShapes& s = sp.statics[k];
          const Shape& shape = *s.shapes().front().shape;
          if (!shape.isFinite()) continue;  // half-spaces: nothing to draw at a point
          const Shape::Vec3 x = s.position();
          const Shape::Quat q = s.orientation();
          const Shape::Vec3 he = shape.localHalfExtents();
          d.points.push_back({x[0], x[1], x[2]});
          d.arrays[0].push_back(static_cast<double>(sp.staticIds[k]));
          d.arrays[1].insert(d.arrays[1].end(), q.begin(), q.end());
          d.arrays[2].push_back(static_cast<double>(static_cast<int>(shape.kind())));
          d.arrays[3].push_back(shape.characteristicSize());
          d.arrays[4].insert(d.arrays[4].end(), he.begin(), he.end());
        }
        writePiece(staticsPath, staticArrays(), d);
      }
    });
  }
  throwIfAnyFault(comm_, fault);
  times_.push_back(scene.time());
  if (rank_ == 0) {
    if (!staticsWritten_) files_.push_back(staticsPath);
    for (int p = 0; p < size_; ++p) {
      files_.push_back(io::joinPath(dir_, bodyPieces[static_cast<std::size_t>(p)]));
      files_.push_back(io::joinPath(dir_, contactPieces[static_cast<std::size_t>(p)]));
    }
    files_.push_back(io::joinPath(dir_, bodyPvtp));
    files_.push_back(io::joinPath(dir_, contactPvtp));
  } else {
    files_.push_back(io::joinPath(dir_, bodyPiece));
    files_.push_back(io::joinPath(dir_, contactPiece));
  }
  staticsWritten_ = true;
}

std::vector<std::string> DistributedSceneVtk::finish() {
  const std::vector<std::string> paths{io::joinPath(dir_, name_ + "_bodies.pvd"),
                                       io::joinPath(dir_, name_ + "_contacts.pvd")};
  std::string fault;
  if (rank_ == 0) {
    fault = faultOf([&] {
      const char* kinds[2] = {"bodies", "contacts"};
      for (std::size_t k = 0; k < 2; ++k) {
        PartFile file(paths[k], kVtkWho);
        std::FILE* f = file.get();
        std::fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\">\n  <Collection>\n");
        for (std::size_t i = 0; i < times_.size(); ++i)
          std::fprintf(f, "    <DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", times_[i],
                       frameName(name_, kinds[k], i, -1).c_str());
        std::fprintf(f, "  </Collection>\n</VTKFile>\n");
        file.commit();
      }
    });
  }
  throwIfAnyFault(comm_, fault);
  if (rank_ != 0) return {};
  for (const std::string& p : paths)
    if (std::find(files_.begin(), files_.end(), p) == files_.end()) files_.push_back(p);
  return paths;
}

// ================================================================ DistributedSceneHdf5

// Rank 0's writer: the single-process SceneHdf5Writer (its layout, attributes, flushing),
// fed with rows gathered from the ranks, and the Siconos ids of the bodies.
struct DistributedSceneHdf5::Impl {
  std::unique_ptr<io::SceneHdf5Writer> writer;
  bool started = false;
  std::vector<std::int64_t> dynamicIds, staticIds;  // sorted: Siconos ids 1, 2, ... and -1, -2, ...
  std::vector<int> staticGroups;                    // aligned with staticIds

  void fail(const std::string& what) const {
    throw Error("distributed HDF5 writer: " + what + " (" + (writer ? writer->path() : std::string()) + ")");
  }
  void append(const char* name, const std::vector<double>& rows) { writer->appendRows(name, rows); }
  bool closeQuietly() {
    if (!writer) return true;
    try {
      writer->close();
    } catch (const std::exception&) {
      writer.reset();
      return false;
    }
    writer.reset();
    return true;
  }

  // Siconos id of global id @p gid (0: unknown)
  double siconosId(std::int64_t gid) const {
    auto it = std::lower_bound(dynamicIds.begin(), dynamicIds.end(), gid);
    if (it != dynamicIds.end() && *it == gid) return static_cast<double>(1 + (it - dynamicIds.begin()));
    it = std::lower_bound(staticIds.begin(), staticIds.end(), gid);
    if (it != staticIds.end() && *it == gid) return -static_cast<double>(1 + (it - staticIds.begin()));
    return 0.0;
  }
};

DistributedSceneHdf5::DistributedSceneHdf5(MPI_Comm comm, const std::string& path, const DistributedScene& scene)
    : path_(path) {
  comm_ = duplicate(comm, rank_, size_);
  std::string fault = sameRanks(comm_, scene, "distributed HDF5 writer (" + path + ")");
  if (fault.empty() && rank_ == 0) {
    fault = faultOf([&] {
      auto impl = std::make_unique<Impl>();
      impl->writer = std::make_unique<io::SceneHdf5Writer>(path, scene.spec().h);
      impl_ = impl.release();
    });
  }
  try {
    throwIfAnyFault(comm_, fault);
  } catch (...) {
    if (impl_) impl_->closeQuietly();
    delete impl_;
    impl_ = nullptr;
    release(comm_);
    throw;
  }
}

DistributedSceneHdf5::~DistributedSceneHdf5() {
  if (impl_) impl_->closeQuietly();
  delete impl_;
  release(comm_);
}

std::size_t DistributedSceneHdf5::rows(const std::string& name) const {
  return impl_ && impl_->writer ? impl_->writer->rows(name) : 0;
}

void DistributedSceneHdf5::close() {
  std::string fault;
  if (impl_ && !impl_->closeQuietly()) fault = "distributed HDF5 writer: file not closed without error (" + path_ + ")";
  throwIfAnyFault(comm_, fault);
}

void DistributedSceneHdf5::writeStep(const DistributedScene& scene) {
  const std::string who = "distributed HDF5 writer (" + path_ + ")";
  std::string fault = sameRanks(comm_, scene, who);
  if (fault.empty() && rank_ == 0 && (!impl_ || !impl_->writer)) fault = who + ": the file is closed";
  throwIfAnyFault(comm_, fault);

  // every owned body and every kept contact to rank 0
  const GatheredBodies bodies = gatherBodies(comm_, scene.owned(), who);
  const DistributedScene::ContactMemory& c = scene.contacts();
  constexpr std::size_t kInts = 3, kDoubles = 23;  // idA, idB, sub; frame, impulse, points, gap, active, u
  checkGatherSize(comm_, c.size() * kDoubles, who);
  std::vector<std::int64_t> ints;
  std::vector<double> values;
  for (std::size_t k = 0; k < c.size(); ++k) {
    ints.insert(ints.end(), {c.idA[k], c.idB[k], c.sub[k]});
    values.insert(values.end(), c.frame.begin() + static_cast<std::ptrdiff_t>(9 * k),
                  c.frame.begin() + static_cast<std::ptrdiff_t>(9 * k + 9));
    values.insert(values.end(), c.impulse.begin() + static_cast<std::ptrdiff_t>(3 * k),
                  c.impulse.begin() + static_cast<std::ptrdiff_t>(3 * k + 3));
    values.insert(values.end(), scene.contactPoints().begin() + static_cast<std::ptrdiff_t>(6 * k),
                  scene.contactPoints().begin() + static_cast<std::ptrdiff_t>(6 * k + 6));
    values.push_back(scene.contactGaps()[k]);
    values.push_back(scene.contactActive()[k] ? 1.0 : 0.0);
    values.insert(values.end(), scene.contactVelocities().begin() + static_cast<std::ptrdiff_t>(3 * k),
                  scene.contactVelocities().begin() + static_cast<std::ptrdiff_t>(3 * k + 3));
  }
  const std::vector<std::int64_t> allInts = gatherTo0(comm_, ints, MPI_INT64_T);
  const std::vector<double> allValues = gatherTo0(comm_, values, MPI_DOUBLE);

  if (rank_ == 0) {
    fault = faultOf([&] {
      Impl& w = *impl_;
      const DistributedSceneSpec& sp = scene.spec();
      const double time = scene.time();
      if (!w.started) {
        w.dynamicIds = bodies.id;
        std::vector<std::size_t> order(sp.staticIds.size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::sort(order.begin(), order.end(),
                  [&](std::size_t a, std::size_t b) { return sp.staticIds[a] < sp.staticIds[b]; });
        std::vector<double> rowsStatic;
        for (std::size_t k : order) {
          w.staticIds.push_back(sp.staticIds[k]);
          w.staticGroups.push_back(sp.staticGroups[k]);
          const Shape::Vec3 x = sp.statics[k].position();
          const Shape::Quat q = sp.statics[k].orientation();
          rowsStatic.insert(rowsStatic.end(), {0.0, -static_cast<double>(w.staticIds.size()), x[0], x[1], x[2], q[0],
                                               q[1], q[2], q[3]});
        }
        w.append("static", rowsStatic);
        const long long nd = static_cast<long long>(w.dynamicIds.size());
        const long long ns = static_cast<long long>(w.staticIds.size());
        w.writer->writeAttribute("number_of_bodies", nd + ns);
        w.writer->writeAttribute("number_of_dynamic_bodies", nd);
        w.writer->writeAttribute("number_of_static_bodies", ns);
        w.writer->writeAttribute("mpi_ranks", size_);
        w.started = true;
      } else if (bodies.id != w.dynamicIds) {
        w.fail("the bodies of this step (" + std::to_string(bodies.id.size()) + ") are not those of the first step (" +
               std::to_string(w.dynamicIds.size()) + ")");
      }
      std::vector<double> rowsDynamic, rowsVelocity;
      for (std::size_t k = 0; k < bodies.id.size(); ++k) {
        const double id = static_cast<double>(k + 1);
        const double* r = bodies.row(k);
        const double* st = bodies.state(k);
        rowsDynamic.insert(rowsDynamic.end(), {time, id, r[0], r[1], r[2], st[3], st[4], st[5], st[6]});
        const Vec3 wv = worldOmega(st);
        rowsVelocity.insert(rowsVelocity.end(),
                            {time, id, st[S::kV], st[S::kV + 1], st[S::kV + 2], wv[0], wv[1], wv[2]});
      }
      // contacts in key order; index = position among the kept contacts
      const std::size_t n = allInts.size() / kInts;
      std::vector<std::size_t> order(n);
      for (std::size_t k = 0; k < n; ++k) order[k] = k;
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(allInts[kInts * a], allInts[kInts * a + 1], allInts[kInts * a + 2]) <
               std::tie(allInts[kInts * b], allInts[kInts * b + 1], allInts[kInts * b + 2]);
      });
      auto groupOf = [&](std::int64_t gid) {
        const std::size_t k = bodies.find(gid);
        if (k < bodies.id.size()) return static_cast<int>(bodies.state(k)[S::kGroup]);
        const auto it = std::lower_bound(w.staticIds.begin(), w.staticIds.end(), gid);
        if (it != w.staticIds.end() && *it == gid) return w.staticGroups[static_cast<std::size_t>(it - w.staticIds.begin())];
        w.fail("a contact with body " + std::to_string(gid) + ", neither a sphere nor a static body");
        return 0;
      };
      std::vector<double> rowsCf;
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = order[i];
        const double* v = &allValues[kDoubles * k];
        if (v[19] == 0.0) continue;  // inactive
        const std::int64_t idA = allInts[kInts * k], idB = allInts[kInts * k + 1];
        const double* fr = v;
        const double* l = v + 9;
        const double* pA = v + 12;
        const double* pB = v + 15;
        double force[3];
        for (int j = 0; j < 3; ++j) force[j] = (l[0] * fr[j] + l[1] * fr[3 + j] + l[2] * fr[6 + j]) / sp.h;
        const double* u = v + 20;  // u_{k+1} = J v_{k+1}, the step-start Jacobians (the scene's)
        const double sA = w.siconosId(idA), sB = w.siconosId(idB);
        const double mu = sp.material ? sp.material(groupOf(idA), groupOf(idB)).mu : 0.0;
        rowsCf.insert(rowsCf.end(), {time,  mu,    pA[0], pA[1], pA[2], pB[0], pB[1], pB[2], fr[0],
                                     fr[1], fr[2], force[0], force[1], force[2], v[18], 0.0, 0.0,
                                     u[0],  u[1],  u[2],  l[0],  l[1],  l[2],  static_cast<double>(i), sA, sB});
      }
      w.append("dynamic", rowsDynamic);
      w.append("velocities", rowsVelocity);
      w.append("cf", rowsCf);
      const DistributedScene::StepReport& r = scene.lastReport();
      w.writer->writeSolver(time, r.solver.iterations, r.solver.residual);
      w.writer->writeEnergy(time, r.kineticEnergy, r.potentialEnergy, r.contactWork, r.kineticEnergy + r.potentialEnergy);
    });
  }
  throwIfAnyFault(comm_, fault);
}

// ================================================================ fingerprint

namespace {

std::uint64_t fingerprintOf(MPI_Comm comm, const BodyArrays& b, const DistributedSceneSpec& sp) {
  std::string fault;
  if (b.width != S::kWidth)
    fault = "scene fingerprint: bodies with " + std::to_string(b.width) + " state values (" +
            std::to_string(S::kWidth) + " expected)";
  else if (!b.firstFault().empty())
    fault = "scene fingerprint: " + b.firstFault();
  else if (sp.staticIds.size() != sp.statics.size() || sp.staticGroups.size() != sp.statics.size())
    fault = "scene fingerprint: static ids, groups and bodies of different counts";
  throwIfAnyFault(comm, fault);

  // per body, summed (commutative: any split over the ranks gives the same sum)
  unsigned long long local[2] = {0, static_cast<unsigned long long>(b.size())}, total[2] = {0, 0};
  int maxGroup = -1;
  for (std::size_t k = 0; k < b.size(); ++k) {
    const double* st = b.state(k);
    Hasher hb;
    hb.addInt(b.id[k]);
    hb.add(b.radius[k]);
    hb.add(st[S::kMass]);
    hb.add(st[S::kInertia]);
    hb.add(st[S::kGroup]);
    local[0] += hb.h;
    maxGroup = std::max(maxGroup, static_cast<int>(st[S::kGroup]));
  }
  MPI_Allreduce(local, total, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  for (int g : sp.staticGroups) maxGroup = std::max(maxGroup, g);
  int globalMax = -1;
  MPI_Allreduce(&maxGroup, &globalMax, 1, MPI_INT, MPI_MAX, comm);

  Hasher h;
  h.add(static_cast<std::uint64_t>(total[0]));
  h.add(static_cast<std::uint64_t>(total[1]));
  // statics, by id
  std::vector<std::size_t> order(sp.staticIds.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t c) { return sp.staticIds[a] < sp.staticIds[c]; });
  h.add(static_cast<std::uint64_t>(order.size()));
  for (std::size_t k : order) {
    h.addInt(sp.staticIds[k]);
    h.addInt(sp.staticGroups[k]);
    const Shape::Vec3 x = sp.statics[k].position();
    const Shape::Quat q = sp.statics[k].orientation();
    for (double v : x) h.add(v);
    for (double v : q) h.add(v);
    for (const ShapeInstance& s : sp.statics[k].shapes()) h.addInt(static_cast<int>(s.shape->kind()));
  }
  // rules
  for (double v : {sp.h, sp.theta, sp.t0, sp.gravity[0], sp.gravity[1], sp.gravity[2], sp.margin, sp.breakingDistance,
                   sp.activation, sp.stabilisationFactor, sp.maxRecoverySpeed})
    h.add(v);
  h.add(static_cast<std::uint64_t>(sp.warmStart ? 1 : 0));
  // materials of the groups present
  if (globalMax >= 0 && globalMax < 1024 && sp.material) {
    std::vector<int> present(static_cast<std::size_t>(globalMax) + 1, 0), all(present.size(), 0);
    for (std::size_t k = 0; k < b.size(); ++k) present[static_cast<std::size_t>(b.state(k)[S::kGroup])] = 1;
    for (int g : sp.staticGroups)
      if (g >= 0) present[static_cast<std::size_t>(g)] = 1;
    MPI_Allreduce(present.data(), all.data(), static_cast<int>(present.size()), MPI_INT, MPI_MAX, comm);
    for (int a = 0; a <= globalMax; ++a)
      for (int c = a; c <= globalMax; ++c)
        if (all[static_cast<std::size_t>(a)] && all[static_cast<std::size_t>(c)]) {
          const ContactMaterial m = sp.material(a, c);
          h.addInt(a);
          h.addInt(c);
          h.add(m.mu);
          h.add(m.restitution);
        }
  }
  return h.h;
}

}  // namespace

std::uint64_t sceneFingerprint(MPI_Comm comm, const DistributedSceneSpec& spec) {
  return fingerprintOf(comm, spec.bodies, spec);
}

std::uint64_t sceneFingerprint(const DistributedScene& scene) {
  return fingerprintOf(scene.comm(), scene.owned(), scene.spec());
}

// ================================================================ checkpoints

void saveCheckpoint(const DistributedScene& scene, const std::string& path, std::uint64_t fingerprint) {
  MPI_Comm comm = scene.comm();
  const int rank = scene.rank();
  const std::string who = "checkpoint " + path;
  throwIfAnyFault(comm, path.empty() ? std::string("checkpoint: an empty path") : std::string());
  const GatheredBodies bodies = gatherBodies(comm, scene.owned(), who);
  const DistributedScene::ContactMemory& m = scene.memory();
  checkGatherSize(comm, m.size() * kMemoryDoubles, who);
  std::vector<std::int64_t> ints;
  std::vector<double> values;
  for (std::size_t k = 0; k < m.size(); ++k) {
    ints.insert(ints.end(), {m.idA[k], m.idB[k], m.sub[k], m.keeper[k]});
    values.insert(values.end(), m.frame.begin() + static_cast<std::ptrdiff_t>(9 * k),
                  m.frame.begin() + static_cast<std::ptrdiff_t>(9 * k + 9));
    values.insert(values.end(), m.impulse.begin() + static_cast<std::ptrdiff_t>(3 * k),
                  m.impulse.begin() + static_cast<std::ptrdiff_t>(3 * k + 3));
  }
  const std::vector<std::int64_t> allInts = gatherTo0(comm, ints, MPI_INT64_T);
  const std::vector<double> allValues = gatherTo0(comm, values, MPI_DOUBLE);
  std::string fault;
  if (rank == 0) {
    fault = faultOf([&] {
      const std::size_t n = allInts.size() / kMemoryInts;
      std::vector<std::size_t> order(n);
      for (std::size_t k = 0; k < n; ++k) order[k] = k;
      std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(allInts[4 * a], allInts[4 * a + 1], allInts[4 * a + 2]) <
               std::tie(allInts[4 * b], allInts[4 * b + 1], allInts[4 * b + 2]);
      });
      Bytes out;
      out.b.reserve(kHeaderBytes + bodies.id.size() * kBodyBytes + n * kMemoryBytes + 8);
      out.b.insert(out.b.end(), kMagic, kMagic + 8);
      out.u32(kVersion);
      out.u32(static_cast<std::uint32_t>(S::kWidth));
      out.u64(fingerprint);
      out.f64(scene.time());
      out.i64(scene.steps());
      out.u64(bodies.id.size());
      out.u64(n);
      for (std::size_t k = 0; k < bodies.id.size(); ++k) {
        out.i64(bodies.id[k]);
        for (std::size_t j = 0; j < kBodyDoubles; ++j) out.f64(bodies.row(k)[j]);
      }
      for (std::size_t k : order) {
        for (std::size_t j = 0; j < kMemoryInts; ++j) out.i64(allInts[kMemoryInts * k + j]);
        for (std::size_t j = 0; j < kMemoryDoubles; ++j) out.f64(allValues[kMemoryDoubles * k + j]);
      }
      out.u64(fnv1a(out.b.data(), out.b.size()));
      PartFile file(path, "checkpoint", "wb");
      if (std::fwrite(out.b.data(), 1, out.b.size(), file.get()) != out.b.size())
        throw Error("checkpoint: write error on " + path + " (" + std::strerror(errno) + ")");
      file.commit();
    });
  }
  throwIfAnyFault(comm, fault);
}

DistributedCheckpoint loadCheckpoint(MPI_Comm comm, const std::string& path, std::uint64_t expectedFingerprint) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  DistributedCheckpoint cp;
  cp.bodies.width = S::kWidth;
  std::string fault;
  if (rank == 0) {
    fault = faultOf([&] {
      const std::string where = "checkpoint " + path;
      std::FILE* f = std::fopen(path.c_str(), "rb");
      if (!f) throw Error(where + ": cannot be opened (" + std::strerror(errno) + ")");
      std::vector<unsigned char> data;
      unsigned char buffer[65536];
      std::size_t got = 0;
      while ((got = std::fread(buffer, 1, sizeof buffer, f)) > 0) data.insert(data.end(), buffer, buffer + got);
      const bool readError = std::ferror(f) != 0;
      std::fclose(f);
      if (readError) throw Error(where + ": read error");
      if (data.size() < 8 || std::memcmp(data.data(), kMagic, 8) != 0)
        throw Error(where + ": not a checkpoint of a distributed nsdyn scene (no 'NSDYNDCP' magic; " +
                    std::to_string(data.size()) + " bytes)");
      if (data.size() < kHeaderBytes + 8)
        throw Error(where + ": truncated (" + std::to_string(data.size()) + " bytes, a header of " +
                    std::to_string(kHeaderBytes + 8) + " needed)");
      Reader r{data.data() + 8};
      const std::uint32_t version = r.u32();
      const std::uint32_t width = r.u32();
      if (version != kVersion)
        throw Error(where + ": format version " + std::to_string(version) + " (this build reads " +
                    std::to_string(kVersion) + ")");
      if (width != static_cast<std::uint32_t>(S::kWidth))
        throw Error(where + ": " + std::to_string(width) + " state values per body (" + std::to_string(S::kWidth) +
                    " expected)");
      const std::uint64_t fingerprint = r.u64();
      const double time = r.f64();
      const std::int64_t steps = r.i64();
      const std::uint64_t nb = r.u64(), nc = r.u64();
      const std::uint64_t room = data.size() - kHeaderBytes - 8;
      if (nb > room / kBodyBytes || nc > room / kMemoryBytes || nb * kBodyBytes + nc * kMemoryBytes != room)
        throw Error(where + ": truncated or damaged: " + std::to_string(data.size()) + " bytes for " +
                    std::to_string(nb) + " bodies and " + std::to_string(nc) + " contacts");
      Reader tail{data.data() + data.size() - 8};
      if (tail.u64() != fnv1a(data.data(), data.size() - 8))
        throw Error(where + ": checksum mismatch (the file is damaged)");
      if (fingerprint != expectedFingerprint)
        throw Error("checkpoint " + path + " is of another scene (fingerprint " + hex(fingerprint) +
                    ", this scene " + hex(expectedFingerprint) + ")");
      if (!std::isfinite(time) || steps < 0)
        throw Error(where + ": time " + std::to_string(time) + ", steps " + std::to_string(steps));
      cp.time = time;
      cp.steps = static_cast<long>(steps);
      cp.fingerprint = fingerprint;
      double st[S::kWidth];
      for (std::uint64_t k = 0; k < nb; ++k) {
        const std::int64_t id = r.i64();
        double xyzr[4];
        for (double& v : xyzr) v = r.f64();
        for (double& v : st) v = r.f64();
        bool finite = true;
        for (double v : xyzr) finite = finite && std::isfinite(v);
        for (double v : st) finite = finite && std::isfinite(v);
        if (id < 0 || !finite || !(xyzr[3] > 0.0) || (k > 0 && id <= cp.bodies.id.back()))
          throw Error(where + ": body record " + std::to_string(k) + " (id " + std::to_string(id) +
                      ") with a negative or repeated id, a value not finite or a radius not > 0");
        cp.bodies.push_back(id, xyzr[0], xyzr[1], xyzr[2], xyzr[3], st);
      }
      for (std::uint64_t k = 0; k < nc; ++k) {
        DistributedScene::ContactMemory one;
        one.idA.push_back(r.i64());
        one.idB.push_back(r.i64());
        one.sub.push_back(r.i64());
        one.keeper.push_back(r.i64());
        bool finite = true;
        for (int j = 0; j < 9; ++j) {
          one.frame.push_back(r.f64());
          finite = finite && std::isfinite(one.frame.back());
        }
        for (int j = 0; j < 3; ++j) {
          one.impulse.push_back(r.f64());
          finite = finite && std::isfinite(one.impulse.back());
        }
        const bool keeperOk = (one.keeper[0] == one.idA[0] || one.keeper[0] == one.idB[0]) &&
                              std::binary_search(cp.bodies.id.begin(), cp.bodies.id.end(), one.keeper[0]);
        if (!finite || !keeperOk)
          throw Error(where + ": contact record " + std::to_string(k) + " (bodies " + std::to_string(one.idA[0]) +
                      ", " + std::to_string(one.idB[0]) + "): a value not finite or its keeper body " +
                      std::to_string(one.keeper[0]) + " not among the bodies");
        cp.memory.append(one, 0);
      }
    });
    if (!fault.empty()) {
      cp.bodies.clear();
      cp.memory.clear();
    }
  }
  throwIfAnyFault(comm, fault);
  double clock[2] = {cp.time, static_cast<double>(cp.steps)};
  MPI_Bcast(clock, 2, MPI_DOUBLE, 0, comm);
  unsigned long long fp = cp.fingerprint;
  MPI_Bcast(&fp, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  cp.time = clock[0];
  cp.steps = static_cast<long>(clock[1]);
  cp.fingerprint = fp;
  return cp;
}

}  // namespace parallel
}  // namespace nsdyn
