/* Solve reports and small shared utilities. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "nsdyn/nsd_common.h"

const char* nsd_status_name(NsdStatus status) {
  switch (status) {
    case NSD_OK:
      return "converged";
    case NSD_MAX_ITERATIONS:
      return "max_iterations";
    case NSD_FAILED:
      return "failed";
    case NSD_BAD_INPUT:
      return "bad_input";
  }
  return "failed";
}

double nsd_wall_time(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void nsd_report_start(NsdReport* r, const char* solver) {
  if (!r) return;
  double* history = r->history;
  int capacity = r->history ? r->history_capacity : 0;
  memset(r, 0, sizeof *r);
  r->history = history;
  r->history_capacity = capacity;
  r->status = NSD_OK;
  r->residual = INFINITY;
  if (solver) snprintf(r->solver, sizeof r->solver, "%s", solver);
  r->start_time = nsd_wall_time();
}

NsdStatus nsd_report_fail(NsdReport* r, NsdStatus status, const char* format, ...) {
  if (!r) return status;
  r->status = status;
  va_list args;
  va_start(args, format);
  vsnprintf(r->message, sizeof r->message, format, args);
  va_end(args);
  if (r->start_time > 0) r->seconds = nsd_wall_time() - r->start_time;
  return status;
}

void nsd_report_record(NsdReport* r, double residual) {
  if (!r || !r->history || r->history_length >= r->history_capacity) return;
  r->history[r->history_length++] = residual;
}

NsdStatus nsd_report_finish(NsdReport* r, double tolerance) {
  if (!r) return NSD_OK;
  if (r->start_time > 0) r->seconds = nsd_wall_time() - r->start_time;
  if (r->residual <= tolerance) {
    r->status = NSD_OK;
    r->message[0] = '\0';
  } else if (r->status == NSD_OK) {
    r->status = NSD_MAX_ITERATIONS;
    if (!r->message[0])
      snprintf(r->message, sizeof r->message, "residual %.3e > tolerance %.3e after %d iterations",
               r->residual, tolerance, r->iterations);
  }
  return r->status;
}

int nsd_all_finite(const double* v, size_t n) {
  if (n == 0) return 1;
  if (!v) return 0;
  for (size_t i = 0; i < n; ++i)
    if (!isfinite(v[i])) return 0;
  return 1;
}
