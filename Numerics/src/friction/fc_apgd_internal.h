/* The inner run of APGD (fc_apgd_run.c), shared with the De Saxce loop and the entry points
 * (fc3d_apgd.c): the state of one solve, the global quantities of a solve split in parts,
 * and one accelerated run. Internal to Numerics. */
#ifndef NSD_FC_APGD_INTERNAL_H
#define NSD_FC_APGD_INTERNAL_H

#include "friction/fc_cone_internal.h"

/* State of one APGD solve. Vectors of m = dim * nc: seven in all, two of
 * them the caller's r and u (used as workspace until the answer is written):
 *   g_k, g' and the best iterate rotate over three buffers without copies
 *   (the best may be g_k; g' is written to a buffer that is neither);
 *   N g_k and N g' over two (N best is recomputed once at the end of a run
 *   when the best is not the last iterate);
 *   y and N y. */
typedef struct Apgd {
  NsdFccOperator op;
  const NsdDelassus* d; /* its reduce_sum / reduce_max: one part of a global problem */
  int dim, nc, m, nt;
  double m_global; /* m summed over the parts (m itself for a whole problem) */
  const double* mu;
  int max_backtracks, adaptive_restart;
  double* w; /* nullable: [m] weights of the metric D of the projected step (fc_apgd_metric.h) */
  double L;  /* Lipschitz estimate, t = 1/L */
  const double* qs; /* [m] linear term of the convex problem */
  double qs_norm;
  const double* q_true; /* nullable: [m] q of the Coulomb problem (De Saxcé mode) */
  double q_norm;
  double* pool[3];     /* buffers of gamma, gp, best */
  double* gamma;       /* g_k */
  double* gp;          /* g' = g_{k+1} */
  double* best;        /* best iterate so far */
  double* ngamma;      /* N g_k */
  double* ngp;         /* N g' */
  double* y;           /* y_k */
  double* ny;          /* N y_k */
  double best_value;   /* measure of best */
  double own, coulomb; /* measures of the last iterate evaluated */
  double* keep; /* De Saxcé mode: copy of the iterate of least Coulomb error so far (nullable) */
  double keep_value;                  /* its Coulomb error */
  double* block;                      /* one allocation for the vectors not the caller's */
  double part[NSD_FCC_MAX_CHUNKS][3]; /* per-chunk sums of apgd_sums_rows */
  double* drift_dir;                  /* nullable: [m] the last change of g (fc_apgd_drift.c) */
  double* drift_ndir;                 /* [m] N times the drift's direction */
  int drift_jumps;                    /* jumps taken in this solve */
} Apgd;

/* The drift watch of one run (fc_apgd_drift.c). */
typedef struct ApgdDrift {
  int have_dir; /* drift_dir holds the last change of g */
  double last;  /* the measure at the last iteration (< 0: none) */
} ApgdDrift;

/* How an inner run ended. */
typedef enum ApgdEnd {
  APGD_CONVERGED,  /* the measure of the best iterate <= tolerance */
  APGD_INNER_DONE, /* De Saxcé mode: CCP solved well enough to update s */
  APGD_STOPPED,    /* iteration budget or time limit */
  APGD_DIVERGED    /* a non-finite iterate */
} ApgdEnd;

/* What apgd_eval writes besides the measures. */
typedef enum ApgdExtrapolate {
  APGD_EXTRAPOLATE_NONE,     /* y untouched */
  APGD_EXTRAPOLATE_MOMENTUM, /* y = g' + beta (g' - g), N y likewise */
  APGD_EXTRAPOLATE_RESTART   /* y = g', N y = N g' */
} ApgdExtrapolate;

/* ---- global quantities (NsdDelassus.reduce_sum / reduce_max), fc_apgd_run.c ---- */
int apgd_parts(const NsdDelassus* d);
void apgd_reduce_sum(const NsdDelassus* d, double* values, int n);
double apgd_norm(const NsdDelassus* d, const double* x, int m, int nt);
double apgd_natural_residual(const NsdDelassus* d, int dim, int nc, const double* mu,
                             const double* r, const double* v, int desaxce, double q_norm, int nt);
int apgd_time_up(const NsdDelassus* d, const NsdReport* rep, double limit);
int apgd_input_ok(const NsdDelassus* d, int ok, NsdReport* rep);

/* ---- one solve: its buffers, start point, measures and one accelerated run ---- */
NsdStatus apgd_init(Apgd* a, const NsdDelassus* d, int dim, const double* mu, double* r, double* u,
                    const NsdSolverOptions* opt, NsdReport* rep);
void apgd_free(Apgd* a);
double* apgd_free_buffer(const Apgd* a);
void apgd_start(Apgd* a, const double* r, int warm);
double apgd_eval(Apgd* a, const double* x, const double* nx, ApgdExtrapolate mode, double beta,
                 double* next, double t_next);
ApgdEnd apgd_run(Apgd* a, double tol, int max_iterations, double time_limit, int desaxce,
                 NsdReport* rep);

/* ---- the drift along a null direction of N, fc_apgd_drift.c ---- */
/* After iteration g -> g' (measure @p measure of g', the one whose flatness counts): when
 * the measure is flat and g' - g keeps its direction p, a null direction of N (p^T N p
 * tiny against g'^T N g' / |g'|^2), g' and N g' jump along p downhill (on the linear term)
 * to the first cone boundary; returns 1 then (the caller evaluates g' again, momentum
 * restarted), else 0. Every part of a distributed problem decides alike. */
int apgd_drift_jump(Apgd* a, ApgdDrift* s, double measure);

#endif
