// The common option rules of every solver (issue 12): for each entry of the
// solver table, a tolerance <= 0 or NaN, max_iterations < 1, a relaxation
// outside (0, 2) and a time limit < 0 (or NaN) give NSD_BAD_INPUT with a
// message naming the option, and the defaults solve a small problem.
#include <cppunit/extensions/HelperMacros.h>

#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <nsdyn/numerics.h>

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();

// A small well-posed problem of each kind the table has solvers for.
NsdProblem smallProblem(NsdProblemKind kind) {
  NsdProblem p{};
  p.kind = kind;
  if (kind == NSD_KIND_LCP) {
    double m[] = {2, 1, 1, 2}, q[] = {-5, -6};
    p.lcp = nsd_lcp_create(nsd_matrix_create_dense_from(2, 2, m), q);
  } else if (kind == NSD_KIND_MLCP) {
    double m[] = {2, 1, 1, 2}, q[] = {-1, -1};
    p.mlcp = nsd_mlcp_create(1, 1, nsd_matrix_create_dense_from(2, 2, m), q);
  } else if (kind == NSD_KIND_FC3D) {
    double m[] = {2, 0, 0, 0, 2, 0, 0, 0, 2}, q[] = {-1, 0.5, 0}, mu[] = {0.3};
    p.fc = nsd_fc_create(3, 1, nsd_matrix_create_dense_from(3, 3, m), q, mu);
  } else if (kind == NSD_KIND_FC2D) {
    double m[] = {2, 0, 0, 2}, q[] = {-1, 0.5}, mu[] = {0.3};
    p.fc = nsd_fc_create(2, 1, nsd_matrix_create_dense_from(2, 2, m), q, mu);
  }
  return p;
}

NsdStatus solveWith(const NsdSolverEntry& e, const NsdProblem& p, const NsdSolverOptions& opt,
                    NsdReport* rep) {
  const int n = nsd_problem_size(&p);
  std::vector<double> x(static_cast<size_t>(n), 0.0), y(static_cast<size_t>(n), 0.0);
  if (e.lcp) return e.lcp(p.lcp, x.data(), y.data(), &opt, rep);
  if (e.mlcp) return e.mlcp(p.mlcp, x.data(), y.data(), &opt, rep);
  return e.fc(p.fc, x.data(), y.data(), &opt, rep);
}

struct Rule {
  const char* option;  // the name the message must hold
  std::function<void(NsdSolverOptions&)> set;
};
}  // namespace

class SolverOptionsTest : public CppUnit::TestFixture {
  CPPUNIT_TEST_SUITE(SolverOptionsTest);
  CPPUNIT_TEST(everySolverRejectsBadCommonOptions);
  CPPUNIT_TEST_SUITE_END();

 public:
  void everySolverRejectsBadCommonOptions() {
    const std::vector<Rule> rules = {
        {"tolerance", [](NsdSolverOptions& o) { o.tolerance = 0.0; }},
        {"tolerance", [](NsdSolverOptions& o) { o.tolerance = -1e-8; }},
        {"tolerance", [](NsdSolverOptions& o) { o.tolerance = kNaN; }},
        {"max_iterations", [](NsdSolverOptions& o) { o.max_iterations = 0; }},
        {"max_iterations", [](NsdSolverOptions& o) { o.max_iterations = -3; }},
        {"relaxation", [](NsdSolverOptions& o) { o.relaxation = 0.0; }},
        {"relaxation", [](NsdSolverOptions& o) { o.relaxation = 2.0; }},
        {"relaxation", [](NsdSolverOptions& o) { o.relaxation = kNaN; }},
        {"time_limit", [](NsdSolverOptions& o) { o.time_limit = -1.0; }},
        {"time_limit", [](NsdSolverOptions& o) { o.time_limit = kNaN; }},
    };
    int count = 0;
    const NsdSolverEntry* table = nsd_solver_table(&count);
    CPPUNIT_ASSERT(count > 0);
    int checked = 0;
    for (int i = 0; i < count; ++i) {
      const NsdSolverEntry& e = table[i];
      if (!e.lcp && !e.mlcp && !e.fc) continue;
      NsdProblem p = smallProblem(e.kind);
      CPPUNIT_ASSERT_MESSAGE(std::string(e.name) + ": no test problem of its kind",
                             p.lcp || p.mlcp || p.fc);
      const std::string who = std::string(nsd_kind_name(e.kind)) + "/" + e.name;

      // the defaults are accepted (and solve this small problem)
      NsdSolverOptions opt;
      nsd_solver_options_default(&opt);
      NsdReport rep{};
      CPPUNIT_ASSERT_EQUAL_MESSAGE(who + ": " + rep.message, NSD_OK, solveWith(e, p, opt, &rep));

      for (const Rule& rule : rules) {
        nsd_solver_options_default(&opt);
        rule.set(opt);
        NsdReport bad{};
        const NsdStatus status = solveWith(e, p, opt, &bad);
        const std::string what = who + " with bad " + rule.option + ": " + bad.message;
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_BAD_INPUT, status);
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_BAD_INPUT, bad.status);
        CPPUNIT_ASSERT_MESSAGE(what,
                               std::string(bad.message).find(rule.option) != std::string::npos);
        // a NULL report is allowed too
        CPPUNIT_ASSERT_EQUAL_MESSAGE(what, NSD_BAD_INPUT, solveWith(e, p, opt, nullptr));
      }
      ++checked;
      nsd_problem_clear(&p);
    }
    CPPUNIT_ASSERT(checked > 0);
  }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SolverOptionsTest);
