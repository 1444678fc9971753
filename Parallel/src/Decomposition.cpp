#include "nsdyn/parallel/Decomposition.hpp"

#include <zoltan.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "nsdyn/Error.hpp"
#include "nsdyn/parallel/Collective.hpp"

namespace nsdyn {
namespace parallel {

namespace {

// A global id (int64) spans this many Zoltan id words (ZOLTAN_ID_TYPE is 32 bits in Debian's
// build).
constexpr int kGidWords =
    static_cast<int>((sizeof(std::int64_t) + sizeof(ZOLTAN_ID_TYPE) - 1) / sizeof(ZOLTAN_ID_TYPE));

// One body on the wire (MPI_BYTE): the id, centre and radius (40 bytes, no padding), then
// the body's `width` state values.
struct Record {
  std::int64_t id;
  double x, y, z, radius;
};

void packGid(ZOLTAN_ID_PTR out, std::int64_t id) {
  ZOLTAN_ID_TYPE words[kGidWords] = {};
  std::memcpy(words, &id, sizeof(id));
  for (int w = 0; w < kGidWords; ++w) out[w] = words[w];
}

// Zoltan query functions; data is the BodyArrays being partitioned.
int numObjects(void* data, int* ierr) {
  *ierr = ZOLTAN_OK;
  return static_cast<int>(static_cast<const BodyArrays*>(data)->size());
}

void objectList(void* data, int numGid, int numLid, ZOLTAN_ID_PTR gids, ZOLTAN_ID_PTR lids, int,
                float*, int* ierr) {
  const BodyArrays& b = *static_cast<const BodyArrays*>(data);
  for (std::size_t k = 0; k < b.size(); ++k) {
    packGid(gids + k * static_cast<std::size_t>(numGid), b.id[k]);
    lids[k * static_cast<std::size_t>(numLid)] = static_cast<ZOLTAN_ID_TYPE>(k);
  }
  *ierr = ZOLTAN_OK;
}

int numGeometry(void*, int* ierr) {
  *ierr = ZOLTAN_OK;
  return 3;
}

void geometryMulti(void* data, int, int numLid, int numObj, ZOLTAN_ID_PTR, ZOLTAN_ID_PTR lids,
                   int numDim, double* geom, int* ierr) {
  const BodyArrays& b = *static_cast<const BodyArrays*>(data);
  *ierr = ZOLTAN_OK;
  for (int i = 0; i < numObj; ++i) {
    const std::size_t k = lids[static_cast<std::size_t>(i) * static_cast<std::size_t>(numLid)];
    if (k >= b.size() || numDim != 3) {
      *ierr = ZOLTAN_FATAL;
      return;
    }
    geom[3 * i] = b.x[k];
    geom[3 * i + 1] = b.y[k];
    geom[3 * i + 2] = b.z[k];
  }
}

// Sends record k of `from` to rank dest[k] (several ranks per body: each entry of
// sends), receives into the returned arrays (unsorted, by source rank), and the source
// rank of each received record into *sources when given. Collective.
BodyArrays exchangeRecords(MPI_Comm comm, int size, const BodyArrays& from,
                           const std::vector<std::vector<std::size_t>>& perRank,
                           std::vector<int>* sources, std::size_t* bytesSent) {
  const std::size_t width = static_cast<std::size_t>(from.width);
  const std::size_t recordBytes = sizeof(Record) + width * sizeof(double);
  std::vector<int> sendBytes(static_cast<std::size_t>(size), 0),
      recvBytes(static_cast<std::size_t>(size), 0);
  std::vector<int> sendOffset(static_cast<std::size_t>(size), 0),
      recvOffset(static_cast<std::size_t>(size), 0);
  std::size_t records = 0;
  for (const auto& list : perRank) records += list.size();
  if (records * recordBytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw Error("Decomposition: more than 2 GiB of bodies to send from one rank in one exchange");
  std::vector<unsigned char> out(records * recordBytes);
  std::size_t at = 0;
  for (int p = 0; p < size; ++p) {
    const auto& list = perRank[static_cast<std::size_t>(p)];
    sendOffset[static_cast<std::size_t>(p)] = static_cast<int>(at);
    for (std::size_t k : list) {
      const Record r{from.id[k], from.x[k], from.y[k], from.z[k], from.radius[k]};
      std::memcpy(out.data() + at, &r, sizeof(Record));
      if (width > 0)
        std::memcpy(out.data() + at + sizeof(Record), from.state(k), width * sizeof(double));
      at += recordBytes;
    }
    sendBytes[static_cast<std::size_t>(p)] = static_cast<int>(list.size() * recordBytes);
  }
  if (bytesSent) *bytesSent += at;
  MPI_Alltoall(sendBytes.data(), 1, MPI_INT, recvBytes.data(), 1, MPI_INT, comm);
  std::size_t total = 0;
  for (int p = 0; p < size; ++p) {
    recvOffset[static_cast<std::size_t>(p)] = static_cast<int>(total);
    total += static_cast<std::size_t>(recvBytes[static_cast<std::size_t>(p)]);
  }
  std::vector<unsigned char> in(total);
  MPI_Alltoallv(out.data(), sendBytes.data(), sendOffset.data(), MPI_BYTE, in.data(),
                recvBytes.data(), recvOffset.data(), MPI_BYTE, comm);
  BodyArrays result;
  result.width = from.width;
  const std::size_t n = total / recordBytes;
  result.reserve(n);
  std::vector<double> state(width);
  for (std::size_t k = 0; k < n; ++k) {
    Record r;
    std::memcpy(&r, in.data() + k * recordBytes, sizeof(Record));
    if (width > 0)
      std::memcpy(state.data(), in.data() + k * recordBytes + sizeof(Record),
                  width * sizeof(double));
    result.push_back(r.id, r.x, r.y, r.z, r.radius, width > 0 ? state.data() : nullptr);
  }
  if (sources) {
    sources->clear();
    sources->reserve(n);
    for (int p = 0; p < size; ++p)
      sources->insert(
          sources->end(),
          static_cast<std::size_t>(recvBytes[static_cast<std::size_t>(p)]) / recordBytes, p);
  }
  return result;
}

std::string setParameter(Zoltan_Struct* zz, const char* name, const std::string& value) {
  if (Zoltan_Set_Param(zz, name, value.c_str()) != ZOLTAN_OK)
    return std::string("Decomposition: Zoltan refused the parameter ") + name + " = " + value;
  return "";
}

}  // namespace

Decomposition::Decomposition(MPI_Comm comm, const Options& options) : options_(options) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    throw Error("Decomposition", "MPI initialised (MPI_Init) before construction",
                "MPI not initialised");
  if (!std::isfinite(options.halo) || options.halo < 0.0) {
    std::ostringstream s;
    s << options.halo;
    throw Error("Decomposition", "a halo finite and >= 0", s.str());
  }
  if (!(options.imbalanceThreshold >= 1.0) || !std::isfinite(options.imbalanceThreshold)) {
    std::ostringstream s;
    s << options.imbalanceThreshold;
    throw Error("Decomposition", "an imbalance threshold finite and >= 1", s.str());
  }
  if (!(options.imbalanceTolerance >= 1.0) || !std::isfinite(options.imbalanceTolerance)) {
    std::ostringstream s;
    s << options.imbalanceTolerance;
    throw Error("Decomposition", "an imbalance tolerance finite and >= 1", s.str());
  }
  static bool zoltanInitialized = false;
  if (!zoltanInitialized) {
    float version = 0.0f;
    if (Zoltan_Initialize(0, nullptr, &version) != ZOLTAN_OK)
      throw Error("Decomposition: Zoltan_Initialize failed");
    zoltanInitialized = true;
  }
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  zz_ = Zoltan_Create(comm_);
  if (!zz_) {
    MPI_Comm_free(&comm_);
    throw Error("Decomposition: Zoltan_Create failed");
  }
  std::ostringstream tol;
  tol.precision(17);
  tol << options.imbalanceTolerance;
  std::string fault;
  const std::pair<const char*, std::string> params[] = {
      {"DEBUG_LEVEL", "0"},         {"LB_METHOD", "RCB"},
      {"LB_APPROACH", "PARTITION"}, {"NUM_GID_ENTRIES", std::to_string(kGidWords)},
      {"NUM_LID_ENTRIES", "1"},     {"OBJ_WEIGHT_DIM", "0"},
      {"RETURN_LISTS", "EXPORT"},   {"KEEP_CUTS", "1"},
      {"AVERAGE_CUTS", "1"},        {"RCB_OUTPUT_LEVEL", "0"},
      {"RCB_REUSE", "0"},           {"IMBALANCE_TOL", tol.str()}};
  for (const auto& p : params) {
    if (fault.empty()) fault = setParameter(zz_, p.first, p.second);
  }
  Zoltan_Set_Num_Obj_Fn(zz_, numObjects, &owned_);
  Zoltan_Set_Obj_List_Fn(zz_, objectList, &owned_);
  Zoltan_Set_Num_Geom_Fn(zz_, numGeometry, &owned_);
  Zoltan_Set_Geom_Multi_Fn(zz_, geometryMulti, &owned_);
  if (!fault.empty()) {
    Zoltan_Destroy(&zz_);
    MPI_Comm_free(&comm_);
    throw Error(fault);
  }
}

Decomposition::~Decomposition() {
  if (zz_) Zoltan_Destroy(&zz_);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void Decomposition::checkInput(const BodyArrays& owned, bool needPartition) {
  // 1. Local faults, then the first collective: every rank learns of any fault.
  std::string fault = owned.firstFault();
  if (fault.empty() && needPartition && !partitioned_)
    fault = "migrate() before partition() (no subdomains yet)";
  if (!fault.empty()) fault = "Decomposition: " + fault;
  throwIfAnyFault(comm_, fault);
  // 2. Global figures (every rank reaches these reductions).
  long long count = static_cast<long long>(owned.size()), total = 0;
  MPI_Allreduce(&count, &total, 1, MPI_LONG_LONG, MPI_SUM, comm_);
  double maxRadius = 0.0, globalMax = 0.0;
  for (double r : owned.radius) maxRadius = std::max(maxRadius, r);
  MPI_Allreduce(&maxRadius, &globalMax, 1, MPI_DOUBLE, MPI_MAX, comm_);
  int widths[2] = {owned.width, -owned.width}, extremes[2] = {0, 0};
  MPI_Allreduce(widths, extremes, 2, MPI_INT, MPI_MAX, comm_);
  stats_.globalBodies = total;
  // 3. Global faults: the same values on every rank, so the same decision and message.
  if (total < size_) {
    std::ostringstream s;
    s << "Decomposition: fewer bodies than ranks: " << total << " bodies for " << size_
      << " ranks (every rank must own at least one body; run with fewer ranks)";
    throw Error(s.str());
  }
  if (extremes[0] != -extremes[1]) {
    std::ostringstream s;
    s << "Decomposition: the ranks give bodies with different state widths (from " << -extremes[1]
      << " to " << extremes[0] << " values per body)";
    throw Error(s.str());
  }
  if (options_.halo < globalMax) {
    std::ostringstream s;
    s << "Decomposition: halo " << options_.halo << " smaller than the largest bounding radius "
      << globalMax
      << " (ghosts would miss contacts; use a halo >= the largest radius + the contact margin)";
    throw Error(s.str());
  }
}

void Decomposition::exchange(const std::vector<int>& destination) {
  std::vector<std::vector<std::size_t>> perRank(static_cast<std::size_t>(size_));
  BodyArrays kept;
  kept.width = owned_.width;
  std::size_t sent = 0;
  for (std::size_t k = 0; k < owned_.size(); ++k) {
    if (destination[k] == rank_) {
      kept.append(owned_, k);
    } else {
      perRank[static_cast<std::size_t>(destination[k])].push_back(k);
      ++sent;
    }
  }
  BodyArrays received = exchangeRecords(comm_, size_, owned_, perRank, nullptr, &stats_.bytesSent);
  for (std::size_t k = 0; k < received.size(); ++k) kept.append(received, k);
  kept.sortById();
  owned_ = std::move(kept);
  stats_.migrated += sent;
}

void Decomposition::repartition() {
  int changes = 0, numGid = 0, numLid = 0, numImport = 0, numExport = 0;
  ZOLTAN_ID_PTR importGids = nullptr, importLids = nullptr, exportGids = nullptr,
                exportLids = nullptr;
  int *importProcs = nullptr, *importParts = nullptr, *exportProcs = nullptr,
      *exportParts = nullptr;
  const int rc = Zoltan_LB_Partition(zz_, &changes, &numGid, &numLid, &numImport, &importGids,
                                     &importLids, &importProcs, &importParts, &numExport,
                                     &exportGids, &exportLids, &exportProcs, &exportParts);
  std::vector<int> destination(owned_.size(), rank_);
  std::string fault;
  if (rc != ZOLTAN_OK) {
    fault = "Decomposition: Zoltan_LB_Partition (RCB) failed with code " + std::to_string(rc);
  } else {
    for (int e = 0; e < numExport; ++e) {
      const std::size_t k =
          exportLids[static_cast<std::size_t>(e) * static_cast<std::size_t>(numLid)];
      const int p = exportProcs[e];
      if (k >= owned_.size() || p < 0 || p >= size_) {
        fault = "Decomposition: Zoltan_LB_Partition returned an invalid export";
        break;
      }
      destination[k] = p;
    }
  }
  Zoltan_LB_Free_Part(&importGids, &importLids, &importProcs, &importParts);
  Zoltan_LB_Free_Part(&exportGids, &exportLids, &exportProcs, &exportParts);
  throwIfAnyFault(comm_, fault);
  partitioned_ = true;
  ++stats_.partitions;
  exchange(destination);
}

void Decomposition::computeGhosts() {
  std::vector<std::vector<std::size_t>> perRank(static_cast<std::size_t>(size_));
  std::vector<int> procs(static_cast<std::size_t>(size_));
  const double h = options_.halo;
  std::string fault;
  std::size_t sent = 0;
  for (std::size_t k = 0; k < owned_.size() && fault.empty(); ++k) {
    const double e = owned_.radius[k] + h;
    int n = 0;
    if (Zoltan_LB_Box_Assign(zz_, owned_.x[k] - e, owned_.y[k] - e, owned_.z[k] - e,
                             owned_.x[k] + e, owned_.y[k] + e, owned_.z[k] + e, procs.data(),
                             &n) != ZOLTAN_OK) {
      fault = "Decomposition: Zoltan_LB_Box_Assign failed for body " + std::to_string(owned_.id[k]);
      break;
    }
    for (int i = 0; i < n; ++i) {
      const int p = procs[static_cast<std::size_t>(i)];
      if (p != rank_ && p >= 0 && p < size_) {
        perRank[static_cast<std::size_t>(p)].push_back(k);
        ++sent;
      }
    }
  }
  throwIfAnyFault(comm_, fault);
  for (auto& list : perRank) std::sort(list.begin(), list.end());
  std::vector<int> sources;
  BodyArrays received = exchangeRecords(comm_, size_, owned_, perRank, &sources, &stats_.bytesSent);
  // sorted by id, each with the rank it came from (its owner)
  std::vector<std::size_t> order(received.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return received.id[a] < received.id[b]; });
  ghosts_.clear();
  ghosts_.width = owned_.width;
  ghosts_.reserve(order.size());
  ghostOwners_.clear();
  ghostOwners_.reserve(order.size());
  for (std::size_t k : order) {
    ghosts_.append(received, k);
    ghostOwners_.push_back(sources[k]);
  }
  stats_.ghostsSent = sent;
}

void Decomposition::finish() {
  computeGhosts();
  // Duplicate ids: two copies meeting on one rank (as owned bodies, or owned and ghost).
  std::string fault;
  for (std::size_t k = 1; k < owned_.size() && fault.empty(); ++k)
    if (owned_.id[k] == owned_.id[k - 1])
      fault = "Decomposition: global id " + std::to_string(owned_.id[k]) + " given twice";
  for (std::size_t k = 0, g = 0; k < owned_.size() && g < ghosts_.size() && fault.empty();) {
    if (owned_.id[k] < ghosts_.id[g]) {
      ++k;
    } else if (ghosts_.id[g] < owned_.id[k]) {
      ++g;
    } else {
      fault = "Decomposition: global id " + std::to_string(owned_.id[k]) + " given twice";
    }
  }
  throwIfAnyFault(comm_, fault);
  long long count = static_cast<long long>(owned_.size()), maxCount = 0;
  MPI_Allreduce(&count, &maxCount, 1, MPI_LONG_LONG, MPI_MAX, comm_);
  const double mean = static_cast<double>(stats_.globalBodies) / static_cast<double>(size_);
  stats_.imbalance = mean > 0.0 ? static_cast<double>(maxCount) / mean : 1.0;
}

void Decomposition::partition(BodyArrays owned) {
  checkInput(owned, false);
  owned_ = std::move(owned);
  stats_.migrated = 0;
  stats_.bytesSent = 0;
  repartition();
  finish();
}

void Decomposition::migrate(BodyArrays owned, bool forcePartition) {
  checkInput(owned, true);
  owned_ = std::move(owned);
  stats_.migrated = 0;
  stats_.bytesSent = 0;
  std::vector<int> destination(owned_.size(), rank_);
  std::string fault;
  for (std::size_t k = 0; k < owned_.size(); ++k) {
    double p[3] = {owned_.x[k], owned_.y[k], owned_.z[k]};
    int proc = -1;
    if (Zoltan_LB_Point_Assign(zz_, p, &proc) != ZOLTAN_OK || proc < 0 || proc >= size_) {
      fault =
          "Decomposition: Zoltan_LB_Point_Assign failed for body " + std::to_string(owned_.id[k]);
      break;
    }
    destination[k] = proc;
  }
  throwIfAnyFault(comm_, fault);
  exchange(destination);
  long long count = static_cast<long long>(owned_.size()), maxCount = 0;
  MPI_Allreduce(&count, &maxCount, 1, MPI_LONG_LONG, MPI_MAX, comm_);
  const double mean = static_cast<double>(stats_.globalBodies) / static_cast<double>(size_);
  if (forcePartition || static_cast<double>(maxCount) > options_.imbalanceThreshold * mean)
    repartition();
  finish();
}

int Decomposition::ownerOf(const std::array<double, 3>& p) const {
  if (!partitioned_)
    throw Error("Decomposition::ownerOf", "partition() called first", "no subdomains yet");
  double c[3] = {p[0], p[1], p[2]};
  int proc = -1;
  if (Zoltan_LB_Point_Assign(zz_, c, &proc) != ZOLTAN_OK)
    throw Error("Decomposition::ownerOf: Zoltan_LB_Point_Assign failed");
  return proc;
}

std::array<double, 6> Decomposition::subdomain(int rank) const {
  if (!partitioned_)
    throw Error("Decomposition::subdomain", "partition() called first", "no subdomains yet");
  if (rank < 0 || rank >= size_)
    throw Error("Decomposition::subdomain", "a rank in [0, " + std::to_string(size_) + ")",
                std::to_string(rank));
  std::array<double, 6> b{};
  int ndim = 0;
  if (Zoltan_RCB_Box(zz_, rank, &ndim, &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != ZOLTAN_OK)
    throw Error("Decomposition::subdomain: Zoltan_RCB_Box failed");
  return b;
}

}  // namespace parallel
}  // namespace nsdyn
