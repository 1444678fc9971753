/**
 * @file fc_bodies.h
 * @brief Private kernels of the rigid-contact operator (fc_bodies.c) and of the
 *        Gauss-Seidel in body-velocity form (fc3d_nsgs_bodies.c): one contact's
 *        J_c v and M^-1 J_c^T r applied from its frame and lever arms, the
 *        diagonal blocks W_cc, and the hook that lets nsd_delassus_factored_free
 *        free a rigid-contact operator. Not installed.
 *
 * Contact c with frame rows C = [n; t1; t2] (row-major in frame[9c..9c+8]) and
 * lever arm a on body A (b on body B):
 *   J_c v = C (v_A + w_A x a) - C (v_B + w_B x b),
 *   J_c^T r on A: (F, a x F), on B: (-F, -(b x F)),  F = C^T r,
 * since (w x a) . F = w . (a x F). M^-1 of a body: inv_mass on the linear part,
 * the world inverse inertia (row-major 3x3) on the angular part. A side with
 * body -1 (or a fixed body) has no velocity and contributes nothing. Contact c's
 * arrays are read at its entry (nsd_rb_entry: index[c], or c).
 */
#ifndef NSDYN_FC_BODIES_H
#define NSDYN_FC_BODIES_H

#include "nsdyn/nsd_bodies.h"

#if defined(__GNUC__)
#define NSD_RB_INTERNAL __attribute__((visibility("hidden")))
#else
#define NSD_RB_INTERNAL
#endif

/** x y cross product, out = x y. */
static inline void nsd_rb_cross(const double* x, const double* y, double* out) {
  out[0] = x[1] * y[2] - x[2] * y[1];
  out[1] = x[2] * y[0] - x[0] * y[2];
  out[2] = x[0] * y[1] - x[1] * y[0];
}

/** The entry of problem contact @p c in the contact arrays: index[c], or c. */
static inline size_t nsd_rb_entry(const NsdRigidContacts* p, int c) {
  return p->index ? (size_t)p->index[c] : (size_t)c;
}

/** The body at entry @p e of one side's array @p side: -1 for none or a fixed body. */
static inline int nsd_rb_side(const NsdRigidContacts* p, const int* side, size_t e) {
  const int b = side[e];
  return b >= 0 && p->body_fixed && p->body_fixed[b] ? -1 : b;
}

/** t += sign (v_lin + w x arm) for the 6 velocities @p vb of one body. */
static inline void nsd_rb_point_velocity(const double* vb, const double* arm, double sign,
                                         double* t) {
  double wxa[3];
  nsd_rb_cross(vb + 3, arm, wxa);
  for (int k = 0; k < 3; ++k) t[k] += sign * (vb[k] + wxa[k]);
}

/** out[3] = J_c v (q not added): the relative velocity of the two points in the frame. */
static inline void nsd_rb_contact_jv(const NsdRigidContacts* p, int c, const double* v,
                                     double* out) {
  const size_t e = nsd_rb_entry(p, c);
  const int A = nsd_rb_side(p, p->body_a, e), B = nsd_rb_side(p, p->body_b, e);
  double t[3] = {0.0, 0.0, 0.0};
  if (A >= 0) nsd_rb_point_velocity(v + (size_t)6 * A, p->arm_a + 3 * e, 1.0, t);
  if (B >= 0) nsd_rb_point_velocity(v + (size_t)6 * B, p->arm_b + 3 * e, -1.0, t);
  const double* C = p->frame + 9 * e;
  out[0] = C[0] * t[0] + C[1] * t[1] + C[2] * t[2];
  out[1] = C[3] * t[0] + C[4] * t[1] + C[5] * t[2];
  out[2] = C[6] * t[0] + C[7] * t[1] + C[8] * t[2];
}

/** vb += s M_b^-1 (F, arm x F) for body @p b (s: the side's sign times its scale). */
static inline void nsd_rb_body_add(const NsdRigidContacts* p, int b, const double* F,
                                   const double* arm, double s, double* vb) {
  double axf[3];
  nsd_rb_cross(arm, F, axf);
  const double im = p->inv_mass[b];
  const double* I = p->inv_inertia + (size_t)9 * b;
  for (int k = 0; k < 3; ++k) {
    vb[k] += s * (im * F[k]);
    vb[3 + k] += s * (I[3 * k] * axf[0] + I[3 * k + 1] * axf[1] + I[3 * k + 2] * axf[2]);
  }
}

/** The sides problem contact @p c holds in the sweeps (bits: 1 A, 2 B; sweep_held). */
static inline unsigned nsd_rb_held(const NsdRigidContacts* p, int c) {
  return p->sweep_held ? p->sweep_held[c] : 0u;
}

/**
 * v += S M^-1 J_c^T r_c for one contact (@p rc: 3 local values), S the diagonal
 * of @p scale (1 per body, nullable: 1): the velocity change of the two bodies
 * under the impulse r_c, the sides in the bits of @p held (1: A, 2: B) left as
 * they are.
 */
static inline void nsd_rb_contact_add_held(const NsdRigidContacts* p, int c, const double* rc,
                                           const double* scale, unsigned held, double* v) {
  const size_t e = nsd_rb_entry(p, c);
  const double* C = p->frame + 9 * e;
  double F[3];
  for (int k = 0; k < 3; ++k) F[k] = C[k] * rc[0] + C[3 + k] * rc[1] + C[6 + k] * rc[2];
  const int A = held & 1u ? -1 : nsd_rb_side(p, p->body_a, e);
  const int B = held & 2u ? -1 : nsd_rb_side(p, p->body_b, e);
  if (A >= 0) nsd_rb_body_add(p, A, F, p->arm_a + 3 * e, scale ? scale[A] : 1.0, v + (size_t)6 * A);
  if (B >= 0)
    nsd_rb_body_add(p, B, F, p->arm_b + 3 * e, scale ? -scale[B] : -1.0, v + (size_t)6 * B);
}

/** nsd_rb_contact_add_held with both sides moving. */
static inline void nsd_rb_contact_add(const NsdRigidContacts* p, int c, const double* rc,
                                      const double* scale, double* v) {
  nsd_rb_contact_add_held(p, c, rc, scale, 0u, v);
}

/* nsd_rigid_contacts_check over @p nt threads (the bodies' and the contacts' loops): the
 * same verdict and message, the lowest failing body or else contact, for any count. */
NSD_RB_INTERNAL NsdStatus nsd_rb_check(const NsdRigidContacts* p, int nt, NsdReport* rep);

/**
 * The diagonal blocks W_cc = J_c S M^-1 J_c^T (9 per contact, column-major,
 * exactly symmetric), S the diagonal of @p scale (nullable: 1). The one
 * computation of these blocks: nsd_rigid_contacts_diagonal, the diagonal of the
 * assembled W and the sweeps of nsd_fc3d_nsgs_bodies all call it, so they agree
 * to the bit.
 */
NSD_RB_INTERNAL void nsd_rb_diagonal(const NsdRigidContacts* p, const double* scale,
                                     double* blocks);

/**
 * The same blocks packed, 6 per contact: the upper triangle (0,0), (0,1), (0,2),
 * (1,1), (1,2), (2,2); nsd_rb_unpack gives the block back to the bit. The sides
 * each contact holds in @p held (1 per problem contact, nullable: none; the
 * sweep_held of the sweeps) are left out. On @p threads threads from
 * NSD_FCC_PARALLEL_MIN contacts (each block alone: the same bits).
 */
NSD_RB_INTERNAL void nsd_rb_diagonal_packed(const NsdRigidContacts* p, const double* scale,
                                            const unsigned char* held, double* packed, int threads);

/** The 3x3 column-major block @p W of the 6 packed values @p d. */
static inline void nsd_rb_unpack(const double* d, double* W) {
  W[0] = d[0];
  W[1] = W[3] = d[1];
  W[2] = W[6] = d[2];
  W[4] = d[3];
  W[5] = W[7] = d[4];
  W[8] = d[5];
}

/**
 * Free @p op's private state when it was made by nsd_rigid_contacts_operator
 * (returns 1), else leave it and return 0. Called by nsd_delassus_factored_free.
 */
NSD_RB_INTERNAL int nsd_rb_operator_release(NsdDelassus* op);

/** The contacts of @p op when it was made by nsd_rigid_contacts_operator, else NULL. */
NSD_RB_INTERNAL const NsdRigidContacts* nsd_rb_operator_contacts(const NsdDelassus* op);

#endif
