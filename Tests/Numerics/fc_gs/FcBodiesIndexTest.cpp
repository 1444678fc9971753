// Rigid contacts picked in place (nsd_bodies.h: NsdRigidContacts::index, n_entries,
// body_fixed): every product, the diagonal blocks, the assembled W, the operator and the
// Gauss-Seidel in body-velocity form give the same bits as on a compact copy of the picked
// contacts with the fixed bodies written -1; u NULL gives the same answer as u stored; the
// faults of an index or of fixed bodies are named. Stages (n_stages, stage_end,
// after_stage): the same bits as one stage when the hook changes nothing, the hook
// between the stages of every sweep, shuffling within a stage, faults named.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "nsdyn/nsd_bodies.h"
#include "nsdyn/nsd_matrix.h"

namespace {

// A list of ne contact entries over nb bodies (bodies 0 and 1 fixed, as static bodies
// with zero inverse mass and inertia), the problem picking nc of them (every third
// entry left out, the rest in list order), and the compact copy of the picked ones.
struct Picked {
  int nb = 12, ne = 40, nc = 0;
  std::vector<int> a, b, index, ca, cb;
  std::vector<unsigned char> fixed;
  std::vector<double> frame, arm_a, arm_b, mu, inv_mass, inv_inertia, q, v_free;
  std::vector<double> cframe, carm_a, carm_b, cmu;
  NsdRigidContacts inPlace{}, compact{};

  explicit Picked(unsigned seed) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
    std::uniform_int_distribution<int> body(0, nb - 1);
    fixed.assign(nb, 0);
    fixed[0] = fixed[1] = 1;
    for (int i = 0; i < nb; ++i) {
      const bool f = fixed[i] != 0;
      inv_mass.push_back(f ? 0.0 : 1.0 / (0.5 + P(gen)));
      const double d[3] = {0.5 + P(gen), 0.5 + P(gen), 0.5 + P(gen)};
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) inv_inertia.push_back(f || r != c ? 0.0 : d[r]);
      for (int k = 0; k < 6; ++k) v_free.push_back(f ? 0.0 : U(gen));
    }
    for (int e = 0; e < ne; ++e) {
      int A = body(gen), B = body(gen);
      while (B == A || (fixed[A] && fixed[B])) B = body(gen);
      a.push_back(A);
      b.push_back(P(gen) < 0.1 ? -1 : B);
      if (fixed[A] && b.back() < 0) b.back() = 2;
      double n[3] = {U(gen), U(gen), 1.0};
      const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      for (double& x : n) x /= len;
      const double s = 1.0, aa = -1.0 / (s + n[2]), bb = n[0] * n[1] * aa;
      const double f[9] = {
          n[0], n[1], n[2], 1.0 + n[0] * n[0] * aa, bb, -n[0], bb, s + n[1] * n[1] * aa, -n[1]};
      frame.insert(frame.end(), f, f + 9);
      for (int k = 0; k < 3; ++k) arm_a.push_back(0.3 * U(gen));
      for (int k = 0; k < 3; ++k) arm_b.push_back(0.3 * U(gen));
      mu.push_back(0.2 + 0.6 * P(gen));
      if (e % 3 == 1) continue;
      index.push_back(e);
      q.push_back(-0.1 - P(gen));
      q.push_back(0.0);
      q.push_back(0.0);
    }
    nc = static_cast<int>(index.size());
    for (int e : index) {
      ca.push_back(a[e] >= 0 && fixed[a[e]] ? -1 : a[e]);
      cb.push_back(b[e] >= 0 && fixed[b[e]] ? -1 : b[e]);
      cframe.insert(cframe.end(), frame.begin() + 9 * e, frame.begin() + 9 * e + 9);
      carm_a.insert(carm_a.end(), arm_a.begin() + 3 * e, arm_a.begin() + 3 * e + 3);
      carm_b.insert(carm_b.end(), arm_b.begin() + 3 * e, arm_b.begin() + 3 * e + 3);
      cmu.push_back(mu[e]);
    }
    view();
  }

  void view() {
    for (NsdRigidContacts* p : {&inPlace, &compact}) {
      *p = NsdRigidContacts{};
      p->n_contacts = nc;
      p->n_bodies = nb;
      p->inv_mass = inv_mass.data();
      p->inv_inertia = inv_inertia.data();
      p->q = q.data();
    }
    inPlace.index = index.data();
    inPlace.n_entries = ne;
    inPlace.body_fixed = fixed.data();
    inPlace.body_a = a.data();
    inPlace.body_b = b.data();
    inPlace.frame = frame.data();
    inPlace.arm_a = arm_a.data();
    inPlace.arm_b = arm_b.data();
    inPlace.mu = mu.data();
    compact.body_a = ca.data();
    compact.body_b = cb.data();
    compact.frame = cframe.data();
    compact.arm_a = carm_a.data();
    compact.arm_b = carm_b.data();
    compact.mu = cmu.data();
  }
};

void assertSameBits(const std::string& what, const std::vector<double>& x,
                    const std::vector<double>& y) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what, x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i)
    CPPUNIT_ASSERT_MESSAGE(what + "[" + std::to_string(i) + "]: " + std::to_string(x[i]) +
                               " != " + std::to_string(y[i]),
                           std::memcmp(&x[i], &y[i], sizeof(double)) == 0);
}

std::vector<double> randomVector(size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::vector<double> x(n);
  for (double& v : x) v = U(gen);
  return x;
}

// Records the after_stage calls (stage numbers in order) and, with r set, checks at each
// call that the contacts of the later stages still hold the impulses of the last sweep's
// end (snapshot taken by after_sweep): no contact of a later stage was visited yet.
struct StageHook {
  std::vector<int> calls;
  const std::vector<double>* r = nullptr;
  std::vector<double> snapshot;
  const int* stage_end = nullptr;
  int n_stages = 0, visitedEarly = 0;
  static void afterStage(void* user, double* /*v*/, int stage) {
    auto* h = static_cast<StageHook*>(user);
    h->calls.push_back(stage);
    if (!h->r) return;
    for (size_t i = 3 * static_cast<size_t>(h->stage_end[stage]); i < h->r->size(); ++i)
      if ((*h->r)[i] != h->snapshot[i]) ++h->visitedEarly;
  }
  static void afterSweep(void* user, double* /*v*/) {
    auto* h = static_cast<StageHook*>(user);
    if (h->r) h->snapshot = *h->r;
  }
};

}  // namespace

class FcBodiesIndexTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcBodiesIndexTest);
  CPPUNIT_TEST(productsSameBitsAsCompactCopy);
  CPPUNIT_TEST(nsgsSameBitsAsCompactCopy);
  CPPUNIT_TEST(rejectsBadIndexAndFixedPairs);
  CPPUNIT_TEST(stagesSameBitsAsOneStage);
  CPPUNIT_TEST(shuffleStaysWithinStages);
  CPPUNIT_TEST(rejectsBadStages);
  CPPUNIT_TEST_SUITE_END();

 public:
  void productsSameBitsAsCompactCopy() {
    Picked s(5);
    CPPUNIT_ASSERT(s.nc > 20 && s.nc < s.ne);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, nsd_rigid_contacts_check(&s.inPlace, &rep));
    const size_t m = 3 * static_cast<size_t>(s.nc), dof = 6 * static_cast<size_t>(s.nb);
    const std::vector<double> r = randomVector(m, 11), v = randomVector(dof, 12);
    std::vector<double> u1(m), u2(m), v1(dof, 0.5), v2(dof, 0.5), d1(9 * s.nc), d2(9 * s.nc);
    nsd_rigid_contacts_velocity(&s.inPlace, v.data(), 1, u1.data());
    nsd_rigid_contacts_velocity(&s.compact, v.data(), 1, u2.data());
    assertSameBits("J v + q", u1, u2);
    nsd_rigid_contacts_apply_jt_minv(&s.inPlace, r.data(), v1.data());
    nsd_rigid_contacts_apply_jt_minv(&s.compact, r.data(), v2.data());
    assertSameBits("M^-1 J^T r", v1, v2);
    nsd_rigid_contacts_diagonal(&s.inPlace, d1.data());
    nsd_rigid_contacts_diagonal(&s.compact, d2.data());
    assertSameBits("W_cc", d1, d2);
    // W assembled: the same blocks (W r through both)
    NsdMatrix *W1 = nullptr, *W2 = nullptr;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_rigid_contacts_assemble(&s.inPlace, &W1, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_rigid_contacts_assemble(&s.compact, &W2, &rep));
    CPPUNIT_ASSERT_EQUAL(nsd_matrix_nnz(W2), nsd_matrix_nnz(W1));
    std::vector<double> w1(m), w2(m);
    nsd_matrix_gemv(1.0, W1, r.data(), 0.0, w1.data());
    nsd_matrix_gemv(1.0, W2, r.data(), 0.0, w2.data());
    assertSameBits("W r", w1, w2);
    nsd_matrix_destroy(W1);
    nsd_matrix_destroy(W2);
    // the operator's J^T, M^-1 and J
    NsdDelassus o1{}, o2{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_rigid_contacts_operator(&s.inPlace, 1, &o1, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_rigid_contacts_operator(&s.compact, 1, &o2, &rep));
    std::vector<double> jt1(dof), jt2(dof), y1(m), y2(m);
    o1.apply_jt(o1.user, r.data(), jt1.data());
    o2.apply_jt(o2.user, r.data(), jt2.data());
    assertSameBits("J^T r", jt1, jt2);
    o1.apply_j(o1.user, v.data(), y1.data());
    o2.apply_j(o2.user, v.data(), y2.data());
    assertSameBits("J v", y1, y2);
    nsd_delassus_factored_free(&o1);
    nsd_delassus_factored_free(&o2);
  }

  void nsgsSameBitsAsCompactCopy() {
    Picked s(9);
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    o.max_iterations = 25;
    o.tolerance = 1e-14;
    const size_t m = 3 * static_cast<size_t>(s.nc);
    std::vector<double> v1 = s.v_free, v2 = s.v_free, v3 = s.v_free;
    std::vector<double> r1(m, 0.0), r2(m, 0.0), r3(m, 0.0), u1(m), u2(m);
    NsdReport rep1{}, rep2{}, rep3{};
    const NsdStatus st1 =
        nsd_fc3d_nsgs_bodies(&s.inPlace, v1.data(), r1.data(), u1.data(), &o, &rep1);
    const NsdStatus st2 =
        nsd_fc3d_nsgs_bodies(&s.compact, v2.data(), r2.data(), u2.data(), &o, &rep2);
    // u not stored: the same sweeps and error checks
    const NsdStatus st3 =
        nsd_fc3d_nsgs_bodies(&s.inPlace, v3.data(), r3.data(), nullptr, &o, &rep3);
    CPPUNIT_ASSERT_EQUAL(st2, st1);
    CPPUNIT_ASSERT_EQUAL(st2, st3);
    CPPUNIT_ASSERT(rep2.iterations > 1);
    CPPUNIT_ASSERT_EQUAL(rep2.iterations, rep1.iterations);
    CPPUNIT_ASSERT_EQUAL(rep2.iterations, rep3.iterations);
    CPPUNIT_ASSERT(std::memcmp(&rep1.residual, &rep2.residual, sizeof(double)) == 0);
    CPPUNIT_ASSERT(std::memcmp(&rep3.residual, &rep2.residual, sizeof(double)) == 0);
    assertSameBits("r", r1, r2);
    assertSameBits("r (u NULL)", r3, r2);
    assertSameBits("v", v1, v2);
    assertSameBits("v (u NULL)", v3, v2);
    assertSameBits("u", u1, u2);
    // the fixed bodies never moved
    for (int k = 0; k < 12; ++k) CPPUNIT_ASSERT_EQUAL(0.0, v1[static_cast<size_t>(k)]);
  }

  void rejectsBadIndexAndFixedPairs() {
    NsdReport rep{};
    {
      Picked s(5);
      s.index[4] = s.ne;
      s.view();
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_check(&s.inPlace, &rep));
      const std::string expect = "contact 4: index = 40, expected in [0, 40)";
      CPPUNIT_ASSERT_MESSAGE(rep.message,
                             std::string(rep.message).find(expect) != std::string::npos);
      std::vector<double> v = s.v_free, r(3 * static_cast<size_t>(s.nc), 0.0);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_fc3d_nsgs_bodies(&s.inPlace, v.data(), r.data(),
                                                               nullptr, nullptr, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message,
                             std::string(rep.message).find(expect) != std::string::npos);
    }
    {
      Picked s(5);
      const int e = s.index[3];
      s.a[static_cast<size_t>(e)] = 0;
      s.b[static_cast<size_t>(e)] = 1;  // both fixed
      s.view();
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_check(&s.inPlace, &rep));
      CPPUNIT_ASSERT_MESSAGE(
          rep.message, std::string(rep.message)
                               .find("contact 3: body_a = 0 and body_b = 1 are both fixed or -1") !=
                           std::string::npos);
    }
    {
      // the entries left out are not read: a fault there is not the problem's
      Picked s(5);
      s.a[1] = -7;
      s.frame[9 * 4] = NAN;
      s.view();
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, nsd_rigid_contacts_check(&s.inPlace, &rep));
    }
    {
      Picked s(5);
      s.inPlace.n_entries = -1;
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_check(&s.inPlace, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message,
                             std::string(rep.message).find("n_entries = -1") != std::string::npos);
    }
  }

  void stagesSameBitsAsOneStage() {
    Picked s(9);
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    o.max_iterations = 25;
    o.tolerance = 1e-14;
    const size_t m = 3 * static_cast<size_t>(s.nc);
    std::vector<double> v1 = s.v_free, v2 = s.v_free, r1(m, 0.0), r2(m, 0.0), u1(m), u2(m);
    NsdReport rep1{}, rep2{};
    const NsdStatus st1 =
        nsd_fc3d_nsgs_bodies(&s.inPlace, v1.data(), r1.data(), u1.data(), &o, &rep1);
    // three stages, the middle one empty, a hook that changes nothing
    const int ends[3] = {s.nc / 3, s.nc / 3, s.nc};
    StageHook h;
    s.inPlace.n_stages = 3;
    s.inPlace.stage_end = ends;
    s.inPlace.after_stage = StageHook::afterStage;
    s.inPlace.user = &h;
    const NsdStatus st2 =
        nsd_fc3d_nsgs_bodies(&s.inPlace, v2.data(), r2.data(), u2.data(), &o, &rep2);
    CPPUNIT_ASSERT_EQUAL(st1, st2);
    CPPUNIT_ASSERT(rep1.iterations > 1);
    CPPUNIT_ASSERT_EQUAL(rep1.iterations, rep2.iterations);
    CPPUNIT_ASSERT(std::memcmp(&rep1.residual, &rep2.residual, sizeof(double)) == 0);
    assertSameBits("r (stages)", r2, r1);
    assertSameBits("v (stages)", v2, v1);
    assertSameBits("u (stages)", u2, u1);
    // after stages 0 and 1 of every sweep, never after the last
    CPPUNIT_ASSERT_EQUAL(static_cast<size_t>(2 * rep2.iterations), h.calls.size());
    for (size_t k = 0; k < h.calls.size(); ++k)
      CPPUNIT_ASSERT_EQUAL(static_cast<int>(k % 2), h.calls[k]);
    // one stage given as n_stages = 1: stage_end unread
    s.inPlace.n_stages = 1;
    s.inPlace.stage_end = nullptr;
    h.calls.clear();
    std::vector<double> v3 = s.v_free, r3(m, 0.0);
    CPPUNIT_ASSERT_EQUAL(
        st1, nsd_fc3d_nsgs_bodies(&s.inPlace, v3.data(), r3.data(), nullptr, &o, nullptr));
    assertSameBits("r (one stage)", r3, r1);
    CPPUNIT_ASSERT(h.calls.empty());
  }

  void shuffleStaysWithinStages() {
    Picked s(9);
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    o.max_iterations = 20;
    o.tolerance = 1e-14;
    o.nsgs.shuffle = 1;
    o.nsgs.seed = 3;
    const size_t m = 3 * static_cast<size_t>(s.nc);
    const int ends[2] = {s.nc / 2, s.nc};
    StageHook h;
    std::vector<double> v = s.v_free, r(m, 0.0);
    h.r = &r;
    h.snapshot = r;
    h.stage_end = ends;
    h.n_stages = 2;
    s.inPlace.n_stages = 2;
    s.inPlace.stage_end = ends;
    s.inPlace.after_stage = StageHook::afterStage;
    s.inPlace.after_sweep = StageHook::afterSweep;
    s.inPlace.user = &h;
    NsdReport rep{};
    nsd_fc3d_nsgs_bodies(&s.inPlace, v.data(), r.data(), nullptr, &o, &rep);
    CPPUNIT_ASSERT_EQUAL(20, rep.iterations);
    CPPUNIT_ASSERT_EQUAL(static_cast<size_t>(20), h.calls.size());
    // no contact of stage 1 was visited before the exchange after stage 0
    CPPUNIT_ASSERT_EQUAL(0, h.visitedEarly);
    // the same check trips on a run whose stage 1 was visited early (one stage, the
    // hook told of two): the check can fail
    StageHook bad = h;
    bad.calls.clear();
    bad.visitedEarly = 0;
    std::vector<double> v2 = s.v_free, r2(m, 0.0);
    bad.r = &r2;
    bad.snapshot = r2;
    const int whole[2] = {s.nc, s.nc};
    s.inPlace.stage_end = whole;
    s.inPlace.user = &bad;
    nsd_fc3d_nsgs_bodies(&s.inPlace, v2.data(), r2.data(), nullptr, &o, &rep);
    CPPUNIT_ASSERT_EQUAL(20, static_cast<int>(bad.calls.size()));
    CPPUNIT_ASSERT(bad.visitedEarly > 0);
  }

  void rejectsBadStages() {
    const struct {
      int n_stages;
      std::vector<int> ends;  // empty: NULL
      const char* expect;
    } faults[] = {
        {-1, {}, "n_stages = -1, expected >= 0"},
        {2, {}, "stage_end is NULL with n_stages = 2"},
        {2, {5, 20}, "stage_end[1] = 20, expected n_contacts = "},
        {3, {7, 3, 0}, "stage_end[1] = 3, expected in [7, "},
        {2, {-1, 0}, "stage_end[0] = -1, expected in [0, "},
    };
    for (const auto& f : faults) {
      Picked s(5);
      std::vector<int> ends = f.ends;
      if (!ends.empty()) ends.back() = ends.back() == 0 ? s.nc : ends.back();
      s.inPlace.n_stages = f.n_stages;
      s.inPlace.stage_end = ends.empty() ? nullptr : ends.data();
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_check(&s.inPlace, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message,
                             std::string(rep.message).find(f.expect) != std::string::npos);
      std::vector<double> v = s.v_free, r(3 * static_cast<size_t>(s.nc), 0.0);
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_fc3d_nsgs_bodies(&s.inPlace, v.data(), r.data(),
                                                               nullptr, nullptr, &rep));
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcBodiesIndexTest);
