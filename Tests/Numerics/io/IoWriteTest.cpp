// Siconos .dat writing (Numerics/src/io/io_write.c): the Siconos layout, and
// write -> read round trips of every shared file, in its own storage and
// converted to each of the three storages, giving identical numbers.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <string>
#include <vector>

#include "io_test_util.hpp"

using namespace nsdyn::test::io;

namespace {

// Dense matrices beyond this many entries are not converted to dense.
const size_t kDenseLimit = 1000000;

// Block size for a sparse-block copy: the friction dimension if it divides
// both sizes, else the largest of 3, 2, 1 that does.
int blockSize(const NsdMatrix* a, int dim) {
  for (int b : {dim, 3, 2, 1})
    if (b > 0 && a->rows % b == 0 && a->cols % b == 0) return b;
  return 1;
}

// @p a in @p storage (NULL where the test skips that storage).
NsdMatrix* convert(const NsdMatrix* a, NsdStorage storage, int dim) {
  if (storage == NSD_DENSE && static_cast<size_t>(a->rows) * a->cols > kDenseLimit) return nullptr;
  return nsd_matrix_convert(a, storage, blockSize(a, dim));
}

// A copy of @p p with its matrices in @p storage; false when skipped.
bool convertProblem(const NsdProblem& p, NsdStorage storage, NsdProblem* out) {
  *out = NsdProblem();
  out->kind = p.kind;
  switch (p.kind) {
    case NSD_KIND_LCP: {
      NsdMatrix* M = convert(p.lcp->M, storage, 1);
      if (!M) return false;
      out->lcp = nsd_lcp_create(M, p.lcp->q);
      return out->lcp != nullptr;
    }
    case NSD_KIND_MLCP: {
      NsdMatrix* M = convert(p.mlcp->M, storage, 1);
      if (!M) return false;
      out->mlcp = nsd_mlcp_create_box(M, p.mlcp->q, p.mlcp->lb, p.mlcp->ub);
      return out->mlcp != nullptr;
    }
    case NSD_KIND_FC2D:
    case NSD_KIND_FC3D: {
      NsdMatrix* M = convert(p.fc->M, storage, p.fc->dim);
      if (!M) return false;
      out->fc = nsd_fc_create(p.fc->dim, p.fc->nc, M, p.fc->q, p.fc->mu);
      return out->fc != nullptr;
    }
    default: {
      NsdMatrix* M = convert(p.gfc->M, storage, p.gfc->dim);
      NsdMatrix* H = convert(p.gfc->H, storage, p.gfc->dim);
      if (!M || !H) {
        nsd_matrix_destroy(M);
        nsd_matrix_destroy(H);
        return false;
      }
      out->gfc = nsd_gfc_create(p.gfc->dim, p.gfc->nc, M, H, p.gfc->q, p.gfc->b, p.gfc->mu);
      return out->gfc != nullptr;
    }
  }
}

// Write @p p, read it back as @p kind and compare exactly.
void roundTrip(const NsdProblem& p, NsdProblemKind kind, const std::string& what) {
  NsdReport rep = NsdReport();
  std::string text = writeToString(&p, &rep);
  CPPUNIT_ASSERT_MESSAGE(what + ": write: " + rep.message, !text.empty());
  Problem back;
  NsdStatus st =
      nsd_read_problem_text(text.data(), text.size(), "written.dat", kind, &back.p, &rep);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(what + ": read back: " + rep.message, NSD_OK, st);
  std::string d = problemDifference(p, back.p, true);
  CPPUNIT_ASSERT_MESSAGE(what + ": " + d, d.empty());
}

const char* storageName(NsdStorage s) {
  return s == NSD_DENSE ? "dense" : s == NSD_SPARSE_BLOCK ? "sparse-block" : "csc";
}

}  // namespace

class IoWriteTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(IoWriteTest);
  CPPUNIT_TEST(writesSiconosDenseLayout);
  CPPUNIT_TEST(writesCsparseLayout);
  CPPUNIT_TEST(writesSparseBlockLayout);
  CPPUNIT_TEST(writesMlcpBlocks);
  CPPUNIT_TEST(refusesBoxRows);
  CPPUNIT_TEST(roundTripsEverySharedFile);
  CPPUNIT_TEST(roundTripsEveryStorage);
  CPPUNIT_TEST(writesFilesAndReportsErrors);
  CPPUNIT_TEST_SUITE_END();

 public:
  void writesSiconosDenseLayout() {
    // formats README LCP example, reproduced byte for byte
    const std::string text = "2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 2\n";
    Problem p;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem_text(text.data(), text.size(), "lcp.dat",
                                                       NSD_KIND_LCP, &p.p, &rep));
    CPPUNIT_ASSERT_EQUAL(text, writeToString(&p.p, &rep));

    // reals round-trip exactly with %.17g
    p.p.lcp->q[0] = 0.1;
    p.p.lcp->q[1] = -1.0 / 3.0;
    std::string written = writeToString(&p.p, &rep);
    CPPUNIT_ASSERT(written.find("0.10000000000000001 -0.33333333333333331\n") != std::string::npos);
  }

  void writesCsparseLayout() {
    // CSC written as CSparse origin 2, spaced as cs_print
    const std::string text =
        "2\n2\n2\n2\nCSparse Version 3.1.9\n2-by-2, nzmax: 3 nnz: 3, 1-norm: 6\n"
        "    col 0 : locations 0 to 1\n      0 : 4\n      1 : 1\n"
        "    col 1 : locations 2 to 2\n      1 : 0.10000000000000001\n";
    NsdMatrix* a = nullptr;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_matrix_text(text.data(), text.size(), "m.dat", &a, &rep));
    MatrixPtr owner(a);
    FILE* f = std::tmpfile();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_write_matrix_stream(f, a, &rep));
    std::string out(static_cast<size_t>(std::ftell(f)), '\0');
    std::rewind(f);
    CPPUNIT_ASSERT_EQUAL(out.size(), std::fread(&out[0], 1, out.size(), f));
    std::fclose(f);

    std::vector<std::string> lines;
    for (size_t b = 0, e; b < out.size(); b = e + 1) {
      e = out.find('\n', b);
      lines.push_back(out.substr(b, e - b));
    }
    CPPUNIT_ASSERT_EQUAL(size_t(11), lines.size());
    CPPUNIT_ASSERT_EQUAL(std::string("2"), lines[3]);
    CPPUNIT_ASSERT(lines[4].rfind("CSparse", 0) == 0);
    CPPUNIT_ASSERT(lines[5].rfind("2-by-2, nzmax: ", 0) == 0);
    CPPUNIT_ASSERT(lines[5].find(" nnz: 3, 1-norm: 5") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(std::string("    col 0 : locations 0 to 1"), lines[6]);
    CPPUNIT_ASSERT_EQUAL(std::string("      0 : 4"), lines[7]);
    CPPUNIT_ASSERT_EQUAL(std::string("      1 : 1"), lines[8]);
    CPPUNIT_ASSERT_EQUAL(std::string("    col 1 : locations 2 to 2"), lines[9]);
    CPPUNIT_ASSERT_EQUAL(std::string("      1 : 0.10000000000000001"), lines[10]);
  }

  void writesSparseBlockLayout() {
    // the structure lines as Siconos writes them
    std::string path = dataDir() + "/lcp/lcp_deudeu_block.dat";
    Problem p;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(path.c_str(), NSD_KIND_LCP, &p.p, &rep));
    CPPUNIT_ASSERT_EQUAL(
        std::string("2\n1\n2\n2\n1\n1\n1\n2\t\n2\t\n2\n1\n0\t1\t\n0\t\n0\n2\n1\n1\n2\n-5 -6\n"),
        writeToString(&p.p, &rep));
  }

  void writesMlcpBlocks() {
    // row kinds 1 1 0 1 give blocksRows 0 2 3 4 and blocksIsComp 1 0 1
    const std::string text =
        "1\n0\n1\n3\n0 2 3 4\n1 0 1\n0\n4\n4\n4\t4\n1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 0 1\n1 2 3 4\n";
    Problem p;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem_text(text.data(), text.size(), "m.dat",
                                                       NSD_KIND_MLCP, &p.p, &rep));
    std::string written = writeToString(&p.p, &rep);
    const std::string head = "1\n0\n1\n3\n0 2 3 4 \n1 0 1 \n";
    CPPUNIT_ASSERT_EQUAL(head, written.substr(0, head.size()));
    roundTrip(p.p, NSD_KIND_MLCP, "mlcp");
  }

  void refusesBoxRows() {
    // a row with finite non-zero bounds has no .dat form
    double m[4] = {1, 0, 0, 1}, q[2] = {1, 1}, lb[2] = {0, -1}, ub[2] = {INFINITY, 1};
    NsdProblem p = NsdProblem();
    p.kind = NSD_KIND_MLCP;
    p.mlcp = nsd_mlcp_create_box(nsd_matrix_create_dense_from(2, 2, m), q, lb, ub);
    NsdReport rep = NsdReport();
    FILE* f = std::tmpfile();
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_write_problem_stream(f, &p, &rep));
    CPPUNIT_ASSERT(std::string(rep.message).find("row 1") != std::string::npos);
    std::fclose(f);

    // free and complementarity rows given as boxes are written
    p.mlcp->lb[1] = -INFINITY;
    p.mlcp->ub[1] = INFINITY;
    p.mlcp->is_comp[1] = -1;
    std::string text = writeToString(&p, &rep);
    CPPUNIT_ASSERT_MESSAGE(rep.message, !text.empty());
    Problem back;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem_text(text.data(), text.size(), "m.dat",
                                                       NSD_KIND_MLCP, &back.p, &rep));
    CPPUNIT_ASSERT_EQUAL(1, back.p.mlcp->is_comp[0]);
    CPPUNIT_ASSERT_EQUAL(0, back.p.mlcp->is_comp[1]);
    nsd_problem_clear(&p);
  }

  void roundTripsEverySharedFile() {
    // each file in its own storages; also detected again as its kind
    for (const DataFile& f : dataFiles()) {
      Problem p;
      NsdReport rep = NsdReport();
      NsdProblemKind kind = expectedKind(f);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.name, NSD_OK,
                                   nsd_read_problem(f.path.c_str(), kind, &p.p, &rep));
      roundTrip(p.p, kind, f.name);

      std::string text = writeToString(&p.p, &rep);
      Problem d;
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem_text(text.data(), text.size(), f.name.c_str(),
                                                         NSD_KIND_UNKNOWN, &d.p, &rep));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.name + " written, detected", kind, d.p.kind);
    }
  }

  void roundTripsEveryStorage() {
    // each file converted to dense, sparse-block and CSC: same entries, and
    // each written and read back identical
    for (const DataFile& f : dataFiles()) {
      Problem p;
      NsdReport rep = NsdReport();
      NsdProblemKind kind = expectedKind(f);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(f.path.c_str(), kind, &p.p, &rep));
      for (NsdStorage s : {NSD_DENSE, NSD_SPARSE_BLOCK, NSD_CSC}) {
        Problem c;
        std::string what = f.name + " as " + storageName(s);
        if (!convertProblem(p.p, s, &c.p)) {
          CPPUNIT_ASSERT_MESSAGE(what + ": conversion failed", s == NSD_DENSE);
          continue;
        }
        std::string d = problemDifference(p.p, c.p, false);
        CPPUNIT_ASSERT_MESSAGE(what + ": " + d, d.empty());
        roundTrip(c.p, kind, what);
      }
    }
  }

  void writesFilesAndReportsErrors() {
    // a file on disk, read back by path with detection
    std::string source = dataDir() + "/fc3d/FC3D_Example1_SBM.dat";
    Problem p;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(source.c_str(), NSD_KIND_FC3D, &p.p, &rep));
    std::string path = scratchDir() + "/written_fc3d.dat";
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, nsd_write_problem(path.c_str(), &p.p, &rep));
    Problem back;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(path.c_str(), NSD_KIND_UNKNOWN, &back.p, &rep));
    CPPUNIT_ASSERT_EQUAL(std::string(""), problemDifference(p.p, back.p, true));

    // a folder that does not exist
    std::string bad = scratchDir() + "/no/such/folder/x.dat";
    CPPUNIT_ASSERT_EQUAL(NSD_FAILED, nsd_write_problem(bad.c_str(), &p.p, &rep));
    CPPUNIT_ASSERT(std::string(rep.message).find(bad) != std::string::npos);

    // nothing to write, or a kind without its problem
    FILE* f = std::tmpfile();
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_write_problem_stream(f, nullptr, &rep));
    NsdProblem empty = NsdProblem();
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_write_problem_stream(f, &empty, &rep));
    empty.kind = NSD_KIND_GFC3D;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_write_problem_stream(f, &empty, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_write_matrix_stream(f, nullptr, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_write_problem_stream(nullptr, &p.p, &rep));
    std::fclose(f);

    // an invalid problem is refused by its check: negative mu
    p.p.fc->mu[0] = -1;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_write_problem(path.c_str(), &p.p, &rep));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IoWriteTest);
