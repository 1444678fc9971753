/* Siconos numerics .dat writer (formats/README.md section 1). Layout as
 * Siconos writes it, reals as %.17g (sparse values too) so that reading the
 * file back gives the same numbers; each matrix in its own storage. */
#include <cs.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_gmp.h"
#include "io_private.h"
#include "nsdyn/nsd_rfc.h"

/* One real: %.17g round-trips every double in at most 24 characters. */
#define REAL_FORMAT "%.17g"

/* Values separated by spaces, then a newline. */
static void write_vector(FILE* f, const double* v, size_t n) {
  for (size_t k = 0; k < n; ++k) fprintf(f, k ? " " REAL_FORMAT : REAL_FORMAT, v[k]);
  fputc('\n', f);
}

/* Integers, each followed by a tab, then a newline (Siconos' SBM layout). */
static void write_ints_tab(FILE* f, const int* v, size_t n) {
  for (size_t k = 0; k < n; ++k) fprintf(f, "%d\t", v[k]);
  fputc('\n', f);
}

/* Dense: storage, sizes twice, values column-major with a line break
 * after every `cols` values. */
static void write_dense(FILE* f, const NsdMatrix* a) {
  fprintf(f, "0\n%d\n%d\n%d\t%d\n", a->rows, a->cols, a->rows, a->cols);
  size_t count = (size_t)a->rows * (size_t)a->cols;
  for (size_t k = 0; k < count; ++k) {
    int last_on_line = a->cols <= 0 || (k + 1) % (size_t)a->cols == 0 || k + 1 == count;
    fprintf(f, last_on_line ? REAL_FORMAT "\n" : REAL_FORMAT " ", a->dense[k]);
  }
}

/* Sparse block: the block structure, then each block's number and values. */
static void write_sbm(FILE* f, const NsdMatrix* a) {
  const NsdSparseBlock* s = a->sbm;
  fprintf(f, "1\n%d\n%d\n%d\n", a->rows, a->cols, s->n_blocks);
  if (s->n_blocks == 0) return;
  fprintf(f, "%d\n%d\n", s->n_block_rows, s->n_block_cols);
  write_ints_tab(f, s->row_end, (size_t)s->n_block_rows);
  write_ints_tab(f, s->col_end, (size_t)s->n_block_cols);
  fprintf(f, "%d\n%d\n", s->n_block_rows + 1, s->n_blocks);
  write_ints_tab(f, s->row_ptr, (size_t)s->n_block_rows + 1);
  write_ints_tab(f, s->col_index, (size_t)s->n_blocks);
  for (int k = 0; k < s->n_blocks; ++k) {
    fprintf(f, "%d\n", k);
    for (size_t t = s->value_start[k]; t < s->value_start[k + 1]; ++t)
      fprintf(f, REAL_FORMAT "\n", s->values[t]);
  }
}

/* CSC as CSparse text, origin 2, spaced exactly as cs_print. */
static void write_csc(FILE* f, const NsdMatrix* a) {
  const cs_di* c = (const cs_di*)a->csc;
  int n = c->n;
  double norm = 0;
  for (int j = 0; j < n; ++j) {
    double sum = 0;
    for (int k = c->p[j]; k < c->p[j + 1]; ++k) sum += fabs(c->x[k]);
    if (sum > norm) norm = sum;
  }
  fprintf(f, "2\n%d\n%d\n2\n", a->rows, a->cols);
  fprintf(f, "CSparse Version 3.1.9, written by nsdyn\n");
  fprintf(f, "%d-by-%d, nzmax: %d nnz: %d, 1-norm: " REAL_FORMAT "\n", c->m, c->n,
          c->nzmax > c->p[n] ? c->nzmax : c->p[n], c->p[n], norm);
  for (int j = 0; j < n; ++j) {
    fprintf(f, "    col %d : locations %d to %d\n", j, c->p[j], c->p[j + 1] - 1);
    for (int k = c->p[j]; k < c->p[j + 1]; ++k)
      fprintf(f, "      %d : " REAL_FORMAT "\n", c->i[k], c->x[k]);
  }
}

/* 1 if the matrix holds the storage it claims, with consistent sizes. */
static int matrix_usable(const NsdMatrix* a) {
  if (!a || a->rows < 0 || a->cols < 0) return 0;
  switch (a->storage) {
    case NSD_DENSE:
      return a->dense != NULL || (size_t)a->rows * (size_t)a->cols == 0;
    case NSD_SPARSE_BLOCK:
      return a->sbm != NULL;
    case NSD_CSC: {
      const cs_di* c = (const cs_di*)a->csc;
      return c && c->nz == -1 && c->m == a->rows && c->n == a->cols && c->p;
    }
  }
  return 0;
}

static void write_matrix(FILE* f, const NsdMatrix* a) {
  switch (a->storage) {
    case NSD_DENSE:
      write_dense(f, a);
      break;
    case NSD_SPARSE_BLOCK:
      write_sbm(f, a);
      break;
    case NSD_CSC:
      write_csc(f, a);
      break;
  }
}

/* The stream's error state after writing. */
static NsdStatus finish_stream(FILE* f, NsdReport* report) {
  if (fflush(f) != 0 || ferror(f)) {
    int e = errno;
    return nsd_report_fail(report, NSD_FAILED, "write error: %s", strerror(e));
  }
  return NSD_OK;
}

NsdStatus nsd_write_matrix_stream(FILE* stream, const NsdMatrix* a, NsdReport* report) {
  NsdReport local;
  memset(&local, 0, sizeof local);
  if (!report) report = &local;
  nsd_report_start(report, "io");
  if (!stream)
    return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_write_matrix_stream: stream is NULL");
  if (!matrix_usable(a))
    return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_write_matrix_stream: no usable matrix");
  write_matrix(stream, a);
  return finish_stream(stream, report);
}

/* MLCP in the M form: row kinds as blocks of equal kind. A box row is
 * written as a free or complementarity row when its bounds are those. */
static NsdStatus write_mlcp(FILE* f, const NsdMlcp* p, NsdReport* report) {
  int size = p->size;
  int* kind = malloc((size_t)(size > 0 ? size : 1) * sizeof *kind);
  int* starts = malloc((size_t)(size + 1) * sizeof *starts);
  if (!kind || !starts) {
    free(kind);
    free(starts);
    return nsd_report_fail(report, NSD_FAILED, "out of memory writing an MLCP of size %d", size);
  }

  // kind of each row: 0 free, 1 complementarity
  int n_eq = 0, n_comp = 0;
  for (int i = 0; i < size; ++i) {
    int c = p->is_comp ? p->is_comp[i] : -1;
    if (c != 0 && c != 1) {
      double lb = p->lb ? p->lb[i] : 0, ub = p->ub ? p->ub[i] : INFINITY;
      if (isinf(lb) && lb < 0 && isinf(ub) && ub > 0)
        c = 0;
      else if (lb == 0 && isinf(ub) && ub > 0)
        c = 1;
      else {
        free(kind);
        free(starts);
        return nsd_report_fail(report, NSD_BAD_INPUT,
                               "MLCP row %d: box [%g, %g] cannot be written in the .dat format", i,
                               lb, ub);
      }
    }
    kind[i] = c;
    if (c)
      ++n_comp;
    else
      ++n_eq;
  }

  // blocks of consecutive rows of the same kind
  int nb = 0;
  starts[0] = 0;
  for (int i = 1; i <= size; ++i)
    if (i == size || kind[i] != kind[i - 1]) starts[++nb] = i;
  if (size == 0) nb = 0;

  fprintf(f, "1\n0\n%d\n%d\n", n_eq, n_comp);
  for (int b = 0; b <= nb; ++b) fprintf(f, "%d ", starts[b]);
  fputc('\n', f);
  for (int b = 0; b < nb; ++b) fprintf(f, "%d ", kind[starts[b]]);
  fputc('\n', f);
  write_matrix(f, p->M);
  write_vector(f, p->q, (size_t)p->M->cols);
  free(kind);
  free(starts);
  return NSD_OK;
}

/* 1 if the problem passes its own check and holds writable matrices. */
static int problem_writable(const NsdProblem* problem, NsdReport* report) {
  if (!problem) {
    nsd_report_fail(report, NSD_BAD_INPUT, "nsd_write_problem: problem is NULL");
    return 0;
  }
  int ok = 0;
  switch (problem->kind) {
    case NSD_KIND_LCP:
      ok = problem->lcp && nsd_lcp_check(problem->lcp, report) && matrix_usable(problem->lcp->M);
      break;
    case NSD_KIND_MLCP:
      ok =
          problem->mlcp && nsd_mlcp_check(problem->mlcp, report) && matrix_usable(problem->mlcp->M);
      break;
    case NSD_KIND_FC2D:
    case NSD_KIND_FC3D:
      ok = problem->fc && nsd_fc_check(problem->fc, report) && matrix_usable(problem->fc->M);
      break;
    case NSD_KIND_GFC2D:
    case NSD_KIND_GFC3D:
      ok = problem->gfc && nsd_gfc_check(problem->gfc, report) && matrix_usable(problem->gfc->M) &&
           matrix_usable(problem->gfc->H);
      break;
    case NSD_KIND_GMP:
      ok = problem->gmp && nsd_gmp_check(problem->gmp, report) && matrix_usable(problem->gmp->W) &&
           nsd_io_gmp_writable(problem->gmp, report);
      break;
    case NSD_KIND_RFC3D:
    case NSD_KIND_RFC2D:
      ok = problem->rfc && nsd_rfc_check(problem->rfc, report) && matrix_usable(problem->rfc->M);
      break;
    case NSD_KIND_UNKNOWN:
      break;
  }
  if (!ok && report->status == NSD_OK)
    nsd_report_fail(report, NSD_BAD_INPUT, "nsd_write_problem: no %s problem to write",
                    nsd_kind_name(problem->kind));
  return ok;
}

/* The fields of a valid problem, in the order of its layout. */
static NsdStatus write_problem(FILE* f, const NsdProblem* problem, NsdReport* report) {
  switch (problem->kind) {
    case NSD_KIND_LCP: {
      const NsdLcp* p = problem->lcp;
      fprintf(f, "%d\n", p->n);
      write_matrix(f, p->M);
      write_vector(f, p->q, (size_t)p->M->cols);
      break;
    }
    case NSD_KIND_MLCP: {
      NsdStatus status = write_mlcp(f, problem->mlcp, report);
      if (status != NSD_OK) return status;
      break;
    }
    case NSD_KIND_FC2D:
    case NSD_KIND_FC3D: {
      const NsdFc* p = problem->fc;
      fprintf(f, "%d\n%d\n", p->dim, p->nc);
      write_matrix(f, p->M);
      write_vector(f, p->q, (size_t)p->dim * (size_t)p->nc);
      write_vector(f, p->mu, (size_t)p->nc);
      break;
    }
    case NSD_KIND_GFC2D:
    case NSD_KIND_GFC3D: {
      const NsdGfc* p = problem->gfc;
      fprintf(f, "%d\n%d\n", p->dim, p->nc);
      write_matrix(f, p->M);
      write_matrix(f, p->H);
      write_vector(f, p->q, (size_t)p->n);
      write_vector(f, p->b, (size_t)p->dim * (size_t)p->nc);
      write_vector(f, p->mu, (size_t)p->nc);
      break;
    }
    case NSD_KIND_GMP: {
      NsdStatus status = nsd_io_write_gmp(f, problem->gmp, report);
      if (status != NSD_OK) return status;
      break;
    }
    case NSD_KIND_RFC3D:
    case NSD_KIND_RFC2D: {
      // the FC layout with mu_r after mu (Siconos rollingFrictionContact_printInFile)
      const NsdRfc* p = problem->rfc;
      fprintf(f, "%d\n%d\n", p->dim, p->nc);
      write_matrix(f, p->M);
      write_vector(f, p->q, (size_t)p->dim * (size_t)p->nc);
      write_vector(f, p->mu, (size_t)p->nc);
      write_vector(f, p->mu_r, (size_t)p->nc);
      break;
    }
    case NSD_KIND_UNKNOWN:
      break;
  }
  return finish_stream(f, report);
}

NsdStatus nsd_write_problem_stream(FILE* stream, const NsdProblem* problem, NsdReport* report) {
  NsdReport local;
  memset(&local, 0, sizeof local);
  if (!report) report = &local;
  nsd_report_start(report, "io");
  if (!stream) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_write_problem: stream is NULL");
  if (!problem_writable(problem, report)) return report->status;
  return write_problem(stream, problem, report);
}

NsdStatus nsd_write_problem(const char* path, const NsdProblem* problem, NsdReport* report) {
  NsdReport local;
  memset(&local, 0, sizeof local);
  if (!report) report = &local;
  nsd_report_start(report, "io");
  if (!path) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_write_problem: path is NULL");

  // check first, so that a refused problem leaves any existing file alone
  if (!problem_writable(problem, report)) {
    char message[sizeof report->message];
    memcpy(message, report->message, sizeof message);
    return nsd_report_fail(report, report->status, "%s: %s", path, message);
  }
  FILE* f = fopen(path, "w");
  if (!f) {
    int e = errno;
    return nsd_report_fail(report, NSD_FAILED, "%s: cannot open for writing: %s", path,
                           strerror(e));
  }
  NsdStatus status = write_problem(f, problem, report);
  if (fclose(f) != 0 && status == NSD_OK) {
    int e = errno;
    return nsd_report_fail(report, NSD_FAILED, "%s: write error: %s", path, strerror(e));
  }
  if (status != NSD_OK) {
    char message[sizeof report->message];
    memcpy(message, report->message, sizeof message);
    nsd_report_fail(report, status, "%s: %s", path, message);
  }
  return status;
}
