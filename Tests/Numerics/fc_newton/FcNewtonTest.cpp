// Global nonsmooth Newton solvers (Numerics/src/friction/fc3d_newton.c):
// one-contact known answers for both, the local Jacobians against finite
// differences, local quadratic convergence, reports and bad input.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "fc_newton_test_util.hpp"
#include "friction/fc_maps.h"

using namespace nsdyn::test;

namespace {

using LocalFn = void (*)(const double*, const double*, double, double, double*, double*, double*);

// Solve a one-contact problem with M = diag(d) by both solvers, check r and u.
void checkOneContact(const std::string& what, const std::vector<double>& m_rows,
                     const std::vector<double>& q, double mu, const std::vector<double>& r_expect,
                     const std::vector<double>& u_expect) {
  for (const NamedFcSolver& s : newtonSolvers()) {
    FcTestProblem t(3, m_rows, q, {mu});
    const std::string name = what + " x " + s.name;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(name + ": " + describe(t.rep), NSD_OK, t.solve(s.fn));
    CPPUNIT_ASSERT_MESSAGE(name, t.rep.residual <= t.opt.tolerance);
    CPPUNIT_ASSERT_EQUAL(std::string(s.name), std::string(t.rep.solver));
    for (size_t i = 0; i < 3; ++i) {
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(name + ": r", r_expect[i], t.r[i], 1e-7);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(name + ": u", u_expect[i], t.u[i], 1e-7);
    }
    assertConsistent(t, name);
  }
}

// Central finite-difference check of the blocks a = dphi/dr, b = dphi/du at (r, u).
void checkJacobian(LocalFn fn, const std::string& what, const double* r, const double* u, double mu,
                   double rho) {
  double phi[3], a[9], b[9];
  fn(r, u, mu, rho, phi, a, b);
  const double h = 1e-7;
  for (int which = 0; which < 2; ++which)
    for (int j = 0; j < 3; ++j) {
      double rp[3] = {r[0], r[1], r[2]}, rm[3] = {r[0], r[1], r[2]};
      double up[3] = {u[0], u[1], u[2]}, um[3] = {u[0], u[1], u[2]};
      (which == 0 ? rp : up)[j] += h;
      (which == 0 ? rm : um)[j] -= h;
      double fp[3], fm[3];
      fn(rp, up, mu, rho, fp, nullptr, nullptr);
      fn(rm, um, mu, rho, fm, nullptr, nullptr);
      for (int i = 0; i < 3; ++i) {
        const double fd = (fp[i] - fm[i]) / (2.0 * h);
        const double an = (which == 0 ? a : b)[i + 3 * j];
        CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + (which == 0 ? ": d phi/d r" : ": d phi/d u") +
                                                 " entry (" + std::to_string(i) + "," +
                                                 std::to_string(j) + ")",
                                             fd, an, 1e-5 * (1.0 + std::fabs(fd)));
      }
    }
}

// The Alart-Curnier map with rho_n = rho_t = rho (the global solver's), and with
// rho_t = rho / 2 (the local solver's scales differ).
void acLocal(const double* r, const double* u, double mu, double rho, double* phi, double* a,
             double* b) {
  nsd_fcm_ac(r, u, mu, rho, rho, phi, a, b);
}
void acLocalSplit(const double* r, const double* u, double mu, double rho, double* phi, double* a,
                  double* b) {
  nsd_fcm_ac(r, u, mu, rho, 0.5 * rho, phi, a, b);
}

// Distance of (r, u) to the kinks of the Alart-Curnier function (tangential scale rho_t).
double acKinkDistance(const double* r, const double* u, double mu, double rho, double rho_t) {
  const double xn = r[0] - rho * u[0];
  const double ny = std::hypot(r[1] - rho_t * u[1], r[2] - rho_t * u[2]);
  return std::fmin(std::fabs(xn), std::fabs(ny - mu * std::fmax(xn, 0.0)));
}

// Distance of (r, u) to the kinks of the Fischer-Burmeister function: u_T = 0 and
// the smallest eigenvalue of x o x + y o y (x, y the Lorentz-cone images) at 0.
double fbKinkDistance(const double* r, const double* u, double mu, double rho) {
  const double s = std::sqrt(mu), nut = std::hypot(u[1], u[2]);
  const double x[3] = {s * r[0], r[1] / s, r[2] / s};
  const double y[3] = {rho * (u[0] + mu * nut) / s, rho * s * u[1], rho * s * u[2]};
  const double z0 =
      x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
  const double nz = 2.0 * std::hypot(x[0] * x[1] + y[0] * y[1], x[0] * x[2] + y[0] * y[2]);
  return std::fmin(nut, std::sqrt(std::fmax(z0 - nz, 0.0)));
}

}  // namespace

class FcNewtonTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcNewtonTest);
  CPPUNIT_TEST(sticks);
  CPPUNIT_TEST(slips);
  CPPUNIT_TEST(takesOff);
  CPPUNIT_TEST(frictionless);
  CPPUNIT_TEST(acJacobianMatchesFiniteDifferences);
  CPPUNIT_TEST(fbJacobianMatchesFiniteDifferences);
  CPPUNIT_TEST(residualsVanishAtSolutions);
  CPPUNIT_TEST(convergesQuadratically);
  CPPUNIT_TEST(warmStartAtSolutionTakesNoStep);
  CPPUNIT_TEST(recordsHistoryAndStopsAtIterationCap);
  CPPUNIT_TEST(noContacts);
  CPPUNIT_TEST(rejectsBadInput);
  CPPUNIT_TEST_SUITE_END();

 public:
  void sticks() {
    // M = I, q = (-1, 0.1, 0), mu = 0.5: u = 0 needs r = (1, -0.1, 0), |r_T| = 0.1 <= 0.5
    checkOneContact("stick", {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 0.1, 0}, 0.5, {1, -0.1, 0},
                    {0, 0, 0});
    // M = diag(2, 1, 4), q = (-2, 0.2, -0.4), mu = 0.3: r = (1, -0.2, 0.1)
    checkOneContact("stick, anisotropic", {2, 0, 0, 0, 1, 0, 0, 0, 4}, {-2, 0.2, -0.4}, 0.3,
                    {1, -0.2, 0.1}, {0, 0, 0});
  }

  void slips() {
    // formats/README.md: M = I, mu = 0.5, q = (-1, 1, 0): r = (1, -0.5, 0), u = (0, 0.5, 0)
    checkOneContact("slip", {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 1, 0}, 0.5, {1, -0.5, 0},
                    {0, 0.5, 0});
    // M = I, mu = 0.2, q = (-2, 3, -4): r_T = -0.4 (0.6, -0.8), u_T = q_T + r_T = (2.76, -3.68)
    checkOneContact("slip, oblique", {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-2, 3, -4}, 0.2,
                    {2, -0.24, 0.32}, {0, 2.76, -3.68});
  }

  void takesOff() {
    // q_n > 0: r = 0, u = q
    checkOneContact("take-off", {1, 0.1, 0, 0.1, 1, 0, 0, 0, 1}, {1, 0.3, -0.2}, 0.5, {0, 0, 0},
                    {1, 0.3, -0.2});
  }

  void frictionless() {
    // mu = 0: r = (2, 0, 0), u = (0, 1, 1)
    checkOneContact("mu = 0", {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-2, 1, 1}, 0.0, {2, 0, 0}, {0, 1, 1});
  }

  void acJacobianMatchesFiniteDifferences() {
    std::mt19937 gen(42);
    std::uniform_real_distribution<double> val(-1.0, 1.0), pos(0.1, 1.0);
    int checked = 0, stick = 0, slip = 0, open = 0;
    for (int k = 0; k < 400; ++k) {
      const double r[3] = {val(gen), val(gen), val(gen)}, u[3] = {val(gen), val(gen), val(gen)};
      const double mu = pos(gen), rho = 2.0 * pos(gen);
      if (acKinkDistance(r, u, mu, rho, rho) < 1e-3) continue;
      const double xn = r[0] - rho * u[0];
      const double ny = std::hypot(r[1] - rho * u[1], r[2] - rho * u[2]);
      (xn <= 0 ? open : ny <= mu * xn ? stick : slip) += 1;
      checkJacobian(acLocal, "AC point " + std::to_string(k), r, u, mu, rho);
      if (acKinkDistance(r, u, mu, rho, 0.5 * rho) >= 1e-3)
        checkJacobian(acLocalSplit, "AC (rho_t = rho_n / 2) point " + std::to_string(k), r, u, mu,
                      rho);
      ++checked;
    }
    // every region of the function was visited
    CPPUNIT_ASSERT(checked > 300);
    CPPUNIT_ASSERT(stick > 10 && slip > 10 && open > 10);
  }

  void fbJacobianMatchesFiniteDifferences() {
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> val(-1.0, 1.0), pos(0.1, 1.0);
    int checked = 0;
    for (int k = 0; k < 400; ++k) {
      const double r[3] = {val(gen), val(gen), val(gen)}, u[3] = {val(gen), val(gen), val(gen)};
      const double mu = k % 10 == 0 ? 0.0 : pos(gen), rho = 2.0 * pos(gen);
      if (mu > 0.0 && fbKinkDistance(r, u, mu, rho) < 1e-3) continue;
      checkJacobian(nsd_fcm_fb, "FB point " + std::to_string(k), r, u, mu, rho);
      ++checked;
    }
    CPPUNIT_ASSERT(checked > 300);
  }

  void residualsVanishAtSolutions() {
    // stick, slip and take-off points of Coulomb's law (u = velocity, r = reaction)
    const double mu = 0.5, rho = 0.7;
    const double cases[][6] = {
        {1, -0.1, 0.2, 0, 0, 0}, {1, -0.3, 0.4, 0, 0.6, -0.8}, {0, 0, 0, 2, 0.3, -1}};
    for (const auto& c : cases) {
      double phi[3];
      nsd_fcm_ac(c, c + 3, mu, rho, rho, phi, nullptr, nullptr);
      for (double v : phi) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, v, 1e-14);
      // De Saxce: the FB function vanishes at (r, u) of Coulomb's law
      nsd_fcm_fb(c, c + 3, mu, rho, phi, nullptr, nullptr);
      for (double v : phi) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, v, 1e-7);
    }
  }

  void convergesQuadratically() {
    // two coupled contacts, one sticking and one sliding (non-degenerate solution)
    const std::vector<double> m = {2.0, 0.1, 0.0, 0.3, 0.0, 0.1,  //
                                   0.1, 1.5, 0.2, 0.0, 0.1, 0.0,  //
                                   0.0, 0.2, 1.8, 0.1, 0.0, 0.0,  //
                                   0.3, 0.0, 0.1, 2.2, 0.0, 0.2,  //
                                   0.0, 0.1, 0.0, 0.0, 1.6, 0.1,  //
                                   0.1, 0.0, 0.0, 0.2, 0.1, 1.9};
    const std::vector<double> q = {-1.0, 0.1, -0.05, -1.5, 2.0, -1.0};
    for (const NamedFcSolver& s : newtonSolvers()) {
      FcTestProblem t(3, m, q, {0.6, 0.4});
      t.opt.tolerance = 1e-15;
      std::vector<double> history(50, 0.0);
      t.rep.history = history.data();
      t.rep.history_capacity = static_cast<int>(history.size());
      const NsdStatus status = t.solve(s.fn);
      const std::string what = std::string(s.name) + ": " + describe(t.rep);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_OK, status);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, t.rep.iterations + 1, t.rep.history_length);

      // contact 0 sticks, contact 1 slides: the solution is the one expected
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, std::hypot(t.u[1], t.u[2]), 1e-12);
      CPPUNIT_ASSERT(std::hypot(t.u[4], t.u[5]) > 0.1);

      // near the solution the error is squared at each step, up to a constant
      int quadratic_steps = 0;
      for (int k = 0; k + 1 < t.rep.history_length; ++k) {
        const double e0 = history[static_cast<size_t>(k)], e1 = history[static_cast<size_t>(k + 1)];
        if (e0 > 1e-2 || e0 < 1e-7) continue;
        CPPUNIT_ASSERT_MESSAGE(what + ": step " + std::to_string(k) + " from " +
                                   std::to_string(e0) + " to " + std::to_string(e1),
                               e1 <= 100.0 * e0 * e0);
        ++quadratic_steps;
      }
      CPPUNIT_ASSERT_MESSAGE(what, quadratic_steps >= 1);
    }
  }

  void warmStartAtSolutionTakesNoStep() {
    for (const NamedFcSolver& s : newtonSolvers()) {
      FcTestProblem t(3, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {-1, 1, 0}, {0.5});
      t.r = {1, -0.5, 0};
      t.opt.warm_start = 1;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, t.solve(s.fn));
      CPPUNIT_ASSERT_EQUAL(0, t.rep.iterations);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t.rep.residual, 1e-15);
    }
  }

  void recordsHistoryAndStopsAtIterationCap() {
    // a real problem, one Newton step allowed at tolerance 0: honest non-OK report
    for (const NamedFcSolver& s : newtonSolvers()) {
      FcTestProblem t(readFc3dFile(sharedFc3dPath("Capsules-i101-404.dat")));
      t.opt.max_iterations = 1;
      t.opt.tolerance = 1e-300;  // as small as allowed (> 0): run every iteration
      std::vector<double> history(4, -1.0);
      t.rep.history = history.data();
      t.rep.history_capacity = 4;
      const NsdStatus status = t.solve(s.fn);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_MAX_ITERATIONS, status);
      CPPUNIT_ASSERT_EQUAL(1, t.rep.iterations);
      CPPUNIT_ASSERT_EQUAL(2, t.rep.history_length);
      CPPUNIT_ASSERT(t.rep.message[0] != '\0');
      CPPUNIT_ASSERT_DOUBLES_EQUAL(t.rep.residual, history[1], 0.0);
      CPPUNIT_ASSERT(history[1] < history[0]);
      assertConsistent(t, s.name);
    }
  }

  void noContacts() {
    for (const NamedFcSolver& s : newtonSolvers()) {
      FcTestProblem t(nsd_fc_create(3, 0, nsd_matrix_create_dense(0, 0), nullptr, nullptr));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(t.rep), NSD_OK, t.solve(s.fn));
      CPPUNIT_ASSERT_EQUAL(0, t.rep.iterations);
    }
  }

  void rejectsBadInput() {
    const std::vector<double> id = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    for (const NamedFcSolver& s : newtonSolvers()) {
      const std::string name = s.name;
      {
        FcTestProblem t(3, id, {-1, 0, 0}, {0.5});
        t.fc->mu[0] = -0.1;
        CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " mu < 0", NSD_BAD_INPUT, t.solve(s.fn));
        CPPUNIT_ASSERT(t.rep.message[0] != '\0');
      }
      {
        FcTestProblem t(3, id, {-1, 0, 0}, {0.5});
        t.fc->q[1] = std::numeric_limits<double>::quiet_NaN();
        CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " NaN in q", NSD_BAD_INPUT, t.solve(s.fn));
      }
      {
        FcTestProblem t(2, {1, 0, 0, 1}, {-1, 0}, {0.5});
        CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " dim 2", NSD_BAD_INPUT, t.solve(s.fn));
        CPPUNIT_ASSERT(std::string(t.rep.message).find("dimension") != std::string::npos);
      }
      {
        FcTestProblem t(3, id, {-1, 0, 0}, {0.5});
        t.r[0] = std::numeric_limits<double>::infinity();
        t.opt.warm_start = 1;
        CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " warm start inf", NSD_BAD_INPUT, t.solve(s.fn));
      }
      {
        FcTestProblem t(3, id, {-1, 0, 0}, {0.5});
        t.opt.newton.step_shrink = 1.5;
        CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " step_shrink", NSD_BAD_INPUT, t.solve(s.fn));
        CPPUNIT_ASSERT(std::string(t.rep.message).find("step_shrink") != std::string::npos);
      }
      {
        FcTestProblem t(3, id, {-1, 0, 0}, {0.5});
        t.opt.newton.armijo_sigma = 0.0;
        CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " armijo_sigma", NSD_BAD_INPUT, t.solve(s.fn));
      }
      {
        FcTestProblem t(3, id, {-1, 0, 0}, {0.5});
        CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " NULL r", NSD_BAD_INPUT,
                                     s.fn(t.fc, nullptr, t.u.data(), &t.opt, &t.rep));
        CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " NULL problem", NSD_BAD_INPUT,
                                     s.fn(nullptr, t.r.data(), t.u.data(), &t.opt, &t.rep));
      }
      {
        // NULL options and NULL report are allowed
        FcTestProblem t(3, id, {-1, 1, 0}, {0.5});
        CPPUNIT_ASSERT_EQUAL(NSD_OK, s.fn(t.fc, t.r.data(), t.u.data(), nullptr, nullptr));
        CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t.r[0], 1e-9);
      }
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcNewtonTest);
