// OpenMP glue shared by the data-parallel mechanics stages (broadphase, detection):
// pragmas that vanish without OpenMP, the thread count asked for, the thread id.
#ifndef NSDYN_KERNEL_MECHANICS_THREADS_HPP
#define NSDYN_KERNEL_MECHANICS_THREADS_HPP

#include <algorithm>
#include <cstddef>

#ifdef _OPENMP
#include <omp.h>
#define NSD_OMP(x) _Pragma(#x)
#else
#define NSD_OMP(x)
#endif

namespace nsdyn::mechanics {

/// @p requested threads, or all OpenMP offers when @p requested <= 0 (1 without OpenMP).
inline int maxThreads(int requested) {
#ifdef _OPENMP
  return requested > 0 ? requested : std::max(1, omp_get_max_threads());
#else
  (void)requested;
  return 1;
#endif
}

/// Items of work per thread below which the automatic thread count (@p requested
/// <= 0) uses fewer threads: a parallel region costs a wake-up and a barrier,
/// and on a shared machine a descheduled thread makes each one wait a time slice.
constexpr std::size_t kItemsPerThread = 2048;

/// Threads for a loop over @p items: an explicit request is honoured (tests of
/// thread independence use it); the automatic count is at most one thread per
/// kItemsPerThread items. Results never depend on the count.
inline int threadsFor(int requested, std::size_t items) {
  const int nt = maxThreads(requested);
  if (requested > 0) return nt;
  const std::size_t useful = std::max<std::size_t>(1, items / kItemsPerThread);
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(nt), useful));
}

/// The calling thread's number in the current parallel region (0 without OpenMP).
inline int threadId() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

}  // namespace nsdyn::mechanics

#endif
