// The option table (nsd_options.h, issue 12 item 5): the defaults come from it, every
// entry parses and refuses its out-of-range values by name, options apply to the
// solvers the table says, nsd_solve refuses an option its solver does not read (auto
// reads every one), and the solver properties drive what the Kernel does.
#include <cppunit/extensions/HelperMacros.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <nsdyn/numerics.h>

class OptionTableTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(OptionTableTest);
  CPPUNIT_TEST(defaultsComeFromTheTable);
  CPPUNIT_TEST(everyEntryParsesAndRefuses);
  CPPUNIT_TEST(applicability);
  CPPUNIT_TEST(solveRefusesOptionsItsSolverDoesNotRead);
  CPPUNIT_TEST(solverProperties);
  CPPUNIT_TEST_SUITE_END();

 public:
  void defaultsComeFromTheTable() {
    NsdSolverOptions o;
    std::memset(&o, 0x5a, sizeof o);
    nsd_solver_options_default(&o);
    int n = 0;
    const NsdOptionEntry* t = nsd_option_table(&n);
    CPPUNIT_ASSERT(n >= 25);
    for (int k = 0; k < n; ++k)
      CPPUNIT_ASSERT_EQUAL_MESSAGE(t[k].name, t[k].default_value, nsd_option_value(&o, &t[k]));
    // the documented defaults
    CPPUNIT_ASSERT_EQUAL(1e-8, o.tolerance);
    CPPUNIT_ASSERT_EQUAL(1000, o.max_iterations);
    CPPUNIT_ASSERT_EQUAL(NSD_FC_LOCAL_AC_NEWTON, o.nsgs.local_solver);
    CPPUNIT_ASSERT_EQUAL(1e-10, o.lemke.pivot_tolerance);
    // every field of the struct is in the table: two tables' worth of distinct offsets
    std::vector<size_t> offsets;
    for (int k = 0; k < n; ++k) offsets.push_back(t[k].offset);
    for (size_t i = 0; i < offsets.size(); ++i)
      for (size_t j = i + 1; j < offsets.size(); ++j) CPPUNIT_ASSERT(offsets[i] != offsets[j]);
  }

  void everyEntryParsesAndRefuses() {
    int n = 0;
    const NsdOptionEntry* t = nsd_option_table(&n);
    for (int k = 0; k < n; ++k) {
      const NsdOptionEntry& e = t[k];
      NsdSolverOptions o;
      nsd_solver_options_default(&o);
      NsdReport rep{};
      // a value inside the range round-trips
      std::string good;
      if (e.type == NSD_OPTION_BOOL)
        good = "true";
      else if (e.type == NSD_OPTION_CHOICE)
        good = std::string(e.choices).substr(0, std::string(e.choices).find(','));
      else
        good = std::to_string(static_cast<long long>(e.min + 1));
      if (e.type == NSD_OPTION_DOUBLE) good = e.max_open && e.max <= 1 ? "0.25" : "1.5";
      if (e.type == NSD_OPTION_DOUBLE && std::string(e.name) == "relaxation") good = "1.5";
      CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(e.name) + "=" + good + ": " + rep.message, NSD_OK,
                                   nsd_option_set(&o, e.name, good.c_str(), &rep));
      // '-' for '_' is the same name
      std::string dashed = e.name;
      for (char& c : dashed)
        if (c == '_') c = '-';
      CPPUNIT_ASSERT(nsd_option_find(dashed.c_str()) == &e);
      // refused: text, NaN, and below the range; the message names the option
      for (const char* bad : {"abc", "nan", "-1e300", ""}) {
        NsdReport r{};
        CPPUNIT_ASSERT_EQUAL_MESSAGE(std::string(e.name) + "=" + bad, NSD_BAD_INPUT,
                                     nsd_option_set(&o, e.name, bad, &r));
        CPPUNIT_ASSERT(std::string(r.message).find(e.name) != std::string::npos);
      }
      // the struct check refuses the same out-of-range value by name
      if (e.type == NSD_OPTION_DOUBLE || e.type == NSD_OPTION_INT) {
        NsdSolverOptions bad;
        nsd_solver_options_default(&bad);
        char* base = reinterpret_cast<char*>(&bad) + e.offset;
        if (e.type == NSD_OPTION_DOUBLE)
          *reinterpret_cast<double*>(base) = NAN;
        else
          *reinterpret_cast<int*>(base) = static_cast<int>(e.min) - 1;
        NsdProblem p{};
        p.kind = NSD_KIND_LCP;
        double m[] = {2}, q[] = {-1}, z[1], w[1];
        p.lcp = nsd_lcp_create(nsd_matrix_create_dense_from(1, 1, m), q);
        NsdReport r{};
        CPPUNIT_ASSERT_EQUAL_MESSAGE(e.name, NSD_BAD_INPUT, nsd_solve(&p, "auto", z, w, &bad, &r));
        CPPUNIT_ASSERT_MESSAGE(r.message, std::string(r.message).find(e.name) != std::string::npos);
        nsd_problem_clear(&p);
      }
    }
    NsdReport r{};
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_option_set(&o, "nsgs.no_such", "1", &r));
    CPPUNIT_ASSERT(std::string(r.message).find("unknown solver option 'nsgs.no_such'") !=
                   std::string::npos);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_option_set(&o, "nsgs.local-solver", "fb-newton", &r));
    CPPUNIT_ASSERT_EQUAL(NSD_FC_LOCAL_FB_NEWTON, o.nsgs.local_solver);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_option_set(&o, "nsgs.shuffle", "yes", &r));
    CPPUNIT_ASSERT_EQUAL(1, o.nsgs.shuffle);
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_option_set(&o, "relaxation", "2", &r));
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_option_set(&o, "max_iterations", "2.5", &r));
  }

  void applicability() {
    const NsdOptionEntry* local = nsd_option_find("nsgs.local_tolerance");
    const NsdOptionEntry* tol = nsd_option_find("tolerance");
    const NsdOptionEntry* relax = nsd_option_find("relaxation");
    CPPUNIT_ASSERT(nsd_option_applies(local, nsd_solver_find(NSD_KIND_FC3D, "nsgs")));
    CPPUNIT_ASSERT(!nsd_option_applies(local, nsd_solver_find(NSD_KIND_FC3D, "admm")));
    CPPUNIT_ASSERT(nsd_option_applies(local, nsd_solver_find(NSD_KIND_FC3D, "auto")));
    CPPUNIT_ASSERT(nsd_option_applies(relax, nsd_solver_find(NSD_KIND_LCP, "psor")));
    CPPUNIT_ASSERT(!nsd_option_applies(relax, nsd_solver_find(NSD_KIND_LCP, "lemke")));
    int n = 0;
    const NsdSolverEntry* s = nsd_solver_table(&n);
    for (int k = 0; k < n; ++k) CPPUNIT_ASSERT(nsd_option_applies(tol, &s[k]));

    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    NsdReport r{};
    CPPUNIT_ASSERT_EQUAL(
        NSD_BAD_INPUT,
        nsd_solver_option_set(nsd_solver_find(NSD_KIND_LCP, "lemke"), &o, "relaxation", "1.2", &r));
    CPPUNIT_ASSERT(std::string(r.message).find(
                       "relaxation does not apply to the lcp solver 'lemke'") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(1.0, o.relaxation);  // nothing stored
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solver_option_set(nsd_solver_find(NSD_KIND_LCP, "psor"), &o,
                                                       "relaxation", "1.2", &r));
    CPPUNIT_ASSERT_EQUAL(1.2, o.relaxation);
    // restrict: what lemke does not read goes back to its default
    o.nsgs.local_tolerance = 1e-12;
    o.tolerance = 1e-6;
    nsd_options_restrict(&o, nsd_solver_find(NSD_KIND_LCP, "lemke"));
    CPPUNIT_ASSERT_EQUAL(1.0, o.relaxation);
    CPPUNIT_ASSERT_EQUAL(1e-14, o.nsgs.local_tolerance);
    CPPUNIT_ASSERT_EQUAL(1e-6, o.tolerance);
  }

  void solveRefusesOptionsItsSolverDoesNotRead() {
    double m[] = {2, 0, 0, 0, 2, 0, 0, 0, 2}, q[] = {-1, 0.5, 0}, mu[] = {0.3};
    NsdProblem p{};
    p.kind = NSD_KIND_FC3D;
    p.fc = nsd_fc_create(3, 1, nsd_matrix_create_dense_from(3, 3, m), q, mu);
    NsdSolverOptions o;
    nsd_solver_options_default(&o);
    o.nsgs.local_tolerance = 1e-12;
    double r[3] = {0, 0, 0}, u[3];
    NsdReport rep{};
    CPPUNIT_ASSERT_EQUAL(NSD_BAD_INPUT, nsd_solve(&p, "admm", r, u, &o, &rep));
    CPPUNIT_ASSERT(std::string(rep.message).find("nsgs.local_tolerance") != std::string::npos);
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&p, "nsgs", r, u, &o, &rep));
    // auto reads every option and hands each candidate what it reads
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&p, "auto", r, u, &o, &rep));
    o.nsgs.local_tolerance = 1e-14;
    o.admm.rho = 3.0;
    CPPUNIT_ASSERT_EQUAL(NSD_OK, nsd_solve(&p, "admm", r, u, &o, &rep));
    nsd_problem_clear(&p);
  }

  void solverProperties() {
    CPPUNIT_ASSERT(nsd_solver_find(NSD_KIND_LCP, "lemke")->direct);
    CPPUNIT_ASSERT(!nsd_solver_find(NSD_KIND_LCP, "lemke")->warm_start);
    CPPUNIT_ASSERT(nsd_solver_find(NSD_KIND_MLCP, "enum")->direct);
    CPPUNIT_ASSERT(!nsd_solver_find(NSD_KIND_FC3D, "nsgs")->direct);
    CPPUNIT_ASSERT(nsd_solver_find(NSD_KIND_FC3D, "nsgs")->warm_start);
    int n = 0;
    const NsdSolverEntry* s = nsd_solver_table(&n);
    for (int k = 0; k < n; ++k) {
      CPPUNIT_ASSERT_MESSAGE(s[k].name, s[k].options != nullptr);
      CPPUNIT_ASSERT_MESSAGE(s[k].name, !(s[k].direct && s[k].warm_start));
    }
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(OptionTableTest);
