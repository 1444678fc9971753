#include "nsdyn/parallel/DistributedDetector.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <utility>

#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/parallel/Collective.hpp"

namespace nsdyn {
namespace parallel {

DistributedDetector::DistributedDetector(const ContactDetectorOptions& options,
                                         ShapeFunction shapes)
    : options_(options), shapes_(std::move(shapes)) {
  detector_.setOptions(options_);
}

void DistributedDetector::setStaticBodies(std::vector<std::int64_t> ids,
                                          std::vector<BodyShapes> bodies) {
  if (ids.size() != bodies.size())
    throw Error("DistributedDetector::setStaticBodies", "one id per static body",
                std::to_string(ids.size()) + " ids for " + std::to_string(bodies.size()) +
                    " bodies");
  std::vector<std::size_t> order(ids.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    order[k] = k;
    if (ids[k] < 0)
      throw Error("DistributedDetector::setStaticBodies", "global ids >= 0",
                  std::to_string(ids[k]));
    if (!bodies[k].isStatic())
      throw Error("DistributedDetector::setStaticBodies", "static bodies",
                  "a dynamic body with id " + std::to_string(ids[k]));
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return ids[a] < ids[b]; });
  staticIds_.clear();
  statics_.clear();
  for (std::size_t k : order) {
    if (!staticIds_.empty() && staticIds_.back() == ids[k])
      throw Error("DistributedDetector::setStaticBodies", "distinct ids",
                  "id " + std::to_string(ids[k]) + " twice");
    staticIds_.push_back(ids[k]);
    statics_.push_back(bodies[k]);
  }
}

const std::vector<DistributedContact>& DistributedDetector::detect(const Decomposition& d) {
  const MPI_Comm comm = d.comm();
  throwIfAnyFault(comm, d.partitioned()
                            ? ""
                            : "DistributedDetector: detect() before Decomposition::partition()");
  const BodyArrays& owned = d.owned();
  const BodyArrays& ghosts = d.ghosts();
  double maxRadius = 0.0, globalMax = 0.0;
  for (double r : owned.radius) maxRadius = std::max(maxRadius, r);
  MPI_Allreduce(&maxRadius, &globalMax, 1, MPI_DOUBLE, MPI_MAX, comm);
  const double needed = globalMax + options_.margin;
  if (d.options().halo < needed) {
    std::ostringstream s;
    s << "DistributedDetector: halo " << d.options().halo
      << " smaller than the largest bounding radius " << globalMax << " + the contact margin "
      << options_.margin << " (contacts across subdomains would be missed)";
    throw Error(s.str());
  }

  // Local set: statics ∪ owned ∪ ghosts, merged by global id (all three are sorted).
  const std::size_t n = staticIds_.size() + owned.size() + ghosts.size();
  localIds_.clear();
  localIds_.reserve(n);
  localStatic_.clear();
  localStatic_.reserve(n);
  std::vector<char> isOwned;
  isOwned.reserve(n);
  std::vector<BodyShapes> bodies;
  bodies.reserve(n);
  std::map<double, SP::Shape> spheres;  // one shared SphereShape per radius
  std::string fault;
  // the bodies of the last detect() are reused (their pose updated) when their id comes
  // back: no NewtonEulerDS allocated per body and step (both id lists are sorted)
  std::size_t reuse = 0;
  std::vector<double> radiusOf;  // per local body (0: static)
  radiusOf.reserve(n);
  auto add = [&](const BodyArrays& b, std::size_t k, bool own) {
    while (reuse < cachedIds_.size() && cachedIds_[reuse] < b.id[k]) ++reuse;
    if (reuse < cachedIds_.size() && cachedIds_[reuse] == b.id[k] && cachedRadius_[reuse] == b.radius[k]) {
      BodyShapes body = cachedBodies_[reuse];
      SiconosVector& q = body.body()->qMutable();
      q(0) = b.x[k];
      q(1) = b.y[k];
      q(2) = b.z[k];
      bodies.push_back(std::move(body));
      localIds_.push_back(b.id[k]);
      isOwned.push_back(own ? 1 : 0);
      localStatic_.push_back(0);
      radiusOf.push_back(b.radius[k]);
      return;
    }
    std::vector<ShapeInstance> shapes;
    if (shapes_) {
      shapes = shapes_(b.id[k], b.radius[k]);
    } else {
      SP::Shape& s = spheres[b.radius[k]];
      if (!s) s = std::make_shared<SphereShape>(b.radius[k]);
      shapes.push_back(ShapeInstance{s});
    }
    bodies.push_back(makeBody(shapes, 1.0, {b.x[k], b.y[k], b.z[k]}));
    localIds_.push_back(b.id[k]);
    isOwned.push_back(own ? 1 : 0);
    localStatic_.push_back(0);
    radiusOf.push_back(b.radius[k]);
  };
  try {
    std::size_t i = 0, g = 0, st = 0;
    const std::int64_t none = std::numeric_limits<std::int64_t>::max();
    while (i < owned.size() || g < ghosts.size() || st < staticIds_.size()) {
      const std::int64_t io = i < owned.size() ? owned.id[i] : none;
      const std::int64_t ig = g < ghosts.size() ? ghosts.id[g] : none;
      const std::int64_t is = st < staticIds_.size() ? staticIds_[st] : none;
      if (is < io && is < ig) {
        bodies.push_back(statics_[st]);
        radiusOf.push_back(0.0);
        localIds_.push_back(is);
        isOwned.push_back(0);
        localStatic_.push_back(1);
        ++st;
      } else if (io < ig) {
        if (io == is) {
          fault = "DistributedDetector: body " + std::to_string(io) +
                  " is both a static body and a dynamic one";
          break;
        }
        add(owned, i++, true);
      } else {
        if (ig == is) {
          fault = "DistributedDetector: body " + std::to_string(ig) +
                  " is both a static body and a dynamic one";
          break;
        }
        add(ghosts, g++, false);
      }
    }
    if (!fault.empty()) throw Error(fault);
    cachedIds_.clear();
    cachedRadius_.clear();
    cachedBodies_.clear();
    for (std::size_t k = 0; k < bodies.size(); ++k)
      if (!localStatic_[k]) {
        cachedIds_.push_back(localIds_[k]);
        cachedRadius_.push_back(radiusOf[k]);
        cachedBodies_.push_back(bodies[k]);
      }
    detector_.setBodies(std::move(bodies));
    detector_.detect();
  } catch (const std::exception& e) {
    fault = fault.empty() ? std::string("DistributedDetector: rank ") + std::to_string(d.rank()) + ": " + e.what() : fault;
  }
  throwIfAnyFault(comm, fault);

  contacts_.clear();
  for (const DetectedContact& c : detector_.contacts()) {
    // the owner of the lower id keeps it; of the dynamic body when A is static
    const std::size_t keeper =
        localStatic_[static_cast<std::size_t>(c.bodyA)] ? static_cast<std::size_t>(c.bodyB)
                                                         : static_cast<std::size_t>(c.bodyA);
    if (!isOwned[keeper]) continue;
    DistributedContact dc;
    dc.idA = localIds_[static_cast<std::size_t>(c.bodyA)];
    dc.idB = localIds_[static_cast<std::size_t>(c.bodyB)];
    dc.contact = c;
    contacts_.push_back(dc);
  }
  unsigned long long count = contacts_.size(), total = 0;
  MPI_Allreduce(&count, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  globalCount_ = total;
  return contacts_;
}

}  // namespace parallel
}  // namespace nsdyn
