// The shared global friction-contact files (../shared/data/gfc): every one, .dat (3D and 2D)
// and FCLIB global HDF5, is solved to 1e-8 by nsgs_wr; the answer is checked against an
// independent evaluation of the error, u = H^T v + b and M v = q + H r.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "gfc_test_util.hpp"

using nsdyn::test::gfcDataDir;
using nsdyn::test::readGfc;
using nsdyn::test::solveGfc;

namespace {

struct Expected {
  const char* file;
  NsdProblemKind kind;
  int nc;
};

const Expected kFiles[] = {
    {"GFC3D_Example0.dat", NSD_KIND_GFC3D, 1},
    {"GFC3D_Example00.dat", NSD_KIND_GFC3D, 1},
    {"GFC3D_Example00_badly_scaled.dat", NSD_KIND_GFC3D, 1},
    {"GFC3D_Example0_SBM.dat", NSD_KIND_GFC3D, 1},
    {"GFC3D_Example1.dat", NSD_KIND_GFC3D, 1},
    {"GFC3D_OneContact.dat", NSD_KIND_GFC3D, 1},
    {"GFC3D_TwoRods1.dat", NSD_KIND_GFC3D, 3},
    {"gfc2d_granularflowonwall_00000_00117.dat", NSD_KIND_GFC2D, 0},
    {"gfc2d_granularflowonwall_00069_00350.dat", NSD_KIND_GFC2D, 69},
    {"gfc2d_granularflowonwall_00230_00206.dat", NSD_KIND_GFC2D, 230},
    {"Box_Stacks-i0122-82-5.hdf5", NSD_KIND_GFC3D, 82},
    {"Spheres-i099-356-679.hdf5", NSD_KIND_GFC3D, 356},
};

}  // namespace

class GfcFileTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(GfcFileTest);
  CPPUNIT_TEST(everySharedFileSolvedByNsgsWr);
  CPPUNIT_TEST(throughNsdSolveWarmStart);
  CPPUNIT_TEST_SUITE_END();

 public:
  void everySharedFileSolvedByNsgsWr() {
    for (const Expected& e : kFiles) {
      const std::string path = gfcDataDir() + e.file;
      auto f = readGfc(path);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path + ": " + f->rep.message, NSD_OK, f->status);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, e.kind, f->p.kind);
      const NsdGfc* p = f->p.gfc;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, e.nc, p->nc);
      auto s = solveGfc(p, nsd_gfc_nsgs_wr, 1e-8, 10000);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path + ": " + s.rep.message, NSD_OK, s.status);
      CPPUNIT_ASSERT_MESSAGE(path, s.rep.residual <= 1e-8);
      // the reported error is the error of (r, v) returned
      const double err = nsd_gfc_error(p, s.r.data(), s.v.data(), nullptr);
      CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(path, s.rep.residual, err, 1e-15);
      CPPUNIT_ASSERT_MESSAGE(path, nsd_gfc_error_of_reaction(p, s.r.data()) <= 1e-8);
      // M v = q + H r to rounding, u = H^T v + b
      const size_t n = static_cast<size_t>(p->n), m = s.r.size();
      std::vector<double> res(p->q, p->q + n), u(p->b, p->b + m);
      if (m > 0) nsd_matrix_gemv(1.0, p->H, s.r.data(), 1.0, res.data());
      nsd_matrix_gemv(-1.0, p->M, s.v.data(), 1.0, res.data());
      double rn = 0, qn = 0;
      for (size_t i = 0; i < n; ++i) {
        rn += res[i] * res[i];
        qn += p->q[i] * p->q[i];
      }
      CPPUNIT_ASSERT_MESSAGE(path, std::sqrt(rn) <= 1e-10 * (1 + std::sqrt(qn)));
      if (m > 0) nsd_matrix_gemv_t(1.0, p->H, s.v.data(), 1.0, u.data());
      for (size_t i = 0; i < m; ++i)
        CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(path, u[i], s.u[i], 1e-12 * (1 + std::fabs(u[i])));
      std::cout << "\n  " << e.file << ": n " << p->n << ", " << p->nc << " contacts, "
                << s.rep.iterations << " it, error " << s.rep.residual << ", " << s.rep.seconds
                << " s";
    }
    std::cout << "\n";
  }

  // Through nsd_solve (no v): the default solver; a warm start from the answer stops at once.
  void throughNsdSolveWarmStart() {
    auto f = readGfc(gfcDataDir() + "Box_Stacks-i0122-82-5.hdf5");
    CPPUNIT_ASSERT_EQUAL(NSD_OK, f->status);
    const int m = nsd_problem_size(&f->p);
    CPPUNIT_ASSERT_EQUAL(246, m);
    std::vector<double> r(m, 0.0), u(m, 0.0);
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&f->p, nullptr, r.data(), u.data(), nullptr, &rep));
    CPPUNIT_ASSERT(nsd_problem_error(&f->p, r.data()) <= 1e-8);
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.warm_start = 1;
    NsdReport again{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&f->p, "nsgs_wr", r.data(), u.data(), &opt, &again));
    CPPUNIT_ASSERT(again.iterations <= 2);
    // an iteration cap too low: not converged, the global error and the cap reported
    opt.warm_start = 0;
    opt.max_iterations = 3;
    NsdReport capped{};
    CPPUNIT_ASSERT_EQUAL(NSD_MAX_ITERATIONS,
                         nsd_solve(&f->p, "nsgs_wr", r.data(), u.data(), &opt, &capped));
    CPPUNIT_ASSERT(capped.iterations <= 3);
    CPPUNIT_ASSERT(capped.residual > 1e-8 && std::isfinite(capped.residual));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(capped.residual, nsd_problem_error(&f->p, r.data()), 1e-12);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(GfcFileTest);
