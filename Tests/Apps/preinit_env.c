/* preinit_env: prints the two variables the nsdyn preinit (Numerics/preinit) may add to an
 * executable's environment, as this executable (linked with nsdyn) sees them. */
#include <stdio.h>
#include <stdlib.h>

#include "nsdyn/nsd_common.h"

int main(void) {
  const char* spin = getenv("GOMP_SPINCOUNT");
  const char* pad = getenv("MALLOC_TOP_PAD_");
  /* a call into the library, so that the link keeps it */
  NsdSolverOptions options;
  nsd_solver_options_default(&options);
  printf("GOMP_SPINCOUNT=%s MALLOC_TOP_PAD_=%s (default tolerance %g)\n", spin ? spin : "(unset)",
         pad ? pad : "(unset)", options.tolerance);
  return 0;
}
