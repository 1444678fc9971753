// fc_history: residual per iteration of each friction solver on one problem
// file, for convergence plots (Benchmarks/plot_convergence.sh).
//
// usage: fc_history FILE [--solvers a,b,c] [--tol X] [--max-iter N]
//                        [--time-limit S] [--output FILE.csv]
// Solvers: those named, or every solver of the file's kind in the table.
// CSV columns: solver,iteration,seconds,residual. `residual` is what the
// solver records per iteration (report.history: the Siconos error for
// NSGS/PSOR/BB/ADMM/Newton, APGD's own projected-gradient residual).
// The solvers record no per-iteration clock: `seconds` is the solve's total
// time spread evenly, seconds(k) = report.seconds * k / iterations, which is
// exact for solvers whose iterations cost the same and an approximation
// otherwise (Newton steps with line searches, APGD backtracking).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nsdyn/numerics.h>

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

int usage() {
  std::fprintf(stderr,
               "usage: fc_history FILE [--solvers a,b,c] [--tol X] [--max-iter N]\n"
               "                       [--time-limit S] [--output FILE.csv]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string file, output;
  std::vector<std::string> solvers;
  NsdSolverOptions opt;
  nsd_solver_options_default(&opt);
  opt.time_limit = 10.0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a == "--solvers" && has_value)
      solvers = split(argv[++i], ',');
    else if (a == "--tol" && has_value)
      opt.tolerance = std::atof(argv[++i]);
    else if (a == "--max-iter" && has_value)
      opt.max_iterations = std::atoi(argv[++i]);
    else if (a == "--time-limit" && has_value)
      opt.time_limit = std::atof(argv[++i]);
    else if (a == "--output" && has_value)
      output = argv[++i];
    else if (a[0] != '-' && file.empty())
      file = a;
    else
      return usage();
  }
  if (file.empty() || !(opt.tolerance > 0) || opt.max_iterations < 1) return usage();

  NsdProblem p{};
  NsdReport rep{};
  if (nsd_read_problem(file.c_str(), NSD_KIND_UNKNOWN, &p, &rep) != NSD_OK) {
    std::fprintf(stderr, "fc_history: %s\n", rep.message);
    return 1;
  }
  // every solver of the file's kind unless named
  if (solvers.empty()) {
    int count = 0;
    const NsdSolverEntry* table = nsd_solver_table(&count);
    for (int k = 0; k < count; ++k)
      if (table[k].kind == p.kind && !table[k].alias_of &&
          std::find(solvers.begin(), solvers.end(), table[k].name) == solvers.end())
        solvers.push_back(table[k].name);
  }

  std::FILE* csv = output.empty() ? stdout : std::fopen(output.c_str(), "w");
  if (!csv) {
    std::fprintf(stderr, "fc_history: cannot write %s\n", output.c_str());
    nsd_problem_clear(&p);
    return 2;
  }
  std::fprintf(csv, "solver,iteration,seconds,residual\n");
  const size_t n = static_cast<size_t>(nsd_problem_size(&p));
  std::vector<double> history(static_cast<size_t>(opt.max_iterations) + 1);
  for (const auto& s : solvers) {
    std::vector<double> x(n + 1, 0.0), y(n + 1, 0.0);
    NsdReport r{};
    r.history = history.data();
    r.history_capacity = static_cast<int>(history.size());
    NsdStatus st = nsd_solve(&p, s.c_str(), x.data(), y.data(), &opt, &r);
    int len = r.history_length;
    for (int k = 0; k < len; ++k)
      std::fprintf(csv, "%s,%d,%.6e,%.6e\n", s.c_str(), k + 1, r.seconds * (k + 1) / len,
                   history[static_cast<size_t>(k)]);
    std::fprintf(stderr, "fc_history: %s: %s after %d iterations, residual %.3e, %.4f s%s%s\n",
                 s.c_str(), nsd_status_name(st), r.iterations, r.residual, r.seconds,
                 r.message[0] ? ": " : "", r.message);
  }
  if (csv != stdout) std::fclose(csv);
  nsd_problem_clear(&p);
  return 0;
}
