/* The drift of APGD's iterates along a null direction of N, and the jump that ends it
 * (options->apgd.drift; the sweeps' counterpart is fc_drift.h, whose opening comment tells
 * where such a direction comes from: two contacts of one rolling body).
 *
 * Along a null direction p of N the convex problem's objective 1/2 g^T N g + qs^T g is
 * linear, of slope qs^T p: its minimum on that line lies on a cone boundary, which the
 * projected gradient approaches by t |qs^T p| per iteration, the momentum adding speed
 * until a restart takes it away (a rolling capsule's step: the CCP residual flat at 7.8e-8
 * for 1,000 iterations, g moving 1e-8 to 1e-7 an iteration along p, the boundary 0.014
 * away). The watch: the measure flat (NSD_FCD_FLAT) at two iterations running whose changes
 * g' - g point the same way (|cos| >= 1 - APGD_DRIFT_ALIGNED, either sense: the momentum
 * may overshoot and come back), and that direction p a null direction of N: p^T N p <=
 * APGD_DRIFT_NULL times g'^T N g' / |g'|^2 (one product with N, at such iterations only).
 * Then g' moves along p downhill (the sign of -(N g' + qs)^T p) to the first cone boundary
 * ahead (nsd_fcd_cone_reach; refused when none lies within APGD_DRIFT_REACH |g'|), N g'
 * is formed again, and the run goes on from there with its momentum restarted. The run
 * keeps its best iterate, so a jump that does not help costs iterations, never the
 * answer. At most APGD_DRIFT_MAX_JUMPS per solve. Over parts every sum is added over them
 * and the jump's length is the least of theirs. */
#include <math.h>
#include <string.h>

#include "friction/fc_apgd_internal.h"
#include "friction/fc_drift.h"

/* Two changes point the same way when |cos| >= 1 - this. */
#define APGD_DRIFT_ALIGNED 1e-6
/* A direction p is null when p^T N p <= this times g'^T N g' / |g'|^2. */
#define APGD_DRIFT_NULL 1e-8
/* A boundary farther than this times |g'| is none. */
#define APGD_DRIFT_REACH 1e3
/* Jumps per solve, at most. */
#define APGD_DRIFT_MAX_JUMPS 16

int apgd_drift_jump(Apgd* a, ApgdDrift* s, double measure) {
  if (!a->drift_dir || a->drift_jumps >= APGD_DRIFT_MAX_JUMPS) return 0;
  const int flat = s->last >= 0.0 && measure >= NSD_FCD_FLAT * s->last;
  s->last = measure;
  if (!flat) {
    s->have_dir = 0;
    return 0;
  }
  const int m = a->m, dim = a->dim;
  double* p = a->drift_dir;
  const double* gp = a->gp;
  const double* g = a->gamma;
  // the change g' - g against the last one: |d|^2, |p|^2, d.p
  double sums[3] = {0.0, 0.0, 0.0};
  for (int i = 0; i < m; ++i) {
    const double di = gp[i] - g[i];
    sums[0] += di * di;
    sums[1] += p[i] * p[i];
    sums[2] += di * p[i];
    p[i] = di;
  }
  apgd_reduce_sum(a->d, sums, 3);
  const int compare = s->have_dir;
  s->have_dir = 1;
  if (!compare || !(sums[0] > 0.0) || !(sums[1] > 0.0)) return 0;
  if (fabs(sums[2]) < (1.0 - APGD_DRIFT_ALIGNED) * sqrt(sums[0] * sums[1])) return 0;
  // the unit direction, N p, and whether p is a null direction; the slope along p
  const double scale = 1.0 / sqrt(sums[0]);
  for (int i = 0; i < m; ++i) p[i] *= scale;
  double* np = a->drift_ndir;
  nsd_fcc_operator_apply(&a->op, p, np);
  double q[4] = {0.0, 0.0, 0.0, 0.0};  // p.Np, (Ng' + qs).p, g'.Ng', g'.g'
  for (int i = 0; i < m; ++i) {
    q[0] += p[i] * np[i];
    q[1] += (a->ngp[i] + a->qs[i]) * p[i];
    q[2] += gp[i] * a->ngp[i];
    q[3] += gp[i] * gp[i];
  }
  apgd_reduce_sum(a->d, q, 4);
  if (!(q[3] > 0.0) || !(q[0] <= APGD_DRIFT_NULL * q[2] / q[3]) || q[1] == 0.0) return 0;
  // downhill along p: the first cone boundary ahead (the least over the parts)
  const double sense = q[1] < 0.0 ? 1.0 : -1.0;
  const double reach = APGD_DRIFT_REACH * sqrt(q[3]);
  double t = reach;
  for (int c = 0; c < a->nc && t > 0.0; ++c) {
    const size_t o = (size_t)dim * (size_t)c;
    double dc[3] = {0.0, 0.0, 0.0};
    int moves = 0;
    for (int k = 0; k < dim; ++k) {
      dc[k] = sense * p[o + k];
      moves |= dc[k] != 0.0;
    }
    if (moves) t = nsd_fcd_cone_reach(dim, a->mu ? a->mu[c] : 0.0, gp + o, dc, t);
  }
  if (apgd_parts(a->d)) {
    double least = -t;
    a->d->reduce_max(a->d->user, &least, 1);
    t = -least;
  }
  if (!(t > 0.0) || t >= reach) return 0;
  // the jump, each contact back in its cone (round-off at the boundary met), N g' formed again
  double* x = a->gp;
  for (int c = 0; c < a->nc; ++c) {
    const size_t o = (size_t)dim * (size_t)c;
    for (int k = 0; k < dim; ++k) x[o + k] += t * sense * p[o + k];
    nsd_fc_project_on_cone(dim, a->mu ? a->mu[c] : 0.0, x + o);
  }
  nsd_fcc_operator_apply(&a->op, x, a->ngp);
  a->drift_jumps += 1;
  s->have_dir = 0;
  s->last = -1.0;
  return 1;
}
