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
  return 2;
}

bool parse(int argc, char** argv, Args* a) {
  nsd_solver_options_default(&a->options);
  a->options.time_limit = 10.0;
  for (int i = 1; i < argc; ++i) {
    std::string opt = argv[i];
    bool has_value = i + 1 < argc;
    if (opt == "--solvers" && has_value) a->solvers = split(argv[++i], ',');
    else if (opt == "--tol" && has_value) a->options.tolerance = std::atof(argv[++i]);
    else if (opt == "--time-limit" && has_value) a->options.time_limit = std::atof(argv[++i]);
    else if (opt == "--max-iter" && has_value) a->options.max_iterations = std::atoi(argv[++i]);
    else if (opt == "--threads" && has_value) a->options.threads = std::atoi(argv[++i]);
    else if (opt == "--output" && has_value) a->output = argv[++i];
    else if (opt[0] != '-' && a->dir.empty()) a->dir = opt;
    else return false;
  }
  return !a->dir.empty() && a->options.tolerance > 0 && a->options.time_limit >= 0;
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
    return 2;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(a.dir, ec))
    if (e.is_regular_file() && e.path().extension() != ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());

  std::FILE* csv = a.output.empty() ? stdout : std::fopen(a.output.c_str(), "w");
  if (!csv) {
    std::fprintf(stderr, "solve_folder: cannot write %s: %s\n", a.output.c_str(), std::strerror(errno));
    return 2;
  }
  std::fprintf(csv, "kind,problem,n_contacts_or_size,solver,info,iterations,error,seconds\n");

  int rows = 0, converged = 0;
  for (const auto& file : files) {
    NsdProblem p{};
    NsdReport rep{};
    if (nsd_read_problem(file.c_str(), NSD_KIND_UNKNOWN, &p, &rep) != NSD_OK) {
      std::fprintf(stderr, "solve_folder: skipping %s: %s\n", file.c_str(), rep.message);
      continue;
    }
    int size = nsd_problem_contacts(&p) ? nsd_problem_contacts(&p) : nsd_problem_size(&p);
    // The solvers to run on this file: those asked for that exist for its kind.
    std::vector<std::string> names;
    int count = 0;
    const NsdSolverEntry* table = nsd_solver_table(&count);
    for (int k = 0; k < count; ++k) {
      if (table[k].kind != p.kind) continue;
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
  if (csv != stdout) std::fclose(csv);
  return 0;
}
