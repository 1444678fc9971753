#include "nsdyn/SuccessiveSubstitution.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "mechanics/Threads.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "peridynamics/steppers/StepProblem.hpp"

namespace nsdyn {

namespace {

// Iterations between two refreshes of the implicit stiffness a (a bond pass each).
constexpr int kStiffnessRefresh = 10;
// Halvings of a step before the line search gives up (round-off).
constexpr int kMaxHalvings = 40;

}  // namespace

PeridynamicStepReport SuccessiveSubstitution::freeStep(const PeridynamicBody& body,
                                                       const PeridynamicStepOptions& options,
                                                       double* x, double* v) {
  const auto start = std::chrono::steady_clock::now();
  peridynamics::StepProblem p(body, options, "substitution");
  const std::size_t n3 = 3 * p.n;
  for (auto* buf : {&f_, &g_, &gPrev_, &d_, &z_, &xt_, &ft_, &gt_, &xa_, &fa_, &ga_})
    buf->assign(n3, 0.0);
  a_.assign(p.n, 0.0);
  const long nl = static_cast<long>(p.n);
  const int nt = p.threads;
  const double* m = body.mass.data();
  const std::uint8_t* fixed = p.fixed;

  // A point of the step energy: positions, forces, gradient, Ψ, its round-off, |g|².
  struct Point {
    double* x;
    double* f;
    double* g;
    double psi = 0.0, noise = 0.0, gg = 0.0;
  };
  auto evaluate = [&p](Point& q) {
    const double W = p.forces(q.x, q.f);
    q.psi = p.psi(q.x, W, &q.noise);
    p.gradient(q.x, q.f, q.g);
    q.gg = p.dot(q.g, q.g);
  };
  // Accepted when Φ decreases, or stays within round-off while the gradient decreases.
  auto better = [](const Point& next, const Point& current) {
    if (!std::isfinite(next.psi)) return false;
    return next.psi < current.psi || (peridynamics::StepProblem::notAbove(
                                          next.psi, current.psi, next.noise + current.noise) &&
                                      next.gg < current.gg);
  };

  std::copy(p.y.begin(), p.y.end(), x);
  Point cur{x, f_.data(), g_.data()};
  evaluate(cur);
  const double g0 = std::sqrt(cur.gg);
  PeridynamicStepReport report;
  report.energyStart = p.scale * cur.psi;
  double residual = g0 > 0.0 ? 1.0 : 0.0;
  double step = 1.0;    // last accepted α: the next trial
  double zgPrev = 0.0;  // z·g of the last iteration (Polak–Ribière)
  bool restart = true;
  int it = 0;
  while (residual > options.tolerance && it < options.maxIterations) {
    if (it % kStiffnessRefresh == 0) {
      p.stiffness(x, a_.data());
      restart = true;
    }
    ++it;
    // Jacobi-scaled gradient z = g / (c m + a) and the direction d.
    const double cc = p.c;
    const double* a = a_.data();
    double* z = z_.data();
    const double* g = g_.data();
    NSD_OMP(omp parallel for schedule(static) num_threads(nt))
    for (long i = 0; i < nl; ++i) {
      double diag = cc * m[i] + a[i];
      if (!(diag > 0.0)) diag = std::numeric_limits<double>::min();
      for (int k = 0; k < 3; ++k) z[3 * i + k] = fixed[i] ? 0.0 : g[3 * i + k] / diag;
    }
    const double zg = p.dot(z, g);
    double beta = 0.0;
    if (options.accelerate && !restart && zgPrev > 0.0) {
      // Polak–Ribière+: β = z·(g − g_prev) / z_prev·g_prev.
      beta = std::max(0.0, (zg - p.dot(z, gPrev_.data())) / zgPrev);
    }
    double* d = d_.data();
    NSD_OMP(omp parallel for schedule(static) num_threads(nt))
    for (long q = 0; q < 3 * nl; ++q) d[q] = -z[q] + beta * d[q];
    double slope0 = p.dot(d, g);
    if (!(slope0 < 0.0)) {  // not a descent direction: restart from −z
      NSD_OMP(omp parallel for schedule(static) num_threads(nt))
      for (long q = 0; q < 3 * nl; ++q) d[q] = -z[q];
      slope0 = -zg;
    }
    restart = false;
    zgPrev = zg;
    if (!(slope0 < 0.0)) break;  // g = 0 on every free point

    // Trial at t: Φ and the directional derivative there.
    const double t = options.lineSearch ? step : 1.0;
    Point trial{xt_.data(), ft_.data(), gt_.data()};
    p.axpy(x, t, d, trial.x);
    evaluate(trial);
    const Point* next = nullptr;
    double accepted = t;
    Point second{xa_.data(), fa_.data(), ga_.data()};
    if (!options.lineSearch) {
      next = &trial;
      if (!(trial.psi <= cur.psi)) report.monotone = false;
    } else {
      // Secant on φ'(α) = d·g(x + α d) through 0 and t.
      const double slopeT = p.dot(d, trial.g);
      double alpha = slopeT > slope0 ? t * slope0 / (slope0 - slopeT) : 4.0 * t;
      alpha = std::min(alpha, 4.0 * t);
      const bool trialOk = better(trial, cur);
      if (trialOk && std::abs(alpha - t) <= 0.1 * t) {
        next = &trial;
      } else {
        // Evaluate at α; halve from the smaller of t and α while neither decreases Φ.
        double at = alpha;
        for (int half = 0; half <= kMaxHalvings && !next; ++half) {
          p.axpy(x, at, d, second.x);
          evaluate(second);
          if (better(second, cur) && (!trialOk || second.psi <= trial.psi)) {
            next = &second;
            accepted = at;
          } else if (trialOk) {
            next = &trial;
          } else {
            at = 0.5 * std::min(at, t);
            restart = true;
          }
        }
      }
    }
    if (!next) break;  // no step decreases Φ: round-off reached
    g_.swap(gPrev_);
    std::copy(next->x, next->x + n3, x);
    std::copy(next->f, next->f + n3, f_.begin());
    std::copy(next->g, next->g + n3, g_.begin());
    cur = Point{x, f_.data(), g_.data(), next->psi, next->noise, next->gg};
    if (options.lineSearch) step = std::clamp(accepted, 1e-6, 1e6);
    residual = g0 > 0.0 ? std::sqrt(cur.gg) / g0 : 0.0;
  }
  p.finish(report, it, residual, cur.psi, options.tolerance, x, v, start);
  return report;
}

}  // namespace nsdyn
