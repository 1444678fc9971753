// `nsdyn solve`: read a problem file (Siconos .dat or FCLIB .hdf5), detect its
// kind, solve it with a solver chosen by name, print a summary line or one
// JSON object, optionally write the solution. Exit 0 only when converged.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <nsdyn/numerics.h>

#include "commands.hpp"
#include "exit_status.hpp"

namespace nsdyn::cli {
namespace {

// the table of README.md "Exit status" (exit_status.hpp)
constexpr int kExitConverged = kExitOk;
constexpr int kExitNotConverged = kExitFailed;

struct SolveArgs {
  std::string file;
  std::string solver;  // empty: default of the kind
  std::string solution_path;
  NsdProblemKind kind = NSD_KIND_UNKNOWN;
  bool json = false;
  bool list = false;
  bool listOptions = false;
  bool markdown = false;
  NsdSolverOptions options{};
  // options given by name, applied once the solver is known (an option that the
  // solver does not read is refused)
  std::vector<std::pair<std::string, std::string>> named;
};

// The option named by a flag: the short forms, then `--NAME` for every entry of the
// option table with '.' and '_' written '-' (--nsgs-local-tolerance).
const NsdOptionEntry* optionOfFlag(const std::string& flag) {
  if (flag == "--tol") return nsd_option_find("tolerance");
  if (flag == "--max-iter") return nsd_option_find("max_iterations");
  if (flag == "--relax") return nsd_option_find("relaxation");
  if (flag.rfind("--", 0) != 0) return nullptr;
  int n = 0;
  const NsdOptionEntry* table = nsd_option_table(&n);
  for (int k = 0; k < n; ++k) {
    std::string name = table[k].name;
    for (char& c : name)
      if (c == '.' || c == '_') c = '-';
    if (flag.compare(2, std::string::npos, name) == 0) return &table[k];
  }
  return nullptr;
}

// JSON string with the characters that need it escaped.
std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// A number for JSON: non-finite values become null.
std::string jsonNumber(double x) {
  if (!std::isfinite(x)) return "null";
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6e", x);
  return buf;
}

// Parse the arguments; returns false (after printing why) on a usage error.
bool parseArgs(int argc, char** argv, SolveArgs* a) {
  nsd_solver_options_default(&a->options);
  for (int i = 0; i < argc; ++i) {
    std::string opt = argv[i];
    auto value = [&](const char** out) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "nsdyn solve: %s needs a value\n", opt.c_str());
        return false;
      }
      *out = argv[++i];
      return true;
    };
    const char* v = nullptr;
    if (opt == "--json") {
      a->json = true;
    } else if (opt == "--list-solvers") {
      a->list = true;
    } else if (opt == "--solver") {
      if (!value(&v)) return false;
      a->solver = v;
    } else if (opt == "--solution") {
      if (!value(&v)) return false;
      a->solution_path = v;
    } else if (opt == "--kind") {
      if (!value(&v)) return false;
      a->kind = nsd_kind_from_name(v);
      if (a->kind == NSD_KIND_UNKNOWN) {
        std::fprintf(
            stderr,
            "nsdyn solve: --kind %s: expected lcp, mlcp, fc2d, fc3d, gfc2d, gfc3d, gmp, rfc3d or "
            "rfc2d\n",
            v);
        return false;
      }
    } else if (opt == "--list-options") {
      a->listOptions = true;
    } else if (opt == "--markdown") {
      a->markdown = true;
    } else if (opt == "--option" || optionOfFlag(opt)) {
      if (!value(&v)) return false;
      std::string name, text;
      if (opt == "--option") {
        const char* eq = std::strchr(v, '=');
        if (!eq) {
          std::fprintf(stderr, "nsdyn solve: --option %s: expected NAME=VALUE\n", v);
          return false;
        }
        name.assign(v, eq);
        text = eq + 1;
      } else {
        name = optionOfFlag(opt)->name;
        text = v;
      }
      // the value is checked now (range, type); whether the solver reads it, once it is known
      NsdReport check{};
      if (nsd_option_set(&a->options, name.c_str(), text.c_str(), &check) != NSD_OK) {
        std::fprintf(stderr, "nsdyn solve: %s: %s\n", opt.c_str(), check.message);
        return false;
      }
      a->named.emplace_back(name, text);
    } else if (!opt.empty() && opt[0] == '-') {
      std::fprintf(stderr, "nsdyn solve: unknown option %s\n%s", opt.c_str(), solveUsage());
      return false;
    } else if (a->file.empty()) {
      a->file = opt;
    } else {
      std::fprintf(stderr, "nsdyn solve: more than one FILE (%s, %s)\n", a->file.c_str(),
                   opt.c_str());
      return false;
    }
  }
  if (!a->list && !a->listOptions && a->file.empty()) {
    std::fprintf(stderr, "nsdyn solve: no FILE given\n%s", solveUsage());
    return false;
  }
  return true;
}

int listSolvers() {
  static const NsdProblemKind kinds[] = {NSD_KIND_LCP,  NSD_KIND_MLCP,  NSD_KIND_FC2D,
                                         NSD_KIND_FC3D, NSD_KIND_GFC2D, NSD_KIND_GFC3D,
                                         NSD_KIND_GMP,  NSD_KIND_RFC3D, NSD_KIND_RFC2D};
  int n = 0;
  const NsdSolverEntry* table = nsd_solver_table(&n);
  for (NsdProblemKind kind : kinds) {
    std::printf("%s:\n", nsd_kind_name(kind));
    int shown = 0;
    for (int k = 0; k < n; ++k) {
      if (table[k].kind != kind) continue;
      std::printf("  %-12s %s%s\n", table[k].name, table[k].description,
                  table[k].is_default ? " [default]" : "");
      ++shown;
    }
    if (!shown) std::printf("  (none in this version: files are read, not solved)\n");
  }
  return kExitConverged;
}

// The option table: Markdown (doc/solver-options.md) or one line per option.
int listOptions(bool markdown) {
  if (markdown) {
    nsd_option_table_markdown(stdout);
    return kExitOk;
  }
  int n = 0;
  const NsdOptionEntry* table = nsd_option_table(&n);
  for (int k = 0; k < n; ++k) {
    std::string flag = table[k].name;
    for (char& c : flag)
      if (c == '.' || c == '_') c = '-';
    std::printf("  --%-28s %s\n", flag.c_str(), table[k].doc);
  }
  std::printf(
      "(ranges, defaults and the solvers that read each: --list-options --markdown, or "
      "doc/solver-options.md)\n");
  return kExitOk;
}

// Solution as plain text: x (z or r) then y (w or u), then v for a global friction
// problem, one number per line.
bool writeSolution(const std::string& path, const std::vector<double>& x,
                   const std::vector<double>& y, const std::vector<double>& gv) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "nsdyn solve: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  for (double v : x) std::fprintf(f, "%.17g\n", v);
  for (double v : y) std::fprintf(f, "%.17g\n", v);
  for (double e : gv) std::fprintf(f, "%.17g\n", e);
  bool ok = std::fclose(f) == 0;
  if (!ok) std::fprintf(stderr, "nsdyn solve: error writing %s\n", path.c_str());
  return ok;
}

void printResult(const SolveArgs& a, const NsdProblem& p, const std::string& solver,
                 const NsdReport& rep) {
  const char* kind = p.kind == NSD_KIND_UNKNOWN ? "unknown" : nsd_kind_name(p.kind);
  if (a.json) {
    std::printf(
        "{\"file\": %s, \"kind\": %s, \"size\": %d, \"contacts\": %d, \"solver\": %s, "
        "\"status\": %s, \"iterations\": %d, \"residual\": %s, \"seconds\": %s, \"message\": %s}\n",
        jsonString(a.file).c_str(), jsonString(kind).c_str(), nsd_problem_size(&p),
        nsd_problem_contacts(&p), jsonString(solver).c_str(),
        jsonString(nsd_status_name(rep.status)).c_str(), rep.iterations,
        jsonNumber(rep.residual).c_str(), jsonNumber(rep.seconds).c_str(),
        jsonString(rep.message).c_str());
  } else {
    std::printf("%s: %s size %d%s, solver %s: %s, %d iterations, residual %.3e, %.3g s\n",
                a.file.c_str(), kind, nsd_problem_size(&p),
                nsd_problem_contacts(&p)
                    ? (", " + std::to_string(nsd_problem_contacts(&p)) + " contacts").c_str()
                    : "",
                solver.empty() ? "-" : solver.c_str(), nsd_status_name(rep.status), rep.iterations,
                rep.residual, rep.seconds);
    // what the solver says about a successful answer (auto: what it tried; apgd_ccp: which
    // problem it solved and the Coulomb error)
    if (rep.status == NSD_OK && rep.message[0]) std::printf("  note: %s\n", rep.message);
  }
  if (rep.status != NSD_OK && rep.message[0])
    std::fprintf(stderr, "nsdyn solve: %s: %s\n", a.file.c_str(), rep.message);
}

}  // namespace

const char* solveUsage() {
  return "nsdyn solve FILE [options]\n"
         "  --solver NAME      solver by name (see --list-solvers); default per kind\n"
         "                     (auto for lcp, mlcp and fc3d: picks by size, falls back)\n"
         "  --tol X            tolerance on the Siconos error measure (default 1e-8)\n"
         "  --max-iter N       iteration cap (default 1000)\n"
         "  --relax W          relaxation omega for nlgs/psor/pgs/nsgs (default 1)\n"
         "  --NAME VALUE       any solver option, e.g. --threads 2, --time-limit 5,\n"
         "                     --nsgs-local-tolerance 1e-12 (see --list-options)\n"
         "  --option NAME=VALUE  the same by its table name (nsgs.local_tolerance=1e-12)\n"
         "  --list-options     the solver options; with --markdown, their reference\n"
         "  --kind K           force the problem kind of a .dat file\n"
         "  --json             print one JSON object instead of a summary line\n"
         "  --solution OUT     write z then w (LCP/MLCP) or r then u (friction, rolling; v for\n"
         "                     global friction gfc2d/gfc3d), one number per line\n"
         "exit status: 0 converged, 1 not converged (or no solver for the kind), 2 usage error\n"
         "(unknown option or solver), 3 bad input, 4 --solution not writable (README: Exit "
         "status)\n";
}

int solveCommand(int argc, char** argv) {
  SolveArgs a;
  if (!parseArgs(argc, argv, &a)) return kExitUsage;
  if (a.list) return listSolvers();
  if (a.listOptions) return listOptions(a.markdown);

  // Read the problem; a bad file is reported with the reader's message.
  NsdProblem problem{};
  NsdReport rep{};
  nsd_report_start(&rep, a.solver.c_str());
  if (nsd_read_problem(a.file.c_str(), a.kind, &problem, &rep) != NSD_OK) {
    rep.status = NSD_BAD_INPUT;
    rep.seconds = 0;
    printResult(a, problem, a.solver, rep);
    return kExitBadInput;
  }

  // The solver: a name unknown for this kind is a usage error; a kind without solvers
  // cannot be solved (status 1).
  const char* chosen = a.solver.empty() ? nsd_solver_default(problem.kind) : a.solver.c_str();
  std::string solver = chosen ? chosen : "";
  if (!chosen || !nsd_solver_find(problem.kind, chosen)) {
    int count = 0;
    const NsdSolverEntry* table = nsd_solver_table(&count);
    std::string names;
    for (int k = 0; k < count; ++k)
      if (table[k].kind == problem.kind)
        names += (names.empty() ? "" : ", ") + std::string(table[k].name);
    const char* kind = nsd_kind_name(problem.kind);
    rep.status = NSD_BAD_INPUT;
    rep.seconds = 0;
    printResult(a, problem, solver, rep);
    if (names.empty())
      std::fprintf(
          stderr,
          "nsdyn solve: %s: %s problems are read, not solved, in this version (no solver)\n",
          a.file.c_str(), kind);
    else
      std::fprintf(stderr, "nsdyn solve: %s: unknown %s solver '%s'; available: %s\n",
                   a.file.c_str(), kind, solver.c_str(), names.c_str());
    nsd_problem_clear(&problem);
    return names.empty() ? kExitNotConverged : kExitUsage;
  }
  // options given by name must be read by the chosen solver (auto reads every one)
  const NsdSolverEntry* entry = nsd_solver_find(problem.kind, chosen);
  for (const auto& [name, text] : a.named) {
    NsdReport check{};
    if (nsd_solver_option_set(entry, &a.options, name.c_str(), text.c_str(), &check) != NSD_OK) {
      std::fprintf(stderr, "nsdyn solve: %s\n", check.message);
      nsd_problem_clear(&problem);
      return kExitUsage;
    }
  }
  // the solution file must be writable before any work
  if (!a.solution_path.empty()) {
    std::FILE* f = std::fopen(a.solution_path.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "nsdyn solve: cannot write %s: %s\n", a.solution_path.c_str(),
                   std::strerror(errno));
      nsd_problem_clear(&problem);
      return kExitIo;
    }
    std::fclose(f);
  }
  int n = nsd_problem_size(&problem);
  std::vector<double> x(static_cast<size_t>(n), 0.0), y(static_cast<size_t>(n), 0.0);
  NsdStatus status = nsd_solve(&problem, chosen, x.data(), y.data(), &a.options, &rep);
  // the solver that produced the answer ("auto:newton_ac" for the automatic choice)
  if (rep.solver[0]) solver = rep.solver;
  printResult(a, problem, solver, rep);

  int code = status == NSD_OK          ? kExitConverged
             : status == NSD_BAD_INPUT ? kExitBadInput
                                       : kExitNotConverged;
  // global friction: the global velocity v = M^-1 (q + H r) of the answer goes with it
  std::vector<double> v;
  if (!a.solution_path.empty() && status != NSD_BAD_INPUT && problem.gfc) {
    v.assign(static_cast<size_t>(problem.gfc->n), 0.0);
    if (nsd_gfc_velocity(problem.gfc, x.data(), v.data(), nullptr) != NSD_OK)
      std::fprintf(stderr, "nsdyn solve: %s: M is singular, v not written\n", a.file.c_str());
  }
  if (!a.solution_path.empty() && status != NSD_BAD_INPUT &&
      !writeSolution(a.solution_path, x, y, v))
    code = kExitIo;
  nsd_problem_clear(&problem);
  return code;
}

}  // namespace nsdyn::cli
