/*
 * Nonsmooth Gauss-Seidel for 3D frictional contact between rigid bodies in
 * body-velocity form (nsd_bodies.h; M. Jean, "The non-smooth contact dynamics
 * method", CMAME 177, 1999; the "velocity" form of projected Gauss-Seidel game
 * engines run, e.g. Catto, GDC 2005, Tonge et al., "Mass splitting for jitter-free
 * parallel rigid body simulation", SIGGRAPH 2012, for the sweep scale).
 *
 * The problem is u = W r + q_W with W = J M^-1 J^T and q_W = J v_free + q. Keeping
 * v = v_free + M^-1 J^T r current, the velocity of contact a is read from its two
 * bodies, u_a = J_a v + q_a, instead of from W's block row a. Each sweep visits
 * the contacts (in order or shuffled); for contact a,
 *   1. q_a,loc = u_a - W_aa r_a, so that u_a = W_aa r_a + q_a,loc alone;
 *   2. the one-contact problem is solved as nsd_fc3d_nsgs solves it (take-off,
 *      then the closed forms of fc_local.c, then options->nsgs's local solver);
 *   3. the answer is relaxed, r_a <- omega r_a,new + (1 - omega) r_a (projected on
 *      the cone when omega > 1);
 *   4. v += S M^-1 J_a^T (r_a,new - r_a) on the two bodies (S = sweep_scale, 1 by
 *      default; W_aa = J_a S M^-1 J_a^T to match), or on the one a held contact
 *      moves (sweep_held: W_aa then counts that side only).
 * Step 4 costs O(1) per contact, where the assembled form updates u over W's
 * whole block column. With S = 1 the iterates are those of nsd_fc3d_nsgs on the
 * assembled problem up to round-off.
 *
 * The Siconos FC3D error of (r, u = J v + q), normalised by max(||q_W||, ||r||, ||u||),
 * is computed every options->pgs.check_every sweeps (and after the last), u
 * recomputed from v: O(nc). A distributed problem sums its parts' terms through
 * p->reduce_sum: one call at the start (faults, contacts, ||q_W||^2) and one per
 * check (the three sums and the time-limit flag), so every part takes the same
 * decisions; p->after_sweep refreshes v after the warm start and each sweep. With
 * stages (p->n_stages > 1, cumulative ends p->stage_end), a sweep visits the stages
 * in turn and p->after_stage exchanges v between them: parts whose contacts share
 * bodies sweep those contacts in different stages, so that the sweep over all parts
 * is one Gauss-Seidel sweep in the order of the stages. Shuffling shuffles within a
 * stage.
 *
 * Anderson acceleration (options->nsgs.anderson > 0, fc_anderson.h): after each sweep the
 * impulses are extrapolated from the last sweeps' differences, v combined with the same
 * coefficients, r projected back on its cones and v corrected by that change
 * (move_accelerated). Over parts (hooks set) r alone is extrapolated, its sums added
 * over the parts (the same coefficients on every part), and v moved by S M^-1 J^T of each
 * contact's change (move_accelerated), then exchanged by after_sweep like a sweep's change.
 *
 * The drift watch (options->nsgs.drift, fc_drift.h): at the error checks, a flat error
 * with the same change of r at every checked sweep (two contacts of one rolling body, W
 * singular along the line through them) is ended by a jump r += t d to the first cone
 * boundary ahead, v moved with it (over parts: t the least of the parts' through
 * p->reduce_max, the velocities exchanged by after_sweep), the Anderson history dropped.
 *
 * Threads. A problem (or part) of NSGS_COLOUR_MIN contacts or more, not shuffled, is
 * swept in coloured order (fc_bodies_colour.h): within each stage, colour by colour,
 * the contacts of one colour touching pairwise disjoint dynamic bodies, so that they
 * are swept on options->threads threads at once with the same bits as on one. The
 * order is chosen from the problem alone, never from the thread count: the iterates,
 * the sweep count and the answer are the same bits for any thread count (and differ
 * from the problem order's only by the order of a Gauss-Seidel sweep). The sums (the
 * start's ||q_W||^2 and every error check) add fixed chunks of contacts in order
 * (nsd_fcc_chunk_length: one chunk below 1,025 contacts, i.e. the plain sum). Smaller
 * or shuffled problems are swept in problem order on one thread, as before. A problem
 * with blocks (p->sweep_block) is not coloured: its blocks, which share no moving body,
 * are swept side by side (each in problem order on one thread), then the contacts of
 * block -1 in problem order: the caller's order, the same bits on any thread count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_anderson.h"
#include "friction/fc_bodies.h"
#include "friction/fc_bodies_colour.h"
#include "friction/fc_cone_internal.h"
#include "friction/fc_drift.h"
#include "friction/fc_gs_internal.h"
#include "friction/fc_local.h"

/* Problems (parts) from this many contacts, not shuffled, are swept in coloured order. */
#define NSGS_COLOUR_MIN 1024
/* A colour of fewer contacts is swept by one thread (the others wait at its end). */
#define NSGS_COLOUR_PARALLEL_MIN 256
/* Contacts of a colour handed to a thread at a time. */
#define NSGS_CHUNK 64

/* The workspace, allocated once. */
typedef struct Work {
  double* diag;           /* [6 nc] W_aa = J_a S M^-1 J_a^T, packed (nsd_rb_unpack) */
  int* order;             /* [nc] shuffled order, NULL in order */
  NsdRbColouring colours; /* the coloured order (order NULL: problem order) */
  int nt;                 /* threads */
  /* coloured: the contacts gathered in coloured order (colours.order then the identity) */
  int* back;            /* [nc] the problem contact at each position */
  int* pbody;           /* [2 nc] body_a, body_b */
  unsigned char* pheld; /* [nc] sweep_held (NULL without) */
  double* pdata;        /* frame 9, arm_a 3, arm_b 3, q 3, r 3, mu 1, diag 6 per contact */
  NsdRigidContacts pp;  /* the gathered problem (no index) */
  double* pr;           /* its r */
} Work;

static void work_free(Work* w) {
  free(w->diag);
  free(w->order);
  nsd_rb_colouring_free(&w->colours);
  free(w->back);
  free(w->pbody);
  free(w->pdata);
  free(w->pheld);
}

/* The problem's contacts, their r and W_aa gathered in coloured order (contiguous runs:
 * each colour streams through memory); colours.order becomes the identity. 0: no memory. */
static int gather_coloured(const NsdRigidContacts* p, const double* r, Work* w) {
  const int nc = p->n_contacts;
  const size_t n = (size_t)nc;
  w->back = malloc(n * sizeof *w->back);
  w->pbody = malloc(2 * n * sizeof *w->pbody);
  w->pdata = malloc(28 * n * sizeof *w->pdata);
  double* diag = malloc(6 * n * sizeof *diag);
  if (p->sweep_held) w->pheld = malloc(n * sizeof *w->pheld);
  if (!w->back || !w->pbody || !w->pdata || !diag || (p->sweep_held && !w->pheld)) {
    free(diag);
    return 0;
  }
  memcpy(w->back, w->colours.order, n * sizeof *w->back);
  NsdRigidContacts* g = &w->pp;
  *g = *p;
  int* ba = w->pbody;
  int* bb = ba + n;
  double* frame = w->pdata;
  double* arm_a = frame + 9 * n;
  double* arm_b = arm_a + 3 * n;
  double* q = arm_b + 3 * n;
  double* pr = q + 3 * n;
  double* mu = pr + 3 * n;
  // each position alone: on the solve's threads, the same bits
  NSD_FCC_PARALLEL_FOR(w->nt, nc)
  for (size_t i = 0; i < n; ++i) {
    const int a = w->back[i];
    const size_t e = nsd_rb_entry(p, a);
    ba[i] = p->body_a[e];
    bb[i] = p->body_b[e];
    memcpy(frame + 9 * i, p->frame + 9 * e, 9 * sizeof *frame);
    memcpy(arm_a + 3 * i, p->arm_a + 3 * e, 3 * sizeof *arm_a);
    memcpy(arm_b + 3 * i, p->arm_b + 3 * e, 3 * sizeof *arm_b);
    for (int k = 0; k < 3; ++k) q[3 * i + k] = p->q ? p->q[3 * (size_t)a + (size_t)k] : 0.0;
    memcpy(pr + 3 * i, r + 3 * (size_t)a, 3 * sizeof *pr);
    mu[i] = p->mu[e];
    if (w->pheld) w->pheld[i] = p->sweep_held[a];
    memcpy(diag + 6 * i, w->diag + 6 * (size_t)a, 6 * sizeof *diag);
    w->colours.order[i] = (int)i;
  }
  free(w->diag);
  w->diag = diag;
  g->body_a = ba;
  g->body_b = bb;
  g->frame = frame;
  g->arm_a = arm_a;
  g->arm_b = arm_b;
  g->q = q;
  g->mu = mu;
  g->sweep_held = w->pheld;
  g->index = NULL;
  g->n_entries = 0;
  g->sweep_block = NULL;  // in problem order: the runs of w->colours carry the blocks now
  g->n_blocks = 0;
  w->pr = pr;
  return 1;
}

/* ua = J_a v + q_a for one contact. */
static void contact_velocity(const NsdRigidContacts* p, int a, const double* v, double* ua) {
  nsd_rb_contact_jv(p, a, v, ua);
  if (p->q)
    for (int k = 0; k < 3; ++k) ua[k] += p->q[(size_t)3 * a + (size_t)k];
}

/* Steps 1-4 for contact @p a. */
static inline void update_contact(const NsdRigidContacts* p, const NsdFcLocalParams* params,
                                  const double* diag, int a, double omega, double* v, double* r) {
  double W[9];
  nsd_rb_unpack(diag + (size_t)6 * a, W);
  double* ra = r + (size_t)3 * a;
  const double r0 = ra[0], r1 = ra[1], r2 = ra[2];
  const double mu = p->mu[nsd_rb_entry(p, a)];
  // u_a = J_a v + q_a, then q_loc = u_a - W_aa r_a
  double ua[3], qloc[3], rnew[3];
  contact_velocity(p, a, v, ua);
  for (int k = 0; k < 3; ++k) qloc[k] = ua[k] - (W[k] * r0 + W[k + 3] * r1 + W[k + 6] * r2);
  // the local solve of nsd_fc3d_nsgs: take-off, closed forms, then the local solver
  if (qloc[0] >= 0.0 && mu != 0.0) {
    rnew[0] = rnew[1] = rnew[2] = 0.0;
  } else if (!nsd_fcl_closed_form3(W, qloc, mu, rnew)) {
    rnew[0] = r0;
    rnew[1] = r1;
    rnew[2] = r2;
    nsd_fcl_sliding3(params, W, qloc, mu, rnew);
  }
  if (omega != 1.0) {
    const double rold[3] = {r0, r1, r2};
    for (int k = 0; k < 3; ++k) rnew[k] = omega * rnew[k] + (1.0 - omega) * rold[k];
    if (omega > 1.0) nsd_fc_project_on_cone(3, mu, rnew);
  }
  // the change moves the two bodies
  const double dr[3] = {rnew[0] - r0, rnew[1] - r1, rnew[2] - r2};
  if (dr[0] != 0.0 || dr[1] != 0.0 || dr[2] != 0.0) {
    ra[0] = rnew[0];
    ra[1] = rnew[1];
    ra[2] = rnew[2];
    nsd_rb_contact_add_held(p, a, dr, p->sweep_scale, nsd_rb_held(p, a), v);
  }
}

/* One sweep of the contacts [begin, end) of the sweep order, steps 1-4 for each. */
static void sweep_contacts(const NsdRigidContacts* p, const NsdFcLocalParams* params,
                           const double* diag, const int* order, int begin, int end, double omega,
                           double* v, double* r) {
  for (int i = begin; i < end; ++i)
    update_contact(p, params, diag, order ? order[i] : i, omega, v, r);
}

/* Contact @p a's part of a coloured pass: its update (@p params set) or, for the warm
 * start (@p params NULL), v += S M^-1 J_a^T r_a. */
static inline void pass_contact(const NsdRigidContacts* p, const NsdFcLocalParams* params,
                                const double* diag, int a, double omega, double* v, double* r) {
  if (params)
    update_contact(p, params, diag, a, omega, v, r);
  else
    nsd_rb_contact_add_held(p, a, r + (size_t)3 * a, p->sweep_scale, nsd_rb_held(p, a), v);
}

/* Stage @p s in coloured order: colour by colour, the contacts of a large colour shared
 * between the threads (disjoint bodies: the same bits on any number), the small colours
 * and the last sequential run on one thread. */
static void coloured_stage(const NsdRigidContacts* p, const NsdFcLocalParams* params, const Work* w,
                           int s, double omega, double* v, double* r) {
  const NsdRbColouring* c = &w->colours;
  const int first = c->stage_run[s], last = c->stage_run[s + 1];
  const int n = last > first ? c->run_end[last - 1] - nsd_rb_run_begin(c, first) : 0;
  (void)n;
#ifdef _OPENMP
#pragma omp parallel num_threads(w->nt) if (w->nt > 1 && n >= NSD_FCC_PARALLEL_MIN)
#endif
  {
    for (int k = first; k < last; ++k) {
      const int begin = nsd_rb_run_begin(c, k), end = c->run_end[k];
      if (c->run_serial[k] == NSD_RB_BLOCKS) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (int b = 0; b < c->n_blocks; ++b)
          for (int i = b > 0 ? c->block_end[b - 1] : begin; i < c->block_end[b]; ++i)
            pass_contact(p, params, w->diag, c->order[i], omega, v, r);
      } else if (!c->run_serial[k] && end - begin >= NSGS_COLOUR_PARALLEL_MIN) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, NSGS_CHUNK)
#endif
        for (int i = begin; i < end; ++i)
          pass_contact(p, params, w->diag, c->order[i], omega, v, r);
      } else {
#ifdef _OPENMP
#pragma omp single
#endif
        for (int i = begin; i < end; ++i)
          pass_contact(p, params, w->diag, c->order[i], omega, v, r);
      }
    }
  }
}

/* u = J v + q (stored when @p u is not NULL) and this part's sums of the Siconos
 * error of (r, u): s[0] the squared natural-map terms, s[1] ||r||^2, s[2] ||u||^2;
 * with @p r NULL, s[0] = ||u||^2 only (the start's ||q_W||^2). By fixed chunks of
 * contacts added in order: the same bits on any number of threads. */
static void error_sums(const NsdRigidContacts* p, const double* v, const double* r, double* u,
                       double* s, int nt) {
  const int nc = p->n_contacts;
  s[0] = s[1] = s[2] = 0.0;
  if (nc <= 0) return;
  const int len = nsd_fcc_chunk_length(nc), chunks = (nc + len - 1) / len;
  double part[NSD_FCC_MAX_CHUNKS][3];
  NSD_FCC_PARALLEL_FOR_DYNAMIC(nt, nc, 1)
  for (int k = 0; k < chunks; ++k) {
    double t[3] = {0.0, 0.0, 0.0};
    const int end = k + 1 < chunks ? (k + 1) * len : nc;
    for (int a = k * len; a < end; ++a) {
      double own[3];
      double* ua = u ? u + (size_t)3 * a : own;
      contact_velocity(p, a, v, ua);
      if (r)
        nsd_fcc_natural_terms(3, p->mu[nsd_rb_entry(p, a)], r + (size_t)3 * a, ua, 1, t);
      else
        for (int i = 0; i < 3; ++i) t[0] += ua[i] * ua[i];
    }
    for (int i = 0; i < 3; ++i) part[k][i] = t[i];
  }
  for (int k = 0; k < chunks; ++k)
    for (int i = 0; i < 3; ++i) s[i] += part[k][i];
}

/* After an accelerated step (fc_anderson.h): contact @p a's r back in its cone and v moved
 * by S M^-1 J_a^T of r's change from @p r_from (sides held, sweep_scale), as a sweep moves
 * it. Alone, v was combined with r: r_from NULL, the change is the projection's. Over parts
 * only r was combined: r_from is the sweep's r, and the change each part adds to its copy of
 * a shared body is its contacts' share, which the exchange then sums. */
static void move_accelerated_one(const NsdRigidContacts* p, const double* r_from, double* v,
                                 double* r, int a) {
  double* ra = r + (size_t)3 * a;
  const double before[3] = {ra[0], ra[1], ra[2]};
  const double* from = r_from ? r_from + (size_t)3 * a : before;
  nsd_fc_project_on_cone(3, p->mu[nsd_rb_entry(p, a)], ra);
  const double dr[3] = {ra[0] - from[0], ra[1] - from[1], ra[2] - from[2]};
  if (dr[0] != 0.0 || dr[1] != 0.0 || dr[2] != 0.0)
    nsd_rb_contact_add_held(p, a, dr, p->sweep_scale, nsd_rb_held(p, a), v);
}

/* Every contact moved (move_accelerated_one), in order. Coloured (@p w's colours, the
 * contacts gathered run by run): the runs in turn, a colour's contacts in parallel as the
 * sweep does them (within a colour no two share a moved body), so each body takes its
 * changes in the same order as the serial loop: the same bits on any number of threads. */
static void move_accelerated(const NsdRigidContacts* p, const Work* w, const double* r_from,
                             double* v, double* r) {
  const NsdRbColouring* c = &w->colours;
  if (!c->order) {
    for (int a = 0; a < p->n_contacts; ++a) move_accelerated_one(p, r_from, v, r, a);
    return;
  }
  const int runs = c->stage_run[c->n_stages];
  const int n = p->n_contacts;
  (void)n;
#ifdef _OPENMP
#pragma omp parallel num_threads(w->nt) if (w->nt > 1 && n >= NSD_FCC_PARALLEL_MIN)
#endif
  {
    for (int k = 0; k < runs; ++k) {
      const int begin = nsd_rb_run_begin(c, k), end = c->run_end[k];
      if (c->run_serial[k] == NSD_RB_BLOCKS) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 1)
#endif
        for (int b = 0; b < c->n_blocks; ++b)
          for (int i = b > 0 ? c->block_end[b - 1] : begin; i < c->block_end[b]; ++i)
            move_accelerated_one(p, r_from, v, r, i);
      } else if (!c->run_serial[k] && end - begin >= NSGS_COLOUR_PARALLEL_MIN) {
#ifdef _OPENMP
#pragma omp for schedule(dynamic, NSGS_CHUNK)
#endif
        for (int i = begin; i < end; ++i) move_accelerated_one(p, r_from, v, r, i);
      } else {
#ifdef _OPENMP
#pragma omp single
#endif
        for (int i = begin; i < end; ++i) move_accelerated_one(p, r_from, v, r, i);
      }
    }
  }
}

/* The drift jump (fc_drift.h): r += t d, each contact back in its cone and v moved by
 * S M^-1 J_a^T of its change, in contact order on one thread (a rare pass). */
static void jump(const NsdRigidContacts* p, double t, const double* d, double* v, double* r) {
  for (int a = 0; a < p->n_contacts; ++a) {
    double* ra = r + (size_t)3 * a;
    const double* da = d + (size_t)3 * a;
    const double before[3] = {ra[0], ra[1], ra[2]};
    for (int k = 0; k < 3; ++k) ra[k] += t * da[k];
    nsd_fc_project_on_cone(3, p->mu[nsd_rb_entry(p, a)], ra);
    const double dr[3] = {ra[0] - before[0], ra[1] - before[1], ra[2] - before[2]};
    if (dr[0] != 0.0 || dr[1] != 0.0 || dr[2] != 0.0)
      nsd_rb_contact_add_held(p, a, dr, p->sweep_scale, nsd_rb_held(p, a), v);
  }
}

/* Index of the first non-finite of x[n], or -1. */
static int first_not_finite(const double* x, size_t n) {
  for (size_t k = 0; k < n; ++k)
    if (!isfinite(x[k])) return (int)k;
  return -1;
}

/* Everything before the sweeps that can fail: options, problem, arrays, workspace,
 * the diagonal blocks (W_aa[0][0] > 0 needed by the local solver). r zeroed
 * unless warm starting. */
static NsdStatus prepare(const NsdRigidContacts* p, double* v, double* r,
                         const NsdSolverOptions* options, NsdSolverOptions* opt, Work* w,
                         NsdReport* rep) {
  if (nsd_solver_begin("nsgs_bodies", options, opt, rep) != NSD_OK) return NSD_BAD_INPUT;
  w->nt = nsd_fcc_threads(opt->threads);
  if (nsd_rb_check(p, w->nt, rep) != NSD_OK) return NSD_BAD_INPUT;
  const int nc = p->n_contacts, nb = p->n_bodies;
  if ((nc > 0 && !r) || (nb > 0 && !v))
    return nsd_report_fail(rep, NSD_BAD_INPUT, "nsgs_bodies: v or r is NULL");
  int k = first_not_finite(v, (size_t)6 * (size_t)nb);
  if (k >= 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "nsgs_bodies: body %d: v_free[%d] = %g", k / 6,
                           k % 6, v[k]);
  k = opt->warm_start ? first_not_finite(r, (size_t)3 * (size_t)nc) : -1;
  if (k >= 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "nsgs_bodies: contact %d: warm start r[%d] = %g",
                           k / 3, k % 3, r[k]);

  const size_t n1 = (size_t)(nc > 0 ? nc : 1);
  w->diag = malloc(6 * n1 * sizeof *w->diag);
  if (opt->nsgs.shuffle) w->order = malloc(n1 * sizeof *w->order);
  if (!w->diag || (opt->nsgs.shuffle && !w->order))
    return nsd_report_fail(rep, NSD_FAILED, "nsgs_bodies: out of memory, %d contacts", nc);
  for (int a = 0; w->order && a < nc; ++a) w->order[a] = a;
  const int blocks = p->sweep_block && p->n_blocks > 0;
  if (blocks && opt->nsgs.shuffle)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "nsgs_bodies: sweep_block with nsgs.shuffle = %d",
                           opt->nsgs.shuffle);
  if (blocks) {
    int clash[3];
    const int made = nsd_rb_blocks(p, &w->colours, clash);
    if (made < 0)
      return nsd_report_fail(rep, NSD_BAD_INPUT,
                             "nsgs_bodies: contacts %d (block %d) and %d (block %d) share body "
                             "%d: blocks must not share a moving body",
                             clash[0], p->sweep_block[clash[0]], clash[1], p->sweep_block[clash[1]],
                             clash[2]);
    if (!made)
      return nsd_report_fail(rep, NSD_FAILED, "nsgs_bodies: out of memory, %d contacts", nc);
  } else if (!opt->nsgs.shuffle && nc >= NSGS_COLOUR_MIN && !nsd_rb_colour(p, &w->colours)) {
    return nsd_report_fail(rep, NSD_FAILED, "nsgs_bodies: out of memory, %d contacts", nc);
  }

  nsd_rb_diagonal_packed(p, p->sweep_scale, p->sweep_held, w->diag, w->nt);
  for (int a = 0; a < nc; ++a)
    if (!(w->diag[(size_t)6 * a] > 0.0))
      return nsd_report_fail(rep, NSD_BAD_INPUT,
                             "nsgs_bodies: contact %d: normal diagonal entry W_aa[0][0] = %g <= 0 "
                             "(bodies %d and %d cannot move along the normal)",
                             a, w->diag[(size_t)6 * a], p->body_a[nsd_rb_entry(p, a)],
                             p->body_b[nsd_rb_entry(p, a)]);
  if (!opt->warm_start)
    for (size_t i = 0; i < (size_t)3 * (size_t)nc; ++i) r[i] = 0.0;
  if (w->colours.order && !gather_coloured(p, r, w))
    return nsd_report_fail(rep, NSD_FAILED, "nsgs_bodies: out of memory, %d contacts", nc);
  return NSD_OK;
}

NsdStatus nsd_fc3d_nsgs_bodies(const NsdRigidContacts* p, double* v, double* r, double* u,
                               const NsdSolverOptions* options, NsdReport* report) {
  NsdReport own;
  if (!report) {
    memset(&own, 0, sizeof own);
    report = &own;
  }
  NsdSolverOptions opt;
  Work w;
  memset(&w, 0, sizeof w);
  NsdStatus status = prepare(p, v, r, options, &opt, &w, report);
  const int nc = status == NSD_OK ? p->n_contacts : 0;
  // Anderson acceleration (fc_anderson.h). Alone: r with v carried. Over parts: r alone (its
  // sums added over the parts, so that every part takes the same coefficients), v then moved
  // by S M^-1 J^T of each contact's change and exchanged like a sweep's (after_sweep), since
  // a part's copy of a shared body must only add this part's contacts' share. Every part
  // sets it up, those without contacts too (they take part in the sums).
  const int distributed = p && (p->reduce_sum || p->after_sweep || p->after_stage);
  NsdFcAnderson aa;
  memset(&aa, 0, sizeof aa);
  double* r_sweep = NULL; /* over parts: the sweep's r, before the accelerated step */
  if (status == NSD_OK && opt.nsgs.anderson > 0 && (nc > 0 || distributed)) {
    const size_t n1 = (size_t)(nc > 0 ? nc : 1);
    if (distributed) r_sweep = malloc(3 * n1 * sizeof *r_sweep);
    if (!nsd_fca_init(&aa, opt.nsgs.anderson, 3 * nc, distributed ? 0 : 6 * p->n_bodies, w.nt) ||
        (distributed && !r_sweep))
      status = nsd_report_fail(report, NSD_FAILED, "nsgs_bodies: out of memory, Anderson history");
  }

  // the start, agreed by all parts: faults, contacts, ||q_W||^2 (q_W = J v_free + q)
  double start[4] = {status == NSD_BAD_INPUT, status == NSD_FAILED, nc, 0.0};
  if (nc > 0) {
    double sums[3];
    error_sums(p, v, NULL, u, sums, w.nt);
    start[3] = sums[0];
  }
  if (p && p->reduce_sum) p->reduce_sum(p->user, start, 4);
  if (status == NSD_OK && (start[0] > 0.0 || start[1] > 0.0))
    status = nsd_report_fail(report, start[0] > 0.0 ? NSD_BAD_INPUT : NSD_FAILED,
                             "nsgs_bodies: another part of the problem %s",
                             start[0] > 0.0 ? "was rejected" : "failed");
  if (status != NSD_OK) {
    nsd_fca_free(&aa);
    free(r_sweep);
    work_free(&w);
    return status;
  }
  const double q_norm = sqrt(start[3]);
  const int any_contact = start[2] > 0.0;

  // the warm start: v = v_free + S M^-1 J^T r
  const int stages = p->n_stages > 1 ? p->n_stages : 1;
  // coloured: the sweeps, the warm start and the checks on the gathered contacts
  const int coloured = w.colours.order != NULL;
  const NsdRigidContacts* sp = coloured ? &w.pp : p;
  double* const sr = coloured ? w.pr : r;
  if (opt.warm_start) {
    if (coloured)
      for (int s = 0; s < stages; ++s) coloured_stage(sp, NULL, &w, s, 1.0, v, sr);
    else
      for (int a = 0; a < nc; ++a)
        nsd_rb_contact_add_held(p, a, r + (size_t)3 * a, p->sweep_scale, nsd_rb_held(p, a), v);
    if (p->after_sweep) p->after_sweep(p->user, v);
  }

  const NsdFcLocalParams params = {opt.nsgs.local_solver, opt.nsgs.local_tolerance,
                                   opt.nsgs.local_max_iterations};
  NsdFcgsRng rng;
  nsd_fcgs_rng_seed(&rng, opt.nsgs.seed);
  // the drift watch (fc_drift.h); over parts with their sums and largest values
  NsdFcDrift drift;
  const NsdFcdReduce parts = {p->user, p->reduce_sum, p->reduce_max};
  nsd_fcd_init(&drift, 3, nc, opt.nsgs.drift && (!distributed || (p->reduce_sum && p->reduce_max)),
               opt.nsgs.anderson > 0);
  // no contact anywhere: nothing to solve (error 0, u = q_W already); else at least
  // one sweep, as nsd_fc3d_nsgs, so that a start within a loose tolerance is refined
  double error = 0.0;
  for (int sweep = 1; any_contact && sweep <= opt.max_iterations; ++sweep) {
    if (aa.memory) nsd_fca_before(&aa, sr);
    if (sweep % opt.pgs.check_every == 0) nsd_fcd_before(&drift, sr);
    // the stages in turn (shuffled within each), the parts' exchange between them
    for (int s = 0; s < stages; ++s) {
      const int begin = s > 0 ? p->stage_end[s - 1] : 0;
      const int end = stages > 1 ? p->stage_end[s] : nc;
      if (w.colours.order) {
        coloured_stage(sp, &params, &w, s, opt.relaxation, v, sr);
      } else {
        if (w.order) nsd_fcgs_shuffle(&rng, w.order + begin, end - begin);
        sweep_contacts(p, &params, w.diag, w.order, begin, end, opt.relaxation, v, r);
      }
      if (s + 1 < stages && p->after_stage) p->after_stage(p->user, v, s);
    }
    if (p->after_sweep) p->after_sweep(p->user, v);
    report->iterations = sweep;

    // the error every check_every sweeps and after the last, on the sweep's answer; alone, a
    // part checks the time every sweep, distributed only with the error (one agreed decision)
    const int time_up = nsd_time_up(report, opt.time_limit);
    if (sweep % opt.pgs.check_every == 0 || sweep == opt.max_iterations ||
        (time_up && !p->reduce_sum)) {
      double sums[4];
      error_sums(sp, v, sr, coloured ? NULL : u, sums, w.nt);
      sums[3] = time_up;
      if (p->reduce_sum) p->reduce_sum(p->user, sums, 4);
      error = nsd_fcc_natural_value(sums, q_norm);
      nsd_report_record(report, error);
      if (!isfinite(error)) {
        status =
            nsd_report_fail(report, NSD_FAILED, "diverged at sweep %d (error %g)", sweep, error);
        break;
      }
      if (error <= opt.tolerance) break;
      if (sums[3] > 0.0) {
        status = nsd_report_fail(report, NSD_MAX_ITERATIONS,
                                 "time limit %g s reached after %d sweeps (error %.3e)",
                                 opt.time_limit, sweep, error);
        break;
      }
      const double* d = NULL;
      const double t =
          sweep < opt.max_iterations
              ? nsd_fcd_check(&drift, sr, sp->mu, sp->index, error, distributed ? &parts : NULL, &d)
              : 0.0;
      if (t > 0.0) {
        jump(sp, t, d, v, sr);
        if (p->after_sweep) p->after_sweep(p->user, v);  // over parts: velocities exchanged
        nsd_fcd_jumped(&drift);
        if (aa.memory) nsd_fca_reset(&aa);
        continue;  // no extrapolation from the history the jump left behind
      }
    }
    // the accelerated iterate starts the next sweep; the answer returned is always a sweep's
    // (every contact's local problem solved against the others' latest impulses, as plain
    // NSGS returns it), and no extrapolation is spent after the last sweep
    if (!aa.memory || sweep == opt.max_iterations) continue;
    if (!distributed && nsd_fca_after(&aa, sr, v, NULL, NULL))
      move_accelerated(sp, &w, NULL, v, sr);
    if (distributed) {
      if (nc > 0) memcpy(r_sweep, sr, 3 * (size_t)nc * sizeof *r_sweep);
      // the decision is the same on every part (made from the summed norms)
      if (nsd_fca_after(&aa, sr, NULL, p->reduce_sum, p->user)) {
        move_accelerated(sp, &w, r_sweep, v, sr);
        if (p->after_sweep) p->after_sweep(p->user, v);
      }
    }
  }
  // every exit of the loop follows an error check: u = J v + q is current (when stored);
  // coloured, r goes back to problem order and u is formed there
  if (coloured) {
    for (int i = 0; i < nc; ++i)
      memcpy(r + 3 * (size_t)w.back[i], sr + 3 * (size_t)i, 3 * sizeof *r);
    if (u) {
      double unused[3];
      error_sums(p, v, NULL, u, unused, w.nt);
    }
  }
  report->residual = error;
  report->drift_jumps = drift.jumps;
  nsd_fcd_free(&drift);
  nsd_fca_free(&aa);
  free(r_sweep);
  work_free(&w);
  return nsd_fcgs_end(status, report, opt.tolerance);
}
