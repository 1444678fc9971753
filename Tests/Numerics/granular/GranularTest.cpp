// The granular problem generator (Benchmarks/granular.c): valid FC3D problems,
// touching geometry, signs of J, N = J M^-1 J^T assembled against the factored
// operator, contact counts near the target, determinism, .dat round trip and
// bad parameters. Small sizes only.
#include <cppunit/extensions/HelperMacros.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "granular.h"

namespace {

struct SceneDeleter {
  void operator()(GranularScene* s) const { granular_destroy(s); }
};
using Scene = std::unique_ptr<GranularScene, SceneDeleter>;

struct FcDeleter {
  void operator()(NsdFc* p) const { nsd_fc_destroy(p); }
};
using Fc = std::unique_ptr<NsdFc, FcDeleter>;

Scene build(int contacts, unsigned long long seed = 1) {
  GranularParams p;
  granular_params_default(&p);
  p.contacts = contacts;
  p.seed = seed;
  GranularScene* s = nullptr;
  NsdReport rep{};
  NsdStatus st = granular_build(&p, &s, &rep);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, st);
  return Scene(s);
}

std::vector<double> randomVector(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& x : v) x = d(gen);
  return v;
}

double maxAbs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

}  // namespace

class GranularTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(GranularTest);
  CPPUNIT_TEST(problemIsValid);
  CPPUNIT_TEST(spheresTouchWithSmallGaps);
  CPPUNIT_TEST(framesAreOrthonormal);
  CPPUNIT_TEST(rigidMotionGivesNoRelativeVelocity);
  CPPUNIT_TEST(floorContactSeesApproach);
  CPPUNIT_TEST(assembledEqualsFactoredProducts);
  CPPUNIT_TEST(assembledEqualsFactoredOperator);
  CPPUNIT_TEST(contactsNearTarget);
  CPPUNIT_TEST(sameSeedSameProblem);
  CPPUNIT_TEST(datFileReadsBackEqual);
  CPPUNIT_TEST(nsgsSolvesSmallProblem);
  CPPUNIT_TEST(badParametersAreRefused);
  CPPUNIT_TEST_SUITE_END();

 public:
  void problemIsValid() {
    Scene s = build(300);
    Fc fc(granular_fc(s.get()));
    CPPUNIT_ASSERT(fc);
    NsdReport rep{};
    CPPUNIT_ASSERT_MESSAGE(rep.message, nsd_fc_check(fc.get(), &rep));
    CPPUNIT_ASSERT_EQUAL(3, fc->dim);
    CPPUNIT_ASSERT_EQUAL(s->n_contacts, fc->nc);
    CPPUNIT_ASSERT_EQUAL(NSD_SPARSE_BLOCK, fc->M->storage);
    CPPUNIT_ASSERT_EQUAL(3 * s->n_contacts, fc->M->rows);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3, fc->mu[0], 0.0);
    // N symmetric, positive diagonal
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_matrix_asymmetry(fc->M), 1e-12);
    std::vector<double> diag(static_cast<size_t>(fc->M->rows));
    nsd_matrix_diagonal(fc->M, diag.data());
    for (double d : diag) CPPUNIT_ASSERT(d > 0);
  }

  void spheresTouchWithSmallGaps() {
    GranularParams p;
    granular_params_default(&p);
    Scene s = build(500);
    for (int a = 0; a < s->n_contacts; ++a) {
      // gap = sum of the two clearance shrinks: in [0, 2 clearance]
      CPPUNIT_ASSERT(s->gap[a] >= 0);
      CPPUNIT_ASSERT(s->gap[a] <= 2 * p.clearance + 1e-12);
      int A = s->body_a[a], B = s->body_b[a];
      if (B >= 0) {
        const double* ca = s->centre + 3 * A;
        const double* cb = s->centre + 3 * B;
        double d = std::sqrt((ca[0] - cb[0]) * (ca[0] - cb[0]) + (ca[1] - cb[1]) * (ca[1] - cb[1]) +
                             (ca[2] - cb[2]) * (ca[2] - cb[2]));
        CPPUNIT_ASSERT_DOUBLES_EQUAL(s->radius[A] + s->radius[B] + s->gap[a], d, 1e-12);
        CPPUNIT_ASSERT(B < A);
      } else {
        CPPUNIT_ASSERT_DOUBLES_EQUAL(s->radius[A] + s->gap[a], s->centre[3 * A + 2], 1e-12);
      }
    }
    // radii within the documented range, lattice barely sheared
    for (int b = 0; b < s->n_bodies; ++b) {
      CPPUNIT_ASSERT(s->radius[b] <= p.radius);
      CPPUNIT_ASSERT(s->radius[b] >=
                     (1 - 2 * p.radius_spread - 2 * p.radius_noise) * p.radius - p.clearance);
    }
    CPPUNIT_ASSERT(s->max_tilt_deg < 20.0);
  }

  void framesAreOrthonormal() {
    Scene s = build(200);
    for (int a = 0; a < s->n_contacts; ++a) {
      const double* f = s->frame + 9 * a;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double dot =
              f[3 * i] * f[3 * j] + f[3 * i + 1] * f[3 * j + 1] + f[3 * i + 2] * f[3 * j + 2];
          CPPUNIT_ASSERT_DOUBLES_EQUAL(i == j ? 1.0 : 0.0, dot, 1e-14);
        }
    }
  }

  void rigidMotionGivesNoRelativeVelocity() {
    // every body moving with one rigid motion v = V + W x c: J v vanishes on
    // sphere-sphere contacts (the floor does not move with them)
    Scene s = build(300);
    const double V[3] = {0.3, -0.2, 0.7}, W[3] = {1.1, 0.4, -0.9};
    std::vector<double> v(6 * static_cast<size_t>(s->n_bodies));
    for (int b = 0; b < s->n_bodies; ++b) {
      const double* c = s->centre + 3 * b;
      double* vb = v.data() + 6 * b;
      vb[0] = V[0] + W[1] * c[2] - W[2] * c[1];
      vb[1] = V[1] + W[2] * c[0] - W[0] * c[2];
      vb[2] = V[2] + W[0] * c[1] - W[1] * c[0];
      for (int k = 0; k < 3; ++k) vb[3 + k] = W[k];
    }
    std::vector<double> u(3 * static_cast<size_t>(s->n_contacts));
    nsd_matrix_gemv(1.0, s->J, v.data(), 0.0, u.data());
    for (int a = 0; a < s->n_contacts; ++a)
      if (s->body_b[a] >= 0)
        for (int k = 0; k < 3; ++k) CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, u[3 * a + k], 1e-12);
  }

  void floorContactSeesApproach() {
    // one sphere on the floor moving down at 1 m/s: u_n = -1, no tangential part
    Scene s = build(1);
    CPPUNIT_ASSERT_EQUAL(1, s->n_contacts);
    CPPUNIT_ASSERT_EQUAL(-1, s->body_b[0]);
    const double v[6] = {0, 0, -1, 0, 0, 0};
    double u[3];
    nsd_matrix_gemv(1.0, s->J, v, 0.0, u);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-1.0, u[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, u[1], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, u[2], 1e-15);
    // and q = J v_free + gap / h
    GranularParams p;
    granular_params_default(&p);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(s->v_free[2] + s->gap[0] / p.time_step, s->q[0], 1e-15);
  }

  void assembledEqualsFactoredProducts() {
    Scene s = build(400);
    Fc fc(granular_fc(s.get()));
    const size_t m = 3 * static_cast<size_t>(s->n_contacts),
                 n = 6 * static_cast<size_t>(s->n_bodies);
    for (unsigned seed = 1; seed <= 3; ++seed) {
      std::vector<double> x = randomVector(m, seed), y(m), v(n), w(n), z(m);
      nsd_matrix_gemv(1.0, fc->M, x.data(), 0.0, y.data());
      nsd_matrix_gemv_t(1.0, s->J, x.data(), 0.0, v.data());
      nsd_matrix_gemv(1.0, s->Minv, v.data(), 0.0, w.data());
      nsd_matrix_gemv(1.0, s->J, w.data(), 0.0, z.data());
      for (size_t i = 0; i < m; ++i) z[i] -= y[i];
      CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxAbs(z) / maxAbs(y), 1e-13);
    }
  }

  void assembledEqualsFactoredOperator() {
    Scene s = build(400);
    Fc fc(granular_fc(s.get()));
    NsdDelassus op{};
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                 nsd_delassus_factored(s->J, s->Minv, 1, &op, &rep));
    const size_t m = 3 * static_cast<size_t>(s->n_contacts);
    CPPUNIT_ASSERT_EQUAL(static_cast<int>(m), op.size);
    CPPUNIT_ASSERT_EQUAL(6 * s->n_bodies, op.n_dof);
    std::vector<double> x = randomVector(m, 7), y(m), v(static_cast<size_t>(op.n_dof)),
                        w(static_cast<size_t>(op.n_dof)), z(m);
    nsd_matrix_gemv(1.0, fc->M, x.data(), 0.0, y.data());
    op.apply_jt(op.user, x.data(), v.data());
    op.apply_minv(op.user, v.data(), w.data());
    op.apply_j(op.user, w.data(), z.data());
    nsd_delassus_factored_free(&op);
    for (size_t i = 0; i < m; ++i) z[i] -= y[i];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, maxAbs(z) / maxAbs(y), 1e-13);
  }

  void contactsNearTarget() {
    for (int target : {1, 2, 10, 50, 100, 1000, 5000}) {
      Scene s = build(target);
      int layers = 0, nx = 0, ny = 0;
      int expected = granular_grid(target, 4, &layers, &nx, &ny);
      CPPUNIT_ASSERT_EQUAL(expected, s->n_contacts);
      CPPUNIT_ASSERT_EQUAL(granular_contact_count(layers, nx, ny), s->n_contacts);
      CPPUNIT_ASSERT_EQUAL(nx * ny * layers, s->n_bodies);
      double miss = std::fabs(s->n_contacts - target);
      CPPUNIT_ASSERT_MESSAGE(std::to_string(target) + " -> " + std::to_string(s->n_contacts),
                             miss <= 0.1 * target + 3);
      if (target >= 1000) CPPUNIT_ASSERT(miss <= 0.01 * target);
    }
  }

  void sameSeedSameProblem() {
    Scene a = build(300, 5), b = build(300, 5), c = build(300, 6);
    const size_t m = 3 * static_cast<size_t>(a->n_contacts);
    bool differs = false;
    for (size_t i = 0; i < m; ++i) {
      CPPUNIT_ASSERT_EQUAL(a->q[i], b->q[i]);
      differs = differs || a->q[i] != c->q[i];
    }
    CPPUNIT_ASSERT(differs);
  }

  void datFileReadsBackEqual() {
    Scene s = build(150);
    NsdProblem p{};
    p.kind = NSD_KIND_FC3D;
    p.fc = granular_fc(s.get());
    CPPUNIT_ASSERT(p.fc);
    std::string path = std::string(NSDYN_BINARY_DIR) + "/granular_test_" +
                       std::to_string(static_cast<long>(getpid())) + ".dat";
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, nsd_write_problem(path.c_str(), &p, &rep));
    NsdProblem back{};
    NsdStatus st = nsd_read_problem(path.c_str(), NSD_KIND_FC3D, &back, &rep);
    std::remove(path.c_str());
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, st);
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_FC3D, back.kind);
    CPPUNIT_ASSERT_EQUAL(p.fc->nc, back.fc->nc);
    const int m = 3 * p.fc->nc;
    for (int i = 0; i < m; ++i) CPPUNIT_ASSERT_EQUAL(p.fc->q[i], back.fc->q[i]);
    for (int a = 0; a < p.fc->nc; ++a) CPPUNIT_ASSERT_EQUAL(p.fc->mu[a], back.fc->mu[a]);
    CPPUNIT_ASSERT_EQUAL(nsd_matrix_nnz(p.fc->M), nsd_matrix_nnz(back.fc->M));
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < m; ++j)
        CPPUNIT_ASSERT_EQUAL(nsd_matrix_get(p.fc->M, i, j), nsd_matrix_get(back.fc->M, i, j));
    nsd_problem_clear(&back);
    nsd_problem_clear(&p);
  }

  void nsgsSolvesSmallProblem() {
    // a physically sound problem: NSGS reaches the Siconos error 1e-8
    Scene s = build(200);
    Fc fc(granular_fc(s.get()));
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.max_iterations = 5000;
    const size_t m = 3 * static_cast<size_t>(s->n_contacts);
    std::vector<double> r(m), u(m);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                 nsd_fc3d_nsgs(fc.get(), r.data(), u.data(), &opt, &rep));
    CPPUNIT_ASSERT(nsd_fc_error(fc.get(), r.data(), nullptr) <= 1e-8);
    // gravity: the floor carries the weight, so the normal impulses are positive somewhere
    double floor_impulse = 0;
    for (int a = 0; a < s->n_contacts; ++a)
      if (s->body_b[a] < 0) floor_impulse += r[3 * a];
    CPPUNIT_ASSERT(floor_impulse > 0);
  }

  void badParametersAreRefused() {
    GranularParams p;
    granular_params_default(&p);
    GranularScene* s = nullptr;
    NsdReport rep{};
    p.contacts = 0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, granular_build(&p, &s, &rep));
    CPPUNIT_ASSERT(std::string(rep.message).find("contacts") != std::string::npos);
    CPPUNIT_ASSERT(s == nullptr);
    granular_params_default(&p);
    p.radius_spread = 0.5;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, granular_build(&p, &s, &rep));
    CPPUNIT_ASSERT(std::string(rep.message).find("radius_spread") != std::string::npos);
    granular_params_default(&p);
    p.mu = -0.1;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, granular_build(&p, &s, &rep));
    CPPUNIT_ASSERT(std::string(rep.message).find("mu") != std::string::npos);
    granular_params_default(&p);
    p.time_step = NAN;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, granular_build(&p, &s, &rep));
    CPPUNIT_ASSERT(std::string(rep.message).find("time_step") != std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(GranularTest);
