// NsdFactor: LU and Cholesky in every storage solve random systems to 1e-12
// relative; singular and indefinite matrices and bad arguments are refused.
// nsd_factor_analyse / nsd_factor_refactor reuse one analysis for new values
// on the same pattern and refuse another pattern.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "matrix_test_util.hpp"

using namespace nsdyn::test;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The matrix of @p ref in storage s (0 dense, 1 SBM with blocks of 3 or 1, 2 CSC).
MatrixPtr in_storage(const Dense& ref, int s, Random& rng) {
  if (s == 0) return make_dense(ref);
  if (s == 2) return make_csc(ref, rng.engine());
  int bs = ref.rows % 3 == 0 ? 3 : 1;
  return make_sbm(ref, std::vector<int>(ref.rows / bs, bs), std::vector<int>(ref.cols / bs, bs));
}

/// Well-conditioned general matrix: sparse random part plus a dominant diagonal.
Dense general_matrix(Random& rng, int n, double density) {
  Dense a = rng.matrix(n, n, density);
  for (int k = 0; k < n; ++k) a(k, k) += (k % 2 ? -1.0 : 1.0) * (2.0 + std::sqrt(density * n));
  return a;
}

/// SPD matrix B B^T + n I with B sparse random.
Dense spd_matrix(Random& rng, int n, double density) {
  Dense b = rng.matrix(n, n, density), a(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < n; ++k) s += b(i, k) * b(j, k);
      a(i, j) = s;
    }
  for (int k = 0; k < n; ++k) a(k, k) += 1.0 + density * n;
  return a;
}

/// Factorise, solve A x = A x_true and check x to @p tol relative.
void check_solve(const Dense& ref, const NsdMatrix* a, NsdFactorKind kind, Random& rng,
                 const std::string& what) {
  NsdFactor* raw = nullptr;
  NsdReport rep{};
  NsdStatus st = nsd_factor_create(a, kind, &raw, &rep);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + rep.message, NSD_OK, st);
  FactorPtr f(raw);
  std::vector<double> x = rng.vector(ref.cols), b(ref.rows, 0.0);
  b = ref_gemv(1.0, ref, x, 0.0, b, false);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_OK, nsd_factor_solve(f.get(), b.data()));
  std::vector<double> err(x.size());
  for (size_t k = 0; k < x.size(); ++k) err[k] = b[k] - x[k];
  CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, 0.0, norm_inf(err) / norm_inf(x), 1e-12);
}

/// The factorisation fails with NSD_FAILED and a message holding @p needle.
void check_refused(const NsdMatrix* a, NsdFactorKind kind, const char* needle,
                   const std::string& what) {
  NsdFactor* f = reinterpret_cast<NsdFactor*>(&f);  // must be reset to NULL
  NsdReport rep{};
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_FAILED, nsd_factor_create(a, kind, &f, &rep));
  CPPUNIT_ASSERT_MESSAGE(what, f == nullptr);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_FAILED, rep.status);
  CPPUNIT_ASSERT_MESSAGE(what + ": message '" + rep.message + "' lacks '" + needle + "'",
                         std::strstr(rep.message, needle) != nullptr);
  // the report is optional
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_FAILED, nsd_factor_create(a, kind, &f, nullptr));
  CPPUNIT_ASSERT_MESSAGE(what, f == nullptr);
}

/// Solve with @p f and check x to 1e-12 relative against the reference @p ref.
void check_factor_solves(const Dense& ref, const NsdFactor* f, Random& rng,
                         const std::string& what) {
  std::vector<double> x = rng.vector(ref.cols);
  std::vector<double> b = ref_gemv(1.0, ref, x, 0.0, std::vector<double>(ref.rows, 0.0), false);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_OK, nsd_factor_solve(f, b.data()));
  std::vector<double> err(x.size());
  for (size_t k = 0; k < x.size(); ++k) err[k] = b[k] - x[k];
  CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, 0.0, norm_inf(err) / norm_inf(x), 1e-12);
}

/// D A D with D a random positive diagonal: the non-zeros of @p a stay where they are
/// (and an SPD matrix stays SPD), every value changes.
Dense rescaled(const Dense& a, Random& rng) {
  std::vector<double> d(a.rows);
  for (double& v : d) v = 1.0 + 0.5 * rng.uniform();
  Dense b = a;
  for (int j = 0; j < a.cols; ++j)
    for (int i = 0; i < a.rows; ++i) b(i, j) = d[i] * a(i, j) * d[j];
  return b;
}

/// Canonical CSC storing every entry where @p mask is non-zero, with the values of @p a there
/// (explicit zeros where a is zero).
MatrixPtr csc_on_mask(const Dense& a, const Dense& mask) {
  std::vector<int> p(1, 0), i;
  std::vector<double> x;
  for (int j = 0; j < a.cols; ++j) {
    for (int r = 0; r < a.rows; ++r)
      if (mask(r, j) != 0.0) {
        i.push_back(r);
        x.push_back(a(r, j));
      }
    p.push_back(static_cast<int>(i.size()));
  }
  return MatrixPtr(nsd_matrix_create_csc(a.rows, a.cols, p.data(), i.data(), x.data()));
}

const char* kStorageName[] = {"dense", "sbm", "csc"};
const char* kNotPd = "not positive definite";
}  // namespace

class MatrixFactorTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(MatrixFactorTest);
  CPPUNIT_TEST(luSolvesGeneralSystems);
  CPPUNIT_TEST(choleskySolvesSpdSystems);
  CPPUNIT_TEST(factorSolvesRepeatedly);
  CPPUNIT_TEST(luDetectsSingular);
  CPPUNIT_TEST(choleskyDetectsIndefinite);
  CPPUNIT_TEST(choleskyDetectsSemidefinite);
  CPPUNIT_TEST(rejectsBadArguments);
  CPPUNIT_TEST(emptySystem);
  CPPUNIT_TEST(refactorSolvesNewValues);
  CPPUNIT_TEST(refactorKeepsExplicitZeros);
  CPPUNIT_TEST(refactorRejectsOtherPattern);
  CPPUNIT_TEST(refactorSingularThenRecovers);
  CPPUNIT_TEST_SUITE_END();

 public:
  void luSolvesGeneralSystems() {
    Random rng(101);
    for (int n : {1, 3, 12, 60})
      for (double density : {0.1, 1.0})
        for (int s = 0; s < 3; ++s) {
          Dense ref = general_matrix(rng, n, density);
          MatrixPtr a = in_storage(ref, s, rng);
          check_solve(ref, a.get(), NSD_FACTOR_LU, rng,
                      std::string("LU ") + kStorageName[s] + " n=" + std::to_string(n));
        }
  }

  void choleskySolvesSpdSystems() {
    Random rng(103);
    for (int n : {1, 3, 12, 60, 150})
      for (double density : {0.05, 1.0})
        for (int s = 0; s < 3; ++s) {
          Dense ref = spd_matrix(rng, n, density);
          MatrixPtr a = in_storage(ref, s, rng);
          check_solve(ref, a.get(), NSD_FACTOR_CHOLESKY, rng,
                      std::string("Cholesky ") + kStorageName[s] + " n=" + std::to_string(n));
        }
  }

  void factorSolvesRepeatedly() {
    // one factor, several right-hand sides; the factor is not changed by solving
    Random rng(107);
    Dense ref = spd_matrix(rng, 9, 0.3);
    for (int s = 0; s < 3; ++s) {
      MatrixPtr a = in_storage(ref, s, rng);
      for (NsdFactorKind kind : {NSD_FACTOR_LU, NSD_FACTOR_CHOLESKY}) {
        NsdFactor* raw = nullptr;
        CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_create(a.get(), kind, &raw, nullptr));
        FactorPtr f(raw);
        for (int r = 0; r < 3; ++r) {
          std::vector<double> x = rng.vector(9);
          std::vector<double> b = ref_gemv(1.0, ref, x, 0.0, std::vector<double>(9), false);
          CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_solve(f.get(), b.data()));
          for (int k = 0; k < 9; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(x[k], b[k], 1e-12);
        }
      }
    }
  }

  void luDetectsSingular() {
    Random rng(109);
    for (int s = 0; s < 3; ++s) {
      std::string name = kStorageName[s];
      // a zero row (exact zero pivot)
      Dense zr = general_matrix(rng, 6, 1.0);
      for (int j = 0; j < 6; ++j) zr(4, j) = 0.0;
      check_refused(in_storage(zr, s, rng).get(), NSD_FACTOR_LU, "singular", name + " zero row");
      // a zero column
      Dense zc = general_matrix(rng, 6, 1.0);
      for (int i = 0; i < 6; ++i) zc(i, 2) = 0.0;
      check_refused(in_storage(zc, s, rng).get(), NSD_FACTOR_LU, "column", name + " zero column");
      // column 5 = column 1 + column 3: singular only up to rounding
      Dense dep = general_matrix(rng, 6, 1.0);
      for (int i = 0; i < 6; ++i) dep(i, 5) = dep(i, 1) + dep(i, 3);
      check_refused(in_storage(dep, s, rng).get(), NSD_FACTOR_LU, "column",
                    name + " dependent columns");
      // [1 2 3; 4 5 6; 7 8 9]: the classic rank-2 matrix
      Dense c3(3, 3);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) c3(i, j) = 1.0 + 3 * i + j;
      check_refused(in_storage(c3, s, rng).get(), NSD_FACTOR_LU, "singular", name + " 3x3 rank 2");
    }
  }

  void choleskyDetectsIndefinite() {
    Random rng(113);
    for (int s = 0; s < 3; ++s) {
      std::string name = kStorageName[s];
      // [1 2; 2 1]: non-zero pivots, eigenvalues 3 and -1 (LDL' would succeed)
      Dense a(3, 3);
      a(0, 0) = a(1, 1) = 1.0;
      a(0, 1) = a(1, 0) = 2.0;
      a(2, 2) = 4.0;
      check_refused(in_storage(a, s, rng).get(), NSD_FACTOR_CHOLESKY, kNotPd, name + " [1 2;2 1]");
      // SPD with one negative diagonal entry
      Dense b = spd_matrix(rng, 12, 0.3);
      b(7, 7) = -b(7, 7);
      check_refused(in_storage(b, s, rng).get(), NSD_FACTOR_CHOLESKY, "column",
                    name + " negative diagonal");
      // negative definite
      Dense c = spd_matrix(rng, 6, 1.0);
      for (double& e : c.v) e = -e;
      check_refused(in_storage(c, s, rng).get(), NSD_FACTOR_CHOLESKY, kNotPd, name + " -SPD");
    }
  }

  void choleskyDetectsSemidefinite() {
    // v v^T (rank one) and B B^T with B 8 x 5 (rank five): singular, positive semidefinite
    Random rng(127);
    std::vector<double> v{1, 2, -1, 0.5, 3, -2};
    Dense one(6, 6), b = rng.matrix(8, 5, 1.0), five(8, 8);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) one(i, j) = v[i] * v[j];
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j)
        for (int k = 0; k < 5; ++k) five(i, j) += b(i, k) * b(j, k);
    for (int s = 0; s < 3; ++s) {
      std::string name = kStorageName[s];
      check_refused(in_storage(one, s, rng).get(), NSD_FACTOR_CHOLESKY, kNotPd, name + " rank one");
      check_refused(in_storage(five, s, rng).get(), NSD_FACTOR_CHOLESKY, kNotPd,
                    name + " rank five");
      check_refused(in_storage(five, s, rng).get(), NSD_FACTOR_LU, "singular",
                    name + " LU rank five");
    }
  }

  void rejectsBadArguments() {
    Random rng(131);
    Dense ref = spd_matrix(rng, 4, 1.0);
    MatrixPtr a = make_dense(ref);
    NsdFactor* f = nullptr;
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_create(nullptr, NSD_FACTOR_LU, &f, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, rep.status);
    CPPUNIT_ASSERT(f == nullptr);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_create(a.get(), NSD_FACTOR_LU, nullptr, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_factor_create(a.get(), static_cast<NsdFactorKind>(9), &f, nullptr));

    MatrixPtr rect(nsd_matrix_create_dense(3, 4));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_create(rect.get(), NSD_FACTOR_LU, &f, &rep));
    CPPUNIT_ASSERT(std::strstr(rep.message, "3 x 4") != nullptr);

    for (int s = 0; s < 3; ++s) {
      Dense bad = ref;
      bad(1, 2) = kNaN;
      MatrixPtr m = in_storage(bad, s, rng);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                           nsd_factor_create(m.get(), NSD_FACTOR_CHOLESKY, &f, &rep));
      CPPUNIT_ASSERT(f == nullptr);
    }
    double b[4] = {1, 2, 3, 4};
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_solve(nullptr, b));
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_create(a.get(), NSD_FACTOR_LU, &f, nullptr));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_solve(f, nullptr));
    nsd_factor_destroy(f);
    nsd_factor_destroy(nullptr);
  }

  void emptySystem() {
    MatrixPtr a(nsd_matrix_create_dense(0, 0));
    NsdFactor* f = nullptr;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_create(a.get(), NSD_FACTOR_CHOLESKY, &f, nullptr));
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_solve(f, nullptr));
    nsd_factor_destroy(f);
  }

  void refactorSolvesNewValues() {
    // created or only analysed, then refactored with new values on the same pattern
    Random rng(211);
    for (int s = 0; s < 3; ++s)
      for (NsdFactorKind kind : {NSD_FACTOR_LU, NSD_FACTOR_CHOLESKY})
        for (int analyse_only = 0; analyse_only < 2; ++analyse_only) {
          std::string what = std::string(kind == NSD_FACTOR_LU ? "LU " : "Cholesky ") +
                             kStorageName[s] + (analyse_only ? " analysed" : " created");
          Dense ref =
              kind == NSD_FACTOR_LU ? general_matrix(rng, 30, 0.15) : spd_matrix(rng, 30, 0.05);
          MatrixPtr a = in_storage(ref, s, rng);
          NsdFactor* raw = nullptr;
          NsdReport rep{};
          if (analyse_only) {
            CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + rep.message, NSD_OK,
                                         nsd_factor_analyse(a.get(), kind, &raw, &rep));
            std::vector<double> b(30, 1.0);
            // no numeric factors yet
            CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_FAILED, nsd_factor_solve(raw, b.data()));
          } else {
            CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + rep.message, NSD_OK,
                                         nsd_factor_create(a.get(), kind, &raw, &rep));
          }
          FactorPtr f(raw);
          for (int round = 0; round < 3; ++round) {
            Dense next = rescaled(ref, rng);
            MatrixPtr b = in_storage(next, s, rng);
            CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + rep.message, NSD_OK,
                                         nsd_factor_refactor(f.get(), b.get(), &rep));
            check_factor_solves(next, f.get(), rng, what + " round " + std::to_string(round));
          }
        }
  }

  void refactorKeepsExplicitZeros() {
    // the pattern is that of the stored entries: values may be zero on some of them,
    // differently from one refactor to the next (Newton Jacobians)
    Random rng(223);
    const int n = 24;
    Dense mask = general_matrix(rng, n, 0.2);
    for (double threshold : {1.0, 0.1}) {
      MatrixPtr a = csc_on_mask(mask, mask);
      NsdFactor* raw = nullptr;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_analyse(a.get(), NSD_FACTOR_LU, &raw, nullptr));
      FactorPtr f(raw);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_set_pivot_threshold(f.get(), threshold));
      for (int round = 0; round < 4; ++round) {
        Dense values = rescaled(mask, rng);
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            if (i != j && rng.chance(0.3)) values(i, j) = 0.0;
        MatrixPtr b = csc_on_mask(values, mask);
        NsdReport rep{};
        CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                     nsd_factor_refactor(f.get(), b.get(), &rep));
        check_factor_solves(values, f.get(), rng,
                            "explicit zeros, threshold " + std::to_string(threshold));
      }
    }
  }

  void refactorRejectsOtherPattern() {
    Random rng(227);
    const int n = 12;
    Dense ref = general_matrix(rng, n, 0.2);
    // one more stored entry, in a 3x3 block with none (sparse-block storage stores whole blocks)
    Dense extra = ref;
    int found = 0;
    for (int bj = 0; bj < n / 3 && !found; ++bj)
      for (int bi = 0; bi < n / 3 && !found; ++bi) {
        int empty = 1;
        for (int j = 3 * bj; j < 3 * bj + 3; ++j)
          for (int i = 3 * bi; i < 3 * bi + 3; ++i) empty &= ref(i, j) == 0.0;
        if (empty) {
          extra(3 * bi, 3 * bj) = 0.25;
          found = 1;
        }
      }
    CPPUNIT_ASSERT(found);
    for (int s = 1; s < 3; ++s) {
      std::string what = kStorageName[s];
      MatrixPtr a = in_storage(ref, s, rng);
      NsdFactor* raw = nullptr;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_create(a.get(), NSD_FACTOR_LU, &raw, nullptr));
      FactorPtr f(raw);

      // another pattern: refused, the factor still solves the matrix it had
      MatrixPtr b = in_storage(extra, s, rng);
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_BAD_INPUT,
                                   nsd_factor_refactor(f.get(), b.get(), &rep));
      CPPUNIT_ASSERT_MESSAGE(what + ": " + rep.message,
                             std::strstr(rep.message, "pattern") != nullptr);
      check_factor_solves(ref, f.get(), rng, what + " after a refused refactor");

      // another size, another storage family, a NaN, NULL arguments
      MatrixPtr small = in_storage(general_matrix(rng, 6, 0.5), s, rng);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_refactor(f.get(), small.get(), nullptr));
      MatrixPtr dense = make_dense(ref);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_refactor(f.get(), dense.get(), nullptr));
      Dense nan = ref;
      nan(0, 0) = kNaN;
      MatrixPtr with_nan = in_storage(nan, s, rng);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_refactor(f.get(), with_nan.get(), nullptr));
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_refactor(f.get(), nullptr, nullptr));
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_refactor(nullptr, a.get(), nullptr));
      check_factor_solves(ref, f.get(), rng, what + " after bad arguments");
    }

    // a dense factor takes dense matrices only; thresholds outside (0, 1] are refused
    MatrixPtr dense = make_dense(ref);
    NsdFactor* raw = nullptr;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_factor_create(dense.get(), NSD_FACTOR_LU, &raw, nullptr));
    FactorPtr f(raw);
    MatrixPtr csc = make_csc(ref, rng.engine());
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_refactor(f.get(), csc.get(), nullptr));
    for (double bad : {0.0, -0.1, 1.5, kNaN})
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_set_pivot_threshold(f.get(), bad));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_set_pivot_threshold(nullptr, 0.5));
    MatrixPtr sq(nsd_matrix_create_dense(3, 4));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_analyse(sq.get(), NSD_FACTOR_LU, &raw, nullptr));
    CPPUNIT_ASSERT(raw == nullptr);
  }

  void refactorSingularThenRecovers() {
    // every entry stored: a rank-one matrix has the pattern of a regular one
    Random rng(229);
    const int n = 6;
    Dense good = spd_matrix(rng, n, 1.0), rank_one(n, n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) rank_one(i, j) = (1.0 + i) * (1.0 + j);
    for (int s = 0; s < 3; ++s)
      for (NsdFactorKind kind : {NSD_FACTOR_LU, NSD_FACTOR_CHOLESKY}) {
        std::string what =
            std::string(kind == NSD_FACTOR_LU ? "LU " : "Cholesky ") + kStorageName[s];
        MatrixPtr a = in_storage(good, s, rng), singular = in_storage(rank_one, s, rng);
        NsdFactor* raw = nullptr;
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_OK, nsd_factor_create(a.get(), kind, &raw, nullptr));
        FactorPtr f(raw);
        NsdReport rep{};
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_FAILED,
                                     nsd_factor_refactor(f.get(), singular.get(), &rep));
        CPPUNIT_ASSERT_MESSAGE(
            what + ": " + rep.message,
            std::strstr(rep.message, kind == NSD_FACTOR_LU ? "singular" : kNotPd) != nullptr);
        std::vector<double> b(n, 1.0);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_FAILED, nsd_factor_solve(f.get(), b.data()));
        // and without a report
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_FAILED,
                                     nsd_factor_refactor(f.get(), singular.get(), nullptr));
        Dense next = rescaled(good, rng);
        MatrixPtr c = in_storage(next, s, rng);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_OK, nsd_factor_refactor(f.get(), c.get(), nullptr));
        check_factor_solves(next, f.get(), rng, what + " after a singular refactor");
      }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(MatrixFactorTest);
