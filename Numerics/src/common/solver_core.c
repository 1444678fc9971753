/* The prologue of every solver and the time-limit check (see solver_core.h); the
 * option defaults and checks come from the option table (options.c). */
#include "common/solver_core.h"

#include <math.h>
#include <string.h>

NsdStatus nsd_solver_begin(const char* name, const NsdSolverOptions* options, NsdSolverOptions* opt,
                           NsdReport* report) {
  nsd_report_start(report, name);
  if (options)
    *opt = *options;
  else
    nsd_solver_options_default(opt);
  return nsd_check_options(opt, report);
}

int nsd_time_up(const NsdReport* report, double limit) {
  return limit > 0.0 && report && nsd_wall_time() - report->start_time > limit;
}
