// NsdMatrix: creation, access, products and conversions in the three storages,
// checked against a dense reference on seeded random matrices.
#include <cppunit/extensions/HelperMacros.h>

#include <climits>
#include <cmath>
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
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

/// The three storages of one random matrix, SBM with the given block sizes.
struct Trio {
  Dense ref;
  MatrixPtr dense, sbm, csc;
  MatrixPtr& operator[](int s) { return s == 0 ? dense : s == 1 ? sbm : csc; }
};

Trio make_trio(Random& rng, const std::vector<int>& row_sizes, const std::vector<int>& col_sizes,
               double density) {
  int rows = 0, cols = 0;
  for (int s : row_sizes) rows += s;
  for (int s : col_sizes) cols += s;
  Trio t{rng.matrix(rows, cols, density), nullptr, nullptr, nullptr};
  t.dense = make_dense(t.ref);
  t.sbm = make_sbm(t.ref, row_sizes, col_sizes);
  t.csc = make_csc(t.ref, rng.engine());
  return t;
}

/// Every entry of @p a equals the reference exactly.
void assert_entries(const Dense& ref, const NsdMatrix* a, const std::string& what) {
  CPPUNIT_ASSERT_MESSAGE(what + ": NULL matrix", a != nullptr);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": rows", ref.rows, a->rows);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": cols", ref.cols, a->cols);
  for (int j = 0; j < ref.cols; ++j)
    for (int i = 0; i < ref.rows; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(
          what + " (" + std::to_string(i) + "," + std::to_string(j) + ")", ref(i, j),
          nsd_matrix_get(a, i, j), 0.0);
}

/// CSC is canonical: rows sorted and distinct in each column, no explicit zeros.
void assert_canonical_csc(const NsdMatrix* a) {
  CPPUNIT_ASSERT_EQUAL(NSD_CSC, a->storage);
  const cs_di* c = a->csc;
  CPPUNIT_ASSERT_EQUAL(-1, c->nz);
  for (int j = 0; j < c->n; ++j)
    for (int q = c->p[j]; q < c->p[j + 1]; ++q) {
      CPPUNIT_ASSERT(c->x[q] != 0.0);
      if (q > c->p[j]) CPPUNIT_ASSERT(c->i[q] > c->i[q - 1]);
    }
}

const char* kStorageName[] = {"dense", "sbm", "csc"};
}  // namespace

class MatrixTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MatrixTest);
  CPPUNIT_TEST(createDenseLayouts);
  CPPUNIT_TEST(createRejectsBadSizes);
  CPPUNIT_TEST(tripletsSumDuplicatesAndSortRows);
  CPPUNIT_TEST(createCscSortsAndValidates);
  CPPUNIT_TEST(sparseBlockStructure);
  CPPUNIT_TEST(sparseBlockRejectsBadStructure);
  CPPUNIT_TEST(getOutOfRangeIsZero);
  CPPUNIT_TEST(gemvMatchesReference);
  CPPUNIT_TEST(gemvTransposedMatchesReference);
  CPPUNIT_TEST(gemvBetaZeroIgnoresNaN);
  CPPUNIT_TEST(gemvAlphaZeroScalesOnly);
  CPPUNIT_TEST(rowDotMatchesReference);
  CPPUNIT_TEST(conversionsRoundTripExactly);
  CPPUNIT_TEST(convertToSbmStoresNonZeroBlocksOnly);
  CPPUNIT_TEST(convertCscFromUnsortedDuplicates);
  CPPUNIT_TEST(convertRejectsBadArguments);
  CPPUNIT_TEST(diagonalAllStorages);
  CPPUNIT_TEST(diagonalBlockAllStorages);
  CPPUNIT_TEST(asymmetryAllStorages);
  CPPUNIT_TEST(nnzAndFiniteness);
  CPPUNIT_TEST(copyIsDeep);
  CPPUNIT_TEST(emptyMatrices);
  CPPUNIT_TEST(nullArgumentsAreHarmless);
  CPPUNIT_TEST_SUITE_END();

 public:
  void createDenseLayouts() {
    // [1 2 3; 4 5 6] given column-major and row-major
    const double cm[] = {1, 4, 2, 5, 3, 6}, rm[] = {1, 2, 3, 4, 5, 6};
    MatrixPtr a(nsd_matrix_create_dense_from(2, 3, cm)),
        b(nsd_matrix_create_dense_from_rows(2, 3, rm));
    MatrixPtr z(nsd_matrix_create_dense(2, 3));
    CPPUNIT_ASSERT(a && b && z);
    CPPUNIT_ASSERT_EQUAL(NSD_DENSE, a->storage);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) {
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 + 3 * i + j, nsd_matrix_get(a.get(), i, j), 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 + 3 * i + j, nsd_matrix_get(b.get(), i, j), 0.0);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(z.get(), i, j), 0.0);
      }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(6.0, b->dense[5], 0.0);
  }

  void createRejectsBadSizes() {
    const double v[] = {1, 2, 3, 4};
    CPPUNIT_ASSERT(!nsd_matrix_create_dense(-1, 2));
    CPPUNIT_ASSERT(!nsd_matrix_create_dense(2, -1));
    CPPUNIT_ASSERT(!nsd_matrix_create_dense(INT_MAX, INT_MAX));  // rows*cols*8 overflows
    CPPUNIT_ASSERT(!nsd_matrix_create_dense_from(2, 2, nullptr));
    CPPUNIT_ASSERT(!nsd_matrix_create_dense_from_rows(2, 2, nullptr));
    CPPUNIT_ASSERT(!nsd_matrix_create_dense_from(-2, 2, v));

    // triplets: index out of range, negative count, NULL arrays
    const int i[] = {0, 2}, j[] = {0, 1}, bad_j[] = {0, -1};
    const double x[] = {1, 2};
    CPPUNIT_ASSERT(!nsd_matrix_create_csc_from_triplets(2, 2, 2, i, j, x));
    CPPUNIT_ASSERT(!nsd_matrix_create_csc_from_triplets(3, 2, 2, i, bad_j, x));
    CPPUNIT_ASSERT(!nsd_matrix_create_csc_from_triplets(3, 2, -1, i, j, x));
    CPPUNIT_ASSERT(!nsd_matrix_create_csc_from_triplets(3, 2, 2, nullptr, j, x));
    CPPUNIT_ASSERT(!nsd_matrix_create_csc_from_triplets(-3, 2, 0, nullptr, nullptr, nullptr));
    MatrixPtr ok(nsd_matrix_create_csc_from_triplets(3, 2, 2, i, j, x));
    CPPUNIT_ASSERT(ok);
  }

  void tripletsSumDuplicatesAndSortRows() {
    // column 0: rows 2, 0, 2 (duplicate); column 2: rows 1, 0; column 1 empty
    const int i[] = {2, 1, 0, 2, 0};
    const int j[] = {0, 2, 0, 0, 2};
    const double x[] = {1.5, 4.0, 2.0, 0.25, -3.0};
    MatrixPtr a(nsd_matrix_create_csc_from_triplets(3, 3, 5, i, j, x));
    CPPUNIT_ASSERT(a);
    const cs_di* c = a->csc;
    CPPUNIT_ASSERT_EQUAL(-1, c->nz);
    const int p_expect[] = {0, 2, 2, 4}, i_expect[] = {0, 2, 0, 1};
    const double x_expect[] = {2.0, 1.75, -3.0, 4.0};
    for (int k = 0; k < 4; ++k) CPPUNIT_ASSERT_EQUAL(p_expect[k], c->p[k]);
    for (int k = 0; k < 4; ++k) {
      CPPUNIT_ASSERT_EQUAL(i_expect[k], c->i[k]);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(x_expect[k], c->x[k], 0.0);
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.75, nsd_matrix_get(a.get(), 2, 0), 0.0);
    CPPUNIT_ASSERT_EQUAL(size_t{4}, nsd_matrix_nnz(a.get()));
  }

  void createCscSortsAndValidates() {
    // [0 5; 7 0; 1 2] with rows unsorted in column 0
    const int p[] = {0, 2, 4}, i[] = {2, 1, 2, 0};
    const double x[] = {1, 7, 2, 5};
    MatrixPtr a(nsd_matrix_create_csc(3, 2, p, i, x));
    CPPUNIT_ASSERT(a);
    CPPUNIT_ASSERT(a->csc->i[0] < a->csc->i[1]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0, nsd_matrix_get(a.get(), 1, 0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0, nsd_matrix_get(a.get(), 0, 1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(a.get(), 0, 0), 0.0);

    const int p_bad0[] = {1, 2, 4}, p_decr[] = {0, 3, 2}, i_bad[] = {2, 1, 3, 0};
    CPPUNIT_ASSERT(!nsd_matrix_create_csc(3, 2, p_bad0, i, x));
    CPPUNIT_ASSERT(!nsd_matrix_create_csc(3, 2, p_decr, i, x));
    CPPUNIT_ASSERT(!nsd_matrix_create_csc(3, 2, p, i_bad, x));
    CPPUNIT_ASSERT(!nsd_matrix_create_csc(3, 2, nullptr, i, x));
    CPPUNIT_ASSERT(!nsd_matrix_create_csc(3, 2, p, i, nullptr));
  }

  void sparseBlockStructure() {
    // rows in blocks {2,1}, columns in blocks {1,3}; blocks (0,1) and (1,0)
    const int re[] = {2, 3}, ce[] = {1, 4}, rp[] = {0, 1, 2}, ci[] = {1, 0};
    MatrixPtr a(nsd_matrix_create_sparse_block(2, 2, re, ce, rp, ci));
    CPPUNIT_ASSERT(a);
    CPPUNIT_ASSERT_EQUAL(3, a->rows);
    CPPUNIT_ASSERT_EQUAL(4, a->cols);
    CPPUNIT_ASSERT_EQUAL(size_t{7}, nsd_matrix_nnz(a.get()));
    CPPUNIT_ASSERT_EQUAL(0, nsd_matrix_sbm_find(a.get(), 0, 1));
    CPPUNIT_ASSERT_EQUAL(1, nsd_matrix_sbm_find(a.get(), 1, 0));
    CPPUNIT_ASSERT_EQUAL(-1, nsd_matrix_sbm_find(a.get(), 0, 0));
    CPPUNIT_ASSERT_EQUAL(-1, nsd_matrix_sbm_find(a.get(), 2, 0));
    CPPUNIT_ASSERT_EQUAL(-1, nsd_matrix_sbm_find(a.get(), 0, -1));

    // block (0,1) is 2 x 3, column-major
    double* b01 = nsd_matrix_sbm_block(a.get(), 0);
    for (int k = 0; k < 6; ++k) b01[k] = 10 + k;
    nsd_matrix_sbm_block(a.get(), 1)[0] = -1;
    CPPUNIT_ASSERT(!nsd_matrix_sbm_block(a.get(), 2));
    CPPUNIT_ASSERT(!nsd_matrix_sbm_block(a.get(), -1));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(10.0, nsd_matrix_get(a.get(), 0, 1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(11.0, nsd_matrix_get(a.get(), 1, 1), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(14.0, nsd_matrix_get(a.get(), 0, 3), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(15.0, nsd_matrix_get(a.get(), 1, 3), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, nsd_matrix_get(a.get(), 2, 0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(a.get(), 0, 0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(a.get(), 2, 2), 0.0);

    // a dense or CSC matrix is not sparse-block
    MatrixPtr d(nsd_matrix_create_dense(2, 2));
    CPPUNIT_ASSERT(!nsd_matrix_sbm_block(d.get(), 0));
    CPPUNIT_ASSERT_EQUAL(-1, nsd_matrix_sbm_find(d.get(), 0, 0));
  }

  void sparseBlockRejectsBadStructure() {
    const int re[] = {2, 3}, ce[] = {1, 4}, rp[] = {0, 1, 2}, ci[] = {1, 0};
    const int re_flat[] = {2, 2}, ce_zero[] = {0, 4}, rp_decr[] = {0, 2, 1};
    const int rp_two[] = {0, 2, 2}, ci_unsorted[] = {1, 0}, ci_range[] = {2, 0};
    CPPUNIT_ASSERT(!nsd_matrix_create_sparse_block(2, 2, re_flat, ce, rp, ci));
    CPPUNIT_ASSERT(!nsd_matrix_create_sparse_block(2, 2, re, ce_zero, rp, ci));
    CPPUNIT_ASSERT(!nsd_matrix_create_sparse_block(2, 2, re, ce, rp_decr, ci));
    CPPUNIT_ASSERT(!nsd_matrix_create_sparse_block(2, 2, re, ce, rp_two, ci_unsorted));
    CPPUNIT_ASSERT(!nsd_matrix_create_sparse_block(2, 2, re, ce, rp, ci_range));
    CPPUNIT_ASSERT(!nsd_matrix_create_sparse_block(-1, 2, re, ce, rp, ci));
    CPPUNIT_ASSERT(!nsd_matrix_create_sparse_block(2, 2, nullptr, ce, rp, ci));
    CPPUNIT_ASSERT(!nsd_matrix_create_sparse_block(2, 2, re, ce, nullptr, ci));
    CPPUNIT_ASSERT(!nsd_matrix_create_sparse_block(2, 2, re, ce, rp, nullptr));
  }

  void getOutOfRangeIsZero() {
    Random rng(7);
    Trio t = make_trio(rng, {2, 3}, {3, 1}, 1.0);
    for (int s = 0; s < 3; ++s) {
      const NsdMatrix* a = t[s].get();
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(a, -1, 0), 0.0);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(a, 0, -1), 0.0);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(a, 5, 0), 0.0);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(a, 0, 4), 0.0);
      assert_entries(t.ref, a, kStorageName[s]);
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(nullptr, 0, 0), 0.0);
  }

  void gemvMatchesReference() { checkGemv(false); }
  void gemvTransposedMatchesReference() { checkGemv(true); }

  void gemvBetaZeroIgnoresNaN() {
    Random rng(11);
    Trio t = make_trio(rng, {3, 2, 4}, {2, 2, 1}, 0.6);
    std::vector<double> x = rng.vector(t.ref.cols), xt = rng.vector(t.ref.rows);
    for (int s = 0; s < 3; ++s) {
      std::vector<double> y(t.ref.rows, kNaN), yt(t.ref.cols, kNaN);
      nsd_matrix_gemv(1.5, t[s].get(), x.data(), 0.0, y.data());
      nsd_matrix_gemv_t(-0.5, t[s].get(), xt.data(), 0.0, yt.data());
      std::vector<double> e = ref_gemv(1.5, t.ref, x, 0.0, std::vector<double>(t.ref.rows), false);
      std::vector<double> et =
          ref_gemv(-0.5, t.ref, xt, 0.0, std::vector<double>(t.ref.cols), true);
      for (int i = 0; i < t.ref.rows; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(e[i], y[i], 1e-14);
      for (int j = 0; j < t.ref.cols; ++j) CPPUNIT_ASSERT_DOUBLES_EQUAL(et[j], yt[j], 1e-14);
    }
  }

  void gemvAlphaZeroScalesOnly() {
    // alpha = 0: A and x are not read (NaN in x stays out of y)
    Random rng(12);
    Trio t = make_trio(rng, {2, 2}, {3}, 1.0);
    std::vector<double> x(3, kNaN);
    for (int s = 0; s < 3; ++s) {
      std::vector<double> y{1, 2, 3, 4};
      nsd_matrix_gemv(0.0, t[s].get(), x.data(), 2.0, y.data());
      for (int i = 0; i < 4; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 * (i + 1), y[i], 0.0);
    }
  }

  void rowDotMatchesReference() {
    Random rng(13);
    Trio t = make_trio(rng, {1, 3, 2}, {2, 4, 1}, 0.5);
    std::vector<double> x = rng.vector(t.ref.cols);
    for (int s = 0; s < 3; ++s)
      for (int i = 0; i < t.ref.rows; ++i) {
        double e = 0.0;
        for (int j = 0; j < t.ref.cols; ++j) e += t.ref(i, j) * x[j];
        CPPUNIT_ASSERT_DOUBLES_EQUAL(e, nsd_matrix_row_dot(t[s].get(), i, x.data()), 1e-14);
      }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_row_dot(t.dense.get(), 6, x.data()), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_row_dot(t.dense.get(), -1, x.data()), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_row_dot(nullptr, 0, x.data()), 0.0);
  }

  void conversionsRoundTripExactly() {
    // 12 x 9: square blocks of 3 fit; the SBM source has rectangular blocks
    Random rng(17);
    for (double density : {0.0, 0.15, 0.5, 1.0}) {
      Trio t = make_trio(rng, {2, 4, 1, 5}, {3, 2, 4}, density);
      for (int from = 0; from < 3; ++from)
        for (int to = 0; to < 3; ++to) {
          std::string what = std::string(kStorageName[from]) + "->" + kStorageName[to] +
                             " density " + std::to_string(density);
          MatrixPtr b(nsd_matrix_convert(t[from].get(), static_cast<NsdStorage>(to), 3));
          CPPUNIT_ASSERT_MESSAGE(what, b);
          CPPUNIT_ASSERT_EQUAL_MESSAGE(what, to, static_cast<int>(b->storage));
          assert_entries(t.ref, b.get(), what);
          if (to == NSD_CSC) assert_canonical_csc(b.get());
          // and back to the source storage
          MatrixPtr c(nsd_matrix_convert(b.get(), static_cast<NsdStorage>(from), 3));
          assert_entries(t.ref, c.get(), what + " and back");
        }
    }
  }

  void convertToSbmStoresNonZeroBlocksOnly() {
    // 6 x 6, blocks of 2: non-zeros only in blocks (0,0), (0,2) and (2,1)
    Dense ref(6, 6);
    ref(0, 0) = 1;
    ref(1, 5) = 2;
    ref(4, 3) = 3;
    ref(5, 2) = kNaN;  // a NaN is a stored value, not a zero
    MatrixPtr d = make_dense(ref);
    MatrixPtr s(nsd_matrix_convert(d.get(), NSD_SPARSE_BLOCK, 2));
    CPPUNIT_ASSERT(s);
    CPPUNIT_ASSERT_EQUAL(3, s->sbm->n_block_rows);
    CPPUNIT_ASSERT_EQUAL(3, s->sbm->n_blocks);
    CPPUNIT_ASSERT_EQUAL(0, nsd_matrix_sbm_find(s.get(), 0, 0));
    CPPUNIT_ASSERT_EQUAL(1, nsd_matrix_sbm_find(s.get(), 0, 2));
    CPPUNIT_ASSERT_EQUAL(2, nsd_matrix_sbm_find(s.get(), 2, 1));
    CPPUNIT_ASSERT_EQUAL(-1, nsd_matrix_sbm_find(s.get(), 1, 1));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, nsd_matrix_sbm_block(s.get(), 1)[3], 0.0);  // local (1,1)
    CPPUNIT_ASSERT(std::isnan(nsd_matrix_get(s.get(), 5, 2)));
    CPPUNIT_ASSERT_EQUAL(0, nsd_matrix_is_finite(s.get()));
  }

  void convertCscFromUnsortedDuplicates() {
    // a CSC the caller built by hand, unsorted, with a duplicate and an explicit zero
    const int p[] = {0, 3, 4}, i[] = {1, 0, 1, 0};
    const double x[] = {2, 5, 1, 0};
    MatrixPtr a(nsd_matrix_create_csc(2, 2, p, i, x));
    CPPUNIT_ASSERT(a);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, nsd_matrix_get(a.get(), 1, 0), 0.0);
    MatrixPtr c(nsd_matrix_convert(a.get(), NSD_CSC, 0));
    CPPUNIT_ASSERT(c);
    assert_canonical_csc(c.get());
    CPPUNIT_ASSERT_EQUAL(size_t{2}, nsd_matrix_nnz(c.get()));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0, nsd_matrix_get(c.get(), 0, 0), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0, nsd_matrix_get(c.get(), 1, 0), 0.0);
  }

  void convertRejectsBadArguments() {
    MatrixPtr a(nsd_matrix_create_dense(6, 4));
    CPPUNIT_ASSERT(!nsd_matrix_convert(a.get(), NSD_SPARSE_BLOCK, 0));
    CPPUNIT_ASSERT(!nsd_matrix_convert(a.get(), NSD_SPARSE_BLOCK, -2));
    CPPUNIT_ASSERT(!nsd_matrix_convert(a.get(), NSD_SPARSE_BLOCK, 3));  // 4 % 3 != 0
    CPPUNIT_ASSERT(!nsd_matrix_convert(a.get(), static_cast<NsdStorage>(7), 2));
    CPPUNIT_ASSERT(!nsd_matrix_convert(nullptr, NSD_DENSE, 0));
    MatrixPtr s(nsd_matrix_convert(a.get(), NSD_SPARSE_BLOCK, 2));
    CPPUNIT_ASSERT(s);
    CPPUNIT_ASSERT_EQUAL(0, s->sbm->n_blocks);
  }

  void diagonalAllStorages() {
    Random rng(19);
    for (bool wide : {false, true}) {
      Trio t =
          wide ? make_trio(rng, {2, 3}, {4, 1, 3}, 0.7) : make_trio(rng, {3, 1, 4}, {2, 3}, 0.7);
      int m = std::min(t.ref.rows, t.ref.cols);
      for (int s = 0; s < 3; ++s) {
        std::vector<double> d(m, kNaN);
        nsd_matrix_diagonal(t[s].get(), d.data());
        for (int k = 0; k < m; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(t.ref(k, k), d[k], 0.0);
      }
    }
  }

  void diagonalBlockAllStorages() {
    // 9 x 9 with blocks {2,3,4}: windows cross block boundaries
    Random rng(23);
    Trio t = make_trio(rng, {2, 3, 4}, {2, 3, 4}, 0.6);
    for (int start = 0; start < 9; ++start)
      for (int size = 0; start + size <= 9; ++size)
        for (int s = 0; s < 3; ++s) {
          std::vector<double> out(size * size + 1, kNaN);
          CPPUNIT_ASSERT_EQUAL(NSD_OK,
                               nsd_matrix_diagonal_block(t[s].get(), start, size, out.data()));
          for (int j = 0; j < size; ++j)
            for (int i = 0; i < size; ++i)
              CPPUNIT_ASSERT_DOUBLES_EQUAL(t.ref(start + i, start + j), out[i + j * size], 0.0);
        }
    double out[16];
    for (int s = 0; s < 3; ++s) {
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_matrix_diagonal_block(t[s].get(), 7, 3, out));
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_matrix_diagonal_block(t[s].get(), -1, 2, out));
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_matrix_diagonal_block(t[s].get(), 0, -2, out));
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_matrix_diagonal_block(t[s].get(), 0, 2, nullptr));
    }
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_matrix_diagonal_block(nullptr, 0, 1, out));
    // rectangular: the block must fit both ways
    Trio r = make_trio(rng, {3}, {2, 3}, 1.0);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_matrix_diagonal_block(r.sbm.get(), 1, 2, out));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_matrix_diagonal_block(r.sbm.get(), 2, 2, out));
  }

  void asymmetryAllStorages() {
    // symmetric S, then S with entry (4,1) changed by 0.75
    Random rng(29);
    Dense a = rng.matrix(8, 8, 0.5);
    Dense sym(8, 8);
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) sym(i, j) = a(i, j) + a(j, i);
    Dense skew = sym;
    skew(4, 1) += 0.75;
    for (const Dense* m : {&sym, &skew}) {
      double expect = m == &sym ? 0.0 : std::fabs(skew(4, 1) - skew(1, 4));
      MatrixPtr d = make_dense(*m), s = make_sbm(*m, {3, 2, 3}, {3, 2, 3}),
                c = make_csc(*m, rng.engine());
      CPPUNIT_ASSERT_DOUBLES_EQUAL(expect, nsd_matrix_asymmetry(d.get()), 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(expect, nsd_matrix_asymmetry(s.get()), 1e-15);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(expect, nsd_matrix_asymmetry(c.get()), 1e-15);
    }
    // one-sided entry: (0,7) stored, (7,0) absent in every sparse storage
    Dense one(8, 8);
    one(0, 7) = -2.5;
    MatrixPtr s1 = make_sbm(one, {4, 4}, {4, 4}), c1 = make_csc(one, rng.engine());
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, nsd_matrix_asymmetry(s1.get()), 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.5, nsd_matrix_asymmetry(c1.get()), 0.0);

    Trio r = make_trio(rng, {2}, {3}, 1.0);
    for (int s = 0; s < 3; ++s) CPPUNIT_ASSERT_EQUAL(kInf, nsd_matrix_asymmetry(r[s].get()));
    CPPUNIT_ASSERT_EQUAL(kInf, nsd_matrix_asymmetry(nullptr));
  }

  void nnzAndFiniteness() {
    Dense ref(4, 6);
    ref(0, 0) = 1;
    ref(3, 5) = 2;
    ref(2, 1) = 3;
    MatrixPtr d = make_dense(ref), s = make_sbm(ref, {2, 2}, {3, 3});
    Random rng(31);
    MatrixPtr c = make_csc(ref, rng.engine());
    CPPUNIT_ASSERT_EQUAL(size_t{24}, nsd_matrix_nnz(d.get()));
    CPPUNIT_ASSERT_EQUAL(size_t{18}, nsd_matrix_nnz(s.get()));  // blocks (0,0), (1,0), (1,1)
    CPPUNIT_ASSERT_EQUAL(size_t{3}, nsd_matrix_nnz(c.get()));
    CPPUNIT_ASSERT_EQUAL(size_t{0}, nsd_matrix_nnz(nullptr));
    CPPUNIT_ASSERT_EQUAL(1, nsd_matrix_is_finite(d.get()));
    CPPUNIT_ASSERT_EQUAL(1, nsd_matrix_is_finite(s.get()));
    CPPUNIT_ASSERT_EQUAL(1, nsd_matrix_is_finite(c.get()));
    CPPUNIT_ASSERT_EQUAL(0, nsd_matrix_is_finite(nullptr));

    d->dense[7] = kInf;
    nsd_matrix_sbm_block(s.get(), 2)[4] = kNaN;
    c->csc->x[1] = -kInf;
    CPPUNIT_ASSERT_EQUAL(0, nsd_matrix_is_finite(d.get()));
    CPPUNIT_ASSERT_EQUAL(0, nsd_matrix_is_finite(s.get()));
    CPPUNIT_ASSERT_EQUAL(0, nsd_matrix_is_finite(c.get()));
  }

  void copyIsDeep() {
    Random rng(37);
    Trio t = make_trio(rng, {2, 3}, {3, 2}, 0.8);
    for (int s = 0; s < 3; ++s) {
      MatrixPtr b(nsd_matrix_copy(t[s].get()));
      CPPUNIT_ASSERT(b);
      CPPUNIT_ASSERT_EQUAL(static_cast<int>(t[s]->storage), static_cast<int>(b->storage));
      assert_entries(t.ref, b.get(), std::string("copy of ") + kStorageName[s]);
    }
    // changing the original leaves the copies alone
    MatrixPtr bd(nsd_matrix_copy(t.dense.get())), bs(nsd_matrix_copy(t.sbm.get()));
    MatrixPtr bc(nsd_matrix_copy(t.csc.get()));
    t.dense->dense[0] += 1.0;
    nsd_matrix_sbm_block(t.sbm.get(), 0)[0] += 1.0;
    t.csc->csc->x[0] += 1.0;
    assert_entries(t.ref, bd.get(), "dense copy after change");
    assert_entries(t.ref, bs.get(), "sbm copy after change");
    assert_entries(t.ref, bc.get(), "csc copy after change");
    CPPUNIT_ASSERT(!nsd_matrix_copy(nullptr));
  }

  void emptyMatrices() {
    // 0 x 0 and 0 x n matrices are valid; products leave y alone or zero it
    MatrixPtr d(nsd_matrix_create_dense(0, 0));
    CPPUNIT_ASSERT(d);
    MatrixPtr c(nsd_matrix_create_csc_from_triplets(0, 3, 0, nullptr, nullptr, nullptr));
    CPPUNIT_ASSERT(c);
    MatrixPtr s(nsd_matrix_create_sparse_block(0, 0, nullptr, nullptr, std::vector<int>{0}.data(),
                                               nullptr));
    CPPUNIT_ASSERT(s);
    CPPUNIT_ASSERT_EQUAL(size_t{0}, nsd_matrix_nnz(s.get()));
    std::vector<double> y{kNaN, kNaN, kNaN};
    nsd_matrix_gemv_t(1.0, c.get(), nullptr, 0.0, y.data());
    for (double e : y) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, e, 0.0);
    for (int to = 0; to < 3; ++to) {
      MatrixPtr b(nsd_matrix_convert(c.get(), static_cast<NsdStorage>(to), 1));
      CPPUNIT_ASSERT(b);
      CPPUNIT_ASSERT_EQUAL(3, b->cols);
    }
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_asymmetry(d.get()), 0.0);
  }

  void nullArgumentsAreHarmless() {
    // void functions ignore NULL; nothing is written
    MatrixPtr a(nsd_matrix_create_dense(2, 2));
    double y[2] = {1, 1};
    nsd_matrix_gemv(1.0, nullptr, y, 0.0, y);
    nsd_matrix_gemv(1.0, a.get(), nullptr, 0.0, y);
    nsd_matrix_gemv_t(1.0, a.get(), y, 0.0, nullptr);
    nsd_matrix_diagonal(nullptr, y);
    nsd_matrix_diagonal(a.get(), nullptr);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, y[0], 0.0);
    nsd_matrix_destroy(nullptr);

    // a hand-made matrix whose storage pointer is missing is rejected everywhere
    NsdMatrix broken{};
    broken.storage = NSD_CSC;
    broken.rows = broken.cols = 2;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_get(&broken, 0, 0), 0.0);
    CPPUNIT_ASSERT_EQUAL(size_t{0}, nsd_matrix_nnz(&broken));
    CPPUNIT_ASSERT(!nsd_matrix_copy(&broken));
    CPPUNIT_ASSERT(!nsd_matrix_convert(&broken, NSD_DENSE, 0));
    nsd_matrix_gemv(1.0, &broken, y, 0.0, y);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, y[0], 0.0);
  }

 private:
  /// Random rectangular matrices with rectangular blocks, every storage, several alpha/beta.
  void checkGemv(bool trans) {
    Random rng(trans ? 5 : 3);
    const std::vector<std::vector<int>> shapes[] = {
        {{2, 3, 2}, {3, 1, 4, 3}}, {{5, 1}, {2}}, {{3, 3, 3}, {3, 3, 3}}, {{1}, {1, 1, 1, 1, 1}}};
    const double coefs[][2] = {{1.0, 0.0}, {1.0, 1.0}, {-0.7, 2.5}, {2.0, -1.0}};
    for (const auto& shape : shapes)
      for (double density : {0.2, 0.6, 1.0}) {
        Trio t = make_trio(rng, shape[0], shape[1], density);
        int nx = trans ? t.ref.rows : t.ref.cols, ny = trans ? t.ref.cols : t.ref.rows;
        std::vector<double> x = rng.vector(nx), y0 = rng.vector(ny);
        for (const auto& ab : coefs) {
          std::vector<double> e = ref_gemv(ab[0], t.ref, x, ab[1], y0, trans);
          double tol = 1e-14 * (1.0 + norm_inf(e)) * nx;
          for (int s = 0; s < 3; ++s) {
            std::vector<double> y = y0;
            if (trans)
              nsd_matrix_gemv_t(ab[0], t[s].get(), x.data(), ab[1], y.data());
            else
              nsd_matrix_gemv(ab[0], t[s].get(), x.data(), ab[1], y.data());
            for (int i = 0; i < ny; ++i)
              CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(kStorageName[s], e[i], y[i], tol);
          }
        }
      }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MatrixTest);
