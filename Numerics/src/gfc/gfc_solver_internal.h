/*
 * What the global friction-contact ADMM and interior-point solvers share
 * (gfc_linear.c; private to the library): the input checks of a GFC solve and
 * the sparse system M + alpha H D H^T (+ a relative shift of the diagonal; D block diagonal, one
 * dim x dim block per contact), assembled in CSC on a pattern fixed at the first call, analysed
 * once and refactorised numerically when alpha or D change.
 */
#ifndef NSDYN_GFC_SOLVER_INTERNAL_H
#define NSDYN_GFC_SOLVER_INTERNAL_H

#include "nsdyn/nsd_gfc.h"
#include "nsdyn/nsd_matrix.h"

#if defined(__GNUC__)
#define NSD_GFC_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_GFC_INTERNAL
#endif

/**
 * The checks of every GFC solve, before any work: the problem (nsd_gfc_check),
 * r and u non-NULL when there are contacts, a warm-start r finite. @p solver
 * names the solver in the messages. NSD_OK or NSD_BAD_INPUT (report failed).
 */
NSD_GFC_INTERNAL NsdStatus nsd_gfc_solver_check(const NsdGfc* p, const double* r, const double* u,
                                                const NsdSolverOptions* o, const char* solver,
                                                NsdReport* report);

/**
 * The start of the ADMM and IPM solves: the report to fill (@p report, or @p local with no
 * history when the caller passed none), the options of solver @p name (nsd_solver_begin) into
 * @p opts, then nsd_gfc_solver_check (@p solver names the solver in the messages). The report
 * to fill, or NULL when the options or the input are rejected (NSD_BAD_INPUT in that report).
 */
NSD_GFC_INTERNAL NsdReport* nsd_gfc_solver_begin(const char* name, const char* solver,
                                                 const NsdGfc* p, const double* r, const double* u,
                                                 const NsdSolverOptions* options,
                                                 NsdSolverOptions* opts, NsdReport* report,
                                                 NsdReport* local);

/** The system M + alpha H D H^T of a GFC problem and its factor. */
typedef struct NsdGfcSystem {
  int n, m, dim, nc;
  NsdMatrix* M;            /* CSC copy of M */
  NsdMatrix* H;            /* CSC copy of H */
  struct cs_di_sparse* Ht; /* H^T, CSC */
  struct cs_di_sparse* D;  /* m x m block diagonal, every block entry stored */
  struct cs_di_sparse* I;  /* n x n identity */
  NsdFactorKind kind;      /* Cholesky while M is symmetric and the factor succeeds, else LU */
  NsdFactor* factor;
  int lu_fallback; /* 1 once a failed Cholesky made the system use LU */
} NsdGfcSystem;

/** Set up @p s for @p p (CSC copies, H^T, D = I). NSD_OK or NSD_FAILED (no memory). */
NSD_GFC_INTERNAL NsdStatus nsd_gfc_system_init(NsdGfcSystem* s, const NsdGfc* p, NsdReport* report);

/**
 * Factorise A + shift max_j |A_jj| I, A = M + alpha H D H^T, with D's blocks from @p blocks (nc
 * column-major dim x dim blocks; symmetric unless the caller set kind to LU)
 * or the identity (@p blocks NULL). The pattern is analysed on the first call
 * only. A failed Cholesky is retried once by LU. NSD_OK, or NSD_FAILED with
 * the factorisation's message in @p report.
 */
NSD_GFC_INTERNAL NsdStatus nsd_gfc_system_factor(NsdGfcSystem* s, double alpha,
                                                 const double* blocks, double shift,
                                                 NsdReport* report);

/** x = (M + alpha H D H^T)^-1 x with the last factor. NSD_OK or NSD_FAILED. */
NSD_GFC_INTERNAL NsdStatus nsd_gfc_system_solve(const NsdGfcSystem* s, double* x);

/** Free what @p s holds (a zeroed or half-set @p s is fine). */
NSD_GFC_INTERNAL void nsd_gfc_system_free(NsdGfcSystem* s);

/**
 * A workspace of @p doubles doubles (malloc) and the system of @p p set up in @p s
 * (nsd_gfc_system_init). The workspace, or NULL with nothing left allocated and
 * "SOLVER: out of memory (n = N, m = M)" in @p report (NSD_FAILED).
 */
NSD_GFC_INTERNAL double* nsd_gfc_solver_workspace(const NsdGfc* p, size_t doubles, NsdGfcSystem* s,
                                                  const char* solver, NsdReport* report);

/**
 * The error of @p r alone, as nsd_problem_error sees it: v_r = M^-1 (q + H r)
 * (nsd_gfc_velocity, into @p v_r[n]), then nsd_gfc_error(r, v_r). +inf, with
 * *m_singular set, when M cannot be factorised (callers then stop asking).
 */
NSD_GFC_INTERNAL double nsd_gfc_reaction_check(const NsdGfc* p, const double* r, double* v_r,
                                               int* m_singular);

/** Rounds of a tighter internal tolerance when the error of r alone is above the
 *  tolerance while the error of (r, v) is below (ADMM and IPM). */
#define NSD_GFC_POLISH_ROUNDS 4

/** Euclidean norm of x[n]. */
NSD_GFC_INTERNAL double nsd_gfc_norm(const double* x, int n);

#endif
