/*
 * Friction contact between rigid bodies without stored Jacobian blocks
 * (nsd_bodies.h): the products with J, M^-1 and J^T computed from each contact's
 * frame and lever arms, the blocks of W = J M^-1 J^T, and W assembled.
 *
 * Contact c's rows on body A are C [I, -skew(a)] (C the frame rows, a the arm):
 * row k is (C_k, a x C_k) on (v, w), since C_k . (w x a) = w . (a x C_k). With
 * g_k = a x C_k the block that contacts i and j get through a body they share,
 *   (J_i,b M_b^-1 J_j,b^T)_kl = s_i s_j (m^-1 C_i,k . C_j,l + g_i,k . I^-1 g_j,l),
 * s = +1 on side A, -1 on side B. For i = j, one side, this is
 * C (m^-1 I + skew(a)^T I^-1 skew(a)) C^T. W_ij sums these over the shared
 * bodies (both sides when a contact joins a body to itself).
 *
 * The operator computes J^T x per body by gathering its contacts from a
 * body -> (contact, side) index filled in contact order, one body per thread
 * at a time: each body's sum has the same terms in the same order whatever
 * the thread count, so the results are the same bits for any thread count.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_bodies.h"
#include "friction/fc_cone_internal.h"

/* Bodies (contacts) below which a product runs on one thread. */
#define RB_PARALLEL_MIN 256
/* Bodies (contacts) handed to a thread at a time. */
#define RB_CHUNK 64

/* ---- check -------------------------------------------------------------------- */

/* The first non-finite of x[n], or -1. */
static int first_not_finite(const double* x, int n) {
  for (int k = 0; k < n; ++k)
    if (!isfinite(x[k])) return k;
  return -1;
}

static NsdStatus check_contact(const NsdRigidContacts* p, int c, NsdReport* rep) {
  const int nb = p->n_bodies;
  if (p->index && !(p->index[c] >= 0 && p->index[c] < p->n_entries))
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: contact %d: index = %d, expected in [0, %d) "
                           "(n_entries)",
                           c, p->index[c], p->n_entries);
  const size_t e = nsd_rb_entry(p, c);
  const int side_body[2] = {p->body_a[e], p->body_b[e]};
  const char* name[2] = {"body_a", "body_b"};
  const double* arm[2] = {p->arm_a + 3 * e, p->arm_b + 3 * e};
  int moving = 0;
  for (int s = 0; s < 2; ++s) {
    if (side_body[s] < -1 || side_body[s] >= nb)
      return nsd_report_fail(rep, NSD_BAD_INPUT,
                             "rigid contacts: contact %d: %s = %d, expected -1 or in [0, %d)", c,
                             name[s], side_body[s], nb);
    const int body = nsd_rb_side(p, s == 0 ? p->body_a : p->body_b, e);
    moving += body >= 0;
    int k = body >= 0 ? first_not_finite(arm[s], 3) : -1;
    if (k >= 0)
      return nsd_report_fail(rep, NSD_BAD_INPUT, "rigid contacts: contact %d: arm_%c[%d] = %g", c,
                             s == 0 ? 'a' : 'b', k, arm[s][k]);
  }
  if (side_body[0] < 0 && side_body[1] < 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: contact %d: body_a and body_b are both -1", c);
  if (!moving)
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: contact %d: body_a = %d and body_b = %d are both "
                           "fixed or -1 (body_fixed)",
                           c, side_body[0], side_body[1]);
  if (p->sweep_block && p->n_blocks > 0 &&
      !(p->sweep_block[c] >= -1 && p->sweep_block[c] < p->n_blocks))
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: contact %d: sweep_block = %d, expected in [-1, %d)", c,
                           p->sweep_block[c], p->n_blocks);
  if (p->sweep_held && p->sweep_held[c] > 2)
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: contact %d: sweep_held = %d, expected 0, 1 or 2", c,
                           p->sweep_held[c]);
  if (p->sweep_held && p->sweep_held[c] != 0 &&
      nsd_rb_side(p, p->sweep_held[c] == 1 ? p->body_b : p->body_a, e) < 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: contact %d: sweep_held = %d holds the only side that "
                           "moves (body_a = %d, body_b = %d)",
                           c, p->sweep_held[c], side_body[0], side_body[1]);
  int k = first_not_finite(p->frame + 9 * e, 9);
  if (k >= 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "rigid contacts: contact %d: frame[%d] = %g", c, k,
                           p->frame[9 * e + (size_t)k]);
  k = p->q ? first_not_finite(p->q + (size_t)3 * c, 3) : -1;
  if (k >= 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "rigid contacts: contact %d: q[%d] = %g", c, k,
                           p->q[(size_t)3 * c + (size_t)k]);
  if (!(isfinite(p->mu[e]) && p->mu[e] >= 0.0))
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: contact %d: mu = %g, expected finite >= 0", c,
                           p->mu[e]);
  return NSD_OK;
}

static NsdStatus check_body(const NsdRigidContacts* p, int b, NsdReport* rep) {
  const double im = p->inv_mass[b];
  if (!(isfinite(im) && im >= 0.0))
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: body %d: inv_mass = %g, expected finite >= 0", b, im);
  const double* I = p->inv_inertia + (size_t)9 * b;
  int k = first_not_finite(I, 9);
  if (k >= 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "rigid contacts: body %d: inv_inertia[%d] = %g", b,
                           k, I[k]);
  // symmetric (to far above the rounding of R I^-1 R^T), non-negative diagonal
  double big = 0.0;
  for (k = 0; k < 9; ++k) big = fmax(big, fabs(I[k]));
  for (int i = 0; i < 3; ++i) {
    if (I[4 * i] < 0.0)
      return nsd_report_fail(rep, NSD_BAD_INPUT,
                             "rigid contacts: body %d: inv_inertia[%d] = %g, a negative diagonal "
                             "entry",
                             b, 4 * i, I[4 * i]);
    for (int j = i + 1; j < 3; ++j)
      if (!(fabs(I[3 * i + j] - I[3 * j + i]) <= 1e-9 * big))
        return nsd_report_fail(rep, NSD_BAD_INPUT,
                               "rigid contacts: body %d: inv_inertia not symmetric, [%d] = %g "
                               "and [%d] = %g",
                               b, 3 * i + j, I[3 * i + j], 3 * j + i, I[3 * j + i]);
  }
  if (p->sweep_scale && !(isfinite(p->sweep_scale[b]) && p->sweep_scale[b] > 0.0))
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: body %d: sweep_scale = %g, expected finite > 0", b,
                           p->sweep_scale[b]);
  return NSD_OK;
}

NsdStatus nsd_rb_check(const NsdRigidContacts* p, int nt, NsdReport* rep) {
  if (!p) return nsd_report_fail(rep, NSD_BAD_INPUT, "rigid contacts: problem is NULL");
  if (p->n_contacts < 0 || p->n_bodies < 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: n_contacts = %d, n_bodies = %d, expected >= 0",
                           p->n_contacts, p->n_bodies);
  if (p->n_contacts > 0 &&
      (!p->body_a || !p->body_b || !p->frame || !p->arm_a || !p->arm_b || !p->mu))
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: body_a, body_b, frame, arm_a, arm_b or mu is NULL "
                           "with %d contacts",
                           p->n_contacts);
  if (p->n_contacts > 0 && p->index && p->n_entries < 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "rigid contacts: n_entries = %d, expected >= 0",
                           p->n_entries);
  if (p->n_stages < 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "rigid contacts: n_stages = %d, expected >= 0",
                           p->n_stages);
  if (p->n_stages > 1 && !p->stage_end)
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: stage_end is NULL with n_stages = %d", p->n_stages);
  for (int s = 0; p->n_stages > 1 && s < p->n_stages; ++s) {
    const int lo = s > 0 ? p->stage_end[s - 1] : 0, e = p->stage_end[s];
    if (s + 1 == p->n_stages && e != p->n_contacts)
      return nsd_report_fail(rep, NSD_BAD_INPUT,
                             "rigid contacts: stage_end[%d] = %d, expected n_contacts = %d", s, e,
                             p->n_contacts);
    if (!(e >= lo && e <= p->n_contacts))
      return nsd_report_fail(rep, NSD_BAD_INPUT,
                             "rigid contacts: stage_end[%d] = %d, expected in [%d, %d] "
                             "(non-decreasing)",
                             s, e, lo, p->n_contacts);
  }
  if (p->n_blocks < 0)
    return nsd_report_fail(rep, NSD_BAD_INPUT, "rigid contacts: n_blocks = %d, expected >= 0",
                           p->n_blocks);
  if (p->sweep_block && p->n_blocks > 0 && p->n_stages > 1)
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: sweep_block with n_stages = %d, expected 0 or 1",
                           p->n_stages);
  if (p->n_bodies > 0 && (!p->inv_mass || !p->inv_inertia))
    return nsd_report_fail(rep, NSD_BAD_INPUT,
                           "rigid contacts: inv_mass or inv_inertia is NULL with %d bodies",
                           p->n_bodies);
  // the bodies, then the contacts, over threads: the lowest failing index of each found
  // without a message (a NULL report), then reported alone, the same for any thread count
  const int nb = p->n_bodies, nc = p->n_contacts;
  int bad_body = INT_MAX, bad_contact = INT_MAX;
  (void)nt;
#ifdef _OPENMP
#pragma omp parallel num_threads(nt) if (nt > 1 && nb + nc >= NSD_FCC_PARALLEL_MIN)
#endif
  {
#ifdef _OPENMP
#pragma omp for schedule(static) reduction(min : bad_body) nowait
#endif
    for (int b = 0; b < nb; ++b)
      if (b < bad_body && check_body(p, b, NULL) != NSD_OK) bad_body = b;
#ifdef _OPENMP
#pragma omp for schedule(static) reduction(min : bad_contact)
#endif
    for (int c = 0; c < nc; ++c)
      if (c < bad_contact && check_contact(p, c, NULL) != NSD_OK) bad_contact = c;
  }
  if (bad_body < nb) return check_body(p, bad_body, rep);
  if (bad_contact < nc) return check_contact(p, bad_contact, rep);
  return NSD_OK;
}

NsdStatus nsd_rigid_contacts_check(const NsdRigidContacts* p, NsdReport* rep) {
  return nsd_rb_check(p, 1, rep);
}

/* ---- products and blocks ------------------------------------------------------- */

void nsd_rigid_contacts_apply_jt_minv(const NsdRigidContacts* p, const double* r, double* v) {
  for (int c = 0; c < p->n_contacts; ++c) nsd_rb_contact_add(p, c, r + (size_t)3 * c, NULL, v);
}

void nsd_rigid_contacts_velocity(const NsdRigidContacts* p, const double* v, int with_q,
                                 double* u) {
  for (int c = 0; c < p->n_contacts; ++c) {
    double* uc = u + (size_t)3 * c;
    nsd_rb_contact_jv(p, c, v, uc);
    if (with_q && p->q)
      for (int k = 0; k < 3; ++k) uc[k] += p->q[(size_t)3 * c + (size_t)k];
  }
}

/* blk += sigma (m_b^-1 C_i C_j^T + G_i I_b^-1 G_j^T), column-major: the coupling of
 * the rows of contact i (frame Ci, arm ai) and contact j (Cj, aj) through body b,
 * G's rows g_k = arm x C_k. */
static void add_coupling(const NsdRigidContacts* p, int b, const double* Ci, const double* ai,
                         const double* Cj, const double* aj, double sigma, double* blk) {
  const double im = p->inv_mass[b];
  const double* I = p->inv_inertia + (size_t)9 * b;
  double gi[9], gj[9], hj[9];
  for (int k = 0; k < 3; ++k) {
    nsd_rb_cross(ai, Ci + 3 * k, gi + 3 * k);
    nsd_rb_cross(aj, Cj + 3 * k, gj + 3 * k);
  }
  for (int l = 0; l < 3; ++l)
    for (int k = 0; k < 3; ++k)
      hj[3 * l + k] =
          I[3 * k] * gj[3 * l] + I[3 * k + 1] * gj[3 * l + 1] + I[3 * k + 2] * gj[3 * l + 2];
  for (int l = 0; l < 3; ++l)
    for (int k = 0; k < 3; ++k) {
      const double cc =
          Ci[3 * k] * Cj[3 * l] + Ci[3 * k + 1] * Cj[3 * l + 1] + Ci[3 * k + 2] * Cj[3 * l + 2];
      const double gg =
          gi[3 * k] * hj[3 * l] + gi[3 * k + 1] * hj[3 * l + 1] + gi[3 * k + 2] * hj[3 * l + 2];
      blk[k + 3 * l] += sigma * (im * cc + gg);
    }
}

/* blk = sum over the bodies contacts i and j share of J_i,b S M_b^-1 J_j,b^T (S: scale,
 * nullable), sides in the order (A,A), (A,B), (B,A), (B,B); the sides in the bits of
 * @p held (1: A, 2: B) left out. */
static void pair_block(const NsdRigidContacts* p, int i, int j, const double* scale, unsigned held,
                       double* blk) {
  const size_t ei = nsd_rb_entry(p, i), ej = nsd_rb_entry(p, j);
  const int bi[2] = {nsd_rb_side(p, p->body_a, ei), nsd_rb_side(p, p->body_b, ei)};
  const int bj[2] = {nsd_rb_side(p, p->body_a, ej), nsd_rb_side(p, p->body_b, ej)};
  const double* ai[2] = {p->arm_a + 3 * ei, p->arm_b + 3 * ei};
  const double* aj[2] = {p->arm_a + 3 * ej, p->arm_b + 3 * ej};
  for (int e = 0; e < 9; ++e) blk[e] = 0.0;
  for (int s = 0; s < 2; ++s)
    for (int t = 0; t < 2; ++t) {
      if (bi[s] < 0 || bi[s] != bj[t] || (held & (1u << s)) || (held & (1u << t))) continue;
      const double sign = s == t ? 1.0 : -1.0;
      add_coupling(p, bi[s], p->frame + 9 * ei, ai[s], p->frame + 9 * ej, aj[t],
                   scale ? sign * scale[bi[s]] : sign, blk);
    }
}

/* The upper triangle of blk += sigma (m_b^-1 C C^T + G I_b^-1 G^T): add_coupling with i = j
 * (one frame C, one arm a), the same operations in the same order for the entries k <= l,
 * so the same bits, at half the work (G and I^-1 G once, 6 entries of 9). */
static void add_self_coupling(const NsdRigidContacts* p, int b, const double* C, const double* a,
                              double sigma, double* blk) {
  const double im = p->inv_mass[b];
  const double* I = p->inv_inertia + (size_t)9 * b;
  double g[9], h[9];
  for (int k = 0; k < 3; ++k) nsd_rb_cross(a, C + 3 * k, g + 3 * k);
  for (int l = 0; l < 3; ++l)
    for (int k = 0; k < 3; ++k)
      h[3 * l + k] =
          I[3 * k] * g[3 * l] + I[3 * k + 1] * g[3 * l + 1] + I[3 * k + 2] * g[3 * l + 2];
  for (int l = 0; l < 3; ++l)
    for (int k = 0; k <= l; ++k) {
      const double cc =
          C[3 * k] * C[3 * l] + C[3 * k + 1] * C[3 * l + 1] + C[3 * k + 2] * C[3 * l + 2];
      const double gg =
          g[3 * k] * h[3 * l] + g[3 * k + 1] * h[3 * l + 1] + g[3 * k + 2] * h[3 * l + 2];
      blk[k + 3 * l] += sigma * (im * cc + gg);
    }
}

/* W_cc, its lower triangle the mirror of its upper one (exactly symmetric): pair_block's sum
 * for i = j, the pairs of sides (A,A), (A,B), (B,A), (B,B) in its order; the mixed ones only for
 * a contact of a body with itself (then add_coupling, both arms). */
static void diagonal_block(const NsdRigidContacts* p, int c, const double* scale, unsigned held,
                           double* blk) {
  const size_t e = nsd_rb_entry(p, c);
  const int b[2] = {nsd_rb_side(p, p->body_a, e), nsd_rb_side(p, p->body_b, e)};
  const double* arm[2] = {p->arm_a + 3 * e, p->arm_b + 3 * e};
  const double* C = p->frame + 9 * e;
  for (int k = 0; k < 9; ++k) blk[k] = 0.0;
  for (int s = 0; s < 2; ++s)
    for (int t = 0; t < 2; ++t) {
      if (b[s] < 0 || b[s] != b[t] || (held & (1u << s)) || (held & (1u << t))) continue;
      const double sign = s == t ? 1.0 : -1.0;
      const double sigma = scale ? sign * scale[b[s]] : sign;
      if (s == t)
        add_self_coupling(p, b[s], C, arm[s], sigma, blk);
      else
        add_coupling(p, b[s], C, arm[s], C, arm[t], sigma, blk);
    }
  blk[1] = blk[3];
  blk[2] = blk[6];
  blk[5] = blk[7];
}

void nsd_rb_diagonal(const NsdRigidContacts* p, const double* scale, double* blocks) {
  for (int c = 0; c < p->n_contacts; ++c) diagonal_block(p, c, scale, 0, blocks + (size_t)9 * c);
}

void nsd_rb_diagonal_packed(const NsdRigidContacts* p, const double* scale,
                            const unsigned char* held, double* packed, int threads) {
  const int nc = p->n_contacts;
  NSD_FCC_PARALLEL_FOR(threads, nc)
  for (int c = 0; c < nc; ++c) {
    double blk[9];
    diagonal_block(p, c, scale, held ? held[c] : 0u, blk);
    double* d = packed + (size_t)6 * c;
    d[0] = blk[0];
    d[1] = blk[3];
    d[2] = blk[6];
    d[3] = blk[4];
    d[4] = blk[7];
    d[5] = blk[8];
  }
}

void nsd_rigid_contacts_diagonal(const NsdRigidContacts* p, double* blocks) {
  nsd_rb_diagonal(p, NULL, blocks);
}

/* The body -> (contact, side) index: entries 2 c + side of body b at
 * entry[ptr[b] .. ptr[b+1]), in increasing contact order. NSD_FAILED on no memory. */
static NsdStatus body_index(const NsdRigidContacts* p, int** ptr_out, int** entry_out) {
  const int nb = p->n_bodies, nc = p->n_contacts;
  int* ptr = calloc((size_t)nb + 1, sizeof *ptr);
  int* entry = malloc((size_t)(nc > 0 ? 2 * nc : 1) * sizeof *entry);
  int* fill = malloc((size_t)(nb > 0 ? nb : 1) * sizeof *fill);
  if (!ptr || !entry || !fill) {
    free(ptr);
    free(entry);
    free(fill);
    return NSD_FAILED;
  }
  for (int c = 0; c < nc; ++c) {
    const size_t e = nsd_rb_entry(p, c);
    const int A = nsd_rb_side(p, p->body_a, e), B = nsd_rb_side(p, p->body_b, e);
    if (A >= 0) ptr[A + 1]++;
    if (B >= 0) ptr[B + 1]++;
  }
  for (int b = 0; b < nb; ++b) ptr[b + 1] += ptr[b];
  if (nb > 0) memcpy(fill, ptr, (size_t)nb * sizeof *fill);
  for (int c = 0; c < nc; ++c) {
    const size_t e = nsd_rb_entry(p, c);
    const int A = nsd_rb_side(p, p->body_a, e), B = nsd_rb_side(p, p->body_b, e);
    if (A >= 0) entry[fill[A]++] = 2 * c;
    if (B >= 0) entry[fill[B]++] = 2 * c + 1;
  }
  free(fill);
  *ptr_out = ptr;
  *entry_out = entry;
  return NSD_OK;
}

/* ---- the operator ------------------------------------------------------------- */

/* What nsd_rigid_contacts_operator keeps in NsdDelassus.user. */
typedef struct RigidOperator {
  NsdRigidContacts p; /* copied; its arrays borrowed */
  int nt;             /* threads */
  int* body_ptr;      /* [n_bodies + 1] */
  int* body_entry;    /* 2 c + side, by body, in contact order */
} RigidOperator;

/* v[6 nb] = J^T x, gathered per body over its contacts in contact order. */
static void rb_jt(void* user, const double* x, double* v) {
  const RigidOperator* o = user;
  const NsdRigidContacts* p = &o->p;
  const int nb = p->n_bodies;
#ifdef _OPENMP
#pragma omp parallel for num_threads(o->nt) if (o->nt > 1 && nb >= RB_PARALLEL_MIN) \
    schedule(dynamic, RB_CHUNK)
#endif
  for (int b = 0; b < nb; ++b) {
    double vb[6] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    for (int e = o->body_ptr[b]; e < o->body_ptr[b + 1]; ++e) {
      const int c = o->body_entry[e] >> 1, side = o->body_entry[e] & 1;
      const size_t at = nsd_rb_entry(p, c);
      const double* C = p->frame + 9 * at;
      const double* xc = x + (size_t)3 * c;
      const double* arm = (side ? p->arm_b : p->arm_a) + 3 * at;
      const double sign = side ? -1.0 : 1.0;
      double F[3], axf[3];
      for (int k = 0; k < 3; ++k) F[k] = C[k] * xc[0] + C[3 + k] * xc[1] + C[6 + k] * xc[2];
      nsd_rb_cross(arm, F, axf);
      for (int k = 0; k < 3; ++k) {
        vb[k] += sign * F[k];
        vb[3 + k] += sign * axf[k];
      }
    }
    memcpy(v + (size_t)6 * b, vb, sizeof vb);
  }
}

/* w = M^-1 v, body by body. */
static void rb_minv(void* user, const double* v, double* w) {
  const RigidOperator* o = user;
  const NsdRigidContacts* p = &o->p;
  const int nb = p->n_bodies;
#ifdef _OPENMP
#pragma omp parallel for num_threads(o->nt) if (o->nt > 1 && nb >= RB_PARALLEL_MIN) schedule(static)
#endif
  for (int b = 0; b < nb; ++b) {
    const double* vb = v + (size_t)6 * b;
    const double* I = p->inv_inertia + (size_t)9 * b;
    double* wb = w + (size_t)6 * b;
    for (int k = 0; k < 3; ++k) {
      wb[k] = p->inv_mass[b] * vb[k];
      wb[3 + k] = I[3 * k] * vb[3] + I[3 * k + 1] * vb[4] + I[3 * k + 2] * vb[5];
    }
  }
}

/* y = J w, contact by contact. */
static void rb_j(void* user, const double* w, double* y) {
  const RigidOperator* o = user;
  const NsdRigidContacts* p = &o->p;
  const int nc = p->n_contacts;
#ifdef _OPENMP
#pragma omp parallel for num_threads(o->nt) if (o->nt > 1 && nc >= RB_PARALLEL_MIN) \
    schedule(dynamic, RB_CHUNK)
#endif
  for (int c = 0; c < nc; ++c) nsd_rb_contact_jv(p, c, w, y + (size_t)3 * c);
}

int nsd_rb_operator_release(NsdDelassus* op) {
  if (!op || op->apply_jt != rb_jt) return 0;
  RigidOperator* o = op->user;
  if (o) {
    free(o->body_ptr);
    free(o->body_entry);
    free(o);
  }
  op->user = NULL;
  return 1;
}

const NsdRigidContacts* nsd_rb_operator_contacts(const NsdDelassus* op) {
  return op && op->apply_jt == rb_jt && op->user ? &((const RigidOperator*)op->user)->p : NULL;
}

NsdStatus nsd_rigid_contacts_operator(const NsdRigidContacts* p, int threads, NsdDelassus* op,
                                      NsdReport* report) {
  if (!op) return nsd_report_fail(report, NSD_BAD_INPUT, "rigid contacts: op is NULL");
  memset(op, 0, sizeof *op);
  if (nsd_rb_check(p, nsd_fcc_threads(threads), report) != NSD_OK) return NSD_BAD_INPUT;
  RigidOperator* o = calloc(1, sizeof *o);
  if (!o || body_index(p, &o->body_ptr, &o->body_entry) != NSD_OK) {
    free(o);
    return nsd_report_fail(report, NSD_FAILED,
                           "rigid contacts: out of memory indexing %d contacts of %d bodies",
                           p->n_contacts, p->n_bodies);
  }
  o->p = *p;
  o->nt = nsd_fcc_threads(threads);
  op->size = 3 * p->n_contacts;
  op->n_dof = 6 * p->n_bodies;
  op->user = o;
  op->apply_jt = rb_jt;
  op->apply_minv = rb_minv;
  op->apply_j = rb_j;
  return NSD_OK;
}

/* ---- W assembled ----------------------------------------------------------------- */

/* The contacts sharing a body with contact c, sorted, each once, into out (NULL:
 * counted only): the merge of the two bodies' contact lists (each sorted). */
static int partners(const NsdRigidContacts* p, const int* ptr, const int* entry, int c, int* out) {
  const size_t e = nsd_rb_entry(p, c);
  const int A = nsd_rb_side(p, p->body_a, e), B = nsd_rb_side(p, p->body_b, e);
  int i = A >= 0 ? ptr[A] : 0, ie = A >= 0 ? ptr[A + 1] : 0;
  int j = B >= 0 ? ptr[B] : 0, je = B >= 0 ? ptr[B + 1] : 0;
  int n = 0, last = -1;
  while (i < ie || j < je) {
    int next;
    if (j >= je || (i < ie && entry[i] >> 1 <= entry[j] >> 1))
      next = entry[i++] >> 1;
    else
      next = entry[j++] >> 1;
    if (next == last) continue;
    if (out) out[n] = next;
    ++n;
    last = next;
  }
  return n;
}

NsdStatus nsd_rigid_contacts_assemble(const NsdRigidContacts* p, NsdMatrix** W, NsdReport* report) {
  if (!W) return nsd_report_fail(report, NSD_BAD_INPUT, "rigid contacts: W is NULL");
  *W = NULL;
  if (nsd_rigid_contacts_check(p, report) != NSD_OK) return NSD_BAD_INPUT;
  const int nc = p->n_contacts;
  int *ptr = NULL, *entry = NULL, *row_ptr = NULL, *row_end = NULL, *col = NULL, *cursor = NULL;
  NsdStatus status = body_index(p, &ptr, &entry);
  if (status == NSD_OK) {
    row_ptr = malloc(((size_t)nc + 1) * sizeof *row_ptr);
    row_end = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *row_end);
    cursor = malloc((size_t)(nc > 0 ? nc : 1) * sizeof *cursor);
    if (!row_ptr || !row_end || !cursor) status = NSD_FAILED;
  }
  // the block structure: a block for every pair of contacts sharing a body
  long long blocks = 0;
  if (status == NSD_OK) {
    row_ptr[0] = 0;
    for (int c = 0; c < nc && blocks <= INT_MAX; ++c) {
      blocks += partners(p, ptr, entry, c, NULL);
      row_ptr[c + 1] = (int)(blocks <= INT_MAX ? blocks : 0);
      row_end[c] = 3 * (c + 1);
    }
    if (blocks > INT_MAX) {
      status = NSD_FAILED;
    } else {
      col = malloc((size_t)(blocks > 0 ? blocks : 1) * sizeof *col);
      if (!col) status = NSD_FAILED;
    }
  }
  if (status == NSD_OK) {
    for (int c = 0; c < nc; ++c) partners(p, ptr, entry, c, col + row_ptr[c]);
    *W = nsd_matrix_create_sparse_block(nc, nc, row_end, row_end, row_ptr, col);
    if (!*W) status = NSD_FAILED;
  }
  // the values: W_ii, then W_ij for j > i and W_ji = W_ij^T (exactly symmetric);
  // the blocks below the diagonal of row j are met in increasing i
  if (status == NSD_OK) {
    memcpy(cursor, row_ptr, (size_t)nc * sizeof *cursor);
    for (int i = 0; i < nc; ++i)
      for (int k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
        const int j = col[k];
        if (j < i) continue;
        double* blk = nsd_matrix_sbm_block(*W, k);
        if (j == i) {
          diagonal_block(p, i, NULL, 0, blk);
          continue;
        }
        pair_block(p, i, j, NULL, 0, blk);
        double* mirror = nsd_matrix_sbm_block(*W, cursor[j]++);
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b) mirror[b + 3 * a] = blk[a + 3 * b];
      }
  }
  free(ptr);
  free(entry);
  free(row_ptr);
  free(row_end);
  free(col);
  free(cursor);
  if (status != NSD_OK)
    return nsd_report_fail(
        report, NSD_FAILED,
        "rigid contacts: out of memory assembling W of %d contacts (%lld blocks)", nc, blocks);
  return NSD_OK;
}
