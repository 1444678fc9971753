#include "nsdyn/parallel/DistributedDetector.hpp"

#include <algorithm>
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

  // Local set: owned ∪ ghosts, merged by global id (both are sorted).
  const std::size_t n = owned.size() + ghosts.size();
  localIds_.clear();
  localIds_.reserve(n);
  std::vector<char> isOwned;
  isOwned.reserve(n);
  std::vector<BodyShapes> bodies;
  bodies.reserve(n);
  std::map<double, SP::Shape> spheres;  // one shared SphereShape per radius
  std::string fault;
  auto add = [&](const BodyArrays& b, std::size_t k, bool own) {
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
  };
  try {
    std::size_t i = 0, g = 0;
    while (i < owned.size() || g < ghosts.size()) {
      if (g >= ghosts.size() || (i < owned.size() && owned.id[i] < ghosts.id[g])) {
        add(owned, i++, true);
      } else {
        add(ghosts, g++, false);
      }
    }
    detector_.setBodies(std::move(bodies));
    detector_.detect();
  } catch (const std::exception& e) {
    fault = std::string("DistributedDetector: rank ") + std::to_string(d.rank()) + ": " + e.what();
  }
  throwIfAnyFault(comm, fault);

  contacts_.clear();
  for (const DetectedContact& c : detector_.contacts()) {
    if (!isOwned[static_cast<std::size_t>(c.bodyA)])
      continue;  // the owner of the lower id keeps it
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
