#include "nsdyn/parallel/DistributedContactProblem.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#define NSD_PAR_OMP(x) _Pragma(#x)
#else
#define NSD_PAR_OMP(x)
#endif

#include "nsdyn/ContactFrame.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/parallel/Collective.hpp"

namespace nsdyn {
namespace parallel {

namespace {

constexpr int kDof = 6;
constexpr int kTagReverse = 7101, kTagForward = 7102;

// The NsdDelassus callbacks and hooks.
void cbJt(void* user, const double* x, double* v) {
  static_cast<DistributedContactProblem*>(user)->applyJt(x, v);
}
void cbMinv(void* user, const double* v, double* w) {
  static_cast<const DistributedContactProblem*>(user)->applyMinv(v, w);
}
void cbJ(void* user, const double* w, double* y) {
  static_cast<DistributedContactProblem*>(user)->applyJ(w, y);
}
void cbSum(void* user, double* values, int count) {
  static_cast<DistributedContactProblem*>(user)->reduceSum(values, count);
}
void cbMax(void* user, double* values, int count) {
  static_cast<DistributedContactProblem*>(user)->reduceMax(values, count);
}

// A pointer valid for a solver call even for an empty vector (a rank without contacts).
double* dataOf(std::vector<double>& v) {
  static thread_local double dummy[3] = {0.0, 0.0, 0.0};
  return v.empty() ? dummy : v.data();
}

}  // namespace

DistributedContactProblem::DistributedContactProblem(MPI_Comm comm) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    throw Error("DistributedContactProblem", "MPI initialised (MPI_Init) before construction",
                "MPI not initialised");
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  op_.user = this;
  op_.apply_jt = cbJt;
  op_.apply_minv = cbMinv;
  op_.apply_j = cbJ;
  op_.reduce_sum = cbSum;
  op_.reduce_max = cbMax;
}

DistributedContactProblem::~DistributedContactProblem() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void DistributedContactProblem::reduceSum(double* values, int count) {
  if (count <= 0) return;
  gathered_.resize(static_cast<std::size_t>(count) * static_cast<std::size_t>(size_));
  MPI_Allgather(values, count, MPI_DOUBLE, gathered_.data(), count, MPI_DOUBLE, comm_);
  // rank 0's value, then the others added in rank order: the same bits on every rank,
  // and on one rank the value itself
  for (int i = 0; i < count; ++i) {
    double s = gathered_[static_cast<std::size_t>(i)];
    for (int p = 1; p < size_; ++p)
      s += gathered_[static_cast<std::size_t>(p) * static_cast<std::size_t>(count) +
                     static_cast<std::size_t>(i)];
    values[i] = s;
  }
}

void DistributedContactProblem::reduceMax(double* values, int count) {
  if (count <= 0) return;
  std::vector<double> in(values, values + count);
  MPI_Allreduce(in.data(), values, count, MPI_DOUBLE, MPI_MAX, comm_);
}

std::vector<int> DistributedContactProblem::copiesOfOwned() const {
  std::vector<int> copies(slots_, 0);
  for (std::size_t s = 0; s < slots_; ++s)
    if (owned_[s]) copies[s] = 1;
  for (const auto& list : ownedSlots_)
    for (std::int32_t s : list) ++copies[static_cast<std::size_t>(s)];
  return copies;
}

void DistributedContactProblem::forward(double* slots, int stride) {
  const std::size_t s = static_cast<std::size_t>(stride);
  requests_.clear();
  for (int p : neighbours_) {
    const auto& g = ghostSlots_[static_cast<std::size_t>(p)];
    auto& in = recvBuffer_[static_cast<std::size_t>(p)];
    in.resize(g.size() * s);
    if (!g.empty()) {
      requests_.emplace_back();
      MPI_Irecv(in.data(), static_cast<int>(in.size()), MPI_DOUBLE, p, kTagForward, comm_,
                &requests_.back());
    }
  }
  for (int p : neighbours_) {
    const auto& o = ownedSlots_[static_cast<std::size_t>(p)];
    auto& out = sendBuffer_[static_cast<std::size_t>(p)];
    out.resize(o.size() * s);
    for (std::size_t k = 0; k < o.size(); ++k)
      std::copy(slots + static_cast<std::size_t>(o[k]) * s,
                slots + static_cast<std::size_t>(o[k]) * s + s,
                out.begin() + static_cast<std::ptrdiff_t>(k * s));
    if (!o.empty()) {
      requests_.emplace_back();
      haloBytes_ += out.size() * sizeof(double);
      MPI_Isend(out.data(), static_cast<int>(out.size()), MPI_DOUBLE, p, kTagForward, comm_,
                &requests_.back());
    }
  }
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  for (int p : neighbours_) {
    const auto& g = ghostSlots_[static_cast<std::size_t>(p)];
    const auto& in = recvBuffer_[static_cast<std::size_t>(p)];
    for (std::size_t k = 0; k < g.size(); ++k)
      std::copy(in.begin() + static_cast<std::ptrdiff_t>(k * s),
                in.begin() + static_cast<std::ptrdiff_t>(k * s + s),
                slots + static_cast<std::size_t>(g[k]) * s);
  }
}

void DistributedContactProblem::reverse(double* slots) {
  const std::size_t s = kDof;
  requests_.clear();
  for (int p : neighbours_) {
    const auto& o = ownedSlots_[static_cast<std::size_t>(p)];
    auto& in = recvBuffer_[static_cast<std::size_t>(p)];
    in.resize(o.size() * s);
    if (!o.empty()) {
      requests_.emplace_back();
      MPI_Irecv(in.data(), static_cast<int>(in.size()), MPI_DOUBLE, p, kTagReverse, comm_,
                &requests_.back());
    }
  }
  for (int p : neighbours_) {
    const auto& g = ghostSlots_[static_cast<std::size_t>(p)];
    auto& out = sendBuffer_[static_cast<std::size_t>(p)];
    out.resize(g.size() * s);
    for (std::size_t k = 0; k < g.size(); ++k)
      std::copy(slots + static_cast<std::size_t>(g[k]) * s,
                slots + static_cast<std::size_t>(g[k]) * s + s,
                out.begin() + static_cast<std::ptrdiff_t>(k * s));
    if (!g.empty()) {
      requests_.emplace_back();
      haloBytes_ += out.size() * sizeof(double);
      MPI_Isend(out.data(), static_cast<int>(out.size()), MPI_DOUBLE, p, kTagReverse, comm_,
                &requests_.back());
    }
  }
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  // the senders' contributions added in rank order (neighbours_ is sorted), each list in
  // global id order: the same sums whatever the arrival order
  for (int p : neighbours_) {
    const auto& o = ownedSlots_[static_cast<std::size_t>(p)];
    const auto& in = recvBuffer_[static_cast<std::size_t>(p)];
    for (std::size_t k = 0; k < o.size(); ++k)
      for (std::size_t j = 0; j < s; ++j)
        slots[static_cast<std::size_t>(o[k]) * s + j] += in[k * s + j];
  }
}

int DistributedContactProblem::threadsFor(std::size_t items) const {
#ifdef _OPENMP
  const int available = threads_ > 0 ? threads_ : std::max(1, omp_get_max_threads());
  if (threads_ > 0) return available;
  const std::size_t useful = std::max<std::size_t>(1, items / 2048);  // a region costs a barrier
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(available), useful));
#else
  (void)items;
  return 1;
#endif
}

void DistributedContactProblem::applyJt(const double* x, double* v) {
  // per slot, its contacts' J^T x in contact order (slotContacts_, built by build()): the
  // same sums for any thread count, and the same as a serial scatter in contact order
  const int nt = threadsFor(keys_.size());
  (void)nt;
  const long slots = static_cast<long>(slots_);
  NSD_PAR_OMP(omp parallel for schedule(static) num_threads(nt))
  for (long sl = 0; sl < slots; ++sl) {
    const std::size_t s = static_cast<std::size_t>(sl);
    double* vb = v + s * kDof;
    for (int k = 0; k < kDof; ++k) vb[k] = 0.0;
    for (std::int32_t e = slotStart_[s]; e < slotStart_[s + 1]; ++e) {
      const std::int32_t entry = slotContacts_[static_cast<std::size_t>(e)];
      const std::size_t c = static_cast<std::size_t>(entry >> 1);
      const double* J = &jac_[36 * c + 18 * static_cast<std::size_t>(entry & 1)];
      const double* xc = x + 3 * c;
      for (int k = 0; k < kDof; ++k) vb[k] += J[k] * xc[0] + J[6 + k] * xc[1] + J[12 + k] * xc[2];
    }
  }
  reverse(v);
}

void DistributedContactProblem::applyMinv(const double* v, double* w) const {
  const int nt = threadsFor(slots_);
  (void)nt;
  const long slots = static_cast<long>(slots_);
  NSD_PAR_OMP(omp parallel for schedule(static) num_threads(nt))
  for (long bl = 0; bl < slots; ++bl) {
    const std::size_t b = static_cast<std::size_t>(bl);
    const std::size_t o = b * kDof;
    if (!owned_[b]) {
      std::fill(w + o, w + o + kDof, 0.0);
      continue;
    }
    for (int k = 0; k < 3; ++k) {
      w[o + static_cast<std::size_t>(k)] = invMass_[b] * v[o + static_cast<std::size_t>(k)];
      w[o + 3 + static_cast<std::size_t>(k)] =
          invInertia_[b] * v[o + 3 + static_cast<std::size_t>(k)];
    }
  }
}

void DistributedContactProblem::applyJ(const double* w, double* y) {
  wFull_.assign(w, w + slots_ * kDof);
  forward(wFull_.data(), kDof);
  const long n = static_cast<long>(keys_.size());
  const int nt = threadsFor(keys_.size());
  (void)nt;
  NSD_PAR_OMP(omp parallel for schedule(static) num_threads(nt))
  for (long cl = 0; cl < n; ++cl) {
    const std::size_t c = static_cast<std::size_t>(cl);
    double yc[3] = {0.0, 0.0, 0.0};
    for (int side = 0; side < 2; ++side) {
      const double* J = &jac_[36 * c + 18 * static_cast<std::size_t>(side)];
      const double* wb =
          wFull_.data() + static_cast<std::size_t>(side == 0 ? slotA_[c] : slotB_[c]) * kDof;
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < kDof; ++k) yc[i] += J[6 * i + k] * wb[k];
    }
    for (int i = 0; i < 3; ++i) y[3 * c + static_cast<std::size_t>(i)] = yc[i];
  }
}

void DistributedContactProblem::build(const Decomposition& d, const DistributedDetector& detector,
                                      const std::vector<double>& inverseMass,
                                      const std::vector<double>& freeVelocity,
                                      double frictionCoefficient) {
  // every contact not between two fixed bodies, one friction coefficient, warm start from
  // this object's last solve (by key)
  const double mu = frictionCoefficient;
  std::string fault;
  if (!(mu >= 0.0) || !std::isfinite(mu))
    fault = "DistributedContactProblem: a friction coefficient finite and >= 0 expected, got " +
            std::to_string(mu);
  throwIfAnyFault(comm_, fault);
  BodyTerms bodies;
  bodies.inverseMass = inverseMass;
  bodies.freeVelocity = freeVelocity;
  ContactTerms contacts;
  const auto& found = detector.contacts();
  // fixed bodies are known per slot only after the exchange in buildFrom: take every
  // contact here and let buildFrom drop the fixed-fixed ones
  contacts.index.resize(found.size());
  for (std::size_t i = 0; i < found.size(); ++i) contacts.index[i] = static_cast<std::int32_t>(i);
  contacts.mu.assign(found.size(), mu);
  buildFrom(d, detector, bodies, contacts, true);
}

void DistributedContactProblem::build(const Decomposition& d, const DistributedDetector& detector,
                                      const BodyTerms& bodies, const ContactTerms& contacts) {
  buildFrom(d, detector, bodies, contacts, false);
}

void DistributedContactProblem::buildFrom(const Decomposition& d,
                                          const DistributedDetector& detector,
                                          const BodyTerms& bodies, const ContactTerms& contacts,
                                          bool ownWarmStart) {
  const BodyArrays& owned = d.owned();
  const BodyArrays& ghosts = d.ghosts();
  const std::vector<std::int64_t>& ids = detector.localIds();
  const std::vector<char>& isStatic = detector.localStatic();
  const std::vector<DistributedContact>& found = detector.contacts();
  const std::size_t nOwned = owned.size();
  // 1. input, checked collectively
  std::string fault;
  const std::size_t statics = static_cast<std::size_t>(
      std::count(isStatic.begin(), isStatic.end(), static_cast<char>(1)));
  if (!d.partitioned()) {
    fault = "build() before Decomposition::partition()";
  } else if (bodies.inverseMass.size() != nOwned || bodies.freeVelocity.size() != kDof * nOwned ||
             (!bodies.inverseInertia.empty() && bodies.inverseInertia.size() != nOwned) ||
             (!bodies.orientation.empty() && bodies.orientation.size() != 4 * nOwned)) {
    std::ostringstream s;
    s << "rank " << rank_ << ": " << bodies.inverseMass.size() << " inverse masses, "
      << bodies.inverseInertia.size() << " inverse inertias, " << bodies.orientation.size()
      << " orientation and " << bodies.freeVelocity.size() << " velocity entries for "
      << nOwned << " owned bodies (expected 1, 1 or none, 4 or none and 6 per body)";
    fault = s.str();
  } else if (ids.size() != nOwned + ghosts.size() + statics || isStatic.size() != ids.size() ||
             d.ghostOwners().size() != ghosts.size()) {
    fault = "the detector's last detect() was not on this decomposition's bodies";
  } else {
    const std::size_t m = contacts.index.size();
    if (contacts.mu.size() != m || (!contacts.normalShift.empty() && contacts.normalShift.size() != m) ||
        (!contacts.impulse.empty() && contacts.impulse.size() != 3 * m)) {
      std::ostringstream s;
      s << "rank " << rank_ << ": " << m << " contacts with " << contacts.mu.size()
        << " friction coefficients, " << contacts.normalShift.size() << " normal shifts and "
        << contacts.impulse.size() << " impulse entries (expected 1, 1 or none, 3 or none each)";
      fault = s.str();
    }
    for (std::size_t c = 0; fault.empty() && c < m; ++c) {
      const std::int32_t i = contacts.index[c];
      if (i < 0 || static_cast<std::size_t>(i) >= found.size() ||
          (c > 0 && i <= contacts.index[c - 1])) {
        fault = "rank " + std::to_string(rank_) + ": contact index " + std::to_string(i) +
                " not increasing within the detector's " + std::to_string(found.size()) +
                " contacts";
      } else if (!(contacts.mu[c] >= 0.0) || !std::isfinite(contacts.mu[c])) {
        fault = "a friction coefficient finite and >= 0 expected, got " +
                std::to_string(contacts.mu[c]);
      } else if ((!contacts.normalShift.empty() && !std::isfinite(contacts.normalShift[c])) ||
                 (!contacts.impulse.empty() &&
                  !(std::isfinite(contacts.impulse[3 * c]) &&
                    std::isfinite(contacts.impulse[3 * c + 1]) &&
                    std::isfinite(contacts.impulse[3 * c + 2])))) {
        fault = "contact of bodies " + std::to_string(found[static_cast<std::size_t>(i)].idA) +
                " and " + std::to_string(found[static_cast<std::size_t>(i)].idB) +
                ": normal shift or initial impulse not finite";
      }
    }
  }
  for (std::size_t k = 0; fault.empty() && k < nOwned; ++k) {
    if (!(bodies.inverseMass[k] >= 0.0) || !std::isfinite(bodies.inverseMass[k]))
      fault = "body " + std::to_string(owned.id[k]) + ": inverse mass not finite and >= 0";
    else if (!bodies.inverseInertia.empty() &&
             (!(bodies.inverseInertia[k] >= 0.0) || !std::isfinite(bodies.inverseInertia[k])))
      fault = "body " + std::to_string(owned.id[k]) + ": inverse inertia not finite and >= 0";
    for (int j = 0; fault.empty() && j < kDof; ++j)
      if (!std::isfinite(bodies.freeVelocity[kDof * k + static_cast<std::size_t>(j)]))
        fault = "body " + std::to_string(owned.id[k]) + ": free velocity not finite";
    for (int j = 0; fault.empty() && !bodies.orientation.empty() && j < 4; ++j)
      if (!std::isfinite(bodies.orientation[4 * k + static_cast<std::size_t>(j)]))
        fault = "body " + std::to_string(owned.id[k]) + ": orientation not finite";
  }
  if (!fault.empty()) fault = "DistributedContactProblem: " + fault;
  throwIfAnyFault(comm_, fault);

  // 2. slots: statics ∪ owned ∪ ghosts merged by id (= the detector's local set)
  slots_ = ids.size();
  owned_.assign(slots_, 0);
  ownedIndex_.assign(slots_, -1);
  std::vector<int> owner(slots_, -1);
  std::vector<double> centre(3 * slots_, 0.0), radius(slots_, 0.0);
  {
    std::size_t i = 0, g = 0;
    for (std::size_t s = 0; s < slots_ && fault.empty(); ++s) {
      if (isStatic[s]) continue;  // a fixed body on every rank: no owner, no exchange
      const bool own = g >= ghosts.size() || (i < nOwned && owned.id[i] < ghosts.id[g]);
      const BodyArrays& b = own ? owned : ghosts;
      const std::size_t k = own ? i++ : g++;
      if (k >= b.size() || b.id[k] != ids[s]) {
        fault =
            "DistributedContactProblem: the detector's local set differs from the decomposition's";
        break;
      }
      owned_[s] = own ? 1 : 0;
      ownedIndex_[s] = own ? static_cast<std::int32_t>(k) : -1;
      owner[s] = own ? rank_ : d.ghostOwners()[k];
      centre[3 * s] = b.x[k];
      centre[3 * s + 1] = b.y[k];
      centre[3 * s + 2] = b.z[k];
      radius[s] = b.radius[k];
    }
  }
  throwIfAnyFault(comm_, fault);

  // 3. halo plan over every ghost of the local set, built once per build(): each rank
  //    tells the owners which of their bodies it holds (ids in global order)
  ghostSlots_.assign(static_cast<std::size_t>(size_), {});
  ownedSlots_.assign(static_cast<std::size_t>(size_), {});
  for (std::size_t s = 0; s < slots_; ++s)
    if (!owned_[s] && owner[s] >= 0)
      ghostSlots_[static_cast<std::size_t>(owner[s])].push_back(static_cast<std::int32_t>(s));
  std::vector<int> sendCount(static_cast<std::size_t>(size_)),
      recvCount(static_cast<std::size_t>(size_));
  std::vector<int> sendOffset(static_cast<std::size_t>(size_)),
      recvOffset(static_cast<std::size_t>(size_));
  std::vector<long long> sendIds;
  for (int p = 0; p < size_; ++p) {
    sendOffset[static_cast<std::size_t>(p)] = static_cast<int>(sendIds.size());
    for (std::int32_t s : ghostSlots_[static_cast<std::size_t>(p)])
      sendIds.push_back(ids[static_cast<std::size_t>(s)]);
    sendCount[static_cast<std::size_t>(p)] =
        static_cast<int>(ghostSlots_[static_cast<std::size_t>(p)].size());
  }
  MPI_Alltoall(sendCount.data(), 1, MPI_INT, recvCount.data(), 1, MPI_INT, comm_);
  int total = 0;
  for (int p = 0; p < size_; ++p) {
    recvOffset[static_cast<std::size_t>(p)] = total;
    total += recvCount[static_cast<std::size_t>(p)];
  }
  std::vector<long long> recvIds(static_cast<std::size_t>(total));
  MPI_Alltoallv(sendIds.data(), sendCount.data(), sendOffset.data(), MPI_LONG_LONG, recvIds.data(),
                recvCount.data(), recvOffset.data(), MPI_LONG_LONG, comm_);
  neighbours_.clear();
  for (int p = 0; p < size_ && fault.empty(); ++p) {
    auto& list = ownedSlots_[static_cast<std::size_t>(p)];
    for (int k = 0; k < recvCount[static_cast<std::size_t>(p)]; ++k) {
      const std::int64_t id =
          recvIds[static_cast<std::size_t>(recvOffset[static_cast<std::size_t>(p)] + k)];
      const auto it = std::lower_bound(ids.begin(), ids.end(), id);
      const std::size_t s = static_cast<std::size_t>(it - ids.begin());
      if (it == ids.end() || *it != id || !owned_[s]) {
        fault = "DistributedContactProblem: rank " + std::to_string(p) + " holds body " +
                std::to_string(id) + " as a ghost of rank " + std::to_string(rank_) +
                ", which does not own it";
        break;
      }
      list.push_back(static_cast<std::int32_t>(s));
    }
    if (!list.empty() || !ghostSlots_[static_cast<std::size_t>(p)].empty())
      neighbours_.push_back(p);
  }
  throwIfAnyFault(comm_, fault);
  sendBuffer_.assign(static_cast<std::size_t>(size_), {});
  recvBuffer_.assign(static_cast<std::size_t>(size_), {});

  // 4. per slot: inverse mass, inverse inertia, orientation, v_free; the ghosts' from their
  //    owners (statics: zero mass terms)
  constexpr int kState = 12;
  std::vector<double> state(slots_ * kState, 0.0);
  for (std::size_t s = 0; s < slots_; ++s) {
    double* st = &state[kState * s];
    st[2] = 1.0;  // identity orientation
    if (!owned_[s]) continue;
    const std::size_t k = static_cast<std::size_t>(ownedIndex_[s]);
    st[0] = bodies.inverseMass[k];
    // sphere of the bounding radius by default: I = 2/5 m r^2
    st[1] = bodies.inverseInertia.empty() ? bodies.inverseMass[k] * 2.5 / (radius[s] * radius[s])
                                          : bodies.inverseInertia[k];
    if (!bodies.orientation.empty())
      std::copy(bodies.orientation.begin() + static_cast<std::ptrdiff_t>(4 * k),
                bodies.orientation.begin() + static_cast<std::ptrdiff_t>(4 * k + 4), st + 2);
    std::copy(bodies.freeVelocity.begin() + static_cast<std::ptrdiff_t>(kDof * k),
              bodies.freeVelocity.begin() + static_cast<std::ptrdiff_t>(kDof * k + kDof), st + 6);
  }
  forward(state.data(), kState);
  invMass_.assign(slots_, 0.0);
  invInertia_.assign(slots_, 0.0);
  for (std::size_t s = 0; s < slots_; ++s) {
    invMass_[s] = state[kState * s];
    invInertia_[s] = state[kState * s + 1];
  }

  // 5. contacts: keys, frames, Jacobian blocks (zero for a fixed side); those between two
  //    fixed bodies left out
  keys_.clear();
  slotA_.clear();
  slotB_.clear();
  jac_.clear();
  frame_.clear();
  mu_.clear();
  std::vector<double> shift, start;
  const bool haveShift = !contacts.normalShift.empty(), haveImpulse = !contacts.impulse.empty();
  for (std::size_t ci = 0; ci < contacts.index.size(); ++ci) {
    const std::size_t i = static_cast<std::size_t>(contacts.index[ci]);
    const DetectedContact& c = found[i].contact;
    const std::size_t a = static_cast<std::size_t>(c.bodyA), b = static_cast<std::size_t>(c.bodyB);
    const bool fixedA = invMass_[a] == 0.0 && invInertia_[a] == 0.0;
    const bool fixedB = invMass_[b] == 0.0 && invInertia_[b] == 0.0;
    if (fixedA && fixedB) continue;
    Key key{found[i].idA, found[i].idB, 0};
    if (!keys_.empty() && keys_.back()[0] == key[0] && keys_.back()[1] == key[1])
      key[2] = keys_.back()[2] + 1;
    keys_.push_back(key);
    slotA_.push_back(c.bodyA);
    slotB_.push_back(c.bodyB);
    double f[9];
    contact::frame(c.normal, f);
    frame_.insert(frame_.end(), f, f + 9);
    double J[36] = {};
    for (int side = 0; side < 2; ++side) {
      const std::size_t sl = side == 0 ? a : b;
      if (side == 0 ? fixedA : fixedB) continue;  // a fixed body's block stays zero
      const double* st = &state[kState * sl];
      const quaternion::Quat q{st[2], st[3], st[4], st[5]};
      const quaternion::Vec3& p = side == 0 ? c.pointA : c.pointB;
      const quaternion::Vec3 r{p[0] - centre[3 * sl], p[1] - centre[3 * sl + 1],
                               p[2] - centre[3 * sl + 2]};
      contact::jacobian(f, r, q, side == 0 ? 1.0 : -1.0, J + 18 * side);
    }
    jac_.insert(jac_.end(), J, J + 36);
    mu_.push_back(contacts.mu[ci]);
    shift.push_back(haveShift ? contacts.normalShift[ci] : 0.0);
    if (haveImpulse)
      start.insert(start.end(), contacts.impulse.begin() + static_cast<std::ptrdiff_t>(3 * ci),
                   contacts.impulse.begin() + static_cast<std::ptrdiff_t>(3 * ci + 3));
    else
      start.insert(start.end(), 3, 0.0);
  }
  const std::size_t n = keys_.size();
  // slot -> (contact, side) entries in contact order, for applyJt (fixed sides left out)
  slotStart_.assign(slots_ + 1, 0);
  for (std::size_t c = 0; c < n; ++c)
    for (int side = 0; side < 2; ++side) {
      const std::size_t sl = static_cast<std::size_t>(side == 0 ? slotA_[c] : slotB_[c]);
      if (invMass_[sl] != 0.0 || invInertia_[sl] != 0.0) ++slotStart_[sl + 1];
    }
  for (std::size_t sl = 0; sl < slots_; ++sl) slotStart_[sl + 1] += slotStart_[sl];
  slotContacts_.assign(static_cast<std::size_t>(slotStart_[slots_]), 0);
  {
    std::vector<std::int32_t> fill(slotStart_.begin(), slotStart_.end() - 1);
    for (std::size_t c = 0; c < n; ++c)
      for (int side = 0; side < 2; ++side) {
        const std::size_t sl = static_cast<std::size_t>(side == 0 ? slotA_[c] : slotB_[c]);
        if (invMass_[sl] != 0.0 || invInertia_[sl] != 0.0)
          slotContacts_[static_cast<std::size_t>(fill[sl]++)] = static_cast<std::int32_t>(2 * c + static_cast<std::size_t>(side));
      }
  }
  op_.size = static_cast<int>(3 * n);
  op_.n_dof = static_cast<int>(kDof * slots_);

  // 6. q = J v_free (the ghosts' v_free came with step 4) + the normal shift
  q_.assign(3 * n, 0.0);
  for (std::size_t c = 0; c < n; ++c) {
    for (int side = 0; side < 2; ++side) {
      const double* J = &jac_[36 * c + 18 * static_cast<std::size_t>(side)];
      const double* vb =
          &state[kState * static_cast<std::size_t>(side == 0 ? slotA_[c] : slotB_[c]) + 6];
      for (int i = 0; i < 3; ++i) {
        double s = 0.0;
        for (int k = 0; k < kDof; ++k) s += J[6 * i + k] * vb[k];
        q_[3 * c + static_cast<std::size_t>(i)] += s;
      }
    }
    q_[3 * c] += shift[c];
  }

  // 7. initial impulses: given, or (the one-friction build) from the last solve by key
  r_ = start;
  u_.assign(3 * n, 0.0);
  dv_.assign(kDof * nOwned, 0.0);
  if (!ownWarmStart) return;
  for (std::size_t c = 0; c < n; ++c) {
    const auto it = std::lower_bound(prevKeys_.begin(), prevKeys_.end(), keys_[c]);
    if (it == prevKeys_.end() || *it != keys_[c]) continue;
    const std::size_t j = static_cast<std::size_t>(it - prevKeys_.begin());
    const double* pf = &prevFrame_[9 * j];
    const double* pl = &prevImpulse_[3 * j];
    const double* f = &frame_[9 * c];
    // previous tangential impulse (world), projected on the new tangent plane, magnitude kept
    double t[3];
    for (int k = 0; k < 3; ++k) t[k] = pl[1] * pf[3 + k] + pl[2] * pf[6 + k];
    const double t1 = t[0] * f[3] + t[1] * f[4] + t[2] * f[5];
    const double t2 = t[0] * f[6] + t[1] * f[7] + t[2] * f[8];
    const double before = std::sqrt(pl[1] * pl[1] + pl[2] * pl[2]),
                 after = std::sqrt(t1 * t1 + t2 * t2);
    const double scale = after > 0.0 ? before / after : 0.0;
    r_[3 * c] = pl[0];
    r_[3 * c + 1] = t1 * scale;
    r_[3 * c + 2] = t2 * scale;
  }
}

NsdStatus DistributedContactProblem::solve(const NsdSolverOptions& options, NsdReport& report) {
  NsdSolverOptions o = options;
  if (!o.warm_start) std::fill(r_.begin(), r_.end(), 0.0);
  const NsdStatus status =
      nsd_fc3d_apgd_operator(&op_, dataOf(q_), dataOf(mu_), dataOf(r_), dataOf(u_), &o, &report);
  // velocity change M^-1 J^T r of the owned bodies (a collective halo sum)
  std::vector<double> v(slots_ * kDof), w(slots_ * kDof);
  applyJt(dataOf(r_), v.data());
  applyMinv(v.data(), w.data());
  for (std::size_t s = 0; s < slots_; ++s)
    if (owned_[s])
      std::copy(w.begin() + static_cast<std::ptrdiff_t>(kDof * s),
                w.begin() + static_cast<std::ptrdiff_t>(kDof * s + kDof),
                dv_.begin() +
                    static_cast<std::ptrdiff_t>(kDof * static_cast<std::size_t>(ownedIndex_[s])));
  // keep keys, frames and impulses for the next warm start (keys_ is sorted: the
  // detector's order by (idA, idB, ...), ordinals increasing)
  prevKeys_ = keys_;
  prevFrame_ = frame_;
  prevImpulse_ = r_;
  return status;
}

}  // namespace parallel
}  // namespace nsdyn
