// The paths added for large problems (issue 11), checked with figures:
//  - a .dat file read through nsd_read_problem (mapped, its pages dropped as
//    the reader goes) gives exactly the problem read from the same text in memory;
//  - fc3d NSGS reaches the Siconos error <= 1e-8 (recomputed independently with
//    nsd_fc_error) both on a symmetric M (block columns read as transposed block
//    rows) and on the same M made slightly unsymmetric (block-column index).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fc_test_problem.hpp"
#include "nsdyn/numerics.h"

using namespace nsdyn::test;

namespace {

const char* const kFiles[] = {"Capsules-i101-404.dat", "FC3D_Example1_SBM.dat",
                              "Confeti-ex13-4contact-Fc3D-SBM.dat"};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

double solveNsgs(const NsdFc* fc, NsdStatus* status) {
  const size_t m = static_cast<size_t>(fc->dim) * static_cast<size_t>(fc->nc);
  std::vector<double> r(m, 0.0), u(m, 0.0), check(m, 0.0);
  NsdSolverOptions o;
  nsd_solver_options_default(&o);
  o.tolerance = 1e-8;
  o.max_iterations = 10000;
  NsdReport rep{};
  *status = nsd_fc3d_nsgs(fc, r.data(), u.data(), &o, &rep);
  // the residual reported is the Siconos error of (r, u = M r + q)
  const double e = nsd_fc_error(fc, r.data(), check.data());
  CPPUNIT_ASSERT_DOUBLES_EQUAL(e, rep.residual, 1e-12 + 1e-9 * e);
  for (size_t i = 0; i < m; ++i)
    CPPUNIT_ASSERT_DOUBLES_EQUAL(check[i], u[i], 1e-9 * (1.0 + std::fabs(check[i])));
  return e;
}

}  // namespace

class FcGsScaleTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(FcGsScaleTest);
  CPPUNIT_TEST(mappedReadEqualsTextRead);
  CPPUNIT_TEST(nsgsSymmetricAndIndexedColumns);
  CPPUNIT_TEST_SUITE_END();

 public:
  void mappedReadEqualsTextRead() {
    for (const char* file : kFiles) {
      const std::string path = sharedFc3dPath(file);
      NsdProblem a{}, b{};
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, NSD_OK,
                                   nsd_read_problem(path.c_str(), NSD_KIND_UNKNOWN, &a, &rep));
      const std::string text = slurp(path);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, NSD_OK,
                                   nsd_read_problem_text(text.data(), text.size(), path.c_str(),
                                                         NSD_KIND_UNKNOWN, &b, &rep));
      CPPUNIT_ASSERT_EQUAL(NSD_KIND_FC3D, a.kind);
      CPPUNIT_ASSERT_EQUAL(b.kind, a.kind);
      CPPUNIT_ASSERT_EQUAL(b.fc->nc, a.fc->nc);
      const int m = 3 * a.fc->nc;
      for (int i = 0; i < m; ++i) {
        CPPUNIT_ASSERT_EQUAL(b.fc->q[i], a.fc->q[i]);
        for (int j = 0; j < m; ++j)
          CPPUNIT_ASSERT_EQUAL(nsd_matrix_get(b.fc->M, i, j), nsd_matrix_get(a.fc->M, i, j));
      }
      for (int c = 0; c < a.fc->nc; ++c) CPPUNIT_ASSERT_EQUAL(b.fc->mu[c], a.fc->mu[c]);
      nsd_problem_clear(&a);
      nsd_problem_clear(&b);
    }
  }

  void nsgsSymmetricAndIndexedColumns() {
    for (const char* file : kFiles) {
      const std::string path = sharedFc3dPath(file);
      NsdProblem p{};
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(path.c_str(), NSD_KIND_FC3D, &p, &rep));
      NsdStatus status;
      double e = solveNsgs(p.fc, &status);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(path, NSD_OK, status);
      CPPUNIT_ASSERT_MESSAGE(path + ": error " + std::to_string(e), e <= 1e-8);

      // the same problem with one off-diagonal entry moved by 1e-6 of its
      // block's scale: no longer symmetric, so the block-column index is used
      if (p.fc->M->storage == NSD_SPARSE_BLOCK && p.fc->nc > 1) {
        NsdSparseBlock* s = p.fc->M->sbm;
        for (int k = 0; k < s->n_blocks; ++k) {
          int row = 0;
          while (s->row_ptr[row + 1] <= k) ++row;
          if (s->col_index[k] == row) continue;
          double* v = s->values + s->value_start[k];
          v[0] += 1e-6 * (std::fabs(v[0]) + 1e-3);
          break;
        }
        e = solveNsgs(p.fc, &status);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(path + " (unsymmetric)", NSD_OK, status);
        CPPUNIT_ASSERT_MESSAGE(path + " (unsymmetric): error " + std::to_string(e), e <= 1e-8);
      }
      nsd_problem_clear(&p);
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FcGsScaleTest);
