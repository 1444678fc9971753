/*
 * Private pieces of the generic mechanical problem (Numerics/src/gmp, not
 * installed): W by rows, the dense diagonal blocks, the solver prologue and
 * the Siconos error from a velocity already computed.
 */
#ifndef NSDYN_GMP_INTERNAL_H
#define NSDYN_GMP_INTERNAL_H

#include <stddef.h>

#include "nsdyn/nsd_gmp.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/** What the solvers read of a problem: W by rows (CSR) and its diagonal blocks. */
typedef struct NsdGmpData {
  const NsdGmp* p;
  int* row_ptr;    /* [n+1] */
  int* col;        /* [nnz] */
  double* val;     /* [nnz] */
  double* diag;    /* the dense column-major W_bb, one after the other */
  size_t* diag_at; /* [n_blocks] offset of W_bb in diag */
  int max_size;    /* largest block */
} NsdGmpData;

/** Fill @p d for the valid problem @p p; NSD_FAILED (out of memory) with a message. */
NsdStatus nsd_gmpi_data_init(NsdGmpData* d, const NsdGmp* p, NsdReport* report);
void nsd_gmpi_data_free(NsdGmpData* d);

/** Row i of W times x. */
double nsd_gmpi_row_dot(const NsdGmpData* d, int i, const double* x);

/** u = W r + q. */
void nsd_gmpi_velocity(const NsdGmpData* d, const double* r, double* u);

/** The Siconos GMP error (nsd_gmp.h) of r given u = W r + q. */
double nsd_gmpi_error(const NsdGmpData* d, const double* r, const double* u);

/**
 * Prologue of the GMP solvers: report started under @p name, options copied
 * (defaults when NULL) and checked, the problem checked, r and u non-NULL, r
 * finite when warm starting else set to 0. NSD_OK or NSD_BAD_INPUT.
 */
NsdStatus nsd_gmpi_begin(const char* name, const NsdGmp* p, double* r, double* u,
                         const NsdSolverOptions* options, NsdSolverOptions* opt, NsdReport* report);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
