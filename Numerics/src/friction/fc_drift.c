/* The drift watch of the Gauss-Seidel sweeps (fc_drift.h). */
#include "fc_drift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A jump longer than this many check intervals is not taken: no boundary ahead. */
#define FCD_T_MAX 1e15
/* An impulse within this fraction of its cone's boundary (in mu^2 rn^2 - |rt|^2) is on it. */
#define FCD_ON_BOUNDARY 1e-10

void nsd_fcd_init(NsdFcDrift* s, int dim, int nc, int enabled, int accelerated) {
  memset(s, 0, sizeof *s);
  s->dim = dim;
  s->linear = accelerated ? NSD_FCD_LINEAR_ACCELERATED : NSD_FCD_LINEAR;
  s->nc = nc;
  s->off = !enabled;  // a part without contacts still takes part in the parts' calls
  s->last_error = -1.0;
}

void nsd_fcd_free(NsdFcDrift* s) {
  free(s->before);
  free(s->step);
  s->before = s->step = NULL;
}

/* The smallest root s > 0 of a s^2 + b s + c where the quadratic, >= 0 at 0 (c > 0), turns
 * negative; INFINITY when it never does. */
static double first_negative(double a, double b, double c) {
  if (a == 0.0) return b < 0.0 ? -c / b : INFINITY;
  const double disc = b * b - 4.0 * a * c;
  if (a > 0.0 && (b >= 0.0 || disc < 0.0)) return INFINITY;  // convex, no positive root
  const double root = sqrt(disc > 0.0 ? disc : 0.0);
  const double q = -0.5 * (b + (b >= 0.0 ? root : -root));
  // the roots q / a and c / q (q != 0 here: a < 0 gives disc > b^2, a > 0 gives b < 0)
  const double r1 = q / a, r2 = c / q;
  if (a < 0.0) return r1 > 0.0 ? r1 : r2;  // roots of opposite signs: the positive one
  return r1 < r2 ? r1 : r2;                // both positive: the first
}

double nsd_fcd_cone_reach(int dim, double mu, const double* ra, const double* da, double t_max) {
  const double rn = ra[0], dn = da[0];
  double rt2 = 0.0, dt2 = 0.0, rd = 0.0;
  for (int k = 1; k < dim; ++k) {
    rt2 += ra[k] * ra[k];
    dt2 += da[k] * da[k];
    rd += ra[k] * da[k];
  }
  double t = t_max;
  // rn + s dn >= 0
  if (dn < 0.0) t = fmin(t, rn > 0.0 ? -rn / dn : 0.0);
  if (mu == 0.0) return dt2 > 0.0 ? 0.0 : t;  // frictionless: no tangential impulse at all
  // mu^2 (rn + s dn)^2 - |rt + s dt|^2 = a s^2 + b s + c >= 0
  const double mu2 = mu * mu;
  const double a = mu2 * dn * dn - dt2, b = 2.0 * (mu2 * rn * dn - rd), c = mu2 * rn * rn - rt2;
  if (c > FCD_ON_BOUNDARY * mu2 * rn * rn) return fmin(t, first_negative(a, b, c));
  // on the boundary (or at the apex): the change must point into the cone
  const double scale = mu2 * fabs(rn * dn) + sqrt(rt2 * dt2);
  if (b < -FCD_ON_BOUNDARY * scale) return 0.0;
  if (b > FCD_ON_BOUNDARY * scale) return a < 0.0 ? fmin(t, -b / a) : t;
  // along the boundary: stays in when the cone holds the change itself
  return a >= 0.0 && (dn >= 0.0 || rn > 0.0) ? t : 0.0;
}

void nsd_fcd_before(NsdFcDrift* s, const double* r) {
  if (!s->armed || s->off || s->fault) return;
  const size_t n = (size_t)s->dim * (size_t)s->nc;
  if (n > 0) memcpy(s->before, r, n * sizeof *r);
  s->have_before = 1;
}

double nsd_fcd_check(NsdFcDrift* s, const double* r, const double* mu, const int* index,
                     double error, const NsdFcdReduce* parts, const double** d) {
  if (s->off) return 0.0;
  if (s->jumped) {
    s->jumped = 0;
    if (!(error <= NSD_FCD_WORSE * s->jump_error)) {
      s->off = 1;  // the jump did not help: no more
      return 0.0;
    }
  }
  const int flat = s->last_error >= 0.0 && error >= NSD_FCD_FLAT * s->last_error;
  s->last_error = error;
  const int had_before = s->have_before;
  s->have_before = 0;
  if (!flat) {
    s->armed = s->have_step = s->tries = 0;
    return 0.0;
  }
  const size_t n = (size_t)s->dim * (size_t)s->nc;
  if (!s->armed) {
    if (s->rest > 0) {
      s->rest -= 1;
      return 0.0;
    }
    if (!s->before && !s->fault) {
      const size_t n1 = n > 0 ? n : 1;
      s->before = malloc(n1 * sizeof *s->before);
      s->step = malloc(n1 * sizeof *s->step);
      // out of memory: alone, the sweeps go on without the watch; over parts, the first
      // comparison turns it off on every part
      if (!s->before || !s->step) s->fault = 1;
      if (s->fault && !parts) {
        s->off = 1;
        return 0.0;
      }
    }
    s->armed = 1;
    return 0.0;
  }
  if (!had_before && !s->fault) return 0.0;
  // the sweep's change, against the last checked sweep's
  double sums[3] = {0.0, 0.0, s->fault};  // ||f||^2, ||f - f_last||^2, faults
  for (size_t i = 0; !s->fault && i < n; ++i) {
    const double fi = r[i] - s->before[i];
    const double e = fi - s->step[i];
    sums[1] += e * e;
    sums[0] += fi * fi;
    s->step[i] = fi;
  }
  const int compare = s->have_step;
  s->have_step = 1;
  if (!compare) return 0.0;
  if (parts) parts->sum(parts->user, sums, 3);
  if (sums[2] > 0.0) {
    s->off = 1;
    return 0.0;
  }
  const double ff = sums[0], diff = sums[1];
  // a drift: r moves by step per sweep; the first cone boundary ahead (over the parts: the
  // nearest of theirs)
  double t = 0.0;
  if (ff > 0.0 && diff <= s->linear * s->linear * ff) {
    t = FCD_T_MAX;
    for (int a = 0; a < s->nc && t >= 2.0; ++a) {
      const double* da = s->step + (size_t)s->dim * (size_t)a;
      int moves = 0;
      for (int k = 0; k < s->dim; ++k) moves |= da[k] != 0.0;
      if (moves)
        t = nsd_fcd_cone_reach(s->dim, mu[index ? index[a] : a], r + (size_t)s->dim * (size_t)a, da,
                               t);
    }
    if (parts) {
      double least = -t;
      parts->max(parts->user, &least, 1);
      t = -least;
    }
  }
  if (t >= 2.0 && t < FCD_T_MAX) {
    *d = s->step;
    return t;
  }
  // no drift, the rest of r still settling, or nowhere to go: compare again a few times,
  // then rest
  if (++s->tries >= NSD_FCD_TRIES) {
    s->armed = s->have_step = s->tries = 0;
    s->rest = NSD_FCD_REST;
  }
  return 0.0;
}

void nsd_fcd_jumped(NsdFcDrift* s) {
  s->jumps += 1;
  s->jumped = 1;
  s->jump_error = s->last_error;
  s->armed = s->have_step = s->have_before = s->tries = 0;
  if (s->jumps >= NSD_FCD_MAX_JUMPS) s->off = 1;
}
