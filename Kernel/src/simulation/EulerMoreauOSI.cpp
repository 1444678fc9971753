// EulerMoreauOSI: theta-scheme for first-order linear systems (reference README, section 2).
#include "nsdyn/EulerMoreauOSI.hpp"

#include "nsdyn/Error.hpp"
#include "nsdyn/FirstOrderLinearDS.hpp"
#include "nsdyn/FirstOrderLinearR.hpp"

namespace nsdyn {

namespace {
/// The system as a FirstOrderLinearDS (accepts() let only those in).
FirstOrderLinearDS& firstOrder(const DynamicalSystem& ds) {
  auto* f = dynamic_cast<FirstOrderLinearDS*>(const_cast<DynamicalSystem*>(&ds));
  if (!f) throw Error("EulerMoreauOSI", "a FirstOrderLinearDS", ds.name());
  return *f;
}
FirstOrderLinearDS& firstOrder(const SP::DynamicalSystem& ds) {
  return firstOrder(*ds);
}
/// The relation of @p inter as a FirstOrderLinearR.
const FirstOrderLinearR& firstOrderRelation(const Interaction& inter) {
  const auto* r = dynamic_cast<const FirstOrderLinearR*>(&inter.relation());
  if (!r) throw Error("EulerMoreauOSI", "a FirstOrderLinearR relation", inter.name());
  return *r;
}
}  // namespace

bool EulerMoreauOSI::accepts(const DynamicalSystem& ds) const {
  return dynamic_cast<const FirstOrderLinearDS*>(&ds) != nullptr;
}

void EulerMoreauOSI::initialize(const std::vector<SP::DynamicalSystem>& systems, double t0,
                                double h) {
  OneStepIntegrator::initialize(systems, t0, h);
  for (const auto& ds : systems_) {
    computeW(*ds, t0 + h);
    free_[ds->number()] = firstOrder(ds).x();
  }
}

void EulerMoreauOSI::computeW(const DynamicalSystem& dsBase, double t) {
  // W = I - theta h A(t)
  const FirstOrderLinearDS& ds = firstOrder(dsBase);
  SimpleMatrix W = SimpleMatrix::identity(ds.dimension());
  W -= (theta_ * h_) * ds.computeA(t);
  W.factorizeLU();
  W_[ds.number()] = std::move(W);
}

void EulerMoreauOSI::computeFreeState(double tk, double tk1) {
  for (const auto& dsp : systems_) {
    FirstOrderLinearDS& ds = firstOrder(dsp);
    const SiconosVector& x = ds.x();
    SiconosVector rhs;
    if (ds.isTimeInvariant()) {
      // rhs = A x_k
      rhs = ds.A() * x;
    } else {
      // W at t_{k+1}; rhs = (theta A(t_{k+1}) + (1 - theta) A(t_k)) x_k
      computeW(ds, tk1);
      rhs = theta_ * (ds.computeA(tk1) * x);
      rhs += (1.0 - theta_) * (ds.computeA(tk) * x);
    }
    // + theta b(t_{k+1}) + (1 - theta) b(t_k)
    if (ds.hasb()) {
      rhs += theta_ * ds.computeb(tk1);
      rhs += (1.0 - theta_) * ds.computeb(tk);
    }
    // x_free = x_k + W^-1 (h rhs)
    rhs *= h_;
    SiconosVector xFree = x;
    xFree += W_.at(ds.number()).solve(rhs);
    free_[ds.number()] = std::move(xFree);
  }
}

SiconosVector EulerMoreauOSI::computeFreeOutput(const UnitaryRelation& ur, double tk1) const {
  // C x_free + F u + e on the unitary relation's rows
  const Interaction& inter = ur.interaction();
  const FirstOrderLinearR& rel = firstOrderRelation(inter);
  SiconosVector xFree(inter.dof());
  for (const auto& ds : inter.dynamicalSystems())
    xFree.setSegment(inter.offsetOf(*ds), freeState(*ds));
  SiconosVector q = rel.computeC(tk1) * xFree;
  if (rel.hasF()) q += rel.computeFu(tk1, inter.size());
  if (rel.hasE()) q += rel.computee(tk1, inter.size());
  return q.segment(ur.relativePosition(), ur.size());
}

SimpleMatrix EulerMoreauOSI::computeDelassusBlock(const UnitaryRelation& a,
                                                  const UnitaryRelation& b,
                                                  const DynamicalSystem& ds, double tk1) const {
  // h C_a W^-1 B_b restricted to the state of ds
  const std::size_t n = ds.dimension();
  const FirstOrderLinearR& relA = firstOrderRelation(a.interaction());
  const FirstOrderLinearR& relB = firstOrderRelation(b.interaction());
  const SimpleMatrix Ca =
      relA.computeC(tk1).block(a.relativePosition(), a.interaction().offsetOf(ds), a.size(), n);
  const SimpleMatrix Bb =
      relB.computeB(tk1).block(b.interaction().offsetOf(ds), b.relativePosition(), n, b.size());
  SimpleMatrix block = Ca * W(ds).solve(Bb);
  block *= h_;
  return block;
}

void EulerMoreauOSI::updateState(double /*tk1*/) {
  for (const auto& dsp : systems_) {
    FirstOrderLinearDS& ds = firstOrder(dsp);
    // x_{k+1} = x_free + h W^-1 r
    SiconosVector x = free_.at(ds.number());
    if (ds.r().normInf() > 0.0) x += h_ * W_.at(ds.number()).solve(ds.r());
    ds.xMutable() = std::move(x);
  }
}

}  // namespace nsdyn
