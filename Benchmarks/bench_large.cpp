// bench_large: friction solvers on a large granular FC3D problem (granular.h)
// with about N contacts: APGD on the assembled Delassus matrix and matrix-free
// (J, M^-1, J^T products) at each thread count, then NSGS and PSOR (assembled,
// one thread). Each run is a forked child process that builds what it needs
// itself (the assembled runs build J, M^-1 and N; the matrix-free ones only J
// and M^-1), so that its peak resident memory (wait4's ru_maxrss of that child)
// compares honestly. `seconds` times the solver call only.
//
// usage: bench_large N [--threads-list 1,2] [--tol 1e-6] [--time-limit S]
//                      [--max-iter K] [--seed S] [--solvers apgd,nsgs,psor]
//                      [--output FILE.csv]
// CSV columns: problem,contacts,solver,variant,threads,info,iterations,
//              residual_own,siconos_error,seconds,peak_rss_mb
// info: 0 converged, 1 max iterations / time limit, 2 failed, 3 bad input,
// -999 killed at the hard cap (2 x time limit + 120 s) or crashed.
// residual_own is the solver's own stopping measure (APGD: its projected-
// gradient residual; NSGS/PSOR: the Siconos error); siconos_error is the
// Siconos FC3D error of the returned r. A summary with the 2-thread speedups
// and the memory ratio matrix-free / assembled goes to stderr.
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "granular.h"

namespace {

struct Args {
  int contacts = 0;
  unsigned long long seed = 1;
  std::vector<int> threads{1, 2};
  std::vector<std::string> solvers{"apgd", "nsgs", "psor"};
  double tolerance = 1e-6;
  double time_limit = 120.0;
  int max_iterations = 100000;
  std::string output;
};

// One run: solver and variant ("assembled" or "matrix_free") at a thread count.
struct Run {
  std::string solver;
  std::string variant;
  int threads;
};

// What the child sends back through its pipe.
struct Outcome {
  int info = -999;
  int iterations = 0;
  double residual_own = NAN;
  double siconos_error = NAN;
  double seconds = NAN;
  double build_seconds = NAN;
  int contacts = 0;
  double peak_rss_mb = NAN;  // filled by the parent
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
               "usage: bench_large N [--threads-list 1,2] [--tol 1e-6] [--time-limit S]\n"
               "                     [--max-iter K] [--seed S] [--solvers apgd,nsgs,psor]\n"
               "                     [--output FILE.csv]\n");
  return 2;
}

bool parse(int argc, char** argv, Args* a) {
  for (int i = 1; i < argc; ++i) {
    std::string opt = argv[i];
    bool has_value = i + 1 < argc;
    if (opt == "--threads-list" && has_value) {
      a->threads.clear();
      for (const auto& t : split(argv[++i], ',')) a->threads.push_back(std::atoi(t.c_str()));
    } else if (opt == "--tol" && has_value) {
      a->tolerance = std::atof(argv[++i]);
    } else if (opt == "--time-limit" && has_value) {
      a->time_limit = std::atof(argv[++i]);
    } else if (opt == "--max-iter" && has_value) {
      a->max_iterations = std::atoi(argv[++i]);
    } else if (opt == "--seed" && has_value) {
      a->seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (opt == "--solvers" && has_value) {
      a->solvers = split(argv[++i], ',');
    } else if (opt == "--output" && has_value) {
      a->output = argv[++i];
    } else if (opt[0] != '-' && a->contacts == 0) {
      a->contacts = std::atoi(opt.c_str());
    } else {
      return false;
    }
  }
  if (a->contacts < 1 || a->tolerance <= 0 || a->time_limit < 0 || a->max_iterations < 1)
    return false;
  for (int t : a->threads)
    if (t < 1) return false;
  for (const auto& s : a->solvers)
    if (s != "apgd" && s != "nsgs" && s != "psor") return false;
  return !a->threads.empty();
}

// The work of one child: build, solve, fill the outcome.
Outcome runChild(const Args& a, const Run& run) {
  Outcome out;
  GranularParams params;
  granular_params_default(&params);
  params.contacts = a.contacts;
  params.seed = a.seed;
  NsdSolverOptions opt;
  nsd_solver_options_default(&opt);
  opt.tolerance = a.tolerance;
  opt.max_iterations = a.max_iterations;
  opt.time_limit = a.time_limit;
  opt.threads = run.threads;
  NsdReport rep{};

  // the scene: J, M^-1, q, mu
  double start = nsd_wall_time();
  GranularScene* scene = nullptr;
  if (granular_build(&params, &scene, &rep) != NSD_OK) {
    std::fprintf(stderr, "bench_large: %s\n", rep.message);
    out.info = static_cast<int>(NSD_FAILED);
    return out;
  }
  out.contacts = scene->n_contacts;
  const size_t m = 3 * static_cast<size_t>(scene->n_contacts);
  std::vector<double> r(m, 0.0), u(m, 0.0);
  NsdStatus st = NSD_FAILED;

  if (run.solver == "apgd") {
    // the operator: N assembled here, or the factors J, M^-1
    NsdDelassus op{};
    NsdMatrix* n = nullptr;
    bool ready = true;
    if (run.variant == "assembled") {
      n = granular_delassus(scene);
      ready = n != nullptr;
      op.size = static_cast<int>(m);
      op.assembled = n;
    } else {
      ready = nsd_delassus_factored(scene->J, scene->Minv, run.threads, &op, &rep) == NSD_OK;
    }
    out.build_seconds = nsd_wall_time() - start;
    if (ready) {
      double siconos = NAN;
      st = nsd_fc_apgd_operator(&op, 3, scene->q, scene->mu, r.data(), u.data(), &opt, &rep,
                                &siconos);
      out.siconos_error = siconos;
    } else {
      std::fprintf(stderr, "bench_large: building the operator failed: %s\n", rep.message);
    }
    if (run.variant == "assembled")
      nsd_matrix_destroy(n);
    else
      nsd_delassus_factored_free(&op);
  } else {
    // NSGS / PSOR on the assembled problem
    NsdFc* fc = granular_fc(scene);
    out.build_seconds = nsd_wall_time() - start;
    if (fc) {
      st = run.solver == "nsgs" ? nsd_fc3d_nsgs(fc, r.data(), u.data(), &opt, &rep)
                                : nsd_fc3d_psor(fc, r.data(), u.data(), &opt, &rep);
      out.siconos_error = nsd_fc_error(fc, r.data(), nullptr);
      nsd_fc_destroy(fc);
    }
  }
  if (st != NSD_OK && rep.message[0])
    std::fprintf(stderr, "bench_large: %s %s: %s\n", run.solver.c_str(), run.variant.c_str(),
                 rep.message);
  out.info = static_cast<int>(st);
  out.iterations = rep.iterations;
  out.residual_own = rep.residual;
  out.seconds = rep.seconds;
  granular_destroy(scene);
  return out;
}

// Fork, run, wait (with a hard cap), and read the child's peak memory.
Outcome runIsolated(const Args& a, const Run& run) {
  Outcome out;
  int fds[2];
  if (pipe(fds) != 0) return out;
  std::fflush(nullptr);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return out;
  }
  if (pid == 0) {
    close(fds[0]);
    Outcome r = runChild(a, run);
    ssize_t w = write(fds[1], &r, sizeof r);
    close(fds[1]);
    _exit(w == static_cast<ssize_t>(sizeof r) ? 0 : 1);
  }
  close(fds[1]);
  const double cap = a.time_limit > 0 ? 2.0 * a.time_limit + 120.0 : 86400.0;
  auto start = std::chrono::steady_clock::now();
  int status = 0;
  struct rusage usage {};
  for (;;) {
    pid_t done = wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > cap) {
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  Outcome r;
  if (read(fds[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r)) out = r;
  close(fds[0]);
  out.peak_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
  return out;
}

const Outcome* find(const std::vector<Run>& runs, const std::vector<Outcome>& outs,
                    const std::string& variant, int threads) {
  for (size_t k = 0; k < runs.size(); ++k)
    if (runs[k].solver == "apgd" && runs[k].variant == variant && runs[k].threads == threads)
      return &outs[k];
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!parse(argc, argv, &a)) return usage();

  // the runs: APGD both ways at each thread count, then NSGS and PSOR
  std::vector<Run> runs;
  for (const auto& s : a.solvers) {
    if (s == "apgd") {
      for (int t : a.threads) {
        runs.push_back({"apgd", "assembled", t});
        runs.push_back({"apgd", "matrix_free", t});
      }
    } else {
      runs.push_back({s, "assembled", 1});
    }
  }

  std::FILE* csv = a.output.empty() ? stdout : std::fopen(a.output.c_str(), "w");
  if (!csv) {
    std::fprintf(stderr, "bench_large: cannot write %s\n", a.output.c_str());
    return 2;
  }
  std::fprintf(csv,
               "problem,contacts,solver,variant,threads,info,iterations,residual_own,"
               "siconos_error,seconds,peak_rss_mb\n");
  char problem[64];
  std::snprintf(problem, sizeof problem, "granular-%d-seed%llu", a.contacts, a.seed);

  std::vector<Outcome> outs;
  for (const auto& run : runs) {
    Outcome o = runIsolated(a, run);
    outs.push_back(o);
    std::fprintf(csv, "%s,%d,%s,%s,%d,%d,%d,%.6e,%.6e,%.6f,%.1f\n", problem, o.contacts,
                 run.solver.c_str(), run.variant.c_str(), run.threads, o.info, o.iterations,
                 o.residual_own, o.siconos_error, o.seconds, o.peak_rss_mb);
    std::fflush(csv);
    std::fprintf(stderr,
                 "%-5s %-11s %d thr: info %d, %6d it, own %.2e, siconos %.2e, %8.3f s "
                 "(build %.3f s), peak %.1f MB\n",
                 run.solver.c_str(), run.variant.c_str(), run.threads, o.info, o.iterations,
                 o.residual_own, o.siconos_error, o.seconds, o.build_seconds, o.peak_rss_mb);
  }
  if (csv != stdout) std::fclose(csv);

  // ratios: 2-thread speedup (time and time per iteration), memory matrix-free / assembled
  for (const char* variant : {"assembled", "matrix_free"}) {
    const Outcome* one = find(runs, outs, variant, 1);
    const Outcome* two = find(runs, outs, variant, 2);
    if (!one || !two || !(two->seconds > 0) || two->iterations < 1 || one->iterations < 1) continue;
    std::fprintf(stderr, "APGD %s: 2-thread speedup %.2f (time), %.2f (time per iteration)\n",
                 variant, one->seconds / two->seconds,
                 (one->seconds / one->iterations) / (two->seconds / two->iterations));
  }
  for (int t : a.threads) {
    const Outcome* as = find(runs, outs, "assembled", t);
    const Outcome* mf = find(runs, outs, "matrix_free", t);
    if (as && mf && as->peak_rss_mb > 0)
      std::fprintf(stderr, "APGD %d thread(s): peak memory matrix-free / assembled = %.2f\n", t,
                   mf->peak_rss_mb / as->peak_rss_mb);
  }
  return 0;
}
