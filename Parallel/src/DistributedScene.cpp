#include "nsdyn/parallel/DistributedScene.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <tuple>

#include "nsdyn/ContactFrame.hpp"
#include "nsdyn/ContactRules.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/Quaternion.hpp"
#include "nsdyn/parallel/Collective.hpp"
#include "nsdyn/parallel/DistributedNsgs.hpp"

namespace nsdyn {
namespace parallel {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

constexpr std::uint64_t kSubMask = (std::uint64_t(1) << 22) - 1;  // shape and feature bits
constexpr int kDof = 6;
using S = SceneState;

// A memory record on the wire: 4 ints then 12 doubles (128 bytes, no padding).
struct MemoryRecord {
  std::int64_t idA, idB, sub, keeper;
  double frame[9];
  double impulse[3];
};

bool keyLess(const DistributedScene::ContactMemory& m, std::size_t a, std::size_t b) {
  return std::tie(m.idA[a], m.idB[a], m.sub[a]) < std::tie(m.idA[b], m.idB[b], m.sub[b]);
}

void sortMemory(DistributedScene::ContactMemory& m) {
  std::vector<std::size_t> order(m.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return keyLess(m, a, b); });
  DistributedScene::ContactMemory sorted;
  for (std::size_t k : order) sorted.append(m, k);
  m = std::move(sorted);
}

}  // namespace

void DistributedScene::ContactMemory::clear() {
  idA.clear();
  idB.clear();
  sub.clear();
  frame.clear();
  impulse.clear();
  keeper.clear();
}

void DistributedScene::ContactMemory::append(const ContactMemory& o, std::size_t k) {
  idA.push_back(o.idA[k]);
  idB.push_back(o.idB[k]);
  sub.push_back(o.sub[k]);
  keeper.push_back(o.keeper[k]);
  frame.insert(frame.end(), o.frame.begin() + static_cast<std::ptrdiff_t>(9 * k),
               o.frame.begin() + static_cast<std::ptrdiff_t>(9 * k + 9));
  impulse.insert(impulse.end(), o.impulse.begin() + static_cast<std::ptrdiff_t>(3 * k),
                 o.impulse.begin() + static_cast<std::ptrdiff_t>(3 * k + 3));
}

DistributedScene::DistributedScene(MPI_Comm comm, DistributedSceneSpec spec,
                                   const ContactMemory& memory)
    : spec_(std::move(spec)) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    throw Error("DistributedScene", "MPI initialised (MPI_Init) before construction",
                "MPI not initialised");
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  time_ = spec_.t0;
  checkSpec();

  // halo: the largest radius + the detection distance, unless given
  const double detectDistance = std::max(spec_.margin, spec_.breakingDistance);
  double maxRadius = 0.0, globalMax = 0.0;
  for (double r : spec_.bodies.radius) maxRadius = std::max(maxRadius, r);
  MPI_Allreduce(&maxRadius, &globalMax, 1, MPI_DOUBLE, MPI_MAX, comm_);
  DecompositionOptions d = spec_.decomposition;
  if (d.halo == 0.0) d.halo = globalMax + detectDistance;
  spec_.decomposition = d;
  decomposition_ = std::make_unique<Decomposition>(comm_, d);
  ContactDetectorOptions detection;
  detection.margin = detectDistance;
  detection.breakingDistance = detectDistance;
  detection.threads = spec_.threads;
  detector_ = std::make_unique<DistributedDetector>(detection);
  {
    std::vector<std::size_t> order(spec_.staticIds.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return spec_.staticIds[a] < spec_.staticIds[b];
    });
    for (std::size_t k : order) staticGroup_.push_back(spec_.staticGroups[k]);
  }
  detector_->setStaticBodies(spec_.staticIds, spec_.statics);
  problem_ = std::make_unique<DistributedContactProblem>(comm_);

  // memory of a restart: its keeper's centre from the bodies given on this rank
  memory_ = memory;
  std::string fault;
  std::vector<std::array<double, 3>> centres(memory_.size());
  {
    const BodyArrays& b = spec_.bodies;
    std::vector<std::size_t> order(b.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return b.id[x] < b.id[y]; });
    for (std::size_t c = 0; c < memory_.size() && fault.empty(); ++c) {
      const auto it = std::lower_bound(order.begin(), order.end(), memory_.keeper[c],
                                       [&](std::size_t k, std::int64_t id) { return b.id[k] < id; });
      if (it == order.end() || b.id[*it] != memory_.keeper[c]) {
        fault = "DistributedScene: a saved contact of bodies " + std::to_string(memory_.idA[c]) +
                " and " + std::to_string(memory_.idB[c]) + " on rank " + std::to_string(rank_) +
                " without its body " + std::to_string(memory_.keeper[c]) + " on that rank";
        break;
      }
      centres[c] = {b.x[*it], b.y[*it], b.z[*it]};
    }
  }
  throwIfAnyFault(comm_, fault);
  decomposition_->partition(spec_.bodies);
  spec_.bodies.clear();  // the decomposition holds them now
  rehomeMemory(centres);
}

DistributedScene::~DistributedScene() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  problem_.reset();
  detector_.reset();
  decomposition_.reset();
  if (!finalized && comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void DistributedScene::setClock(double time, long steps) {
  time_ = time;
  steps_ = steps;
}

void DistributedScene::sumInRankOrder(double* values, int count) const {
  if (count <= 0) return;
  std::vector<double> all(static_cast<std::size_t>(count) * static_cast<std::size_t>(size_));
  MPI_Allgather(values, count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, comm_);
  for (int i = 0; i < count; ++i) {
    double s = all[static_cast<std::size_t>(i)];
    for (int p = 1; p < size_; ++p)
      s += all[static_cast<std::size_t>(p) * static_cast<std::size_t>(count) + static_cast<std::size_t>(i)];
    values[i] = s;
  }
}

void DistributedScene::checkSpec() {
  const DistributedSceneSpec& s = spec_;
  std::ostringstream f;
  const BodyArrays& b = s.bodies;
  if (!(s.h > 0.0) || !std::isfinite(s.h)) {
    f << "time step h " << s.h << " not finite and > 0";
  } else if (!(s.theta >= 0.0 && s.theta <= 1.0)) {
    f << "theta " << s.theta << " outside [0, 1]";
  } else if (!(s.margin >= 0.0) || !std::isfinite(s.margin) || !(s.breakingDistance >= s.margin) ||
             !std::isfinite(s.breakingDistance)) {
    f << "margin " << s.margin << " and breaking distance " << s.breakingDistance
      << " (finite, 0 <= margin <= breaking distance expected)";
  } else if (!(s.activation >= 0.0) || !std::isfinite(s.activation)) {
    f << "activation threshold " << s.activation << " not finite and >= 0";
  } else if (!(s.stabilisationFactor >= 0.0 && s.stabilisationFactor <= 1.0) ||
             !(s.maxRecoverySpeed > 0.0) || !std::isfinite(s.maxRecoverySpeed)) {
    f << "stabilisation factor " << s.stabilisationFactor << " (in [0, 1]) or recovery speed "
      << s.maxRecoverySpeed << " (> 0)";
  } else if (s.solver != "apgd" && s.solver != "nsgs") {
    f << "solver '" << s.solver << "' (distributed solvers: apgd, nsgs)";
  } else if (!s.material) {
    f << "no material function";
  } else if (s.staticIds.size() != s.statics.size() || s.staticGroups.size() != s.statics.size()) {
    f << s.staticIds.size() << " static ids and " << s.staticGroups.size() << " groups for "
      << s.statics.size() << " static bodies";
  } else if (b.width != S::kWidth) {
    f << "bodies with " << b.width << " state values each (" << S::kWidth << " expected)";
  } else if (!std::isfinite(s.gravity[0]) || !std::isfinite(s.gravity[1]) || !std::isfinite(s.gravity[2])) {
    f << "gravity not finite";
  } else if (s.rebalanceEvery < 0) {
    f << "rebalance period " << s.rebalanceEvery << " < 0";
  } else {
    const std::string arrays = b.firstFault();
    if (!arrays.empty()) f << arrays;
    for (std::size_t k = 0; arrays.empty() && k < b.size(); ++k) {
      const double* st = b.state(k);
      bool finite = true;
      for (int j = 0; j < S::kWidth; ++j) finite = finite && std::isfinite(st[j]);
      const double qn = std::sqrt(st[3] * st[3] + st[4] * st[4] + st[5] * st[5] + st[6] * st[6]);
      if (!finite) {
        f << "body " << b.id[k] << ": a state value not finite";
      } else if (!(st[S::kMass] > 0.0) || !(st[S::kInertia] > 0.0)) {
        f << "body " << b.id[k] << ": mass " << st[S::kMass] << " and inertia " << st[S::kInertia]
          << " (> 0 expected)";
      } else if (std::fabs(qn - 1.0) > 1e-6) {
        f << "body " << b.id[k] << ": orientation quaternion of norm " << qn << " (unit expected)";
      } else if (st[S::kQ] != b.x[k] || st[S::kQ + 1] != b.y[k] || st[S::kQ + 2] != b.z[k]) {
        f << "body " << b.id[k] << ": centre and pose differ";
      } else if (st[S::kGroup] < 0 || st[S::kGroup] != std::floor(st[S::kGroup])) {
        f << "body " << b.id[k] << ": group " << st[S::kGroup] << " (an integer >= 0 expected)";
      }
      if (!f.str().empty()) break;
    }
    for (std::size_t k = 0; f.str().empty() && k < s.statics.size(); ++k)
      if (!s.statics[k].isStatic() || s.staticGroups[k] < 0)
        f << "static body " << s.staticIds[k] << ": not static, or group " << s.staticGroups[k] << " < 0";
  }
  std::string fault = f.str();
  if (!fault.empty()) fault = "DistributedScene: rank " + std::to_string(rank_) + ": " + fault;
  throwIfAnyFault(comm_, fault);
}

void DistributedScene::rehomeMemory(const std::vector<std::array<double, 3>>& keeperCentre) {
  // each record to the owner of its keeper's centre under the current cuts
  std::vector<std::vector<std::size_t>> perRank(static_cast<std::size_t>(size_));
  for (std::size_t c = 0; c < memory_.size(); ++c)
    perRank[static_cast<std::size_t>(decomposition_->ownerOf(keeperCentre[c]))].push_back(c);
  std::vector<int> sendBytes(static_cast<std::size_t>(size_)), recvBytes(static_cast<std::size_t>(size_)),
      sendOffset(static_cast<std::size_t>(size_)), recvOffset(static_cast<std::size_t>(size_));
  std::vector<MemoryRecord> out;
  out.reserve(memory_.size());
  for (int p = 0; p < size_; ++p) {
    sendOffset[static_cast<std::size_t>(p)] = static_cast<int>(out.size() * sizeof(MemoryRecord));
    for (std::size_t c : perRank[static_cast<std::size_t>(p)]) {
      MemoryRecord r{memory_.idA[c], memory_.idB[c], memory_.sub[c], memory_.keeper[c], {}, {}};
      std::copy(memory_.frame.begin() + static_cast<std::ptrdiff_t>(9 * c),
                memory_.frame.begin() + static_cast<std::ptrdiff_t>(9 * c + 9), r.frame);
      std::copy(memory_.impulse.begin() + static_cast<std::ptrdiff_t>(3 * c),
                memory_.impulse.begin() + static_cast<std::ptrdiff_t>(3 * c + 3), r.impulse);
      out.push_back(r);
    }
    sendBytes[static_cast<std::size_t>(p)] =
        static_cast<int>(perRank[static_cast<std::size_t>(p)].size() * sizeof(MemoryRecord));
  }
  std::uint64_t bytes = 0;
  for (int p = 0; p < size_; ++p)
    if (p != rank_) bytes += static_cast<std::uint64_t>(sendBytes[static_cast<std::size_t>(p)]);
  report_.bytesSent += bytes;
  MPI_Alltoall(sendBytes.data(), 1, MPI_INT, recvBytes.data(), 1, MPI_INT, comm_);
  std::size_t total = 0;
  for (int p = 0; p < size_; ++p) {
    recvOffset[static_cast<std::size_t>(p)] = static_cast<int>(total);
    total += static_cast<std::size_t>(recvBytes[static_cast<std::size_t>(p)]);
  }
  std::vector<MemoryRecord> in(total / sizeof(MemoryRecord));
  MPI_Alltoallv(out.data(), sendBytes.data(), sendOffset.data(), MPI_BYTE, in.data(), recvBytes.data(),
                recvOffset.data(), MPI_BYTE, comm_);
  memory_.clear();
  for (const MemoryRecord& r : in) {
    memory_.idA.push_back(r.idA);
    memory_.idB.push_back(r.idB);
    memory_.sub.push_back(r.sub);
    memory_.keeper.push_back(r.keeper);
    memory_.frame.insert(memory_.frame.end(), r.frame, r.frame + 9);
    memory_.impulse.insert(memory_.impulse.end(), r.impulse, r.impulse + 3);
  }
  sortMemory(memory_);
}

const DistributedScene::StepReport& DistributedScene::step() {
  const auto tStep = Clock::now();
  const DistributedSceneSpec& sp = spec_;
  const double h = sp.h, theta = sp.theta;
  report_ = StepReport();
  double phase[6] = {0, 0, 0, 0, 0, 0};  // detect, assemble, solve, update, migrate, total

  // 1. detection at q_k
  auto t0 = Clock::now();
  const Decomposition& d = *decomposition_;
  const std::vector<DistributedContact>& found = detector_->detect(d);
  phase[0] = since(t0);

  // 2. per local slot: its state (owned and ghosts carry it; statics none)
  t0 = Clock::now();
  const std::vector<std::int64_t>& ids = detector_->localIds();
  const std::vector<char>& isStatic = detector_->localStatic();
  const std::size_t slots = ids.size();
  const BodyArrays& owned = d.owned();
  const BodyArrays& ghosts = d.ghosts();
  std::vector<const double*> state(slots, nullptr);
  std::vector<int> group(slots, 0);
  {
    std::size_t i = 0, g = 0, st = 0;
    for (std::size_t s = 0; s < slots; ++s) {
      if (isStatic[s]) {
        group[s] = staticGroup_[st++];
        continue;
      }
      const bool own = g >= ghosts.size() || (i < owned.size() && owned.id[i] < ghosts.id[g]);
      state[s] = own ? owned.state(i++) : ghosts.state(g++);
      group[s] = static_cast<int>(state[s][S::kGroup]);
    }
  }

  // 3. kept contacts (margin, or known and within the breaking distance), their frames,
  //    Jacobians, u_k, activity, restitution shift, warm start
  const double breaking = std::max(sp.margin, sp.breakingDistance);
  current_.clear();
  points_.clear();
  gaps_.clear();
  active_.clear();
  std::vector<double> jac, uStart, shift, start, mus;
  std::vector<std::int32_t> problemIndex, slotA, slotB;
  std::size_t j = 0;
  std::uint64_t warm = 0;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const DetectedContact& c = found[i].contact;
    const std::int64_t idA = found[i].idA, idB = found[i].idB;
    const std::int64_t sub = static_cast<std::int64_t>(c.key & kSubMask);
    const auto key = std::tie(idA, idB, sub);
    while (j < memory_.size() && std::tie(memory_.idA[j], memory_.idB[j], memory_.sub[j]) < key) ++j;
    const bool known = j < memory_.size() && std::tie(memory_.idA[j], memory_.idB[j], memory_.sub[j]) == key;
    if (!(c.gap <= sp.margin || (known && c.gap <= breaking))) continue;
    const std::size_t a = static_cast<std::size_t>(c.bodyA), b = static_cast<std::size_t>(c.bodyB);
    current_.idA.push_back(idA);
    current_.idB.push_back(idB);
    current_.sub.push_back(sub);
    current_.keeper.push_back(isStatic[a] ? idB : idA);
    double f[9];
    contact::frame(c.normal, f);
    current_.frame.insert(current_.frame.end(), f, f + 9);
    points_.insert(points_.end(), {c.pointA[0], c.pointA[1], c.pointA[2], c.pointB[0], c.pointB[1], c.pointB[2]});
    gaps_.push_back(c.gap);
    slotA.push_back(c.bodyA);
    slotB.push_back(c.bodyB);
    double J[36] = {};
    double u[3] = {0.0, 0.0, 0.0};
    for (int side = 0; side < 2; ++side) {
      const double* st = state[side == 0 ? a : b];
      if (!st) continue;
      const quaternion::Quat q{st[3], st[4], st[5], st[6]};
      const quaternion::Vec3& p = side == 0 ? c.pointA : c.pointB;
      const quaternion::Vec3 r{p[0] - st[0], p[1] - st[1], p[2] - st[2]};
      double* Js = J + 18 * side;
      contact::jacobian(f, r, q, side == 0 ? 1.0 : -1.0, Js);
      const double* v = st + S::kV;
      for (int row = 0; row < 3; ++row)
        for (int k = 0; k < kDof; ++k) u[row] += Js[6 * row + k] * v[k];
    }
    jac.insert(jac.end(), J, J + 36);
    uStart.insert(uStart.end(), u, u + 3);
    const ContactMaterial mat = sp.material(group[a], group[b]);
    const bool isActive = contact::isActive(c.gap, u[0], h, sp.activation);
    active_.push_back(isActive ? 1 : 0);
    // warm start: the previous impulse, tangential part turned into the new tangent plane
    double lambda[3] = {0.0, 0.0, 0.0};
    if (sp.warmStart && known) {
      double T[3];
      contact::tangentialWorld(&memory_.frame[9 * j], &memory_.impulse[3 * j], T);
      contact::warmImpulse(memory_.impulse[3 * j], T, f, lambda);
      ++warm;
    }
    if (isActive) {
      const double bias = contact::recoveryBias(c.gap, isActive, h, sp.stabilisationFactor, sp.maxRecoverySpeed);
      problemIndex.push_back(static_cast<std::int32_t>(i));
      mus.push_back(mat.mu);
      shift.push_back(mat.restitution * u[0] + bias);
      start.insert(start.end(), lambda, lambda + 3);
    }
    current_.impulse.insert(current_.impulse.end(), lambda, lambda + 3);  // replaced after the solve
  }
  const std::size_t kept = current_.size();

  // 4. free velocities of the owned bodies: v_free = v_k + h g (spheres: no gyroscopic term)
  const std::size_t nOwned = owned.size();
  DistributedContactProblem::BodyTerms terms;
  terms.inverseMass.resize(nOwned);
  terms.inverseInertia.resize(nOwned);
  terms.orientation.resize(4 * nOwned);
  terms.freeVelocity.resize(kDof * nOwned);
  for (std::size_t k = 0; k < nOwned; ++k) {
    const double* st = owned.state(k);
    terms.inverseMass[k] = 1.0 / st[S::kMass];
    terms.inverseInertia[k] = 1.0 / st[S::kInertia];
    std::copy(st + 3, st + 7, terms.orientation.begin() + static_cast<std::ptrdiff_t>(4 * k));
    for (int i = 0; i < 3; ++i) {
      terms.freeVelocity[kDof * k + static_cast<std::size_t>(i)] = st[S::kV + i] + h * sp.gravity[static_cast<std::size_t>(i)];
      terms.freeVelocity[kDof * k + 3 + static_cast<std::size_t>(i)] = st[S::kV + 3 + i];
    }
  }
  DistributedContactProblem::ContactTerms contactTerms;
  contactTerms.index = problemIndex;
  contactTerms.mu = mus;
  contactTerms.normalShift = shift;
  if (sp.warmStart) contactTerms.impulse = start;
  problem_->build(d, *detector_, terms, contactTerms);
  // global counts (every rank the same): kept, active, warm-started
  double counts[3] = {static_cast<double>(kept), static_cast<double>(problemIndex.size()),
                      static_cast<double>(warm)};
  sumInRankOrder(counts, 3);
  report_.contacts = static_cast<std::uint64_t>(counts[0]);
  report_.active = static_cast<std::uint64_t>(counts[1]);
  report_.warmStarted = static_cast<std::uint64_t>(counts[2]);
  phase[1] = since(t0);

  // 5. the problem over the ranks
  t0 = Clock::now();
  const std::uint64_t haloBefore = problem_->haloBytes();
  std::vector<double> dv(kDof * nOwned, 0.0);
  if (report_.active > 0) {
    NsdSolverOptions o = sp.solverOptions;
    o.warm_start = sp.warmStart ? 1 : 0;
    if (sp.solver == "nsgs") {
      report_.status = solveNsgs(*problem_, o, report_.solver, &dv);
    } else {
      report_.status = problem_->solve(o, report_.solver);
      dv = problem_->velocityChange();
    }
  }
  // the kept contacts' impulses: the active ones from the solve, 0 for the others
  {
    const std::vector<double>& r = problem_->impulses();
    std::size_t a = 0;
    for (std::size_t c = 0; c < kept; ++c) {
      double* l = &current_.impulse[3 * c];
      if (active_[c]) {
        std::copy(r.begin() + static_cast<std::ptrdiff_t>(3 * a), r.begin() + static_cast<std::ptrdiff_t>(3 * a + 3), l);
        ++a;
      } else {
        l[0] = l[1] = l[2] = 0.0;
      }
    }
  }
  phase[2] = since(t0);

  // 6. state update of the owned bodies
  t0 = Clock::now();
  BodyArrays next;
  next.width = S::kWidth;
  next.reserve(nOwned);
  std::vector<double> vStart(kDof * nOwned);
  double energy[3] = {0.0, 0.0, 0.0};  // kinetic, potential, work
  double maxZ = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < nOwned; ++k) {
    double st[S::kWidth];
    std::copy(owned.state(k), owned.state(k) + S::kWidth, st);
    double* v = st + S::kV;
    std::copy(v, v + kDof, vStart.begin() + static_cast<std::ptrdiff_t>(kDof * k));
    double vk[kDof];
    std::copy(v, v + kDof, vk);
    for (int i = 0; i < kDof; ++i)
      v[i] = terms.freeVelocity[kDof * k + static_cast<std::size_t>(i)] + dv[kDof * k + static_cast<std::size_t>(i)];
    double inc[kDof];
    for (int i = 0; i < kDof; ++i) inc[i] = h * (theta * v[i] + (1.0 - theta) * vk[i]);
    for (int i = 0; i < 3; ++i) st[i] += inc[i];
    const quaternion::Quat q = quaternion::multiply(quaternion::Quat{st[3], st[4], st[5], st[6]},
                                                    quaternion::exponential({inc[3], inc[4], inc[5]}));
    for (int i = 0; i < 4; ++i) st[3 + i] = q[static_cast<std::size_t>(i)];
    const double m = st[S::kMass], I = st[S::kInertia];
    energy[0] += 0.5 * m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * I * (v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
    energy[1] -= m * (sp.gravity[0] * st[0] + sp.gravity[1] * st[1] + sp.gravity[2] * st[2]);
    maxZ = std::max(maxZ, st[2]);
    next.push_back(owned.id[k], st[0], st[1], st[2], owned.radius[k], st);
  }
  // u_{k+1} = J v_{k+1} with the step-start Jacobians (ghosts' v_{k+1} from their owners):
  // the work of the impulses, Σ λ·(u_k + u_{k+1})/2
  {
    std::vector<double> vNew(kDof * problem_->slots(), 0.0);
    const std::vector<std::int32_t>& index = problem_->ownedIndex();
    for (std::size_t s = 0; s < problem_->slots(); ++s)
      if (index[s] >= 0)
        std::copy(next.state(static_cast<std::size_t>(index[s])) + S::kV,
                  next.state(static_cast<std::size_t>(index[s])) + S::kV + kDof, vNew.begin() + static_cast<std::ptrdiff_t>(kDof * s));
    problem_->forward(vNew.data(), kDof);
    velocities_.assign(3 * kept, 0.0);
    for (std::size_t c = 0; c < kept; ++c) {
      double u[3] = {0.0, 0.0, 0.0};
      for (int side = 0; side < 2; ++side) {
        const std::size_t s = static_cast<std::size_t>(side == 0 ? slotA[c] : slotB[c]);
        if (isStatic[s]) continue;
        const double* Js = &jac[36 * c + 18 * static_cast<std::size_t>(side)];
        for (int row = 0; row < 3; ++row)
          for (int k = 0; k < kDof; ++k) u[row] += Js[6 * row + k] * vNew[kDof * s + static_cast<std::size_t>(k)];
      }
      std::copy(u, u + 3, velocities_.begin() + static_cast<std::ptrdiff_t>(3 * c));
      if (!active_[c]) continue;  // no impulse, no work
      for (int k = 0; k < 3; ++k)
        energy[2] += current_.impulse[3 * c + static_cast<std::size_t>(k)] * 0.5 * (u[k] + uStart[3 * c + static_cast<std::size_t>(k)]);
    }
  }
  sumInRankOrder(energy, 3);
  report_.kineticEnergy = energy[0];
  report_.potentialEnergy = energy[1];
  report_.contactWork = energy[2];
  MPI_Allreduce(&maxZ, &report_.maxZ, 1, MPI_DOUBLE, MPI_MAX, comm_);
  phase[3] = since(t0);

  // 7. migration to the owners of the new centres; the memory follows its keeper
  t0 = Clock::now();
  std::vector<std::array<double, 3>> keeperCentre(kept);
  for (std::size_t c = 0; c < kept; ++c) {
    const auto it = std::lower_bound(next.id.begin(), next.id.end(), current_.keeper[c]);
    const std::size_t k = static_cast<std::size_t>(it - next.id.begin());
    keeperCentre[c] = {next.x[k], next.y[k], next.z[k]};
  }
  ++steps_;
  time_ = sp.t0 + static_cast<double>(steps_) * h;
  const bool force = sp.rebalanceEvery > 0 && steps_ % sp.rebalanceEvery == 0;
  const std::size_t partitionsBefore = decomposition_->statistics().partitions;
  decomposition_->migrate(std::move(next), force);
  memory_ = current_;
  rehomeMemory(keeperCentre);
  phase[4] = since(t0);
  phase[5] = since(tStep);

  // 8. the report (the same on every rank)
  double perRank[2] = {static_cast<double>(decomposition_->statistics().migrated),
                       static_cast<double>(decomposition_->statistics().bytesSent + problem_->haloBytes() - haloBefore) +
                           static_cast<double>(report_.bytesSent)};
  sumInRankOrder(perRank, 2);
  double slowest[6];
  MPI_Allreduce(phase, slowest, 6, MPI_DOUBLE, MPI_MAX, comm_);
  report_.step = steps_;
  report_.time = time_;
  report_.migrated = static_cast<std::uint64_t>(perRank[0]);
  report_.bytesSent = static_cast<std::uint64_t>(perRank[1]);
  report_.repartitioned = decomposition_->statistics().partitions != partitionsBefore;
  report_.imbalance = decomposition_->statistics().imbalance;
  report_.detectSeconds = slowest[0];
  report_.assembleSeconds = slowest[1];
  report_.solveSeconds = slowest[2];
  report_.updateSeconds = slowest[3];
  report_.migrateSeconds = slowest[4];
  report_.totalSeconds = slowest[5];
  return report_;
}

}  // namespace parallel
}  // namespace nsdyn
