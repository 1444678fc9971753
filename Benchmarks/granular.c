/* Granular FC3D problems for benchmarks: lattice of touching spheres of random
 * radii on a floor, contact frames, J, block-diagonal M^-1, q and the
 * assembled Delassus matrix. See granular.h for the model. */
#include "granular.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
  kMaxLayers = 64,           /* refuse taller stacks (the lattice is meant to be flat) */
  kPlacementIterations = 50, /* Newton steps allowed to place one sphere */
  kMaxContactsPerBody = 6,   /* floor or below, above, 2 in x, 2 in y */
  kMaxNeighbours = 2 * kMaxContactsPerBody - 1 /* contacts sharing a body with one contact */
};

static const double kPi = 3.14159265358979323846;
/* Largest radius_spread and radius_noise accepted (fractions of the radius). */
static const double kMaxSpread = 0.2;
static const double kMaxNoise = 0.02;
/* Placement converged when every distance condition holds to this fraction of the radius. */
static const double kPlacementTolerance = 1e-13;
/* Pairs closer than the sum of radii minus this fraction of the radius overlap. */
static const double kOverlapTolerance = 1e-9;

/* ---- random numbers: splitmix64, the same sequence on every platform -------- */

typedef struct Rng {
  unsigned long long state;
} Rng;

static unsigned long long rng_next(Rng* g) {
  unsigned long long z = (g->state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Uniform in [lo, hi). */
static double rng_uniform(Rng* g, double lo, double hi) {
  double unit = (double)(rng_next(g) >> 11) * (1.0 / 9007199254740992.0);
  return lo + (hi - lo) * unit;
}

/* ---- small vector helpers ---------------------------------------------------- */

static double dot3(const double* a, const double* b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const double* a, const double* b, double* out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

static double dist3(const double* a, const double* b) {
  double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  return sqrt(dot3(d, d));
}

/* Solve the 3x3 system A x = b (A row-major) by Gaussian elimination with
 * partial pivoting; returns 0 if A is singular. */
static int solve3(double a[3][3], double b[3], double x[3]) {
  for (int c = 0; c < 3; ++c) {
    int p = c;
    for (int r = c + 1; r < 3; ++r)
      if (fabs(a[r][c]) > fabs(a[p][c])) p = r;
    if (a[p][c] == 0.0) return 0;
    if (p != c) {
      for (int k = 0; k < 3; ++k) {
        double t = a[c][k];
        a[c][k] = a[p][k];
        a[p][k] = t;
      }
      double t = b[c];
      b[c] = b[p];
      b[p] = t;
    }
    for (int r = c + 1; r < 3; ++r) {
      double f = a[r][c] / a[c][c];
      for (int k = c; k < 3; ++k) a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int r = 2; r >= 0; --r) {
    double s = b[r];
    for (int k = r + 1; k < 3; ++k) s -= a[r][k] * x[k];
    x[r] = s / a[r][r];
  }
  return 1;
}

/* ---- parameters and lattice size ----------------------------------------------- */

void granular_params_default(GranularParams* p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->contacts = 1000;
  p->seed = 1;
  p->layers = 4;
  p->radius = 0.05;
  p->radius_spread = 0.05;
  p->radius_noise = 0.005;
  p->density = 2500.0;
  p->mu = 0.3;
  p->time_step = 1e-3;
  p->gravity = 9.81;
  p->velocity_noise = 0.5 * p->gravity * p->time_step;
  p->clearance = p->gravity * p->time_step * p->time_step;
}

int granular_contact_count(int layers, int nx, int ny) {
  // floor or below: one per sphere; x pairs; y pairs
  return layers * nx * ny + layers * (nx - 1) * ny + layers * nx * (ny - 1);
}

int granular_grid(int contacts, int max_layers, int* layers, int* nx, int* ny) {
  // as many layers as asked for while a 2 x 2 layer still fits in the budget
  int l = max_layers < 1 ? 1 : max_layers;
  while (l > 1 && granular_contact_count(l, 2, 2) > contacts) --l;

  // then the nx <= ny <= 2 nx + 1 lattice closest to the target, squarest on ties
  int best_nx = 1, best_ny = 1;
  long best_miss = labs((long)granular_contact_count(l, 1, 1) - contacts);
  double per_layer = (double)contacts / l;
  // x runs while an x by x layer (3 x^2 - 2 x contacts) is not far beyond the budget
  for (int x = 1; 3.0 * x * x - 2.0 * x <= per_layer + 3.0 * x; ++x) {
    // contacts per layer 3 x y - x - y = per_layer  =>  y = (per_layer + x) / (3 x - 1)
    int guess = (int)floor((per_layer + x) / (3.0 * x - 1.0));
    for (int y = guess - 1; y <= guess + 2; ++y) {
      if (y < x || y > 2 * x + 1) continue;
      long miss = labs((long)granular_contact_count(l, x, y) - contacts);
      if (miss < best_miss || (miss == best_miss && y - x < best_ny - best_nx)) {
        best_miss = miss;
        best_nx = x;
        best_ny = y;
      }
    }
  }
  *layers = l;
  *nx = best_nx;
  *ny = best_ny;
  return granular_contact_count(l, best_nx, best_ny);
}

/* ---- geometry -------------------------------------------------------------------- */

/* Radii: mean radius, plus or minus (alternating in x, y and z) an amplitude
 * drawn once per 2 x 2 block of each layer, plus a small independent term.
 * Along any row or column the alternating terms cancel in pairs, so chains of
 * touching spheres keep nearly equal lengths, and a large sphere rests on a
 * small one, so columns keep nearly equal heights. */
static void draw_radii(GranularScene* s, const GranularParams* p, Rng* rng) {
  const int nx = s->nx, ny = s->ny;
  const int bx = (nx + 1) / 2, by = (ny + 1) / 2;
  const double mean = p->radius * (1.0 - p->radius_spread - p->radius_noise);
  for (int k = 0; k < s->layers; ++k) {
    // one amplitude per 2 x 2 block, drawn in block order
    double* amplitude = s->mass;  // scratch: the masses are computed later
    for (int m = 0; m < bx * by; ++m)
      amplitude[m] = rng_uniform(rng, 0.0, p->radius_spread * p->radius);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        double sign = ((i + j + k) % 2 == 0) ? 1.0 : -1.0;
        double noise = rng_uniform(rng, -p->radius_noise, p->radius_noise) * p->radius;
        s->radius[i + nx * (j + ny * k)] = mean + sign * amplitude[i / 2 + bx * (j / 2)] + noise;
      }
  }
}

/* One placement condition: |c - centre| = distance, or c[axis] = value. */
typedef struct Condition {
  int is_plane;
  int axis;
  double value;
  const double* centre;
  double distance;
} Condition;

/* Newton's method on the three conditions from the guess in c; 1 if it converged. */
static int place_sphere(const Condition cond[3], double tolerance, double c[3]) {
  for (int it = 0; it < kPlacementIterations; ++it) {
    double a[3][3], f[3], step[3];
    double worst = 0;
    for (int m = 0; m < 3; ++m) {
      if (cond[m].is_plane) {
        f[m] = -(c[cond[m].axis] - cond[m].value);
        for (int k = 0; k < 3; ++k) a[m][k] = k == cond[m].axis ? 1.0 : 0.0;
        worst = fmax(worst, fabs(f[m]));
      } else {
        double d[3] = {c[0] - cond[m].centre[0], c[1] - cond[m].centre[1],
                       c[2] - cond[m].centre[2]};
        f[m] = -(dot3(d, d) - cond[m].distance * cond[m].distance);
        for (int k = 0; k < 3; ++k) a[m][k] = 2.0 * d[k];
        worst = fmax(worst, fabs(sqrt(dot3(d, d)) - cond[m].distance));
      }
    }
    if (worst <= tolerance) return 1;
    if (!solve3(a, f, step)) return 0;
    for (int k = 0; k < 3; ++k) c[k] += step[k];
  }
  return 0;
}

/* Place every sphere touching its back neighbours in x, y and below (or the
 * planes x = 0, y = 0 and the floor z = 0), in the order k, j, i, each from
 * the guess "one touching distance further along each axis". */
static int place_all(GranularScene* s, double radius, NsdReport* report) {
  const int nx = s->nx, ny = s->ny, per_layer = s->nx * s->ny;
  for (int k = 0; k < s->layers; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        int b = i + nx * (j + ny * k);
        double r = s->radius[b];
        double* c = s->centre + 3 * b;
        const int back[3] = {i > 0 ? b - 1 : -1, j > 0 ? b - nx : -1, k > 0 ? b - per_layer : -1};
        Condition cond[3];
        for (int axis = 0; axis < 3; ++axis) {
          int o = back[axis];
          if (o >= 0) {
            // touch the neighbour behind along this axis
            cond[axis] = (Condition){0, axis, 0.0, s->centre + 3 * o, r + s->radius[o]};
            c[axis] = s->centre[3 * o + axis] + r + s->radius[o];
          } else {
            // the plane x = 0 or y = 0, or rest on the floor z = 0
            double value = axis == 2 ? r : 0.0;
            cond[axis] = (Condition){1, axis, value, NULL, 0.0};
            c[axis] = value;
          }
        }
        if (!place_sphere(cond, kPlacementTolerance * radius, c)) {
          nsd_report_fail(report, NSD_FAILED,
                          "granular: sphere (%d,%d,%d) cannot touch its neighbours; use a "
                          "smaller radius_spread or radius_noise",
                          i, j, k);
          return 0;
        }
      }
  return 1;
}

/* Check that no two spheres of a 3 x 3 x 3 lattice window overlap. */
static int check_overlaps(const GranularScene* s, double radius, NsdReport* report) {
  const int nx = s->nx, ny = s->ny;
  for (int k = 0; k < s->layers; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        int b = i + nx * (j + ny * k);
        for (int dk = 0; dk <= 1; ++dk)
          for (int dj = -1; dj <= 1; ++dj)
            for (int di = -1; di <= 1; ++di) {
              int ii = i + di, jj = j + dj, kk = k + dk;
              if (ii < 0 || jj < 0 || ii >= nx || jj >= ny || kk >= s->layers) continue;
              int o = ii + nx * (jj + ny * kk);
              if (o <= b) continue;
              double d = dist3(s->centre + 3 * b, s->centre + 3 * o);
              if (d < s->radius[b] + s->radius[o] - kOverlapTolerance * radius) {
                nsd_report_fail(report, NSD_FAILED,
                                "granular: spheres %d and %d overlap by %g m; use a smaller "
                                "radius_spread or radius_noise",
                                b, o, s->radius[b] + s->radius[o] - d);
                return 0;
              }
            }
      }
  return 1;
}

/* ---- contacts ---------------------------------------------------------------------- */

/* Orthonormal frame n, t1, t2 (9 values) from the unit normal n. */
static void make_frame(const double* n, double* frame) {
  // t1 orthogonal to n and to the axis least aligned with n
  int axis = 0;
  for (int k = 1; k < 3; ++k)
    if (fabs(n[k]) < fabs(n[axis])) axis = k;
  double e[3] = {0, 0, 0};
  e[axis] = 1.0;
  double t1[3], t2[3];
  cross3(e, n, t1);
  double len = sqrt(dot3(t1, t1));
  for (int k = 0; k < 3; ++k) t1[k] /= len;
  cross3(n, t1, t2);
  for (int k = 0; k < 3; ++k) {
    frame[k] = n[k];
    frame[3 + k] = t1[k];
    frame[6 + k] = t2[k];
  }
}

/* Fill contact alpha between body_a (the normal points to it) and body_b
 * (-1: the floor): normal, frame, point, gap. */
static void add_contact(GranularScene* s, int alpha) {
  const int a = s->body_a[alpha], b = s->body_b[alpha];
  const double* ca = s->centre + 3 * a;
  double n[3], gap, p[3];
  if (b < 0) {
    // floor z = 0: normal +z, point under the sphere in the middle of the gap
    n[0] = 0;
    n[1] = 0;
    n[2] = 1;
    gap = ca[2] - s->radius[a];
    p[0] = ca[0];
    p[1] = ca[1];
    p[2] = 0.5 * gap;
  } else {
    // two spheres: normal from B to A, point in the middle of the gap
    const double* cb = s->centre + 3 * b;
    double d = dist3(ca, cb);
    for (int k = 0; k < 3; ++k) n[k] = (ca[k] - cb[k]) / d;
    gap = d - s->radius[a] - s->radius[b];
    for (int k = 0; k < 3; ++k) p[k] = cb[k] + (s->radius[b] + 0.5 * gap) * n[k];
  }
  s->gap[alpha] = gap > 0 ? gap : 0.0;
  make_frame(n, s->frame + 9 * alpha);
  memcpy(s->point + 3 * alpha, p, sizeof p);
}

/* Fill the 3 x 6 block (column-major) of J for one body of contact alpha:
 * sign * [F^T, ((p - c) x e)^T for e in n, t1, t2]. */
static void fill_j_block(const GranularScene* s, int alpha, int body, double sign, double* block) {
  const double* f = s->frame + 9 * alpha;
  const double* p = s->point + 3 * alpha;
  const double* c = s->centre + 3 * body;
  double arm[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]};
  for (int e = 0; e < 3; ++e) {
    double g[3];
    cross3(arm, f + 3 * e, g);
    for (int k = 0; k < 3; ++k) {
      block[e + 3 * k] = sign * f[3 * e + k];
      block[e + 3 * (3 + k)] = sign * g[k];
    }
  }
}

/* J as a sparse-block matrix: block row alpha holds B (lower index) then A. */
static NsdMatrix* build_j(const GranularScene* s) {
  const int nc = s->n_contacts, nb = s->n_bodies;
  int* row_end = malloc((size_t)nc * sizeof *row_end);
  int* col_end = malloc((size_t)nb * sizeof *col_end);
  int* row_ptr = malloc(((size_t)nc + 1) * sizeof *row_ptr);
  int* col_index = malloc(2 * (size_t)nc * sizeof *col_index);
  NsdMatrix* j = NULL;
  if (row_end && col_end && row_ptr && col_index) {
    for (int a = 0; a < nc; ++a) row_end[a] = 3 * (a + 1);
    for (int b = 0; b < nb; ++b) col_end[b] = 6 * (b + 1);
    row_ptr[0] = 0;
    for (int a = 0; a < nc; ++a) {
      int k = row_ptr[a];
      if (s->body_b[a] >= 0) col_index[k++] = s->body_b[a];
      col_index[k++] = s->body_a[a];
      row_ptr[a + 1] = k;
    }
    j = nsd_matrix_create_sparse_block(nc, nb, row_end, col_end, row_ptr, col_index);
  }
  if (j) {
    for (int a = 0; a < nc; ++a) {
      int k = row_ptr[a];
      if (s->body_b[a] >= 0) fill_j_block(s, a, s->body_b[a], -1.0, nsd_matrix_sbm_block(j, k++));
      fill_j_block(s, a, s->body_a[a], 1.0, nsd_matrix_sbm_block(j, k));
    }
  }
  free(row_end);
  free(col_end);
  free(row_ptr);
  free(col_index);
  return j;
}

/* M^-1: one 6 x 6 diagonal block per body, diag(1/m I3, 1/(2/5 m r^2) I3). */
static NsdMatrix* build_minv(const GranularScene* s) {
  const int nb = s->n_bodies;
  int* end = malloc((size_t)nb * sizeof *end);
  int* ptr = malloc(((size_t)nb + 1) * sizeof *ptr);
  int* col = malloc((size_t)nb * sizeof *col);
  NsdMatrix* m = NULL;
  if (end && ptr && col) {
    for (int b = 0; b < nb; ++b) {
      end[b] = 6 * (b + 1);
      ptr[b] = b;
      col[b] = b;
    }
    ptr[nb] = nb;
    m = nsd_matrix_create_sparse_block(nb, nb, end, end, ptr, col);
  }
  if (m) {
    for (int b = 0; b < nb; ++b) {
      double* block = nsd_matrix_sbm_block(m, b);
      double inertia = 0.4 * s->mass[b] * s->radius[b] * s->radius[b];
      for (int k = 0; k < 3; ++k) {
        block[k + 6 * k] = 1.0 / s->mass[b];
        block[(3 + k) + 6 * (3 + k)] = 1.0 / inertia;
      }
    }
  }
  free(end);
  free(ptr);
  free(col);
  return m;
}

/* ---- build ------------------------------------------------------------------------- */

static int params_valid(const GranularParams* p, NsdReport* report) {
  const char* field = NULL;
  double value = 0;
  if (p->contacts < 1)
    field = "contacts", value = p->contacts;
  else if (p->layers < 1 || p->layers > kMaxLayers)
    field = "layers", value = p->layers;
  else if (!(p->radius > 0) || !isfinite(p->radius))
    field = "radius", value = p->radius;
  else if (!(p->radius_spread >= 0 && p->radius_spread <= kMaxSpread))
    field = "radius_spread", value = p->radius_spread;
  else if (!(p->radius_noise >= 0 && p->radius_noise <= kMaxNoise))
    field = "radius_noise", value = p->radius_noise;
  else if (!(p->density > 0) || !isfinite(p->density))
    field = "density", value = p->density;
  else if (!(p->mu >= 0) || !isfinite(p->mu))
    field = "mu", value = p->mu;
  else if (!(p->time_step > 0) || !isfinite(p->time_step))
    field = "time_step", value = p->time_step;
  else if (!isfinite(p->gravity))
    field = "gravity", value = p->gravity;
  else if (!(p->velocity_noise >= 0) || !isfinite(p->velocity_noise))
    field = "velocity_noise", value = p->velocity_noise;
  else if (!(p->clearance >= 0 && p->clearance < 0.1 * p->radius))
    field = "clearance", value = p->clearance;
  if (!field) return 1;
  nsd_report_fail(report, NSD_BAD_INPUT, "granular: %s = %g is out of range", field, value);
  return 0;
}

void granular_destroy(GranularScene* s) {
  if (!s) return;
  free(s->centre);
  free(s->radius);
  free(s->mass);
  free(s->body_a);
  free(s->body_b);
  free(s->frame);
  free(s->point);
  free(s->gap);
  free(s->v_free);
  free(s->q);
  free(s->mu);
  nsd_matrix_destroy(s->J);
  nsd_matrix_destroy(s->Minv);
  free(s);
}

NsdStatus granular_build(const GranularParams* params, GranularScene** out, NsdReport* report) {
  if (report) nsd_report_start(report, "granular");
  if (!out) return nsd_report_fail(report, NSD_BAD_INPUT, "granular: output pointer is NULL");
  *out = NULL;
  GranularParams defaults;
  granular_params_default(&defaults);
  const GranularParams* p = params ? params : &defaults;
  if (!params_valid(p, report)) return NSD_BAD_INPUT;

  // lattice size and allocations
  GranularScene* s = calloc(1, sizeof *s);
  if (!s) return nsd_report_fail(report, NSD_FAILED, "granular: out of memory");
  s->n_contacts = granular_grid(p->contacts, p->layers, &s->layers, &s->nx, &s->ny);
  const int nb = s->nx * s->ny * s->layers, nc = s->n_contacts;
  s->n_bodies = nb;
  s->centre = malloc(3 * (size_t)nb * sizeof(double));
  s->radius = malloc((size_t)nb * sizeof(double));
  s->mass = malloc((size_t)nb * sizeof(double));
  s->v_free = malloc(6 * (size_t)nb * sizeof(double));
  s->body_a = malloc((size_t)nc * sizeof(int));
  s->body_b = malloc((size_t)nc * sizeof(int));
  s->frame = malloc(9 * (size_t)nc * sizeof(double));
  s->point = malloc(3 * (size_t)nc * sizeof(double));
  s->gap = malloc((size_t)nc * sizeof(double));
  s->q = malloc(3 * (size_t)nc * sizeof(double));
  s->mu = malloc((size_t)nc * sizeof(double));
  if (!s->centre || !s->radius || !s->mass || !s->v_free || !s->body_a || !s->body_b || !s->frame ||
      !s->point || !s->gap || !s->q || !s->mu) {
    granular_destroy(s);
    return nsd_report_fail(report, NSD_FAILED, "granular: out of memory for %d contacts", nc);
  }

  // random radii, then the packing, then the check that nothing overlaps
  Rng rng = {p->seed};
  draw_radii(s, p, &rng);
  if (!place_all(s, p->radius, report) || !check_overlaps(s, p->radius, report)) {
    granular_destroy(s);
    return report ? report->status : NSD_FAILED;
  }

  // shrink the radii a little (gaps), then masses
  for (int b = 0; b < nb; ++b) {
    s->radius[b] -= rng_uniform(&rng, 0.0, p->clearance);
    s->mass[b] = p->density * 4.0 / 3.0 * kPi * s->radius[b] * s->radius[b] * s->radius[b];
  }

  // contacts in body order: the floor or the sphere below, then the x and y
  // back neighbours (always lower body indices, so J's block columns increase)
  const int nx = s->nx, ny = s->ny, per_layer = nx * ny;
  int alpha = 0;
  for (int b = 0; b < nb; ++b) {
    int i = b % nx, j = (b / nx) % ny, k = b / per_layer;
    const int other[3] = {k > 0 ? b - per_layer : -1, i > 0 ? b - 1 : -2, j > 0 ? b - nx : -2};
    for (int m = 0; m < 3; ++m) {
      if (other[m] == -2) continue;
      s->body_a[alpha] = b;
      s->body_b[alpha] = other[m];
      add_contact(s, alpha);
      s->mu[alpha] = p->mu;
      s->max_gap = fmax(s->max_gap, s->gap[alpha]);
      // tilt: angle between the normal and the lattice axis of the pair
      int axis = m == 0 ? 2 : m - 1;
      double tilt = acos(fmin(1.0, fabs(s->frame[9 * alpha + axis]))) * 180.0 / kPi;
      s->max_tilt_deg = fmax(s->max_tilt_deg, tilt);
      ++alpha;
    }
  }

  // free velocities: random v0 plus one step of gravity
  for (int b = 0; b < nb; ++b) {
    double* v = s->v_free + 6 * b;
    double a = p->velocity_noise, w = p->velocity_noise / s->radius[b];
    for (int k = 0; k < 3; ++k) v[k] = rng_uniform(&rng, -a, a);
    for (int k = 0; k < 3; ++k) v[3 + k] = rng_uniform(&rng, -w, w);
    v[2] -= p->time_step * p->gravity;
  }

  // J, M^-1 and q = J v_free + gap / h on the normal rows
  s->J = build_j(s);
  s->Minv = build_minv(s);
  if (!s->J || !s->Minv) {
    granular_destroy(s);
    return nsd_report_fail(report, NSD_FAILED,
                           "granular: out of memory for J or M^-1 (%d contacts)", nc);
  }
  nsd_matrix_gemv(1.0, s->J, s->v_free, 0.0, s->q);
  for (int a = 0; a < nc; ++a) s->q[3 * a] += s->gap[a] / p->time_step;

  *out = s;
  return NSD_OK;
}

/* ---- Delassus assembly ------------------------------------------------------------ */

/* Index of block (row block, col) among the blocks of that block row, or -1. */
static int find_in_row(const NsdSparseBlock* m, int row, int col) {
  for (int k = m->row_ptr[row]; k < m->row_ptr[row + 1]; ++k)
    if (m->col_index[k] == col) return k;
  return -1;
}

NsdMatrix* granular_delassus(const GranularScene* s) {
  const int nc = s->n_contacts, nb = s->n_bodies;
  const NsdSparseBlock* j = s->J->sbm;

  // contacts of each body (CSR), in increasing contact order
  int* body_ptr = calloc((size_t)nb + 1, sizeof(int));
  int* body_contacts = malloc(2 * (size_t)nc * sizeof(int));
  int* row_end = calloc((size_t)nc, sizeof(int));
  int* row_ptr = calloc((size_t)nc + 1, sizeof(int));
  int* col_index = calloc((size_t)nc * kMaxNeighbours, sizeof(int));
  NsdMatrix* n = NULL;
  if (!body_ptr || !body_contacts || !row_end || !row_ptr || !col_index) goto done;
  for (int a = 0; a < nc; ++a)
    for (int k = j->row_ptr[a]; k < j->row_ptr[a + 1]; ++k) ++body_ptr[j->col_index[k] + 1];
  for (int b = 0; b < nb; ++b) body_ptr[b + 1] += body_ptr[b];
  {
    int* fill = malloc((size_t)nb * sizeof(int));
    if (!fill) goto done;
    memcpy(fill, body_ptr, (size_t)nb * sizeof(int));
    for (int a = 0; a < nc; ++a)
      for (int k = j->row_ptr[a]; k < j->row_ptr[a + 1]; ++k)
        body_contacts[fill[j->col_index[k]]++] = a;
    free(fill);
  }

  // block structure: row alpha holds every contact sharing a body with alpha
  // (merge of the sorted contact lists of its one or two bodies)
  row_ptr[0] = 0;
  for (int a = 0; a < nc; ++a) {
    row_end[a] = 3 * (a + 1);
    int lists = j->row_ptr[a + 1] - j->row_ptr[a];
    const int* l0 = body_contacts + body_ptr[j->col_index[j->row_ptr[a]]];
    int n0 = body_ptr[j->col_index[j->row_ptr[a]] + 1] - body_ptr[j->col_index[j->row_ptr[a]]];
    const int* l1 = l0;
    int n1 = 0;
    if (lists == 2) {
      int b1 = j->col_index[j->row_ptr[a] + 1];
      l1 = body_contacts + body_ptr[b1];
      n1 = body_ptr[b1 + 1] - body_ptr[b1];
    }
    int* dst = col_index + row_ptr[a];
    int count = 0, x = 0, y = 0;
    while (x < n0 || y < n1) {
      int v;
      if (y >= n1 || (x < n0 && l0[x] < l1[y]))
        v = l0[x++];
      else if (x >= n0 || l1[y] < l0[x])
        v = l1[y++];
      else {
        v = l0[x++];
        ++y;
      }
      dst[count++] = v;
    }
    row_ptr[a + 1] = row_ptr[a] + count;
  }
  n = nsd_matrix_create_sparse_block(nc, nc, row_end, row_end, row_ptr, col_index);
  if (!n) goto done;

  // values: N_ab += (J_a,body M^-1_body) J_b,body^T for each body shared by a and b
  for (int a = 0; a < nc; ++a) {
    for (int ka = j->row_ptr[a]; ka < j->row_ptr[a + 1]; ++ka) {
      int body = j->col_index[ka];
      const double* ja = j->values + j->value_start[ka];
      const double* minv = s->Minv->sbm->values + s->Minv->sbm->value_start[body];
      // y = J_a,body M^-1_body (3 x 6, column-major)
      double y[18] = {0};
      for (int c = 0; c < 6; ++c)
        for (int m = 0; m < 6; ++m) {
          double w = minv[m + 6 * c];
          if (w == 0.0) continue;
          for (int r = 0; r < 3; ++r) y[r + 3 * c] += ja[r + 3 * m] * w;
        }
      for (int t = body_ptr[body]; t < body_ptr[body + 1]; ++t) {
        int b = body_contacts[t];
        int kb = find_in_row(j, b, body);
        double* block = nsd_matrix_sbm_block(n, find_in_row(n->sbm, a, b));
        const double* jb = j->values + j->value_start[kb];
        for (int c = 0; c < 3; ++c)
          for (int r = 0; r < 3; ++r) {
            double sum = 0;
            for (int m = 0; m < 6; ++m) sum += y[r + 3 * m] * jb[c + 3 * m];
            block[r + 3 * c] += sum;
          }
      }
    }
  }

done:
  free(body_ptr);
  free(body_contacts);
  free(row_end);
  free(row_ptr);
  free(col_index);
  return n;
}

NsdFc* granular_fc(const GranularScene* s) {
  NsdMatrix* n = granular_delassus(s);
  if (!n) return NULL;
  return nsd_fc_create(3, s->n_contacts, n, s->q, s->mu);
}
