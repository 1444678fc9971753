// Anderson acceleration of the Gauss-Seidel sweeps (options->nsgs.anderson,
// Numerics/src/friction/fc_anderson.c):
//  - on a linear contraction x <- A x + b of size n, with n differences kept, the
//    accelerated iterate is the exact fixed point after n + 1 sweeps (Anderson type II
//    is GMRES on a linear map), where the plain iteration is still far from it;
//  - on columns of spheres under gravity swept bottom-up (Gauss-Seidel on a chain
//    carries the load one contact per sweep): the body form (nsd_fc3d_nsgs_bodies)
//    and the assembled form (nsd_fc3d_nsgs) reach 1e-8 in under a fifth of the plain
//    sweeps, with the plain sweeps' answer; the same bits on 1, 2 and 3 threads
//    (coloured sweeps, 1,200 contacts) and on a rerun;
//  - the shared Siconos problem OneObject-i100000-316, which plain NSGS does not solve
//    in 100,000 sweeps, to 1e-8 in under 1,000; Capsules-i101-404 in a fifth of the sweeps;
//    every shared FC3D and FC2D file to 1e-8 (but the one whose sweeps cycle either way);
//  - the option's range; the path of a problem split over parts (hooks) on one part: the
//    one-process sweeps and answer.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

extern "C" {
#include "friction/fc_anderson.h"
}
#include "nsdyn/nsd_bodies.h"
#include "nsdyn/numerics.h"

namespace {

// @p columns columns of @p levels spheres of unit mass (radius 0.5: arms along the
// normal), contact (column, level) joining sphere level (A, above) to the one below (B;
// the floor, -1, at level 0), normal +z, mu 0.5; contacts level by level from the floor
// (the slow order for Gauss-Seidel under a load from above). v_free: gravity's h g plus
// small sideways velocities, so that friction acts.
struct Columns {
  int columns, levels, nb, nc;
  std::vector<int> a, b;
  std::vector<double> frame, armA, armB, invMass, invInertia, q, mu, vFree;
  NsdRigidContacts p{};

  Columns(int cols, int lev) : columns(cols), levels(lev), nb(cols * lev), nc(cols * lev) {
    const double rows[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0};  // n, t1, t2
    for (int l = 0; l < levels; ++l)
      for (int c = 0; c < columns; ++c) {
        a.push_back(c * levels + l);
        b.push_back(l == 0 ? -1 : c * levels + l - 1);
        frame.insert(frame.end(), rows, rows + 9);
        armA.insert(armA.end(), {0.0, 0.0, -0.5});
        armB.insert(armB.end(), {0.0, 0.0, 0.5});
        q.insert(q.end(), {0.0, 0.0, 0.0});
        mu.push_back(0.5);
      }
    invMass.assign(static_cast<std::size_t>(nb), 1.0);
    invInertia.assign(9 * static_cast<std::size_t>(nb), 0.0);
    for (int k = 0; k < nb; ++k) {
      for (int i = 0; i < 3; ++i) invInertia[9 * static_cast<std::size_t>(k) + 4 * i] = 10.0;
      const double side = 1e-3 * std::sin(1.7 * k);
      vFree.insert(vFree.end(), {side, 0.5 * side, -9.81e-3, 0.0, 0.0, 0.0});
    }
    p.n_contacts = nc;
    p.n_bodies = nb;
    p.body_a = a.data();
    p.body_b = b.data();
    p.frame = frame.data();
    p.arm_a = armA.data();
    p.arm_b = armB.data();
    p.inv_mass = invMass.data();
    p.inv_inertia = invInertia.data();
    p.q = q.data();
    p.mu = mu.data();
  }
};

struct Run {
  NsdStatus status;
  NsdReport report{};
  std::vector<double> v, r;
};

NsdSolverOptions options(int anderson, int threads) {
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.tolerance = 1e-8;
  o.max_iterations = 200000;
  o.threads = threads;
  o.nsgs.anderson = anderson;
  return o;
}

Run solveBodies(const Columns& s, int anderson, int threads) {
  const NsdSolverOptions o = options(anderson, threads);
  Run run;
  run.v = s.vFree;
  run.r.assign(3 * static_cast<std::size_t>(s.nc), 0.0);
  run.status = nsd_fc3d_nsgs_bodies(&s.p, run.v.data(), run.r.data(), nullptr, &o, &run.report);
  return run;
}

// The assembled problem u = W r + (J v_free + q) of the columns.
struct Assembled {
  NsdFc* fc = nullptr;
  explicit Assembled(const Columns& s) {
    NsdMatrix* W = nullptr;
    NsdReport rep{};
    if (nsd_rigid_contacts_assemble(&s.p, &W, &rep) != NSD_OK) return;
    std::vector<double> qW(3 * static_cast<std::size_t>(s.nc));
    nsd_rigid_contacts_velocity(&s.p, s.vFree.data(), 1, qW.data());
    fc = nsd_fc_create(3, s.nc, W, qW.data(), s.mu.data());
  }
  ~Assembled() { nsd_fc_destroy(fc); }
};

Run solveAssembled(const NsdFc* fc, int anderson) {
  const NsdSolverOptions o = options(anderson, 1);
  Run run;
  run.r.assign(3 * static_cast<std::size_t>(fc->nc), 0.0);
  run.v.assign(3 * static_cast<std::size_t>(fc->nc), 0.0);  // u
  run.status = nsd_fc3d_nsgs(fc, run.r.data(), run.v.data(), &o, &run.report);
  return run;
}

bool sameBits(const std::vector<double>& x, const std::vector<double>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
}

double largestDifference(const std::vector<double>& x, const std::vector<double>& y) {
  double d = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) d = std::fmax(d, std::fabs(x[i] - y[i]));
  return d;
}

Run solveFile(const std::string& stem, int anderson, int sweeps, const char* dir = "fc3d") {
  const std::string path = std::string(NSDYN_SHARED_DIR) + "/data/" + dir + "/" + stem;
  NsdProblem problem{};
  NsdReport rep{};
  Run run;
  run.status = nsd_read_problem(
      path.c_str(), std::string(dir) == "fc3d" ? NSD_KIND_FC3D : NSD_KIND_FC2D, &problem, &rep);
  if (run.status != NSD_OK) {
    run.report = rep;
    return run;
  }
  NsdSolverOptions o = options(anderson, 1);
  o.max_iterations = sweeps;
  const std::size_t m = 3 * static_cast<std::size_t>(problem.fc->nc);
  run.r.assign(m, 0.0);
  run.v.assign(m, 0.0);
  run.status = problem.fc->dim == 3
                   ? nsd_fc3d_nsgs(problem.fc, run.r.data(), run.v.data(), &o, &run.report)
                   : nsd_fc2d_nsgs(problem.fc, run.r.data(), run.v.data(), &o, &run.report);
  nsd_problem_clear(&problem);
  return run;
}

}  // namespace

class FcAndersonTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcAndersonTest);
  CPPUNIT_TEST(linearMapExactAfterNPlusOne);
  CPPUNIT_TEST(columnsBodyForm);
  CPPUNIT_TEST(columnsAssembled);
  CPPUNIT_TEST(sameBitsAnyThreads);
  CPPUNIT_TEST(sharedProblems);
  CPPUNIT_TEST(everySharedFile);
  CPPUNIT_TEST(optionRange);
  CPPUNIT_TEST(overPartsHooks);
  CPPUNIT_TEST_SUITE_END();

 public:
  // x <- A x + b, A symmetric tridiagonal (0.7 on the diagonal, 0.145 beside: its
  // eigenvalues in (0.44, 0.96), ||A|| < 1 so ||f|| never grows); with m = n differences
  // the history spans the Krylov space after n + 1 sweeps
  void linearMapExactAfterNPlusOne() {
    const int n = 6;
    std::vector<double> b(n);
    for (int i = 0; i < n; ++i) b[static_cast<std::size_t>(i)] = 1.0 + i;
    auto G = [&](std::vector<double>& x) {
      const std::vector<double> y = x;
      for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k)
        x[k] = 0.7 * y[k] + (k > 0 ? 0.145 * y[k - 1] : 0.0) +
               (k + 1 < static_cast<std::size_t>(n) ? 0.145 * y[k + 1] : 0.0) + b[k];
    };
    std::vector<double> exact(n, 0.0);
    for (int k = 0; k < 3000; ++k) G(exact);  // 0.96^3000: the fixed point to round-off
    NsdFcAnderson aa;
    CPPUNIT_ASSERT(nsd_fca_init(&aa, n, n, 1, 1));
    std::vector<double> x(n, 0.0), plain(n, 0.0), carried(1, 0.0);
    for (int sweep = 0; sweep < n + 2; ++sweep) {
      nsd_fca_before(&aa, x.data());
      G(x);
      nsd_fca_after(&aa, x.data(), carried.data(), nullptr, nullptr);
      G(plain);
    }
    const double scale = std::fabs(exact[0]);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(largestDifference(x, exact) / scale),
                           largestDifference(x, exact) <= 1e-8 * scale);
    CPPUNIT_ASSERT(largestDifference(plain, exact) > 0.1 * scale);
    CPPUNIT_ASSERT_EQUAL(0L, aa.restarts);
    CPPUNIT_ASSERT(aa.steps >= n - 1);
    nsd_fca_free(&aa);
  }

  // one column of 40: the plain sweeps need thousands, the accelerated ones a fifth at most
  void columnsBodyForm() {
    Columns s(1, 40);
    const Run plain = solveBodies(s, 0, 1), fast = solveBodies(s, 5, 1);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(plain.report.message, NSD_OK, plain.status);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(fast.report.message, NSD_OK, fast.status);
    const std::string sweeps = std::to_string(plain.report.iterations) + " plain, " +
                               std::to_string(fast.report.iterations) + " accelerated";
    CPPUNIT_ASSERT_MESSAGE(sweeps, plain.report.iterations > 1000);
    CPPUNIT_ASSERT_MESSAGE(sweeps, 5 * fast.report.iterations < plain.report.iterations);
    // the floor carries the column's weight (40 bodies, h g = 9.81e-3 each; to 1e-8 on the
    // Siconos error a 40-long chain leaves a few 1e-6 on r), both answers agree
    CPPUNIT_ASSERT_DOUBLES_EQUAL(40 * 9.81e-3, plain.r[0], 1e-5);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(40 * 9.81e-3, fast.r[0], 1e-5);
    CPPUNIT_ASSERT_MESSAGE(std::to_string(largestDifference(plain.r, fast.r)),
                           largestDifference(plain.r, fast.r) < 1e-5);
    // the velocities are those of the answer: the column at rest
    double vz = 0.0;
    for (int k = 0; k < s.nb; ++k)
      vz = std::fmax(vz, std::fabs(fast.v[6 * static_cast<std::size_t>(k) + 2]));
    CPPUNIT_ASSERT_MESSAGE(std::to_string(vz), vz < 1e-7);
  }

  void columnsAssembled() {
    Columns s(2, 40);
    Assembled w(s);
    CPPUNIT_ASSERT(w.fc);
    const Run plain = solveAssembled(w.fc, 0), fast = solveAssembled(w.fc, 5);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(plain.report.message, NSD_OK, plain.status);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(fast.report.message, NSD_OK, fast.status);
    const std::string sweeps = std::to_string(plain.report.iterations) + " plain, " +
                               std::to_string(fast.report.iterations) + " accelerated";
    CPPUNIT_ASSERT_MESSAGE(sweeps, 5 * fast.report.iterations < plain.report.iterations);
    // both to 1e-8 on the Siconos error: a 40-long chain leaves a few 1e-6 on r, as in
    // columnsBodyForm (1.4e-6 measured on an AMD EPYC, OpenBLAS's kernels for that CPU)
    CPPUNIT_ASSERT_MESSAGE(std::to_string(largestDifference(plain.r, fast.r)),
                           largestDifference(plain.r, fast.r) < 1e-5);
    // u returned is W r + q of the returned r (the carried velocities stayed exact)
    std::vector<double> u(fast.v.size());
    nsd_matrix_gemv(1.0, w.fc->M, fast.r.data(), 0.0, u.data());
    for (std::size_t i = 0; i < u.size(); ++i) u[i] += w.fc->q[i];
    CPPUNIT_ASSERT(largestDifference(u, fast.v) < 1e-12);
  }

  // 40 columns of 30 (1,200 contacts: coloured sweeps on several threads)
  void sameBitsAnyThreads() {
    Columns s(40, 30);
    const Run one = solveBodies(s, 5, 1), two = solveBodies(s, 5, 2), three = solveBodies(s, 5, 3),
              again = solveBodies(s, 5, 2);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(one.report.message, NSD_OK, one.status);
    for (const Run* other : {&two, &three, &again}) {
      CPPUNIT_ASSERT_EQUAL(one.report.iterations, other->report.iterations);
      CPPUNIT_ASSERT(one.report.residual == other->report.residual);
      CPPUNIT_ASSERT(sameBits(one.r, other->r));
      CPPUNIT_ASSERT(sameBits(one.v, other->v));
    }
    const Run plain = solveBodies(s, 0, 2);
    CPPUNIT_ASSERT(5 * one.report.iterations < plain.report.iterations);
  }

  void sharedProblems() {
    const Run stuck = solveFile("OneObject-i100000-316.hdf5.dat", 0, 10000),
              solved = solveFile("OneObject-i100000-316.hdf5.dat", 5, 1000);
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, stuck.status);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(solved.report.message, NSD_OK, solved.status);
    const Run plain = solveFile("Capsules-i101-404.dat", 0, 100000),
              fast = solveFile("Capsules-i101-404.dat", 5, 100000);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(plain.report.message, NSD_OK, plain.status);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(fast.report.message, NSD_OK, fast.status);
    CPPUNIT_ASSERT_MESSAGE(
        std::to_string(plain.report.iterations) + " / " + std::to_string(fast.report.iterations),
        5 * fast.report.iterations < plain.report.iterations);
  }

  // every shared FC3D and FC2D file to 1e-8 with the acceleration, but the 2,020-grain
  // packing whose plain sweeps settle into a limit cycle at 5e-7 (FcGsDataTest): the
  // accelerated ones stop there too (7.7e-7 after 100,000 sweeps, 20 s: not run here)
  void everySharedFile() {
    int files = 0;
    for (const char* dir : {"fc3d", "fc2d"})
      for (const auto& entry :
           std::filesystem::directory_iterator(std::string(NSDYN_SHARED_DIR) + "/data/" + dir)) {
        const std::string stem = entry.path().filename().string();
        if (stem == "fc2d_granularflowonwall_02020_00213.dat") continue;
        const Run run = solveFile(stem, 5, 100000, dir);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(stem + ": " + run.report.message, NSD_OK, run.status);
        CPPUNIT_ASSERT_MESSAGE(stem, run.report.residual <= 1e-8);
        ++files;
      }
    CPPUNIT_ASSERT_EQUAL(27 + 8, files);
  }

  void optionRange() {
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    CPPUNIT_ASSERT_EQUAL(0, o.nsgs.anderson);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_option_set(&o, "nsgs.anderson", "5", &rep));
    CPPUNIT_ASSERT_EQUAL(5, o.nsgs.anderson);
    CPPUNIT_ASSERT(nsd_option_set(&o, "nsgs.anderson", "65", &rep) != NSD_OK);
    CPPUNIT_ASSERT(std::string(rep.message).find("anderson") != std::string::npos);
    CPPUNIT_ASSERT(nsd_option_set(&o, "nsgs.anderson", "-1", &rep) != NSD_OK);
    // out of range set directly: the solver refuses it
    o.nsgs.anderson = 100;
    Columns s(1, 3);
    std::vector<double> v = s.vFree, r(9, 0.0);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_fc3d_nsgs_bodies(&s.p, v.data(), r.data(), nullptr, &o, &rep));
    CPPUNIT_ASSERT_MESSAGE(rep.message,
                           std::string(rep.message).find("anderson") != std::string::npos);
  }

  // The path of a problem split over parts, on one part: hooks that sum over one part and
  // exchange nothing (the coefficients from the summed norms, v moved by S M^-1 J^T of each
  // contact's change instead of being carried). The same iterates in exact arithmetic:
  // the same sweep count (+- 2) and answer as the one-process path (within twice the
  // distance between the plain and accelerated answers), every call of the hooks made.
  void overPartsHooks() {
    for (int columns : {1, 40}) {
      Columns s(columns, 30);
      const Run alone = solveBodies(s, 5, 1);
      struct Calls {
        long sums = 0, sweeps = 0;
      } calls;
      s.p.user = &calls;
      s.p.reduce_sum = [](void* u, double*, int) { ++static_cast<Calls*>(u)->sums; };
      s.p.after_sweep = [](void* u, double*) { ++static_cast<Calls*>(u)->sweeps; };
      const Run parts = solveBodies(s, 5, 1);
      const Run plain = solveBodies(s, 0, 1);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(parts.report.message, NSD_OK, parts.status);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, alone.status);
      CPPUNIT_ASSERT(std::abs(parts.report.iterations - alone.report.iterations) <= 2);
      CPPUNIT_ASSERT(5 * parts.report.iterations < plain.report.iterations);
      // equal in exact arithmetic; in floating point the two paths round differently (v
      // carried, v rebuilt from r's change) and the 30-high chain magnifies it (1.9e-8 in v
      // on one column, 9e-15 on 40): compared with the distance between the plain and the
      // accelerated answers at this tolerance
      const double spreadV = largestDifference(plain.v, alone.v);
      const double spreadR = largestDifference(plain.r, alone.r);
      CPPUNIT_ASSERT(largestDifference(parts.v, alone.v) <= 2.0 * spreadV + 1e-12);
      CPPUNIT_ASSERT(largestDifference(parts.r, alone.r) <= 2.0 * spreadR + 1e-12);
      // an exchange after each sweep and after each accelerated step, a sum per sweep (||f||)
      CPPUNIT_ASSERT(calls.sweeps > parts.report.iterations);
      CPPUNIT_ASSERT(calls.sums > parts.report.iterations);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcAndersonTest);
