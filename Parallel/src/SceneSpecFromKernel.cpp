#include "nsdyn/parallel/SceneSpecFromKernel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "nsdyn/Error.hpp"
#include "nsdyn/SphereShape.hpp"

namespace nsdyn {
namespace parallel {

DistributedSceneSpec sceneSpecFrom(const ContactManager& contacts, const std::array<double, 3>& gravity,
                                   double t0, double h, double theta, int rank, int size,
                                   const std::string& context) {
  const std::string where = context.empty() ? std::string("distributed scene") : context;
  DistributedSceneSpec spec;
  spec.gravity = gravity;
  spec.t0 = t0;
  spec.h = h;
  spec.theta = theta;
  const ContactManagerOptions& o = contacts.options();
  spec.margin = o.detection.margin;
  spec.breakingDistance = std::max(o.detection.margin, o.detection.breakingDistance);
  spec.warmStart = o.warmStart;
  spec.stabilisationFactor = o.stabilisationFactor;
  spec.maxRecoverySpeed = o.maxRecoverySpeed;
  spec.threads = o.detection.threads;
  if (o.sweptDetection)
    throw Error(where + ": swept detection (ContactManager swept=\"true\") is not done by the distributed "
                        "stepper yet; run on one process, or without it");
  const std::vector<BodyShapes>& bodies = contacts.bodies();
  double smallest = std::numeric_limits<double>::infinity();
  for (const BodyShapes& b : bodies)
    for (const ShapeInstance& s : b.shapes())
      if (s.shape->isFinite()) smallest = std::min(smallest, s.shape->characteristicSize());
  spec.activation = std::isfinite(smallest) ? o.relativeActivation * smallest : 0.0;
  const ContactManager* cm = &contacts;
  spec.material = [cm](int a, int b) { return cm->material(a, b); };

  const std::size_t n = bodies.size();
  const std::size_t begin = n * static_cast<std::size_t>(rank) / static_cast<std::size_t>(size);
  const std::size_t end = n * static_cast<std::size_t>(rank + 1) / static_cast<std::size_t>(size);
  spec.bodies.width = SceneState::kWidth;
  for (std::size_t k = 0; k < n; ++k) {
    const BodyShapes& b = bodies[k];
    const std::int64_t id = static_cast<std::int64_t>(k);
    if (b.isStatic()) {
      spec.staticIds.push_back(id);
      spec.statics.push_back(b);
      spec.staticGroups.push_back(contacts.group(k));
      continue;
    }
    const NewtonEulerDS& ds = *b.body();
    std::ostringstream why;
    const auto* sphere =
        b.shapes().size() == 1 ? dynamic_cast<const SphereShape*>(b.shapes()[0].shape.get()) : nullptr;
    const SimpleMatrix& I = ds.inertia();
    if (!sphere) {
      why << "is not one sphere (distributed runs step sphere particles; other shapes can be static)";
    } else if (b.shapes()[0].position[0] != 0.0 || b.shapes()[0].position[1] != 0.0 ||
               b.shapes()[0].position[2] != 0.0) {
      why << "has its sphere off its centre of mass";
    } else if (!(I(0, 0) == I(1, 1) && I(1, 1) == I(2, 2) && I(0, 1) == 0.0 && I(0, 2) == 0.0 &&
                 I(1, 2) == 0.0 && I(1, 0) == 0.0 && I(2, 0) == 0.0 && I(2, 1) == 0.0)) {
      why << "has an inertia that is not isotropic";
    } else if (ds.hasMExt()) {
      why << "has an external moment";
    } else if (ds.hasBoundaryConditions()) {
      why << "has boundary conditions";
    }
    if (why.str().empty() && ds.hasFExt()) {
      const SiconosVector f = ds.computeFExt(t0);
      bool weight = true;
      for (std::size_t i = 0; i < 3; ++i) {
        const double w = ds.scalarMass() * gravity[i];
        weight = weight && std::fabs(f(i) - w) <= 1e-12 * std::max(1.0, std::fabs(w));
      }
      if (!weight) why << "has an external force other than its weight m g";
    }
    if (!why.str().empty())
      throw Error(where + ": body '" + ds.name() + "' (#" + std::to_string(k) + ") " + why.str());
    if (k < begin || k >= end) continue;
    double st[SceneState::kWidth] = {};
    const SiconosVector& q = ds.q();
    const SiconosVector& v = ds.velocity();
    for (int i = 0; i < 7; ++i) st[SceneState::kQ + i] = q(static_cast<std::size_t>(i));
    for (int i = 0; i < 6; ++i) st[SceneState::kV + i] = v(static_cast<std::size_t>(i));
    st[SceneState::kMass] = ds.scalarMass();
    st[SceneState::kInertia] = I(0, 0);
    st[SceneState::kGroup] = contacts.group(k);
    spec.bodies.push_back(id, q(0), q(1), q(2), sphere->radius(), st);
  }
  return spec;
}

}  // namespace parallel
}  // namespace nsdyn
