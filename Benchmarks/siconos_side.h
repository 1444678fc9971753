/* siconos_side.h: what the programs that solve files with Siconos 4.4 and with nsdyn side by
 * side (fc3d_siconos_side, gfc_siconos, rfc_siconos) share: the clock and the median of the
 * repeats, their command-line options, the temporary .dat that Siconos's reader needs for a
 * file of another format, a Siconos solve in a child process of its own (a crash, an abort or a
 * hang of the library must not end the comparison), Siconos's solver options, and nsdyn's
 * solve repeated from r = 0. Not part of the library: built into each of the programs. */
#ifndef NSDYN_BENCHMARKS_SICONOS_SIDE_H
#define NSDYN_BENCHMARKS_SICONOS_SIDE_H

#include <stddef.h>

#include <nsdyn/numerics.h>

#include <SolverOptions.h>

/* the largest --repeat */
#define SIDE_MAX_REPEAT 50
/* a child still running after this is killed (SIGALRM) and reported as timed out */
#define SIDE_CHILD_SECONDS 300

/* The options the programs share. */
typedef struct SideOptions {
  double tol;   /* --tol X, > 0 */
  int repeat;   /* --repeat N, 1 to SIDE_MAX_REPEAT: the median time of N runs is printed */
  int max_iter; /* --max-iter N, >= 1; 0: each library's default */
  int table;    /* --table: Markdown rows */
} SideOptions;

/* Wall-clock seconds (CLOCK_MONOTONIC). */
double side_now(void);

/* The median of v[0..n) (v sorted in place). */
double side_median(double* v, int n);

/* The part of @p path after its last '/'. */
const char* side_base_name(const char* path);

/* "1.2 ms"-style time into out. */
void side_format_time(double seconds, char* out, size_t size);

/* argv[*i] as --tol X, --repeat N or --max-iter N with its value argv[*i + 1] into @p o: 1 read
 * (*i then on the value), 0 not one of these or no value follows, -1 a bad value. */
int side_option(int argc, char** argv, int* i, SideOptions* o);

/* [--tol X] [--repeat N] [--max-iter N] [--table] FILE... into @p o (the defaults are its values
 * on entry): 1, or 0 on a usage error (an unknown or bad option, no FILE). */
int side_parse_files(int argc, char** argv, SideOptions* o);

/* run(FILE, o) on each FILE of a command line side_parse_files accepted, in order: 3 when one of
 * them returned nonzero, else 0. */
int side_each_file(int argc, char** argv, const SideOptions* o,
                   int (*run)(const char* path, const SideOptions* o));

/* FILE, of any kind, read by nsdyn into @p p (zeroed first): 1 when it is read and @p is_kind(p),
 * else 0 after "PATH: not WHAT problem nsdyn can read: why" on stderr (p cleared). */
int side_read(const char* path, const char* what, int (*is_kind)(const NsdProblem* p),
              NsdProblem* p);

/* Siconos reads .dat files only and picks its reader by the name's extension: *dat is @p path
 * when it ends in ".dat", else the temporary /tmp/PREFIX_XXXXXX.dat (its name in @p tmp, to
 * unlink after use; tmp is "" otherwise) into which @p p is written. 0 done, 1 no temporary file
 * could be made, 2 it could not be written (rep says why; the file is unlinked again). */
int side_dat(const char* path, const NsdProblem* p, const char* prefix, char* tmp, size_t tmp_size,
             const char** dat, NsdReport* rep);

/* work(ctx, result) in a child process (stdout flushed first), killed after SIDE_CHILD_SECONDS.
 * The child exits with what work returns (work may also _exit itself); when that is 0 and
 * @p result_size > 0, it first sends result[0..result_size) back through a pipe into the
 * parent's @p result. 1 when the child exited with 0 and sent its whole result, else 0 with
 * @p note: "not run (...)", "timed out (N s)", "crashed (signal N, name)" or @p failed (the
 * child exited with another status or sent less). */
int side_child(int (*work)(void* ctx, void* result), void* ctx, void* result, size_t result_size,
               const char* failed, char* note, size_t note_size);

/* Siconos's options for @p solver: its defaults, tolerance @p tol, max_iter when > 0. */
SolverOptions* side_siconos_options(int solver, double tol, int max_iter);

/* The iterations and the error Siconos reports in @p so, which is then deleted. */
void side_siconos_finish(SolverOptions* so, int* iterations, double* reported);

/* One nsdyn solve: solve(ctx, r, options, report). */
typedef NsdStatus (*SideSolve)(const void* ctx, double* r, const NsdSolverOptions* options,
                               NsdReport* report);

/* solve from r = 0 (r[0..m) zeroed before each run), one thread, tolerance @p tol, max_iter when
 * > 0, @p repeat times: the last run's status, iterations and residual (*reported), the median
 * time (*seconds); the first run's failure, if any, on stderr as "LABEL: message". */
NsdStatus side_nsd_repeat(SideSolve solve, const void* ctx, double* r, size_t m, double tol,
                          int max_iter, int repeat, const char* label, int* iterations,
                          double* reported, double* seconds);

#endif
