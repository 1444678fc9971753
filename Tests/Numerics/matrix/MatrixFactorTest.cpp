// NsdFactor: LU and Cholesky in every storage solve random systems to 1e-12
// relative; singular and indefinite matrices and bad arguments are refused.
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
void check_refused(const NsdMatrix* a, NsdFactorKind kind, const char* needle, const std::string& what) {
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
      check_refused(in_storage(dep, s, rng).get(), NSD_FACTOR_LU, "column", name + " dependent columns");
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
      check_refused(in_storage(b, s, rng).get(), NSD_FACTOR_CHOLESKY, "column", name + " negative diagonal");
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
      check_refused(in_storage(five, s, rng).get(), NSD_FACTOR_CHOLESKY, kNotPd, name + " rank five");
      check_refused(in_storage(five, s, rng).get(), NSD_FACTOR_LU, "singular", name + " LU rank five");
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
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_factor_create(m.get(), NSD_FACTOR_CHOLESKY, &f, &rep));
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
};

CPPUNIT_TEST_SUITE_REGISTRATION(MatrixFactorTest);
