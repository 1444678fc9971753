// Siconos .dat reading (Numerics/src/io/io_text.c, io_lexer.c, io_read.c):
// the formats README examples, every shared data file with the right kind and
// sizes, the MLCP forms, and malformed input: each case gives NSD_BAD_INPUT
// with "FILE:LINE: FIELD: expected ..., found ...".
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "io_test_util.hpp"

using namespace nsdyn::test::io;

namespace {

// formats/README.md section 1.4, verbatim.
const char* kReadmeLcp = "2\n0\n2\n2\n2\t2\n2 0\n1 3\n-1 2\n";
const char* kReadmeFc3d =
    "3\n2\n1\n6\n6\n3\n2\n2\n3\t6\n3\t6\n3\n3\n0 2 3\n0 1 1\n0\n2 0 0 0 2 0 0 0 2\n1\n"
    "1 0 0.5 0 0 0 0 0 0\n2\n2 0 0 0 2 0 0 0 2\n-1 0 0 -1 0 0\n0.3 0.3\n";
const char* kReadmeCsc =
    "2\n2\n2\n2\nCSparse Version 3.1.9\n2-by-2, nzmax: 3 nnz: 3, 1-norm: 6\n"
    "    col 0 : locations 0 to 1\n      0 : 4\n      1 : 1\n"
    "    col 1 : locations 2 to 2\n      1 : 5\n";
const char* kReadmeTriplet =
    "2\n2\n2\n1\nCSparse Version 3.1.9\ntriplet: 2-by-2, nzmax: 3 nnz: 3\n"
    "    0 0 : 4\n    1 0 : 1\n    1 1 : 5\n";

// Read @p text (exactly its length, from a buffer of that size).
NsdStatus readText(const std::string& text, const std::string& name, NsdProblemKind kind,
                   NsdProblem* out, NsdReport* rep, NsdIoParseEnd* where = nullptr) {
  std::unique_ptr<char[]> buffer(new char[text.size() ? text.size() : 1]);
  std::copy(text.begin(), text.end(), buffer.get());
  return nsd_io_read_text(buffer.get(), text.size(), name.c_str(), kind, out, where, rep);
}

// Replace line @p line (from 1) of @p text by @p replacement.
std::string withLine(const std::string& text, int line, const std::string& replacement) {
  size_t begin = 0;
  for (int l = 1; l < line; ++l) begin = text.find('\n', begin) + 1;
  size_t end = text.find('\n', begin);
  return text.substr(0, begin) + replacement + text.substr(end);
}

void checkMatrix2x2(const NsdMatrix* a, double a00, double a01, double a10, double a11) {
  CPPUNIT_ASSERT_EQUAL(2, a->rows);
  CPPUNIT_ASSERT_EQUAL(2, a->cols);
  CPPUNIT_ASSERT_EQUAL(a00, nsd_matrix_get(a, 0, 0));
  CPPUNIT_ASSERT_EQUAL(a01, nsd_matrix_get(a, 0, 1));
  CPPUNIT_ASSERT_EQUAL(a10, nsd_matrix_get(a, 1, 0));
  CPPUNIT_ASSERT_EQUAL(a11, nsd_matrix_get(a, 1, 1));
}

// One malformed input: its kind, text, the line and a part of the message.
struct BadCase {
  const char* name;
  NsdProblemKind kind;  // NSD_KIND_UNKNOWN here means: a MATRIX alone
  std::string text;
  long line;
  const char* message;
};

}  // namespace

class IoTextTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(IoTextTest);
  CPPUNIT_TEST(readsReadmeLcp);
  CPPUNIT_TEST(readsReadmeFc3d);
  CPPUNIT_TEST(readsReadmeSparseMatrices);
  CPPUNIT_TEST(readsCsrHalfTripletAndDuplicates);
  CPPUNIT_TEST(readsUnsortedBlockColumns);
  CPPUNIT_TEST(respectsLengthAndLineEndings);
  CPPUNIT_TEST(readsMlcpForms);
  CPPUNIT_TEST(readsEverySharedFile);
  CPPUNIT_TEST(detectsEverySharedFile);
  CPPUNIT_TEST(rejectsMalformedInput);
  CPPUNIT_TEST(rejectsTruncatedSharedFiles);
  CPPUNIT_TEST(rejectsEmptyMissingAndRandomFiles);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsReadmeLcp() {
    // M = [[2,1],[0,3]] column-major, q = (-1, 2)
    Problem p;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, readText(kReadmeLcp, "lcp.dat", NSD_KIND_LCP, &p.p, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_LCP, p.p.kind);
    CPPUNIT_ASSERT_EQUAL(2, p.p.lcp->n);
    CPPUNIT_ASSERT_EQUAL(NSD_DENSE, p.p.lcp->M->storage);
    checkMatrix2x2(p.p.lcp->M, 2, 1, 0, 3);
    CPPUNIT_ASSERT_EQUAL(-1.0, p.p.lcp->q[0]);
    CPPUNIT_ASSERT_EQUAL(2.0, p.p.lcp->q[1]);

    // detected as an LCP too
    Problem d;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, readText(kReadmeLcp, "x.dat", NSD_KIND_UNKNOWN, &d.p, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_LCP, d.p.kind);
  }

  void readsReadmeFc3d() {
    // SBM with blocks (0,0) = (1,1) = 2 I and (0,1) = B, B(:,0) = (1, 0, 0.5)
    Problem p;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, readText(kReadmeFc3d, "fc.dat", NSD_KIND_UNKNOWN, &p.p, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_FC3D, p.p.kind);
    const NsdFc* fc = p.p.fc;
    CPPUNIT_ASSERT_EQUAL(3, fc->dim);
    CPPUNIT_ASSERT_EQUAL(2, fc->nc);
    CPPUNIT_ASSERT_EQUAL(NSD_SPARSE_BLOCK, fc->M->storage);
    CPPUNIT_ASSERT_EQUAL(3, fc->M->sbm->n_blocks);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j) {
        double expected = (i == j) ? 2.0 : 0.0;
        if (i == 0 && j == 3) expected = 1.0;
        if (i == 2 && j == 3) expected = 0.5;
        CPPUNIT_ASSERT_EQUAL(expected, nsd_matrix_get(fc->M, i, j));
      }
    const double q[6] = {-1, 0, 0, -1, 0, 0};
    for (int k = 0; k < 6; ++k) CPPUNIT_ASSERT_EQUAL(q[k], fc->q[k]);
    CPPUNIT_ASSERT_EQUAL(0.3, fc->mu[0]);
    CPPUNIT_ASSERT_EQUAL(0.3, fc->mu[1]);
  }

  void readsReadmeSparseMatrices() {
    // [[4,0],[1,5]] as CSC and as triplets
    for (const char* text : {kReadmeCsc, kReadmeTriplet}) {
      NsdMatrix* a = nullptr;
      NsdReport rep = NsdReport();
      std::string s = text;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                   nsd_read_matrix_text(s.data(), s.size(), "m.dat", &a, &rep));
      MatrixPtr owner(a);
      CPPUNIT_ASSERT_EQUAL(NSD_CSC, a->storage);
      checkMatrix2x2(a, 4, 0, 1, 5);
    }
  }

  void readsCsrHalfTripletAndDuplicates() {
    // CSR text (origin 3)
    std::string csr =
        "2\n2\n2\n3\nbanner\ncsr: 2-by-2, nzmax: 3 nnz: 3\n    row 0 : locations 0 to 0\n"
        "      0 : 4\n    row 1 : locations 1 to 2\n      0 : 1\n      1 : 5\n";
    // half triplet (origin 4), read as triplet, with a duplicate adding up
    std::string half =
        "2\n2\n2\n4\nbanner\ntriplet: 2-by-2, nzmax: 4 nnz: 4\n    0 0 : 4\n    1 0 : 1\n"
        "    1 1 : 2\n    1 1 : 3\n";
    for (const std::string& s : {csr, half}) {
      NsdMatrix* a = nullptr;
      NsdReport rep = NsdReport();
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                   nsd_read_matrix_text(s.data(), s.size(), "m.dat", &a, &rep));
      MatrixPtr owner(a);
      checkMatrix2x2(a, 4, 0, 1, 5);
    }
  }

  void readsUnsortedBlockColumns() {
    // block row 0 lists block column 1 before 0: blocks land where they say
    std::string text = withLine(kReadmeFc3d, 14, "1 0 1");
    Problem p;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                 readText(text, "fc.dat", NSD_KIND_FC3D, &p.p, &rep));
    const NsdMatrix* M = p.p.fc->M;
    CPPUNIT_ASSERT_EQUAL(2.0, nsd_matrix_get(M, 0, 3));
    CPPUNIT_ASSERT_EQUAL(2.0, nsd_matrix_get(M, 2, 5));
    CPPUNIT_ASSERT_EQUAL(1.0, nsd_matrix_get(M, 0, 0));
    CPPUNIT_ASSERT_EQUAL(0.5, nsd_matrix_get(M, 2, 0));
    CPPUNIT_ASSERT_EQUAL(0.0, nsd_matrix_get(M, 1, 1));
  }

  void respectsLengthAndLineEndings() {
    // the text ends where the length says, even with digits after it
    std::string text = std::string(kReadmeLcp, std::strlen(kReadmeLcp) - 1) + "999";
    Problem p;
    NsdReport rep = NsdReport();
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem_text(text.data(), text.size() - 3, "lcp.dat",
                                                       NSD_KIND_LCP, &p.p, &rep));
    CPPUNIT_ASSERT_EQUAL(2.0, p.p.lcp->q[1]);

    // CRLF line endings, also in the sparse section
    auto crlf = [](const char* source) {
      std::string t;
      for (const char* c = source; *c; ++c)
        t += (*c == '\n') ? std::string("\r\n") : std::string(1, *c);
      return t;
    };
    Problem c;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, readText(crlf(kReadmeLcp), "crlf.dat", NSD_KIND_LCP, &c.p, &rep));
    checkMatrix2x2(c.p.lcp->M, 2, 1, 0, 3);
    std::string csc = crlf(kReadmeCsc);
    NsdMatrix* a = nullptr;
    CPPUNIT_ASSERT_EQUAL_MESSAGE(
        rep.message, NSD_OK, nsd_read_matrix_text(csc.data(), csc.size(), "crlf.dat", &a, &rep));
    MatrixPtr owner(a);
    checkMatrix2x2(a, 4, 0, 1, 5);
  }

  void readsMlcpForms() {
    NsdReport rep = NsdReport();
    // ABCD only: M = [[A, C], [D, B]] = [[2, 4], [5, 3]], q = (6; 7)
    {
      Problem p;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(
          rep.message, NSD_OK,
          readText("0\n1\n1\n1\n2\n3\n4\n5\n6\n7\n", "abcd.dat", NSD_KIND_MLCP, &p.p, &rep));
      const NsdMlcp* m = p.p.mlcp;
      checkMatrix2x2(m->M, 2, 4, 5, 3);
      CPPUNIT_ASSERT_EQUAL(6.0, m->q[0]);
      CPPUNIT_ASSERT_EQUAL(7.0, m->q[1]);
      CPPUNIT_ASSERT_EQUAL(0, m->is_comp[0]);
      CPPUNIT_ASSERT_EQUAL(1, m->is_comp[1]);
    }
    // M form with alternating blocks: rows kinds 1, 0, 1
    {
      Problem p;
      std::string text = "1\n0\n1\n2\n0 1 2 3\n1 0 1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n1 2 3\n";
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                   readText(text, "m.dat", NSD_KIND_MLCP, &p.p, &rep));
      const NsdMlcp* m = p.p.mlcp;
      CPPUNIT_ASSERT_EQUAL(3, m->size);
      CPPUNIT_ASSERT_EQUAL(1, m->is_comp[0]);
      CPPUNIT_ASSERT_EQUAL(0, m->is_comp[1]);
      CPPUNIT_ASSERT_EQUAL(1, m->is_comp[2]);
      CPPUNIT_ASSERT_EQUAL(3.0, m->q[2]);
    }
    // Rectangular_mlcp: its M form is 3 x 2, so the ABCD form is used
    {
      Problem p;
      std::string path = dataDir() + "/mlcp/Rectangular_mlcp.dat";
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                   nsd_read_problem(path.c_str(), NSD_KIND_MLCP, &p.p, &rep));
      const NsdMlcp* m = p.p.mlcp;
      checkMatrix2x2(m->M, 1, -1, 1, 1);
      CPPUNIT_ASSERT_EQUAL(0.0, m->q[0]);
      CPPUNIT_ASSERT_EQUAL(-1.0, m->q[1]);
      CPPUNIT_ASSERT_EQUAL(1, m->n_eq);
      CPPUNIT_ASSERT_EQUAL(1, m->n_comp);
    }
    // RCD_mlcp holds both forms; they agree
    {
      Problem p;
      std::string path = dataDir() + "/mlcp/RCD_mlcp.dat";
      CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_read_problem(path.c_str(), NSD_KIND_MLCP, &p.p, &rep));
      const NsdMlcp* m = p.p.mlcp;
      CPPUNIT_ASSERT_EQUAL(3, m->size);
      CPPUNIT_ASSERT_EQUAL(2, m->n_eq);
      CPPUNIT_ASSERT_EQUAL(0.1, nsd_matrix_get(m->M, 0, 0));
      CPPUNIT_ASSERT_EQUAL(-1.0, nsd_matrix_get(m->M, 0, 2));
      CPPUNIT_ASSERT_EQUAL(-1.0, nsd_matrix_get(m->M, 2, 1));
      CPPUNIT_ASSERT_EQUAL(0.495, m->q[1]);
    }
  }

  void readsEverySharedFile() {
    // each file with its folder's kind, sizes consistent
    for (const DataFile& f : dataFiles()) {
      Problem p;
      NsdReport rep = NsdReport();
      NsdProblemKind kind = expectedKind(f);
      NsdStatus st = nsd_read_problem(f.path.c_str(), kind, &p.p, &rep);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.name + ": " + rep.message, NSD_OK, st);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.name, kind, p.p.kind);
      switch (kind) {
        case NSD_KIND_LCP:
          CPPUNIT_ASSERT(p.p.lcp->n > 0 && p.p.lcp->M->rows == p.p.lcp->n &&
                         p.p.lcp->M->cols == p.p.lcp->n);
          break;
        case NSD_KIND_MLCP:
          CPPUNIT_ASSERT(p.p.mlcp->size > 0 && p.p.mlcp->M->rows == p.p.mlcp->size);
          CPPUNIT_ASSERT_EQUAL(p.p.mlcp->size, p.p.mlcp->n_eq + p.p.mlcp->n_comp);
          break;
        case NSD_KIND_FC2D:
        case NSD_KIND_FC3D:
          CPPUNIT_ASSERT_EQUAL(kind == NSD_KIND_FC2D ? 2 : 3, p.p.fc->dim);
          CPPUNIT_ASSERT(p.p.fc->nc > 0 && p.p.fc->M->rows == p.p.fc->dim * p.p.fc->nc);
          break;
        default:
          CPPUNIT_ASSERT_EQUAL(kind == NSD_KIND_GFC2D ? 2 : 3, p.p.gfc->dim);
          CPPUNIT_ASSERT(p.p.gfc->n > 0 && p.p.gfc->M->rows == p.p.gfc->n);
          CPPUNIT_ASSERT(p.p.gfc->H->rows == p.p.gfc->n &&
                         p.p.gfc->H->cols == p.p.gfc->dim * p.p.gfc->nc);
          break;
      }
    }

    // a few known sizes
    struct Known {
      const char* file;
      int size, contacts;
    } known[] = {{"fc3d/Capsules-i100-1090.dat", 828, 276},
                 {"fc3d/Capsules-i125-1213.hdf5", 858, 286},
                 {"fc3d/OneObject-i100000-316.hdf5.dat", 75, 25},
                 {"fc2d/fc2d_granularflowonwall_02020_00213.dat", 4040, 2020},
                 {"gfc/Box_Stacks-i0122-82-5.hdf5", 246, 82},
                 {"gfc/gfc2d_granularflowonwall_00000_00117.dat", 0, 0},
                 {"gfc/GFC3D_TwoRods1.dat", 9, 3},
                 {"mlcp/BuckConverter_mlcp.dat", 32, 0},
                 {"lcp/lcp_trivial_block.dat", 9, 0}};
    for (const Known& k : known) {
      Problem p;
      NsdReport rep = NsdReport();
      std::string path = dataDir() + "/" + k.file;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(k.file, NSD_OK,
                                   nsd_read_problem(path.c_str(), NSD_KIND_UNKNOWN, &p.p, &rep));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(k.file, k.size, nsd_problem_size(&p.p));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(k.file, k.contacts, nsd_problem_contacts(&p.p));
    }
  }

  void detectsEverySharedFile() {
    // NSD_KIND_UNKNOWN picks the folder's kind for every file
    for (const DataFile& f : dataFiles()) {
      Problem p;
      NsdReport rep = NsdReport();
      NsdStatus st = nsd_read_problem(f.path.c_str(), NSD_KIND_UNKNOWN, &p.p, &rep);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.name + ": " + rep.message, NSD_OK, st);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.name + " detected as " + nsd_kind_name(p.p.kind),
                                   expectedKind(f), p.p.kind);

      // also from a buffer under a name that gives no hint; not for MLCP
      // files: "1 1 1 1 0 1" starts Rectangular_mlcp and is a complete 1 x 1
      // LCP (an empty sparse-block M, q = 1), and LCP comes before MLCP
      if (f.hdf5() || f.folder == "mlcp") continue;
      Problem q;
      std::string text = readFile(f.path);
      CPPUNIT_ASSERT_EQUAL(NSD_OK, readText(text, "problem.dat", NSD_KIND_UNKNOWN, &q.p, &rep));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.name + " (no name hint)", expectedKind(f), q.p.kind);
    }
  }

  void rejectsMalformedInput() {
    const std::string lcp = kReadmeLcp, fc = kReadmeFc3d, csc = kReadmeCsc, tri = kReadmeTriplet;
    const std::string gfc =
        "3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n"
        "1 2 3\n0 0 0\n0.5\n";
    const NsdProblemKind LCP = NSD_KIND_LCP, FC = NSD_KIND_FC3D, MAT = NSD_KIND_UNKNOWN;
    const std::vector<BadCase> cases = {
        // numbers and sizes
        {"letter.dat", LCP, withLine(lcp, 7, "1 3x"), 7, "M(1,1): expected a real, found '3x'"},
        {"negative.dat", LCP, withLine(lcp, 1, "-2"), 1,
         "n: expected an integer in [1, 100000000], found '-2'"},
        {"toolarge.dat", LCP, withLine(lcp, 1, "1000000000"), 1,
         "n: expected an integer in [1, 100000000]"},
        {"huge.dat", LCP, withLine(lcp, 1, "99999999"), 1,
         "n: expected a size that fits in the rest of the file"},
        {"overflow.dat", LCP, withLine(lcp, 1, "99999999999999999999"), 1,
         "n: expected an integer, found"},
        {"rows.dat", LCP, withLine(lcp, 3, "3"), 3, "M.rows: expected 2, found '3'"},
        {"repeat.dat", LCP, withLine(lcp, 5, "2\t3"), 5,
         "M.cols (repeated): expected 2, found '3'"},
        {"storage.dat", LCP, withLine(lcp, 2, "7"), 2,
         "M.storage: expected an integer in [0, 2], found '7'"},
        {"nan.dat", LCP, withLine(lcp, 8, "nan 2"), 8, "q[0]: expected a finite real, found 'nan'"},
        {"inf.dat", LCP, withLine(lcp, 6, "-inf 0"), 6,
         "M(0,0): expected a finite real, found '-inf'"},
        {"range.dat", LCP, withLine(lcp, 6, "1e999 0"), 6, "M(0,0): expected a finite real"},
        {"short.dat", LCP, withLine(lcp, 8, "-1"), 8, "q[1]: expected a real, found end of file"},
        {"hugedense.dat", NSD_KIND_GFC3D, "3\n0\n0\n50000\n50000\n50000\t50000\n1 2 3\n", 5,
         "M.cols: expected a size that fits in the rest of the file"},
        // friction problems
        {"dim.dat", FC, withLine(fc, 1, "4"), 1, "d: expected 3, found '4'"},
        {"mu.dat", FC, withLine(fc, 22, "-0.3 0.3"), 22,
         "mu[0]: expected a real >= 0, found '-0.3'"},
        {"munan.dat", FC, withLine(fc, 22, "0.3 NaN"), 22, "mu[1]: expected a finite real"},
        {"hrows.dat", NSD_KIND_GFC3D, withLine(gfc, 11, "4"), 11, "H.rows: expected 3, found '4'"},
        // sparse-block structure
        {"rowend.dat", FC, withLine(withLine(fc, 7, "3"), 9, "3 2 6"), 9,
         "M.rowEnd[1]: expected an integer in [4, 6], found '2'"},
        {"rowlast.dat", FC, withLine(fc, 9, "3 5"), 9, "M.rowEnd[1]: expected 6, found '5'"},
        {"blockgrid.dat", FC, withLine(fc, 6, "5"), 8,
         "M.blockCols: expected a block grid holding 5 blocks"},
        {"f1.dat", FC, withLine(fc, 11, "4"), 11, "M.f1: expected 3, found '4'"},
        {"rowptr.dat", FC, withLine(fc, 13, "0 2 1"), 13, "M.rowPtr[2]: expected 3, found '1'"},
        {"rowptr0.dat", FC, withLine(fc, 13, "1 2 3"), 13, "M.rowPtr[0]: expected 0, found '1'"},
        {"colidx.dat", FC, withLine(fc, 14, "0 1 2"), 14,
         "M.colIdx[2]: expected an integer in [0, 1], found '2'"},
        {"twice.dat", FC, withLine(fc, 14, "1 1 1"), 14,
         "M.colIdx: expected distinct block columns in block row 0"},
        {"blocknum.dat", FC, withLine(fc, 17, "5"), 17, "M.block[1]: expected 1, found '5'"},
        {"blockval.dat", FC, withLine(fc, 18, "1 0 0.5 0 0 0 0 0 x"), 18,
         "M.block[1](2,2): expected a real, found 'x'"},
        // CSparse text
        {"origin.dat", MAT, withLine(csc, 4, "5"), 4,
         "M.origin: expected an integer in [1, 4], found '5'"},
        {"banner.dat", MAT, "2\n2\n2\n2", 4,
         "M.header: expected a banner line and a header line, found end of file"},
        {"header.dat", MAT, withLine(csc, 6, "garbage"), 6,
         "M.header: expected 'R-by-C, nzmax: Z nnz: K, 1-norm: X', found 'garbage'"},
        {"headersize.dat", MAT, withLine(csc, 6, "3-by-2, nzmax: 3 nnz: 3, 1-norm: 6"), 6,
         "M.header: expected '2-by-2' (the matrix size), found '3-by-2,'"},
        {"headerkind.dat", MAT, withLine(tri, 6, "2-by-2, nzmax: 3 nnz: 3"), 6,
         "M.header: expected 'triplet: R-by-C"},
        {"colnum.dat", MAT, withLine(csc, 10, "    col 2 : locations 2 to 2"), 10,
         "M.col[1]: expected 1, found '2'"},
        {"pointers.dat", MAT, withLine(csc, 10, "    col 1 : locations 1 to 2"), 10,
         "M.start[1]: expected 2, found '1'"},
        {"pointerend.dat", MAT, withLine(csc, 10, "    col 1 : locations 2 to 0"), 10,
         "M.end[1]: expected an integer >= 1, found '0'"},
        {"nzmax.dat", MAT, withLine(csc, 6, "2-by-2, nzmax: 2 nnz: 3, 1-norm: 6"), 10,
         "M.end[1]: expected an end below nzmax = 2"},
        {"cscrow.dat", MAT, withLine(csc, 11, "      2 : 5"), 11,
         "M.row[2]: expected an integer in [0, 1], found '2'"},
        {"cscword.dat", MAT, withLine(csc, 7, "    col 0 : location 0 to 1"), 7,
         "M.col[0]: expected 'locations', found 'location'"},
        {"tricol.dat", MAT, withLine(tri, 9, "    1 2 : 5"), 9,
         "M.col[2]: expected an integer in [0, 1], found '2'"},
        {"trisep.dat", MAT, withLine(tri, 7, "    0 0 4"), 7,
         "M.separator[0]: expected ':', found '4'"},
        {"trinnz.dat", MAT, withLine(tri, 6, "triplet: 2-by-2, nzmax: 2 nnz: 3"), 6,
         "M.nnz: expected an entry count <= nzmax = 2"},
        {"trihuge.dat", MAT, withLine(tri, 6, "triplet: 2-by-2, nzmax: 90000000 nnz: 90000000"), 6,
         "M.nnz: expected an entry count <= nzmax = 90000000 that fits in the file"},
        // MLCP
        {"t1t2.dat", NSD_KIND_MLCP, "0\n0\n1\n1\n", 2, "t2: expected t1 or t2 non-zero, found '0'"},
        {"nm.dat", NSD_KIND_MLCP, "1\n0\n0\n0\n0\n", 4, "m: expected n + m >= 1, found '0'"},
        {"blocksrows.dat", NSD_KIND_MLCP, "1\n0\n1\n1\n0 0 2\n", 5,
         "blocksRows[1]: expected an integer in [1, 2], found '0'"},
        {"iscomp.dat", NSD_KIND_MLCP, "1\n0\n1\n1\n0 1 2\n0 2\n", 6,
         "blocksIsComp[1]: expected an integer in [0, 1], found '2'"},
        {"mform.dat", NSD_KIND_MLCP, "1\n0\n1\n1\n0 1 2\n0 1\n0\n3\n2\n3\t2\n", 8,
         "M.rows: expected 2, found '3'"},
        {"abcd.dat", NSD_KIND_MLCP, "0\n1\n1\n1\n2\n3\n4\n5\n6\n", 9,
         "b[0]: expected a real, found end of file"},
    };
    for (const BadCase& c : cases) {
      NsdReport rep = NsdReport();
      NsdStatus st;
      if (c.kind == MAT) {
        NsdMatrix* a = nullptr;
        std::unique_ptr<char[]> buffer(new char[c.text.size()]);
        std::copy(c.text.begin(), c.text.end(), buffer.get());
        st = nsd_read_matrix_text(buffer.get(), c.text.size(), c.name, &a, &rep);
        CPPUNIT_ASSERT(a == nullptr);
      } else {
        Problem p;
        st = readText(c.text, c.name, c.kind, &p.p, &rep);
        CPPUNIT_ASSERT(p.p.kind == NSD_KIND_UNKNOWN);
      }
      std::string message = rep.message, what = std::string(c.name) + ": " + message;
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_BAD_INPUT, st);
      long line = 0;
      CPPUNIT_ASSERT_MESSAGE(what, namesFileAndLine(message, c.name, &line));
      CPPUNIT_ASSERT_EQUAL_MESSAGE(what, c.line, line);
      CPPUNIT_ASSERT_MESSAGE(what + "\n  should contain: " + c.message,
                             message.find(c.message) != std::string::npos);
    }
  }

  void rejectsTruncatedSharedFiles() {
    // 30 cuts before the last field's last token: each fails with FILE:LINE
    const int kCuts = 30;
    for (const DataFile& f : dataFiles()) {
      if (f.hdf5()) continue;
      std::string text = readFile(f.path);
      NsdProblemKind kind = expectedKind(f);
      NsdIoParseEnd where{};
      {
        Problem full;
        NsdReport rep = NsdReport();
        CPPUNIT_ASSERT_EQUAL(NSD_OK, readText(text, f.name, kind, &full.p, &rep, &where));
      }
      for (int k = 0; k < kCuts; ++k) {
        size_t cut = where.last_token_start * static_cast<size_t>(k) / (kCuts - 1);
        std::string prefix = text.substr(0, cut);
        Problem p;
        NsdReport rep = NsdReport();
        NsdStatus st = readText(prefix, f.name, kind, &p.p, &rep);
        std::string what = f.name + " cut at " + std::to_string(cut) + ": " + rep.message;
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_BAD_INPUT, st);
        CPPUNIT_ASSERT_MESSAGE(what, namesFileAndLine(rep.message, f.name));

        // detection may find another layout in a prefix, never crash
        Problem d;
        st = readText(prefix, f.name, NSD_KIND_UNKNOWN, &d.p, &rep);
        CPPUNIT_ASSERT_MESSAGE(what, st == NSD_OK || namesFileAndLine(rep.message, f.name));
      }
    }
  }

  void rejectsEmptyMissingAndRandomFiles() {
    NsdReport rep = NsdReport();
    // empty text
    {
      Problem p;
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, readText("", "empty.dat", NSD_KIND_UNKNOWN, &p.p, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message, namesFileAndLine(rep.message, "empty.dat"));
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                           readText("  \n\n", "blank.dat", NSD_KIND_FC3D, &p.p, &rep));
      CPPUNIT_ASSERT_EQUAL(std::string("blank.dat:1: d: expected an integer, found end of file"),
                           std::string(rep.message));
    }
    // an empty file and a missing one
    {
      Problem p;
      std::string path = scratchDir() + "/empty.dat";
      writeFile(path, "");
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_read_problem(path.c_str(), NSD_KIND_LCP, &p.p, &rep));
      CPPUNIT_ASSERT_MESSAGE(rep.message, namesFileAndLine(rep.message, path));
      std::string missing = scratchDir() + "/no_such_file.dat";
      CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                           nsd_read_problem(missing.c_str(), NSD_KIND_UNKNOWN, &p.p, &rep));
      CPPUNIT_ASSERT(std::string(rep.message).find(missing) != std::string::npos);
    }
    // random bytes, every kind
    std::mt19937 gen(20240611u);
    for (int trial = 0; trial < 200; ++trial) {
      std::string text(1 + gen() % 400, '\0');
      for (char& c : text) c = static_cast<char>(gen() % 256);
      if (trial % 2) text[0] = '3';  // start like a friction problem
      for (NsdProblemKind kind :
           {NSD_KIND_UNKNOWN, NSD_KIND_LCP, NSD_KIND_MLCP, NSD_KIND_FC3D, NSD_KIND_GFC2D}) {
        Problem p;
        NsdStatus st = readText(text, "random.dat", kind, &p.p, &rep);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_BAD_INPUT, st);
        CPPUNIT_ASSERT_MESSAGE(rep.message, namesFileAndLine(rep.message, "random.dat"));
      }
    }
    // NULL arguments
    Problem p;
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_read_problem(nullptr, NSD_KIND_LCP, &p.p, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_read_problem_text(nullptr, 5, "x", NSD_KIND_LCP, &p.p, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_read_problem_text("1", 1, "x", NSD_KIND_LCP, nullptr, &rep));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT,
                         nsd_read_problem_text("1", 1, "x", NSD_KIND_LCP, &p.p, nullptr));
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(IoTextTest);
