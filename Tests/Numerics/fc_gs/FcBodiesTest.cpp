// Friction contact between rigid bodies without stored Jacobian blocks (nsd_bodies.h;
// Numerics/src/friction/fc_bodies.c, fc3d_nsgs_bodies.c), on random scenes: the
// operator, the diagonal blocks and the assembled W against a dense J M^-1 J^T built
// here; the Gauss-Seidel in body-velocity form against nsd_fc3d_nsgs on the assembled
// problem; APGD on the operator; the input checks; warm start; distribution hooks; the
// global form (M, H = J^T) against the dense J and the assembled problem's solution.
#include <cppunit/extensions/HelperMacros.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fc_gs_test_util.hpp"
#include "nsdyn/nsd_bodies.h"
#include "nsdyn/nsd_gfc.h"
#include "nsdyn/nsd_solvers.h"

using namespace nsdyn::test;

namespace {

// A random scene: bodies with masses and world inverse inertias, contacts with a
// random unit normal (frame as ContactFrame.hpp's frame()), random arms, mu, q, and
// the free velocity. The dense J (3nc x 6nb) and M^-1 are built from the definitions.
struct Scene {
  int nb = 0, nc = 0;
  std::vector<int> a, b;
  std::vector<double> frame, arm_a, arm_b, inv_mass, inv_inertia, q, mu, v_free;
  NsdRigidContacts p{};

  // @p self_contacts: some contacts join a body to itself (both sides, same body)
  Scene(int bodies, int contacts, unsigned seed, bool self_contacts = false)
      : nb(bodies), nc(contacts) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
    std::uniform_int_distribution<int> body(0, nb - 1);
    for (int i = 0; i < nb; ++i) {
      inv_mass.push_back(1.0 / (0.5 + 4.5 * P(gen)));
      // B B^T + 0.1 I, the upper triangle mirrored (symmetric to the bit)
      double B[9], I[9];
      for (double& x : B) x = U(gen);
      for (int r = 0; r < 3; ++r)
        for (int c = r; c < 3; ++c) {
          double s = r == c ? 0.1 : 0.0;
          for (int k = 0; k < 3; ++k) s += B[3 * r + k] * B[3 * c + k];
          I[3 * r + c] = I[3 * c + r] = s;
        }
      inv_inertia.insert(inv_inertia.end(), I, I + 9);
      for (int k = 0; k < 6; ++k) v_free.push_back(U(gen));
    }
    for (int c = 0; c < nc; ++c) {
      int A = body(gen), Bb = body(gen);
      const double kind = P(gen);
      if (kind < 0.15)
        Bb = -1;  // against the static world
      else if (kind < 0.25)
        A = -1;
      else if (self_contacts && kind < 0.3)
        Bb = A;
      else
        while (Bb == A) Bb = body(gen);
      a.push_back(A);
      b.push_back(Bb);
      double n[3], len = 0.0;
      do {
        for (double& x : n) x = U(gen);
        len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      } while (len < 0.1 || len > 1.0);
      for (double& x : n) x /= len;
      appendFrame(n);
      for (int k = 0; k < 3; ++k) arm_a.push_back(0.5 * U(gen));
      for (int k = 0; k < 3; ++k) arm_b.push_back(0.5 * U(gen));
      mu.push_back(0.1 + 0.9 * P(gen));
      q.push_back(-0.05 - P(gen));
      q.push_back(0.5 * U(gen));
      q.push_back(0.5 * U(gen));
    }
    view();
  }

  // Rows n, t1, t2 of the frame of the unit normal n (Siconos orthoBaseFromVector).
  void appendFrame(const double* n) {
    const double s = n[2] >= 0.0 ? 1.0 : -1.0;
    const double aa = -1.0 / (s + n[2]), bb = n[0] * n[1] * aa;
    const double f[9] = {n[0],   n[1],      n[2], 1.0 + s * n[0] * n[0] * aa,
                         s * bb, -s * n[0], bb,   s + n[1] * n[1] * aa,
                         -n[1]};
    frame.insert(frame.end(), f, f + 9);
  }

  // p pointing at the vectors (again after a change of their sizes).
  void view() {
    p = NsdRigidContacts{};
    p.n_contacts = nc;
    p.n_bodies = nb;
    p.body_a = a.data();
    p.body_b = b.data();
    p.frame = frame.data();
    p.arm_a = arm_a.data();
    p.arm_b = arm_b.data();
    p.inv_mass = inv_mass.data();
    p.inv_inertia = inv_inertia.data();
    p.q = q.data();
    p.mu = mu.data();
  }

  // Dense J, row-major 3nc x 6nb: row k of contact c is s (C_k, arm x C_k) per side.
  std::vector<double> denseJ() const {
    std::vector<double> J(static_cast<size_t>(3 * nc) * 6 * nb, 0.0);
    for (int c = 0; c < nc; ++c)
      for (int side = 0; side < 2; ++side) {
        const int body = side == 0 ? a[c] : b[c];
        if (body < 0) continue;
        const double* arm = (side == 0 ? arm_a.data() : arm_b.data()) + 3 * c;
        const double s = side == 0 ? 1.0 : -1.0;
        for (int k = 0; k < 3; ++k) {
          const double* C = frame.data() + 9 * c + 3 * k;
          const double g[3] = {arm[1] * C[2] - arm[2] * C[1], arm[2] * C[0] - arm[0] * C[2],
                               arm[0] * C[1] - arm[1] * C[0]};
          double* row = J.data() + static_cast<size_t>(3 * c + k) * 6 * nb + 6 * body;
          for (int e = 0; e < 3; ++e) {
            row[e] += s * C[e];
            row[3 + e] += s * g[e];
          }
        }
      }
    return J;
  }

  // w = M^-1 v (6 per body).
  std::vector<double> minv(const std::vector<double>& v) const {
    std::vector<double> w(v.size());
    for (int i = 0; i < nb; ++i)
      for (int k = 0; k < 3; ++k) {
        w[6 * i + k] = inv_mass[i] * v[6 * i + k];
        const double* I = inv_inertia.data() + 9 * i + 3 * k;
        w[6 * i + 3 + k] = I[0] * v[6 * i + 3] + I[1] * v[6 * i + 4] + I[2] * v[6 * i + 5];
      }
    return w;
  }
};

// y = J x, y = J^T x for the row-major dense J.
std::vector<double> mul(const std::vector<double>& J, int rows, int cols,
                        const std::vector<double>& x) {
  std::vector<double> y(rows, 0.0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) y[i] += J[static_cast<size_t>(i) * cols + j] * x[j];
  return y;
}
std::vector<double> mulT(const std::vector<double>& J, int rows, int cols,
                         const std::vector<double>& x) {
  std::vector<double> y(cols, 0.0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) y[j] += J[static_cast<size_t>(i) * cols + j] * x[i];
  return y;
}

// Dense W = J M^-1 J^T, row-major 3nc x 3nc.
std::vector<double> denseW(const Scene& s) {
  const int m = 3 * s.nc, n = 6 * s.nb;
  const std::vector<double> J = s.denseJ();
  std::vector<double> W(static_cast<size_t>(m) * m, 0.0);
  for (int j = 0; j < m; ++j) {
    std::vector<double> row(J.begin() + static_cast<long>(j) * n,
                            J.begin() + static_cast<long>(j + 1) * n);
    const std::vector<double> col = mul(J, m, n, s.minv(row));
    for (int i = 0; i < m; ++i) W[static_cast<size_t>(i) * m + j] = col[i];
  }
  return W;
}

double maxAbs(const std::vector<double>& x) {
  double m = 0.0;
  for (double v : x) m = std::max(m, std::fabs(v));
  return m;
}

// |expected - got| <= rel * max |expected| entry-wise.
void assertClose(const std::string& what, const std::vector<double>& expected, const double* got,
                 double rel) {
  const double tol = rel * std::max(maxAbs(expected), 1e-300);
  for (size_t i = 0; i < expected.size(); ++i)
    CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + "[" + std::to_string(i) + "]", expected[i], got[i],
                                         tol);
}

std::vector<double> randomVector(int n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::vector<double> x(n);
  for (double& v : x) v = U(gen);
  return x;
}

// The assembled problem: W and q_W = J v_free + q.
NsdFc* assembled(const Scene& s) {
  NsdMatrix* W = nullptr;
  NsdReport rep{};
  CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, nsd_rigid_contacts_assemble(&s.p, &W, &rep));
  std::vector<double> qw(3 * s.nc);
  nsd_rigid_contacts_velocity(&s.p, s.v_free.data(), 1, qw.data());
  return nsd_fc_create(3, s.nc, W, qw.data(), s.mu.data());
}

NsdSolverOptions tight() {
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.tolerance = 1e-12;
  o.max_iterations = 100000;
  return o;
}

// A body-form solve of s from v_free: v, r, u and the report.
struct BodySolve {
  std::vector<double> v, r, u;
  NsdReport rep{};
  NsdStatus status = NSD_FAILED;
  BodySolve(const Scene& s, const NsdSolverOptions& o, const std::vector<double>* r0 = nullptr)
      : v(s.v_free), r(r0 ? *r0 : std::vector<double>(3 * s.nc, 0.0)), u(3 * s.nc, 0.0) {
    status = nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), u.data(), &o, &rep);
  }
};

// The hooks of a distributed problem, on one part: counts, identity sum.
struct Hooks {
  int sweeps = 0, reductions = 0, values = 0;
  static void afterSweep(void* user, double*) { static_cast<Hooks*>(user)->sweeps++; }
  static void reduceSum(void* user, double*, int count) {
    auto* h = static_cast<Hooks*>(user);
    h->reductions++;
    h->values += count;
  }
};

const struct {
  int bodies, contacts;
  unsigned seed;
} kScenes[] = {{60, 100, 1}, {40, 50, 2}, {20, 60, 3}, {50, 200, 4}};

}  // namespace

class FcBodiesTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcBodiesTest);
  CPPUNIT_TEST(operatorMatchesDense);
  CPPUNIT_TEST(assembledMatchesDense);
  CPPUNIT_TEST(nsgsMatchesAssembled);
  CPPUNIT_TEST(apgdOnOperator);
  CPPUNIT_TEST(operatorSameBitsAnyThreads);
  CPPUNIT_TEST(rejectsBadInput);
  CPPUNIT_TEST(checkOverThreadsNamesTheFirstFault);
  CPPUNIT_TEST(warmStartAtSolution);
  CPPUNIT_TEST(hooksAndOptions);
  CPPUNIT_TEST(globalMatchesDense);
  CPPUNIT_TEST(globalHasTheSameSolution);
  CPPUNIT_TEST_SUITE_END();

 public:
  // J^T x, M^-1 v, J w, their product, v += M^-1 J^T r, J v + q and the diagonal
  // blocks equal the dense J M^-1 J^T (one scene with contacts of a body on itself).
  void operatorMatchesDense() {
    Scene s(30, 80, 11, true);
    const int m = 3 * s.nc, n = 6 * s.nb;
    const std::vector<double> J = s.denseJ(), W = denseW(s);
    const std::vector<double> x = randomVector(m, 5), w = randomVector(n, 6);
    NsdDelassus op{};
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                 nsd_rigid_contacts_operator(&s.p, 1, &op, &rep));
    CPPUNIT_ASSERT_EQUAL(m, op.size);
    CPPUNIT_ASSERT_EQUAL(n, op.n_dof);
    std::vector<double> v(n), y(n), z(m);
    op.apply_jt(op.user, x.data(), v.data());
    assertClose("J^T x", mulT(J, m, n, x), v.data(), 1e-12);
    op.apply_minv(op.user, w.data(), y.data());
    assertClose("M^-1 w", s.minv(w), y.data(), 1e-12);
    op.apply_j(op.user, w.data(), z.data());
    assertClose("J w", mul(J, m, n, w), z.data(), 1e-12);
    op.apply_minv(op.user, v.data(), y.data());
    op.apply_j(op.user, y.data(), z.data());
    assertClose("N x", mul(W, m, m, x), z.data(), 1e-12);
    nsd_delassus_factored_free(&op);
    CPPUNIT_ASSERT(op.user == nullptr && op.apply_jt == nullptr);

    // v_free + M^-1 J^T x and J w + q
    std::vector<double> vx = s.v_free, expected = s.minv(mulT(J, m, n, x));
    for (int i = 0; i < n; ++i) expected[i] += s.v_free[i];
    nsd_rigid_contacts_apply_jt_minv(&s.p, x.data(), vx.data());
    assertClose("v + M^-1 J^T x", expected, vx.data(), 1e-12);
    std::vector<double> u(m), uq = mul(J, m, n, w);
    nsd_rigid_contacts_velocity(&s.p, w.data(), 0, u.data());
    assertClose("J w (no q)", uq, u.data(), 1e-12);
    for (int i = 0; i < m; ++i) uq[i] += s.q[i];
    nsd_rigid_contacts_velocity(&s.p, w.data(), 1, u.data());
    assertClose("J w + q", uq, u.data(), 1e-12);

    // diagonal blocks, column-major, exactly symmetric
    std::vector<double> diag(9 * s.nc);
    nsd_rigid_contacts_diagonal(&s.p, diag.data());
    for (int c = 0; c < s.nc; ++c) {
      std::vector<double> block(9);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          block[i + 3 * j] = W[static_cast<size_t>(3 * c + i) * m + 3 * c + j];
      const double* d = diag.data() + 9 * c;
      assertClose("W_cc " + std::to_string(c), block, d, 1e-12);
      CPPUNIT_ASSERT(d[1] == d[3] && d[2] == d[6] && d[5] == d[7]);
    }
  }

  // The assembled sparse-block W equals the dense one, has a block exactly where two
  // contacts share a body, and is exactly symmetric.
  void assembledMatchesDense() {
    for (bool self : {false, true}) {
      Scene s(40, 120, 12, self);
      const int m = 3 * s.nc;
      const std::vector<double> W = denseW(s);
      NsdMatrix* A = nullptr;
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                   nsd_rigid_contacts_assemble(&s.p, &A, &rep));
      CPPUNIT_ASSERT_EQUAL(NSD_SPARSE_BLOCK, A->storage);
      CPPUNIT_ASSERT_EQUAL(0.0, nsd_matrix_asymmetry(A));
      std::vector<double> got(static_cast<size_t>(m) * m);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < m; ++j) got[static_cast<size_t>(i) * m + j] = nsd_matrix_get(A, i, j);
      assertClose("W", W, got.data(), 1e-12);
      for (int i = 0; i < s.nc; ++i)
        for (int j = 0; j < s.nc; ++j) {
          const bool share = (s.a[i] >= 0 && (s.a[i] == s.a[j] || s.a[i] == s.b[j])) ||
                             (s.b[i] >= 0 && (s.b[i] == s.a[j] || s.b[i] == s.b[j]));
          CPPUNIT_ASSERT_EQUAL(share, nsd_matrix_sbm_find(A, i, j) >= 0);
        }
      nsd_matrix_destroy(A);
    }
  }

  // The body-velocity NSGS gives nsd_fc3d_nsgs's answer on the assembled problem, in
  // the same number of sweeps (or one more or less), with v = v_free + M^-1 J^T r and
  // its residual the Siconos error of the assembled problem.
  void nsgsMatchesAssembled() {
    for (const auto& k : kScenes) {
      Scene s(k.bodies, k.contacts, k.seed);
      const std::string what = "scene " + std::to_string(k.seed);
      FcTestProblem t(assembled(s));
      t.opt = tight();
      assertSolved(t, t.solve(nsd_fc3d_nsgs), 1e-12);
      BodySolve b(s, tight());
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + describe(b.rep), NSD_OK, b.status);
      CPPUNIT_ASSERT_MESSAGE(what + ": sweeps " + describe(b.rep) + " vs " + describe(t.rep),
                             std::abs(b.rep.iterations - t.rep.iterations) <= 1);
      assertClose(what + ": r", t.r, b.r.data(), 1e-9);
      // v = v_free + M^-1 J^T r, u = J v + q
      std::vector<double> v = s.v_free;
      nsd_rigid_contacts_apply_jt_minv(&s.p, b.r.data(), v.data());
      assertClose(what + ": v", v, b.v.data(), 1e-12);
      std::vector<double> u(3 * s.nc);
      nsd_rigid_contacts_velocity(&s.p, b.v.data(), 1, u.data());
      assertClose(what + ": u", u, b.u.data(), 0.0);
      const double err = nsd_fc_error(t.fc, b.r.data(), nullptr);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what + ": residual", err, b.rep.residual,
                                           1e-10 * err + 1e-15);
      CPPUNIT_ASSERT_EQUAL(std::string("nsgs_bodies"), std::string(b.rep.solver));
      // the other local solvers, relaxation and shuffled orders solve it too (the
      // two scenes solved in fewer sweeps)
      if (k.seed != 2 && k.seed != 3) continue;
      for (NsdFcLocalSolver local : {NSD_FC_LOCAL_PROJECTION, NSD_FC_LOCAL_FB_NEWTON}) {
        NsdSolverOptions o = tight();
        o.tolerance = 1e-10;
        o.nsgs.local_solver = local;
        o.relaxation = local == NSD_FC_LOCAL_PROJECTION ? 0.9 : 1.2;
        o.nsgs.shuffle = 1;
        BodySolve c(s, o), again(s, o);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + describe(c.rep), NSD_OK, c.status);
        CPPUNIT_ASSERT(nsd_fc_error(t.fc, c.r.data(), nullptr) <= 1e-9);
        CPPUNIT_ASSERT(c.r == again.r && c.rep.iterations == again.rep.iterations);
      }
    }
  }

  // APGD on the operator reaches the Coulomb answer of the assembled problem, with the
  // same bits on one and two threads.
  void apgdOnOperator() {
    Scene s(60, 100, 1);
    FcTestProblem t(assembled(s));
    std::vector<double> r[2];
    for (int threads : {1, 2}) {
      NsdDelassus op{};
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                   nsd_rigid_contacts_operator(&s.p, threads, &op, &rep));
      NsdSolverOptions o;
      nsd_solver_options_default(&o);
      o.tolerance = 1e-8;
      o.max_iterations = 100000;
      o.threads = threads;
      std::vector<double> rr(3 * s.nc, 0.0), u(3 * s.nc, 0.0);
      const NsdStatus st =
          nsd_fc3d_apgd_operator(&op, t.fc->q, s.mu.data(), rr.data(), u.data(), &o, &rep);
      nsd_delassus_factored_free(&op);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(rep), NSD_OK, st);
      const double err = nsd_fc_error(t.fc, rr.data(), nullptr);
      CPPUNIT_ASSERT_MESSAGE(describe(rep) + ", assembled error " + std::to_string(err),
                             err <= 1e-8);
      r[threads - 1] = rr;
    }
    CPPUNIT_ASSERT(r[0] == r[1]);
  }

  // The callbacks give the same bits on 1, 2 and 3 threads on a scene large enough for
  // them to run in parallel (bodies with many contacts included).
  void operatorSameBitsAnyThreads() {
    Scene s(3000, 5000, 21);
    const std::vector<double> x = randomVector(3 * s.nc, 7), w = randomVector(6 * s.nb, 8);
    std::vector<double> ref[3];
    for (int threads : {1, 2, 3}) {
      NsdDelassus op{};
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_rigid_contacts_operator(&s.p, threads, &op, nullptr));
      std::vector<double> v(6 * s.nb), y(6 * s.nb), z(3 * s.nc);
      op.apply_jt(op.user, x.data(), v.data());
      op.apply_minv(op.user, w.data(), y.data());
      op.apply_j(op.user, w.data(), z.data());
      nsd_delassus_factored_free(&op);
      if (threads == 1) {
        ref[0] = v;
        ref[1] = y;
        ref[2] = z;
      } else {
        CPPUNIT_ASSERT(ref[0] == v && ref[1] == y && ref[2] == z);
      }
    }
  }

  // The global form (nsd_rigid_contacts_global): H = J^T and M M^-1 = I for the scene's
  // M^-1 (one scene with contacts of a body on itself), q = M v_free, b the contacts' q;
  // body 0 without inverse mass and inertia gets M = I, q = v_free and no entry in H; an
  // inverse inertia neither zero nor invertible is refused, naming the body.
  void globalMatchesDense() {
    Scene s(30, 80, 13, true);
    s.inv_mass[0] = 0.0;
    std::fill(s.inv_inertia.begin(), s.inv_inertia.begin() + 9, 0.0);
    const int m = 3 * s.nc, n = 6 * s.nb;
    const std::vector<double> J = s.denseJ();
    NsdGfc* g = nullptr;
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                 nsd_rigid_contacts_global(&s.p, s.v_free.data(), &g, &rep));
    CPPUNIT_ASSERT_EQUAL(n, g->n);
    CPPUNIT_ASSERT_EQUAL(s.nc, g->nc);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j) {
        const double expected = i < 6 ? 0.0 : J[static_cast<size_t>(j) * n + i];
        CPPUNIT_ASSERT_DOUBLES_EQUAL(expected, nsd_matrix_get(g->H, i, j), 1e-14);
      }
    const std::vector<double> x = randomVector(n, 7), w = s.minv(x);
    std::vector<double> back(n), vf(n);
    nsd_matrix_gemv(1.0, g->M, w.data(), 0.0, back.data());
    std::vector<double> expected = x;
    for (int k = 0; k < 6; ++k) expected[k] = 0.0;  // body 0: M^-1 = 0, M = I
    assertClose("M M^-1 x", expected, back.data(), 1e-11);
    // q = M v_free: M^-1 q = v_free on the moving bodies, q = v_free on body 0
    const std::vector<double> mq = s.minv(std::vector<double>(g->q, g->q + n));
    for (int i = 0; i < n; ++i) vf[i] = i < 6 ? g->q[i] : mq[i];
    assertClose("v_free", s.v_free, vf.data(), 1e-11);
    assertClose("b", s.q, g->b, 0.0);
    assertClose("mu", s.mu, g->mu, 0.0);
    nsd_gfc_destroy(g);

    const double singular[9] = {1, 0, 0, 0, 1, 0, 0, 0, 0};
    std::copy(singular, singular + 9, s.inv_inertia.begin() + 9 * 3);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_global(&s.p, s.v_free.data(), &g, &rep));
    CPPUNIT_ASSERT(g == nullptr);
    CPPUNIT_ASSERT_MESSAGE(rep.message, std::strstr(rep.message, "body 3") != nullptr);
  }

  // The global problem has the assembled problem's solution: r from nsgs on the assembled
  // problem to 1e-12 has a global error below 1e-10 (v = v_free + M^-1 J^T r), and each
  // global solver's r (nsgs_wr, admm to 1e-8) solves the assembled problem to 1e-6.
  void globalHasTheSameSolution() {
    for (const auto& sc : kScenes) {
      Scene s(sc.bodies, sc.contacts, sc.seed);
      const int m = 3 * s.nc;
      NsdProblem fc{};
      fc.kind = NSD_KIND_FC3D;
      fc.fc = assembled(s);
      NsdProblem gfc{};
      gfc.kind = NSD_KIND_GFC3D;
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(
          rep.message, NSD_OK, nsd_rigid_contacts_global(&s.p, s.v_free.data(), &gfc.gfc, &rep));
      std::vector<double> r(m, 0.0), u(m, 0.0);
      NsdSolverOptions o = tight();
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                   nsd_solve(&fc, "nsgs", r.data(), u.data(), &o, &rep));
      CPPUNIT_ASSERT(nsd_gfc_error_of_reaction(gfc.gfc, r.data()) < 1e-10);
      o.tolerance = 1e-8;
      o.max_iterations = 5000;
      for (const char* solver : {"nsgs_wr", "admm"}) {
        std::fill(r.begin(), r.end(), 0.0);
        const NsdStatus st = nsd_solve(&gfc, solver, r.data(), u.data(), &o, &rep);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(solver) + ": " + rep.message, NSD_OK, st);
        const double e = nsd_fc_error(fc.fc, r.data(), nullptr);
        CPPUNIT_ASSERT_MESSAGE(std::string(solver) + ": " + std::to_string(e), e < 1e-6);
      }
      nsd_problem_clear(&fc);
      nsd_problem_clear(&gfc);
    }
  }

  // The check runs over threads on large problems: with faults in both halves of the
  // bodies and of the contacts, the message names the lowest failing body (bodies before
  // contacts), then the lowest contact, whatever the thread count of the solver and the
  // operator; a sound problem passes on every count.
  void checkOverThreadsNamesTheFirstFault() {
    Scene s(3000, 6000, 17);
    std::vector<double> v(6 * 3000, 0.0), r(3 * 6000, 0.0);
    const auto message = [&](int threads) {
      NsdSolverOptions o;
      nsd_solver_options_default(&o);
      o.threads = threads;
      o.max_iterations = 1;
      NsdReport rep{};
      const NsdStatus st = nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), nullptr, &o, &rep);
      NsdDelassus op{};
      NsdReport opRep{};
      const NsdStatus opSt = nsd_rigid_contacts_operator(&s.p, threads, &op, &opRep);
      if (opSt == NSD_OK) nsd_delassus_factored_free(&op);
      CPPUNIT_ASSERT_EQUAL(st == NSD_BAD_INPUT, opSt == NSD_BAD_INPUT);
      if (st == NSD_BAD_INPUT)
        CPPUNIT_ASSERT_EQUAL(std::string(rep.message), std::string(opRep.message));
      return st == NSD_BAD_INPUT ? std::string(rep.message) : std::string();
    };
    for (int threads = 1; threads <= 4; ++threads)
      CPPUNIT_ASSERT_EQUAL(std::string(), message(threads));
    s.mu[5000] = -1.0;
    s.mu[1200] = -2.0;
    for (int threads = 1; threads <= 4; ++threads)
      CPPUNIT_ASSERT_MESSAGE(message(threads),
                             message(threads).find("contact 1200: mu = -2") != std::string::npos);
    s.inv_mass[2500] = -1.0;
    s.inv_mass[2000] = -3.0;
    for (int threads = 1; threads <= 4; ++threads)
      CPPUNIT_ASSERT_MESSAGE(
          message(threads), message(threads).find("body 2000: inv_mass = -3") != std::string::npos);
  }

  // Every fault of the problem is NSD_BAD_INPUT with the index in the message, from the
  // check, the operator, the assembly and the solver; bad options and arrays too.
  void rejectsBadInput() {
    struct Fault {
      const char* expect;
      void (*apply)(Scene&);
    };
    const Fault faults[] = {
        {"contact 7: body_a = 20", [](Scene& s) { s.a[7] = 20; }},
        {"contact 8: body_b = -2", [](Scene& s) { s.b[8] = -2; }},
        {"contact 9: body_a and body_b are both -1", [](Scene& s) { s.a[9] = s.b[9] = -1; }},
        {"contact 4: frame[2] = nan", [](Scene& s) { s.frame[9 * 4 + 2] = NAN; }},
        {"contact 5: arm_a[1] = inf",
         [](Scene& s) {
           s.a[5] = 0;
           s.arm_a[3 * 5 + 1] = INFINITY;
         }},
        {"contact 6: q[0] = nan", [](Scene& s) { s.q[3 * 6] = NAN; }},
        {"contact 3: mu = -0.1", [](Scene& s) { s.mu[3] = -0.1; }},
        {"body 3: inv_mass = -1", [](Scene& s) { s.inv_mass[3] = -1.0; }},
        {"body 2: inv_inertia[1] = nan", [](Scene& s) { s.inv_inertia[9 * 2 + 1] = NAN; }},
        {"body 1: inv_inertia not symmetric", [](Scene& s) { s.inv_inertia[9 + 5] += 0.5; }},
        {"body 4: inv_inertia[8] = -1", [](Scene& s) { s.inv_inertia[9 * 4 + 8] = -1.0; }},
        {"n_contacts = -1", [](Scene& s) { s.nc = -1; }},
    };
    for (const Fault& f : faults) {
      Scene s(20, 30, 31);
      f.apply(s);
      s.view();
      std::vector<double> scale(s.nb, 1.0);
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.expect, NSD_BAD_INPUT, nsd_rigid_contacts_check(&s.p, &rep));
      CPPUNIT_ASSERT_MESSAGE(std::string(f.expect) + " in: " + rep.message,
                             std::string(rep.message).find(f.expect) != std::string::npos);
      NsdDelassus op{};
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_operator(&s.p, 1, &op, &rep));
      CPPUNIT_ASSERT(op.user == nullptr);
      NsdMatrix* W = nullptr;
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_assemble(&s.p, &W, &rep));
      CPPUNIT_ASSERT(W == nullptr);
      std::vector<double> v(6 * 20, 0.0), r(3 * 30, 0.0);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                           nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), nullptr, nullptr, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message,
                             std::string(rep.message).find(f.expect) != std::string::npos);
    }
    Scene s(20, 30, 31);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_check(nullptr, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_check(nullptr, nullptr));
    std::vector<double> scale(s.nb, 1.0);
    scale[6] = 0.0;
    s.p.sweep_scale = scale.data();
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_check(&s.p, &rep));
    CPPUNIT_ASSERT_MESSAGE(
        rep.message, std::string(rep.message).find("body 6: sweep_scale = 0") != std::string::npos);
    s.p.sweep_scale = nullptr;
    s.p.mu = nullptr;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_check(&s.p, &rep));
    s.view();

    // options out of range, a non-finite v_free or warm start, a contact that
    // cannot move along its normal (a massless body with no inertia)
    const struct {
      const char* expect;
      void (*apply)(NsdSolverOptions&);
    } options[] = {{"tolerance", [](NsdSolverOptions& o) { o.tolerance = -1; }},
                   {"max_iterations", [](NsdSolverOptions& o) { o.max_iterations = 0; }},
                   {"relaxation", [](NsdSolverOptions& o) { o.relaxation = 2.5; }},
                   {"pgs.check_every", [](NsdSolverOptions& o) { o.pgs.check_every = 0; }},
                   {"nsgs.local_max_iterations",
                    [](NsdSolverOptions& o) { o.nsgs.local_max_iterations = 0; }}};
    for (const auto& bad : options) {
      NsdSolverOptions o;
      nsd_solver_options_default(&o);
      bad.apply(o);
      BodySolve b(s, o);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(bad.expect, NSD_BAD_INPUT, b.status);
      CPPUNIT_ASSERT_MESSAGE(b.rep.message,
                             std::string(b.rep.message).find(bad.expect) != std::string::npos);
    }
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    std::vector<double> v = s.v_free, r(3 * s.nc, 0.0);
    v[6 * 5 + 4] = NAN;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), nullptr, &o, &rep));
    CPPUNIT_ASSERT_MESSAGE(rep.message,
                           std::string(rep.message).find("body 5: v_free[4]") != std::string::npos);
    v = s.v_free;
    r[3 * 11 + 2] = INFINITY;
    o.warm_start = 1;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), nullptr, &o, &rep));
    CPPUNIT_ASSERT_MESSAGE(
        rep.message,
        std::string(rep.message).find("contact 11: warm start r[2]") != std::string::npos);
    o.warm_start = 0;
    const int body = s.a[12] >= 0 ? s.a[12] : s.b[12];
    s.a[12] = body;
    s.b[12] = -1;
    s.inv_mass[body] = 0.0;
    std::fill(s.inv_inertia.begin() + 9 * body, s.inv_inertia.begin() + 9 * body + 9, 0.0);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), nullptr, &o, &rep));
    CPPUNIT_ASSERT_MESSAGE(rep.message,
                           std::string(rep.message).find("contact ") != std::string::npos);
    CPPUNIT_ASSERT(v == s.v_free);
  }

  // A warm start at the answer returns after the one sweep always done; so does a
  // scene without contacts, at once.
  void warmStartAtSolution() {
    for (const auto& k : kScenes) {
      Scene s(k.bodies, k.contacts, k.seed);
      BodySolve first(s, tight());
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(first.rep), NSD_OK, first.status);
      NsdSolverOptions o = tight();
      o.tolerance = 1e-10;
      o.warm_start = 1;
      BodySolve again(s, o, &first.r);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(again.rep), NSD_OK, again.status);
      CPPUNIT_ASSERT_EQUAL(1, again.rep.iterations);
      assertClose("v", first.v, again.v.data(), 1e-10);
    }
    Scene s(5, 0, 3);
    BodySolve none(s, tight());
    CPPUNIT_ASSERT_EQUAL(NSD_OK, none.status);
    CPPUNIT_ASSERT_EQUAL(0, none.rep.iterations);
    CPPUNIT_ASSERT(none.v == s.v_free);
  }

  // after_sweep runs once per sweep (and once after a warm start); reduce_sum once at
  // the start and once per error check, which with the sums of one part changes
  // nothing; sweep_scale = 1 changes nothing; check_every, the history and the time
  // limit; NULL u and report.
  void hooksAndOptions() {
    Scene s(50, 200, 4);
    NsdSolverOptions o = tight();
    o.tolerance = 1e-10;
    BodySolve plain(s, o);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, plain.status);
    Hooks h;
    std::vector<double> ones(s.nb, 1.0);
    s.p.user = &h;
    s.p.after_sweep = Hooks::afterSweep;
    s.p.reduce_sum = Hooks::reduceSum;
    s.p.sweep_scale = ones.data();
    BodySolve hooked(s, o);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, hooked.status);
    CPPUNIT_ASSERT(plain.r == hooked.r && plain.v == hooked.v && plain.u == hooked.u);
    CPPUNIT_ASSERT_EQUAL(plain.rep.residual, hooked.rep.residual);
    CPPUNIT_ASSERT_EQUAL(plain.rep.iterations, h.sweeps);
    CPPUNIT_ASSERT_EQUAL(1 + plain.rep.iterations, h.reductions);
    CPPUNIT_ASSERT_EQUAL(4 + 4 * plain.rep.iterations, h.values);

    // a warm start: one more after_sweep; an error every 3 sweeps and after the last
    h = Hooks{};
    o.warm_start = 1;
    o.pgs.check_every = 3;
    std::vector<double> r0 = plain.r;
    for (double& x : r0) x *= 0.5;
    BodySolve warm(s, o, &r0);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, warm.status);
    CPPUNIT_ASSERT_EQUAL(warm.rep.iterations + 1, h.sweeps);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(warm.rep), 0, warm.rep.iterations % 3);
    CPPUNIT_ASSERT_EQUAL(1 + warm.rep.iterations / 3, h.reductions);
    s.view();

    // history, max_iterations, time limit
    std::vector<double> history(10);
    o = tight();
    o.max_iterations = 7;
    o.pgs.check_every = 2;
    std::vector<double> v = s.v_free, r(3 * s.nc);
    NsdReport rep{};
    rep.history = history.data();
    rep.history_capacity = 10;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS,
                         nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), nullptr, &o, &rep));
    CPPUNIT_ASSERT_EQUAL(7, rep.iterations);
    CPPUNIT_ASSERT_EQUAL(4, rep.history_length);  // sweeps 2, 4, 6, 7
    CPPUNIT_ASSERT_EQUAL(rep.residual, history[3]);
    o.max_iterations = 100000000;
    o.time_limit = 1e-9;
    v = s.v_free;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS,
                         nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), nullptr, &o, nullptr));
    rep = NsdReport{};
    v = s.v_free;
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS,
                         nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), nullptr, &o, &rep));
    CPPUNIT_ASSERT_MESSAGE(rep.message,
                           std::string(rep.message).find("time limit") != std::string::npos);
    // NULL options: the defaults (a scene solved in 120 sweeps to 1e-12)
    Scene small(40, 50, 2);
    v = small.v_free;
    const NsdStatus st = nsd_fc3d_nsgs_bodies(&small.p, v.data(), r.data(), nullptr, nullptr, &rep);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(describe(rep), NSD_OK, st);
    CPPUNIT_ASSERT(rep.residual <= 1e-8);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcBodiesTest);
