// OpenMP glue shared by the data-parallel mechanics stages (broadphase, detection):
// pragmas that vanish without OpenMP, the thread count asked for, the thread id.
#ifndef NSDYN_KERNEL_MECHANICS_THREADS_HPP
#define NSDYN_KERNEL_MECHANICS_THREADS_HPP

#include <algorithm>

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
