// Known answers of nsd_lcp_pgs_block (Numerics/src/lcp/lcp_pgs_block.c).
#include <cppunit/extensions/HelperMacros.h>

#include <limits>
#include <string>
#include <vector>

#include "lcp_cases.hpp"

using namespace nsdyn::test;

class LcpPgsBlockTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(LcpPgsBlockTest);
  CPPUNIT_TEST(oneBlockIsExact);
  CPPUNIT_TEST(blockSizeOneIsNlgs);
  CPPUNIT_TEST(trivialAtStart);
  CPPUNIT_TEST(zeroDiagonalInsideBlock);
  CPPUNIT_TEST(degenerateSolution);
  CPPUNIT_TEST(zeroEntriesInQ);
  CPPUNIT_TEST(repeatedColumns);
  CPPUNIT_TEST(nonUniqueSolution);
  CPPUNIT_TEST(murty);
  CPPUNIT_TEST(largeBlockByLemke);
  CPPUNIT_TEST(sparseBlockStructureUsed);
  CPPUNIT_TEST(noSolutionInBlock);
  CPPUNIT_TEST(rejectsBadOptions);
  CPPUNIT_TEST_SUITE_END();

 public:
  void oneBlockIsExact() {
    // n = 2 <= block size 3: one exact block solve, one sweep
    auto t = cases::twoByTwo();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_pgs_block));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(4.0 / 3.0, t->z[0], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(7.0 / 3.0, t->z[1], 1e-14);
    CPPUNIT_ASSERT_EQUAL(std::string("pgs_block"), std::string(t->rep.solver));
    assertSolves(*t, 1e-14);
  }

  void blockSizeOneIsNlgs() {
    // 1 x 1 blocks: the same iterates as projected Gauss-Seidel
    auto a = cases::twoByTwo();
    auto b = cases::twoByTwo();
    a->opt.pgs.block_size = 1;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, a->solve(nsd_lcp_pgs_block));
    CPPUNIT_ASSERT_EQUAL(NSD_OK, b->solve(nsd_lcp_nlgs));
    CPPUNIT_ASSERT_EQUAL(b->rep.iterations, a->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(b->z[0], a->z[0], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(b->z[1], a->z[1], 1e-14);
  }

  void trivialAtStart() {
    auto t = cases::trivial();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_pgs_block));
    CPPUNIT_ASSERT_EQUAL(0, t->rep.iterations);
    CPPUNIT_ASSERT_EQUAL(0.0, t->z[0]);
    CPPUNIT_ASSERT_EQUAL(0.0, t->z[1]);
  }

  void degenerateSolution() {
    auto t = cases::degenerateSolution();
    t->opt.pgs.block_size = 1;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_pgs_block));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.0, t->z[0], 1e-14);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[1], 1e-14);
    assertSolves(*t, 1e-14);
  }

  void zeroDiagonalInsideBlock() {
    // lcp_CPS_2 (zero diagonal, NLGS cannot start): one 3 x 3 block, solved exactly
    TestLcp t({0, -1, 2, 2, 0, -2, -1, 1, 0}, {-3, 6, -1});
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t.solve(nsd_lcp_pgs_block));
    assertSolves(t, 1e-12);
  }

  void zeroEntriesInQ() {
    auto t = cases::zeroInQ();
    t->opt.pgs.block_size = 2;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_pgs_block));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[0], 1e-8);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(0.5, t->z[2], 1e-8);
    assertSolves(*t, 1e-8);
  }

  void repeatedColumns() {
    auto t = cases::repeatedColumns();
    t->opt.pgs.block_size = 2;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_pgs_block));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-8);
    assertSolves(*t, 1e-8);
  }

  void nonUniqueSolution() {
    auto t = cases::nonUnique();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_pgs_block));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, cases::sum(t->z), 1e-12);
    assertSolves(*t, 1e-12);
  }

  void murty() {
    auto t = cases::murty(8);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_pgs_block));
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[0], 1e-12);
    assertSolves(*t, 1e-12);
  }

  void largeBlockByLemke() {
    // one 12 x 12 block (beyond enumeration): solved exactly in one sweep
    auto t = cases::murty(12, false);
    t->opt.pgs.block_size = 12;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t->solve(nsd_lcp_pgs_block));
    CPPUNIT_ASSERT_EQUAL(1, t->rep.iterations);
    CPPUNIT_ASSERT_DOUBLES_EQUAL(1.0, t->z[11], 1e-14);
    assertSolves(*t, 1e-14);
  }

  void sparseBlockStructureUsed() {
    // 4 x 4 SBM with 2 x 2 blocks; pgs.block_size (1) is ignored for it.
    // Diagonal blocks have a zero diagonal entry that 1 x 1 blocks could not handle.
    const int row_end[2] = {2, 4}, col_end[2] = {2, 4}, row_ptr[3] = {0, 2, 4};
    const int col_index[4] = {0, 1, 0, 1};
    NsdMatrix* m = nsd_matrix_create_sparse_block(2, 2, row_end, col_end, row_ptr, col_index);
    CPPUNIT_ASSERT(m != nullptr);
    const double blocks[4][4] = {{0, -1, 1, 1}, {0.1, 0, 0, 0.1}, {0.1, 0, 0, 0.1}, {1, 1, -1, 0}};
    for (int k = 0; k < 4; ++k)
      for (int e = 0; e < 4; ++e) nsd_matrix_sbm_block(m, k)[e] = blocks[k][e];
    const double q[4] = {-1, 1, 2, -1};
    TestLcp t(nsd_lcp_create(m, q));
    t.opt.pgs.block_size = 1;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, t.solve(nsd_lcp_pgs_block));
    assertSolves(t, 1e-8);
    // with a dense copy the 1 x 1 blocks meet the zero diagonal and fail
    NsdMatrix* d = nsd_matrix_convert(t.get()->M, NSD_DENSE, 0);
    TestLcp dense(nsd_lcp_create(d, q));
    dense.opt.pgs.block_size = 1;
    CPPUNIT_ASSERT(dense.solve(nsd_lcp_pgs_block) != NSD_OK);
  }

  void noSolutionInBlock() {
    auto t = cases::noSolution();
    CPPUNIT_ASSERT_EQUAL(NSD_FAILED, t->solve(nsd_lcp_pgs_block));
    const std::string msg = t->rep.message;
    CPPUNIT_ASSERT_MESSAGE(msg, msg.find("block 0") != std::string::npos);
    CPPUNIT_ASSERT(t->rep.residual > 1e-8);
  }

  void rejectsBadOptions() {
    auto t = cases::twoByTwo();
    t->opt.relaxation = 2.5;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_pgs_block));
    t->opt.relaxation = 1.0;
    t->opt.pgs.block_size = 0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_pgs_block));
    t->opt.pgs.block_size = 2;
    t->opt.pgs.check_every = 0;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, t->solve(nsd_lcp_pgs_block));
    TestLcp inf({2, 1, 1, 2}, {-1, std::numeric_limits<double>::infinity()});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, inf.solve(nsd_lcp_pgs_block));
    TestLcp nan({2, 1, 1, 2}, {-1, std::numeric_limits<double>::quiet_NaN()});
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nan.solve(nsd_lcp_pgs_block));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LcpPgsBlockTest);
