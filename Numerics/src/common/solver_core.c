/* The solver options: their defaults, the checks every solver makes, the prologue
 * of every solver and the time-limit check (see solver_core.h). */
#include "common/solver_core.h"

#include <math.h>
#include <string.h>

void nsd_solver_options_default(NsdSolverOptions* o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->max_iterations = 1000;
  o->tolerance = 1e-8;
  o->relaxation = 1.0;
  o->warm_start = 0;
  o->threads = 0;
  o->time_limit = 0.0;
  o->lemke.pivot_tolerance = 1e-10;
  o->pgs.block_size = 3;
  o->pgs.check_every = 1;
  o->enumerative.max_size = 25;
  o->newton.merit = NSD_MERIT_FISCHER_BURMEISTER;
  o->newton.max_line_search = 40;
  o->newton.armijo_sigma = 1e-4;
  o->newton.step_shrink = 0.5;
  o->nsgs.local_solver = NSD_FC_LOCAL_AC_NEWTON;
  o->nsgs.local_tolerance = 1e-14;
  o->nsgs.local_max_iterations = 20;
  o->nsgs.shuffle = 0;
  o->nsgs.seed = 1;
  o->bb.memory = 10;
  o->bb.sigma = 1e-4;
  o->admm.rho = 0.0;
  o->admm.adaptive = 1;
  o->apgd.max_backtracks = 20;
  o->apgd.adaptive_restart = 1;
}

NsdStatus nsd_check_options(const NsdSolverOptions* o, NsdReport* report) {
  if (!(o->tolerance > 0.0) || !isfinite(o->tolerance))
    return nsd_report_fail(report, NSD_BAD_INPUT, "tolerance=%g, expected finite > 0",
                           o->tolerance);
  if (o->max_iterations < 1)
    return nsd_report_fail(report, NSD_BAD_INPUT, "max_iterations=%d, expected >= 1",
                           o->max_iterations);
  if (!(o->relaxation > 0.0 && o->relaxation < 2.0))
    return nsd_report_fail(report, NSD_BAD_INPUT, "relaxation=%g, expected in (0,2)",
                           o->relaxation);
  if (!(o->time_limit >= 0.0))
    return nsd_report_fail(report, NSD_BAD_INPUT, "time_limit=%g, expected >= 0 (0: none)",
                           o->time_limit);
  return NSD_OK;
}

NsdStatus nsd_solver_begin(const char* name, const NsdSolverOptions* options,
                           NsdSolverOptions* opt, NsdReport* report) {
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
