// Problem types: creation, validation and the Siconos error measures on the
// worked examples of formats/README.md §3.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <nsdyn/nsd_problems.h>

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
}  // namespace

class ProblemsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(ProblemsTest);
  CPPUNIT_TEST(lcpErrorWorkedExample);
  CPPUNIT_TEST(lcpCheckRejectsBadInput);
  CPPUNIT_TEST(fc3dErrorWorkedExample);
  CPPUNIT_TEST(fc2dErrorOfASlidingSolution);
  CPPUNIT_TEST(coneProjectionBranches);
  CPPUNIT_TEST(fcCheckRejectsNegativeMuAndNaN);
  CPPUNIT_TEST(mlcpRowsAndError);
  CPPUNIT_TEST(mlcpCheckRejectsCrossedBounds);
  CPPUNIT_TEST(gfcCheckSizes);
  CPPUNIT_TEST(kindNamesRoundTrip);
  CPPUNIT_TEST_SUITE_END();

 public:
  void lcpErrorWorkedExample() {
    // M = [[2,1],[0,3]], q = (-1, 2): z = 0 gives 1/sqrt(5), z = (0.5, 0) gives 0
    double m[] = {2, 0, 1, 3}, q[] = {-1, 2};
    NsdLcp* lcp = nsd_lcp_create(nsd_matrix_create_dense_from(2, 2, m), q);
    double z0[] = {0, 0}, z1[] = {0.5, 0}, w[2];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0 / std::sqrt(5.0), nsd_lcp_error(lcp, z0, nullptr), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_lcp_error(lcp, z1, w), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, w[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, w[1], 1e-15);
    NsdReport rep{};
    CPPUNIT_ASSERT(nsd_lcp_check(lcp, &rep));
    nsd_lcp_destroy(lcp);
  }

  void lcpCheckRejectsBadInput() {
    double m[] = {1, 0, 0, 1}, q[] = {1, kNaN};
    NsdLcp* lcp = nsd_lcp_create(nsd_matrix_create_dense_from(2, 2, m), q);
    NsdReport rep{};
    CPPUNIT_ASSERT(!nsd_lcp_check(lcp, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, rep.status);
    CPPUNIT_ASSERT(std::strstr(rep.message, "q[1]") != nullptr);
    nsd_lcp_destroy(lcp);

    double rect[] = {1, 2, 3, 4, 5, 6};
    NsdLcp* bad = nsd_lcp_create(nsd_matrix_create_dense_from(2, 3, rect), q);
    NsdReport rep2{};
    CPPUNIT_ASSERT(!nsd_lcp_check(bad, &rep2));
    CPPUNIT_ASSERT(std::strstr(rep2.message, "2x3") != nullptr);
    nsd_lcp_destroy(bad);
    CPPUNIT_ASSERT(!nsd_lcp_check(nullptr, &rep2));
  }

  void fc3dErrorWorkedExample() {
    // M = I3, mu = 0.5, q = (-1, 1, 0): r = 0 -> sqrt(0.4); r = (1, -0.5, 0) -> 0
    double m[] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q[] = {-1, 1, 0}, mu[] = {0.5};
    NsdFc* fc = nsd_fc_create(3, 1, nsd_matrix_create_dense_from(3, 3, m), q, mu);
    double r0[] = {0, 0, 0}, r1[] = {1, -0.5, 0}, u[3];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(0.4), nsd_fc_error(fc, r0, nullptr), 1e-6);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.632456, nsd_fc_error(fc, r0, nullptr), 1e-6);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_fc_error(fc, r1, u), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, u[1], 1e-15);
    nsd_fc_destroy(fc);
  }

  void fc2dErrorOfASlidingSolution() {
    // the 2D version of the sliding example: r = (1, -0.5) with mu = 0.5
    double m[] = {1, 0, 0, 1}, q[] = {-1, 1}, mu[] = {0.5};
    NsdFc* fc = nsd_fc_create(2, 1, nsd_matrix_create_dense_from(2, 2, m), q, mu);
    double r[] = {1, -0.5}, r0[] = {0, 0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_fc_error(fc, r, nullptr), 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(std::sqrt(0.4), nsd_fc_error(fc, r0, nullptr), 1e-12);
    nsd_fc_destroy(fc);
  }

  void coneProjectionBranches() {
    double inside[] = {1, 0.1, 0.1};
    nsd_fc_project_on_cone(3, 0.5, inside);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, inside[0], 0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.1, inside[1], 0);
    double polar[] = {-1, 0.1, 0};
    nsd_fc_project_on_cone(3, 0.5, polar);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, polar[0], 0);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, polar[1], 0);
    double side[] = {0.5, -1, 0};  // a = 0.8, result (0.8, -0.4, 0)
    nsd_fc_project_on_cone(3, 0.5, side);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.8, side[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(-0.4, side[1], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, side[2], 0);
    double frictionless[] = {2, 3, 4};
    nsd_fc_project_on_cone(3, 0.0, frictionless);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0, frictionless[0], 1e-15);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, frictionless[1], 0);
  }

  void fcCheckRejectsNegativeMuAndNaN() {
    double m[] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, q[] = {-1, 1, 0}, mu[] = {-0.1};
    NsdFc* fc = nsd_fc_create(3, 1, nsd_matrix_create_dense_from(3, 3, m), q, mu);
    NsdReport rep{};
    CPPUNIT_ASSERT(!nsd_fc_check(fc, &rep));
    CPPUNIT_ASSERT(std::strstr(rep.message, "mu[0]") != nullptr);
    fc->mu[0] = 0.3;
    CPPUNIT_ASSERT(nsd_fc_check(fc, &rep));
    fc->M->dense[4] = kNaN;
    CPPUNIT_ASSERT(!nsd_fc_check(fc, &rep));
    CPPUNIT_ASSERT(std::strstr(rep.message, "non-finite") != nullptr);
    nsd_fc_destroy(fc);
    CPPUNIT_ASSERT(nsd_fc_create(4, 1, nsd_matrix_create_dense(4, 4), q, mu) == nullptr);
  }

  void mlcpRowsAndError() {
    // one equality row then one complementarity row
    double m[] = {2, 1, 1, 2}, q[] = {-2, 1};
    NsdMlcp* p = nsd_mlcp_create(1, 1, nsd_matrix_create_dense_from(2, 2, m), q);
    CPPUNIT_ASSERT_EQUAL(1, p->n_eq);
    CPPUNIT_ASSERT_EQUAL(1, p->n_comp);
    CPPUNIT_ASSERT_EQUAL(0, p->is_comp[0]);
    CPPUNIT_ASSERT_EQUAL(1, p->is_comp[1]);
    CPPUNIT_ASSERT(std::isinf(p->lb[0]) && p->lb[0] < 0);
    // z = (1, 0): w = (0, 2) solves it
    double z[] = {1, 0}, w[2];
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_mlcp_error(p, z, w), 1e-15);
    // z = (0, 0): w = q, error = |w_0| / ||q|| on the free row
    double z0[] = {0, 0};
    CPPUNIT_ASSERT_DOUBLES_EQUAL(2.0 / std::sqrt(5.0), nsd_mlcp_error(p, z0, nullptr), 1e-15);
    nsd_mlcp_destroy(p);

    double lb[] = {-1, 0}, ub[] = {1, kInf};
    NsdMlcp* box = nsd_mlcp_create_box(nsd_matrix_create_dense_from(2, 2, m), q, lb, ub);
    CPPUNIT_ASSERT_EQUAL(-1, box->is_comp[0]);
    CPPUNIT_ASSERT_EQUAL(1, box->is_comp[1]);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, nsd_mlcp_error(box, z, nullptr), 1e-15);
    NsdReport rep{};
    CPPUNIT_ASSERT(nsd_mlcp_check(box, &rep));
    nsd_mlcp_destroy(box);
  }

  void mlcpCheckRejectsCrossedBounds() {
    double m[] = {1, 0, 0, 1}, q[] = {1, 1}, lb[] = {0, 2}, ub[] = {1, 1};
    NsdMlcp* p = nsd_mlcp_create_box(nsd_matrix_create_dense_from(2, 2, m), q, lb, ub);
    NsdReport rep{};
    CPPUNIT_ASSERT(!nsd_mlcp_check(p, &rep));
    CPPUNIT_ASSERT(std::strstr(rep.message, "row 1") != nullptr);
    nsd_mlcp_destroy(p);
    CPPUNIT_ASSERT(nsd_mlcp_create(1, 2, nsd_matrix_create_dense(2, 2), q) == nullptr);
  }

  void gfcCheckSizes() {
    double q[] = {0, 0}, b[] = {1, 0, 0}, mu[] = {0.3};
    NsdGfc* p = nsd_gfc_create(3, 1, nsd_matrix_create_dense(2, 2), nsd_matrix_create_dense(2, 2),
                               q, b, mu);
    NsdReport rep{};
    CPPUNIT_ASSERT(!nsd_gfc_check(p, &rep));
    CPPUNIT_ASSERT(std::strstr(rep.message, "H is 2x2, expected 2x3") != nullptr);
    nsd_gfc_destroy(p);
  }

  void kindNamesRoundTrip() {
    for (NsdProblemKind k : {NSD_KIND_LCP, NSD_KIND_MLCP, NSD_KIND_FC2D, NSD_KIND_FC3D,
                             NSD_KIND_GFC2D, NSD_KIND_GFC3D})
      CPPUNIT_ASSERT_EQUAL(k, nsd_kind_from_name(nsd_kind_name(k)));
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_UNKNOWN, nsd_kind_from_name("lcpx"));
    CPPUNIT_ASSERT_EQUAL(std::string("converged"), std::string(nsd_status_name(NSD_OK)));
    CPPUNIT_ASSERT_EQUAL(std::string("bad_input"), std::string(nsd_status_name(NSD_BAD_INPUT)));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(ProblemsTest);
