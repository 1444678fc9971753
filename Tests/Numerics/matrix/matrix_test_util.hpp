// Helpers of the matrix tests: owning pointers, seeded random matrices in
// every storage, and a dense column-major reference to compare against.
#pragma once
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include <nsdyn/nsd_matrix.h>

namespace nsdyn::test {

struct MatrixDeleter {
  void operator()(NsdMatrix* a) const { nsd_matrix_destroy(a); }
};
using MatrixPtr = std::unique_ptr<NsdMatrix, MatrixDeleter>;

struct FactorDeleter {
  void operator()(NsdFactor* f) const { nsd_factor_destroy(f); }
};
using FactorPtr = std::unique_ptr<NsdFactor, FactorDeleter>;

/// Dense column-major reference matrix.
struct Dense {
  int rows = 0, cols = 0;
  std::vector<double> v;
  Dense(int r, int c) : rows(r), cols(c), v(static_cast<size_t>(r) * c, 0.0) {}
  double& operator()(int i, int j) { return v[i + static_cast<size_t>(j) * rows]; }
  double operator()(int i, int j) const { return v[i + static_cast<size_t>(j) * rows]; }
};

/// Uniform values in [-1, 1] from a fixed seed.
class Random {
 public:
  explicit Random(unsigned seed) : gen_(seed) {}
  double uniform() { return std::uniform_real_distribution<double>(-1.0, 1.0)(gen_); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(gen_) < p; }
  std::mt19937& engine() { return gen_; }
  std::vector<double> vector(int n) {
    std::vector<double> x(n);
    for (double& e : x) e = uniform();
    return x;
  }

  /// rows x cols matrix with a fraction @p density of non-zero entries.
  Dense matrix(int rows, int cols, double density) {
    Dense a(rows, cols);
    for (double& e : a.v)
      if (chance(density)) e = uniform();
    return a;
  }

 private:
  std::mt19937 gen_;
};

/// Entries of any NsdMatrix through nsd_matrix_get.
inline Dense entries(const NsdMatrix* a) {
  Dense d(a->rows, a->cols);
  for (int j = 0; j < a->cols; ++j)
    for (int i = 0; i < a->rows; ++i) d(i, j) = nsd_matrix_get(a, i, j);
  return d;
}

inline MatrixPtr make_dense(const Dense& a) {
  return MatrixPtr(nsd_matrix_create_dense_from(a.rows, a.cols, a.v.data()));
}

/// CSC from triplets in shuffled order, each non-zero split into two duplicates.
inline MatrixPtr make_csc(const Dense& a, std::mt19937& gen) {
  std::vector<int> ti, tj;
  std::vector<double> tx;
  for (int j = 0; j < a.cols; ++j)
    for (int i = 0; i < a.rows; ++i)
      if (a(i, j) != 0.0) {
        // x = 0.5 x + 0.5 x exactly in binary floating point
        for (int half = 0; half < 2; ++half) {
          ti.push_back(i);
          tj.push_back(j);
          tx.push_back(0.5 * a(i, j));
        }
      }
  std::vector<size_t> order(ti.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin(), order.end(), gen);
  std::vector<int> si, sj;
  std::vector<double> sx;
  for (size_t k : order) {
    si.push_back(ti[k]);
    sj.push_back(tj[k]);
    sx.push_back(tx[k]);
  }
  return MatrixPtr(nsd_matrix_create_csc_from_triplets(a.rows, a.cols, static_cast<int>(si.size()),
                                                       si.data(), sj.data(), sx.data()));
}

/// Cumulative ends of consecutive block sizes.
inline std::vector<int> ends(const std::vector<int>& sizes) {
  std::vector<int> e(sizes.size());
  std::partial_sum(sizes.begin(), sizes.end(), e.begin());
  return e;
}

/**
 * Sparse-block matrix with blocks of the given (possibly rectangular) sizes,
 * storing the blocks of @p a that hold a non-zero entry.
 */
inline MatrixPtr make_sbm(const Dense& a, const std::vector<int>& row_sizes,
                          const std::vector<int>& col_sizes) {
  std::vector<int> re = ends(row_sizes), ce = ends(col_sizes);
  int nr = static_cast<int>(re.size()), nc = static_cast<int>(ce.size());
  auto start = [](const std::vector<int>& e, int b) { return b > 0 ? e[b - 1] : 0; };
  std::vector<int> row_ptr{0}, col_index;
  for (int bi = 0; bi < nr; ++bi) {
    for (int bj = 0; bj < nc; ++bj) {
      bool any = false;
      for (int i = start(re, bi); i < re[bi]; ++i)
        for (int j = start(ce, bj); j < ce[bj]; ++j) any = any || a(i, j) != 0.0;
      if (any) col_index.push_back(bj);
    }
    row_ptr.push_back(static_cast<int>(col_index.size()));
  }
  MatrixPtr m(nsd_matrix_create_sparse_block(nr, nc, re.data(), ce.data(), row_ptr.data(),
                                             col_index.data()));
  if (!m) return m;
  for (int bi = 0; bi < nr; ++bi)
    for (int k = row_ptr[bi]; k < row_ptr[bi + 1]; ++k) {
      int bj = col_index[k];
      double* blk = nsd_matrix_sbm_block(m.get(), k);
      int h = re[bi] - start(re, bi);
      for (int j = start(ce, bj); j < ce[bj]; ++j)
        for (int i = start(re, bi); i < re[bi]; ++i)
          blk[(i - start(re, bi)) + (j - start(ce, bj)) * h] = a(i, j);
    }
  return m;
}

/// y = alpha op(A) x + beta y on the reference (transposed when @p trans).
inline std::vector<double> ref_gemv(double alpha, const Dense& a, const std::vector<double>& x,
                                    double beta, std::vector<double> y, bool trans) {
  int m = trans ? a.cols : a.rows, n = trans ? a.rows : a.cols;
  for (int i = 0; i < m; ++i) {
    double s = 0.0;
    for (int j = 0; j < n; ++j) s += (trans ? a(j, i) : a(i, j)) * x[j];
    y[i] = alpha * s + (beta == 0.0 ? 0.0 : beta * y[i]);
  }
  return y;
}

inline double norm_inf(const std::vector<double>& x) {
  double m = 0.0;
  for (double e : x) m = std::max(m, std::fabs(e));
  return m;
}

}  // namespace nsdyn::test
