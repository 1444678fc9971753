// The held sides of nsd_fc3d_nsgs_bodies (NsdRigidContacts::sweep_held, shock propagation)
// on columns of unit-mass bodies stacked along z on a floor, every contact asking for 1 m/s
// of separation (q_n = -1, frictionless: the problem of the scene engine's overlap
// recovery). Held lower bodies and a bottom-up sweep: one sweep is the exact answer, the
// body k levels up at k + 1 m/s, each contact's impulse k + 1 (it moves its upper body
// alone, W_cc = 1; the two-sided answer's floor impulse carries the column, 1 + ... + 30); without
// holding, one sweep is far from the answer (Gauss-Seidel on a chain).
// In coloured order (1,200 contacts: 40 columns, one stage per level) the same, the same
// bits on 1 and 2 threads; a warm start at the answer stays there; bad values refused.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "nsdyn/nsd_bodies.h"

namespace {

// @p columns columns of @p levels bodies; contact (column, level) joins body level (A,
// above) to the body below (B; the floor, -1, at level 0), normal +z. Contacts level by
// level (all columns of level 0, then level 1, ...): stage s = level s.
struct Columns {
  int columns, levels, nb, nc;
  std::vector<int> a, b, stageEnd;
  std::vector<double> frame, arm, invMass, invInertia, q, mu;
  std::vector<unsigned char> held;
  NsdRigidContacts p{};

  Columns(int cols, int lev) : columns(cols), levels(lev), nb(cols * lev), nc(cols * lev) {
    const double rows[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};  // n, t1, t2
    for (int l = 0; l < levels; ++l) {
      for (int c = 0; c < columns; ++c) {
        a.push_back(c * levels + l);
        b.push_back(l == 0 ? -1 : c * levels + l - 1);
        frame.insert(frame.end(), rows, rows + 9);
        q.insert(q.end(), {-1.0, 0.0, 0.0});
        mu.push_back(0.0);
        held.push_back(l == 0 ? 0 : 2);
      }
      stageEnd.push_back((l + 1) * columns);
    }
    arm.assign(3 * static_cast<std::size_t>(nc), 0.0);
    invMass.assign(static_cast<std::size_t>(nb), 1.0);
    invInertia.assign(9 * static_cast<std::size_t>(nb), 0.0);
    for (int k = 0; k < nb; ++k)
      for (int i = 0; i < 3; ++i) invInertia[9 * static_cast<std::size_t>(k) + 4 * i] = 2.5;
    p.n_contacts = nc;
    p.n_bodies = nb;
    p.body_a = a.data();
    p.body_b = b.data();
    p.frame = frame.data();
    p.arm_a = arm.data();
    p.arm_b = arm.data();
    p.inv_mass = invMass.data();
    p.inv_inertia = invInertia.data();
    p.q = q.data();
    p.mu = mu.data();
    p.sweep_held = held.data();
  }
  double vz(int column, int level, const std::vector<double>& v) const {
    return v[6 * static_cast<std::size_t>(column * levels + level) + 2];
  }
};

struct Run {
  NsdStatus status;
  NsdReport report{};
  std::vector<double> v, r;
};

Run solve(const Columns& s, int sweeps, int threads, const std::vector<double>* warm = nullptr) {
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.tolerance = 1e-14;
  o.max_iterations = sweeps;
  o.threads = threads;
  o.pgs.check_every = 1;
  o.warm_start = warm != nullptr;
  Run run;
  run.v.assign(6 * static_cast<std::size_t>(s.nb), 0.0);
  run.r = warm ? *warm : std::vector<double>(3 * static_cast<std::size_t>(s.nc), 0.0);
  run.status = nsd_fc3d_nsgs_bodies(&s.p, run.v.data(), run.r.data(), nullptr, &o, &run.report);
  return run;
}

}  // namespace

class FcBodiesHeldTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcBodiesHeldTest);
  CPPUNIT_TEST(oneSweepIsExact);
  CPPUNIT_TEST(colouredSameBitsAnyThreads);
  CPPUNIT_TEST(warmStartAtAnswer);
  CPPUNIT_TEST(rejectsBadHeld);
  CPPUNIT_TEST_SUITE_END();

  static void assertExact(const Columns& s, const Run& run, const std::string& what) {
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + run.report.message, NSD_OK, run.status);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(what, 1, run.report.iterations);
    CPPUNIT_ASSERT_MESSAGE(what, run.report.residual <= 1e-14);
    for (int c = 0; c < s.columns; ++c)
      for (int l = 0; l < s.levels; ++l) {
        CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, l + 1.0, s.vz(c, l, run.v), 1e-12);
        const std::size_t k = static_cast<std::size_t>(l * s.columns + c);
        CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, l + 1.0, run.r[3 * k], 1e-12);
      }
  }

 public:
  // one column of 30: one sweep bottom-up; without holding, the first sweep leaves it far
  // from the answer (the two-sided answer's floor impulse carries the column: 1 + ... + 30)
  void oneSweepIsExact() {
    Columns s(1, 30);
    assertExact(s, solve(s, 1, 1), "held, one sweep");
    s.p.sweep_held = nullptr;
    const Run free = solve(s, 1, 1);
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, free.status);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(free.report.residual), free.report.residual > 1e-2);
    const Run converged = solve(s, 100000, 1);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, converged.status);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(465.0, converged.r[0], 1e-7);  // 1 + 2 + ... + 30
    CPPUNIT_ASSERT_DOUBLES_EQUAL(30.0, s.vz(0, 29, converged.v), 1e-9);
  }

  // 40 columns of 30 (1,200 contacts: the coloured sweeps), one stage per level
  void colouredSameBitsAnyThreads() {
    Columns s(40, 30);
    s.p.n_stages = s.levels;
    s.p.stage_end = s.stageEnd.data();
    const Run one = solve(s, 1, 1), two = solve(s, 1, 2);
    assertExact(s, one, "coloured, 1 thread");
    CPPUNIT_ASSERT(std::memcmp(one.v.data(), two.v.data(), one.v.size() * sizeof(double)) == 0);
    CPPUNIT_ASSERT(std::memcmp(one.r.data(), two.r.data(), one.r.size() * sizeof(double)) == 0);
  }

  // the warm start moves only the upper body of each contact: at the answer it stays
  void warmStartAtAnswer() {
    Columns s(1, 12);
    const std::vector<double> answer = solve(s, 1, 1).r;
    assertExact(s, solve(s, 1, 1, &answer), "warm start at the answer");
  }

  void rejectsBadHeld() {
    Columns s(1, 3);
    auto message = [&s]() {
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_rigid_contacts_check(&s.p, &rep));
      return std::string(rep.message);
    };
    s.held[1] = 3;
    CPPUNIT_ASSERT_MESSAGE(message(),
                           message().find("contact 1: sweep_held = 3") != std::string::npos);
    s.held[1] = 2;
    s.held[0] = 1;  // the floor contact: holding A leaves no side that moves
    CPPUNIT_ASSERT_MESSAGE(
        message(), message().find("contact 0: sweep_held = 1 holds the only") != std::string::npos);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcBodiesHeldTest);
