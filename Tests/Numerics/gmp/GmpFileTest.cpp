// The shared GMP files (../shared/data/gmp): every one reads, writes back identically and is
// solved to 1e-8 by NSGS over blocks and by the global Newton; bad files name the file, the
// line and the value.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "gmp_test_util.hpp"

using nsdyn::test::gmpDataDir;
using nsdyn::test::GmpFile;
using nsdyn::test::gmpFileNames;
using nsdyn::test::readGmp;
using nsdyn::test::readGmpText;
using nsdyn::test::solveGmp;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The text of a problem as nsd_write_problem_stream writes it.
std::string written(const NsdProblem& p) {
  char* buf = nullptr;
  size_t len = 0;
  FILE* f = open_memstream(&buf, &len);
  NsdReport rep{};
  NsdStatus st = nsd_write_problem_stream(f, &p, &rep);
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK, st);
  return s;
}

// Replace the @p line-th line (from 1) of @p text by @p with.
std::string withLine(const std::string& text, int line, const std::string& with) {
  std::istringstream in(text);
  std::string out, l;
  for (int k = 1; std::getline(in, l); ++k) out += (k == line ? with : l) + "\n";
  return out;
}

void expectMessage(const std::string& text, const std::string& part1, const std::string& part2) {
  auto f = readGmpText(text, "bad.dat");
  const std::string m = f->rep.message;
  CPPUNIT_ASSERT_EQUAL_MESSAGE(m, NSD_BAD_INPUT, f->status);
  CPPUNIT_ASSERT_MESSAGE("expected '" + part1 + "' in: " + m, m.find(part1) != std::string::npos);
  CPPUNIT_ASSERT_MESSAGE("expected '" + part2 + "' in: " + m, m.find(part2) != std::string::npos);
  CPPUNIT_ASSERT(f->p.gmp == nullptr);
}
}  // namespace

class GmpFileTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(GmpFileTest);
  CPPUNIT_TEST(readsEverySharedFile);
  CPPUNIT_TEST(writesBackIdentically);
  CPPUNIT_TEST(convertsDenseWToBlocksOnWrite);
  CPPUNIT_TEST(nsgsSolvesEverySharedFile);
  CPPUNIT_TEST(newtonSolvesEverySharedFile);
  CPPUNIT_TEST(admmSolvesEverySharedFile);
  CPPUNIT_TEST(solveDispatchesByKind);
  CPPUNIT_TEST(rejectsBadFiles);
  CPPUNIT_TEST_SUITE_END();

 public:
  void readsEverySharedFile() {
    // blocks: kinds in order (0 LCP, 2 equality, 4 FC3D), sizes, and mu of the cones
    struct Expect {
      const char* name;
      std::vector<int> kinds, sizes;
      std::vector<double> mu;
    };
    const Expect expect[] = {
        {"Example1_Fc3D_SBM.dat", {4, 4, 4}, {3, 3, 3}, {0.1, 0.1, 0.1}},
        {"GMP0.dat", {2, 0}, {5, 1}, {}},
        {"GMP1.dat", {2, 2, 2, 2, 0}, {3, 3, 3, 5, 1}, {}},
        {"GMP2.dat", {2, 2, 2, 2}, {3, 3, 3, 5}, {}},
        {"GMP4.dat", {4}, {3}, {0.1}},
        {"GMP5.dat", {2, 4}, {5, 3}, {0.03}},
    };
    for (const Expect& e : expect) {
      for (NsdProblemKind kind : {NSD_KIND_UNKNOWN, NSD_KIND_GMP}) {
        auto f = readGmp(gmpDataDir() + e.name, kind);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(e.name) + ": " + f->rep.message, NSD_OK,
                                     f->status);
        CPPUNIT_ASSERT_EQUAL(NSD_KIND_GMP, f->p.kind);
        const NsdGmp* g = f->gmp();
        CPPUNIT_ASSERT_EQUAL_MESSAGE(e.name, static_cast<int>(e.kinds.size()), g->n_blocks);
        size_t cone = 0;
        for (int b = 0; b < g->n_blocks; ++b) {
          CPPUNIT_ASSERT_EQUAL(e.kinds[b], static_cast<int>(g->blocks[b].kind));
          CPPUNIT_ASSERT_EQUAL(e.sizes[b], g->blocks[b].size);
          if (g->blocks[b].kind == NSD_GMP_FC3D)
            CPPUNIT_ASSERT_EQUAL(e.mu[cone++], g->blocks[b].mu);
        }
        CPPUNIT_ASSERT_EQUAL(g->n, g->start[g->n_blocks]);
        CPPUNIT_ASSERT_EQUAL(g->n, nsd_problem_size(&f->p));
      }
    }
    // detected by layout under a name without "gmp" (the fuzz harness reads as "fuzz.dat")
    for (const std::string& name : gmpFileNames()) {
      const std::string text = slurp(gmpDataDir() + name);
      NsdProblem p{};
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(
          name + ": " + rep.message, NSD_OK,
          nsd_read_problem_text(text.data(), text.size(), "fuzz.dat", NSD_KIND_UNKNOWN, &p, &rep));
      CPPUNIT_ASSERT_EQUAL(NSD_KIND_GMP, p.kind);
      nsd_problem_clear(&p);
    }
    // spot values: GMP5's q[7] and W(7,7), GMP0's last q
    auto f = readGmp(gmpDataDir() + "GMP5.dat");
    CPPUNIT_ASSERT_EQUAL(-1.420139e+01, f->gmp()->q[7]);
    CPPUNIT_ASSERT_EQUAL(1.123928e+06, nsd_matrix_get(f->gmp()->W, 7, 7));
    auto g = readGmp(gmpDataDir() + "GMP0.dat");
    CPPUNIT_ASSERT_EQUAL(-9.126016e+00, g->gmp()->q[5]);
  }

  void writesBackIdentically() {
    for (const std::string& name : gmpFileNames()) {
      auto f = readGmp(gmpDataDir() + name);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name + ": " + f->rep.message, NSD_OK, f->status);
      const std::string text = written(f->p);
      auto g = readGmpText(text, name);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name + ": " + g->rep.message, NSD_OK, g->status);
      const NsdGmp *a = f->gmp(), *b = g->gmp();
      CPPUNIT_ASSERT_EQUAL(a->n, b->n);
      CPPUNIT_ASSERT_EQUAL(a->n_blocks, b->n_blocks);
      for (int k = 0; k < a->n_blocks; ++k) {
        CPPUNIT_ASSERT_EQUAL(a->blocks[k].kind, b->blocks[k].kind);
        CPPUNIT_ASSERT_EQUAL(a->blocks[k].size, b->blocks[k].size);
        CPPUNIT_ASSERT_EQUAL(a->blocks[k].mu, b->blocks[k].mu);
      }
      for (int i = 0; i < a->n; ++i) {
        CPPUNIT_ASSERT_EQUAL(a->q[i], b->q[i]);
        for (int j = 0; j < a->n; ++j)
          CPPUNIT_ASSERT_EQUAL(nsd_matrix_get(a->W, i, j), nsd_matrix_get(b->W, i, j));
      }
      // the same stored blocks, and the same text written a second time
      CPPUNIT_ASSERT_EQUAL(a->W->sbm->n_blocks, b->W->sbm->n_blocks);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name, text, written(g->p));
    }
  }

  void convertsDenseWToBlocksOnWrite() {
    auto f = readGmp(gmpDataDir() + "GMP1.dat");
    NsdGmp* a = f->p.gmp;
    NsdMatrix* dense = nsd_matrix_convert(a->W, NSD_DENSE, 0);
    NsdGmp* d = nsd_gmp_create(dense, a->q, a->n_blocks, a->blocks);
    NsdProblem p{};
    p.kind = NSD_KIND_GMP;
    p.gmp = d;
    auto g = readGmpText(written(p), "dense.dat");
    CPPUNIT_ASSERT_EQUAL_MESSAGE(g->rep.message, NSD_OK, g->status);
    CPPUNIT_ASSERT_EQUAL(NSD_SPARSE_BLOCK, g->gmp()->W->storage);
    for (int i = 0; i < a->n; ++i)
      for (int j = 0; j < a->n; ++j)
        CPPUNIT_ASSERT_EQUAL(nsd_matrix_get(a->W, i, j), nsd_matrix_get(g->gmp()->W, i, j));
    nsd_problem_clear(&p);
  }

  void solvesAll(const char* solver, NsdGmpSolver fn) {
    for (const std::string& name : gmpFileNames()) {
      auto f = readGmp(gmpDataDir() + name);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name + ": " + f->rep.message, NSD_OK, f->status);
      auto s = solveGmp(f->gmp(), fn);
      std::printf("  gmp %-6s %-22s %-9s %5d iterations, error %.2e, %.2e s\n", solver,
                  name.c_str(), nsd_status_name(s.status), s.rep.iterations, s.rep.residual,
                  s.rep.seconds);
      CPPUNIT_ASSERT_EQUAL_MESSAGE(name + " " + solver + ": " + s.rep.message, NSD_OK, s.status);
      CPPUNIT_ASSERT(s.rep.residual <= 1e-8);
      // the measure recomputed from r alone, and u = W r + q returned
      std::vector<double> u(s.u.size());
      CPPUNIT_ASSERT(nsd_gmp_error(f->gmp(), s.r.data(), u.data()) <= 1e-8);
      for (size_t i = 0; i < u.size(); ++i)
        CPPUNIT_ASSERT_DOUBLES_EQUAL(u[i], s.u[i], 1e-12 * (1 + std::fabs(u[i])));
    }
  }
  void nsgsSolvesEverySharedFile() { solvesAll("nsgs", nsd_gmp_nsgs); }
  void newtonSolvesEverySharedFile() { solvesAll("newton", nsd_gmp_newton); }
  void admmSolvesEverySharedFile() { solvesAll("admm", nsd_gmp_admm); }

  void solveDispatchesByKind() {
    auto f = readGmp(gmpDataDir() + "GMP1.dat");
    CPPUNIT_ASSERT_EQUAL(std::string("newton"), std::string(nsd_solver_default(NSD_KIND_GMP)));
    CPPUNIT_ASSERT(nsd_solver_find(NSD_KIND_GMP, "nsgs") != nullptr);
    CPPUNIT_ASSERT_EQUAL(NSD_KIND_GMP, nsd_kind_from_name("gmp"));
    std::vector<double> r(static_cast<size_t>(f->gmp()->n)), u(r.size());
    for (const char* name : {"nsgs", "newton", "admm"}) {
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(rep.message, NSD_OK,
                                   nsd_solve(&f->p, name, r.data(), u.data(), nullptr, &rep));
      CPPUNIT_ASSERT_EQUAL(std::string(name), std::string(rep.solver));
      CPPUNIT_ASSERT(nsd_problem_error(&f->p, r.data()) <= 1e-8);
    }
    // an option the solver does not read is refused, naming it
    NsdSolverOptions opt;
    nsd_solver_options_default(&opt);
    opt.relaxation = 1.5;
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_solve(&f->p, "newton", r.data(), u.data(), &opt, &rep));
    CPPUNIT_ASSERT(std::strstr(rep.message, "relaxation") != nullptr);
  }

  void rejectsBadFiles() {
    const std::string good = slurp(gmpDataDir() + "GMP5.dat");
    CPPUNIT_ASSERT_EQUAL(NSD_OK, readGmpText(good, "good.dat")->status);
    // truncated in q: the end of the file, at the last line
    expectMessage(good.substr(0, good.find("1.351144e+01")), "bad.dat:", "q[1]: expected a real");
    expectMessage(good.substr(0, good.find("1.351144e+01")), "end of file", "q[1]");
    // truncated before mu
    expectMessage(good.substr(0, good.rfind("3.000000e-02")), "bad.dat:", "mu[1]");
    // a negative size
    expectMessage(withLine(good, 2, "-8"), "bad.dat:2:", "'-8'");
    // block sizes that do not add up to n: a row end beyond n
    expectMessage(withLine(good, 7, "5\t9\t"), "bad.dat:7:", "'9'");
    // one more kind than blocks
    expectMessage(good + "0\n", "bad.dat:", "end of the file (W has 2 diagonal blocks");
    // a negative mu, a NaN in q, a NaN mu
    expectMessage(withLine(good, 93, "-3.000000e-02"),
                  "bad.dat:93:", "mu[1]: expected a real >= 0");
    expectMessage(withLine(good, 87, "nan"), "bad.dat:87:", "q[5]: expected a finite real");
    expectMessage(withLine(good, 93, "NaN"), "bad.dat:93:", "mu[1]");
    // an FC3D kind on a block of 5 rows, an unknown kind
    expectMessage(withLine(good, 91, "4"), "bad.dat:91:", "kind[0]");
    expectMessage(withLine(good, 91, "7"), "bad.dat:91:", "0 (LCP), 2 (equality), 3 (FC2D) or 4");
    // a dense W: no blocks to read the sub-problems from
    expectMessage(withLine(good, 1, "0"), "bad.dat:1:", "W.storage: expected 1");
    // the file named in nsd_read_problem's messages
    auto f = readGmp("/nonexistent/GMP9.dat");
    CPPUNIT_ASSERT(std::strstr(f->rep.message, "/nonexistent/GMP9.dat") != nullptr);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(GmpFileTest);
