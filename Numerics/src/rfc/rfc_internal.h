/* Private helpers of the rolling friction contact code (Numerics/src/rfc): the
 * per-contact pieces of the Siconos error and the solver prologue. Not installed. */
#ifndef NSDYN_RFC_INTERNAL_H
#define NSDYN_RFC_INTERNAL_H

#include "nsdyn/nsd_rfc.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/** Largest unknowns per contact (3D). */
#define NSD_RFC_MAX_DIM 5

/** Name of the problem's kind in messages: "RFC3D" or "RFC2D". */
static inline const char* nsd_rfc_what(int dim) {
  return dim == 3 ? "RFC2D" : "RFC3D";
}

/** De Saxcé's shift mu ||u_T|| + mu_r ||u_R|| of one contact's velocity u[dim]. */
double nsd_rfc_shift(int dim, double mu, double mu_r, const double* u);

/** ||r - P_K(r - (u + shift e_N))||^2 of one contact (the summand of the Siconos error). */
double nsd_rfc_contact_error2(int dim, double mu, double mu_r, const double* r, const double* u);

/** The Siconos error of r given u = M r + q already computed (see nsd_rfc_error). */
double nsd_rfc_error_from(const NsdRfc* problem, const double* r, const double* u);

/**
 * Prologue of the RFC solvers: start @p report under @p name, copy the options
 * (defaults when NULL) into @p opt and check them, check the problem and the
 * pointers, then r = 0 unless warm starting (a warm start must be finite).
 */
NsdStatus nsd_rfc_begin(const char* name, const NsdRfc* problem, double* r, double* u,
                        const NsdSolverOptions* options, NsdSolverOptions* opt, NsdReport* report);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
