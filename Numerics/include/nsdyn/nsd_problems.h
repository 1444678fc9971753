/**
 * @file nsd_problems.h
 * @brief Problem types: LCP, MLCP (mixed and box-constrained), local friction
 *        contact (2D/3D) and global friction contact, with create / destroy /
 *        check and the Siconos error measures.
 *
 * Ownership: a problem owns its matrices and vectors. The create functions
 * take ownership of the ::NsdMatrix arguments (also on failure, when they are
 * destroyed) and copy the vectors.
 */
#ifndef NSDYN_NSD_PROBLEMS_H
#define NSDYN_NSD_PROBLEMS_H

#include "nsd_matrix.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Kinds of problems the library reads, writes and solves. */
typedef enum NsdProblemKind {
  NSD_KIND_UNKNOWN = 0,
  NSD_KIND_LCP,
  NSD_KIND_MLCP,
  NSD_KIND_FC2D,
  NSD_KIND_FC3D,
  NSD_KIND_GFC2D,
  NSD_KIND_GFC3D,
  NSD_KIND_GMP,   /**< generic mechanical problem (nsd_gmp.h) */
  NSD_KIND_RFC3D, /**< rolling friction contact, 5 unknowns per contact (nsd_rfc.h) */
  NSD_KIND_RFC2D  /**< rolling friction contact in 2D, 3 unknowns per contact (nsd_rfc.h) */
} NsdProblemKind;

/** "lcp", "mlcp", "fc2d", "fc3d", "gfc2d", "gfc3d", "gmp", "rfc3d", "rfc2d" or "unknown". */
NSD_API const char* nsd_kind_name(NsdProblemKind kind);

/** Kind from its name (as above), NSD_KIND_UNKNOWN if none. */
NSD_API NsdProblemKind nsd_kind_from_name(const char* name);

/* ---- LCP ------------------------------------------------------------------ */

/** LCP: find z with w = M z + q, 0 <= z _|_ w >= 0. */
typedef struct NsdLcp {
  int n;        /**< size */
  NsdMatrix* M; /**< n x n, any storage */
  double* q;    /**< [n] */
} NsdLcp;

/** New LCP taking ownership of @p M and copying q[M->rows]. NULL on no memory. */
NSD_API NsdLcp* nsd_lcp_create(NsdMatrix* M, const double* q);
NSD_API void nsd_lcp_destroy(NsdLcp* problem);

/** Check sizes and finiteness; 1 if valid, else 0 with NSD_BAD_INPUT in @p report. */
NSD_API int nsd_lcp_check(const NsdLcp* problem, NsdReport* report);

/**
 * Siconos LCP error: with w = M z + q (recomputed),
 * ||z - max(0, z - w)|| / ||q|| (or unscaled if ||q|| <= DBL_EPSILON).
 * @p w_out (nullable) receives w.
 */
NSD_API double nsd_lcp_error(const NsdLcp* problem, const double* z, double* w_out);

/* ---- MLCP ----------------------------------------------------------------- */

/**
 * Mixed LCP, in the box-constrained form over all rows: w = M z + q and for
 * each row i with bounds lb_i <= ub_i (infinite allowed)
 *   z_i = lb_i => w_i >= 0,  z_i = ub_i => w_i <= 0,  lb_i < z_i < ub_i => w_i = 0.
 * Equality rows have (lb, ub) = (-inf, +inf), complementarity rows (0, +inf).
 * n_eq and n_comp count rows of those two kinds (the rest are general boxes).
 * is_comp[i] is 1 for rows with (0, +inf), 0 for free rows (-inf, +inf), -1 for other boxes.
 */
typedef struct NsdMlcp {
  int size;     /**< n_eq + n_comp + boxes, = M rows */
  int n_eq;     /**< number of free (equality) rows */
  int n_comp;   /**< number of complementarity rows */
  NsdMatrix* M; /**< size x size */
  double* q;    /**< [size] */
  double* lb;   /**< [size] lower bounds (-INFINITY allowed) */
  double* ub;   /**< [size] upper bounds (+INFINITY allowed) */
  int* is_comp; /**< [size] row kind, see above */
} NsdMlcp;

/**
 * New MLCP with n equality rows first then m complementarity rows:
 * M is (n+m) x (n+m) = [[A, C], [D, B]], q = (a; b). Takes @p M.
 */
NSD_API NsdMlcp* nsd_mlcp_create(int n, int m, NsdMatrix* M, const double* q);

/** New MLCP with a row kind per row: is_comp[i] = 1 complementarity, 0 equality. Takes @p M. */
NSD_API NsdMlcp* nsd_mlcp_create_mixed(NsdMatrix* M, const double* q, const int* is_comp);

/** New box-constrained MLCP (lb[i] <= ub[i], infinities allowed). Takes @p M. */
NSD_API NsdMlcp* nsd_mlcp_create_box(NsdMatrix* M, const double* q, const double* lb,
                                     const double* ub);

NSD_API void nsd_mlcp_destroy(NsdMlcp* problem);

/** Check sizes, finite M and q, lb <= ub, no NaN bounds. */
NSD_API int nsd_mlcp_check(const NsdMlcp* problem, NsdReport* report);

/**
 * MLCP error: with w = M z + q, e_i = z_i - mid(lb_i, z_i - w_i, ub_i)
 * (which is w_i for free rows and the LCP term for complementarity rows);
 * ||e|| / ||q|| (unscaled if ||q|| <= DBL_EPSILON). @p w_out nullable.
 */
NSD_API double nsd_mlcp_error(const NsdMlcp* problem, const double* z, double* w_out);

/* ---- local friction contact ------------------------------------------------ */

/**
 * Local friction contact problem (2D or 3D): u = M r + q, for each contact
 * alpha (normal component first) K*_alpha ∋ u_alpha + (mu ||u_T||, 0, 0) _|_
 * r_alpha ∈ K_alpha = {||r_T|| <= mu r_n}.
 */
typedef struct NsdFc {
  int dim;      /**< 2 or 3 */
  int nc;       /**< number of contacts */
  NsdMatrix* M; /**< dim*nc square (Delassus) */
  double* q;    /**< [dim*nc] */
  double* mu;   /**< [nc] friction coefficients, >= 0 */
} NsdFc;

/** New FC problem; takes @p M, copies q[dim*nc] and mu[nc]. */
NSD_API NsdFc* nsd_fc_create(int dim, int nc, NsdMatrix* M, const double* q, const double* mu);
NSD_API void nsd_fc_destroy(NsdFc* problem);

/** Check dim, sizes, finite values, mu >= 0. */
NSD_API int nsd_fc_check(const NsdFc* problem, NsdReport* report);

/** Projection of y (dim entries, normal first) on the cone of coefficient mu, in place. */
NSD_API void nsd_fc_project_on_cone(int dim, double mu, double* y);

/**
 * Siconos FC2D/FC3D error (natural map with De Saxcé's change of velocity):
 * u recomputed as M r + q, sqrt(sum ||r_a - Pi(r_a - u_a - mu ||u_Ta|| e_n)||^2)
 * divided by max(||q||, ||r||, ||u||) when that exceeds DBL_EPSILON.
 * @p u_out nullable receives u.
 */
NSD_API double nsd_fc_error(const NsdFc* problem, const double* r, double* u_out);

/* ---- global friction contact ----------------------------------------------- */

/** Global friction contact: M v = q + H r, u = H^T v + b, (u, r) as in ::NsdFc. */
typedef struct NsdGfc {
  int dim;      /**< 2 or 3 */
  int nc;       /**< contacts */
  int n;        /**< degrees of freedom (M is n x n) */
  NsdMatrix* M; /**< n x n */
  NsdMatrix* H; /**< n x dim*nc */
  double* q;    /**< [n] */
  double* b;    /**< [dim*nc] */
  double* mu;   /**< [nc] */
} NsdGfc;

/** New global FC problem; takes @p M and @p H, copies q[n], b[dim*nc], mu[nc]. */
NSD_API NsdGfc* nsd_gfc_create(int dim, int nc, NsdMatrix* M, NsdMatrix* H, const double* q,
                               const double* b, const double* mu);
NSD_API void nsd_gfc_destroy(NsdGfc* problem);
NSD_API int nsd_gfc_check(const NsdGfc* problem, NsdReport* report);

/* ---- any problem ------------------------------------------------------------ */

/** A problem of any kind, as read from a file. Exactly one pointer is set. */
typedef struct NsdProblem {
  NsdProblemKind kind;
  NsdLcp* lcp;
  NsdMlcp* mlcp;
  NsdFc* fc;          /**< for NSD_KIND_FC2D and NSD_KIND_FC3D */
  NsdGfc* gfc;        /**< for NSD_KIND_GFC2D and NSD_KIND_GFC3D */
  struct NsdGmp* gmp; /**< for NSD_KIND_GMP (nsd_gmp.h) */
  struct NsdRfc* rfc; /**< for NSD_KIND_RFC3D and NSD_KIND_RFC2D (nsd_rfc.h) */
} NsdProblem;

/** Free what @p problem holds and zero it (the struct itself is the caller's). */
NSD_API void nsd_problem_clear(NsdProblem* problem);

/** Unknowns of the problem (LCP/MLCP size, dim*nc for friction and rolling), 0 if none. */
NSD_API int nsd_problem_size(const NsdProblem* problem);

/** Contacts (nc) for friction and rolling friction problems, 0 otherwise. */
NSD_API int nsd_problem_contacts(const NsdProblem* problem);

#ifdef __cplusplus
}
#endif
#endif
