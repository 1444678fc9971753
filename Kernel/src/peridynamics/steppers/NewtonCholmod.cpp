#include "nsdyn/NewtonCholmod.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

#include "mechanics/Threads.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"
#include "nsdyn/nsd_matrix.h"
#include "peridynamics/steppers/StepMatrix.hpp"
#include "peridynamics/steppers/StepProblem.hpp"

namespace nsdyn {

namespace {

constexpr int kMaxHalvings = 40;
constexpr double kArmijo = 1e-4;
constexpr int kSlowIterations = 3;

}  // namespace

NewtonCholmod::NewtonCholmod() : matrix_(std::make_unique<peridynamics::StepMatrix>()) {}

NewtonCholmod::~NewtonCholmod() = default;

int NewtonCholmod::analyses() const {
  return matrix_->analyses();
}

PeridynamicStepReport NewtonCholmod::freeStep(const PeridynamicBody& body,
                                              const PeridynamicStepOptions& options, double* x,
                                              double* v) {
  const auto start = std::chrono::steady_clock::now();
  peridynamics::StepProblem p(body, options, "newton");
  const std::size_t n = p.n, n3 = 3 * n;
  for (auto* buf : {&f_, &g_, &d_, &xt_, &ft_, &gt_}) buf->assign(n3, 0.0);
  peridynamics::StepMatrix& H = *matrix_;
  H.resetShift();
  H.ensurePattern(body);

  std::copy(p.y.begin(), p.y.end(), x);
  double noise = 0.0;
  double psi = p.psi(x, p.forces(x, f_.data()), &noise);
  p.gradient(x, f_.data(), g_.data());
  double gg = p.dot(g_.data(), g_.data());
  const double g0 = std::sqrt(gg);
  PeridynamicStepReport report;
  report.energyStart = p.scale * psi;
  double residual = g0 > 0.0 ? 1.0 : 0.0;
  int it = 0;
  // With an exact tangent Newton halves the residual at least once per iteration near the
  // answer: three iterations without it mean round-off. An approximate tangent (state-based,
  // correspondence models) converges linearly: no such test.
  const bool exact = body.material().exactTangent();
  int slow = 0;  // consecutive iterations that did not halve the residual
  while (residual > options.tolerance && it < options.maxIterations && H.freeDofs() > 0) {
    ++it;
    if (!H.factor(body, x, p.c, p.threads)) break;
    p.bondUpdates += H.bondUpdates();
    for (std::size_t q = 0; q < n3; ++q) d_[q] = -g_[q];
    if (!H.solve(d_.data())) break;
    double slope = p.dot(d_.data(), g_.data());
    if (!(slope < 0.0)) {  // not a descent direction (a tangent far from the Hessian)
      for (std::size_t q = 0; q < n3; ++q) d_[q] = -g_[q];
      slope = p.dot(d_.data(), g_.data());
    }
    // Backtracking on Φ (Armijo); a change of Φ within its round-off is taken when the
    // gradient decreases.
    double alpha = 1.0, psiT = 0.0, noiseT = 0.0, ggT = 0.0;
    bool ok = false;
    for (int half = 0; half <= kMaxHalvings && !ok; ++half, alpha *= 0.5) {
      p.axpy(x, alpha, d_.data(), xt_.data());
      psiT = p.psi(xt_.data(), p.forces(xt_.data(), ft_.data()), &noiseT);
      if (!std::isfinite(psiT)) continue;
      p.gradient(xt_.data(), ft_.data(), gt_.data());
      ggT = p.dot(gt_.data(), gt_.data());
      ok = psiT <= psi + kArmijo * alpha * slope ||
           (peridynamics::StepProblem::notAbove(psiT, psi, noise + noiseT) && ggT < gg);
    }
    if (!ok) break;  // no decrease: round-off reached
    std::copy(xt_.begin(), xt_.end(), x);
    f_.swap(ft_);
    g_.swap(gt_);
    psi = psiT;
    noise = noiseT;
    gg = ggT;
    const double previous = residual;
    residual = g0 > 0.0 ? std::sqrt(gg) / g0 : 0.0;
    slow = residual > 0.5 * previous ? slow + 1 : 0;
    if (exact && slow >= kSlowIterations) break;
  }
  p.finish(report, it, residual, psi, options.tolerance, x, v, start);
  return report;
}

}  // namespace nsdyn
