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
#include "peridynamics/steppers/StepProblem.hpp"

namespace nsdyn {

namespace {

constexpr int kMaxHalvings = 40;
constexpr int kMaxShifts = 30;
constexpr double kArmijo = 1e-4;
constexpr int kSlowIterations = 3;

struct MatrixGuard {
  NsdMatrix* m = nullptr;
  ~MatrixGuard() { nsd_matrix_destroy(m); }
};

}  // namespace

NewtonCholmod::~NewtonCholmod() {
  nsd_factor_destroy(factor_);
}

void NewtonCholmod::buildPattern(const PeridynamicBody& body) {
  const std::size_t n = body.size();
  freeIndex_.assign(n, -1);
  int nf = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (!body.prescribed[i]) freeIndex_[i] = nf++;
  // Column 3p + a of free point p (point i): rows 3p + r (r ≥ a) of the diagonal block, then
  // 3 rows per bond i→j with free j after i (bonds sorted by j).
  colStart_.assign(3 * static_cast<std::size_t>(nf) + 1, 0);
  rowIndex_.clear();
  diagPos_.assign(3 * static_cast<std::size_t>(nf), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int pi = freeIndex_[i];
    if (pi < 0) continue;
    for (int a = 0; a < 3; ++a) {
      const std::size_t col = 3 * static_cast<std::size_t>(pi) + a;
      colStart_[col] = static_cast<int>(rowIndex_.size());
      diagPos_[col] = static_cast<int>(rowIndex_.size());
      for (int r = a; r < 3; ++r) rowIndex_.push_back(3 * pi + r);
      for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
        const int q = freeIndex_[body.neighbour[b]];
        if (q <= pi) continue;
        for (int r = 0; r < 3; ++r) rowIndex_.push_back(3 * q + r);
      }
    }
  }
  colStart_.back() = static_cast<int>(rowIndex_.size());
  values_.assign(rowIndex_.size(), 0.0);
  nsd_factor_destroy(factor_);
  factor_ = nullptr;
  if (nf == 0) return;
  MatrixGuard h;
  h.m = nsd_matrix_create_csc(3 * nf, 3 * nf, colStart_.data(), rowIndex_.data(), values_.data());
  NsdReport report{};
  if (!h.m || nsd_factor_analyse(h.m, NSD_FACTOR_CHOLESKY, &factor_, &report) != NSD_OK)
    throw Error("NewtonCholmod on body '" + body.name() + "'",
                "a symbolic Cholesky analysis of the step matrix",
                std::string("failure: ") + report.message);
  ++analyses_;
  patternBody_ = &body;
  patternPoints_ = n;
  patternBonds_ = body.bondCount();
  patternFixed_ = body.prescribed;
}

PeridynamicStepReport NewtonCholmod::freeStep(const PeridynamicBody& body,
                                              const PeridynamicStepOptions& options, double* x,
                                              double* v) {
  const auto start = std::chrono::steady_clock::now();
  peridynamics::StepProblem p(body, options, "newton");
  const std::size_t n = p.n, n3 = 3 * n;
  if (patternBody_ != &body || patternPoints_ != n || patternBonds_ != body.bondCount() ||
      patternFixed_ != body.prescribed || (!factor_ && !rowIndex_.empty()))
    buildPattern(body);
  if (factor_) nsd_factor_set_threads(factor_, mechanics::threadsFor(options.threads, n));
  for (auto* buf : {&f_, &g_, &d_, &xt_, &ft_, &gt_}) buf->assign(n3, 0.0);
  K_.resize(9 * body.bondCount());
  diag_.resize(9 * n);
  const int nf3 = static_cast<int>(colStart_.size()) - 1;
  rhs_.resize(static_cast<std::size_t>(nf3));
  const double* m = body.mass.data();

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
  int slow = 0;        // consecutive iterations that did not halve the residual
  double shift = 0.0;  // relative diagonal shift kept from the last iteration that needed one
  while (residual > options.tolerance && it < options.maxIterations && nf3 > 0) {
    ++it;
    body.material().tangent(body, x, K_.data(), diag_.data());
    p.bondUpdates += body.bondCount();
    // H = c M − ∂f/∂x on the free dofs, lower triangle (column 3p + a, see buildPattern).
    const long nl = static_cast<long>(n);
    const double cc = p.c;
    NSD_OMP(omp parallel for schedule(static) num_threads(p.threads))
    for (long i = 0; i < nl; ++i) {
      const int pi = freeIndex_[static_cast<std::size_t>(i)];
      if (pi < 0) continue;
      for (int a = 0; a < 3; ++a) {
        std::size_t k = static_cast<std::size_t>(colStart_[3 * pi + a]);
        for (int r = a; r < 3; ++r)
          values_[k++] = -diag_[9 * i + 3 * r + a] + (r == a ? cc * m[i] : 0.0);
        for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
          const int q = freeIndex_[body.neighbour[b]];
          if (q <= pi) continue;
          // H(3q + r, 3p + a) = −(∂f_j/∂x_i)[r][a] = −(∂f_i/∂x_j)[a][r] (symmetric tangent).
          for (int r = 0; r < 3; ++r)
            values_[k++] = -K_[9 * static_cast<std::size_t>(b) + 3 * a + r];
        }
      }
    }
    // Factor, shifting the diagonal when H is not positive definite.
    NsdStatus fs = NSD_FAILED;
    std::vector<double> base;
    for (int attempt = 0; attempt <= kMaxShifts; ++attempt) {
      if (shift > 0.0) {
        if (base.empty()) {
          base.resize(static_cast<std::size_t>(nf3));
          for (int c = 0; c < nf3; ++c) base[c] = values_[diagPos_[c]];
        }
        for (int c = 0; c < nf3; ++c)
          values_[diagPos_[c]] = base[c] + shift * std::max(std::abs(base[c]), 1e-300);
      }
      MatrixGuard h;
      h.m = nsd_matrix_create_csc(nf3, nf3, colStart_.data(), rowIndex_.data(), values_.data());
      if (!h.m) break;
      fs = nsd_factor_refactor(factor_, h.m, nullptr);
      if (fs == NSD_OK) break;
      if (fs != NSD_FAILED) break;
      shift = shift > 0.0 ? 10.0 * shift : 1e-10;
    }
    if (fs != NSD_OK) break;
    if (!base.empty()) shift *= 0.1;  // try less next time
    if (shift < 1e-10) shift = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const int pi = freeIndex_[i];
      if (pi >= 0)
        for (int a = 0; a < 3; ++a) rhs_[3 * pi + a] = -g_[3 * i + a];
    }
    if (nsd_factor_solve(factor_, rhs_.data()) != NSD_OK) break;
    std::fill(d_.begin(), d_.end(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const int pi = freeIndex_[i];
      if (pi >= 0)
        for (int a = 0; a < 3; ++a) d_[3 * i + a] = rhs_[3 * pi + a];
    }
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
  report.iterations = it;
  report.residual = residual;
  report.energyEnd = p.scale * psi;
  report.status = residual <= options.tolerance ? NSD_OK : NSD_MAX_ITERATIONS;
  if (p.h > 0.0)
    p.velocities(x, v);
  else
    std::copy(body.v.begin(), body.v.end(), v);
  report.bondUpdates = p.bondUpdates;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace nsdyn
