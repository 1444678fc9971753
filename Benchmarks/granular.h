/**
 * @file granular.h
 * @brief Large FC3D problems for benchmarks: spheres of random radii stacked
 *        under gravity on a lattice, every sphere touching its lattice
 *        neighbours and (bottom layer) the floor. Not part of the library; used
 *        by make_granular_problem, bench_large and the granular tests.
 *
 * Geometry. An nx x ny x layers lattice of spheres, sphere (i, j, k) placed,
 * in the order k, j, i, so that it touches exactly the sphere behind it in x
 * (i - 1), the one behind it in y (j - 1) and the one below it (k - 1), or
 * the floor z = 0 when k = 0; at the borders i = 0 and j = 0 the missing
 * neighbour is replaced by the plane x = 0 or y = 0 (no wall, no contact).
 * The three conditions are solved by Newton's method from the lattice guess.
 * Radii: radius (1 - radius_spread - radius_noise), plus or minus (alternating
 * in x, y and z) an amplitude drawn uniformly in [0, radius_spread radius] once
 * per 2 x 2 block of a layer, plus an independent uniform term in
 * [-radius_noise, radius_noise] radius; so radii lie in
 * [(1 - 2 spread - 2 noise) radius, radius]. The alternating terms cancel in
 * pairs along every row and column: chains of touching spheres keep nearly
 * equal lengths and the lattice does not shear as it grows (with independent
 * radii it would, as a random walk). After placement every radius is shrunk by
 * a random amount in [0, clearance], which gives the contacts small positive
 * gaps.
 *
 * Contacts. One per pair of lattice neighbours (x, y, z) and one per bottom
 * sphere and the floor (B = floor); A is the sphere placed later. The normal n points from B to A
 * along the centre line
 * (+z for the floor); t1, t2 complete an orthonormal frame. With the
 * contact point p (middle of the gap) and F = [n t1 t2], the local velocity
 * is u = F^T (v_A + w_A x (p - c_A) - v_B - w_B x (p - c_B)), so the 3 x 6
 * block of J for body A is [F^T, G_A^T] with columns of G_A the (p - c_A) x e,
 * e in (n, t1, t2), and the block of B is minus the same with p - c_B.
 *
 * Problem. M^-1 is block-diagonal, 6 x 6 per body (1/m I3 and the inverse of
 * the solid-sphere inertia 2/5 m r^2 I3). Free velocities are v0 + h g (g
 * along -z) with random v0; q = J v_free + (gap / h, 0, 0) per contact;
 * mu the same for every contact. The FC3D problem is u = N r + q with the
 * Delassus matrix N = J M^-1 J^T (assembled by granular_delassus, block by
 * block over pairs of contacts sharing a body).
 */
#ifndef NSDYN_BENCHMARKS_GRANULAR_H
#define NSDYN_BENCHMARKS_GRANULAR_H

#include <nsdyn/numerics.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Parameters of a granular problem; fill with granular_params_default(). */
typedef struct GranularParams {
  int contacts;            /**< target number of contacts (>= 1); default 1000 */
  unsigned long long seed; /**< random seed (radii, clearances, velocities); default 1 */
  int layers;              /**< layers of spheres (fewer if contacts is small); default 4 */
  double radius;           /**< largest radius, m; default 0.05 */
  double radius_spread;    /**< alternating radius amplitude / radius, in [0, 0.2]; default 0.05 */
  double radius_noise;     /**< independent radius term / radius, in [0, 0.02]; default 0.005 */
  double density;          /**< kg/m^3; default 2500 (glass) */
  double mu;               /**< friction coefficient of every contact; default 0.3 */
  double time_step;        /**< h, s; default 1e-3 */
  double gravity;          /**< m/s^2, along -z; default 9.81 */
  double velocity_noise;   /**< random initial velocities: linear components uniform in
                                [-a, a] m/s, angular in [-a/r, a/r] rad/s; default
                                0.5 * gravity * time_step */
  double clearance;        /**< radii shrunk by uniform [0, clearance] m after packing,
                                giving gaps, below 0.1 radius; default gravity * time_step^2 */
} GranularParams;

/** A generated scene and its contact problem. All arrays owned by the scene. */
typedef struct GranularScene {
  int nx, ny, layers;  /**< lattice: nx * ny spheres per layer */
  int n_bodies;        /**< nx * ny * layers; body b = i + nx (j + ny k) */
  int n_contacts;      /**< nc */
  double* centre;      /**< [3 n_bodies] */
  double* radius;      /**< [n_bodies], after the clearance shrink */
  double* mass;        /**< [n_bodies] */
  int* body_a;         /**< [nc] body the normal points to */
  int* body_b;         /**< [nc] other body, -1 for the floor */
  double* frame;       /**< [9 nc] n, t1, t2 of each contact */
  double* point;       /**< [3 nc] contact points */
  double* gap;         /**< [nc] >= 0, m */
  double* v_free;      /**< [6 n_bodies] linear then angular velocity of each body */
  double* q;           /**< [3 nc] */
  double* mu;          /**< [nc] */
  NsdMatrix* J;        /**< 3 nc x 6 n_bodies, sparse-block with 3 x 6 blocks */
  NsdMatrix* Minv;     /**< 6 n_bodies square, sparse-block, 6 x 6 diagonal blocks */
  double max_gap;      /**< largest contact gap, m */
  double max_tilt_deg; /**< largest angle between a contact normal and its lattice axis */
} GranularScene;

/** Fill @p params with the documented defaults. */
void granular_params_default(GranularParams* params);

/**
 * Lattice for about @p contacts contacts with at most @p max_layers layers:
 * writes *layers, *nx, *ny and returns the exact number of contacts it gives.
 */
int granular_grid(int contacts, int max_layers, int* layers, int* nx, int* ny);

/** Contacts of a layers x nx x ny lattice (floor or below, x and y pairs). */
int granular_contact_count(int layers, int nx, int ny);

/**
 * Build the scene: geometry, contacts, J, M^-1, v_free, q, mu.
 * @return NSD_OK with *scene set (free with granular_destroy), NSD_BAD_INPUT
 * on bad parameters, NSD_FAILED when a placement fails or memory runs out;
 * the reason is in @p report (nullable).
 */
NsdStatus granular_build(const GranularParams* params, GranularScene** scene, NsdReport* report);

/** Free the scene and everything it owns. NULL allowed. */
void granular_destroy(GranularScene* scene);

/**
 * Assemble N = J M^-1 J^T as a new sparse-block matrix with 3 x 3 blocks, one
 * block per pair of contacts sharing a body. NULL on no memory.
 */
NsdMatrix* granular_delassus(const GranularScene* scene);

/** New FC3D problem (N assembled by granular_delassus, q, mu). NULL on no memory. */
NsdFc* granular_fc(const GranularScene* scene);

#ifdef __cplusplus
}
#endif
#endif
