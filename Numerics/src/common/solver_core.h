/*
 * What every solver of Numerics shares, in one place (private to the library):
 * the solver prologue (report started, options defaulted, the common options
 * checked) and the time-limit check.
 */
#ifndef NSDYN_SOLVER_CORE_H
#define NSDYN_SOLVER_CORE_H

#include "nsdyn/nsd_common.h"

/**
 * The checks of the options every solver makes, whatever it uses: every field
 * of the option table within its range (options.c: tolerance finite and > 0,
 * max_iterations >= 1, relaxation in (0, 2), time_limit >= 0, ...). NSD_OK, or
 * NSD_BAD_INPUT with @p report (nullable) failed by a message naming the first
 * bad option ("tolerance=-1, expected finite > 0").
 */
NsdStatus nsd_check_options(const NsdSolverOptions* options, NsdReport* report);

/**
 * The prologue of every solver: start @p report (nullable) for @p name, copy
 * @p options into @p opt (NULL: the defaults of nsd_solver_options_default)
 * and check them (nsd_check_options). Returns NSD_OK or NSD_BAD_INPUT.
 */
NsdStatus nsd_solver_begin(const char* name, const NsdSolverOptions* options, NsdSolverOptions* opt,
                           NsdReport* report);

/**
 * 1 when @p limit (seconds, options->time_limit) is > 0 and that much wall time
 * has passed since nsd_report_start(@p report); 0 otherwise or when @p report is NULL.
 */
int nsd_time_up(const NsdReport* report, double limit);

#endif
