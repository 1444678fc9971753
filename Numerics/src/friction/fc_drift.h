/**
 * @file fc_drift.h
 * @brief Private: the drift of Gauss-Seidel sweeps along a null direction of W, and the
 *        jump that ends it (options->nsgs.drift). Not installed.
 *
 * Two contacts on one rigid body whose contact points do not move as material points
 * (a capsule or a cylinder rolling on a plane: the points slide over the rounded
 * surface) give W a null direction d_0 (equal and opposite tangential impulses along the
 * line through the points change neither force nor moment) along which q_W has a small
 * component. No answer then has both contacts sticking: one of them slides, its impulse
 * on its cone's boundary. Gauss-Seidel sweeps that start with both impulses inside their
 * cones (a warm start from the last step) converge on everything but that direction,
 * then move the impulses along it by the same amount every sweep, at a speed set by the
 * small component (1e-8 of the impulses a sweep on a rolling capsule), while the error
 * stays where it is: a million sweeps from the answer.
 *
 * The sweeps are a fixed-point map; in that regime one sweep adds the same change d to
 * r, and the map is affine along the way until an impulse meets its cone's boundary. So
 * the iterate the sweeps would reach after t more rounds of checks is r + t d, for the
 * largest t that keeps every impulse in its cone: the first boundary met. The jump
 * takes it there at once, and the sweeps go on from it (the contact on its boundary now
 * slides: they converge in a few sweeps).
 *
 * Detection, at the error checks: once the error is flat (within NSD_FCD_FLAT of the last
 * check's), the watch keeps r before each checked sweep; at the next flat checks it
 * compares the sweep's own change f = G(x) - x (r after the sweep less r before it; in the
 * assembled sweeps, after the sweep and its Anderson step, which comes first there): in the
 * drift every sweep adds the same d, whatever x the sweep started from, so two checks whose
 * changes agree (||f_k - f_k-1|| <= NSD_FCD_LINEAR ||f_k||) under a flat error are a drift.
 * The sweep's own change, not r's change between checks, so that an Anderson step between
 * the sweeps (which moves x) does not hide it: G(x) - x is d for any x whose other parts
 * have settled. Anderson's steps unsettle them a little each time (its changes agree to
 * 2-4 % on the capsule of SceneDriftTest), so an accelerated solve asks the changes to
 * agree to NSD_FCD_LINEAR_ACCELERATED only; the jump then lands that much off the line in
 * the settled parts, which the accelerated sweeps correct in a few sweeps. Plain sweeps
 * are held to NSD_FCD_LINEAR: their changes agree to round-off once the rest has settled,
 * and a jump taken earlier lands where plain sweeps take hundreds of sweeps to recover. A
 * sweep converging slowly at rate rho also changes r in nearly the same way each time, but
 * its error falls by rho: only a flat error with equal changes is a drift. Flat to 1e-5: a
 * column of 50 spheres under plain sweeps creeps with its error falling 1e-3 a sweep and
 * its changes agreeing to 1e-3, and a jump there threw it (SceneDriftTest).
 *
 * The jump is refused when no boundary lies ahead (no finite t) or t < 2 sweeps. After
 * NSD_FCD_TRIES comparisons that give no jump (changes that disagree while the parts of r
 * that do not drift settle, or no boundary ahead) the watch rests NSD_FCD_REST checks: on a
 * long plateau it costs a copy of r and a pass over it at a few checks in twelve. A jump
 * after which the error grows (more than NSD_FCD_WORSE times the error before it, at the
 * next check) turns the jumps off for the rest of the solve; at most NSD_FCD_MAX_JUMPS per
 * solve. The two arrays the watch keeps (r before the sweep, the last change) are allocated
 * at the first flat check only.
 *
 * Over the parts of a distributed problem (NsdFcdReduce given): every decision follows the
 * error, which the parts agree on, and the two sums of a comparison (||f||^2 and the
 * disagreement, with a flag for a part that could not allocate its arrays) are added over
 * the parts, the jump's length is the smallest over the parts (the largest of -t); each
 * part moves its own contacts by t d and the caller exchanges the velocities. A part
 * without contacts takes part in every call.
 */
#ifndef NSDYN_FC_DRIFT_H
#define NSDYN_FC_DRIFT_H

#if defined(__GNUC__)
#define NSD_FCD_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_FCD_INTERNAL
#endif

/** An error at least this factor of the last check's is flat (a drift keeps it or lets it
 *  grow). */
#define NSD_FCD_FLAT 0.99999
/** Two changes agree when they differ by at most this fraction of the last; with Anderson
 *  steps between the sweeps, NSD_FCD_LINEAR_ACCELERATED. */
#define NSD_FCD_LINEAR 1e-3
#define NSD_FCD_LINEAR_ACCELERATED 5e-2
/** A jump is turned down when the error at the next check exceeds this many times the
 *  error before it. */
#define NSD_FCD_WORSE 10.0
/** Comparisons of the changes, while the error stays flat, before the watch rests. */
#define NSD_FCD_TRIES 4
/** Checks the watch rests after NSD_FCD_TRIES comparisons that did not agree. */
#define NSD_FCD_REST 8
/** Jumps per solve, at most. */
#define NSD_FCD_MAX_JUMPS 16

/** The parts' sums and largest values of a distributed problem (nsd_bodies.h's hooks). */
typedef struct NsdFcdReduce {
  void* user;
  void (*sum)(void* user, double* values, int count);
  void (*max)(void* user, double* values, int count);
} NsdFcdReduce;

/** The drift watch of one solve. */
typedef struct NsdFcDrift {
  int dim;           /**< entries per contact (2 or 3) */
  double linear;     /**< the agreement asked of two changes */
  int nc;            /**< contacts */
  int armed;         /**< the last check was flat: r kept before the checked sweeps */
  int have_before;   /**< before holds r at the start of this check's sweep */
  int have_step;     /**< step holds the change of the last checked sweep */
  int tries;         /**< comparisons that did not agree since arming */
  int rest;          /**< checks to wait before arming again */
  int off;           /**< no more jumps */
  int fault;         /**< this part could not allocate its arrays (the parts then agree off) */
  int jumped;        /**< a jump since the last check */
  int jumps;         /**< jumps made */
  double last_error; /**< the error at the last check (< 0: none yet) */
  double jump_error; /**< the error before the last jump */
  double* before;    /**< [dim nc] r before the checked sweep */
  double* step;      /**< [dim nc] the last checked sweep's change of r */
} NsdFcDrift;

/** Set up @p s for @p nc contacts of @p dim entries (this part's: 0 allowed over parts);
 *  @p enabled 0 watches nothing; @p accelerated: Anderson steps between the sweeps
 *  (NSD_FCD_LINEAR_ACCELERATED). */
NSD_FCD_INTERNAL void nsd_fcd_init(NsdFcDrift* s, int dim, int nc, int enabled, int accelerated);

/** Free what the watch allocated (safe on a zeroed struct). */
NSD_FCD_INTERNAL void nsd_fcd_free(NsdFcDrift* s);

/** Before a sweep whose answer will be checked: keeps r when the watch is armed. */
NSD_FCD_INTERNAL void nsd_fcd_before(NsdFcDrift* s, const double* r);

/**
 * At an error check above the tolerance, with the sweep's r and its @p error (mu of
 * contact a at mu[index ? index[a] : a]; @p parts nullable: alone): the length t > 0 of
 * the jump r += t d when r drifts, with d in *@p d (the watch's array, valid until the
 * next call); 0 otherwise.
 * The caller applies the jump (r and the velocities it carries, each contact's change
 * t d_a), projects r on its cones and calls nsd_fcd_jumped. t counts sweeps.
 */
NSD_FCD_INTERNAL double nsd_fcd_check(NsdFcDrift* s, const double* r, const double* mu,
                                      const int* index, double error, const NsdFcdReduce* parts,
                                      const double** d);

/** The caller applied the jump nsd_fcd_check returned. */
NSD_FCD_INTERNAL void nsd_fcd_jumped(NsdFcDrift* s);

/**
 * The largest t <= @p t_max with ra + s da in the cone of @p mu for every s in [0, t]
 * (ra in it), for one contact of @p dim entries; @p t_max when no boundary lies ahead
 * within it. Exposed for the tests.
 */
NSD_FCD_INTERNAL double nsd_fcd_cone_reach(int dim, double mu, const double* ra, const double* da,
                                           double t_max);

#endif
