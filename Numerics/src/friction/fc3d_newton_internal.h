/*
 * Private pieces of the global nonsmooth Newton solvers of fc3d_newton.c (not
 * installed): the one-contact residuals and their generalized Jacobians, so
 * that tests can check them against finite differences.
 *
 * For contact alpha with reaction r (normal first), velocity u = (M r + q)_alpha,
 * friction coefficient mu and scale rho > 0, a local function fills
 *   phi[3]  the residual, zero exactly when (r, u) satisfy Coulomb's law;
 *   a[9], b[9]  (nullable together) 3x3 column-major blocks with
 *   d phi = a dr + b du, an element of the generalized Jacobian.
 * The global Jacobian is then J = diag(a) + diag(b) M.
 */
#ifndef NSDYN_FC3D_NEWTON_INTERNAL_H
#define NSDYN_FC3D_NEWTON_INTERNAL_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Alart-Curnier function (Alart & Curnier 1991), with rho_n = rho_t = rho:
 *   phi_n = r_n - max(0, r_n - rho u_n),
 *   phi_T = r_T - P_D(mu max(0, r_n - rho u_n)) (r_T - rho u_T),
 * P_D(R) the projection on the disc of radius R.
 */
void nsd_fcni_ac_local(const double* r, const double* u, double mu, double rho, double* phi,
                       double* a, double* b);

/**
 * Fischer-Burmeister function of the second-order cone (Fukushima, Luo, Tseng
 * 2001) on the Lorentz-cone images of r in K_mu and of u_hat = u + mu ||u_T|| e_n
 * in its dual: with s = sqrt(mu),
 *   x = (s r_n, r_T / s),  y = rho (u_hat_n / s, s u_hat_T),
 *   phi = x + y - (x o x + y o y)^(1/2)   (Jordan product o, spectral square root).
 * For mu = 0: phi = (fb(r_n, rho u_n), r_T) with the scalar FB function.
 */
void nsd_fcni_fb_local(const double* r, const double* u, double mu, double rho, double* phi,
                       double* a, double* b);

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
