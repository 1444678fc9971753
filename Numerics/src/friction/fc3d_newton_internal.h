/*
 * Private pieces of the global nonsmooth Newton solvers of fc3d_newton.c (not
 * installed), for the tests. The one-contact maps and their Jacobians are in
 * fc_maps.h (shared with the Gauss-Seidel local solver).
 */
#ifndef NSDYN_FC3D_NEWTON_INTERNAL_H
#define NSDYN_FC3D_NEWTON_INTERNAL_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Sizes of the linear algebra of one Newton iteration of nsd_fc3d_newton_ac
 * (fb = 0) or nsd_fc3d_newton_fb (fb = 1) at r (NULL: r = 0): the stored
 * entries of M, of the Jacobian J (the 3x3 block pattern of M plus the
 * diagonal) and of its sparse LU factors (nnz(L) + nnz(U) - n, the ordering
 * and pivoting of the solver). Any output may be NULL. Returns 0 (NSD_OK)
 * on success, else the status of the failing step.
 */
struct NsdFc;
int nsd_fcni_factor_stats(const struct NsdFc* problem, int fb, const double* r, long long* nnz_m,
                          long long* nnz_jac, long long* nnz_factor);

#ifdef __cplusplus
}
#endif
#endif
