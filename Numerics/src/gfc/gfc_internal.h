/*
 * What the global friction-contact (GFC) solvers share (private to the
 * library): one factorisation of M kept across the velocity recoveries, the
 * reduction to the local problem with that factor, and the two parts of the
 * Siconos error.
 */
#ifndef NSDYN_GFC_INTERNAL_H
#define NSDYN_GFC_INTERNAL_H

#include "nsdyn/nsd_gfc.h"
#include "nsdyn/nsd_matrix.h"

/**
 * A factorisation of M by its connected components: the rows of M split into
 * the components of its graph (a block-diagonal mass matrix: one per body), each
 * factorised alone (dense LAPACK up to GFC_DENSE_COMPONENT rows, else sparse), so
 * that M^-1 h for a sparse h costs only the components that h touches. One
 * component: one factor of the whole M.
 */
typedef struct NsdGfcFactor {
  int n;             /**< size of M */
  int n_components;  /**< components of the graph of M */
  int* component;    /**< [n] component of each row */
  int* start;        /**< [n_components + 1] rows of component k: rows[start[k] .. start[k+1]) */
  int* rows;         /**< [n] rows by component, increasing within one */
  NsdFactor** parts; /**< [n_components] factor of M restricted to each component */
  double* work;      /**< [largest component] */
} NsdGfcFactor;

/** Components of at most this many rows are factorised dense (LAPACK). */
#define GFC_DENSE_COMPONENT 64

/**
 * Factorise M of @p p by components (see ::NsdGfcFactor): Cholesky, and an LU
 * where a component is not positive definite. NSD_OK with *factor set, or
 * NSD_FAILED with a message naming the problem, the size of M, the rows of the
 * component and the pivot that failed (M singular), *factor = NULL.
 */
NsdStatus nsd_gfc_factor_m(const NsdGfc* p, NsdGfcFactor** factor, NsdReport* report);

/** Solve M x = b in place (b[n] holds x on return). NSD_OK or NSD_FAILED. */
NsdStatus nsd_gfc_factor_solve(const NsdGfcFactor* factor, double* b);

/**
 * Solve M x = b restricted to component @p k: @p b and the result are the
 * entries of the rows of the component, in the order of factor->rows.
 */
NsdStatus nsd_gfc_factor_solve_part(const NsdGfcFactor* factor, int k, double* b);

/** Free (NULL allowed). */
void nsd_gfc_factor_destroy(NsdGfcFactor* factor);

/** v = M^-1 (q + H r) with a factor of M (nsd_gfc_factor_m). NSD_OK or NSD_FAILED. */
NsdStatus nsd_gfc_velocity_with(const NsdGfc* p, const NsdGfcFactor* factor, const double* r,
                                double* v);

/**
 * The local problem of nsd_gfc_reduce with a factor of M: W = H^T M^-1 H as a
 * sparse-block matrix of dim x dim blocks (only the blocks that are not zero),
 * built column by column from solves on the components of M that each column
 * of H touches, and q_local = H^T M^-1 q + b.
 * NULL with a message when out of memory.
 */
NsdFc* nsd_gfc_reduce_with(const NsdGfc* p, const NsdGfcFactor* factor, NsdReport* report);

/**
 * The two terms of nsd_gfc_error: @p primal = ||q + H r - M v|| / max(||q||,
 * ||M v||, ||H r||), @p comp the natural-map residual on u = H^T v + b over
 * max(||u||, ||r||) (each unscaled when its scale is <= sqrt(DBL_EPSILON)).
 * Returns primal + comp (+inf when not finite). @p u_out nullable.
 */
double nsd_gfc_error_parts(const NsdGfc* p, const double* r, const double* v, double* u_out,
                           double* primal, double* comp);

#endif
