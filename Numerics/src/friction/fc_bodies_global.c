/*
 * The global friction-contact problem (nsd_gfc.h) of a rigid-contact problem
 * (nsd_bodies.h): the body velocities kept as unknowns,
 *   M v = M v_free + H r,   u = H^T v + q,
 * with M the bodies' 6x6 mass blocks (mass on the linear part, the world inertia
 * on the angular part) and H = J^T, column 3c+k the row k of contact c's J:
 * (C_k, a x C_k) on body A and -(C_k, b x C_k) on body B (fc_bodies.h). Then
 * v = v_free + M^-1 J^T r and u = J v_free + q + W r: the same solution as the
 * FC3D problem u = W r + q_W.
 *
 * A part of a body that does not move (inverse mass 0, or an inverse inertia of
 * zeros) gets M = I there, q = v_free and no column entries of H: its velocity
 * stays v_free. A fixed body (body_fixed) likewise. An inverse inertia that is
 * neither zero nor invertible is refused.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "friction/fc_bodies.h"
#include "nsdyn/nsd_problems.h"

/* The inverse of the symmetric 3x3 @p a (row-major) in @p out; 0 when its determinant is
 * not above 1e-12 of the cube of its largest entry. */
static int invert3(const double* a, double* out) {
  double c[9];
  c[0] = a[4] * a[8] - a[5] * a[7];
  c[1] = a[2] * a[7] - a[1] * a[8];
  c[2] = a[1] * a[5] - a[2] * a[4];
  c[3] = a[5] * a[6] - a[3] * a[8];
  c[4] = a[0] * a[8] - a[2] * a[6];
  c[5] = a[2] * a[3] - a[0] * a[5];
  c[6] = a[3] * a[7] - a[4] * a[6];
  c[7] = a[1] * a[6] - a[0] * a[7];
  c[8] = a[0] * a[4] - a[1] * a[3];
  const double det = a[0] * c[0] + a[1] * c[3] + a[2] * c[6];
  double big = 0.0;
  for (int k = 0; k < 9; ++k) big = fmax(big, fabs(a[k]));
  if (!(det > 1e-12 * big * big * big)) return 0;
  for (int k = 0; k < 9; ++k) out[k] = c[k] / det;
  return 1;
}

static int all_zero(const double* x, int n) {
  for (int k = 0; k < n; ++k)
    if (x[k] != 0.0) return 0;
  return 1;
}

typedef struct Triplets {
  int n;
  int* i;
  int* j;
  double* x;
} Triplets;

static void put(Triplets* t, int i, int j, double x) {
  t->i[t->n] = i;
  t->j[t->n] = j;
  t->x[t->n] = x;
  ++t->n;
}

static void triplets_free(Triplets* t) {
  free(t->i);
  free(t->j);
  free(t->x);
}

static int triplets_alloc(Triplets* t, size_t n) {
  t->n = 0;
  t->i = malloc(n * sizeof *t->i);
  t->j = malloc(n * sizeof *t->j);
  t->x = malloc(n * sizeof *t->x);
  return t->i && t->j && t->x;
}

/* M's block of body b and its part of q = M v_free; moves[2b], moves[2b+1]: whether its
 * linear and angular parts respond to impulses. */
static NsdStatus body_mass(const NsdRigidContacts* p, int b, const double* v_free, Triplets* M,
                           double* q, unsigned char* moves, NsdReport* report) {
  const int r0 = 6 * b;
  const double* vf = v_free + (size_t)6 * b;
  const int fixed = p->body_fixed && p->body_fixed[b];
  const double im = p->inv_mass[b];
  moves[2 * b] = (unsigned char)(!fixed && im > 0.0);
  for (int k = 0; k < 3; ++k) {
    const double m = moves[2 * b] ? 1.0 / im : 1.0;
    put(M, r0 + k, r0 + k, m);
    q[r0 + k] = m * vf[k];
  }
  const double* Iinv = p->inv_inertia + (size_t)9 * b;
  double I[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  moves[2 * b + 1] = (unsigned char)(!fixed && !all_zero(Iinv, 9));
  if (moves[2 * b + 1] && !invert3(Iinv, I))
    return nsd_report_fail(report, NSD_BAD_INPUT,
                           "rigid contacts to global: body %d: the inverse inertia is neither "
                           "zero nor invertible (diagonal %g %g %g)",
                           b, Iinv[0], Iinv[4], Iinv[8]);
  for (int k = 0; k < 3; ++k) {
    double s = 0.0;
    for (int l = 0; l < 3; ++l) {
      put(M, r0 + 3 + k, r0 + 3 + l, I[3 * k + l]);
      s += I[3 * k + l] * vf[3 + l];
    }
    q[r0 + 3 + k] = s;
  }
  return NSD_OK;
}

/* H's entries of contact c on body b (side sign s, lever arm a). */
static void contact_columns(const NsdRigidContacts* p, int c, int b, const double* a, double s,
                            const unsigned char* moves, Triplets* H) {
  const double* C = p->frame + 9 * nsd_rb_entry(p, c);
  for (int k = 0; k < 3; ++k) {
    const int col = 3 * c + k;
    double g[3];
    nsd_rb_cross(a, C + 3 * k, g);
    for (int l = 0; l < 3; ++l) {
      if (moves[2 * b]) put(H, 6 * b + l, col, s * C[3 * k + l]);
      if (moves[2 * b + 1]) put(H, 6 * b + 3 + l, col, s * g[l]);
    }
  }
}

NsdStatus nsd_rigid_contacts_global(const NsdRigidContacts* p, const double* v_free, NsdGfc** out,
                                    NsdReport* report) {
  *out = NULL;
  NsdStatus status = nsd_rigid_contacts_check(p, report);
  if (status != NSD_OK) return status;
  const int nb = p->n_bodies, nc = p->n_contacts;
  for (int k = 0; k < 6 * nb; ++k)
    if (!isfinite(v_free[k]))
      return nsd_report_fail(report, NSD_BAD_INPUT,
                             "rigid contacts to global: body %d: v_free[%d] = %g", k / 6, k % 6,
                             v_free[k]);
  Triplets M = {0}, H = {0};
  double* q = malloc(((size_t)6 * nb + 1) * sizeof *q);
  double* b = calloc((size_t)3 * nc + 1, sizeof *b);
  double* mu = malloc(((size_t)nc + 1) * sizeof *mu);
  unsigned char* moves = malloc((size_t)2 * nb + 1);
  NsdMatrix *Mm = NULL, *Hm = NULL;
  if (!q || !b || !mu || !moves || !triplets_alloc(&M, (size_t)12 * nb + 1) ||
      !triplets_alloc(&H, (size_t)36 * nc + 1)) {
    status = nsd_report_fail(report, NSD_FAILED, "rigid contacts to global: out of memory");
    goto done;
  }
  for (int body = 0; body < nb && status == NSD_OK; ++body)
    status = body_mass(p, body, v_free, &M, q, moves, report);
  if (status != NSD_OK) goto done;
  for (int c = 0; c < nc; ++c) {
    const size_t e = nsd_rb_entry(p, c);
    const int A = nsd_rb_side(p, p->body_a, e), B = nsd_rb_side(p, p->body_b, e);
    if (A >= 0) contact_columns(p, c, A, p->arm_a + 3 * e, 1.0, moves, &H);
    if (B >= 0) contact_columns(p, c, B, p->arm_b + 3 * e, -1.0, moves, &H);
    if (p->q) memcpy(b + 3 * c, p->q + 3 * c, 3 * sizeof *b);
    mu[c] = p->mu[e];
  }
  Mm = nsd_matrix_create_csc_from_triplets(6 * nb, 6 * nb, M.n, M.i, M.j, M.x);
  Hm = nsd_matrix_create_csc_from_triplets(6 * nb, 3 * nc, H.n, H.i, H.j, H.x);
  if (Mm && Hm) {
    *out = nsd_gfc_create(3, nc, Mm, Hm, q, b, mu);  // takes Mm and Hm, even when it fails
  } else {
    nsd_matrix_destroy(Mm);
    nsd_matrix_destroy(Hm);
  }
  if (!*out) {
    status = nsd_report_fail(report, NSD_FAILED, "rigid contacts to global: out of memory");
  }
done:
  triplets_free(&M);
  triplets_free(&H);
  free(q);
  free(b);
  free(mu);
  free(moves);
  return status;
}
