// Interaction: linked systems, y/lambda storage per level, outputs and inputs.
#include "nsdyn/Interaction.hpp"

#include <atomic>

#include "nsdyn/Error.hpp"
#include "nsdyn/FirstOrderLinearDS.hpp"
#include "nsdyn/FirstOrderLinearR.hpp"
#include "nsdyn/LagrangianDS.hpp"
#include "nsdyn/LagrangianR.hpp"
#include "nsdyn/LagrangianScleronomousR.hpp"

namespace nsdyn {

namespace {
std::atomic<int> nextInteractionNumber{0};

const char* kindName(DynamicalSystemKind k) {
  return k == DynamicalSystemKind::Lagrangian ? "Lagrangian" : "first-order";
}
}  // namespace

Interaction::Interaction(SP::NonSmoothLaw law, SP::Relation relation)
    : number_(nextInteractionNumber++), law_(std::move(law)), relation_(std::move(relation)) {
  if (!law_) throw Error("Interaction #" + std::to_string(number_), "a nonsmooth law", "null");
  if (!relation_) throw Error("Interaction #" + std::to_string(number_), "a relation", "null");
}

std::string Interaction::name() const {
  return "Interaction #" + std::to_string(number_) + " (" + relation_->className() + ", " +
         law_->className() + ")";
}

void Interaction::setDynamicalSystems(SP::DynamicalSystem ds1, SP::DynamicalSystem ds2) {
  if (!ds1) throw Error(name(), "a first dynamical system", "null");
  systems_.clear();
  systems_.push_back(std::move(ds1));
  if (ds2) {
    if (ds2 == systems_[0]) throw Error(name(), "two different systems", "the same system twice");
    systems_.push_back(std::move(ds2));
  }
  initialized_ = false;
}

std::size_t Interaction::dof() const {
  std::size_t n = 0;
  for (const auto& ds : systems_) n += ds->dimension();
  return n;
}

std::size_t Interaction::offsetOf(const DynamicalSystem& ds) const {
  std::size_t offset = 0;
  for (const auto& s : systems_) {
    if (s.get() == &ds) return offset;
    offset += s->dimension();
  }
  throw Error(name(), "a system it is linked to", ds.name());
}

bool Interaction::involves(const DynamicalSystem& ds) const {
  for (const auto& s : systems_)
    if (s.get() == &ds) return true;
  return false;
}

void Interaction::checkConsistency() const {
  if (systems_.empty()) throw Error(name(), "linked to 1 or 2 dynamical systems", "0 systems");
  // every system of the relation's kind
  const DynamicalSystemKind wanted = relation_->kind() == RelationKind::Lagrangian
                                         ? DynamicalSystemKind::Lagrangian
                                         : DynamicalSystemKind::FirstOrder;
  for (const auto& ds : systems_)
    if (ds->kind() != wanted)
      throw Error(name(), std::string(kindName(wanted)) + " systems for its relation",
                  ds->name() + " (" + kindName(ds->kind()) + ")");
  // the law cuts into whole unitary blocks
  if (law_->size() % law_->unitaryBlockSize() != 0)
    throw Error(name(), "a law size multiple of " + std::to_string(law_->unitaryBlockSize()),
                std::to_string(law_->size()));
  // relation sizes against law size and dof
  relation_->checkSizes(size(), dof(), name());
  if (auto scl = std::dynamic_pointer_cast<LagrangianScleronomousR>(relation_))
    scl->checkSizesAt(gatherQ(), size(), name());
}

void Interaction::initialize(double t) {
  checkConsistency();
  for (unsigned l = 0; l < kLevels; ++l) {
    y_[l] = SiconosVector(size());
    yMemory_[l] = SiconosVector(size());
    lambda_[l] = SiconosVector(size());
    lambdaMemory_[l] = SiconosVector(size());
  }
  computeOutput(t);
  for (unsigned l = 0; l < kLevels; ++l) yMemory_[l] = y_[l];
  initialized_ = true;
}

namespace {
void checkLevel(unsigned level, const Interaction& inter) {
  if (level >= Interaction::kLevels)
    throw Error(inter.name(), "level < " + std::to_string(Interaction::kLevels), std::to_string(level));
}
}  // namespace

const SiconosVector& Interaction::y(unsigned level) const {
  checkLevel(level, *this);
  return y_[level];
}
SiconosVector& Interaction::yMutable(unsigned level) {
  checkLevel(level, *this);
  return y_[level];
}
const SiconosVector& Interaction::yMemory(unsigned level) const {
  checkLevel(level, *this);
  return yMemory_[level];
}
const SiconosVector& Interaction::lambda(unsigned level) const {
  checkLevel(level, *this);
  return lambda_[level];
}
SiconosVector& Interaction::lambdaMutable(unsigned level) {
  checkLevel(level, *this);
  return lambda_[level];
}
const SiconosVector& Interaction::lambdaMemory(unsigned level) const {
  checkLevel(level, *this);
  return lambdaMemory_[level];
}

void Interaction::swapInMemory() {
  yMemory_ = y_;
  lambdaMemory_ = lambda_;
}

SiconosVector Interaction::gatherQ() const {
  SiconosVector q(dof());
  std::size_t offset = 0;
  for (const auto& ds : systems_) {
    if (ds->kind() == DynamicalSystemKind::Lagrangian)
      q.setSegment(offset, static_cast<const LagrangianDS&>(*ds).q());
    else
      q.setSegment(offset, static_cast<const FirstOrderLinearDS&>(*ds).x());
    offset += ds->dimension();
  }
  return q;
}

SiconosVector Interaction::gatherVelocity() const {
  SiconosVector v(dof());
  std::size_t offset = 0;
  for (const auto& ds : systems_) {
    if (ds->kind() != DynamicalSystemKind::Lagrangian)
      throw Error(name(), "Lagrangian systems (velocities)", ds->name());
    v.setSegment(offset, static_cast<const LagrangianDS&>(*ds).velocity());
    offset += ds->dimension();
  }
  return v;
}

SiconosVector Interaction::gatherVelocityMemory() const {
  SiconosVector v(dof());
  std::size_t offset = 0;
  for (const auto& ds : systems_) {
    if (ds->kind() != DynamicalSystemKind::Lagrangian)
      throw Error(name(), "Lagrangian systems (velocities)", ds->name());
    v.setSegment(offset, static_cast<const LagrangianDS&>(*ds).velocityMemory());
    offset += ds->dimension();
  }
  return v;
}

void Interaction::computeOutput(double t) {
  const SiconosVector q = gatherQ();
  if (relation_->kind() == RelationKind::Lagrangian) {
    // y = h(q), G = dh/dq, ydot = G v
    const auto& rel = static_cast<const LagrangianR&>(*relation_);
    y_[0] = rel.computeh(q, t);
    jacobian_ = rel.computeJacobianQ(q, t);
    y_[1] = jacobian_ * gatherVelocity();
  } else {
    // y = C x + D lambda + F u + e
    const auto& rel = static_cast<const FirstOrderLinearR&>(*relation_);
    jacobian_ = rel.computeC(t);
    SiconosVector y = jacobian_ * q;
    if (rel.hasD()) y += rel.computeD(t, size()) * lambda_[0];
    if (rel.hasF()) y += rel.computeFu(t, size());
    if (rel.hasE()) y += rel.computee(t, size());
    y_[0] = y;
  }
}

void Interaction::computeInput(double t) {
  SiconosVector input;
  if (relation_->kind() == RelationKind::Lagrangian) {
    input = jacobian_.transposeTimes(lambda_[1]);  // p = G^T lambda
  } else {
    const auto& rel = static_cast<const FirstOrderLinearR&>(*relation_);
    input = rel.computeB(t) * lambda_[0];  // r = B lambda
  }
  std::size_t offset = 0;
  for (const auto& ds : systems_) {
    const SiconosVector part = input.segment(offset, ds->dimension());
    if (ds->kind() == DynamicalSystemKind::Lagrangian)
      static_cast<LagrangianDS&>(*ds).pMutable() += part;
    else
      static_cast<FirstOrderLinearDS&>(*ds).rMutable() += part;
    offset += ds->dimension();
  }
}

}  // namespace nsdyn
