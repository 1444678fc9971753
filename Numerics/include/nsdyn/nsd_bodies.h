/**
 * @file nsd_bodies.h
 * @brief Friction contact between rigid bodies with W = J M^-1 J^T never stored:
 *        contacts given by their frame and lever arms, bodies by their inverse
 *        mass and inverse inertia. The operator (J, M^-1, J^T applied on the fly,
 *        for APGD), the local 3x3 blocks, the assembled sparse-block W (for the
 *        direct and Newton solvers) and a Gauss-Seidel in body-velocity form.
 *
 * Notation. Body b has the velocity v_b = (linear, angular) in the world frame
 * (6 doubles, linear first). Contact c joins body_a[c] and body_b[c] (-1: a body
 * without velocity, e.g. static); its frame rows C_c = [n; t1; t2] (world,
 * row-major 3x3, n from B to A); its lever arms a_c, b_c (contact point minus
 * the body's centre of mass, world). Its local velocity is
 *
 *   u_c = C_c (v_A + w_A x a_c - v_B - w_B x b_c) + q_c,
 *
 * so J_c = C_c [I, -skew(a_c)] on A and -C_c [I, -skew(b_c)] on B, and the
 * impulse r_c (local, normal first) acts on A by (F, a_c x F), on B by
 * (-F, -(b_c x F)) with F = C_c^T r_c. M^-1 of body b: inv_mass[b] I (linear)
 * and the world inverse inertia inv_inertia[9b..9b+8] (row-major, symmetric).
 * The friction-contact problem is the FC3D problem u = W r + q, W = J M^-1 J^T,
 * with the same Siconos error (nsd_fc_error of the assembled problem, its q
 * being J v_free + q).
 */
#ifndef NSDYN_NSD_BODIES_H
#define NSDYN_NSD_BODIES_H

#include "nsd_fc.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The contacts and bodies of a rigid-body friction-contact problem (arrays borrowed).
 * Zero it before filling it (`NsdRigidContacts p = {0};` in C, `NsdRigidContacts p{};` in
 * C++): every field after mu is optional, and zero (NULL) means "none" for each.
 */
typedef struct NsdRigidContacts {
  int n_contacts;
  int n_bodies;
  const int* body_a;         /**< n_contacts: body index, or -1 */
  const int* body_b;         /**< n_contacts: body index, or -1 */
  const double* frame;       /**< 9 per contact: rows n, t1, t2 (world) */
  const double* arm_a;       /**< 3 per contact: point on A - centre of A (world) */
  const double* arm_b;       /**< 3 per contact: point on B - centre of B (world) */
  const double* inv_mass;    /**< 1 per body (>= 0) */
  const double* inv_inertia; /**< 9 per body: world inverse inertia, row-major */
  const double* q;           /**< 3 per contact: local velocity offset (nullable: 0) */
  const double* mu;          /**< 1 per contact: friction coefficient (>= 0) */
  /**
   * Nullable scaling of a body's inverse mass and inertia in the Gauss-Seidel
   * sweeps only (the mass splitting of a body shared by several parts of a
   * distributed problem); 1 per body, > 0. NULL: 1. The sweeps then use
   * S M^-1 throughout: in the local blocks W_cc = J_c S M^-1 J_c^T, in the
   * velocity updates and in the warm start.
   */
  const double* sweep_scale;
  /**
   * Distribution hooks of nsd_fc3d_nsgs_bodies (all nullable: one whole
   * problem; the operator and the assembly ignore them). after_sweep(user, v)
   * is called after the warm start (when options->warm_start) and after each
   * sweep with the body velocities (6 per body), which it may change (ghost
   * bodies refreshed from their owners, corrections summed); reduce_sum
   * replaces values[0..count) by their sum over all parts, every part calling
   * it at the same points: once at the start (count 4: rejected-input and
   * failure counts, contacts, ||q_W||^2), then once per error check (count 4:
   * the squared natural-map terms, ||r||^2, ||u||^2, and the parts past the
   * time limit), so that all parts take the same decisions. A part may hold no
   * contact.
   */
  void* user;
  void (*after_sweep)(void* user, double* v);
  void (*reduce_sum)(void* user, double* values, int count);
  /**
   * Nullable: the problem's contacts picked in place from longer contact arrays
   * (e.g. the active contacts of a scene's list, without a compact copy). When
   * set, problem contact c (0 <= c < n_contacts) reads body_a, body_b, frame,
   * arm_a, arm_b and mu at entry index[c] (in [0, n_entries)) of those arrays;
   * q, and the r and u of the solvers and products, stay 3 per problem contact.
   * NULL: entry c.
   */
  const int* index;
  int n_entries; /**< with index: the length of the contact arrays */
  /**
   * Nullable, 1 per body: 1 for a body without velocity (static), read as -1
   * wherever it stands in body_a or body_b. NULL: none.
   */
  const unsigned char* body_fixed;
  /**
   * Nullable stages of each Gauss-Seidel sweep of nsd_fc3d_nsgs_bodies (the
   * operator and the assembly ignore them): the contacts, in problem order, cut
   * into n_stages consecutive runs, stage s ending before contact stage_end[s]
   * (cumulative: non-decreasing, in [0, n_contacts], stage_end[n_stages - 1] =
   * n_contacts). after_stage(user, v, s) (nullable) is called after stage s of
   * every sweep for s < n_stages - 1 (the last stage is followed by after_sweep)
   * with the body velocities, which it may change: a distributed problem
   * exchanges there the velocities of the bodies shared by parts whose contacts
   * come in different stages (a Gauss-Seidel order over the parts). Every part
   * must give the same n_stages. With shuffling, the contacts are shuffled
   * within each stage. n_stages 0 or 1: one stage (stage_end then unread).
   */
  int n_stages;
  const int* stage_end;
  void (*after_stage)(void* user, double* v, int stage);
  /**
   * Nullable, 1 per problem contact (like q): a side the Gauss-Seidel sweeps of
   * nsd_fc3d_nsgs_bodies hold, 0 none, 1 side A, 2 side B. A held side's velocity
   * is read (u_c = J_c v + q_c) but the contact's impulse does not change it:
   * its local block W_cc and its velocity updates count the other side only (a
   * one-sided contact, as the shock propagation of Guendelman, Bridson and Fedkiw,
   * "Nonconvex rigid bodies with stacking", SIGGRAPH 2003). The sweeps then solve
   * u = J v + q, v = v_free + sum_c M^-1 J_c,moved^T r_c: not the symmetric W
   * problem. The operator and the assembly ignore it. NULL: both sides move.
   */
  const unsigned char* sweep_held;
  /**
   * Distribution hook (nullable, with user): replaces values[0..count) by their
   * largest over all parts, every part calling it at the same points. The
   * sweeps' drift jump (options->nsgs.drift) agrees its length with it; a
   * distributed problem without it watches no drift.
   */
  void (*reduce_max)(void* user, double* values, int count);
  /**
   * Nullable, 1 per problem contact (like q), with n_blocks: the block of each
   * contact in the Gauss-Seidel sweeps of nsd_fc3d_nsgs_bodies, in [-1,
   * n_blocks) (the operator and the assembly ignore them). A sweep visits
   * blocks 0, 1, ..., n_blocks - 1, each block's contacts in problem order, then
   * the contacts of block -1 in problem order. Contacts of two different blocks
   * (>= 0) must share no body that moves (a fixed side or -1 aside; checked by
   * the solver, NSD_BAD_INPUT naming both contacts): the blocks then run side by
   * side on the solver's threads, with the same bits on any number, in place of
   * the colouring (a caller that knows where its bodies are cuts its contacts
   * into slabs: the overlap recovery of the scene engine). With blocks,
   * n_stages is 0 or 1 and options->nsgs.shuffle 0. NULL or n_blocks 0: none.
   */
  const int* sweep_block;
  int n_blocks;
} NsdRigidContacts;

/**
 * Check @p p: sizes >= 0, the arrays non-NULL (q, sweep_scale, index,
 * body_fixed and sweep_held nullable), n_stages >= 0 and, with more than one stage,
 * stage_end non-NULL, non-decreasing in [0, n_contacts] and ending at
 * n_contacts, index entries in [0, n_entries), body indices in
 * [-1, n_bodies), no contact with both sides -1 or fixed, finite
 * frames, q and arms (of the sides with a body), mu finite >= 0, inv_mass
 * finite >= 0, inv_inertia finite, symmetric (to 1e-9 of its largest entry)
 * with a diagonal >= 0, sweep_scale finite > 0, sweep_held in {0, 1, 2} with
 * the other side a body that moves, n_blocks >= 0 and, with sweep_block, its
 * entries in [-1, n_blocks) and n_stages 0 or 1. Returns NSD_BAD_INPUT with a
 * message naming the first fault ("rigid contacts: contact 7: body_a = 20,
 * expected -1 or in [0, 20)", "body 3: inv_mass = -1, ...") in @p report
 * (nullable), else NSD_OK. Bodies are checked before contacts.
 */
NSD_API NsdStatus nsd_rigid_contacts_check(const NsdRigidContacts* p, NsdReport* report);

/** v[6 n_bodies] += M^-1 J^T r (r: 3 per contact). */
NSD_API void nsd_rigid_contacts_apply_jt_minv(const NsdRigidContacts* p, const double* r,
                                              double* v);

/** u[3 n_contacts] = J v + q (q omitted when @p with_q is 0). */
NSD_API void nsd_rigid_contacts_velocity(const NsdRigidContacts* p, const double* v, int with_q,
                                         double* u);

/**
 * The diagonal blocks W_cc = J_c M^-1 J_c^T, 9 per contact, column-major and
 * exactly symmetric (the lower triangle copied from the upper); the same bits
 * as the diagonal blocks of nsd_rigid_contacts_assemble's W.
 */
NSD_API void nsd_rigid_contacts_diagonal(const NsdRigidContacts* p, double* blocks);

/**
 * The factored operator of @p p for nsd_fc3d_apgd_operator: size 3 n_contacts,
 * n_dof 6 n_bodies, the callbacks computing J^T x, M^-1 w and J w from the
 * frames and arms (J^T gathered per body through a body -> contacts index in
 * contact order: the same bits for any @p threads), M^-1 w per body and J w
 * per contact, each parallel with OpenMP over @p threads threads (0: runtime
 * default) from 256 bodies or contacts. The struct @p p is copied, its arrays
 * are borrowed: they must outlive @p op. Free with nsd_delassus_factored_free.
 * q and the distribution hooks are not part of the operator. NSD_BAD_INPUT
 * (nsd_rigid_contacts_check) or NSD_FAILED (no memory), @p op then zeroed.
 */
NSD_API NsdStatus nsd_rigid_contacts_operator(const NsdRigidContacts* p, int threads,
                                              NsdDelassus* op, NsdReport* report);

/**
 * W = J M^-1 J^T assembled sparse-block (3x3 blocks, one per pair of contacts
 * sharing a body with a velocity), for the solvers that need W (direct,
 * Newton). W_ij = sum over the bodies i and j share of J_i,b M_b^-1 J_j,b^T;
 * W_ji is stored as the transpose of W_ij, so W is exactly symmetric (and is
 * read as such by nsd_fc3d_nsgs). *W is created here (NULL on failure);
 * destroy with nsd_matrix_destroy.
 */
NSD_API NsdStatus nsd_rigid_contacts_assemble(const NsdRigidContacts* p, NsdMatrix** W,
                                              NsdReport* report);

/**
 * The global friction-contact problem (nsd_gfc.h) of @p p with the bodies' free
 * velocities @p v_free (6 per body): M v = M v_free + H r, u = H^T v + q, with M
 * the 6x6 mass blocks (1 / inv_mass on the linear part, the inverse of inv_inertia
 * on the angular part) and H = J^T (n = 6 n_bodies rows, 3 n_contacts columns,
 * CSC). Its solution is that of the FC3D problem u = W r + (J v_free + q), its
 * velocity v = v_free + M^-1 J^T r. A fixed body, and a part of a body that does
 * not move (inv_mass 0, or an inverse inertia of zeros), gets M = I there, q =
 * v_free and no entry in H. *out is created here (NULL on failure); free with
 * nsd_gfc_destroy. NSD_BAD_INPUT (nsd_rigid_contacts_check; a non-finite v_free;
 * an inverse inertia neither zero nor invertible) or NSD_FAILED (no memory).
 * Stages, hooks, sweep_scale and sweep_held are ignored.
 */
NSD_API NsdStatus nsd_rigid_contacts_global(const NsdRigidContacts* p, const double* v_free,
                                            NsdGfc** out, NsdReport* report);

/**
 * Nonsmooth Gauss-Seidel over the contacts in body-velocity form: each local
 * solve reads u_c = J_c v + q_c from the two bodies' velocities, solves the
 * contact with W_cc (the local solver of nsd_fc3d_nsgs: closed forms, then
 * options->nsgs's method) and adds M^-1 J_c^T (r_c_new - r_c) to the two
 * bodies (only the moved one of a contact with p->sweep_held). Without
 * sweep_held the iterates equal those of nsd_fc3d_nsgs on the assembled problem
 * (same contact order, same local solver, relaxation) up to round-off.
 *
 * @p v (6 per body): on entry the free velocity v_free, on exit
 * v_free + M^-1 J^T r. @p r (3 per contact): the warm start when
 * options->warm_start (else zeroed), the answer on exit. With stages
 * (p->n_stages > 1) each sweep visits the stages in turn, calling
 * p->after_stage between them; the order within the problem is the sweep order. @p u (3 per
 * contact, nullable): J v + q on exit. report->residual: the Siconos FC3D error of the assembled
 * problem (q_W = J v_free + q), computed from (r, u = J v + q) and normalised by max(||q_W||,
 * ||r||, ||u||), checked against options->tolerance every options->pgs.check_every sweeps and after
 * the last one (nsd_fc3d_nsgs checks every sweep; the history records each check). At least one
 * sweep is done when there is a contact. options->nsgs (local solver, shuffle, seed), relaxation,
 * max_iterations and time_limit as nsd_fc3d_nsgs; options and report nullable (defaults; no
 * report); report->solver is "nsgs_bodies". NSD_BAD_INPUT also for a non-finite v_free or warm
 * start, or a contact whose W_cc[0][0] is not > 0. Allocates its workspace once (6 doubles per
 * contact: W_cc packed; the order when shuffling), none per sweep; with @p u NULL, u is
 * computed contact by contact and not stored. Threads: from 1,024 contacts (not shuffled)
 * the contacts are swept in an order coloured by their bodies (contacts of one colour share
 * no dynamic body), each colour on options->threads threads; the order depends on the
 * problem only, so the results are the same bits for any thread count (about 28 doubles
 * and 5 ints more per contact, the contacts gathered in that order).
 */
NSD_API NsdStatus nsd_fc3d_nsgs_bodies(const NsdRigidContacts* p, double* v, double* r, double* u,
                                       const NsdSolverOptions* options, NsdReport* report);

#ifdef __cplusplus
}
#endif
#endif
