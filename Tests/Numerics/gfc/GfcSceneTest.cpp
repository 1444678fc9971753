// A 1,000-contact global problem from a granular scene (Benchmarks/granular.c): M block
// diagonal (6 x 6 per sphere, CSC), H = J^T (CSC), q = M v_free, b = q_local - J v_free.
// nsgs_wr solves it to 1e-8; its reduction W equals the scene's assembled Delassus
// J M^-1 J^T; the storage of M, H and W is printed (doc/benchmarks.md).
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "gfc_test_util.hpp"
#include "granular.h"

namespace {

// Bytes of a matrix as stored: CSC (double + int per entry, int per column), sparse-block
// (the values, and per block a column index and an offset, per block row a pointer).
double storedBytes(const NsdMatrix* a) {
  if (a->storage == NSD_CSC)
    return 12.0 * static_cast<double>(nsd_matrix_nnz(a)) + 4.0 * (a->cols + 1);
  if (a->storage == NSD_SPARSE_BLOCK)
    return 8.0 * static_cast<double>(nsd_matrix_nnz(a)) + 12.0 * a->sbm->n_blocks +
           8.0 * (a->sbm->n_block_rows + a->sbm->n_block_cols + 1);
  return 8.0 * a->rows * a->cols;
}

NsdGfc* globalFromScene(const GranularScene* s) {
  const int n = 6 * s->n_bodies, m = 3 * s->n_contacts;
  // M: the inverse of the diagonal of M^-1 (diagonal 6 x 6 blocks with diagonal entries)
  std::vector<double> minv(static_cast<size_t>(n));
  nsd_matrix_diagonal(s->Minv, minv.data());
  std::vector<int> di(static_cast<size_t>(n));
  std::vector<double> mv(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    di[i] = i;
    mv[i] = 1.0 / minv[i];
  }
  NsdMatrix* M = nsd_matrix_create_csc_from_triplets(n, n, n, di.data(), di.data(), mv.data());
  // H = J^T from the 3 x 6 blocks of J
  std::vector<int> hi, hj;
  std::vector<double> hx;
  const NsdSparseBlock* j = s->J->sbm;
  for (int br = 0; br < j->n_block_rows; ++br)
    for (int k = j->row_ptr[br]; k < j->row_ptr[br + 1]; ++k) {
      const int r0 = br ? j->row_end[br - 1] : 0,
                c0 = j->col_index[k] ? j->col_end[j->col_index[k] - 1] : 0;
      const int h = j->row_end[br] - r0, w = j->col_end[j->col_index[k]] - c0;
      const double* blk = j->values + j->value_start[k];
      for (int c = 0; c < w; ++c)
        for (int r = 0; r < h; ++r) {
          hi.push_back(c0 + c);
          hj.push_back(r0 + r);
          hx.push_back(blk[r + c * h]);
        }
    }
  NsdMatrix* H = nsd_matrix_create_csc_from_triplets(n, m, static_cast<int>(hx.size()), hi.data(),
                                                     hj.data(), hx.data());
  std::vector<double> q(static_cast<size_t>(n)), b(s->q, s->q + m);
  for (int i = 0; i < n; ++i) q[i] = mv[i] * s->v_free[i];
  nsd_matrix_gemv(-1.0, s->J, s->v_free, 1.0, b.data());
  return nsd_gfc_create(3, s->n_contacts, M, H, q.data(), b.data(), s->mu);
}

}  // namespace

class GfcSceneTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(GfcSceneTest);
  CPPUNIT_TEST(thousandContacts);
  CPPUNIT_TEST_SUITE_END();

 public:
  void thousandContacts() {
    GranularParams gp;
    granular_params_default(&gp);
    gp.contacts = 1000;
    GranularScene* scene = nullptr;
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, granular_build(&gp, &scene, &rep));
    NsdGfc* p = globalFromScene(scene);
    CPPUNIT_ASSERT(p);
    CPPUNIT_ASSERT(nsd_gfc_check(p, &rep));
    CPPUNIT_ASSERT(p->nc >= 1000);
    CPPUNIT_ASSERT_EQUAL(NSD_CSC, p->M->storage);
    CPPUNIT_ASSERT_EQUAL(NSD_CSC, p->H->storage);

    // the reduction is the scene's Delassus matrix and local q
    const double t0 = nsd_wall_time();
    NsdFc* fc = nsd_gfc_reduce(p, &rep);
    const double t_reduce = nsd_wall_time() - t0;
    CPPUNIT_ASSERT_MESSAGE(rep.message, fc);
    NsdMatrix* N = granular_delassus(scene);
    CPPUNIT_ASSERT(N);
    CPPUNIT_ASSERT_EQUAL(N->sbm->n_blocks, fc->M->sbm->n_blocks);
    // W stays sparse: a block per pair of contacts sharing a sphere, not (3 nc)^2 entries
    CPPUNIT_ASSERT(static_cast<double>(nsd_matrix_nnz(fc->M)) < 0.02 * 9.0 * p->nc * p->nc);
    CPPUNIT_ASSERT(storedBytes(fc->M) < 4.0 * (storedBytes(p->M) + storedBytes(p->H)));
    double diff = 0, scale = 0;
    for (int k = 0; k < N->sbm->n_blocks; ++k)
      scale = std::fmax(scale, std::fabs(N->sbm->values[k]));
    const int m = 3 * p->nc;
    for (int br = 0; br < N->sbm->n_block_rows; ++br)
      for (int k = N->sbm->row_ptr[br]; k < N->sbm->row_ptr[br + 1]; ++k) {
        const int bc = N->sbm->col_index[k];
        const int kw = nsd_matrix_sbm_find(fc->M, br, bc);
        CPPUNIT_ASSERT(kw >= 0);
        const double *a = nsd_matrix_sbm_block(N, k), *w = nsd_matrix_sbm_block(fc->M, kw);
        for (int e = 0; e < 9; ++e) diff = std::fmax(diff, std::fabs(a[e] - w[e]));
      }
    CPPUNIT_ASSERT_MESSAGE(std::to_string(diff), diff <= 1e-10 * scale);
    for (int i = 0; i < m; ++i)
      CPPUNIT_ASSERT_DOUBLES_EQUAL(scene->q[i], fc->q[i], 1e-10 * (1 + std::fabs(scene->q[i])));

    auto s = nsdyn::test::solveGfc(p, nsd_gfc_nsgs_wr, 1e-8, 10000);
    CPPUNIT_ASSERT_EQUAL_MESSAGE(s.rep.message, NSD_OK, s.status);
    CPPUNIT_ASSERT(s.rep.residual <= 1e-8);
    CPPUNIT_ASSERT(nsd_gfc_error(p, s.r.data(), s.v.data(), nullptr) <= 1e-8);
    std::printf(
        "\n  granular: n %d, %d contacts; M %zu nnz (%.0f kB), H %zu nnz (%.0f kB), "
        "W %zu nnz in %d blocks (%.0f kB); reduce %.3f s; nsgs_wr %d it, error %.2e, %.3f s\n",
        p->n, p->nc, nsd_matrix_nnz(p->M), storedBytes(p->M) / 1e3, nsd_matrix_nnz(p->H),
        storedBytes(p->H) / 1e3, nsd_matrix_nnz(fc->M), fc->M->sbm->n_blocks,
        storedBytes(fc->M) / 1e3, t_reduce, s.rep.iterations, s.rep.residual, s.rep.seconds);
    nsd_matrix_destroy(N);
    nsd_fc_destroy(fc);
    nsd_gfc_destroy(p);
    granular_destroy(scene);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(GfcSceneTest);
