// Rolling friction files (the Siconos rolling .dat layout): write -> read bit-exact in
// every storage, the kept data files read by their layout and solved by nsgs and pg, bad
// files refused with file, line, field and value.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "nsdyn/numerics.h"

namespace {

std::string dataDir() {
  return std::string(NSDYN_SOURCE_DIR) + "/Tests/Numerics/rfc/data/";
}

std::string tmpPath(const std::string& name) {
  return std::string(NSDYN_BINARY_DIR) + "/Tests/Numerics/rfc/" + name;
}

struct Read {
  NsdProblem p{};
  NsdReport rep{};
  NsdStatus status = NSD_BAD_INPUT;
  ~Read() { nsd_problem_clear(&p); }
};

void readText(Read& r, const std::string& text, const std::string& name,
              NsdProblemKind kind = NSD_KIND_UNKNOWN) {
  r.status = nsd_read_problem_text(text.data(), text.size(), name.c_str(), kind, &r.p, &r.rep);
}

std::string slurp(const std::string& path) {
  std::string s;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return s;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
  std::fclose(f);
  return s;
}

bool same(const double* a, const double* b, int n) {
  return n == 0 || std::memcmp(a, b, static_cast<size_t>(n) * sizeof(double)) == 0;
}

}  // namespace

class RfcFileTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(RfcFileTest);
  CPPUNIT_TEST(roundTripBitExact);
  CPPUNIT_TEST(dataFilesSolve);
  CPPUNIT_TEST(detectionKeepsFc3d);
  CPPUNIT_TEST(badFiles);
  CPPUNIT_TEST(writeForCli);
  CPPUNIT_TEST_SUITE_END();

 public:
  // Random values (not short decimals) in dense, sparse-block and CSC storage.
  void roundTripBitExact() {
    std::mt19937 gen(3);
    std::uniform_real_distribution<double> U(-1.0, 1.0);
    for (int dim : {5, 3}) {
      const int nc = 4, m = dim * nc;
      std::vector<double> A(static_cast<size_t>(m * m)), q(m), mu(nc), mu_r(nc);
      for (int j = 0; j < m; ++j)
        for (int i = 0; i < m; ++i) A[i + m * j] = i / dim == j / dim || i == j ? U(gen) : 0.0;
      for (double& x : q) x = U(gen) / 3.0;
      for (int a = 0; a < nc; ++a) {
        mu[a] = std::fabs(U(gen));
        mu_r[a] = std::fabs(U(gen)) / 7.0;
      }
      NsdMatrix* dense = nsd_matrix_create_dense_from(m, m, A.data());
      for (NsdStorage storage : {NSD_DENSE, NSD_SPARSE_BLOCK, NSD_CSC}) {
        NsdProblem p{};
        p.kind = dim == 5 ? NSD_KIND_RFC3D : NSD_KIND_RFC2D;
        p.rfc = nsd_rfc_create(dim, nc, nsd_matrix_convert(dense, storage, dim), q.data(),
                               mu.data(), mu_r.data());
        const std::string path = tmpPath("roundtrip_rfc_" + std::to_string(dim) + "_" +
                                         std::to_string(storage) + ".dat");
        NsdReport rep{};
        CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                     nsd_write_problem(path.c_str(), &p, &rep));
        Read back;
        back.status = nsd_read_problem(path.c_str(), NSD_KIND_UNKNOWN, &back.p, &back.rep);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(back.rep.message, NSD_OK, back.status);
        CPPUNIT_ASSERT_EQUAL(p.kind, back.p.kind);
        const NsdRfc* b = back.p.rfc;
        CPPUNIT_ASSERT_EQUAL(dim, b->dim);
        CPPUNIT_ASSERT_EQUAL(nc, b->nc);
        CPPUNIT_ASSERT_EQUAL(storage, b->M->storage);
        CPPUNIT_ASSERT(same(q.data(), b->q, m));
        CPPUNIT_ASSERT(same(mu.data(), b->mu, nc));
        CPPUNIT_ASSERT(same(mu_r.data(), b->mu_r, nc));
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < m; ++j)
            CPPUNIT_ASSERT_EQUAL(A[i + m * j], nsd_matrix_get(b->M, i, j));
        // and written again, the same text
        const std::string again = path + ".again";
        CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_write_problem(again.c_str(), &back.p, &rep));
        CPPUNIT_ASSERT(slurp(path) == slurp(again));
        std::remove(path.c_str());
        std::remove(again.c_str());
        nsd_problem_clear(&p);
      }
      nsd_matrix_destroy(dense);
    }
  }

  // The kept problems: read by their layout, solved to 1e-8 by both solvers.
  void dataFilesSolve() {
    for (const char* name :
         {"rfc3d_sphere_pile_12.dat", "rfc3d_spheres_rolling_5.dat", "rfc2d_disks_5.dat"}) {
      Read f;
      f.status = nsd_read_problem((dataDir() + name).c_str(), NSD_KIND_UNKNOWN, &f.p, &f.rep);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(f.rep.message, NSD_OK, f.status);
      CPPUNIT_ASSERT(f.p.kind == NSD_KIND_RFC3D || f.p.kind == NSD_KIND_RFC2D);
      for (const char* solver : {"nsgs", "pg"}) {
        const int m = nsd_problem_size(&f.p);
        std::vector<double> r(m), u(m);
        NsdSolverOptions o;
        nsd_solver_options_default(&o);
        o.max_iterations = 100000;
        NsdReport rep{};
        NsdStatus s = nsd_solve(&f.p, solver, r.data(), u.data(), &o, &rep);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(name) + " " + solver + ": " + rep.message, NSD_OK,
                                     s);
        CPPUNIT_ASSERT(nsd_problem_error(&f.p, r.data()) <= 1e-8);
      }
    }
  }

  // A 3D friction file still reads as FC3D; its text with a mu_r line and d = 5 as RFC3D.
  void detectionKeepsFc3d() {
    const std::string fc = "3\n1\n0\n3\n3\n3 3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\n0.5\n";
    Read a;
    readText(a, fc, "contact.dat");
    CPPUNIT_ASSERT_EQUAL(NSD_OK, a.status);
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_FC3D, a.p.kind);
    const std::string rfc =
        "5\n1\n0\n5\n5\n5 5\n1 0 0 0 0\n0 1 0 0 0\n0 0 1 0 0\n0 0 0 1 0\n0 0 0 0 1\n"
        "-1 0 0 0 0\n0.5\n0.1\n";
    Read b;
    readText(b, rfc, "contact.dat");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(b.rep.message, NSD_OK, b.status);
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_RFC3D, b.p.kind);
    CPPUNIT_ASSERT_EQUAL(0.1, b.p.rfc->mu_r[0]);
    // a 2D rolling file (d = 3) is told from FC3D by its name or by the kind asked
    const std::string rfc2 = "3\n1\n0\n3\n3\n3 3\n1 0 0\n0 1 0\n0 0 1\n-1 0 0\n0.5\n0.1\n";
    Read c;
    readText(c, rfc2, "disk_rfc2d.dat");
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_RFC2D, c.p.kind);
    Read d;
    readText(d, rfc2, "disk.dat", NSD_KIND_RFC2D);
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_RFC2D, d.p.kind);
  }

  // The pile with M dense and mu_r doubled, written by the library for `nsdyn solve` (the
  // ctest rfc/cli_solve_written reads it back): written_rfc3d.dat in the build tree.
  void writeForCli() {
    Read f;
    f.status = nsd_read_problem((dataDir() + "rfc3d_sphere_pile_12.dat").c_str(), NSD_KIND_RFC3D,
                                &f.p, &f.rep);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, f.status);
    NsdRfc* p = f.p.rfc;
    NsdMatrix* dense = nsd_matrix_convert(p->M, NSD_DENSE, 0);
    CPPUNIT_ASSERT(dense != nullptr);
    nsd_matrix_destroy(p->M);
    p->M = dense;
    for (int a = 0; a < p->nc; ++a) p->mu_r[a] *= 2.0;
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_OK,
                         nsd_write_problem(tmpPath("written_rfc3d.dat").c_str(), &f.p, &rep));
  }

  void badFiles() {
    // dimension 4
    Read a;
    readText(a, "4\n1\n0\n4\n4\n4 4\n", "bad_dim.dat", NSD_KIND_RFC3D);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, a.status);
    CPPUNIT_ASSERT_EQUAL(
        std::string("bad_dim.dat:1: d: expected 5 (3D rolling friction), found '4'"),
        std::string(a.rep.message));
    // mu_r < 0 on line 10
    const std::string neg =
        "5\n1\n0\n5\n5\n5 5\n1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 0 0 0 1 0 0 0 0 0 1\n-1 0 0 0 0\n0.5\n"
        "-0.25\n";
    Read b;
    readText(b, neg, "neg_mur.dat", NSD_KIND_RFC3D);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, b.status);
    CPPUNIT_ASSERT_EQUAL(
        std::string("neg_mur.dat:10: mu_r[0]: expected a real >= 0, found '-0.25'"),
        std::string(b.rep.message));
    // the same, found by the detection (name says rfc)
    Read b2;
    readText(b2, neg, "neg_rfc.dat");
    CPPUNIT_ASSERT(std::strstr(b2.rep.message, "neg_rfc.dat:10: mu_r[0]") != nullptr);
    // truncated: no mu_r line
    Read c;
    readText(c, neg.substr(0, neg.size() - 7), "short.dat", NSD_KIND_RFC3D);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, c.status);
    CPPUNIT_ASSERT(std::strstr(c.rep.message, "short.dat:9: mu_r[0]: expected a real") != nullptr);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(RfcFileTest);
