// solve_folder: run solvers side by side over every problem file of a folder
// and write one CSV row per (file, solver):
//   kind,problem,n_contacts_or_size,solver,info,iterations,error,seconds
// info: 0 converged, 1 max iterations / time limit, 2 failed, 3 bad input,
// -999 killed at the hard cap (2 x time limit + 1 s; each solve runs in a
// child process so a hang or crash costs one row, not the run).
// error is recomputed with the problem's Siconos measure; seconds times the
// solver call only.
//
// usage: solve_folder DIR [--solvers a,b,c] [--tol X] [--time-limit S]
//                         [--max-iter N] [--threads N] [--output FILE.csv]
// exit status (README.md, "Exit status"): 0 every row written (solves that did not
// converge are rows, not failures), 2 usage error (an unknown option or solver name),
// 3 DIR missing or no problem file in it could be read, 4 the CSV could not be written.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <nsdyn/numerics.h>

#include "../apps/exit_status.hpp"

namespace fs = std::filesystem;

namespace {

struct Args {
  std::string dir;
  std::vector<std::string> solvers;  // empty: every solver of each file's kind
  std::string output;
  NsdSolverOptions options{};
};

struct Outcome {
  int info = -999;
  int iterations = 0;
  double error = NAN;
  double seconds = 0;
};

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
               "usage: solve_folder DIR [--solvers a,b,c] [--tol X] [--time-limit S]\n"
               "                        [--max-iter N] [--threads N] [--output FILE.csv]\n");
  return NSDYN_EXIT_USAGE;
}

bool number(const char* text, double* out) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text, &end);
  if (errno || end == text || *end || !std::isfinite(v)) return false;
  *out = v;
  return true;
}

bool integer(const char* text, int* out) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text, &end, 10);
  if (errno || end == text || *end || v < 0 || v > 1000000000) return false;
  *out = static_cast<int>(v);
  return true;
}

// Every name of --solvers must be a solver of some kind: a typo is not dropped silently.
bool knownSolvers(const std::vector<std::string>& names) {
  int count = 0;
  const NsdSolverEntry* table = nsd_solver_table(&count);
  for (const std::string& name : names) {
    bool found = false;
    for (int k = 0; k < count && !found; ++k) found = name == table[k].name;
    if (!found) {
      std::fprintf(stderr,
                   "solve_folder: --solvers: unknown solver '%s' (nsdyn solve --list-solvers "
                   "lists them)\n",
                   name.c_str());
      return false;
    }
  }
  return true;
}

bool parse(int argc, char** argv, Args* a) {
  nsd_solver_options_default(&a->options);
  a->options.time_limit = 10.0;
  for (int i = 1; i < argc; ++i) {
    std::string opt = argv[i];
    bool has_value = i + 1 < argc;
    bool ok = true;
    if (opt == "--solvers" && has_value) {
      a->solvers = split(argv[++i], ',');
      if (a->solvers.empty()) {
        std::fprintf(stderr, "solve_folder: --solvers: expected solver names, found none\n");
        return false;
      }
      if (!knownSolvers(a->solvers)) return false;
    } else if (opt == "--tol" && has_value)
      ok = number(argv[++i], &a->options.tolerance) && a->options.tolerance > 0;
    else if (opt == "--time-limit" && has_value)
      ok = number(argv[++i], &a->options.time_limit) && a->options.time_limit >= 0;
    else if (opt == "--max-iter" && has_value)
      ok = integer(argv[++i], &a->options.max_iterations) && a->options.max_iterations > 0;
    else if (opt == "--threads" && has_value)
      ok = integer(argv[++i], &a->options.threads);
    else if (opt == "--output" && has_value)
      a->output = argv[++i];
    else if (!opt.empty() && opt[0] != '-' && a->dir.empty())
      a->dir = opt;
    else {
      std::fprintf(stderr, "solve_folder: %s: %s\n", opt.c_str(),
                   opt[0] == '-'
                       ? (has_value ? "unknown option" : "unknown option or missing value")
                       : "more than one DIR");
      return false;
    }
    if (!ok) {
      std::fprintf(stderr, "solve_folder: %s %s: bad value\n", opt.c_str(), argv[i]);
      return false;
    }
  }
  if (a->dir.empty()) std::fprintf(stderr, "solve_folder: no DIR given\n");
  return !a->dir.empty();
}

// Solve in a child process; the child sends its Outcome through a pipe.
Outcome solveIsolated(const NsdProblem& p, const std::string& solver, const NsdSolverOptions& o) {
  Outcome out;
  int fds[2];
  if (pipe(fds) != 0) return out;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return out;
  }
  if (pid == 0) {
    close(fds[0]);
    int n = nsd_problem_size(&p);
    std::vector<double> x(static_cast<size_t>(n) + 1, 0.0), y(static_cast<size_t>(n) + 1, 0.0);
    NsdReport rep{};
    NsdStatus st = nsd_solve(&p, solver.c_str(), x.data(), y.data(), &o, &rep);
    Outcome r;
    r.info = static_cast<int>(st);
    r.iterations = rep.iterations;
    r.seconds = rep.seconds;
    r.error = nsd_problem_error(&p, x.data());
    ssize_t w = write(fds[1], &r, sizeof r);
    close(fds[1]);
    _exit(w == static_cast<ssize_t>(sizeof r) ? 0 : 1);
  }
  close(fds[1]);
  // Wait up to the hard cap, then kill.
  double cap = o.time_limit > 0 ? 2.0 * o.time_limit + 1.0 : 3600.0;
  auto start = std::chrono::steady_clock::now();
  int status = 0;
  bool done = false;
  while (!done) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      done = true;
      break;
    }
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > cap) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      close(fds[0]);
      out.seconds = elapsed;
      return out;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  Outcome r;
  if (read(fds[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r)) out = r;
  close(fds[0]);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse(argc, argv, &a)) return usage();
  std::error_code ec;
  if (!fs::is_directory(a.dir, ec)) {
    std::fprintf(stderr, "solve_folder: %s is not a folder\n", a.dir.c_str());
    return NSDYN_EXIT_BAD_INPUT;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(a.dir, ec))
    if (e.is_regular_file() && e.path().extension() != ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());

  std::FILE* csv = a.output.empty() ? stdout : std::fopen(a.output.c_str(), "w");
  if (!csv) {
    std::fprintf(stderr, "solve_folder: cannot write %s: %s\n", a.output.c_str(),
                 std::strerror(errno));
    return NSDYN_EXIT_IO;
  }
  std::fprintf(csv, "kind,problem,n_contacts_or_size,solver,info,iterations,error,seconds\n");

  int rows = 0, converged = 0, read = 0;
  for (const auto& file : files) {
    NsdProblem p{};
    NsdReport rep{};
    if (nsd_read_problem(file.c_str(), NSD_KIND_UNKNOWN, &p, &rep) != NSD_OK) {
      std::fprintf(stderr, "solve_folder: skipping %s: %s\n", file.c_str(), rep.message);
      continue;
    }
    ++read;
    int size = nsd_problem_contacts(&p) ? nsd_problem_contacts(&p) : nsd_problem_size(&p);
    // The solvers to run on this file: those asked for that exist for its kind.
    std::vector<std::string> names;
    int count = 0;
    const NsdSolverEntry* table = nsd_solver_table(&count);
    for (int k = 0; k < count; ++k) {
      if (table[k].kind != p.kind) continue;
      if (a.solvers.empty() && table[k].alias_of) continue;  // another name of a solver listed
      if (a.solvers.empty() ||
          std::find(a.solvers.begin(), a.solvers.end(), table[k].name) != a.solvers.end())
        names.push_back(table[k].name);
    }
    names.erase(std::unique(names.begin(), names.end()), names.end());
    for (const auto& s : names) {
      Outcome o = solveIsolated(p, s, a.options);
      std::fprintf(csv, "%s,%s,%d,%s,%d,%d,%.6e,%.6f\n", nsd_kind_name(p.kind),
                   file.filename().c_str(), size, s.c_str(), o.info, o.iterations, o.error,
                   o.seconds);
      std::fflush(csv);
      ++rows;
      if (o.info == 0) ++converged;
      std::fprintf(stderr, "\r%d runs, %d converged (%s %s)        ", rows, converged,
                   file.filename().c_str(), s.c_str());
    }
    nsd_problem_clear(&p);
  }
  std::fprintf(stderr, "\nsolve_folder: %d runs, %d converged\n", rows, converged);
  const bool written =
      !std::ferror(csv) && (csv == stdout ? std::fflush(csv) == 0 : std::fclose(csv) == 0);
  if (!written) {
    std::fprintf(stderr, "solve_folder: writing %s failed\n",
                 a.output.empty() ? "the standard output" : a.output.c_str());
    return NSDYN_EXIT_IO;
  }
  if (read == 0) {
    std::fprintf(stderr, "solve_folder: no problem file of %s could be read\n", a.dir.c_str());
    return NSDYN_EXIT_BAD_INPUT;
  }
  return NSDYN_EXIT_OK;
}
