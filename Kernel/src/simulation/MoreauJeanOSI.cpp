// MoreauJeanOSI: theta-scheme for Lagrangian systems (reference README, "Common scheme").
#include "nsdyn/MoreauJeanOSI.hpp"

#include "nsdyn/Error.hpp"
#include "nsdyn/LagrangianDS.hpp"

namespace nsdyn {

namespace {
LagrangianDS& lagrangian(const SP::DynamicalSystem& ds) { return static_cast<LagrangianDS&>(*ds); }

/// Whether W must be recomputed each step: M(q), or user internal forces
/// (whose Jacobians may depend on the state). K and C of a LagrangianLinearTIDS are constant.
bool needsNewW(const LagrangianDS& ds) { return !ds.isTimeInvariant() || ds.hasInternalForces(); }
}  // namespace

bool MoreauJeanOSI::accepts(const DynamicalSystem& ds) const {
  return ds.kind() == DynamicalSystemKind::Lagrangian && dynamic_cast<const LagrangianDS*>(&ds) != nullptr;
}

void MoreauJeanOSI::initialize(const std::vector<SP::DynamicalSystem>& systems, double t0, double h) {
  OneStepIntegrator::initialize(systems, t0, h);
  for (const auto& ds : systems_) {
    computeW(*ds, t0);
    free_[ds->number()] = lagrangian(ds).velocity();
  }
}

void MoreauJeanOSI::computeW(const DynamicalSystem& dsBase, double t) {
  // W = M + theta h C + theta^2 h^2 K, with C and K the Jacobians of F_int
  const auto& ds = static_cast<const LagrangianDS&>(dsBase);
  SimpleMatrix W = ds.mass();
  const SimpleMatrix C = ds.computeJacobianFIntv(ds.q(), ds.velocity(), t);
  const SimpleMatrix K = ds.computeJacobianFIntq(ds.q(), ds.velocity(), t);
  if (C.normInf() > 0.0) W += (theta_ * h_) * C;
  if (K.normInf() > 0.0) W += (theta_ * theta_ * h_ * h_) * K;
  W.factorizeLU();
  W_[ds.number()] = std::move(W);
}

void MoreauJeanOSI::computeFreeState(double tk, double tk1) {
  for (const auto& dsp : systems_) {
    LagrangianDS& ds = lagrangian(dsp);
    const SiconosVector& q = ds.q();
    const SiconosVector& v = ds.velocity();
    // 1. iteration matrix at the step start when it depends on the state
    if (needsNewW(ds)) {
      ds.computeMass(q);
      computeW(ds, tk);
    }
    // 2. rhs = h (theta F_ext(t_{k+1}) + (1 - theta) F_ext(t_k)) - h F_int(q_k, v_k, t_k) - theta h^2 K v_k
    SiconosVector rhs(ds.dimension());
    if (ds.hasFExt()) {
      SiconosVector f = theta_ * ds.computeFExt(tk1);
      f += (1.0 - theta_) * ds.computeFExt(tk);
      rhs += h_ * f;
    }
    const SiconosVector fInt = ds.computeFInt(q, v, tk);
    if (fInt.normInf() > 0.0) rhs -= h_ * fInt;
    const SimpleMatrix K = ds.computeJacobianFIntq(q, v, tk);
    if (K.normInf() > 0.0) rhs -= (theta_ * h_ * h_) * (K * v);
    // 3. v_free = v_k + W^-1 rhs
    SiconosVector vFree = v;
    vFree += W_.at(ds.number()).solve(rhs);
    free_[ds.number()] = std::move(vFree);
  }
}

SiconosVector MoreauJeanOSI::computeFreeOutput(const UnitaryRelation& ur, double /*tk1*/) const {
  const Interaction& inter = ur.interaction();
  // G v_free over the linked systems
  SiconosVector vFree(inter.dof());
  for (const auto& ds : inter.dynamicalSystems()) vFree.setSegment(inter.offsetOf(*ds), freeState(*ds));
  SiconosVector q = ur.jacobianRows() * vFree;
  // + e ydot_k on the rows with restitution (Newton law on the start-of-step velocity)
  const SiconosVector ydot = ur.y(1);
  for (std::size_t i = 0; i < ur.size(); ++i) {
    const double e = inter.nonSmoothLaw().restitution(i);  // row i of the unitary block
    if (e != 0.0) q(i) += e * ydot(i);
  }
  return q;
}

SimpleMatrix MoreauJeanOSI::computeDelassusBlock(const UnitaryRelation& a, const UnitaryRelation& b,
                                                 const DynamicalSystem& ds, double /*tk1*/) const {
  // G_a W^-1 G_b^T restricted to the columns of ds
  const std::size_t n = ds.dimension();
  const SimpleMatrix Ga = a.jacobianRows().block(0, a.interaction().offsetOf(ds), a.size(), n);
  const SimpleMatrix Gb = b.jacobianRows().block(0, b.interaction().offsetOf(ds), b.size(), n);
  return Ga * W(ds).solve(Gb.transpose());
}

void MoreauJeanOSI::updateState(double /*tk1*/) {
  for (const auto& dsp : systems_) {
    LagrangianDS& ds = lagrangian(dsp);
    // v_{k+1} = v_free + W^-1 p ; q_{k+1} = q_k + h (theta v_{k+1} + (1 - theta) v_k)
    SiconosVector v = free_.at(ds.number());
    if (ds.p().normInf() > 0.0) v += W_.at(ds.number()).solve(ds.p());
    const SiconosVector& vk = ds.velocityMemory();
    SiconosVector& q = ds.qMutable();
    for (std::size_t i = 0; i < q.size(); ++i) q(i) = ds.qMemory()(i) + h_ * (theta_ * v(i) + (1.0 - theta_) * vk(i));
    ds.velocityMutable() = std::move(v);
  }
}

}  // namespace nsdyn
