// MoreauJeanOSI: theta-scheme for mechanical systems, one pass or Newton (MECHANICS.md §0.4, §0.7).
#include "nsdyn/MoreauJeanOSI.hpp"

#include "nsdyn/Error.hpp"
#include "nsdyn/SecondOrderDS.hpp"

namespace nsdyn {

/// Per-system data: the system, its residual, and its unmodified W when it has
/// boundary conditions (the columns c_i of §0.7).
struct MoreauJeanOSI::System {
  SecondOrderDS* ds = nullptr;
  SiconosVector residual;
  SimpleMatrix wFull;
  SiconosVector savedQ;  // the iterate while the system sits at its theta point
};

MoreauJeanOSI::MoreauJeanOSI(double theta) : OneStepIntegrator(theta) {}
MoreauJeanOSI::~MoreauJeanOSI() = default;

bool MoreauJeanOSI::accepts(const DynamicalSystem& ds) const {
  return dynamic_cast<const SecondOrderDS*>(&ds) != nullptr;
}

MoreauJeanOSI::System& MoreauJeanOSI::data(const DynamicalSystem& ds) {
  auto it = index_.find(ds.number());
  if (it == index_.end()) throw Error(className(), "a system it integrates", ds.name());
  return data_[it->second];
}

const MoreauJeanOSI::System& MoreauJeanOSI::data(const DynamicalSystem& ds) const {
  auto it = index_.find(ds.number());
  if (it == index_.end()) throw Error(className(), "a system it integrates", ds.name());
  return data_[it->second];
}

void MoreauJeanOSI::initialize(const std::vector<SP::DynamicalSystem>& systems, double t0,
                               double h) {
  OneStepIntegrator::initialize(systems, t0, h);
  data_.clear();
  index_.clear();
  for (const auto& dsp : systems_) {
    System s;
    s.ds = dynamic_cast<SecondOrderDS*>(dsp.get());
    s.residual = SiconosVector(s.ds->dimension());
    computeW(s, t0);
    free_[dsp->number()] = s.ds->velocity();
    // F_0 = F(t0, q0, v0), the first F_k of the Newton iterations
    s.ds->setForces(s.ds->stepForces(t0, s.ds->q(), s.ds->velocity()));
    s.ds->setImpulseAtThetaPoint(midpointConstraints_);
    index_[dsp->number()] = data_.size();
    data_.push_back(std::move(s));
  }
}

bool MoreauJeanOSI::isNonlinear() const {
  for (const System& s : data_)
    if (s.ds->isNonlinear()) return true;
  return false;
}

bool MoreauJeanOSI::requiresNewton() const {
  for (const System& s : data_)
    if (s.ds->hasBoundaryConditions()) return true;
  return false;
}

void MoreauJeanOSI::computeW(System& s, double t) {
  // W = M - theta h dF/dv (- theta^2 h^2 dF/dq for T = I) at the current state;
  // with boundary conditions, rows and columns of the prescribed components
  // are zeroed but for the diagonal (the unmodified W is kept for their columns)
  SecondOrderDS& ds = *s.ds;
  SimpleMatrix W = ds.computeIterationMatrix(t, ds.q(), ds.velocity(), theta_, h_);
  if (ds.hasBoundaryConditions()) {
    s.wFull = W;
    const std::size_t n = ds.dimension();
    for (std::size_t i : ds.boundaryIndices()) {
      const double d = W(i, i);
      for (std::size_t j = 0; j < n; ++j) {
        W(i, j) = 0.0;
        W(j, i) = 0.0;
      }
      W(i, i) = d;
    }
  }
  W.factorizeLU();
  W_[ds.number()] = std::move(W);
}

namespace {
/// §0.7: r <- r - c_i (pv_i - v_i), then r[i] = -c_i[i] (pv_i - v_i), for every prescribed i.
void correctForBoundaryConditions(const SecondOrderDS& ds, const SimpleMatrix& wFull,
                                  const SiconosVector& pv, SiconosVector& r) {
  const auto& idx = ds.boundaryIndices();
  for (std::size_t k = 0; k < idx.size(); ++k) {
    const std::size_t i = idx[k];
    const double delta = pv(k) - ds.velocity()(i);
    for (std::size_t j = 0; j < r.size(); ++j) r(j) -= wFull(j, i) * delta;
    r(i) = -wFull(i, i) * delta;
  }
}
}  // namespace

void MoreauJeanOSI::computeFreeState(double tk, double tk1) {
  for (System& s : data_) {
    SecondOrderDS& ds = *s.ds;
    if (!newton_) {
      // one pass: W at the step start when it depends on the state, v_free = v_k + W^-1 impulse
      if (ds.isNonlinear()) {
        ds.computeMass(ds.q());
        computeW(s, tk);
      }
      SiconosVector vFree = ds.velocity();
      vFree += W_.at(ds.number()).solve(ds.linearizedImpulse(tk, tk1, theta_, h_));
      free_[ds.number()] = std::move(vFree);
    } else {
      // Newton iteration: W at the current iterate, v_free = v - W^-1 R
      if (ds.isNonlinear() || ds.hasBoundaryConditions()) {
        ds.computeMass(ds.q());
        computeW(s, tk1);
      }
      SiconosVector vFree = ds.velocity();
      vFree -= W_.at(ds.number()).solve(s.residual);
      free_[ds.number()] = std::move(vFree);
    }
  }
}

SiconosVector MoreauJeanOSI::computeFreeOutput(const UnitaryRelation& ur, double /*tk1*/) const {
  const Interaction& inter = ur.interaction();
  // H v_free over the linked systems
  SiconosVector vFree(inter.dof());
  for (const auto& ds : inter.dynamicalSystems())
    vFree.setSegment(inter.offsetOf(*ds), freeState(*ds));
  SiconosVector q = ur.jacobianRows() * vFree;
  // + e ydot_k on the rows with restitution (Newton law on the velocity at the start of the step)
  const NonSmoothLaw& law = inter.nonSmoothLaw();
  if (midpointConstraints_ && !law.isImpactLaw() && inter.relation().outputIsGap() &&
      theta_ > 0.0) {
    // bilateral rows on the theta-weighted velocity: H (theta v + (1 - theta) v_k) = 0
    SiconosVector vk(inter.dof());
    for (const auto& ds : inter.dynamicalSystems())
      vk.setSegment(inter.offsetOf(*ds), ds->relationVelocityMemory());
    SiconosVector hvk = ur.jacobianRows() * vk;
    hvk *= (1.0 - theta_) / theta_;
    q += hvk;
    return q;
  }
  const SiconosVector ydot = ur.yMemory(1);
  for (std::size_t i = 0; i < ur.size(); ++i) {
    const double e = law.restitution(i);  // row i of the unitary block
    if (e != 0.0) q(i) += e * ydot(i);
  }
  return q;
}

SimpleMatrix MoreauJeanOSI::computeDelassusBlock(const UnitaryRelation& a, const UnitaryRelation& b,
                                                 const DynamicalSystem& ds, double /*tk1*/) const {
  // H_a W^-1 H_b^T restricted to the columns of ds; prescribed components do
  // not move (their columns of H are left out, §0.7)
  const std::size_t n = ds.dimension();
  SimpleMatrix Ha = a.jacobianRows().block(0, a.interaction().offsetOf(ds), a.size(), n);
  SimpleMatrix Hb = b.jacobianRows().block(0, b.interaction().offsetOf(ds), b.size(), n);
  const SecondOrderDS& sds = *data(ds).ds;
  for (std::size_t i : sds.boundaryIndices()) {
    for (std::size_t r = 0; r < Ha.rows(); ++r) Ha(r, i) = 0.0;
    for (std::size_t r = 0; r < Hb.rows(); ++r) Hb(r, i) = 0.0;
  }
  return Ha * W(ds).solve(Hb.transpose());
}

void MoreauJeanOSI::updateState(double tk1) {
  for (System& s : data_) {
    SecondOrderDS& ds = *s.ds;
    // v = v_free + W^-1 p (p without its prescribed components)
    SiconosVector p = ds.p();
    for (std::size_t i : ds.boundaryIndices()) p(i) = 0.0;
    SiconosVector v = free_.at(ds.number());
    if (p.normInf() > 0.0) v += W_.at(ds.number()).solve(p);
    // q = q_k (+) h (theta v + (1 - theta) v_k)
    const SiconosVector& vk = ds.velocityMemory();
    SiconosVector dv(v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      dv(i) = h_ * (theta_ * v(i) + (1.0 - theta_) * vk(i));
    ds.qMutable() = ds.integratePosition(ds.qMemory(), dv);
    ds.velocityMutable() = std::move(v);
    // reaction on the prescribed components: r_i = -c_i . v + p_i
    if (ds.hasBoundaryConditions()) {
      const auto& idx = ds.boundaryIndices();
      SiconosVector& r = ds.boundaryReactionMutable();
      for (std::size_t k = 0; k < idx.size(); ++k)
        r(k) = -s.wFull.column(idx[k]).dot(ds.velocity()) + ds.p()(idx[k]);
    }
  }
  (void)tk1;
}

void MoreauJeanOSI::residualOf(System& s, double tk1) {
  // R = M (v - v_k) - h (1 - theta) F_k - h theta F(t_{k+1}, q, v) (the system's
  // computeStepResidual)
  SecondOrderDS& ds = *s.ds;
  SiconosVector R = ds.computeStepResidual(tk1, theta_, h_);
  if (ds.hasBoundaryConditions()) {
    s.wFull = ds.computeIterationMatrix(tk1, ds.q(), ds.velocity(), theta_, h_);
    correctForBoundaryConditions(ds, s.wFull, ds.prescribedVelocity(tk1), R);
  }
  s.residual = std::move(R);
}

void MoreauJeanOSI::prepareNewtonIteration(double /*tk*/, double tk1) {
  for (System& s : data_) {
    SecondOrderDS& ds = *s.ds;
    // prediction q = q_k (+) h v_k, v = v_k
    SiconosVector dv = ds.velocityMemory();
    dv *= h_;
    ds.qMutable() = ds.integratePosition(ds.qMemory(), dv);
    ds.velocityMutable() = ds.velocityMemory();
    ds.computeMass(ds.q());
    residualOf(s, tk1);
  }
}

bool MoreauJeanOSI::computeResidual(double tk1, double tolerance) {
  bool converged = true;
  for (System& s : data_) {
    SecondOrderDS& ds = *s.ds;
    residualOf(s, tk1);
    SiconosVector e = s.residual;
    e -= ds.p();
    if (ds.hasBoundaryConditions())
      correctForBoundaryConditions(ds, s.wFull, ds.prescribedVelocity(tk1), e);
    if (!(e.norm2() <= tolerance)) converged = false;
  }
  return converged;
}

void MoreauJeanOSI::moveToThetaPoint(bool on) {
  if (!midpointConstraints_) return;
  for (System& s : data_) {
    SecondOrderDS& ds = *s.ds;
    if (on) {
      s.savedQ = ds.q();
      const SiconosVector& v = ds.velocity();
      const SiconosVector& vk = ds.velocityMemory();
      SiconosVector dv(v.size());
      for (std::size_t i = 0; i < v.size(); ++i)
        dv(i) = theta_ * h_ * (theta_ * v(i) + (1.0 - theta_) * vk(i));
      ds.qMutable() = ds.integratePosition(ds.qMemory(), dv);
    } else {
      ds.qMutable() = s.savedQ;
    }
  }
}

const SiconosVector& MoreauJeanOSI::residual(const DynamicalSystem& ds) const {
  return data(ds).residual;
}

}  // namespace nsdyn
