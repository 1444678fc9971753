/*
 * Sparse Cholesky of an NsdFactor by CHOLMOD (supernodal or simplicial, AMD
 * ordering), the lower triangle read, one thread unless nsd_factor_set_threads asks for more;
 * a pivot negligible against a_jj is refused (see matrix_factor.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "matrix/matrix_factor_impl.h"

/* ---- sparse Cholesky (CHOLMOD) ------------------------------------------------- */

/* Start a CHOLMOD workspace that never prints and always orders with AMD. */
void nsd_factor_chol_common_start(cholmod_common* cc) {
  cholmod_start(cc);
  cc->print = 0;
  cc->error_handler = NULL;
  cc->nmethods = 1;
  cc->method[0].ordering = CHOLMOD_AMD;
}

/* Pivot of column j (in factor order) of a numeric CHOLMOD factor: l_jj^2 or d_jj. */
static double cholmod_pivot(const cholmod_factor* l, int j) {
  const double* x = l->x;
  if (!l->is_super) {
    // simplicial: the diagonal entry comes first in each column
    double d = x[((const int*)l->p)[j]];
    return l->is_ll ? d * d : d;
  }
  // supernodal (always LL'): dense column blocks of nsrow rows
  const int* super = l->super;
  const int* pi = l->pi;
  const int* px = l->px;
  int lo = 0, hi = (int)l->nsuper - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (super[mid] <= j)
      lo = mid;
    else
      hi = mid - 1;
  }
  int nsrow = pi[lo + 1] - pi[lo], off = j - super[lo];
  double d = x[(size_t)px[lo] + (size_t)off + (size_t)off * (size_t)nsrow];
  return d * d;
}

/* A CHOLMOD view of canonical c, symmetric with its lower triangle read. */
static cholmod_sparse chol_view(const cs_di* c) {
  cholmod_sparse view;
  memset(&view, 0, sizeof view);
  view.nrow = (size_t)c->m;
  view.ncol = (size_t)c->n;
  view.nzmax = (size_t)c->p[c->n];
  view.p = c->p;
  view.i = c->i;
  view.x = c->x;
  view.stype = -1;
  view.itype = CHOLMOD_INT;
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  view.sorted = 1;
  view.packed = 1;
  return view;
}

/* Symbolic analysis of the pattern of canonical c into f->chol (replacing any). */
NsdStatus nsd_factor_chol_analyse(const cs_di* c, NsdFactor* f, NsdReport* report) {
  cholmod_sparse view = chol_view(c);
  cholmod_common cc;
  nsd_factor_chol_common_start(&cc);
  if (f->chol) cholmod_free_factor(&f->chol, &cc);
  f->chol = cholmod_analyze(&view, &cc);
  NsdStatus status = f->chol ? NSD_OK
                             : nsd_report_fail(report, NSD_FAILED,
                                               "CHOLMOD analysis failed (status %d)", cc.status);
  cholmod_finish(&cc);
  return status;
}

/* cholmod_factorize with CHOLMOD's OpenMP loops made serial unless f was given more than one
 * thread. Its supernodal factorisation clears and assembles each large supernode in OpenMP
 * loops whose thread count is fixed when CHOLMOD is built (CHOLMOD_OMP_NUM_THREADS, 4 in
 * Debian's SuiteSparse 5), whatever OMP_NUM_THREADS says: on a 1,656-unknown Kapla tower
 * (Benchmarks/data/kapla_tower_552.hdf5, a 2-core machine with other work) they took a
 * factorisation from 1.5 ms to 7 ms, waiting on threads that had no core. The calling thread's
 * max-active-levels (an ICV of its data environment since OpenMP 5.1, per thread in libgomp:
 * other threads are not affected) is set to 0 for the call, then restored. */
/* The BLAS under the supernodal factorisation, when it is OpenBLAS (its own thread pool, not
 * OpenMP's: Debian's libopenblas0-pthread), runs on one thread for the call, whatever the
 * factor's threads, then gets its count back: its threaded kernels do not give the bits of its
 * serial ones (the factor would depend on OPENBLAS_NUM_THREADS and the machine's cores), and its
 * waiting threads spin (sched_yield) for a while after each call: a peridynamic body factored at
 * every step (324 unknowns, 200 steps) kept a second core 45 % busy spinning and took 1.9 s
 * instead of 1.0 s beside another process. CHOLMOD's own OpenMP loops give the factor's
 * threads. Weak symbols: with another BLAS they are absent and nothing is done. */
extern int openblas_get_num_threads(void) __attribute__((weak));
extern void openblas_set_num_threads(int threads) __attribute__((weak));

static int chol_factorize(cholmod_sparse* a, NsdFactor* f, cholmod_common* cc) {
  int blas = 0;
  if (openblas_get_num_threads && openblas_set_num_threads) {
    blas = openblas_get_num_threads();
    if (blas > 1) openblas_set_num_threads(1);
  }
#ifdef _OPENMP
  // the setting's effect is defined in a sequential part only; inside a parallel region the
  // nesting limits already decide
  int serial = f->threads <= 1 && !omp_in_parallel();
  int levels = omp_get_max_active_levels();
  if (serial) omp_set_max_active_levels(0);
  int ok = cholmod_factorize(a, f->chol, cc);
  if (serial) omp_set_max_active_levels(levels);
#else
  int ok = cholmod_factorize(a, f->chol, cc);
#endif
  if (blas > 1) openblas_set_num_threads(blas);
  return ok;
}

/* Numeric Cholesky of canonical c (lower triangle read) with the analysis f->chol. */
NsdStatus nsd_factor_chol_numeric(const cs_di* c, NsdFactor* f, NsdReport* report) {
  int n = c->n;
  if (!f->colmax) f->colmax = malloc((size_t)n * sizeof(double));
  double* diag = f->colmax;
  if (!diag)
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n,
                           n);
  for (int j = 0; j < n; ++j) {
    diag[j] = 0.0;
    for (int q = c->p[j]; q < c->p[j + 1]; ++q)
      if (c->i[q] == j) diag[j] = c->x[q];
  }

  cholmod_sparse view = chol_view(c);
  cholmod_common cc;
  nsd_factor_chol_common_start(&cc);
  NsdStatus status = NSD_OK;
  if (!chol_factorize(&view, f, &cc) || cc.status < CHOLMOD_OK) {
    status =
        nsd_report_fail(report, NSD_FAILED, "CHOLMOD factorisation failed (status %d)", cc.status);
  } else if (cc.status == CHOLMOD_NOT_POSDEF) {
    int col = ((const int*)f->chol->Perm)[f->chol->minor];
    status =
        nsd_report_fail(report, NSD_FAILED,
                        "matrix not positive definite: pivot of column %d is not positive", col);
  } else {
    // numerical failure: a pivot negligible (or negative, for LDL') against a_jj
    const int* perm = f->chol->Perm;
    for (int j = 0; j < n; ++j) {
      double piv = cholmod_pivot(f->chol, j), tol = pivot_tolerance(n) * diag[perm[j]];
      if (!(piv > tol) || !(tol > 0.0)) {
        status = nsd_report_fail(report, NSD_FAILED,
                                 "matrix not positive definite: pivot of column %d is %g (<= %g)",
                                 perm[j], piv, tol);
        break;
      }
    }
  }
  cholmod_finish(&cc);
  return status;
}

/* Cholesky of the stored entries s (canonical) into f, analysis made on its non-zeros. */
NsdStatus nsd_factor_sparse_cholesky(const cs_di* s, NsdFactor* f, NsdReport* report) {
  int n = s->n, nz = s->p[n];
  if (!nsd_factor_record_pattern(f, s) || !(f->values = cs_di_spalloc(n, n, nz > 0 ? nz : 1, 1, 0)))
    return nsd_report_fail(report, NSD_FAILED, "out of memory factorising a %d x %d CSC matrix", n,
                           n);
  nsd_factor_keep_nonzeros(s, f->values, NULL, NULL);
  NsdStatus status = nsd_factor_chol_analyse(f->values, f, report);
  return status == NSD_OK ? nsd_factor_chol_numeric(f->values, f, report) : status;
}
