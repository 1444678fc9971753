// Interaction: linked systems, y/lambda storage per level, outputs and inputs.
#include "nsdyn/Interaction.hpp"

#include <atomic>

#include "nsdyn/Error.hpp"

namespace nsdyn {

namespace {
std::atomic<int> nextInteractionNumber{0};
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

std::size_t Interaction::positionDof() const {
  std::size_t n = 0;
  for (const auto& ds : systems_) n += ds->positionSize();
  return n;
}

std::size_t Interaction::positionOffsetOf(const DynamicalSystem& ds) const {
  std::size_t offset = 0;
  for (const auto& s : systems_) {
    if (s.get() == &ds) return offset;
    offset += s->positionSize();
  }
  throw Error(name(), "a system it is linked to", ds.name());
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
  // every system one the relation accepts
  for (const auto& ds : systems_)
    if (!relation_->accepts(*ds))
      throw Error(name(), relation_->acceptedSystems() + " for its relation", ds->name());
  // the law cuts into whole unitary blocks
  if (law_->size() % law_->unitaryBlockSize() != 0)
    throw Error(name(), "a law size multiple of " + std::to_string(law_->unitaryBlockSize()),
                std::to_string(law_->size()));
  // relation sizes against law size and dof
  relation_->checkConsistency(*this);
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
    throw Error(inter.name(), "level < " + std::to_string(Interaction::kLevels),
                std::to_string(level));
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
  SiconosVector q(positionDof());
  std::size_t offset = 0;
  for (const auto& ds : systems_) {
    q.setSegment(offset, ds->relationState());
    offset += ds->positionSize();
  }
  return q;
}

SiconosVector Interaction::gatherVelocity() const {
  SiconosVector v(dof());
  std::size_t offset = 0;
  for (const auto& ds : systems_) {
    v.setSegment(offset, ds->relationVelocity());
    offset += ds->dimension();
  }
  return v;
}

SiconosVector Interaction::gatherVelocityMemory() const {
  SiconosVector v(dof());
  std::size_t offset = 0;
  for (const auto& ds : systems_) {
    v.setSegment(offset, ds->relationVelocityMemory());
    offset += ds->dimension();
  }
  return v;
}

SimpleMatrix Interaction::kinematicMatrix() const {
  bool identity = true;
  for (const auto& ds : systems_) identity = identity && ds->kinematicIsIdentity();
  if (identity) return SimpleMatrix();
  SimpleMatrix T(positionDof(), dof());
  std::size_t r = 0, c = 0;
  for (const auto& ds : systems_) {
    T.setBlock(r, c, ds->kinematicMatrix());
    r += ds->positionSize();
    c += ds->dimension();
  }
  return T;
}

void Interaction::setJacobians(SimpleMatrix jachq, SimpleMatrix H) {
  jacobianQ_ = std::move(jachq);
  jacobian_ = std::move(H);
}

void Interaction::computeOutput(double t) {
  relation_->computeOutput(*this, t, true);
}

void Interaction::computeOutputKeepJacobians(double t) {
  relation_->computeOutput(*this, t, false);
}

void Interaction::computeJacobians(double t) {
  relation_->computeJacobians(*this, t);
}

SiconosVector Interaction::contactForce(double t) const {
  return relation_->computeInput(*this, t);
}

void Interaction::computeInput(double t) {
  const SiconosVector input = relation_->computeInput(*this, t);
  std::size_t offset = 0;
  for (const auto& ds : systems_) {
    ds->addNonSmoothInput(input.segment(offset, ds->dimension()));
    offset += ds->dimension();
  }
}

}  // namespace nsdyn
