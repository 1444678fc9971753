// Global friction contact built from C: the Siconos error on hand-computed cases, the
// reduction W = H^T M^-1 H against a dense computation, nsgs_wr against the local problem
// solved by the FC3D Newton, the door through nsd_solve, bad problems.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "gfc_test_util.hpp"

using nsdyn::test::GfcSolve;
using nsdyn::test::solveGfc;

namespace {

// A problem owning what it holds.
struct Gfc {
  NsdGfc* p = nullptr;
  Gfc(int dim, int nc, NsdMatrix* M, NsdMatrix* H, const std::vector<double>& q,
      const std::vector<double>& b, const std::vector<double>& mu)
      : p(nsd_gfc_create(dim, nc, M, H, q.data(), b.data(), mu.data())) {}
  ~Gfc() { nsd_gfc_destroy(p); }
  Gfc(const Gfc&) = delete;
  Gfc& operator=(const Gfc&) = delete;
};

struct Fc {
  NsdFc* p = nullptr;
  explicit Fc(NsdFc* f) : p(f) {}
  ~Fc() { nsd_fc_destroy(p); }
  Fc(const Fc&) = delete;
  Fc& operator=(const Fc&) = delete;
};

// Deterministic uniform numbers in [-1, 1).
struct Lcg {
  unsigned long long s;
  explicit Lcg(unsigned long long seed) : s(seed) {}
  double operator()() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(s >> 11) / 4503599627370496.0 - 1.0;
  }
};

// Column-major dense helpers for the reference computation.
std::vector<double> solveDense(std::vector<double> a, std::vector<double> b, int n, int cols) {
  // Gaussian elimination with partial pivoting on a[n x n], b[n x cols]
  for (int k = 0; k < n; ++k) {
    int piv = k;
    for (int i = k + 1; i < n; ++i)
      if (std::fabs(a[i + k * n]) > std::fabs(a[piv + k * n])) piv = i;
    for (int j = 0; j < n; ++j) std::swap(a[k + j * n], a[piv + j * n]);
    for (int j = 0; j < cols; ++j) std::swap(b[k + j * n], b[piv + j * n]);
    for (int i = k + 1; i < n; ++i) {
      const double f = a[i + k * n] / a[k + k * n];
      for (int j = k; j < n; ++j) a[i + j * n] -= f * a[k + j * n];
      for (int j = 0; j < cols; ++j) b[i + j * n] -= f * b[k + j * n];
    }
  }
  for (int j = 0; j < cols; ++j)
    for (int i = n - 1; i >= 0; --i) {
      double s = b[i + j * n];
      for (int k = i + 1; k < n; ++k) s -= a[i + k * n] * b[k + j * n];
      b[i + j * n] = s / a[i + i * n];
    }
  return b;
}

// A random problem: M = A A^T + n I (banded A: sparse M), H with a few non-zeros per
// column, q, b with approaching normals so that contacts close.
struct RandomData {
  int n, nc, dim;
  std::vector<double> M, H, q, b, mu;  // M, H dense column-major
};

RandomData randomData(int n, int nc, int dim, unsigned long long seed) {
  Lcg rnd(seed);
  RandomData d{n, nc, dim, {}, {}, {}, {}, {}};
  const int m = dim * nc;
  std::vector<double> A(static_cast<size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = std::max(0, i - 1); j <= i; ++j) A[i + j * n] = rnd();
  d.M.assign(static_cast<size_t>(n) * n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = i == j ? 1.0 : 0.0;
      for (int k = 0; k < n; ++k) s += A[i + k * n] * A[j + k * n];
      d.M[i + j * n] = s;
    }
  d.H.assign(static_cast<size_t>(n) * m, 0.0);
  for (int c = 0; c < m; ++c)
    for (int t = 0; t < 3; ++t) d.H[(c * 7 + t * 5) % n + static_cast<size_t>(c) * n] = rnd();
  for (int i = 0; i < n; ++i) d.q.push_back(rnd());
  for (int a = 0; a < nc; ++a) {
    d.b.push_back(-0.5 - 0.5 * std::fabs(rnd()));
    for (int k = 1; k < dim; ++k) d.b.push_back(0.2 * rnd());
    d.mu.push_back(0.3);
  }
  return d;
}

NsdMatrix* toStorage(const std::vector<double>& dense, int rows, int cols, NsdStorage s,
                     int block) {
  NsdMatrix* a = nsd_matrix_create_dense_from(rows, cols, dense.data());
  if (s == NSD_DENSE) return a;
  NsdMatrix* b = nsd_matrix_convert(a, s, block);
  nsd_matrix_destroy(a);
  return b;
}

}  // namespace

class GfcTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(GfcTest);
  CPPUNIT_TEST(errorHandComputed);
  CPPUNIT_TEST(reduceMatchesDenseComputation);
  CPPUNIT_TEST(reduceByComponents);
  CPPUNIT_TEST(nsgsWrMatchesLocalNewton);
  CPPUNIT_TEST(nsgsWr2dMatchesLocalNsgs);
  CPPUNIT_TEST(solveDoorAndProblemError);
  CPPUNIT_TEST(noContacts);
  CPPUNIT_TEST(badProblemsRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  // M = H = I3, b = 0, mu = 0.5, q = (-1, 1, 0): v = q + r, u = v (the FC3D example of
  // formats/README.md §3 in global form).
  void errorHandComputed() {
    Gfc g(3, 1,
          nsd_matrix_create_dense_from(3, 3, std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}.data()),
          nsd_matrix_create_dense_from(3, 3, std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1}.data()),
          {-1, 1, 0}, {0, 0, 0}, {0.5});
    CPPUNIT_ASSERT(g.p);
    // r = 0, v = q: equilibrium exact, Coulomb term sqrt(0.8) / max(||u||, ||r||) = sqrt(0.4)
    std::vector<double> r{0, 0, 0}, v{-1, 1, 0}, u(3);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(0.4), nsd_gfc_error(g.p, r.data(), v.data(), u.data()),
                                 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, u[0], 0.0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(0.4), nsd_gfc_error_of_reaction(g.p, r.data()), 1e-15);
    // r = 0, v = 0: ||q - 0|| / ||q|| = 1, u = b = 0 and r = 0: no Coulomb term
    std::vector<double> zero{0, 0, 0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, nsd_gfc_error(g.p, r.data(), zero.data(), nullptr), 1e-15);
    // the sliding solution r = (1, -0.5, 0), v = (0, 0.5, 0): error 0
    std::vector<double> rs{1, -0.5, 0}, vs{0, 0.5, 0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_gfc_error(g.p, rs.data(), vs.data(), nullptr), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_gfc_error_of_reaction(g.p, rs.data()), 1e-15);
    // both terms add: v off by (0.1, 0, 0) from M^-1 (q + H r)
    std::vector<double> vo{0.1, 0.5, 0};
    const double primal = 0.1 / std::sqrt(2.0);  // max(||q||, ||M v||, ||H r||) = sqrt(2)
    // u = (0.1, 0.5, 0): y = r - u - mu ||u_T|| e_n = (0.65, -1, 0), projected (0.92, -0.46, 0)
    const double a = (0.5 * 1.0 + 0.65) / 1.25;
    const double en = 1 - a, et = -0.5 + 0.5 * a;
    const double comp = std::sqrt(en * en + et * et) / std::sqrt(1.25);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(primal + comp, nsd_gfc_error(g.p, rs.data(), vo.data(), nullptr),
                                 1e-14);
    // a NaN reaction gives +inf
    std::vector<double> rn{NAN, 0, 0};
    CPPUNIT_ASSERT(std::isinf(nsd_gfc_error(g.p, rn.data(), vs.data(), nullptr)));
  }

  // nsd_gfc_reduce's W and q_local against H^T M^-1 H and H^T M^-1 q + b computed densely,
  // for M sparse (CSC) with H sparse-block and for M dense with H CSC.
  void reduceMatchesDenseComputation() {
    const int n = 14, nc = 3, m = 9;
    RandomData d = randomData(n, nc, 3, 7);
    std::vector<double> rhs = d.H;
    rhs.insert(rhs.end(), d.q.begin(), d.q.end());
    std::vector<double> x = solveDense(d.M, rhs, n, m + 1);  // M^-1 [H q]
    std::vector<double> W(static_cast<size_t>(m) * m, 0.0), ql(m, 0.0);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < m; ++j)
        for (int k = 0; k < n; ++k) W[i + j * m] += d.H[k + i * n] * x[k + j * n];
      ql[i] = d.b[i];
      for (int k = 0; k < n; ++k) ql[i] += d.H[k + i * n] * x[k + m * n];
    }
    const NsdStorage ms[2] = {NSD_CSC, NSD_DENSE}, hs[2] = {NSD_SPARSE_BLOCK, NSD_CSC};
    for (int v = 0; v < 2; ++v) {
      NsdMatrix* H = v == 0 ? nullptr : toStorage(d.H, n, m, hs[v], 0);
      if (v == 0) {
        // H sparse-block: n = 14 rows in one block row of 14 x 3 blocks
        const int row_end[1] = {n}, col_end[3] = {3, 6, 9}, row_ptr[2] = {0, 3}, col[3] = {0, 1, 2};
        H = nsd_matrix_create_sparse_block(1, 3, row_end, col_end, row_ptr, col);
        for (int k = 0; k < 3; ++k)
          std::memcpy(nsd_matrix_sbm_block(H, k), &d.H[static_cast<size_t>(k) * 3 * n],
                      sizeof(double) * 3 * n);
      }
      Gfc g(3, nc, toStorage(d.M, n, n, ms[v], 0), H, d.q, d.b, d.mu);
      CPPUNIT_ASSERT(g.p);
      NsdReport rep{};
      Fc f(nsd_gfc_reduce(g.p, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message, f.p);
      CPPUNIT_ASSERT_EQUAL(NSD_SPARSE_BLOCK, f.p->M->storage);
      CPPUNIT_ASSERT_EQUAL(nc, f.p->nc);
      for (int i = 0; i < m; ++i) {
        CPPUNIT_ASSERT_DOUBLES_EQUAL(ql[i], f.p->q[i], 1e-12 * (1 + std::fabs(ql[i])));
        for (int j = 0; j < m; ++j)
          CPPUNIT_ASSERT_DOUBLES_EQUAL(W[i + j * m], nsd_matrix_get(f.p->M, i, j),
                                       1e-12 * (1 + std::fabs(W[i + j * m])));
      }
    }
  }

  // M block diagonal in three blocks of 3, 69 and 6 rows, interleaved (the components of its
  // graph, factorised apart: dense up to 64 rows, sparse above): W and q_local against the
  // dense computation, and a singular block named by its size and first row.
  void reduceByComponents() {
    const int n = 78, nc = 4, m = 12;
    RandomData d = randomData(n, nc, 3, 17);
    std::vector<int> block(n), size(3, 0);
    for (int i = 0; i < n; ++i) ++size[block[i] = i % 26 == 0 ? 0 : i % 13 == 5 ? 2 : 1];
    CPPUNIT_ASSERT(size[0] == 3 && size[1] == 69 && size[2] == 6);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)  // diagonally dominant within a block: SPD
        d.M[i + j * n] = i == j                 ? 1.0
                         : block[i] == block[j] ? 0.5 * std::cos(i + j) / size[block[i]]
                                                : 0.0;
    std::vector<double> rhs = d.H;
    rhs.insert(rhs.end(), d.q.begin(), d.q.end());
    std::vector<double> x = solveDense(d.M, rhs, n, m + 1);
    Gfc g(3, nc, toStorage(d.M, n, n, NSD_CSC, 0), toStorage(d.H, n, m, NSD_CSC, 0), d.q, d.b,
          d.mu);
    NsdReport rep{};
    Fc f(nsd_gfc_reduce(g.p, &rep));
    CPPUNIT_ASSERT_MESSAGE(rep.message, f.p);
    for (int i = 0; i < m; ++i) {
      double qi = d.b[i];
      for (int k = 0; k < n; ++k) qi += d.H[k + i * n] * x[k + m * n];
      CPPUNIT_ASSERT_DOUBLES_EQUAL(qi, f.p->q[i], 1e-12 * (1 + std::fabs(qi)));
      for (int j = 0; j < m; ++j) {
        double wij = 0.0;
        for (int k = 0; k < n; ++k) wij += d.H[k + i * n] * x[k + j * n];
        CPPUNIT_ASSERT_DOUBLES_EQUAL(wij, nsd_matrix_get(f.p->M, i, j),
                                     1e-12 * (1 + std::fabs(wij)));
      }
    }
    GfcSolve s = solveGfc(g.p, nsd_gfc_nsgs_wr, 1e-10);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(s.rep.message, NSD_OK, s.status);
    // the 6-row block (rows 5, 18, 31, ...) made singular: its rows 5 and 18 equal
    for (int j = 0; j < n; ++j) d.M[5 + j * n] = d.M[j + 5 * n] = d.M[18 + j * n];
    d.M[5 + 5 * n] = d.M[18 + 18 * n];
    Gfc bad(3, nc, toStorage(d.M, n, n, NSD_CSC, 0), toStorage(d.H, n, m, NSD_CSC, 0), d.q, d.b,
            d.mu);
    GfcSolve sb = solveGfc(bad.p, nsd_gfc_nsgs_wr);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, sb.status);
    const std::string msg = sb.rep.message;
    CPPUNIT_ASSERT_MESSAGE(msg,
                           msg.find("M (78 x 78) is not positive definite") != std::string::npos);
    CPPUNIT_ASSERT_MESSAGE(msg,
                           msg.find("diagonal block of 6 row(s) from row 5") != std::string::npos);
  }

  // nsgs_wr's r against the local problem (nsd_gfc_reduce) solved by the FC3D Newton to 1e-10;
  // W is positive definite (H of full column rank), so r is unique.
  void nsgsWrMatchesLocalNewton() {
    for (unsigned long long seed : {3ULL, 11ULL, 29ULL}) {
      const int n = 24, nc = 5;
      RandomData d = randomData(n, nc, 3, seed);
      Gfc g(3, nc, toStorage(d.M, n, n, NSD_CSC, 0), toStorage(d.H, n, 3 * nc, NSD_CSC, 0), d.q,
            d.b, d.mu);
      GfcSolve s = solveGfc(g.p, nsd_gfc_nsgs_wr, 1e-10);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(s.rep.message, NSD_OK, s.status);
      CPPUNIT_ASSERT(s.rep.residual <= 1e-10);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(s.rep.residual,
                                   nsd_gfc_error(g.p, s.r.data(), s.v.data(), nullptr), 1e-15);
      NsdReport rep{};
      Fc f(nsd_gfc_reduce(g.p, &rep));
      CPPUNIT_ASSERT(f.p);
      std::vector<double> r(3 * nc, 0.0), u(3 * nc, 0.0);
      NsdSolverOptions opt;
      nsd_solver_options_default(&opt);
      opt.tolerance = 1e-10;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_fc3d_newton_ac(f.p, r.data(), u.data(), &opt, &rep));
      double diff = 0, norm = 0;
      for (int i = 0; i < 3 * nc; ++i) {
        diff = std::fmax(diff, std::fabs(r[i] - s.r[i]));
        norm = std::fmax(norm, std::fabs(r[i]));
      }
      CPPUNIT_ASSERT(norm > 0.1);  // contacts are active
      CPPUNIT_ASSERT_MESSAGE(std::to_string(diff), diff <= 1e-7 * (1 + norm));
      // u returned is H^T v + b
      std::vector<double> u2(d.b);
      nsd_matrix_gemv_t(1.0, g.p->H, s.v.data(), 1.0, u2.data());
      for (int i = 0; i < 3 * nc; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(u2[i], s.u[i], 1e-12);
    }
  }

  // The same in 2D against the FC2D nsgs on the reduced problem.
  void nsgsWr2dMatchesLocalNsgs() {
    const int n = 16, nc = 6;
    RandomData d = randomData(n, nc, 2, 5);
    Gfc g(2, nc, toStorage(d.M, n, n, NSD_CSC, 0), toStorage(d.H, n, 2 * nc, NSD_DENSE, 0), d.q,
          d.b, d.mu);
    GfcSolve s = solveGfc(g.p, nsd_gfc_nsgs_wr, 1e-10);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(s.rep.message, NSD_OK, s.status);
    NsdReport rep{};
    Fc f(nsd_gfc_reduce(g.p, &rep));
    CPPUNIT_ASSERT(f.p);
    std::vector<double> r(2 * nc, 0.0), u(2 * nc, 0.0);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.tolerance = 1e-12;
    opt.max_iterations = 100000;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_fc2d_nsgs(f.p, r.data(), u.data(), &opt, &rep));
    for (int i = 0; i < 2 * nc; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(r[i], s.r[i], 1e-7 * (1 + std::fabs(r[i])));
  }

  // nsd_solve picks nsgs_wr by default for GFC; nsd_problem_error is the GFC error.
  void solveDoorAndProblemError() {
    const int n = 12, nc = 3;
    RandomData d = randomData(n, nc, 3, 13);
    NsdProblem prob{};
    prob.kind = NSD_KIND_GFC3D;
    prob.gfc =
        nsd_gfc_create(3, nc, toStorage(d.M, n, n, NSD_CSC, 0),
                       toStorage(d.H, n, 3 * nc, NSD_CSC, 0), d.q.data(), d.b.data(), d.mu.data());
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs_wr"), std::string(nsd_solver_default(NSD_KIND_GFC3D)));
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs_wr"), std::string(nsd_solver_default(NSD_KIND_GFC2D)));
    std::vector<double> r(3 * nc, 0.0), u(3 * nc, 0.0);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&prob, nullptr, r.data(), u.data(), nullptr, &rep));
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs_wr"), std::string(rep.solver));
    const double e = nsd_problem_error(&prob, r.data());
    CPPUNIT_ASSERT(e <= 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(rep.residual, e, 1e-12);
    // "auto": nsgs_wr first (then admm, ipm where the table has them)
    const char* plan[NSD_AUTO_MAX_CANDIDATES] = {nullptr};
    CPPUNIT_ASSERT(nsd_auto_plan(&prob, nullptr, plan, NSD_AUTO_MAX_CANDIDATES) >= 1);
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs_wr"), std::string(plan[0]));
    std::fill(r.begin(), r.end(), 0.0);
    NsdReport ra{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&prob, "auto", r.data(), u.data(), nullptr, &ra));
    CPPUNIT_ASSERT_EQUAL(std::string("auto:nsgs_wr"), std::string(ra.solver));
    CPPUNIT_ASSERT(nsd_problem_error(&prob, r.data()) <= 1e-8);
    // an option nsgs_wr does not read is refused
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.admm.rho = 2.0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_solve(&prob, "nsgs_wr", r.data(), u.data(), &opt, &rep));
    nsd_problem_clear(&prob);
  }

  // No contact: v = M^-1 q, error 0, converged at once.
  void noContacts() {
    Gfc g(3, 0, nsd_matrix_create_dense_from(2, 2, std::vector<double>{2, 0, 0, 4}.data()),
          nsd_matrix_create_dense(2, 0), {2, 4}, {}, {});
    CPPUNIT_ASSERT(g.p);
    GfcSolve s = solveGfc(g.p, nsd_gfc_nsgs_wr);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(s.rep.message, NSD_OK, s.status);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, s.v[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, s.v[1], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, s.rep.residual, 1e-15);
  }

  void badProblemsRefused() {
    const std::vector<double> I3{1, 0, 0, 0, 1, 0, 0, 0, 1};
    // M not symmetric: refused, naming the asymmetry
    {
      Gfc g(3, 1,
            nsd_matrix_create_dense_from(3, 3,
                                         std::vector<double>{1, 0, 0, 0.5, 1, 0, 0, 0, 1}.data()),
            nsd_matrix_create_dense_from(3, 3, I3.data()), {-1, 0, 0}, {0, 0, 0}, {0.3});
      GfcSolve s = solveGfc(g.p, nsd_gfc_nsgs_wr);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, s.status);
      const std::string msg = s.rep.message;
      CPPUNIT_ASSERT_MESSAGE(msg,
                             msg.find("GFC3D M (3 x 3) is not symmetric") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(msg, msg.find("0.5") != std::string::npos);
    }
    // M singular (positive semi-definite): refused by nsgs_wr, NSD_FAILED for the velocity
    {
      Gfc g(
          3, 1,
          nsd_matrix_create_dense_from(3, 3, std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 0}.data()),
          nsd_matrix_create_dense_from(3, 3, I3.data()), {-1, 0, 0}, {0, 0, 0}, {0.3});
      GfcSolve s = solveGfc(g.p, nsd_gfc_nsgs_wr);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, s.status);
      const std::string msg = s.rep.message;
      CPPUNIT_ASSERT_MESSAGE(msg, msg.find("needs M invertible") != std::string::npos);
      CPPUNIT_ASSERT_MESSAGE(msg, msg.find("M (3 x 3)") != std::string::npos);
      std::vector<double> r(3, 0.0), v(3, 0.0);
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(NSD_FAILED, nsd_gfc_velocity(g.p, r.data(), v.data(), &rep));
      CPPUNIT_ASSERT(std::string(rep.message).find("cannot be factorised") != std::string::npos);
      CPPUNIT_ASSERT(std::isinf(nsd_gfc_error_of_reaction(g.p, r.data())));
      CPPUNIT_ASSERT(nsd_gfc_reduce(g.p, &rep) == nullptr);
    }
    // H of the wrong shape: nsd_gfc_check and the solver say so
    {
      Gfc g(3, 1, nsd_matrix_create_dense_from(3, 3, I3.data()), nsd_matrix_create_dense(3, 4),
            {-1, 0, 0}, {0, 0, 0}, {0.3});
      CPPUNIT_ASSERT(g.p);
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(0, nsd_gfc_check(g.p, &rep));
      GfcSolve s = solveGfc(g.p, nsd_gfc_nsgs_wr);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, s.status);
      CPPUNIT_ASSERT_MESSAGE(
          s.rep.message,
          std::string(s.rep.message).find("H is 3x4, expected 3x3") != std::string::npos);
      CPPUNIT_ASSERT(nsd_gfc_reduce(g.p, &rep) == nullptr);
    }
    // no problem, bad options
    {
      std::vector<double> r(3), u(3);
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                           nsd_gfc_nsgs_wr(nullptr, r.data(), u.data(), nullptr, nullptr, &rep));
      Gfc g(3, 1, nsd_matrix_create_dense_from(3, 3, I3.data()),
            nsd_matrix_create_dense_from(3, 3, I3.data()), {-1, 0, 0}, {0, 0, 0}, {0.3});
      NsdSolverOptions opt;
      nsd_solver_options_default(&opt);
      opt.tolerance = -1;
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                           nsd_gfc_nsgs_wr(g.p, r.data(), u.data(), nullptr, &opt, &rep));
      CPPUNIT_ASSERT(std::string(rep.message).find("tolerance") != std::string::npos);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(GfcTest);
