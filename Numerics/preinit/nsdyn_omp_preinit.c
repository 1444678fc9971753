/* OpenMP waiting policy (and heap top pad) of nsdyn programs, chosen before the OpenMP
 * runtime (and malloc) starts.
 *
 * libgomp reads its environment once, in its initialiser, before any code of the
 * program runs. By default a thread waiting at a barrier spins for about 300,000
 * iterations before it sleeps. On a machine shared with other busy processes a
 * thread of ours is often descheduled, and its partner then spins through its time
 * slice at every barrier, taking the core the descheduled thread needs: APGD with 2
 * threads on a 2-core machine beside one busy process took 2.5x the time of 1 thread.
 * A short spin (GOMP_SPINCOUNT=1000, then sleep) keeps 2 threads within 5% of 1
 * thread there and costs about 4% on an idle machine (doc/benchmarks.md, "Threads on a
 * shared machine").
 *
 * Setting the variable from inside the process is too late for libgomp, and even a
 * .preinit_array function cannot do it (libc adopts the loader's environment array
 * after it). So this function, registered in the executable's .preinit_array (run by
 * the dynamic loader before any shared library initialiser), re-executes the program
 * once with GOMP_SPINCOUNT=1000 added to its environment: same arguments, same
 * process id, about a millisecond. It does nothing when the user chose
 * (OMP_WAIT_POLICY or GOMP_SPINCOUNT set), when NSDYN_OMP_SPIN=default asks for
 * libgomp's own default, for set-uid programs, or when the re-execution fails (the
 * program then simply goes on). No allocation: the new environment is built on the
 * stack.
 *
 * The same re-execution sets glibc's heap top pad (MALLOC_TOP_PAD_=268435456, 256 MiB):
 * the solvers allocate their workspaces per solve (a few MB at 25,000 contacts), and with
 * glibc's defaults the freed top of the heap went back to the system and came back page by
 * page at the next solve; with two threads three times as many page faults (37,500 against
 * 12,400 over 20 steps of the 10,000-sphere pile) and 8 % of the step (21.7 -> 19.5–20.1
 * ms). The pad keeps up to that much freed memory in the process (address space reserved
 * ahead of the heap's growth costs nothing until touched). Kept as the user set it
 * (MALLOC_TOP_PAD_ or GLIBC_TUNABLES in the environment); NSDYN_MALLOC=default asks for
 * glibc's own default.
 *
 * The file is compiled into every executable that links nsdyn (an interface source
 * of the nsdyn_numerics target; a .preinit_array is for executables only). */
#define _GNU_SOURCE
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#if defined(__linux__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
enum { kMaxEnvironment = 4096 };

static int nsd_has(char** envp, const char* prefix) {
  const size_t n = strlen(prefix);
  for (char** e = envp; e && *e; ++e)
    if (strncmp(*e, prefix, n) == 0) return 1;
  return 0;
}

static void nsd_omp_preinit(int argc, char** argv, char** envp) {
  (void)argc;
  if (!argv || !envp || getauxval(AT_SECURE)) return;
  const int spin = !(nsd_has(envp, "OMP_WAIT_POLICY=") || nsd_has(envp, "GOMP_SPINCOUNT=") ||
                     nsd_has(envp, "NSDYN_OMP_SPIN=default"));
  const int pad = !(nsd_has(envp, "MALLOC_TOP_PAD_=") || nsd_has(envp, "GLIBC_TUNABLES=") ||
                    nsd_has(envp, "NSDYN_MALLOC=default"));
  if (!spin && !pad) return;
  size_t n = 0;
  while (envp[n]) ++n;
  if (n + 3 > kMaxEnvironment) return;
  char* env[kMaxEnvironment];
  for (size_t i = 0; i < n; ++i) env[i] = envp[i];
  if (spin) env[n++] = (char*)"GOMP_SPINCOUNT=1000";
  if (pad) env[n++] = (char*)"MALLOC_TOP_PAD_=268435456";
  env[n] = NULL;
  execve("/proc/self/exe", argv, env); /* returns only on failure: go on as we are */
}

__attribute__((section(".preinit_array"),
               used)) static void (*const nsd_omp_preinit_entry)(int, char**,
                                                                 char**) = nsd_omp_preinit;
#endif
