// The drift of the Gauss-Seidel sweeps along a null direction of W and the jump that ends
// it (options->nsgs.drift, Numerics/src/friction/fc_drift.c):
//  - nsd_fcd_cone_reach against closed forms: an impulse inside its cone moving sideways
//    meets the boundary at mu rn / |dt|; on the boundary moving inwards it crosses the cone
//    to the far side; outwards or below the apex, 0; no boundary ahead, t_max;
//  - a step of a capsule rolling on a plane (two contacts of one body, W singular along the
//    line through them, q_W with a component 5e-9 along it), dumped by SceneEngine with
//    the warm start it was given: plain NSGS from that start stalls at 1.4e-7 for 1,000
//    sweeps (its impulses moving 8e-9 a sweep along the null direction, a million sweeps
//    from the boundary); with the jump it meets 1e-14 in under 50 sweeps, one jump, at the
//    answer the sweeps find from r = 0 (contact 0 sliding on its cone's boundary); with
//    Anderson (5) and PSOR alike;
//  - APGD on the same step (options->apgd.drift, fc_apgd_drift.c): above 5e-8 after 1,000
//    iterations without the jump, warm or cold; 1e-14 with it;
//  - the shared FC3D files from r = 0, NSGS and APGD: where it does not jump, the same bits
//    as without the watch; where it jumps, an error no larger.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

extern "C" {
#include "friction/fc_drift.h"
}
#include "nsdyn/numerics.h"

namespace {

// The capsule's step (SceneEngine::setProblemDump of TerrainSceneTest's capsule with the
// loaded contacts kept, step 30): W row-major (symmetric), q_W, mu, the warm start.
const double kW[36] = {
    1.9559237761353236,    0.37074521825721818,  0.20890364425188346,   -0.59948960205667023,
    0.3713590902372087,    0.20924954242510041,  0.37074521825721818,   1.4328625851156205,
    -1.0877479425976895,   -0.37074521825721823, 0.8172796103406258,    0.0051552035194202261,
    0.20890364425188346,   -1.0877479425976895,  2.7503964218155827,    -0.20890364425188343,
    0.0051552035194204482, 0.81103537414773508,  -0.59948960205667023,  -0.37074521825721823,
    -0.20890364425188343,  1.9559237761353236,   -0.3713590902372087,   -0.20924954242510041,
    0.3713590902372087,    0.8172796103406258,   0.0051552035194204482, -0.3713590902372087,
    1.4333323294393634,    -1.087747942597689,   0.20924954242510041,   0.0051552035194202261,
    0.81103537414773508,   -0.20924954242510041, -1.087747942597689,    2.7508661661393248};
const double kQ[6] = {-0.049140517377993458, 0.0021912836102586097, 0.001192952942411063,
                      -0.049050781527305069, 0.0020884071159915085, 0.0013754636969275369};
const double kR0[6] = {0.039849323868142709, -0.010498147405750743,  -0.0057189226428113627,
                       0.032570762606927539, -0.0081636075397539237, -0.0053695832099509852};
const double kMu[2] = {0.3, 0.3};

struct Solve {
  NsdStatus status;
  NsdReport report{};
  std::vector<double> r, u;
};

Solve solveCapsule(const char* solver, bool warm, int drift, int anderson = 0) {
  NsdMatrix* W = nsd_matrix_create_dense_from_rows(6, 6, kW);
  NsdFc* p = nsd_fc_create(3, 2, W, kQ, kMu);
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.tolerance = 1e-14;
  o.max_iterations = 1000;
  o.warm_start = warm ? 1 : 0;
  // the watch of the solver's family (the other's option, not read, must stay at its default)
  if (std::string(solver) == "apgd")
    o.apgd.drift = drift;
  else
    o.nsgs.drift = drift;
  o.nsgs.anderson = anderson;
  Solve s;
  s.r.assign(kR0, kR0 + 6);
  if (!warm) s.r.assign(6, 0.0);
  s.u.assign(6, 0.0);
  NsdProblem problem{};
  problem.kind = NSD_KIND_FC3D;
  problem.fc = p;
  s.status = nsd_solve(&problem, solver, s.r.data(), s.u.data(), &o, &s.report);
  nsd_problem_clear(&problem);
  return s;
}

// @p path by @p solver from r = 0 at 1e-8, at most 2,000 sweeps or iterations.
Solve solveFile(const std::string& path, int drift, const char* solver) {
  NsdProblem problem{};
  Solve s;
  s.status = nsd_read_problem(path.c_str(), NSD_KIND_FC3D, &problem, &s.report);
  if (s.status != NSD_OK) return s;
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.max_iterations = 2000;
  if (std::string(solver) == "apgd")
    o.apgd.drift = drift;
  else
    o.nsgs.drift = drift;
  const std::size_t m = 3 * static_cast<std::size_t>(problem.fc->nc);
  s.r.assign(m, 0.0);
  s.u.assign(m, 0.0);
  s.status = nsd_solve(&problem, solver, s.r.data(), s.u.data(), &o, &s.report);
  nsd_problem_clear(&problem);
  return s;
}

// The shared files on which the watch jumps (sharedFiles).
constexpr int kJumpedFiles = 0;

}  // namespace

class FcDriftTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcDriftTest);
  CPPUNIT_TEST(coneReachClosedForms);
  CPPUNIT_TEST(capsuleStallsWithoutTheJump);
  CPPUNIT_TEST(capsuleConvergesWithTheJump);
  CPPUNIT_TEST(apgdOnTheCapsule);
  CPPUNIT_TEST(sharedFiles);
  CPPUNIT_TEST_SUITE_END();

 public:
  void coneReachClosedForms() {
    const double big = 1e30;
    // inside, moving sideways: |0.1 t| = 0.5 at t = 5
    {
      const double r[3] = {1.0, 0.0, 0.0}, d[3] = {0.0, 0.1, 0.0};
      CPPUNIT_ASSERT_DOUBLES_EQUAL(5.0, nsd_fcd_cone_reach(3, 0.5, r, d, big), 1e-12);
    }
    // inside, sideways and pressing: 0.2 t = 0.5 (1 + 0.1 t) at t = 10/3
    {
      const double r[3] = {1.0, 0.0, 0.0}, d[3] = {0.1, 0.0, 0.2};
      CPPUNIT_ASSERT_DOUBLES_EQUAL(10.0 / 3.0, nsd_fcd_cone_reach(3, 0.5, r, d, big), 1e-12);
    }
    // on the boundary, moving inwards: across the cone to the far side, 0.5 - 0.1 t = -0.5
    {
      const double r[3] = {1.0, 0.5, 0.0}, d[3] = {0.0, -0.1, 0.0};
      CPPUNIT_ASSERT_DOUBLES_EQUAL(10.0, nsd_fcd_cone_reach(3, 0.5, r, d, big), 1e-12);
    }
    // on the boundary, moving outwards: 0
    {
      const double r[3] = {1.0, 0.3, 0.4}, d[3] = {0.0, 0.03, 0.04};
      CPPUNIT_ASSERT_EQUAL(0.0, nsd_fcd_cone_reach(3, 0.5, r, d, big));
    }
    // along a generatrix of the cone, outwards from the apex: never leaves
    {
      const double r[3] = {0.0, 0.0, 0.0}, d[3] = {1.0, 0.3, 0.4};
      CPPUNIT_ASSERT_EQUAL(big, nsd_fcd_cone_reach(3, 0.5, r, d, big));
    }
    // the normal impulse falling to 0: rn + t dn = 0 at t = 4 (frictionless, 2D alike)
    {
      const double r[3] = {2.0, 0.0, 0.0}, d[3] = {-0.5, 0.0, 0.0};
      CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, nsd_fcd_cone_reach(3, 0.0, r, d, big), 1e-12);
      CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0, nsd_fcd_cone_reach(2, 0.5, r, d, big), 1e-12);
    }
    // frictionless with a tangential change: 0; the cap when nothing is ahead
    {
      const double r[3] = {2.0, 0.0, 0.0}, d[3] = {0.0, 0.1, 0.0}, up[3] = {0.5, 0.0, 0.0};
      CPPUNIT_ASSERT_EQUAL(0.0, nsd_fcd_cone_reach(3, 0.0, r, d, big));
      CPPUNIT_ASSERT_EQUAL(7.0, nsd_fcd_cone_reach(3, 0.5, r, up, 7.0));
    }
  }

  // The reason for the jump: the plain sweeps from the warm start do not get there.
  void capsuleStallsWithoutTheJump() {
    const Solve s = solveCapsule("nsgs", true, 0);
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS, s.status);
    CPPUNIT_ASSERT(s.report.residual > 1e-7);
    CPPUNIT_ASSERT_EQUAL(0, s.report.drift_jumps);
    // both impulses still inside their cones, far from the answer's sliding contact 0
    for (int a = 0; a < 2; ++a)
      CPPUNIT_ASSERT(std::hypot(s.r[3 * a + 1], s.r[3 * a + 2]) < 0.9 * 0.3 * s.r[3 * a]);
  }

  void capsuleConvergesWithTheJump() {
    const Solve cold = solveCapsule("nsgs", false, 1);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, cold.status);
    CPPUNIT_ASSERT(cold.report.iterations <= 20);
    // the answer: contact 0 slides on its cone's boundary, against its sliding velocity
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.3 * cold.r[0], std::hypot(cold.r[1], cold.r[2]), 1e-12);
    CPPUNIT_ASSERT(cold.u[1] * cold.r[1] + cold.u[2] * cold.r[2] < 0.0);
    const struct {
      const char* solver;
      int anderson;
      int sweeps;
    } cases[] = {{"nsgs", 0, 50}, {"nsgs", 5, 60}, {"psor", 0, 200}};
    for (const auto& c : cases) {
      const std::string what = std::string(c.solver) + " anderson " + std::to_string(c.anderson);
      const Solve s = solveCapsule(c.solver, true, 1, c.anderson);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_OK, s.status);
      CPPUNIT_ASSERT_MESSAGE(what, s.report.residual <= 1e-14);
      CPPUNIT_ASSERT_MESSAGE(what + ": " + std::to_string(s.report.iterations),
                             s.report.iterations <= c.sweeps);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, 1, s.report.drift_jumps);
      for (int i = 0; i < 6; ++i)
        CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, cold.r[i], s.r[i], 1e-9);
    }
  }

  // APGD on the capsule's step: without the jump it stops above 5e-8 after 1,000 iterations,
  // from the warm start and from r = 0 (the CCP residual flat at 7.8e-8, the iterates moving
  // along the null direction); with it, 1e-14 (one jump), at the sweeps' answer.
  void apgdOnTheCapsule() {
    const Solve cold = solveCapsule("nsgs", false, 1);
    for (bool warm : {true, false}) {
      const std::string what = warm ? "warm" : "cold";
      const Solve off = solveCapsule("apgd", warm, 0);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_MAX_ITERATIONS, off.status);
      CPPUNIT_ASSERT_MESSAGE(what, off.report.residual > 5e-8);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, 0, off.report.drift_jumps);
      const Solve on = solveCapsule("apgd", warm, 1);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": " + on.report.message, NSD_OK, on.status);
      CPPUNIT_ASSERT_MESSAGE(what, on.report.residual <= 1e-14);
      CPPUNIT_ASSERT_MESSAGE(what + ": " + std::to_string(on.report.iterations),
                             on.report.iterations <= 300);
      CPPUNIT_ASSERT_MESSAGE(what, on.report.drift_jumps >= 1);
      for (int i = 0; i < 6; ++i)
        CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(what, cold.r[i], on.r[i], 1e-9);
    }
  }

  // The shared FC3D files from r = 0 at 1e-8 (at most 2,000 sweeps or iterations), NSGS and
  // APGD: where the watch does not jump, the same bits with it on and off; where it jumps,
  // an error no larger.
  void sharedFiles() {
    int runs = 0, jumped = 0;
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(NSDYN_SHARED_DIR) + "/data/fc3d"))
      for (const char* solver : {"nsgs", "apgd"}) {
        const std::string stem = entry.path().filename().string() + " " + solver;
        const Solve on = solveFile(entry.path().string(), 1, solver);
        const Solve off = solveFile(entry.path().string(), 0, solver);
        CPPUNIT_ASSERT_MESSAGE(stem + ": " + on.report.message, on.status != NSD_BAD_INPUT);
        if (on.report.drift_jumps == 0) {
          CPPUNIT_ASSERT_EQUAL_MESSAGE(stem, off.report.iterations, on.report.iterations);
          CPPUNIT_ASSERT_MESSAGE(stem, on.r == off.r);
        } else {
          ++jumped;
          CPPUNIT_ASSERT_MESSAGE(stem, on.report.residual <= off.report.residual);
        }
        ++runs;
      }
    CPPUNIT_ASSERT_EQUAL(2 * 27, runs);
    CPPUNIT_ASSERT_EQUAL(kJumpedFiles, jumped);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcDriftTest);
