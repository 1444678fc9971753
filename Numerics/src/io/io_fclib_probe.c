/* The guard of the FCLIB reader (io_fclib.c): a file is read first in a child
 * process with limited memory and time, so that a crash or a runaway read of
 * libhdf5 on a corrupted file is reported as bad input. */
#define _POSIX_C_SOURCE 200809L /* fork, pipe, waitpid, setrlimit */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io_fclib_internal.h"

/* libhdf5 1.10 crashes (SIGSEGV) or allocates gigabytes on some corrupted files
 * (shared/fuzz-findings/06). So the file is first read in a child process, with
 * its address space limited (not under AddressSanitizer, which reserves terabytes
 * of shadow memory): a crash or an exhausted limit there is reported as bad input
 * and the caller's process never runs the failing read. The child sends its error
 * message back through a pipe; the file is read for real only when the child
 * succeeded. */
#define NSD_FCLIB_CHILD_MEMORY (2ul << 30) /* 2 GiB */
/* GCC says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer) */
#if defined(__SANITIZE_ADDRESS__)
#define NSD_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSD_UNDER_ASAN 1
#endif
#endif
#if defined(NSD_UNDER_ASAN)
/* Under the sanitizers (make asan, make fuzz) a crash of libhdf5 in the child must
 * end the child as it does in a release build, silently, so that the parent reports
 * bad input: no sanitizer report, no fuzzer crash file written by the child. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
static void child_die(void) {
  _exit(2);
}
static void child_plain_signals(void) {
  const int deadly[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; ++i) signal(deadly[i], SIG_DFL);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(child_die);
}
#endif
int nsd_io_fclib_probe(const char* path, NsdReport* report) {
  int fd[2];
  if (pipe(fd) != 0) return 1; /* no guard available: read directly */
  fflush(NULL);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return 1;
  }
  if (pid == 0) {
    close(fd[0]);
#if !defined(NSD_UNDER_ASAN)
    struct rlimit limit = {NSD_FCLIB_CHILD_MEMORY, NSD_FCLIB_CHILD_MEMORY};
    setrlimit(RLIMIT_AS, &limit);
#else
    child_plain_signals();
#endif
    NsdProblem p;
    NsdReport r;
    memset(&r, 0, sizeof r);
    nsd_report_start(&r, "io");
    const NsdStatus status = nsd_io_fclib_read_file(path, &p, &r);
    if (status == NSD_OK) _exit(0);
    const size_t n = strnlen(r.message, sizeof r.message);
    ssize_t written = write(fd[1], r.message, n);
    (void)written;
    _exit(2);
  }
  close(fd[1]);
  // libhdf5 can also loop (or crawl through gigabytes) on a corrupted file: the child
  // gets a time limit, 30 s plus 1 s per MiB of file (NSDYN_FCLIB_PROBE_SECONDS overrides)
  struct stat st;
  double limit = 30.0 + (stat(path, &st) == 0 ? (double)st.st_size / (1 << 20) : 0.0);
  const char* env = getenv("NSDYN_FCLIB_PROBE_SECONDS");
  if (env && atof(env) > 0.0) limit = atof(env);
  const double deadline = nsd_wall_time() + limit;
  char message[sizeof report->message];
  size_t got = 0;
  int timed_out = 0;
  for (;;) {
    const double left = deadline - nsd_wall_time();
    if (left <= 0.0) {
      timed_out = 1;
      break;
    }
    struct pollfd pfd = {fd[0], POLLIN, 0};
    const int ready = poll(&pfd, 1, (int)(left * 1000.0) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    const ssize_t k = read(fd[0], message + got, sizeof message - 1 - got);
    if (k > 0) got += (size_t)k;
    if (k == 0 || got >= sizeof message - 1) break;
    if (k < 0 && errno != EINTR) break;
  }
  message[got] = '\0';
  close(fd[0]);
  if (timed_out) kill(pid, SIGKILL);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    nsd_report_fail(
        report, NSD_BAD_INPUT,
        "%s: a corrupted HDF5 file (the HDF5 library was still reading it after %.0f s)", path,
        limit);
    return 0;
  }
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) return 1;
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 2 && got > 0) {
    nsd_report_fail(report, NSD_BAD_INPUT, "%s", message);
    return 0;
  }
  if (WIFSIGNALED(wstatus))
    nsd_report_fail(report, NSD_BAD_INPUT,
                    "%s: a corrupted HDF5 file (reading it crashed the HDF5 library, signal %d)",
                    path, WTERMSIG(wstatus));
  else
    nsd_report_fail(
        report, NSD_BAD_INPUT,
        "%s: a corrupted HDF5 file (reading it needed more than %lu MiB or failed in the HDF5 "
        "library)",
        path, NSD_FCLIB_CHILD_MEMORY >> 20);
  return 0;
}
