// Rolling friction contact (nsd_rfc.h): the projection on the rolling cone, the error
// measure against a hand computation, the one-contact sphere-on-plane answers in closed
// form, FC3D embedded in 5D with mu_r = 0, random problems solved by nsgs and pg, the
// checks of bad problems.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "nsdyn/numerics.h"
#include "rfc_test_util.hpp"

namespace {

struct Rfc {
  NsdRfc* p = nullptr;
  Rfc(int dim, int nc, NsdMatrix* M, const std::vector<double>& q, const std::vector<double>& mu,
      const std::vector<double>& mu_r)
      : p(nsd_rfc_create(dim, nc, M, q.data(), mu.data(), mu_r.data())) {}
  ~Rfc() { nsd_rfc_destroy(p); }
  Rfc(const Rfc&) = delete;
  Rfc& operator=(const Rfc&) = delete;
};

using nsdyn::test::norm;
using Solve = nsdyn::test::RfcRun;

Solve solve(const NsdRfc* p, NsdRfcSolver solver, double tol = 1e-8, int max_iter = 100000) {
  return nsdyn::test::run(p, p->dim * p->nc, solver, tol, max_iter);
}

// 1 when y (dim 5 or 3) is in the cone, up to eps.
bool inCone(int dim, double mu, double mu_r, const double* y, double eps) {
  const int h = (dim - 1) / 2;
  return norm(y + 1, h) <= mu * y[0] + eps && norm(y + 1 + h, h) <= mu_r * y[0] + eps;
}

// A symmetric positive definite n x n matrix, column-major, seeded.
std::vector<double> spd(int n, unsigned seed, double shift) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::vector<double> H(static_cast<size_t>(n * n)), A(static_cast<size_t>(n * n), 0.0);
  for (double& h : H) h = U(gen);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0.0;
      for (int k = 0; k < n; ++k) s += H[i + n * k] * H[j + n * k];
      A[i + n * j] = s / n + (i == j ? shift : 0.0);
    }
  return A;
}

}  // namespace

class RfcTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RfcTest);
  CPPUNIT_TEST(projectionCases);
  CPPUNIT_TEST(projectionIsTheNearestPoint);
  CPPUNIT_TEST(errorByHand);
  CPPUNIT_TEST(sphereOnPlaneSticking);
  CPPUNIT_TEST(sphereOnPlaneRollingSliding);
  CPPUNIT_TEST(sphereOnPlaneCoupledSticking);
  CPPUNIT_TEST(fc3dEmbeddedWithoutRolling);
  CPPUNIT_TEST(randomProblems);
  CPPUNIT_TEST(randomProblems2d);
  CPPUNIT_TEST(badProblems);
  CPPUNIT_TEST(solveThroughTheTable);
  CPPUNIT_TEST_SUITE_END();

 public:
  void projectionCases() {
    // inside: unchanged
    double in[5] = {1.0, 0.1, 0.2, 0.05, -0.05};
    nsd_rfc_project_on_cone(5, 0.5, 0.2, in);
    CPPUNIT_ASSERT_EQUAL(0.1, in[1]);
    CPPUNIT_ASSERT_EQUAL(-0.05, in[4]);
    // polar cone: 0
    double polar[5] = {-1.0, 0.1, 0.0, 0.0, 0.1};
    nsd_rfc_project_on_cone(5, 0.5, 0.2, polar);
    for (double v : polar) CPPUNIT_ASSERT_EQUAL(0.0, v);
    // only the tangential part out: the FC3D projection, rolling part kept
    // y = (1, 2, 0, 0.01, 0): t = (1 + 0.5 * 2) / (1 + 0.25) = 1.6, y_T -> 0.8
    double ft[5] = {1.0, 2.0, 0.0, 0.01, 0.0};
    nsd_rfc_project_on_cone(5, 0.5, 0.2, ft);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.6, ft[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.8, ft[1], 1e-15);
    CPPUNIT_ASSERT_EQUAL(0.01, ft[3]);
    // both parts out: t = (1 + 0.5*2 + 0.2*3) / (1 + 0.25 + 0.04)
    double both[5] = {1.0, 0.0, 2.0, 3.0, 0.0};
    nsd_rfc_project_on_cone(5, 0.5, 0.2, both);
    const double t = 2.6 / 1.29;
    CPPUNIT_ASSERT_DOUBLES_EQUAL(t, both[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5 * t, both[2], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.2 * t, both[3], 1e-15);
    // mu_r = 0: no rolling moment
    double nor[3] = {1.0, 0.1, 5.0};
    nsd_rfc_project_on_cone(3, 0.5, 0.0, nor);
    CPPUNIT_ASSERT_EQUAL(0.0, nor[2]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, nor[0], 1e-15);
  }

  // P(y) is in K and (y - P(y)) . (x - P(y)) <= 0 for every x in K.
  void projectionIsTheNearestPoint() {
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> U(-2.0, 2.0), V(0.0, 1.0);
    for (int trial = 0; trial < 2000; ++trial) {
      const int dim = trial % 2 ? 5 : 3;
      const double mu = trial % 7 == 0 ? 0.0 : V(gen);
      const double mu_r = trial % 5 == 0 ? 0.0 : 0.5 * V(gen);
      double y[5], p[5];
      for (int i = 0; i < dim; ++i) y[i] = p[i] = U(gen);
      nsd_rfc_project_on_cone(dim, mu, mu_r, p);
      std::string where = "trial " + std::to_string(trial) + " mu " + std::to_string(mu) +
                          " mu_r " + std::to_string(mu_r) + " y";
      for (int i = 0; i < dim; ++i)
        where += " " + std::to_string(y[i]) + "->" + std::to_string(p[i]);
      CPPUNIT_ASSERT_MESSAGE(where, inCone(dim, mu, mu_r, p, 1e-12));
      for (int k = 0; k < 20; ++k) {
        double x[5];
        for (int i = 0; i < dim; ++i) x[i] = U(gen);
        nsd_rfc_project_on_cone(dim, mu, mu_r, x);
        double s = 0.0;
        for (int i = 0; i < dim; ++i) s += (y[i] - p[i]) * (x[i] - p[i]);
        CPPUNIT_ASSERT_MESSAGE("trial " + std::to_string(trial), s <= 1e-12);
      }
    }
  }

  // One contact, M = I: u = r + q, by hand.
  void errorByHand() {
    std::vector<double> I(25, 0.0);
    for (int i = 0; i < 5; ++i) I[i * 6] = 1.0;
    const std::vector<double> q = {-1.0, 0.3, 0.0, 0.0, 0.4};
    Rfc rfc(5, 1, nsd_matrix_create_dense_from(5, 5, I.data()), q, {0.5}, {0.1});
    const double r[5] = {0.5, 0.0, 0.0, 0.0, 0.0};
    // u = (-0.5, 0.3, 0, 0, 0.4); û_N = -0.5 + 0.5*0.3 + 0.1*0.4 = -0.31;
    // r - û = (0.81, -0.3, 0, 0, -0.4): ||w_T|| = 0.3 <= 0.405, ||w_R|| = 0.4 > 0.081:
    // rolling part on its boundary: t = (0.81 + 0.1*0.4) / 1.01
    const double t = 0.85 / 1.01;
    const double e[5] = {0.5 - t, 0.3, 0.0, 0.0, 0.0 - (-0.1 * t)};
    const double expected = norm(e, 5) / std::max(norm(q.data(), 5), std::sqrt(0.25 + 0.09 + 0.16));
    double u[5];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(expected, nsd_rfc_error(rfc.p, r, u), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.5, u[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.4, u[4], 1e-15);
    // the exact solution of the problem has error 0: r_N = 1, r_T = -0.3 (inside 0.5),
    // r_R rolling against u_R: u_R = q_R + r_R with r_R = -0.1 * 0.4/|0.4|
    const double sol[5] = {1.0, -0.3, 0.0, 0.0, -0.1};
    CPPUNIT_ASSERT(nsd_rfc_error(rfc.p, sol, nullptr) < 1e-15);
  }

  // Sphere on a plane, decoupled rows W = diag(wn, wt, wt, wr, wr): while the rolling
  // torque demand ||q_R|| / wr is within mu_r r_N the sphere sticks and does not roll.
  void sphereOnPlaneSticking() {
    const double wn = 2.0, wt = 3.5, wr = 5.0, mu = 0.6, mu_r = 0.05;
    std::vector<double> W(25, 0.0);
    const double d[5] = {wn, wt, wt, wr, wr};
    for (int i = 0; i < 5; ++i) W[i * 6] = d[i];
    const std::vector<double> q = {-4.0, 0.5, -0.2, 0.3, 0.2};  // r_N = 2: mu_r r_N = 0.1
    Rfc rfc(5, 1, nsd_matrix_create_dense_from(5, 5, W.data()), q, {mu}, {mu_r});
    for (NsdRfcSolver s : {nsd_rfc_nsgs, nsd_rfc_pg}) {
      Solve sol = solve(rfc.p, s, 1e-12);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, sol.status);
      for (int i = 0; i < 5; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(-q[i] / d[i], sol.r[i], 1e-10);
      CPPUNIT_ASSERT(norm(sol.u.data() + 1, 4) < 1e-10);  // no sliding, no rolling
    }
    // and the one-contact solver reaches machine precision
    double r[5] = {0, 0, 0, 0, 0};
    CPPUNIT_ASSERT(nsd_rfc_solve_one(5, W.data(), q.data(), mu, mu_r, r) <= 1e-14);
  }

  // Same sphere, larger torque demand: it rolls, r_R = -mu_r r_N u_R / ||u_R||,
  // with u_R = q_R (1 - wr mu_r r_N / ||q_R||); the tangential part still sticks.
  void sphereOnPlaneRollingSliding() {
    const double wn = 2.0, wt = 3.5, wr = 5.0, mu = 0.6, mu_r = 0.05;
    std::vector<double> W(25, 0.0);
    const double d[5] = {wn, wt, wt, wr, wr};
    for (int i = 0; i < 5; ++i) W[i * 6] = d[i];
    const std::vector<double> q = {-4.0, 0.5, -0.2, 3.0, -4.0};  // ||q_R|| = 5 > 0.1 * 5
    Rfc rfc(5, 1, nsd_matrix_create_dense_from(5, 5, W.data()), q, {mu}, {mu_r});
    const double rn = 2.0, nq = 5.0;
    for (NsdRfcSolver s : {nsd_rfc_nsgs, nsd_rfc_pg}) {
      Solve sol = solve(rfc.p, s, 1e-12);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, sol.status);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(rn, sol.r[0], 1e-10);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-q[1] / wt, sol.r[1], 1e-10);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-mu_r * rn * 3.0 / nq, sol.r[3], 1e-10);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-mu_r * rn * -4.0 / nq, sol.r[4], 1e-10);
      const double k = 1.0 - wr * mu_r * rn / nq;
      CPPUNIT_ASSERT_DOUBLES_EQUAL(3.0 * k, sol.u[3], 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(-4.0 * k, sol.u[4], 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, sol.u[0], 1e-9);
    }
  }

  // A sphere (mass m, radius R, inertia I = 2/5 m R^2) on a plane: the tangential rows
  // couple with the rolling rows through the contact point. Sticking: r = -W^{-1} q.
  void sphereOnPlaneCoupledSticking() {
    const double m = 1.0, R = 0.1, I = 0.4 * m * R * R;
    // u_N = v_z, u_T1 = v_x - R w_y, u_T2 = v_y + R w_x, u_R1 = w_x, u_R2 = w_y: W = H M^-1 H^T
    const double H[5][6] = {{0, 0, 1, 0, 0, 0},
                            {1, 0, 0, 0, -R, 0},
                            {0, 1, 0, R, 0, 0},
                            {0, 0, 0, 1, 0, 0},
                            {0, 0, 0, 0, 1, 0}};
    const double minv[6] = {1 / m, 1 / m, 1 / m, 1 / I, 1 / I, 1 / I};
    std::vector<double> W(25);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) {
        double s = 0.0;
        for (int k = 0; k < 6; ++k) s += H[i][k] * minv[k] * H[j][k];
        W[i + 5 * j] = s;
      }
    // free velocity: falling at 1 m/s, sliding slowly, spinning slowly
    const double v[6] = {0.01, 0.0, -1.0, 0.0, 0.05, 0.0};
    std::vector<double> q(5);
    for (int i = 0; i < 5; ++i) {
      q[i] = 0.0;
      for (int k = 0; k < 6; ++k) q[i] += H[i][k] * v[k];
    }
    Rfc rfc(5, 1, nsd_matrix_create_dense_from(5, 5, W.data()), q, {0.8}, {0.3});
    for (NsdRfcSolver s : {nsd_rfc_nsgs, nsd_rfc_pg}) {
      Solve sol = solve(rfc.p, s, 1e-12);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, sol.status);
      CPPUNIT_ASSERT(norm(sol.u.data(), 5) < 1e-9);  // everything stops: u = 0
      CPPUNIT_ASSERT(inCone(5, 0.8, 0.3, sol.r.data(), 1e-12));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(m * 1.0, sol.r[0], 1e-9);  // the impulse stopping the fall
    }
  }

  // FC3D_Example1 (3 contacts) embedded in 5D with decoupled rolling rows (identity) and
  // mu_r = 0: the answer is FC3D's; the error of the FC3D answer embedded equals its
  // FC3D error.
  void fc3dEmbeddedWithoutRolling() {
    NsdProblem fc{};
    NsdReport rep{};
    const std::string path = std::string(NSDYN_SHARED_DIR) + "/data/fc3d/FC3D_Example1.dat";
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(path.c_str(), NSD_KIND_FC3D, &fc, &rep));
    const NsdFc* f = fc.fc;
    const int nc = f->nc, m3 = 3 * nc, m5 = 5 * nc;
    std::vector<double> M5(static_cast<size_t>(m5 * m5), 0.0), q5(m5, 0.0), mu_r(nc, 0.0);
    auto row = [](int i) { return 5 * (i / 3) + i % 3; };
    for (int i = 0; i < m3; ++i) {
      q5[row(i)] = f->q[i];
      for (int j = 0; j < m3; ++j) M5[row(i) + m5 * row(j)] = nsd_matrix_get(f->M, i, j);
    }
    for (int a = 0; a < nc; ++a)
      for (int k = 3; k < 5; ++k) M5[(5 * a + k) * (m5 + 1)] = 1.0;
    std::vector<double> mu(f->mu, f->mu + nc);
    Rfc rfc(5, nc, nsd_matrix_create_dense_from(m5, m5, M5.data()), q5, mu, mu_r);

    // FC3D's answer
    std::vector<double> r3(m3), u3(m3);
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    o.tolerance = 1e-12;
    NsdReport frep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_fc3d_nsgs(f, r3.data(), u3.data(), &o, &frep));
    std::vector<double> r5(m5, 0.0);
    for (int i = 0; i < m3; ++i) r5[row(i)] = r3[i];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(nsd_fc_error(f, r3.data(), nullptr),
                                 nsd_rfc_error(rfc.p, r5.data(), nullptr), 1e-15);

    for (NsdRfcSolver s : {nsd_rfc_nsgs, nsd_rfc_pg}) {
      Solve sol = solve(rfc.p, s, 1e-12);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, sol.status);
      for (int i = 0; i < m3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(r3[i], sol.r[row(i)], 1e-8);
      for (int a = 0; a < nc; ++a) {
        CPPUNIT_ASSERT_EQUAL(0.0, sol.r[5 * a + 3]);
        CPPUNIT_ASSERT_EQUAL(0.0, sol.r[5 * a + 4]);
      }
    }
    nsd_problem_clear(&fc);
  }

  // Random SPD problems (20 contacts): nsgs and pg to 1e-8, the reported residual being
  // the error measure of the returned r.
  void randomProblems() {
    for (unsigned seed = 1; seed <= 4; ++seed) {
      const int nc = 20, m = 5 * nc;
      std::mt19937 gen(seed);
      std::uniform_real_distribution<double> U(-1.0, 1.0);
      std::vector<double> q(m), mu(nc), mu_r(nc);
      for (double& x : q) x = U(gen);
      for (int a = 0; a < nc; ++a) {
        q[5 * a] = -std::fabs(q[5 * a]) * (a % 4 ? 1.0 : -1.0);  // a few contacts open
        mu[a] = 0.3 + 0.2 * U(gen);
        mu_r[a] = 0.1 + 0.05 * U(gen);
      }
      const std::vector<double> A = spd(m, seed, 0.5);
      Rfc rfc(5, nc, nsd_matrix_create_dense_from(m, m, A.data()), q, mu, mu_r);
      for (NsdRfcSolver s : {nsd_rfc_nsgs, nsd_rfc_pg}) {
        Solve sol = solve(rfc.p, s, 1e-8, 20000);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(sol.rep.message, NSD_OK, sol.status);
        CPPUNIT_ASSERT(sol.rep.residual <= 1e-8);
        CPPUNIT_ASSERT_DOUBLES_EQUAL(sol.rep.residual, nsd_rfc_error(rfc.p, sol.r.data(), nullptr),
                                     1e-15);
        for (int a = 0; a < nc; ++a)
          CPPUNIT_ASSERT(inCone(5, mu[a], mu_r[a], sol.r.data() + 5 * a, 1e-12));
      }
    }
  }

  void randomProblems2d() {
    const int nc = 15, m = 3 * nc;
    std::mt19937 gen(11);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    std::vector<double> q(m), mu(nc, 0.4), mu_r(nc, 0.1);
    for (double& x : q) x = U(gen);
    for (int a = 0; a < nc; ++a) q[3 * a] = -std::fabs(q[3 * a]);
    const std::vector<double> A = spd(m, 11, 0.5);
    Rfc rfc(3, nc, nsd_matrix_create_dense_from(m, m, A.data()), q, mu, mu_r);
    for (NsdRfcSolver s : {nsd_rfc_nsgs, nsd_rfc_pg}) {
      Solve sol = solve(rfc.p, s, 1e-8, 20000);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(sol.rep.message, NSD_OK, sol.status);
      CPPUNIT_ASSERT(sol.rep.residual <= 1e-8);
    }
  }

  void badProblems() {
    std::vector<double> I(25, 0.0);
    for (int i = 0; i < 5; ++i) I[i * 6] = 1.0;
    const std::vector<double> q = {-1, 0, 0, 0, 0};
    {
      Rfc rfc(5, 1, nsd_matrix_create_dense_from(5, 5, I.data()), q, {0.5}, {-0.1});
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(0, nsd_rfc_check(rfc.p, &rep));
      CPPUNIT_ASSERT_EQUAL(std::string("RFC3D: mu_r[0] = -0.1, expected a finite mu_r >= 0"),
                           std::string(rep.message));
      std::vector<double> r(5), u(5);
      for (NsdRfcSolver s : {nsd_rfc_nsgs, nsd_rfc_pg}) {
        NsdReport srep{};
        CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, s(rfc.p, r.data(), u.data(), nullptr, &srep));
        CPPUNIT_ASSERT(std::strstr(srep.message, "mu_r[0] = -0.1") != nullptr);
      }
    }
    {
      Rfc rfc(5, 1, nsd_matrix_create_dense_from(5, 5, I.data()), q, {NAN}, {0.1});
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(0, nsd_rfc_check(rfc.p, &rep));
      CPPUNIT_ASSERT(std::strstr(rep.message, "mu[0] = nan") != nullptr);
    }
    // dimension 4 is refused at creation
    CPPUNIT_ASSERT(nsd_rfc_create(4, 1, nsd_matrix_create_dense(4, 4), nullptr, nullptr, nullptr) ==
                   nullptr);
    // a zero normal diagonal entry: nsgs refuses it naming the contact
    std::vector<double> Z = I;
    Z[0] = 0.0;
    Rfc rfc(5, 1, nsd_matrix_create_dense_from(5, 5, Z.data()), q, {0.5}, {0.1});
    std::vector<double> r(5), u(5);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rfc_nsgs(rfc.p, r.data(), u.data(), nullptr, &rep));
    CPPUNIT_ASSERT(std::strstr(rep.message, "contact 0 has W_NN = 0") != nullptr);
  }

  // nsd_solve by kind and name, the default, nsd_problem_error, the kind names.
  void solveThroughTheTable() {
    CPPUNIT_ASSERT_EQUAL(std::string("nsgs"), std::string(nsd_solver_default(NSD_KIND_RFC3D)));
    CPPUNIT_ASSERT(nsd_solver_find(NSD_KIND_RFC3D, "pg") != nullptr);
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_RFC3D, nsd_kind_from_name("rfc3d"));
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_RFC2D, nsd_kind_from_name("rfc2d"));
    std::vector<double> I(25, 0.0);
    for (int i = 0; i < 5; ++i) I[i * 6] = 2.0;
    const double q[5] = {-1, 0.1, 0, 0, 0.01}, mu = 0.5, mu_r = 0.1;
    NsdProblem p{};
    p.kind = NSD_KIND_RFC3D;
    p.rfc = nsd_rfc_create(5, 1, nsd_matrix_create_dense_from(5, 5, I.data()), q, &mu, &mu_r);
    CPPUNIT_ASSERT_EQUAL(5, nsd_problem_size(&p));
    CPPUNIT_ASSERT_EQUAL(1, nsd_problem_contacts(&p));
    for (const char* name : {static_cast<const char*>(nullptr), "nsgs", "pg"}) {
      double r[5], u[5];
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&p, name, r, u, nullptr, &rep));
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, r[0], 1e-9);
      CPPUNIT_ASSERT(nsd_problem_error(&p, r) <= 1e-8);
    }
    double r[5], u[5];
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_solve(&p, "lemke", r, u, nullptr, &rep));
    CPPUNIT_ASSERT(std::strstr(rep.message, "available: nsgs, pg") != nullptr);
    nsd_problem_clear(&p);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RfcTest);
