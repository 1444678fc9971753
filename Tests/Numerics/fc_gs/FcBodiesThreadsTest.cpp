// The threaded Gauss-Seidel of nsd_fc3d_nsgs_bodies (Numerics/src/friction/
// fc3d_nsgs_bodies.c, fc_bodies_colour.c): the colouring of the contacts by their bodies
// (contacts of one colour share no dynamic body, stages kept, problem order within a
// colour), and the same bits for 1, 2 and 3 threads and on reruns (answer, velocities,
// sweeps, residual, history), cold and warm, with stages; the coloured sweeps reach the
// answer of nsd_fc3d_nsgs on the assembled problem; blocks (sweep_block): the caller's
// order (blocks in turn, then block -1) to the bit on any thread count, bad blocks refused.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

extern "C" {
#include "friction/fc_bodies_colour.h"
}
#include "nsdyn/nsd_bodies.h"
#include "nsdyn/numerics.h"

namespace {

// A random pile-like problem: each contact joins two bodies drawn among neighbours in a
// chain (body i with i + 1 .. i + 8), some against the static world (-1) or a fixed body,
// a random frame and arms, unit-ish masses; q pushes the contacts closed.
struct Pile {
  int nb, nc;
  std::vector<int> a, b;
  std::vector<double> frame, arm_a, arm_b, inv_mass, inv_inertia, q, mu, v_free;
  std::vector<unsigned char> fixed;
  NsdRigidContacts p{};

  Pile(int bodies, int contacts, unsigned seed) : nb(bodies), nc(contacts) {
    std::mt19937_64 gen(seed);
    std::uniform_real_distribution<double> U(-1.0, 1.0), P(0.0, 1.0);
    std::uniform_int_distribution<int> body(0, nb - 1), step(1, 8);
    for (int i = 0; i < nb; ++i) {
      inv_mass.push_back(1.0 / (0.5 + P(gen)));
      const double I = 1.0 / (0.2 + 0.1 * P(gen));
      const double M[9] = {I, 0.0, 0.0, 0.0, I, 0.0, 0.0, 0.0, I};
      inv_inertia.insert(inv_inertia.end(), M, M + 9);
      for (int k = 0; k < 6; ++k) v_free.push_back(0.1 * U(gen));
      fixed.push_back(i % 97 == 5 ? 1 : 0);
    }
    for (int c = 0; c < nc; ++c) {
      int A = body(gen);
      while (fixed[static_cast<std::size_t>(A)]) A = body(gen);
      int B = A + step(gen);
      if (B >= nb || P(gen) < 0.1) B = -1;
      a.push_back(A);
      b.push_back(B);
      double n[3] = {0.2 * U(gen), 0.2 * U(gen), 1.0};
      const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
      for (double& x : n) x /= len;
      // rows n, t1, t2 (Siconos orthoBaseFromVector; n[2] > 0)
      const double aa = -1.0 / (1.0 + n[2]), bb = n[0] * n[1] * aa;
      const double f[9] = {
          n[0], n[1], n[2], 1.0 + n[0] * n[0] * aa, bb, -n[0], bb, 1.0 + n[1] * n[1] * aa, -n[1]};
      frame.insert(frame.end(), f, f + 9);
      for (int k = 0; k < 3; ++k) arm_a.push_back(0.05 * U(gen));
      for (int k = 0; k < 3; ++k) arm_b.push_back(0.05 * U(gen));
      mu.push_back(0.3 + 0.4 * P(gen));
      q.push_back(-0.1 - 0.1 * P(gen));
      q.push_back(0.05 * U(gen));
      q.push_back(0.05 * U(gen));
    }
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
    p.body_fixed = fixed.data();
  }
};

// One solve: v, r, u, the report and the history of the error checks.
struct Solve {
  std::vector<double> v, r, u;
  NsdReport rep{};
  NsdStatus status = NSD_FAILED;
  Solve(const Pile& s, int threads, int warm, int sweeps, const NsdRigidContacts* p = nullptr,
        double tolerance = 1e-300) {
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    o.tolerance = tolerance;
    o.max_iterations = sweeps;
    o.threads = threads;
    o.warm_start = warm;
    v = s.v_free;
    r.assign(3 * static_cast<std::size_t>(s.nc), 0.0);
    for (int c = 0; warm && c < s.nc; ++c) r[3 * c] = 0.01 * (c % 7);
    u.assign(3 * static_cast<std::size_t>(s.nc), 0.0);
    status = nsd_fc3d_nsgs_bodies(p ? p : &s.p, v.data(), r.data(), u.data(), &o, &rep);
  }
};

bool sameBits(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

void assertSameBits(const std::string& what, const Solve& one, const Solve& other) {
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": status", one.status, other.status);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": sweeps", one.rep.iterations, other.rep.iterations);
  CPPUNIT_ASSERT_MESSAGE(what + ": residual",
                         std::memcmp(&one.rep.residual, &other.rep.residual, sizeof(double)) == 0);
  CPPUNIT_ASSERT_MESSAGE(what + ": r", sameBits(one.r, other.r));
  CPPUNIT_ASSERT_MESSAGE(what + ": v", sameBits(one.v, other.v));
  CPPUNIT_ASSERT_MESSAGE(what + ": u", sameBits(one.u, other.u));
}

// Two stages: the first half of the contacts, then the rest; after_stage counts its calls.
struct Staged {
  int calls = 0;
  int ends[2];
  static void afterStage(void* user, double*, int stage) {
    auto* s = static_cast<Staged*>(user);
    CPPUNIT_ASSERT_EQUAL(0, stage);
    s->calls++;
  }
};

}  // namespace

class FcBodiesThreadsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcBodiesThreadsTest);
  CPPUNIT_TEST(colouringSeparatesBodies);
  CPPUNIT_TEST(sameBitsAnyThreadCount);
  CPPUNIT_TEST(sameBitsWithStages);
  CPPUNIT_TEST(reachesTheAssembledAnswer);
  CPPUNIT_TEST(blocksAreTheCallersOrder);
  CPPUNIT_TEST(badBlocksRejected);
  CPPUNIT_TEST_SUITE_END();

 public:
  // Every contact once; within a stage; a colour's contacts share no dynamic body (the
  // static and fixed sides excluded) and keep problem order; a hub body with 100 contacts
  // sends the contacts beyond 64 colours to the last, sequential run.
  void colouringSeparatesBodies() {
    Pile s(400, 1200, 5);
    // body 0 is a hub: its contacts need one colour each
    for (int c = 0; c < 100; ++c) s.a[static_cast<std::size_t>(c)] = 0;
    for (int c = 0; c < 100; ++c) s.b[static_cast<std::size_t>(c)] = 1 + c;
    for (int c = 100; c < s.nc; ++c)
      if (s.a[static_cast<std::size_t>(c)] == 0) s.a[static_cast<std::size_t>(c)] = 1;
    const int ends[3] = {500, 500, 1200};  // an empty stage too
    s.p.n_stages = 3;
    s.p.stage_end = ends;
    NsdRbColouring col;
    CPPUNIT_ASSERT_EQUAL(1, nsd_rb_colour(&s.p, &col));
    std::vector<int> seen(static_cast<std::size_t>(s.nc), 0);
    std::vector<int> mark(static_cast<std::size_t>(s.nb), -1);
    CPPUNIT_ASSERT_EQUAL(3, col.n_stages);
    int serial = 0;
    for (int st = 0; st < 3; ++st) {
      const int begin = st > 0 ? ends[st - 1] : 0, end = ends[st];
      for (int k = col.stage_run[st]; k < col.stage_run[st + 1]; ++k) {
        for (int i = nsd_rb_run_begin(&col, k); i < col.run_end[k]; ++i) {
          const int c = col.order[i];
          CPPUNIT_ASSERT(c >= begin && c < end);
          seen[static_cast<std::size_t>(c)]++;
          if (i > nsd_rb_run_begin(&col, k)) CPPUNIT_ASSERT(c > col.order[i - 1]);
          if (col.run_serial[k]) {
            ++serial;
            continue;
          }
          const int A = s.a[static_cast<std::size_t>(c)], B = s.b[static_cast<std::size_t>(c)];
          for (int body : {A, B == A ? -1 : B}) {
            if (body < 0 || s.fixed[static_cast<std::size_t>(body)]) continue;
            CPPUNIT_ASSERT_MESSAGE("contact " + std::to_string(c) + " shares body " +
                                       std::to_string(body) + " within run " + std::to_string(k),
                                   mark[static_cast<std::size_t>(body)] != k);
            mark[static_cast<std::size_t>(body)] = k;
          }
        }
      }
    }
    for (int c = 0; c < s.nc; ++c) CPPUNIT_ASSERT_EQUAL(1, seen[static_cast<std::size_t>(c)]);
    CPPUNIT_ASSERT_EQUAL(64, col.colours);
    CPPUNIT_ASSERT_EQUAL(36, col.serial);  // the hub's contacts 64 .. 99
    CPPUNIT_ASSERT_EQUAL(serial, col.serial);
    nsd_rb_colouring_free(&col);
  }

  // 1, 2 and 3 threads and a rerun: the same bits, cold and warm; the sweeps do work
  // (several checks recorded, the residual falls).
  void sameBitsAnyThreadCount() {
    const Pile s(2500, 6000, 11);
    for (int warm = 0; warm < 2; ++warm) {
      const std::string what = warm ? "warm" : "cold";
      const Solve one(s, 1, warm, 60), two(s, 2, warm, 60), three(s, 3, warm, 60),
          again(s, 2, warm, 60);
      CPPUNIT_ASSERT_EQUAL(60, one.rep.iterations);  // tolerance 1e-300: every sweep
      CPPUNIT_ASSERT_MESSAGE(std::to_string(one.rep.residual), one.rep.residual < 0.1);
      assertSameBits(what + ", 1 vs 2 threads", one, two);
      assertSameBits(what + ", 1 vs 3 threads", one, three);
      assertSameBits(what + ", rerun", two, again);
    }
  }

  // With two stages the stages stay in order (after_stage once per sweep) and the bits
  // do not depend on the thread count.
  void sameBitsWithStages() {
    const Pile s(2500, 6000, 12);
    Staged h1, h2;
    NsdRigidContacts p1 = s.p, p2 = s.p;
    h1.ends[0] = h2.ends[0] = 2600;
    h1.ends[1] = h2.ends[1] = s.nc;
    p1.n_stages = p2.n_stages = 2;
    p1.stage_end = h1.ends;
    p2.stage_end = h2.ends;
    p1.user = &h1;
    p2.user = &h2;
    p1.after_stage = p2.after_stage = Staged::afterStage;
    const Solve one(s, 1, 0, 40, &p1), two(s, 2, 0, 40, &p2);
    assertSameBits("stages, 1 vs 2 threads", one, two);
    CPPUNIT_ASSERT_EQUAL(one.rep.iterations, h1.calls);
    CPPUNIT_ASSERT_EQUAL(h1.calls, h2.calls);
  }

  // The coloured sweeps (2 threads) reach the answer of nsd_fc3d_nsgs on the assembled
  // problem (problem order) to the tolerance.
  void reachesTheAssembledAnswer() {
    const Pile s(1500, 1100, 13);
    const Solve body(s, 2, 0, 20000, nullptr, 1e-10);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(body.rep.message, NSD_OK, body.status);
    NsdMatrix* W = nullptr;
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_rigid_contacts_assemble(&s.p, &W, &rep));
    std::vector<double> qw(3 * static_cast<std::size_t>(s.nc));
    nsd_rigid_contacts_velocity(&s.p, s.v_free.data(), 1, qw.data());
    NsdFc* fc = nsd_fc_create(3, s.nc, W, qw.data(), s.mu.data());
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    o.tolerance = 1e-10;
    o.max_iterations = 20000;
    std::vector<double> r(qw.size(), 0.0), u(qw.size(), 0.0);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_fc3d_nsgs(fc, r.data(), u.data(), &o, &rep));
    // the coloured answer is an answer of the assembled problem
    CPPUNIT_ASSERT(nsd_fc_error(fc, body.r.data(), nullptr) <= 1e-9);
    double diff = 0.0, scale = 0.0;
    for (std::size_t i = 0; i < r.size(); ++i) {
      diff = std::fmax(diff, std::fabs(r[i] - body.r[i]));
      scale = std::fmax(scale, std::fabs(r[i]));
    }
    CPPUNIT_ASSERT_MESSAGE("largest difference " + std::to_string(diff), diff <= 1e-6 * scale);
    nsd_fc_destroy(fc);  // W with it
  }

  // Blocks by body range (a quarter of the chain each; contacts across a boundary in block
  // -1): 1, 2 and 3 threads give the same bits, and these are the bits of the problem
  // reordered by hand (block 0, 1, 2, 3, then -1, problem order within each) and swept in
  // that order on one thread (its blocks all -1: one sequential run).
  void blocksAreTheCallersOrder() {
    const Pile s(2500, 6000, 14);
    std::vector<int> block(static_cast<std::size_t>(s.nc));
    for (int c = 0; c < s.nc; ++c) {
      const int A = s.a[static_cast<std::size_t>(c)], B = s.b[static_cast<std::size_t>(c)];
      const int bA = A / 625, bB = B < 0 || s.fixed[static_cast<std::size_t>(B)] ? bA : B / 625;
      block[static_cast<std::size_t>(c)] = bA == bB ? bA : -1;
    }
    NsdRigidContacts pb = s.p;
    pb.sweep_block = block.data();
    pb.n_blocks = 4;
    const Solve one(s, 1, 1, 40, &pb), two(s, 2, 1, 40, &pb), three(s, 3, 1, 40, &pb);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(one.rep.message, 40, one.rep.iterations);
    assertSameBits("blocks, 1 vs 2 threads", one, two);
    assertSameBits("blocks, 1 vs 3 threads", one, three);
    int across = 0;
    for (int k : block) across += k < 0;
    CPPUNIT_ASSERT(across > 10 && across < s.nc / 4);  // both kinds swept

    // the same problem in block order, swept in order
    std::vector<int> order;
    for (int k : {0, 1, 2, 3, -1})
      for (int c = 0; c < s.nc; ++c)
        if (block[static_cast<std::size_t>(c)] == k) order.push_back(c);
    Pile t = s;
    for (std::size_t i = 0; i < order.size(); ++i) {
      const std::size_t c = static_cast<std::size_t>(order[i]);
      t.a[i] = s.a[c];
      t.b[i] = s.b[c];
      t.mu[i] = s.mu[c];
      for (std::size_t k = 0; k < 9; ++k) t.frame[9 * i + k] = s.frame[9 * c + k];
      for (std::size_t k = 0; k < 3; ++k) {
        t.arm_a[3 * i + k] = s.arm_a[3 * c + k];
        t.arm_b[3 * i + k] = s.arm_b[3 * c + k];
        t.q[3 * i + k] = s.q[3 * c + k];
      }
    }
    t.p.body_a = t.a.data();
    t.p.body_b = t.b.data();
    t.p.frame = t.frame.data();
    t.p.arm_a = t.arm_a.data();
    t.p.arm_b = t.arm_b.data();
    t.p.q = t.q.data();
    t.p.mu = t.mu.data();
    t.p.inv_mass = t.inv_mass.data();
    t.p.inv_inertia = t.inv_inertia.data();
    t.p.body_fixed = t.fixed.data();
    const std::vector<int> none(static_cast<std::size_t>(s.nc), -1);
    NsdRigidContacts pt = t.p;
    pt.sweep_block = none.data();
    pt.n_blocks = 1;
    // the warm start of Solve is by position: give the reordered problem the same r
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    o.tolerance = 1e-300;
    o.max_iterations = 40;
    o.warm_start = 1;
    std::vector<double> v = s.v_free, r(3 * order.size()), u(r.size());
    for (std::size_t i = 0; i < order.size(); ++i) r[3 * i] = 0.01 * (order[i] % 7);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS,
                         nsd_fc3d_nsgs_bodies(&pt, v.data(), r.data(), u.data(), &o, &rep));
    CPPUNIT_ASSERT_MESSAGE("v", sameBits(v, one.v));
    for (std::size_t i = 0; i < order.size(); ++i)
      for (std::size_t k = 0; k < 3; ++k) {
        const std::size_t c = static_cast<std::size_t>(order[i]);
        CPPUNIT_ASSERT_EQUAL(one.r[3 * c + k], r[3 * i + k]);
        CPPUNIT_ASSERT_EQUAL(one.u[3 * c + k], u[3 * i + k]);
      }
  }

  // A block out of range, blocks with stages or shuffling, and two blocks sharing a body
  // are NSD_BAD_INPUT, each message naming the fault.
  void badBlocksRejected() {
    const Pile s(300, 500, 15);
    std::vector<int> block(static_cast<std::size_t>(s.nc), -1);
    const auto message = [&](NsdRigidContacts p, int shuffle) {
      NsdSolverOptions o;
      nsd_solver_options_default(&o);
      o.nsgs.shuffle = shuffle;
      std::vector<double> v = s.v_free, r(3 * static_cast<std::size_t>(s.nc), 0.0);
      NsdReport rep{};
      const NsdStatus st = nsd_fc3d_nsgs_bodies(&p, v.data(), r.data(), nullptr, &o, &rep);
      return st == NSD_BAD_INPUT ? std::string(rep.message) : std::string("accepted");
    };
    NsdRigidContacts p = s.p;
    p.sweep_block = block.data();
    p.n_blocks = 2;
    CPPUNIT_ASSERT_EQUAL(std::string("accepted"), message(p, 0));
    block[7] = 2;
    CPPUNIT_ASSERT_MESSAGE(message(p, 0),
                           message(p, 0).find("contact 7: sweep_block = 2") != std::string::npos);
    block[7] = -1;
    const int ends[2] = {100, s.nc};
    NsdRigidContacts staged = p;
    staged.n_stages = 2;
    staged.stage_end = ends;
    CPPUNIT_ASSERT(message(staged, 0).find("sweep_block with n_stages = 2") != std::string::npos);
    CPPUNIT_ASSERT(message(p, 1).find("sweep_block with nsgs.shuffle") != std::string::npos);
    // contacts 3 and 9 on one body, in blocks 0 and 1
    Pile t = s;
    t.a[3] = t.a[9] = 40;
    t.p.body_a = t.a.data();
    std::vector<int> clash(static_cast<std::size_t>(s.nc), -1);
    clash[3] = 0;
    clash[9] = 1;
    NsdRigidContacts q = t.p;
    q.sweep_block = clash.data();
    q.n_blocks = 2;
    CPPUNIT_ASSERT_MESSAGE(
        message(q, 0), message(q, 0).find("contacts 3 (block 0) and 9 (block 1) share body 40") !=
                           std::string::npos);
    clash[9] = 0;  // one block: accepted
    CPPUNIT_ASSERT_EQUAL(std::string("accepted"), message(q, 0));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcBodiesThreadsTest);
