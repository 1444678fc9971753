// ContactManager: detection each step, persistent contacts by key (warm start with the
// tangential impulse rotated into the new frame), contact arrays, impulses into the bodies.
#include "nsdyn/ContactManager.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <set>
#include <sstream>

#include "../Threads.hpp"
#include "nsdyn/ContactFrame.hpp"
#include "nsdyn/ContactRules.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/FrictionContact.hpp"
#include "nsdyn/GenericMechanical.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/NonSmoothDynamicalSystem.hpp"
#include "nsdyn/RollingFrictionContact.hpp"
#include "nsdyn/Simulation.hpp"
#include "nsdyn/TimeStepping.hpp"

namespace nsdyn {

static_assert(contact::kActivationGamma == TimeStepping::kActivationGamma, "one activation rule");

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string bodyName(const BodyShapes& b, std::size_t index) {
  return b.isStatic() ? "static body #" + std::to_string(index)
                      : b.body()->name() + " (body #" + std::to_string(index) + ")";
}

}  // namespace

ContactManager::ContactManager(const Options& options) : options_(options) {
  if (!(options_.relativeActivation >= 0.0) || !std::isfinite(options_.relativeActivation))
    throw Error("ContactManager", "a relative activation threshold >= 0",
                std::to_string(options_.relativeActivation));
  if (!(options_.relativeMargin >= 0.0) || !std::isfinite(options_.relativeMargin))
    throw Error("ContactManager", "a relative margin >= 0",
                std::to_string(options_.relativeMargin));
  if (!(options_.overlapWarningFraction >= 0.0) || !std::isfinite(options_.overlapWarningFraction))
    throw Error("ContactManager", "an overlap warning fraction >= 0",
                std::to_string(options_.overlapWarningFraction));
  if (!(options_.stabilisationFactor >= 0.0 && options_.stabilisationFactor <= 1.0))
    throw Error("ContactManager", "a stabilisation factor in [0, 1]",
                std::to_string(options_.stabilisationFactor));
  if (!(options_.maxRecoverySpeed > 0.0) || !std::isfinite(options_.maxRecoverySpeed))
    throw Error("ContactManager", "a maximum recovery speed > 0 (m/s)",
                std::to_string(options_.maxRecoverySpeed));
  // the detector checks margin and breaking distance
  ContactDetector check({}, options_.detection);
  (void)check;
}

std::size_t ContactManager::addBody(BodyShapes body, int group) {
  if (initialized_)
    throw Error("ContactManager::addBody", "bodies added before Model::initialize()",
                "a body added after it");
  if (group < 0) throw Error("ContactManager::addBody", "a group >= 0", std::to_string(group));
  // the detector's limits, checked here so that the error comes with the body, not at
  // Model::initialize()
  if (body.shapes().size() > kMaxBodyShapes)
    throw Error("ContactManager::addBody", "at most 64 shapes on a body",
                std::to_string(body.shapes().size()) + " shapes");
  if (bodies_.size() >= kMaxSceneBodies)
    throw Error("ContactManager::addBody", "at most 2^21 = 2097152 bodies in a scene",
                "body " + std::to_string(bodies_.size() + 1));
  bodies_.push_back(std::move(body));
  groups_.push_back(group);
  return bodies_.size() - 1;
}

std::size_t ContactManager::addBody(NonSmoothDynamicalSystem& nsds, BodyShapes body, int group) {
  if (!body.isStatic()) nsds.insertDynamicalSystem(body.body());
  return addBody(std::move(body), group);
}

void ContactManager::checkMaterial(const ContactMaterial& m, const std::string& what) {
  if (!(m.mu >= 0.0) || !std::isfinite(m.mu))
    throw Error(what, "a friction coefficient mu >= 0", std::to_string(m.mu));
  if (!(m.restitution >= 0.0 && m.restitution <= 1.0))
    throw Error(what, "a restitution coefficient in [0, 1]", std::to_string(m.restitution));
  if (!(m.rolling >= 0.0) || !std::isfinite(m.rolling)) {
    std::ostringstream v;
    v << "rolling = " << m.rolling;
    throw Error(what, "a rolling resistance length >= 0 (m)", v.str());
  }
}

void ContactManager::setDefaultMaterial(const ContactMaterial& material) {
  checkMaterial(material, "ContactManager default material");
  default_ = material;
}

void ContactManager::setMaterial(int groupA, int groupB, const ContactMaterial& material) {
  checkMaterial(material, "ContactManager material of groups " + std::to_string(groupA) + " and " +
                              std::to_string(groupB));
  if (groupA < 0 || groupB < 0)
    throw Error("ContactManager::setMaterial", "groups >= 0",
                std::to_string(groupA) + " and " + std::to_string(groupB));
  materials_[{std::min(groupA, groupB), std::max(groupA, groupB)}] = material;
}

ContactMaterial ContactManager::material(int groupA, int groupB) const {
  auto it = materials_.find({std::min(groupA, groupB), std::max(groupA, groupB)});
  return it == materials_.end() ? default_ : it->second;
}

void ContactManager::setThreads(int threads) {
  if (threads < 0 || threads > kMaxDetectionThreads)
    throw Error("ContactManager::setThreads", "threads in [0, 4096] (0: the OpenMP default)",
                "threads = " + std::to_string(threads));
  options_.detection.threads = threads;
  if (initialized_) {
    ContactDetector::Options o = detector_.options();
    o.threads = threads;
    detector_.setOptions(o);
  }
}

void ContactManager::initialize(Simulation& simulation) {
  auto* fc = dynamic_cast<FrictionContact*>(simulation.oneStepNSProblem().get());
  const bool generic =
      dynamic_cast<GenericMechanical*>(simulation.oneStepNSProblem().get()) != nullptr;
  const bool rolling =
      dynamic_cast<RollingFrictionContact*>(simulation.oneStepNSProblem().get()) != nullptr;
  if (!generic && !rolling && (!fc || fc->dim() != 3))
    throw Error("ContactManager",
                "a FrictionContact(3), RollingFrictionContact or GenericMechanical nonsmooth "
                "problem in the simulation",
                simulation.oneStepNSProblem() ? simulation.oneStepNSProblem()->className()
                                              : std::string("none"));
  if (!rolling) {
    // a rolling resistance only RollingFrictionContact solves: not dropped in silence
    auto refuse = [&](const ContactMaterial& m, const std::string& which) {
      if (m.rolling > 0.0) {
        std::ostringstream v;
        v << which << " with rolling = " << m.rolling << " and a "
          << simulation.oneStepNSProblem()->className() << " problem";
        throw Error("ContactManager", "a RollingFrictionContact problem for rolling > 0", v.str());
      }
    };
    refuse(default_, "the default material");
    for (const auto& m : materials_)
      refuse(m.second, "the material of groups " + std::to_string(m.first.first) + " and " +
                           std::to_string(m.first.second));
  }
  if (!dynamic_cast<TimeStepping*>(&simulation))
    throw Error("ContactManager", "a TimeStepping simulation", "another simulation");
  NonSmoothDynamicalSystem& nsds = simulation.nonSmoothDynamicalSystem();
  const auto interactions = nsds.interactions();
  if (!interactions.empty() && !generic)
    throw Error("ContactManager",
                "a model without Interactions (joints and detected contacts in one problem: "
                "GenericMechanical)",
                std::to_string(interactions.size()) + " Interactions, the first '" +
                    interactions.front()->name() + "'");
  std::set<const DynamicalSystem*> inModel;
  for (const auto& ds : nsds.dynamicalSystems()) inModel.insert(ds.get());
  dynamicIndex_.assign(bodies_.size(), -1);
  contacts_.systems.clear();
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (bodies_[b].isStatic()) continue;
    const NewtonEulerDS* ds = bodies_[b].body().get();
    if (!inModel.count(ds))
      throw Error("ContactManager", "every body in the model (addBody(nsds, body) inserts it)",
                  bodyName(bodies_[b], b) + " is not");
    if (ds->hasBoundaryConditions())
      throw Error("ContactManager", "bodies without boundary conditions", bodyName(bodies_[b], b));
    if (!simulation.integratorOf(*ds))
      throw Error("ContactManager", "an integrator for every body", bodyName(bodies_[b], b));
    dynamicIndex_[b] = static_cast<std::int32_t>(contacts_.systems.size());
    contacts_.systems.push_back(bodies_[b].body().get());
  }
  double smallest = INFINITY;
  for (const BodyShapes& b : bodies_)
    for (const ShapeInstance& s : b.shapes())
      if (s.shape->isFinite()) smallest = std::min(smallest, s.shape->characteristicSize());
  activation_ = std::isfinite(smallest) ? options_.relativeActivation * smallest : 0.0;
  if (options_.detection.margin == 0.0 && options_.relativeMargin > 0.0) {
    if (std::isfinite(smallest)) {
      derivedMargin_ = true;
      declaredBreaking_ = options_.detection.breakingDistance;
      options_.detection.margin = options_.relativeMargin * smallest;
      options_.detection.breakingDistance =
          std::max(options_.detection.breakingDistance, options_.detection.margin);
    }
  }
  ContactDetector::Options detection = options_.detection;
  detection.margin = std::max(options_.detection.margin, options_.detection.breakingDistance);
  detector_ = ContactDetector(bodies_, detection);
  h_ = simulation.timeStep();
  // bounding radius of each dynamic body about its centre of mass: the farthest corner of
  // its shapes' AABBs in the body frame
  boundingRadius_.assign(bodies_.size(), 0.0);
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (bodies_[b].isStatic()) continue;
    double r2 = 0.0;
    for (const ShapeInstance& s : bodies_[b].shapes()) {
      if (!s.shape->isFinite()) continue;
      const Shape::Aabb box =
          s.shape->boundingBox(s.worldPosition({0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}),
                               s.worldOrientation({1.0, 0.0, 0.0, 0.0}));
      double c2 = 0.0;
      for (int k = 0; k < 3; ++k) {
        const double e = std::max(std::fabs(box.min[k]), std::fabs(box.max[k]));
        c2 += e * e;
      }
      r2 = std::max(r2, c2);
    }
    boundingRadius_[b] = std::sqrt(r2);
  }
  sweep_.assign(options_.sweptDetection ? bodies_.size() : 0, 0.0);

  // overlaps at t0 deeper than the set fraction of the smaller shape
  warnings_.clear();
  for (const DetectedContact& c : detector_.detect()) {
    if (c.gap >= 0.0) continue;
    const double sa = bodies_[c.bodyA].shapes()[c.shapeA].shape->characteristicSize();
    const double sb = bodies_[c.bodyB].shapes()[c.shapeB].shape->characteristicSize();
    const double size = std::min(sa, sb);
    if (-c.gap > options_.overlapWarningFraction * size) {
      std::ostringstream msg;
      msg << "bodies " << bodyName(bodies_[c.bodyA], c.bodyA) << " and "
          << bodyName(bodies_[c.bodyB], c.bodyB) << " overlap by " << -c.gap << " at t0 (more than "
          << options_.overlapWarningFraction << " of the size " << size << ")";
      warnings_.push_back(msg.str());
    }
  }
  // printed at the first step, not here: a model stepped by the SceneEngine (an XML <scene>)
  // is initialised through this manager too, and the engine prints its own, once
  warningsPrinted_ = false;
  prevKey_.clear();
  prevFrame_.clear();
  prevImpulse_.clear();
  prevRolling_.clear();
  stats_ = Statistics();
  initialized_ = true;
}

void ContactManager::updateInteractions(Simulation& /*simulation*/, double /*t*/) {
  if (!initialized_) throw Error("ContactManager", "initialize() before a step", "not initialised");
  if (!warningsPrinted_) {
    for (std::size_t k = 0; k < warnings_.size() && k < 10; ++k)
      std::cerr << "nsdyn: warning: " << warnings_[k] << "\n";
    if (warnings_.size() > 10)
      std::cerr << "nsdyn: warning: " << warnings_.size() << " overlapping pairs at t0 in all\n";
    warningsPrinted_ = true;
  }
  auto t0 = Clock::now();
  if (options_.sweptDetection) updateSweep(h_);
  detector_.detect();
  stats_.detectionSeconds = secondsSince(t0);
  stats_.totalDetectionSeconds += stats_.detectionSeconds;
  t0 = Clock::now();
  fillContacts(h_);
  stats_.assemblySeconds = secondsSince(t0);
}

void ContactManager::updateSweep(double h) {
  // sweep_b = h (|v| + |Omega| R_b) from the velocity at t_k (0 for static bodies)
  double largest = 0.0;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    if (dynamicIndex_[b] < 0) {
      sweep_[b] = 0.0;
      continue;
    }
    const SiconosVector& v =
        contacts_.systems[static_cast<std::size_t>(dynamicIndex_[b])]->velocity();
    const double lin = std::sqrt(v(0) * v(0) + v(1) * v(1) + v(2) * v(2));
    const double ang = std::sqrt(v(3) * v(3) + v(4) * v(4) + v(5) * v(5));
    double s = h * (lin + ang * boundingRadius_[b]);
    if (!std::isfinite(s)) s = 0.0;  // a diverged body: its detection is not widened
    sweep_[b] = s;
    largest = std::max(largest, s);
  }
  detector_.setSweep(sweep_);
  stats_.maxSweep = largest;
}

void ContactManager::fillContacts(double h) {
  const std::vector<DetectedContact>& found = detector_.contacts();
  const double margin = options_.detection.margin;
  const double breaking = std::max(margin, options_.detection.breakingDistance);
  const bool swept = options_.sweptDetection;
  // 1. which contacts are kept (gap <= margin, or known and gap <= breaking distance)
  //    and their previous index (ContactRules.hpp)
  std::vector<std::int32_t> keep, prev;
  contact::selectKept(
      found, prevKey_.data(), prevKey_.size(), breaking,
      [&](const DetectedContact& d) {
        // swept: a new contact is kept while gap <= margin + the two bodies' sweeps
        return swept ? margin + sweep_[static_cast<std::size_t>(d.bodyA)] +
                           sweep_[static_cast<std::size_t>(d.bodyB)]
                     : margin;
      },
      keep, prev);
  const std::size_t n = keep.size();
  ContactSet& cs = contacts_;
  cs.resize(n);

  // 2. per contact, in parallel: geometry, frame, Jacobians, u_k, material, warm start
  const int threads = mechanics::threadsFor(options_.detection.threads, n);
  (void)threads;
  const bool warm = options_.warmStart;
  const bool keepLoaded = options_.keepLoadedContacts.value_or(false);
  const double activation = activation_;
  const double beta = options_.stabilisationFactor;
  const double maxRecovery = options_.maxRecoverySpeed;
  std::size_t active = 0, warmCount = 0, stabilised = 0;
  NSD_OMP(omp parallel for schedule(static) num_threads(threads) reduction(+ : active, warmCount, stabilised))
  for (std::size_t c = 0; c < n; ++c) {
    const DetectedContact& d = found[static_cast<std::size_t>(keep[c])];
    cs.key[c] = d.key;
    cs.bodyA[c] = d.bodyA;
    cs.bodyB[c] = d.bodyB;
    cs.dynA[c] = dynamicIndex_[d.bodyA];
    cs.dynB[c] = dynamicIndex_[d.bodyB];
    double* f = &cs.frame[9 * c];
    contact::frame(d.normal, f);
    for (int k = 0; k < 3; ++k) {
      cs.pointA[3 * c + k] = d.pointA[k];
      cs.pointB[3 * c + k] = d.pointB[k];
    }
    cs.gap[c] = d.gap;
    const ContactMaterial mat = material(groups_[d.bodyA], groups_[d.bodyB]);
    cs.mu[c] = mat.mu;
    cs.restitution[c] = mat.restitution;
    cs.rolling[c] = mat.rolling;
    double u[3] = {0.0, 0.0, 0.0}, uR[2] = {0.0, 0.0};
    for (int side = 0; side < 2; ++side) {
      const std::int32_t dyn = side == 0 ? cs.dynA[c] : cs.dynB[c];
      double* J = side == 0 ? &cs.jacA[18 * c] : &cs.jacB[18 * c];
      double* JR = side == 0 ? &cs.rollA[6 * c] : &cs.rollB[6 * c];
      if (dyn < 0) {
        std::fill(J, J + 18, 0.0);
        std::fill(JR, JR + 6, 0.0);
        continue;
      }
      const NewtonEulerDS& ds = *cs.systems[static_cast<std::size_t>(dyn)];
      const SiconosVector& q = ds.q();
      const quaternion::Vec3& p = side == 0 ? d.pointA : d.pointB;
      const quaternion::Vec3 r{p[0] - q(0), p[1] - q(1), p[2] - q(2)};
      const quaternion::Quat orientation = quaternion::fromVector(q);
      contact::jacobian(f, r, orientation, side == 0 ? 1.0 : -1.0, J);
      // rolling rows: sign t_i . (R Omega) = sign (R^T t_i) . Omega
      for (int i = 0; i < 2; ++i) {
        const quaternion::Vec3 t{f[3 * (i + 1)], f[3 * (i + 1) + 1], f[3 * (i + 1) + 2]};
        const quaternion::Vec3 body = quaternion::rotateTranspose(orientation, t);
        for (int k = 0; k < 3; ++k) JR[3 * i + k] = (side == 0 ? 1.0 : -1.0) * body[k];
      }
      const double* v = ds.velocity().data();
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 6; ++k) u[i] += J[6 * i + k] * v[k];
      for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 3; ++k) uR[i] += JR[3 * i + k] * v[3 + k];
    }
    for (int k = 0; k < 2; ++k) {
      cs.rollingVelocityStart[2 * c + k] = uR[k];
      cs.rollingVelocity[2 * c + k] = uR[k];
    }
    for (int k = 0; k < 3; ++k) {
      cs.velocityStart[3 * c + k] = u[k];
      cs.velocity[3 * c + k] = u[k];
    }
    bool isActive = contact::isActive(d.gap, u[0], h, activation);
    // position correction of an overlap: u_n,k+1 >= min(beta |gap| / h, maxRecoverySpeed)
    double bias = contact::recoveryBias(d.gap, isActive, h, beta, maxRecovery);
    if (bias != 0.0) stabilised += 1;
    // a contact loaded at the last step that the rule leaves out: kept as a speculative row
    // (keepLoadedContacts)
    const std::int32_t pj = prev[c];
    if (!isActive && keepLoaded && pj >= 0 &&
        prevImpulse_[3 * static_cast<std::size_t>(pj)] > 0.0) {
      bias = contact::aheadBias(d.gap, u[0], mat.restitution, h);
      isActive = bias > 0.0;
    }
    cs.active[c] = isActive ? 1 : 0;
    active += isActive ? 1 : 0;
    cs.bias[c] = bias;
    // warm start: previous normal impulse; tangential impulse (world) turned into the new
    // tangent plane with its magnitude kept
    double* lambda = &cs.impulse[3 * c];
    lambda[0] = lambda[1] = lambda[2] = 0.0;
    cs.rollingImpulse[2 * c] = cs.rollingImpulse[2 * c + 1] = 0.0;
    cs.warm[c] = 0;
    if (warm && pj >= 0) {
      double T[3];
      contact::tangentialWorld(&prevFrame_[9 * static_cast<std::size_t>(pj)],
                               &prevImpulse_[3 * static_cast<std::size_t>(pj)], T);
      contact::warmImpulse(prevImpulse_[3 * static_cast<std::size_t>(pj)], T, f, lambda);
      if (mat.rolling > 0.0 && !prevRolling_.empty()) {
        // the rolling moment (world) turned into the new tangent plane the same way
        const double prevLocal[3] = {0.0, prevRolling_[2 * static_cast<std::size_t>(pj)],
                                     prevRolling_[2 * static_cast<std::size_t>(pj) + 1]};
        double TR[3], local[3];
        contact::tangentialWorld(&prevFrame_[9 * static_cast<std::size_t>(pj)], prevLocal, TR);
        contact::warmImpulse(0.0, TR, f, local);
        cs.rollingImpulse[2 * c] = local[1];
        cs.rollingImpulse[2 * c + 1] = local[2];
      }
      cs.warm[c] = 1;
      warmCount += 1;
    }
  }
  cs.setActiveCount(active);
  stats_.contacts = n;
  stats_.active = active;
  stats_.warmStarted = warmCount;
  stats_.stabilised = stabilised;

  // 3. body -> active contacts (CSR, contacts in key order), for computeInput
  const std::size_t nb = cs.systems.size();
  bodyStart_.assign(nb + 1, 0);
  for (std::size_t c = 0; c < n; ++c) {
    if (!cs.active[c]) continue;
    if (cs.dynA[c] >= 0) ++bodyStart_[static_cast<std::size_t>(cs.dynA[c]) + 1];
    if (cs.dynB[c] >= 0) ++bodyStart_[static_cast<std::size_t>(cs.dynB[c]) + 1];
  }
  for (std::size_t b = 0; b < nb; ++b) bodyStart_[b + 1] += bodyStart_[b];
  bodyContacts_.resize(static_cast<std::size_t>(bodyStart_[nb]));
  std::vector<std::int32_t> fill(bodyStart_.begin(), bodyStart_.end() - 1);
  for (std::size_t c = 0; c < n; ++c) {
    if (!cs.active[c]) continue;
    if (cs.dynA[c] >= 0)
      bodyContacts_[static_cast<std::size_t>(fill[static_cast<std::size_t>(cs.dynA[c])]++)] =
          static_cast<std::int32_t>(c);
    if (cs.dynB[c] >= 0)
      bodyContacts_[static_cast<std::size_t>(fill[static_cast<std::size_t>(cs.dynB[c])]++)] =
          static_cast<std::int32_t>(c);
  }
}

void ContactManager::computeInput(double /*t*/) {
  const ContactSet& cs = contacts_;
  const std::size_t nb = cs.systems.size();
  const int threads = mechanics::threadsFor(options_.detection.threads, nb);
  (void)threads;
  // p_b += J_b^T lambda over the body's active contacts, in key order
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (std::size_t b = 0; b < nb; ++b) {
    const std::int32_t begin = bodyStart_[b], end = bodyStart_[b + 1];
    if (begin == end) continue;
    SiconosVector p(6);
    for (std::int32_t k = begin; k < end; ++k) {
      const std::size_t c = static_cast<std::size_t>(bodyContacts_[static_cast<std::size_t>(k)]);
      const double* J =
          cs.dynA[c] == static_cast<std::int32_t>(b) ? &cs.jacA[18 * c] : &cs.jacB[18 * c];
      const double* l = &cs.impulse[3 * c];
      for (int j = 0; j < 6; ++j) p(j) += J[j] * l[0] + J[6 + j] * l[1] + J[12 + j] * l[2];
      if (cs.rolling[c] > 0.0) {  // the rolling moments: pure torques J_R^T r_R
        const double* JR =
            cs.dynA[c] == static_cast<std::int32_t>(b) ? &cs.rollA[6 * c] : &cs.rollB[6 * c];
        const double* m = &cs.rollingImpulse[2 * c];
        for (int j = 0; j < 3; ++j) p(3 + j) += JR[j] * m[0] + JR[3 + j] * m[1];
      }
      if (cs.dynA[c] == cs.dynB[c]) {  // never: a body's shapes are not paired
        const double* JB = &cs.jacB[18 * c];
        for (int j = 0; j < 6; ++j) p(j) += JB[j] * l[0] + JB[6 + j] * l[1] + JB[12 + j] * l[2];
      }
    }
    cs.systems[b]->addNonSmoothInput(p);
  }
}

void ContactManager::afterStep(Simulation& /*simulation*/) {
  ContactSet& cs = contacts_;
  const std::size_t n = cs.size();
  // u_{k+1} = J v_{k+1} (Jacobians of the step start) and the work of the impulses
  std::vector<double> workOf(n);
  const int threads = mechanics::threadsFor(options_.detection.threads, n);
  (void)threads;
  NSD_OMP(omp parallel for schedule(static) num_threads(threads))
  for (std::size_t c = 0; c < n; ++c) {
    double u[3] = {0.0, 0.0, 0.0}, uR[2] = {0.0, 0.0};
    for (int side = 0; side < 2; ++side) {
      const std::int32_t dyn = side == 0 ? cs.dynA[c] : cs.dynB[c];
      if (dyn < 0) continue;
      const double* J = side == 0 ? &cs.jacA[18 * c] : &cs.jacB[18 * c];
      const double* JR = side == 0 ? &cs.rollA[6 * c] : &cs.rollB[6 * c];
      const double* v = cs.systems[static_cast<std::size_t>(dyn)]->velocity().data();
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 6; ++k) u[i] += J[6 * i + k] * v[k];
      for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 3; ++k) uR[i] += JR[3 * i + k] * v[3 + k];
    }
    double w = 0.0;
    for (int k = 0; k < 3; ++k) {
      w += cs.impulse[3 * c + k] * 0.5 * (u[k] + cs.velocityStart[3 * c + k]);
      cs.velocity[3 * c + k] = u[k];
    }
    if (cs.rolling[c] > 0.0)  // the work of the rolling moments
      for (int k = 0; k < 2; ++k)
        w += cs.rollingImpulse[2 * c + k] * 0.5 * (uR[k] + cs.rollingVelocityStart[2 * c + k]);
    for (int k = 0; k < 2; ++k) cs.rollingVelocity[2 * c + k] = uR[k];
    workOf[c] = w;
  }
  double work = 0.0;  // summed in key order: the same for any thread count
  for (double w : workOf) work += w;
  stats_.contactWork = work;
  // memory for the next step's warm start (contacts are sorted by key)
  prevKey_.assign(cs.key.begin(), cs.key.end());
  prevFrame_.assign(cs.frame.begin(), cs.frame.end());
  prevImpulse_.assign(cs.impulse.begin(), cs.impulse.end());
  prevRolling_.assign(cs.rollingImpulse.begin(), cs.rollingImpulse.end());
}

ContactManager::Options ContactManager::declaredOptions() const {
  Options o = options_;
  if (derivedMargin_) {
    o.detection.margin = 0.0;
    o.detection.breakingDistance = declaredBreaking_;
  }
  return o;
}

}  // namespace nsdyn
