// Contact detection over a scene (see nsdyn/ContactDetector.hpp for the pipeline and the key
// layout).
#include "nsdyn/ContactDetector.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <utility>

#include "nsdyn/BoxShape.hpp"
#include "nsdyn/Broadphase.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ConvexContact.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/Narrowphase.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/TerrainShape.hpp"
#include "nsdyn/TriangleNarrowphase.hpp"

#include "mechanics/Threads.hpp"
#include "mechanics/detection/DetectorStages.hpp"
#include "mechanics/narrowphase/NarrowphaseMath.hpp"

namespace nsdyn {

ContactDetector::ContactDetector() : stages_(std::make_unique<Stages>()) {}
ContactDetector::~ContactDetector() = default;
ContactDetector::ContactDetector(const ContactDetector& other)
    : bodies_(other.bodies_),
      store_(other.store_),
      options_(other.options_),
      sweep_(other.sweep_),
      stats_(other.stats_),
      stages_(std::make_unique<Stages>(*other.stages_)),
      contacts_(other.contacts_) {}
ContactDetector::ContactDetector(ContactDetector&& other) noexcept
    : bodies_(std::move(other.bodies_)),
      store_(other.store_),
      options_(other.options_),
      sweep_(std::move(other.sweep_)),
      stats_(other.stats_),
      stages_(std::exchange(other.stages_, std::make_unique<Stages>())),
      contacts_(std::move(other.contacts_)) {}
ContactDetector& ContactDetector::operator=(const ContactDetector& other) {
  if (this != &other) *this = ContactDetector(other);
  return *this;
}
ContactDetector& ContactDetector::operator=(ContactDetector&& other) noexcept {
  bodies_ = std::move(other.bodies_);
  store_ = other.store_;
  options_ = other.options_;
  sweep_ = std::move(other.sweep_);
  stats_ = other.stats_;
  std::swap(stages_, other.stages_);
  contacts_ = std::move(other.contacts_);
  return *this;
}

namespace {

using narrowphase::ContactList;
using narrowphase::ContactPoint;
using narrowphase::Plane;
using Vec3 = quaternion::Vec3;
using Placed = ContactDetector::PlacedShape;
using detection::boundingBoxExact;
using detection::collide;
using detection::collideSpheres;
using detection::worldPlane;

constexpr std::size_t kMaxBodies = kMaxSceneBodies;
constexpr std::size_t kMaxShapes = kMaxBodyShapes;

using mechanics::threadId;

void sortByKey(std::vector<DetectedContact>& c) {
  std::stable_sort(c.begin(), c.end(), [](const DetectedContact& a, const DetectedContact& b) {
    return a.key < b.key;
  });
}

}  // namespace

std::uint64_t ContactDetector::makeKey(std::uint32_t bodyA, std::uint32_t bodyB,
                                       std::uint32_t shapeA, std::uint32_t shapeB,
                                       std::uint32_t featureA, std::uint32_t featureB) {
  return (std::uint64_t(bodyA & 0x1FFFFFu) << 43) | (std::uint64_t(bodyB & 0x1FFFFFu) << 22) |
         (std::uint64_t(shapeA & 0x3Fu) << 16) | (std::uint64_t(shapeB & 0x3Fu) << 10) |
         (std::uint64_t(featureA & 0x1Fu) << 5) | std::uint64_t(featureB & 0x1Fu);
}

ContactDetector::ContactDetector(std::vector<BodyShapes> bodies, const Options& options)
    : ContactDetector() {
  setOptions(options);
  setBodies(std::move(bodies));
}

void ContactDetector::setBodies(std::vector<BodyShapes> bodies) {
  if (bodies.size() > kMaxBodies)
    throw Error("ContactDetector", "at most 2^21 bodies",
                std::to_string(bodies.size()) + " bodies");
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    const auto& shapes = bodies[b].shapes();
    if (shapes.size() > kMaxShapes)
      throw Error("ContactDetector", "at most 64 shapes per body",
                  "body " + std::to_string(b) + " has " + std::to_string(shapes.size()));
    if (!bodies[b].isStatic())
      for (const auto& s : shapes)
        if (!s.shape->isFinite())  // half-spaces and terrains
          throw Error("ContactDetector", "half-spaces on static bodies only",
                      "body " + std::to_string(b) + " is dynamic");
  }
  bodies_ = std::move(bodies);
  store_ = nullptr;
  sweep_.clear();
  contacts_.clear();
}

void ContactDetector::setStore(const BodyStore* store) {
  bodies_.clear();
  store_ = store;
  sweep_.clear();
  contacts_.clear();
}

void ContactDetector::setSweep(const std::vector<double>& sweep) {
  if (!sweep.empty() && sweep.size() != bodyCount())
    throw Error("ContactDetector::setSweep",
                "one sweep distance per body (" + std::to_string(bodyCount()) + ")",
                std::to_string(sweep.size()) + " entries");
  for (std::size_t b = 0; b < sweep.size(); ++b)
    if (!(std::isfinite(sweep[b]) && sweep[b] >= 0.0))
      throw Error("ContactDetector::setSweep", "sweep distances finite and >= 0",
                  "body " + std::to_string(b) + ": " + std::to_string(sweep[b]));
  sweep_ = sweep;
}

void ContactDetector::setOptions(const Options& options) {
  if (!(std::isfinite(options.margin) && options.margin >= 0.0))
    throw Error("ContactDetector", "margin finite and >= 0",
                "margin = " + std::to_string(options.margin));
  if (!(std::isfinite(options.breakingDistance) && options.breakingDistance >= options.margin))
    throw Error("ContactDetector", "breakingDistance finite and >= margin",
                "breakingDistance = " + std::to_string(options.breakingDistance));
  if (options.threads < 0 || options.threads > kMaxDetectionThreads)
    throw Error("ContactDetector", "threads in [0, 4096] (0: the OpenMP default)",
                "threads = " + std::to_string(options.threads));
  options_ = options;
}

void ContactDetector::place() {
  stages_->finite_.clear();
  stages_->planes_.clear();
  stages_->finiteKind_.clear();
  stages_->finiteRadius_.clear();
  stages_->aabbs_.clear();
  stages_->halfSpaces_.clear();
  stages_->terrains_.clear();
  stages_->terrainBoxes_.clear();
  const std::size_t nb = bodyCount();
  const std::int64_t staticGroup = static_cast<std::int64_t>(nb);
  if (store_) {
    const std::size_t shapes = store_->shapes.size();
    stages_->finite_.reserve(shapes);
    stages_->finiteKind_.reserve(shapes);
    stages_->finiteRadius_.reserve(shapes);
    stages_->aabbs_.reserve(shapes, true);
  }
  for (std::size_t b = 0; b < nb; ++b) {
    const double m = sweep_.empty() ? options_.margin : options_.margin + sweep_[b];
    Shape::Vec3 bp;
    Shape::Quat bq;
    const ShapeInstance* first;
    std::size_t count;
    bool isStatic;
    if (store_) {
      const double* qb = &store_->q[7 * b];
      bp = {qb[0], qb[1], qb[2]};
      bq = {qb[3], qb[4], qb[5], qb[6]};
      first = store_->shapes.data() + store_->shapeStart[b];
      count = store_->shapeStart[b + 1] - store_->shapeStart[b];
      isStatic = store_->isStatic[b] != 0;
    } else {
      const BodyShapes& body = bodies_[b];
      bp = body.position();
      bq = body.orientation();
      first = body.shapes().data();
      count = body.shapes().size();
      isStatic = body.isStatic();
    }
    for (std::size_t s = 0; s < count; ++s) {
      const ShapeInstance& inst = first[s];
      Placed p;
      p.shape = inst.shape.get();
      // ShapeInstance::worldPosition / worldOrientation, the same arithmetic inline
      const Vec3 r = narrowphase::detail::rotateExact(bq, inst.position);
      p.pose.position = {bp[0] + r[0], bp[1] + r[1], bp[2] + r[2]};
      p.pose.orientation = narrowphase::detail::multiplyExact(bq, inst.orientation);
      p.body = static_cast<std::int32_t>(b);
      p.shapeIndex = static_cast<std::int32_t>(s);
      p.isStatic = isStatic;
      const ShapeKind kind = p.shape->kind();
      if (kind == ShapeKind::HalfSpace) {
        const Plane plane = worldPlane(p);
        stages_->halfSpaces_.push_back({plane.normal, plane.offset, staticGroup});
        stages_->planes_.push_back(p);
      } else if (kind == ShapeKind::TriangleMesh || kind == ShapeKind::Heightfield) {
        stages_->terrainBoxes_.push_back(p.shape->boundingBox(p.pose.position, p.pose.orientation));
        stages_->terrains_.push_back(p);
      } else {
        Shape::Aabb box;
        double radius = 0.0;
        if (kind == ShapeKind::Sphere) {  // SphereShape::boundingBox
          radius = static_cast<const SphereShape&>(*p.shape).radius();
          const Vec3& c = p.pose.position;
          box = Shape::Aabb{{c[0] - radius, c[1] - radius, c[2] - radius},
                            {c[0] + radius, c[1] + radius, c[2] + radius}};
        } else if (kind == ShapeKind::Capsule || kind == ShapeKind::Cylinder ||
                   kind == ShapeKind::ConvexHull) {  // Shape::boundingBox, not overridden
          box = boundingBoxExact(*p.shape, p.pose);
        } else {
          box = p.shape->boundingBox(p.pose.position, p.pose.orientation);
        }
        for (int k = 0; k < 3; ++k) {
          box.min[k] -= m;
          box.max[k] += m;
        }
        // a collision family f > 0 (BodyStore::family) shares the group staticGroup + f:
        // its bodies are never paired (the points of one peridynamic body)
        const std::int32_t fam = store_ ? store_->family[b] : 0;
        stages_->aabbs_.push_back(box, p.isStatic ? staticGroup
                                       : fam > 0  ? staticGroup + fam
                                                  : static_cast<std::int64_t>(b));
        stages_->finite_.push_back(p);
        stages_->finiteKind_.push_back(static_cast<std::uint8_t>(kind));
        stages_->finiteRadius_.push_back(radius);
      }
    }
  }
}

const std::vector<DetectedContact>& ContactDetector::detect() {
  place();
  const int nt =
      mechanics::threadsFor(options_.threads, stages_->finite_.size() + stages_->planes_.size());
  UniformGridBroadphase::Options bo = options_.broadphase;
  bo.threads = nt;
  stages_->broadphase_.setOptions(bo);
  if (stages_->aabbs_.size() > 0)
    stages_->broadphase_.findPairs(stages_->aabbs_, stages_->pairs_);
  else
    stages_->pairs_.clear();
  if (stages_->aabbs_.size() > 0 && !stages_->halfSpaces_.empty())
    stages_->hsPairs_ =
        UniformGridBroadphase::findHalfSpacePairs(stages_->aabbs_, stages_->halfSpaces_, 0.0, nt);
  else
    stages_->hsPairs_.clear();
  // terrains: every dynamic shape whose AABB meets the terrain's (its triangles are found by
  // the terrain's BVH or grid in the narrowphase task)
  stages_->terrainPairs_.clear();
  for (std::size_t k = 0; k < stages_->terrains_.size(); ++k) {
    const Shape::Aabb& tb = stages_->terrainBoxes_[k];
    for (std::size_t i = 0; i < stages_->finite_.size(); ++i) {
      if (stages_->finite_[i].isStatic) continue;
      const AabbArrays& a = stages_->aabbs_;
      const double lo[3] = {a.minX[i], a.minY[i], a.minZ[i]},
                   hi[3] = {a.maxX[i], a.maxY[i], a.maxZ[i]};
      bool meets = true;
      for (std::size_t d = 0; d < 3; ++d)
        if (hi[d] < tb.min[d] || tb.max[d] < lo[d]) meets = false;
      if (meets)
        stages_->terrainPairs_.push_back(
            {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(k)});
    }
  }

  stats_ = Statistics();
  stats_.shapes = stages_->finite_.size();
  stats_.halfSpaces = stages_->planes_.size();
  stats_.pairs = stages_->pairs_.size();
  stats_.halfSpacePairs = stages_->hsPairs_.size();

  // Narrowphase: the pairs in order, then the half-space pairs; static schedule, so the
  // thread buffers concatenated in thread order are in task order.
  // (thread 0 writes into contacts_ itself, the others into threadContacts_[1..])
  stages_->threadContacts_.resize(nt > 1 ? static_cast<std::size_t>(nt) : 0);
  stages_->threadScratch_.resize(static_cast<std::size_t>(nt));
  stages_->threadFinite_.assign(static_cast<std::size_t>(nt), 0);
  for (auto& t : stages_->threadContacts_) t.clear();
  {
    // room for about the last step's count (+ 1/16): no doubling of the largest array
    const std::size_t expected = contacts_.size() + contacts_.size() / 16 + 64;
    contacts_.clear();
    if (contacts_.capacity() < expected || contacts_.capacity() > expected + expected / 2) {
      contacts_.shrink_to_fit();
      contacts_.reserve(expected);
    }
  }
  const std::int64_t nPairs = static_cast<std::int64_t>(stages_->pairs_.size());
  const std::int64_t nHalf = nPairs + static_cast<std::int64_t>(stages_->hsPairs_.size());
  const std::int64_t nTasks = nHalf + static_cast<std::int64_t>(stages_->terrainPairs_.size());
  const double margin = options_.margin;
  const bool swept = !sweep_.empty();
  const std::uint8_t sphere = static_cast<std::uint8_t>(ShapeKind::Sphere);
  std::size_t closedCount = 0, ccdCount = 0;
  NSD_OMP(omp parallel num_threads(nt) reduction(+ : closedCount, ccdCount)) {
    const std::size_t tid = static_cast<std::size_t>(threadId());
    // thread 0 writes into contacts_ itself (the first tasks), the others into their buffers,
    // appended after it in thread order: only their share is copied
    // (a thread's buffer taken out of threadContacts_ while it grows: the vectors' ends lie
    // side by side there, and pushing in place dirtied the other threads' cache line)
    std::vector<DetectedContact> own;
    if (tid > 0) own.swap(stages_->threadContacts_[tid]);
    std::vector<DetectedContact>& local = tid > 0 ? own : contacts_;
    ContactList& scratch = stages_->threadScratch_[tid];
    // this thread's pair contacts so far, stored once after the loop (the threads' counts
    // share a cache line: written at every pair they made the threads fight for it)
    std::size_t finiteHere = 0;
    NSD_OMP(omp for schedule(static))
    for (std::int64_t t = 0; t < nTasks; ++t) {
      bool closed = true;
      if (t < nPairs) {
        const BroadphasePair& pr = stages_->pairs_[static_cast<std::size_t>(t)];
        const Placed& a = stages_->finite_[pr.i];
        const Placed& b = stages_->finite_[pr.j];
        const double pm = swept ? pairMargin(a.body, b.body) : margin;
        if (stages_->finiteKind_[pr.i] == sphere && stages_->finiteKind_[pr.j] == sphere)
          collideSpheres(a, stages_->finiteRadius_[pr.i], b, stages_->finiteRadius_[pr.j], pm,
                         local);
        else
          closed = collide(a, b, nullptr, pm, options_.ccd, scratch, local);
        finiteHere = local.size();
      } else if (t >= nHalf) {
        const auto& pr = stages_->terrainPairs_[static_cast<std::size_t>(t - nHalf)];
        const Placed& a = stages_->finite_[pr[0]];
        const Placed& p = stages_->terrains_[pr[1]];
        closed = collide(a, p, nullptr, swept ? pairMargin(a.body, p.body) : margin, options_.ccd,
                         scratch, local);
      } else {
        const BoxHalfSpacePair& pr = stages_->hsPairs_[static_cast<std::size_t>(t - nPairs)];
        const Placed& a = stages_->finite_[pr.box];
        const Placed& p = stages_->planes_[pr.halfSpace];
        const BroadphaseHalfSpace& hs = stages_->halfSpaces_[pr.halfSpace];
        Plane plane;
        plane.normal = hs.normal;
        plane.offset = hs.offset;
        closed = collide(a, p, &plane, swept ? pairMargin(a.body, p.body) : margin, options_.ccd,
                         scratch, local);
      }
      if (closed)
        ++closedCount;
      else
        ++ccdCount;
    }
    stages_->threadFinite_[tid] = finiteHere;
    if (tid > 0) stages_->threadContacts_[tid].swap(own);
  }
  stats_.closedFormPairs = closedCount;
  stats_.ccdPairs = ccdCount;

  // Thread order is task order: the threads before the one holding the last pair have
  // pair contacts only, the ones after it half-space contacts only.
  std::size_t finiteCount = 0;
  for (std::size_t f : stages_->threadFinite_) finiteCount += f;
  sortContacts(finiteCount);
  stats_.contacts = contacts_.size();
  return contacts_;
}

void ContactDetector::sortContacts(std::size_t finiteCount) {
  // The narrowphase output in task order in contacts_ (the thread buffers concatenated).
  if (stages_->threadContacts_.size() > 1) {
    std::size_t total = contacts_.size();
    for (std::size_t t = 1; t < stages_->threadContacts_.size(); ++t)
      total += stages_->threadContacts_[t].size();
    contacts_.reserve(total);
    for (std::size_t t = 1; t < stages_->threadContacts_.size(); ++t)
      contacts_.insert(contacts_.end(), stages_->threadContacts_[t].begin(),
                       stages_->threadContacts_[t].end());
  }
  // The order of a stable sort by key, i.e. sorted by (key, position).
  const std::size_t n = contacts_.size();
  const std::size_t nf = std::min(finiteCount, n);
  const auto less = [](const Stages::KeyIndex& a, const Stages::KeyIndex& b) {
    return a.key < b.key || (a.key == b.key && a.index < b.index);
  };
  const auto keyLess = [](const DetectedContact& a, const DetectedContact& b) {
    return a.key < b.key;
  };
  const auto finiteEnd = contacts_.begin() + static_cast<std::ptrdiff_t>(nf);
  if (std::is_sorted(contacts_.begin(), finiteEnd, keyLess)) {
    // The contacts of the pairs come sorted when every body has one shape (pairs sorted by
    // shape index, shapes in body order). The half-space ones after them are sorted apart
    // and merged in from the back: memory for those only.
    if (std::is_sorted(finiteEnd, contacts_.end(), keyLess)) {
      if (nf == 0 || nf == n || !(contacts_[nf].key < contacts_[nf - 1].key))
        return;  // already in order
    }
    const std::size_t nt = n - nf;
    stages_->order_.resize(nt);
    for (std::size_t k = 0; k < nt; ++k)
      stages_->order_[k] = Stages::KeyIndex{contacts_[nf + k].key, k};
    if (!std::is_sorted(stages_->order_.begin(), stages_->order_.end(), less))
      std::sort(stages_->order_.begin(), stages_->order_.end(), less);
    stages_->tail_.resize(nt);
    for (std::size_t k = 0; k < nt; ++k)
      stages_->tail_[k] = contacts_[nf + static_cast<std::size_t>(stages_->order_[k].index)];
    std::size_t i = nf, j = nt, k = n;  // on equal keys the pair contact stays first
    while (j > 0) {
      if (i > 0 && stages_->tail_[j - 1].key < contacts_[i - 1].key)
        contacts_[--k] = contacts_[--i];
      else
        contacts_[--k] = stages_->tail_[--j];
    }
    return;
  }
  // General case (bodies of several shapes): every (key, position) sorted, then the
  // permutation applied in place, cycle by cycle (a done position: index == position).
  stages_->order_.resize(n);
  for (std::size_t k = 0; k < n; ++k) stages_->order_[k] = Stages::KeyIndex{contacts_[k].key, k};
  std::sort(stages_->order_.begin(), stages_->order_.end(), less);
  for (std::size_t k = 0; k < n; ++k) {
    if (stages_->order_[k].index == k) continue;
    const DetectedContact first = contacts_[k];
    std::size_t j = k;
    for (;;) {
      const std::size_t from = static_cast<std::size_t>(stages_->order_[j].index);
      stages_->order_[j].index = j;
      if (from == k) {
        contacts_[j] = first;
        break;
      }
      contacts_[j] = contacts_[from];
      j = from;
    }
  }
}

std::vector<DetectedContact> ContactDetector::detectBruteForce() const {
  ContactDetector copy(bodies_, options_);
  copy.store_ = store_;
  copy.sweep_ = sweep_;
  copy.place();
  std::vector<DetectedContact> out;
  ContactList scratch;
  const auto& f = copy.stages_->finite_;
  for (std::size_t i = 0; i < f.size(); ++i) {
    for (std::size_t j = i + 1; j < f.size(); ++j) {
      if (f[i].body == f[j].body || (f[i].isStatic && f[j].isStatic)) continue;
      if (store_ && store_->family[static_cast<std::size_t>(f[i].body)] > 0 &&
          store_->family[static_cast<std::size_t>(f[i].body)] ==
              store_->family[static_cast<std::size_t>(f[j].body)])
        continue;
      collide(f[i], f[j], nullptr, pairMargin(f[i].body, f[j].body), options_.ccd, scratch, out);
    }
    if (f[i].isStatic) continue;
    for (const Placed& p : copy.stages_->planes_)
      collide(f[i], p, nullptr, pairMargin(f[i].body, p.body), options_.ccd, scratch, out);
    for (const Placed& p : copy.stages_->terrains_)
      collide(f[i], p, nullptr, pairMargin(f[i].body, p.body), options_.ccd, scratch, out);
  }
  sortByKey(out);
  return out;
}

}  // namespace nsdyn
