// Rolling friction contact with a zero coefficient (issue 27): two dynamic spheres on a
// floor, touching each other, so that the rolling rows of every contact are coupled in W
// with the normal and tangential rows and with the other contacts. With mu_r = 0 (r_R = 0)
// the problem is the FC3D problem on (N, T1, T2): nsgs reaches 1e-10 in about as many
// sweeps as FC3D nsgs, with the same answer, and each one-contact solve is exact and fast.
// mu = 0 (r_T = 0) and mu = mu_r = 0 likewise.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "nsdyn/numerics.h"
#include "rfc_test_util.hpp"

namespace {

constexpr int kNc = 3, kM = 5 * kNc;

struct Scene {
  std::vector<double> W, q;  // W column-major kM x kM
};

// The two spheres (radius R, mass m, I = 2/5 m R^2) at (-R, 0, R) and (R, 0, R): contact 0
// sphere A - floor, 1 sphere B - floor, 2 sphere B - sphere A (normal +x). Rows per
// contact: n, t1, t2 of the relative velocity at the contact point, then t1, t2 of the
// relative angular velocity. v_free: one step of gravity, A thrown at B, both spinning.
Scene twoSpheres() {
  const double R = 0.1, m = 1.0, I = 0.4 * m * R * R;
  const double minv[6] = {1 / m, 1 / m, 1 / m, 1 / I, 1 / I, 1 / I};
  const double vA[6] = {0.3, 0.1, -0.0981, 0.0, -2.0, 1.0};
  const double vB[6] = {-0.3, -0.2, -0.0981, 2.0, 0.0, -1.0};
  // per contact: frame (n, t1, t2), first body and its lever arm, second body (-1: floor)
  struct C {
    double n[3], t1[3], t2[3];
    int first;
    double l1[3];
    int second;
    double l2[3];
  };
  const C cs[kNc] = {
      {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}, 0, {0, 0, -R}, -1, {0, 0, 0}},
      {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}, 1, {0, 0, -R}, -1, {0, 0, 0}},
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, 1, {-R, 0, 0}, 0, {R, 0, 0}},
  };
  // J: kM x 12 (the twists of A then B), row-major
  std::vector<double> J(static_cast<size_t>(kM * 12), 0.0);
  for (int a = 0; a < kNc; ++a) {
    const double* dir[5] = {cs[a].n, cs[a].t1, cs[a].t2, cs[a].t1, cs[a].t2};
    for (int i = 0; i < 5; ++i)
      for (int side = 0; side < 2; ++side) {
        const int body = side ? cs[a].second : cs[a].first;
        if (body < 0) continue;
        const double s = side ? -1.0 : 1.0;
        const double* l = side ? cs[a].l2 : cs[a].l1;
        const double* d = dir[i];
        double* row = &J[static_cast<size_t>(12 * (5 * a + i) + 6 * body)];
        if (i < 3) {
          for (int k = 0; k < 3; ++k) row[k] += s * d[k];
          const double lxd[3] = {l[1] * d[2] - l[2] * d[1], l[2] * d[0] - l[0] * d[2],
                                 l[0] * d[1] - l[1] * d[0]};
          for (int k = 0; k < 3; ++k) row[3 + k] += s * lxd[k];
        } else {
          for (int k = 0; k < 3; ++k) row[3 + k] += s * d[k];
        }
      }
  }
  Scene sc;
  sc.W.assign(static_cast<size_t>(kM * kM), 0.0);
  sc.q.assign(kM, 0.0);
  for (int i = 0; i < kM; ++i) {
    for (int k = 0; k < 12; ++k) sc.q[i] += J[12 * i + k] * (k < 6 ? vA[k] : vB[k - 6]);
    for (int j = 0; j < kM; ++j) {
      double s = 0.0;
      for (int k = 0; k < 12; ++k) s += J[12 * i + k] * minv[k % 6] * J[12 * j + k];
      sc.W[i + kM * j] = s;
    }
  }
  return sc;
}

using nsdyn::test::norm;
using nsdyn::test::run;
using Run = nsdyn::test::RfcRun;

// Row i of the friction rows (n, t1, t2 in 5D; n, t in 3D) in a problem of dimension @p dim.
int frictionRow(int dim, int i) {
  const int d3 = dim == 5 ? 3 : 2;
  return dim * (i / d3) + i % d3;
}

// The FC3D (dim 5) or FC2D (dim 3) problem on the friction rows of the dim x nc problem
// (A column-major, q), friction coefficients mu.
NsdFc* frictionProblem(int dim, int nc, const std::vector<double>& A, const std::vector<double>& q,
                       const std::vector<double>& mu) {
  const int m = dim * nc, d3 = dim == 5 ? 3 : 2, m3 = d3 * nc;
  std::vector<double> A3(static_cast<size_t>(m3 * m3)), q3(m3);
  for (int i = 0; i < m3; ++i) {
    q3[i] = q[frictionRow(dim, i)];
    for (int j = 0; j < m3; ++j) A3[i + m3 * j] = A[frictionRow(dim, i) + m * frictionRow(dim, j)];
  }
  return nsd_fc_create(d3, nc, nsd_matrix_create_dense_from(m3, m3, A3.data()), q3.data(),
                       mu.data());
}

}  // namespace

class RfcCoupledTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RfcCoupledTest);
  CPPUNIT_TEST(sceneIsCoupled);
  CPPUNIT_TEST(noRollingIsFc3d);
  CPPUNIT_TEST(localSolveNoRollingIsExactAndFast);
  CPPUNIT_TEST(zeroFrictionCoefficients);
  CPPUNIT_TEST(randomCoupledNoRolling);
  CPPUNIT_TEST_SUITE_END();

 public:
  // the rolling rows do couple: with the normal and tangential rows, and across contacts
  void sceneIsCoupled() {
    const Scene sc = twoSpheres();
    CPPUNIT_ASSERT(std::fabs(sc.W[4 + kM * 1]) > 1.0);   // contact 0: R2 with T1
    CPPUNIT_ASSERT(std::fabs(sc.W[13 + kM * 4]) > 1.0);  // contact 2 R1 with contact 0 R2
    for (int a = 0; a < kNc; ++a) CPPUNIT_ASSERT(sc.q[5 * a] < 0.0);  // all closing
  }

  // mu_r = 0 everywhere: nsgs to 1e-10 in as many sweeps as FC3D nsgs (+ a few), the
  // answer of FC3D nsgs and newton_ac on the rows (N, T1, T2), r_R = 0 exactly.
  void noRollingIsFc3d() {
    const Scene sc = twoSpheres();
    const std::vector<double> mu(kNc, 0.5), mu_r(kNc, 0.0);
    NsdRfc* rfc = nsd_rfc_create(5, kNc, nsd_matrix_create_dense_from(kM, kM, sc.W.data()),
                                 sc.q.data(), mu.data(), mu_r.data());
    const int m3 = 3 * kNc;
    auto row = [](int i) { return frictionRow(5, i); };
    NsdFc* fc = frictionProblem(5, kNc, sc.W, sc.q, mu);
    const Run f1 = run(fc, m3, nsd_fc3d_nsgs, 1e-12, 1000);
    const Run f2 = run(fc, m3, nsd_fc3d_newton_ac, 1e-12, 1000);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, f1.status);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, f2.status);
    const Run s = run(rfc, kM, nsd_rfc_nsgs, 1e-10, 1000);
    std::printf(
        "\n  two spheres, mu_r = 0: rfc nsgs %d sweeps (%.3g), %.3g us a sweep; fc3d "
        "nsgs %d sweeps to 1e-12\n",
        s.rep.iterations, s.rep.residual, 1e6 * s.rep.seconds / s.rep.iterations,
        f1.rep.iterations);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(s.rep.message, NSD_OK, s.status);
    CPPUNIT_ASSERT(s.rep.residual <= 1e-10);
    CPPUNIT_ASSERT(s.rep.iterations <= f1.rep.iterations + 10);  // 1000 (a stall) before
    for (int i = 0; i < m3; ++i) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL(f1.r[i], s.r[row(i)], 1e-9);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(f2.r[i], s.r[row(i)], 1e-9);
    }
    for (int a = 0; a < kNc; ++a) {
      CPPUNIT_ASSERT_EQUAL(0.0, s.r[5 * a + 3]);
      CPPUNIT_ASSERT_EQUAL(0.0, s.r[5 * a + 4]);
    }
    CPPUNIT_ASSERT(norm(s.r.data(), kM) > 0.1);  // not the trivial answer
    nsd_rfc_destroy(rfc);
    nsd_fc_destroy(fc);
  }

  // One contact with its coupled 5x5 block, the others' impulses (FC3D's answer) in q:
  // with mu_r = 0 the exact local answer is FC3D's, ||F|| at machine precision in a few
  // microseconds; mu = 0 and mu = mu_r = 0 as exact.
  void localSolveNoRollingIsExactAndFast() {
    const Scene sc = twoSpheres();
    const std::vector<double> mu(kNc, 0.5);
    const int m3 = 3 * kNc;
    auto row = [](int i) { return frictionRow(5, i); };
    NsdFc* fc = frictionProblem(5, kNc, sc.W, sc.q, mu);
    const Run f = run(fc, m3, nsd_fc3d_nsgs, 1e-14, 1000);
    std::vector<double> r5(kM, 0.0);
    for (int i = 0; i < m3; ++i) r5[row(i)] = f.r[i];
    for (int a = 0; a < kNc; ++a) {
      double W[25], q[5];
      for (int i = 0; i < 5; ++i) {
        q[i] = sc.q[5 * a + i];
        for (int j = 0; j < kM; ++j)
          if (j / 5 != a) q[i] += sc.W[5 * a + i + kM * j] * r5[j];
        for (int j = 0; j < 5; ++j) W[i + 5 * j] = sc.W[5 * a + i + kM * (5 * a + j)];
      }
      const double cases[3][2] = {{0.5, 0.0}, {0.0, 0.05}, {0.0, 0.0}};
      for (const auto& c : cases) {
        const int reps = 1000;
        double F = 0.0, r[5] = {0, 0, 0, 0, 0};
        const double t0 = nsd_wall_time();
        for (int k = 0; k < reps; ++k) {
          for (double& x : r) x = 0.0;
          F = nsd_rfc_solve_one(5, W, q, c[0], c[1], r);
        }
        const double us = 1e6 * (nsd_wall_time() - t0) / reps;
        std::printf("  contact %d local solve mu %g mu_r %g: ||F|| %.3g, %.3g us\n", a, c[0], c[1],
                    F, us);
        const std::string what = "contact " + std::to_string(a) + " mu " + std::to_string(c[0]) +
                                 " mu_r " + std::to_string(c[1]);
        CPPUNIT_ASSERT_MESSAGE(what, F <= 1e-13 * std::fmax(1.0, norm(q, 5)));
        CPPUNIT_ASSERT_MESSAGE(what, us < 50.0);  // ~1 us; over 100 us (fixed point) before
        CPPUNIT_ASSERT(r[0] > 0.0);
        if (c[0] == 0.0) CPPUNIT_ASSERT(r[1] == 0.0 && r[2] == 0.0);
        if (c[1] == 0.0) CPPUNIT_ASSERT(r[3] == 0.0 && r[4] == 0.0);
        if (c[0] == 0.5)
          for (int i = 0; i < 3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(f.r[3 * a + i], r[i], 1e-12);
      }
    }
    nsd_fc_destroy(fc);
  }

  // mu = 0 on contact 0, mu_r = 0 on contact 1, both on contact 2: nsgs to 1e-10 in a
  // few tens of sweeps, the zero parts exactly 0, the answer of pg.
  void zeroFrictionCoefficients() {
    const Scene sc = twoSpheres();
    const std::vector<double> mu = {0.0, 0.5, 0.0}, mu_r = {0.05, 0.0, 0.0};
    NsdRfc* rfc = nsd_rfc_create(5, kNc, nsd_matrix_create_dense_from(kM, kM, sc.W.data()),
                                 sc.q.data(), mu.data(), mu_r.data());
    const Run s = run(rfc, kM, nsd_rfc_nsgs, 1e-10, 1000);
    std::printf("  two spheres, mu/mu_r zeros: rfc nsgs %d sweeps (%.3g)\n", s.rep.iterations,
                s.rep.residual);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(s.rep.message, NSD_OK, s.status);
    CPPUNIT_ASSERT(s.rep.iterations <= 100);
    CPPUNIT_ASSERT(s.r[1] == 0.0 && s.r[2] == 0.0);
    CPPUNIT_ASSERT(s.r[8] == 0.0 && s.r[9] == 0.0);
    for (int i = 11; i < 15; ++i) CPPUNIT_ASSERT_EQUAL(0.0, s.r[i]);
    const Run p = run(rfc, kM, nsd_rfc_pg, 1e-10, 200000);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(p.rep.message, NSD_OK, p.status);
    for (int i = 0; i < kM; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(p.r[i], s.r[i], 1e-7);
    nsd_rfc_destroy(rfc);
  }

  // Random SPD problems, every row coupled, mu_r = 0: 3D (20 contacts) and 2D (15)
  // against FC3D / FC2D nsgs on the rows without rolling, nsgs to 1e-10.
  void randomCoupledNoRolling() {
    for (const int dim : {5, 3}) {
      const int nc = dim == 5 ? 20 : 15, m = dim * nc, d3 = dim == 5 ? 3 : 2, m3 = d3 * nc;
      std::mt19937 gen(31 + dim);
      std::uniform_real_distribution<double> U(-1.0, 1.0);
      std::vector<double> A(static_cast<size_t>(m * m), 0.0), H(static_cast<size_t>(m * m));
      for (double& h : H) h = U(gen);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) {
          for (int k = 0; k < m; ++k) A[i + m * j] += H[i + m * k] * H[j + m * k] / m;
          if (i == j) A[i + m * j] += 0.5;
        }
      std::vector<double> q(m), mu(nc), mu_r(nc, 0.0);
      for (double& x : q) x = U(gen);
      for (int a = 0; a < nc; ++a) {
        q[dim * a] = -std::fabs(q[dim * a]) * (a % 4 ? 1.0 : -1.0);
        mu[a] = 0.3 + 0.2 * U(gen);
      }
      auto row = [&](int i) { return frictionRow(dim, i); };
      NsdRfc* rfc = nsd_rfc_create(dim, nc, nsd_matrix_create_dense_from(m, m, A.data()), q.data(),
                                   mu.data(), mu_r.data());
      NsdFc* fc = frictionProblem(dim, nc, A, q, mu);
      const Run f = run(fc, m3, dim == 5 ? nsd_fc3d_nsgs : nsd_fc2d_nsgs, 1e-12, 10000);
      const Run s = run(rfc, m, nsd_rfc_nsgs, 1e-10, 1000);
      std::printf(
          "  random dim %d, mu_r = 0: rfc nsgs %d sweeps (%.3g), fc nsgs %d sweeps to "
          "1e-12\n",
          dim, s.rep.iterations, s.rep.residual, f.rep.iterations);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.rep.message, NSD_OK, f.status);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(s.rep.message, NSD_OK, s.status);
      CPPUNIT_ASSERT(s.rep.iterations <= f.rep.iterations + 10);
      for (int i = 0; i < m3; ++i) CPPUNIT_ASSERT_DOUBLES_EQUAL(f.r[i], s.r[row(i)], 1e-9);
      for (int a = 0; a < nc; ++a)
        for (int k = d3; k < dim; ++k) CPPUNIT_ASSERT_EQUAL(0.0, s.r[dim * a + k]);
      nsd_rfc_destroy(rfc);
      nsd_fc_destroy(fc);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RfcCoupledTest);
