/**
 * @file fc_anderson.h
 * @brief Private: Anderson acceleration of a fixed-point iteration x <- G(x), here the
 *        sweeps of the Gauss-Seidel family (options->nsgs.anderson). Not installed.
 *
 * D. G. Anderson, "Iterative procedures for nonlinear integral equations", J. ACM 12
 * (1965); the "type II" form of H. F. Walker, P. Ni, "Anderson acceleration for
 * fixed-point iterations", SIAM J. Numer. Anal. 49 (2011). With g_k = G(x_k) and the
 * residual f_k = g_k - x_k, keep the last m differences df_j = f_{j+1} - f_j and
 * dg_j = g_{j+1} - g_j and take
 *
 *     gamma = argmin || f_k - sum_j gamma_j df_j ||,   x_{k+1} = g_k - sum_j gamma_j dg_j
 *
 * (the normal equations of the small least-squares problem, Tikhonov-regularised,
 * by Cholesky). On a linear G this is GMRES on x = G(x); on a sweep of contact
 * problems it is linear between changes of the contacts' status (open, sticking,
 * sliding), and the history is dropped (a restart) whenever ||f|| grows, so that a
 * change of status starts a fresh history instead of extrapolating across it.
 *
 * The iterate is split in two: the part r whose residual is measured (the impulses)
 * and a carried part c combined with the same coefficients (the velocities u = W r + q
 * of the assembled form, v = v_free + M^-1 J^T r of the body form). c is affine in r
 * and the combination is affine (its coefficients sum to one), so the combined c is
 * still the velocity of the combined r. The combined r may leave the cones: the
 * caller projects it and corrects c for the contacts the projection moved.
 *
 * Every sum is thread-count independent (nsd_fcc_dot). A distributed problem adds
 * its parts' sums through @c reduce_sum, so that every part
 * computes the same coefficients.
 */
#ifndef NSDYN_FC_ANDERSON_H
#define NSDYN_FC_ANDERSON_H

#if defined(__GNUC__)
#define NSD_FCA_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_FCA_INTERNAL
#endif

/** Largest memory accepted (the option's range). */
#define NSD_FCA_MAX_MEMORY 64

/** The history of an accelerated iteration. */
typedef struct NsdFcAnderson {
  int memory;        /**< m, differences kept */
  int n;             /**< entries of r */
  int n_carried;     /**< entries of c */
  int threads;       /**< for the vector passes (same bits for any count) */
  int count;         /**< differences held now, <= memory */
  int next;          /**< ring slot the next difference goes to */
  int have_last;     /**< f_last, g_last hold the previous sweep's */
  double last_norm2; /**< ||f_last||^2 */
  double* x_r;       /**< [n] r before the sweep */
  double* f_last;    /**< [n] */
  double* g_last_r;  /**< [n] */
  double* g_last_c;  /**< [n_carried] */
  double* df;        /**< [memory][n] */
  double* dg_r;      /**< [memory][n] */
  double* dg_c;      /**< [memory][n_carried] */
  double* gram;      /**< [memory][memory] df_i . df_j */
  double* work;      /**< [2 memory + memory^2 + 1] sums, right-hand side, factor */
  double* partial;   /**< [NSD_FCC_MAX_CHUNKS][2 memory] chunk sums of the dot products */
  long restarts;     /**< histories dropped (||f|| grew) */
  long steps;        /**< accelerated iterates taken */
} NsdFcAnderson;

/**
 * Set up @p a for @p memory (1..NSD_FCA_MAX_MEMORY) differences of an iterate of @p n
 * entries plus @p n_carried carried ones. 1 on success, 0 when out of memory (then
 * nsd_fca_free is still safe).
 */
NSD_FCA_INTERNAL int nsd_fca_init(NsdFcAnderson* a, int memory, int n, int n_carried, int threads);

/** Free what nsd_fca_init allocated (safe on a zeroed struct). */
NSD_FCA_INTERNAL void nsd_fca_free(NsdFcAnderson* a);

/** Drop the history (the iterate was moved by other means: the next sweep starts afresh). */
NSD_FCA_INTERNAL void nsd_fca_reset(NsdFcAnderson* a);

/** Remember r of x_k, the iterate a sweep is about to change (its residual is r's change). */
NSD_FCA_INTERNAL void nsd_fca_before(NsdFcAnderson* a, const double* r);

/**
 * After the sweep, (r, c) = G(x_k): record the residual and replace (r, c) by the
 * accelerated iterate. Returns 1 when (r, c) was replaced (the caller then projects r
 * on its cones and corrects c), 0 when left as the sweep gave it (the first sweep, a
 * restart, or a singular least-squares system). @p reduce_sum (nullable) adds the
 * sums of the parts of a distributed problem, in place, with @p user.
 */
NSD_FCA_INTERNAL int nsd_fca_after(NsdFcAnderson* a, double* r, double* c,
                                   void (*reduce_sum)(void* user, double* values, int count),
                                   void* user);

#endif
