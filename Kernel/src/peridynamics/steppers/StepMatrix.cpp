// The step matrix H = c M + K(x) of a peridynamic body, factored by CHOLMOD
// (peridynamics/steppers/StepMatrix.hpp).
#include "peridynamics/steppers/StepMatrix.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "mechanics/Threads.hpp"
#include "nsdyn/Error.hpp"
#include "nsdyn/PeridynamicBody.hpp"
#include "nsdyn/PeridynamicMaterial.hpp"
#include "nsdyn/nsd_matrix.h"

namespace nsdyn::peridynamics {

namespace {

constexpr int kMaxShifts = 30;

struct MatrixGuard {
  NsdMatrix* m = nullptr;
  ~MatrixGuard() { nsd_matrix_destroy(m); }
};

}  // namespace

StepMatrix::~StepMatrix() {
  nsd_factor_destroy(factor_);
}

void StepMatrix::buildPattern(const PeridynamicBody& body) {
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
  patternBody_ = &body;
  patternPoints_ = n;
  patternBonds_ = body.bondCount();
  patternFixed_ = body.prescribed;
  if (nf == 0) return;
  MatrixGuard h;
  h.m = nsd_matrix_create_csc(3 * nf, 3 * nf, colStart_.data(), rowIndex_.data(), values_.data());
  NsdReport report{};
  if (!h.m || nsd_factor_analyse(h.m, NSD_FACTOR_CHOLESKY, &factor_, &report) != NSD_OK) {
    patternBody_ = nullptr;
    throw Error("the step matrix of peridynamic body '" + body.name() + "'",
                "a symbolic Cholesky analysis", std::string("failure: ") + report.message);
  }
  ++analyses_;
}

void StepMatrix::ensurePattern(const PeridynamicBody& body) {
  if (patternBody_ != &body || patternPoints_ != body.size() || patternBonds_ != body.bondCount() ||
      patternFixed_ != body.prescribed || (!factor_ && !rowIndex_.empty()))
    buildPattern(body);
}

bool StepMatrix::factor(const PeridynamicBody& body, const double* x, double c, int threads) {
  const std::size_t n = body.size();
  ensurePattern(body);
  const int nf3 = freeDofs();
  if (nf3 <= 0) return true;
  const int nt = mechanics::threadsFor(threads, n);
  nsd_factor_set_threads(factor_, nt);
  K_.resize(9 * body.bondCount());
  diag_.resize(9 * n);
  body.material().tangent(body, x, K_.data(), diag_.data());
  bondUpdates_ = body.bondCount();
  const double* m = body.mass.data();
  const long nl = static_cast<long>(n);
  NSD_OMP(omp parallel for schedule(static) num_threads(nt))
  for (long i = 0; i < nl; ++i) {
    const int pi = freeIndex_[static_cast<std::size_t>(i)];
    if (pi < 0) continue;
    for (int a = 0; a < 3; ++a) {
      std::size_t k = static_cast<std::size_t>(colStart_[3 * pi + a]);
      for (int r = a; r < 3; ++r)
        values_[k++] = -diag_[9 * i + 3 * r + a] + (r == a ? c * m[i] : 0.0);
      for (std::uint32_t b = body.bondStart[i]; b < body.bondStart[i + 1]; ++b) {
        const int q = freeIndex_[body.neighbour[b]];
        if (q <= pi) continue;
        // H(3q + r, 3p + a) = −(∂f_j/∂x_i)[r][a] = −(∂f_i/∂x_j)[a][r] (symmetric tangent).
        for (int r = 0; r < 3; ++r) values_[k++] = -K_[9 * static_cast<std::size_t>(b) + 3 * a + r];
      }
    }
  }
  base_.clear();
  NsdStatus fs = NSD_FAILED;
  for (int attempt = 0; attempt <= kMaxShifts; ++attempt) {
    if (shift_ > 0.0) {
      if (base_.empty()) {
        base_.resize(static_cast<std::size_t>(nf3));
        for (int col = 0; col < nf3; ++col) base_[col] = values_[diagPos_[col]];
      }
      for (int col = 0; col < nf3; ++col)
        values_[diagPos_[col]] = base_[col] + shift_ * std::max(std::abs(base_[col]), 1e-300);
    }
    MatrixGuard h;
    h.m = nsd_matrix_create_csc(nf3, nf3, colStart_.data(), rowIndex_.data(), values_.data());
    if (!h.m) break;
    fs = nsd_factor_refactor(factor_, h.m, nullptr);
    if (fs != NSD_FAILED) break;
    shift_ = shift_ > 0.0 ? 10.0 * shift_ : 1e-10;
  }
  if (fs != NSD_OK) return false;
  if (!base_.empty()) shift_ *= 0.1;  // try less next time
  if (shift_ < 1e-10) shift_ = 0.0;
  return true;
}

bool StepMatrix::solve(double* b) {
  const int nf3 = freeDofs();
  const std::size_t n = freeIndex_.size();
  rhs_.resize(static_cast<std::size_t>(std::max(nf3, 0)));
  for (std::size_t i = 0; i < n; ++i) {
    const int pi = freeIndex_[i];
    if (pi >= 0)
      for (int a = 0; a < 3; ++a) rhs_[3 * static_cast<std::size_t>(pi) + a] = b[3 * i + a];
  }
  if (nf3 > 0 && nsd_factor_solve(factor_, rhs_.data()) != NSD_OK) return false;
  for (std::size_t i = 0; i < n; ++i) {
    const int pi = freeIndex_[i];
    for (int a = 0; a < 3; ++a)
      b[3 * i + a] = pi >= 0 ? rhs_[3 * static_cast<std::size_t>(pi) + a] : 0.0;
  }
  return true;
}

}  // namespace nsdyn::peridynamics
