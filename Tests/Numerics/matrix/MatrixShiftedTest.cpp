// nsd_matrix_create_csc_shifted (a + shift I as CSC, written without a sort) against the
// triplet path it replaces, and the thread setting of the sparse Cholesky.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#ifndef NCOMPLEX
#define NCOMPLEX
#endif
#include <cs.h>

#include "matrix_test_util.hpp"

using namespace nsdyn::test;

namespace {

/// Triplets of a matrix's stored entries followed by (i, i, shift): the reference path.
struct Triplets {
  std::vector<int> i, j;
  std::vector<double> x;
  void add(int r, int c, double v) {
    i.push_back(r);
    j.push_back(c);
    x.push_back(v);
  }
};

/// Every stored entry of @p a (sparse-block: every entry of every stored block; CSC: every
/// stored entry, duplicates included; dense: the non-zeros), then the shifted diagonal; only
/// the entries with i >= j when @p lower.
Triplets stored_triplets(const NsdMatrix* a, double shift, bool lower) {
  Triplets t;
  if (a->storage == NSD_SPARSE_BLOCK) {
    const NsdSparseBlock* s = a->sbm;
    for (int bi = 0; bi < s->n_block_rows; ++bi) {
      int r0 = bi > 0 ? s->row_end[bi - 1] : 0, h = s->row_end[bi] - r0;
      for (int k = s->row_ptr[bi]; k < s->row_ptr[bi + 1]; ++k) {
        int bj = s->col_index[k], c0 = bj > 0 ? s->col_end[bj - 1] : 0;
        const double* blk = s->values + s->value_start[k];
        for (int jj = 0; jj < s->col_end[bj] - c0; ++jj)
          for (int ii = 0; ii < h; ++ii) t.add(r0 + ii, c0 + jj, blk[ii + jj * h]);
      }
    }
  } else if (a->storage == NSD_CSC) {
    const cs_di* c = a->csc;
    for (int j = 0; j < c->n; ++j)
      for (int q = c->p[j]; q < c->p[j + 1]; ++q) t.add(c->i[q], j, c->x[q]);
  } else {
    for (int j = 0; j < a->cols; ++j)
      for (int i = 0; i < a->rows; ++i)
        if (a->dense[i + j * a->rows] != 0.0) t.add(i, j, a->dense[i + j * a->rows]);
  }
  for (int i = 0; i < a->rows; ++i) t.add(i, i, shift);
  if (!lower) return t;
  Triplets kept;
  for (size_t k = 0; k < t.x.size(); ++k)
    if (t.i[k] >= t.j[k]) kept.add(t.i[k], t.j[k], t.x[k]);
  return kept;
}

/// nsd_matrix_create_csc_shifted(a, shift, lower) equals the triplet path bit for bit, for
/// both triangle choices, and its asymmetry equals nsd_matrix_asymmetry(a).
void assert_matches_triplets(const NsdMatrix* a, double shift, const std::string& what) {
  CPPUNIT_ASSERT_MESSAGE(what + ": input", a != nullptr);
  for (int lower = 0; lower < 2; ++lower) {
    std::string tag = what + (lower ? " (lower)" : " (whole)");
    double asym = -1.0;
    MatrixPtr got(nsd_matrix_create_csc_shifted(a, shift, lower, &asym));
    Triplets t = stored_triplets(a, shift, lower != 0);
    MatrixPtr want(nsd_matrix_create_csc_from_triplets(
        a->rows, a->cols, static_cast<int>(t.x.size()), t.i.data(), t.j.data(), t.x.data()));
    CPPUNIT_ASSERT_MESSAGE(tag + ": NULL", got && want);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(tag + ": storage", NSD_CSC, got->storage);
    const cs_di *g = got->csc, *w = want->csc;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(tag + ": n", w->n, g->n);
    int n = w->n, nz = w->p[n];
    CPPUNIT_ASSERT_EQUAL_MESSAGE(tag + ": nnz", nz, g->p[n]);
    CPPUNIT_ASSERT_MESSAGE(tag + ": column pointers",
                           std::memcmp(g->p, w->p, (n + 1) * sizeof(int)) == 0);
    CPPUNIT_ASSERT_MESSAGE(tag + ": row indices", std::memcmp(g->i, w->i, nz * sizeof(int)) == 0);
    CPPUNIT_ASSERT_MESSAGE(tag + ": values", std::memcmp(g->x, w->x, nz * sizeof(double)) == 0);
    double ref = nsd_matrix_asymmetry(a);
    if (std::isnan(ref))
      CPPUNIT_ASSERT_MESSAGE(tag + ": asymmetry NaN", std::isnan(asym));
    else
      CPPUNIT_ASSERT_EQUAL_MESSAGE(tag + ": asymmetry", ref, asym);
  }
}

/// Square reference of size n: random entries, then made symmetric up to @p noise.
Dense nearly_symmetric(Random& rng, int n, double density, double noise) {
  Dense d = rng.matrix(n, n, density);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < j; ++i) d(i, j) = d(j, i) + (d(j, i) != 0.0 ? noise * rng.uniform() : 0.0);
  return d;
}

}  // namespace

class MatrixShiftedTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MatrixShiftedTest);
  CPPUNIT_TEST(sparseBlockMatchesTriplets);
  CPPUNIT_TEST(cscAndDenseMatchTriplets);
  CPPUNIT_TEST(nanMakesAsymmetryNan);
  CPPUNIT_TEST(rejectsBadInput);
  CPPUNIT_TEST(choleskyThreadsGiveTheSameSolution);
  CPPUNIT_TEST_SUITE_END();

 public:
  /// Contact blocks of 3, blocks of mixed sizes, row and column blocks that do not line up,
  /// absent diagonal blocks, explicit zeros, shifts of both signs and zero.
  void sparseBlockMatchesTriplets() {
    Random rng(27);
    const std::vector<std::vector<int>> rows = {{3, 3, 3, 3, 3, 3}, {1, 2, 3, 2}, {2, 3, 1}, {4}};
    const std::vector<std::vector<int>> cols = {{3, 3, 3, 3, 3, 3}, {1, 2, 3, 2}, {3, 3}, {1, 3}};
    for (size_t c = 0; c < rows.size(); ++c)
      for (double density : {0.05, 0.3, 1.0})
        for (double noise : {0.0, 1e-14, 1.0})
          for (double shift : {0.0, 2.5, -1e-3}) {
            int n = 0;
            for (int s : rows[c]) n += s;
            Dense d = nearly_symmetric(rng, n, density, noise);
            MatrixPtr a = make_sbm(d, rows[c], cols[c]);
            assert_matches_triplets(a.get(), shift,
                                    "case " + std::to_string(c) + " density " +
                                        std::to_string(density) + " noise " +
                                        std::to_string(noise) + " shift " + std::to_string(shift));
          }
    // no stored block at all: the diagonal alone
    Dense zero(6, 6);
    MatrixPtr empty = make_sbm(zero, {3, 3}, {3, 3});
    CPPUNIT_ASSERT_EQUAL(0, empty->sbm->n_blocks);
    assert_matches_triplets(empty.get(), 4.0, "empty");
  }

  /// CSC with unsorted rows and duplicates (duplicates on the diagonal too), and dense input.
  void cscAndDenseMatchTriplets() {
    Random rng(1227);
    for (double density : {0.1, 0.5, 1.0}) {
      Dense d = nearly_symmetric(rng, 12, density, 1e-3);
      MatrixPtr csc = make_csc(d, rng.engine());
      // reverse each column's rows, then repeat a row: no longer canonical, still valid
      cs_di* c = csc->csc;
      for (int j = 0; j < c->n; ++j) {
        for (int p = c->p[j], q = c->p[j + 1] - 1; p < q; ++p, --q) {
          std::swap(c->i[p], c->i[q]);
          std::swap(c->x[p], c->x[q]);
        }
        if (c->p[j + 1] - c->p[j] >= 2) c->i[c->p[j]] = c->i[c->p[j] + 1];
      }
      if (c->p[1] > 0) c->i[c->p[0]] = 0;  // a diagonal entry given twice or more
      assert_matches_triplets(csc.get(), 0.75, "csc density " + std::to_string(density));
      MatrixPtr dense = make_dense(d);
      assert_matches_triplets(dense.get(), 0.75, "dense density " + std::to_string(density));
    }
  }

  void nanMakesAsymmetryNan() {
    Random rng(5);
    Dense d = nearly_symmetric(rng, 9, 1.0, 0.0);
    d(4, 1) = std::numeric_limits<double>::quiet_NaN();
    MatrixPtr sbm = make_sbm(d, {3, 3, 3}, {3, 3, 3});
    double asym = 0.0;
    MatrixPtr got(nsd_matrix_create_csc_shifted(sbm.get(), 1.0, 0, &asym));
    CPPUNIT_ASSERT(got);
    CPPUNIT_ASSERT(std::isnan(asym));
    MatrixPtr split = make_sbm(d, {4, 5}, {9});
    got.reset(nsd_matrix_create_csc_shifted(split.get(), 1.0, 1, &asym));
    CPPUNIT_ASSERT(got);
    CPPUNIT_ASSERT(std::isnan(asym));
  }

  void rejectsBadInput() {
    Random rng(9);
    double asym = 0.0;
    CPPUNIT_ASSERT(nsd_matrix_create_csc_shifted(nullptr, 1.0, 0, &asym) == nullptr);
    MatrixPtr wide = make_dense(rng.matrix(3, 4, 1.0));
    CPPUNIT_ASSERT(nsd_matrix_create_csc_shifted(wide.get(), 1.0, 0, &asym) == nullptr);
    MatrixPtr square = make_dense(rng.matrix(4, 4, 1.0));
    CPPUNIT_ASSERT(nsd_matrix_create_csc_shifted(square.get(), 1.0, 2, &asym) == nullptr);
    // a hand-edited block row naming one block column twice is refused, not mis-sorted
    Dense d = rng.matrix(6, 6, 1.0);
    MatrixPtr sbm = make_sbm(d, {3, 3}, {3, 3});
    sbm->sbm->col_index[1] = sbm->sbm->col_index[0];
    CPPUNIT_ASSERT(nsd_matrix_create_csc_shifted(sbm.get(), 1.0, 0, &asym) == nullptr);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_set_threads(nullptr, 1));
    MatrixPtr one = make_dense(Dense(1, 1));
    one->dense[0] = 2.0;
    NsdFactor* raw = nullptr;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_create(one.get(), NSD_FACTOR_CHOLESKY, &raw, nullptr));
    FactorPtr f(raw);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_set_threads(f.get(), -1));
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_set_threads(f.get(), 4));
  }

  /// A supernodal-size SPD matrix (B B^T + I, 3 x 3 contact blocks) analysed in place from
  /// its canonical CSC and factorised on one thread and with CHOLMOD's own threads: the same
  /// solution bit for bit, and the solution of the system.
  void choleskyThreadsGiveTheSameSolution() {
    Random rng(31);
    const int n = 240;
    Dense b = rng.matrix(n, n, 0.02);
    Dense a(n, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        double s = 0.0;
        for (int k = 0; k < n; ++k) s += b(i, k) * b(j, k);
        a(i, j) = s;
      }
    MatrixPtr sbm = make_sbm(a, std::vector<int>(n / 3, 3), std::vector<int>(n / 3, 3));
    MatrixPtr csc(nsd_matrix_create_csc_shifted(sbm.get(), 1.0, 1, nullptr));
    CPPUNIT_ASSERT(csc);
    std::vector<double> rhs = rng.vector(n), x[2];
    for (int t = 0; t < 2; ++t) {
      NsdFactor* raw = nullptr;
      CPPUNIT_ASSERT_EQUAL(NSD_OK,
                           nsd_factor_analyse(csc.get(), NSD_FACTOR_CHOLESKY, &raw, nullptr));
      FactorPtr f(raw);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_set_threads(f.get(), t == 0 ? 1 : 4));
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_refactor(f.get(), csc.get(), nullptr));
      x[t] = rhs;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_solve(f.get(), x[t].data()));
    }
    CPPUNIT_ASSERT(std::memcmp(x[0].data(), x[1].data(), n * sizeof(double)) == 0);
    // (A + I) x = rhs to round-off
    double worst = 0.0;
    for (int i = 0; i < n; ++i) {
      double s = x[0][i];
      for (int j = 0; j < n; ++j) s += a(i, j) * x[0][j];
      worst = std::max(worst, std::fabs(s - rhs[i]));
    }
    CPPUNIT_ASSERT_MESSAGE("residual " + std::to_string(worst), worst < 1e-10);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MatrixShiftedTest);
