/* Siconos numerics .dat reader (formats/README.md section 1): the LCP, MLCP, FC, GFC, GMP and
 * rolling FC (io_rfc.c) layouts, and the detection of the layout when the caller does not know it
 * (the MATRIX section: io_text_matrix.c).
 *
 * Every size is checked against NSD_IO_MAX_DIM and against what the rest of
 * the text can still hold before anything is allocated. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_gmp.h"
#include "io_rfc.h"
#include "io_text_internal.h"

/* Parsers tried by the detection, in its order. */
typedef enum Layout {
  LAYOUT_GFC,
  LAYOUT_FC,
  LAYOUT_LCP,
  LAYOUT_MLCP,
  LAYOUT_GMP,
  LAYOUT_RFC
} Layout;

/* Read n reals into v, fields name[0..n-1]. */
static int read_vector(NsdLexer* lx, const char* name, double* v, size_t n) {
  for (size_t k = 0; k < n; ++k)
    if (!nsd_lexer_real(lx, nsd_field1(NULL, name, (long)k), &v[k])) return 0;
  return 1;
}

/* Read n friction coefficients, each >= 0. */
static int read_mu(NsdLexer* lx, double* mu, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    NsdField f = nsd_field1(NULL, "mu", (long)k);
    if (!nsd_lexer_real(lx, f, &mu[k])) return 0;
    if (mu[k] < 0) return nsd_lexer_fail(lx, f, "a real >= 0");
  }
  return 1;
}

/* ---- problems --------------------------------------------------------------- */

/* After a problem's own check failed: name the file in front of its message. */
static int fail_check(NsdLexer* lx) {
  char message[sizeof lx->report->message];
  memcpy(message, lx->report->message, sizeof message);
  nsd_report_fail(lx->report, NSD_BAD_INPUT, "%s: %s", lx->name, message);
  lx->error_at = lx->pos;
  return 0;
}

/* The space dimension d: 2 or 3, or exactly @p want when it is not 0. */
static int read_dim(NsdLexer* lx, int want, int* d) {
  if (want) return nsd_lexer_int(lx, nsd_field(NULL, "d"), want, want, d);
  long v = 0;
  if (!nsd_lexer_next(lx) || !nsd_parse_long(lx->text + lx->tok_start, lx->tok_len, &v))
    return nsd_lexer_fail(lx, nsd_field(NULL, "d"), "an integer");
  if (v != 2 && v != 3) return nsd_lexer_fail(lx, nsd_field(NULL, "d"), "2 or 3");
  *d = (int)v;
  return 1;
}

static int parse_lcp(NsdLexer* lx, NsdProblem* out) {
  int n, ok = 0;
  NsdMatrix* M = NULL;
  double* q = NULL;
  if (!nsd_lexer_int(lx, nsd_field(NULL, "n"), 1, NSD_IO_MAX_DIM, &n)) return 0;
  if (!nsd_lexer_fits(lx, (size_t)n)) return nsd_lexer_fail_fits(lx, nsd_field(NULL, "n"));
  Shape shape = {n, n, 1, 1};
  if (!nsd_io_read_matrix(lx, "M", &shape, &M)) goto done;
  q = alloc_items((size_t)n, sizeof *q);
  if (!q) {
    fail_memory(lx, "q");
    goto done;
  }
  if (!read_vector(lx, "q", q, (size_t)n)) goto done;

  NsdLcp* lcp = nsd_lcp_create(M, q);
  M = NULL;
  if (!lcp) {
    fail_memory(lx, "the LCP");
    goto done;
  }
  if (!nsd_lcp_check(lcp, lx->report)) {
    nsd_lcp_destroy(lcp);
    fail_check(lx);
    goto done;
  }
  out->kind = NSD_KIND_LCP;
  out->lcp = lcp;
  ok = 1;
done:
  nsd_matrix_destroy(M);
  free(q);
  return ok;
}

static int parse_fc(NsdLexer* lx, int want_dim, NsdProblem* out) {
  int d, nc, ok = 0;
  NsdMatrix* M = NULL;
  double *q = NULL, *mu = NULL;
  if (!read_dim(lx, want_dim, &d)) return 0;
  if (!nsd_lexer_int(lx, nsd_field(NULL, "nc"), 0, NSD_IO_MAX_DIM / 3, &nc)) return 0;
  size_t m = (size_t)d * (size_t)nc;
  if (!nsd_lexer_fits(lx, m + (size_t)nc)) return nsd_lexer_fail_fits(lx, nsd_field(NULL, "nc"));

  // M (d nc square), q, mu
  Shape shape = {(int)m, (int)m, 1, 0};
  if (!nsd_io_read_matrix(lx, "M", &shape, &M)) goto done;
  q = alloc_items(m, sizeof *q);
  mu = alloc_items((size_t)nc, sizeof *mu);
  if (!q || !mu) {
    fail_memory(lx, "q and mu");
    goto done;
  }
  if (!read_vector(lx, "q", q, m) || !read_mu(lx, mu, (size_t)nc)) goto done;

  NsdFc* fc = nsd_fc_create(d, nc, M, q, mu);
  M = NULL;
  if (!fc) {
    fail_memory(lx, "the friction problem");
    goto done;
  }
  if (!nsd_fc_check(fc, lx->report)) {
    nsd_fc_destroy(fc);
    fail_check(lx);
    goto done;
  }
  out->kind = d == 2 ? NSD_KIND_FC2D : NSD_KIND_FC3D;
  out->fc = fc;
  ok = 1;
done:
  nsd_matrix_destroy(M);
  free(q);
  free(mu);
  return ok;
}

static int parse_gfc(NsdLexer* lx, int want_dim, NsdProblem* out) {
  int d, nc, ok = 0;
  NsdMatrix *M = NULL, *H = NULL;
  double *q = NULL, *b = NULL, *mu = NULL;
  if (!read_dim(lx, want_dim, &d)) return 0;
  if (!nsd_lexer_int(lx, nsd_field(NULL, "nc"), 0, NSD_IO_MAX_DIM / 3, &nc)) return 0;
  size_t m = (size_t)d * (size_t)nc;
  if (!nsd_lexer_fits(lx, m + (size_t)nc)) return nsd_lexer_fail_fits(lx, nsd_field(NULL, "nc"));

  // M (n x n), H (n x d nc), q, b, mu
  Shape mshape = {-1, -1, 1, 1};
  if (!nsd_io_read_matrix(lx, "M", &mshape, &M)) goto done;
  int n = M->rows;
  Shape hshape = {n, (int)m, 0, 1};
  if (!nsd_io_read_matrix(lx, "H", &hshape, &H)) goto done;
  q = alloc_items((size_t)n, sizeof *q);
  b = alloc_items(m, sizeof *b);
  mu = alloc_items((size_t)nc, sizeof *mu);
  if (!q || !b || !mu) {
    fail_memory(lx, "q, b and mu");
    goto done;
  }
  if (!read_vector(lx, "q", q, (size_t)n) || !read_vector(lx, "b", b, m) ||
      !read_mu(lx, mu, (size_t)nc))
    goto done;

  NsdGfc* gfc = nsd_gfc_create(d, nc, M, H, q, b, mu);
  M = H = NULL;
  if (!gfc) {
    fail_memory(lx, "the global friction problem");
    goto done;
  }
  if (!nsd_gfc_check(gfc, lx->report)) {
    nsd_gfc_destroy(gfc);
    fail_check(lx);
    goto done;
  }
  out->kind = d == 2 ? NSD_KIND_GFC2D : NSD_KIND_GFC3D;
  out->gfc = gfc;
  ok = 1;
done:
  nsd_matrix_destroy(M);
  nsd_matrix_destroy(H);
  free(q);
  free(b);
  free(mu);
  return ok;
}

/* ABCD form: A (n x n), B (m x m), C (n x m), D (m x n) row by row, then a, b,
 * into the dense M = [[A, C], [D, B]] and q = (a; b). */
static int read_abcd(NsdLexer* lx, int n, int m, NsdMatrix** M, double** q) {
  int N = n + m;
  NsdMatrix* a = nsd_matrix_create_dense(N, N);
  double* v = alloc_items((size_t)N, sizeof *v);
  if (!a || !v) {
    nsd_matrix_destroy(a);
    free(v);
    return fail_memory(lx, "the ABCD form");
  }

  // blocks: name, rows, columns, first row and column in M
  struct {
    const char* name;
    int rows, cols, r0, c0;
  } blocks[4] = {{"A", n, n, 0, 0}, {"B", m, m, n, n}, {"C", n, m, 0, n}, {"D", m, n, n, 0}};
  for (int t = 0; t < 4; ++t)
    for (int i = 0; i < blocks[t].rows; ++i)
      for (int j = 0; j < blocks[t].cols; ++j) {
        size_t at = (size_t)(blocks[t].r0 + i) + (size_t)(blocks[t].c0 + j) * (size_t)N;
        if (!nsd_lexer_real(lx, nsd_field2(blocks[t].name, NULL, i, j), &a->dense[at])) goto fail;
      }
  if (!read_vector(lx, "a", v, (size_t)n) || !read_vector(lx, "b", v + n, (size_t)m)) goto fail;
  *M = a;
  *q = v;
  return 1;
fail:
  nsd_matrix_destroy(a);
  free(v);
  return 0;
}

static int parse_mlcp(NsdLexer* lx, NsdProblem* out) {
  int t1, t2, n, m, ok = 0, k = 0;
  int *rows = NULL, *comp = NULL, *is_comp = NULL;
  NsdMatrix *M = NULL, *Mabcd = NULL;
  double *q = NULL, *qabcd = NULL;

  // which forms are present, and the sizes
  if (!nsd_lexer_int(lx, nsd_field(NULL, "t1"), -NSD_LEXER_NO_MAX, NSD_LEXER_NO_MAX, &t1)) return 0;
  if (!nsd_lexer_int(lx, nsd_field(NULL, "t2"), -NSD_LEXER_NO_MAX, NSD_LEXER_NO_MAX, &t2)) return 0;
  if (!t1 && !t2) return nsd_lexer_fail(lx, nsd_field(NULL, "t2"), "t1 or t2 non-zero");
  if (!nsd_lexer_int(lx, nsd_field(NULL, "n"), 0, NSD_IO_MAX_DIM, &n)) return 0;
  if (!nsd_lexer_int(lx, nsd_field(NULL, "m"), 0, NSD_IO_MAX_DIM - n, &m)) return 0;
  int N = n + m;
  if (N == 0) return nsd_lexer_fail(lx, nsd_field(NULL, "m"), "n + m >= 1");
  size_t needed = (size_t)N + (t2 ? nsd_mul_sat((size_t)N, (size_t)N) : 0);
  if (!nsd_lexer_fits(lx, needed)) return nsd_lexer_fail_fits(lx, nsd_field(NULL, "m"));

  if (t1) {
    // blocksRows: 0, strictly increasing, up to n+m
    rows = alloc_items((size_t)N + 1, sizeof *rows);
    if (!rows) {
      fail_memory(lx, "blocksRows");
      goto done;
    }
    if (!nsd_lexer_int(lx, nsd_field1(NULL, "blocksRows", 0), 0, 0, &rows[0])) goto done;
    while (rows[k] < N) {
      ++k;
      if (!nsd_lexer_int(lx, nsd_field1(NULL, "blocksRows", k), rows[k - 1] + 1, N, &rows[k]))
        goto done;
    }

    // blocksIsComp: one 0/1 per block
    comp = alloc_items((size_t)k, sizeof *comp);
    if (!comp) {
      fail_memory(lx, "blocksIsComp");
      goto done;
    }
    for (int b = 0; b < k; ++b)
      if (!nsd_lexer_int(lx, nsd_field1(NULL, "blocksIsComp", b), 0, 1, &comp[b])) goto done;

    // M and q; without the ABCD form M must be (n+m) square
    Shape shape = {t2 ? -1 : N, t2 ? -1 : N, 0, 1};
    if (!nsd_io_read_matrix(lx, "M", &shape, &M)) goto done;
    q = alloc_items((size_t)M->cols, sizeof *q);
    if (!q) {
      fail_memory(lx, "q");
      goto done;
    }
    if (!read_vector(lx, "q", q, (size_t)M->cols)) goto done;
  }
  if (t2 && !read_abcd(lx, n, m, &Mabcd, &qabcd)) goto done;

  // the M form when it is usable, else the ABCD form
  NsdMlcp* mlcp = NULL;
  if (M && M->rows == N && M->cols == N) {
    is_comp = alloc_items((size_t)N, sizeof *is_comp);
    if (!is_comp) {
      fail_memory(lx, "the row kinds");
      goto done;
    }
    for (int b = 0; b < k; ++b)
      for (int i = rows[b]; i < rows[b + 1]; ++i) is_comp[i] = comp[b];
    mlcp = nsd_mlcp_create_mixed(M, q, is_comp);
    M = NULL;
  } else {
    mlcp = nsd_mlcp_create(n, m, Mabcd, qabcd);
    Mabcd = NULL;
  }
  if (!mlcp) {
    fail_memory(lx, "the MLCP");
    goto done;
  }
  if (!nsd_mlcp_check(mlcp, lx->report)) {
    nsd_mlcp_destroy(mlcp);
    fail_check(lx);
    goto done;
  }
  out->kind = NSD_KIND_MLCP;
  out->mlcp = mlcp;
  ok = 1;
done:
  nsd_matrix_destroy(M);
  nsd_matrix_destroy(Mabcd);
  free(q);
  free(qabcd);
  free(rows);
  free(comp);
  free(is_comp);
  return ok;
}

/* ---- whole texts ------------------------------------------------------------ */

/* Parse the text as one layout (want_dim: 0 any, else 2 or 3). */
static NsdStatus parse_layout(const char* text, size_t length, const char* name, Layout layout,
                              int want_dim, NsdProblem* out, NsdIoParseEnd* where,
                              const NsdIoRelease* release, NsdReport* report) {
  NsdLexer lx;
  nsd_lexer_init(&lx, text, length, name, report);
  if (release && release->fn) {
    lx.release = release->fn;
    lx.release_ctx = release->ctx;
    lx.release_next = NSD_LEXER_RELEASE_STEP;
  }
  int ok = 0;
  switch (layout) {
    case LAYOUT_GFC:
      ok = parse_gfc(&lx, want_dim, out);
      break;
    case LAYOUT_FC:
      ok = parse_fc(&lx, want_dim, out);
      break;
    case LAYOUT_LCP:
      ok = parse_lcp(&lx, out);
      break;
    case LAYOUT_MLCP:
      ok = parse_mlcp(&lx, out);
      break;
    case LAYOUT_GMP:
      ok = nsd_io_parse_gmp(&lx, out);
      break;
    case LAYOUT_RFC:
      ok = nsd_io_parse_rfc(&lx, want_dim, out);
      break;
  }
  if (where) {
    where->last_token_start = lx.last_start;
    where->end = lx.last_start + (ok ? lx.tok_len : 0);
    where->error_at = ok ? 0 : lx.error_at;
  }
  if (!ok) return report->status == NSD_OK ? NSD_BAD_INPUT : report->status;
  return NSD_OK;
}

static const char* layout_name(Layout layout) {
  switch (layout) {
    case LAYOUT_GFC:
      return "gfc";
    case LAYOUT_FC:
      return "fc";
    case LAYOUT_LCP:
      return "lcp";
    case LAYOUT_MLCP:
      return "mlcp";
    case LAYOUT_GMP:
      return "gmp";
    case LAYOUT_RFC:
      return "rfc";
  }
  return "?";
}

/* 1 if the file name (after the last '/') contains @p word, any case. */
static int name_contains(const char* name, const char* word) {
  const char* base = strrchr(name, '/');
  base = base ? base + 1 : name;
  size_t n = strlen(word);
  for (const char* s = base; *s; ++s) {
    size_t t = 0;
    while (t < n && s[t] && tolower((unsigned char)s[t]) == word[t]) ++t;
    if (t == n) return 1;
  }
  return 0;
}

/* Try the layouts in the documented order; keep the failure that got furthest. */
static NsdStatus detect(const char* text, size_t length, const char* name, NsdProblem* out,
                        NsdIoParseEnd* where, const NsdIoRelease* release, NsdReport* report) {
  Layout order[7];
  int count = 0;
  if (name_contains(name, "rfc") || name_contains(name, "rolling"))
    order[count++] = LAYOUT_RFC;
  else if (name_contains(name, "mlcp"))
    order[count++] = LAYOUT_MLCP;
  else if (name_contains(name, "lcp"))
    order[count++] = LAYOUT_LCP;
  else if (name_contains(name, "gmp"))
    order[count++] = LAYOUT_GMP;
  const Layout rest[6] = {LAYOUT_GFC, LAYOUT_FC, LAYOUT_RFC, LAYOUT_LCP, LAYOUT_MLCP, LAYOUT_GMP};
  for (int t = 0; t < 6; ++t)
    if (count == 0 || rest[t] != order[0]) order[count++] = rest[t];

  NsdReport best;
  memset(&best, 0, sizeof best);
  best.status = NSD_BAD_INPUT;
  Layout best_layout = order[0];
  size_t best_at = 0;
  int have_best = 0;
  for (int t = 0; t < count; ++t) {
    NsdReport attempt;
    memset(&attempt, 0, sizeof attempt);
    NsdIoParseEnd at = {0, 0, 0};
    nsd_report_start(&attempt, "io");
    NsdStatus status = parse_layout(text, length, name, order[t], 0, out, &at, release, &attempt);
    if (status == NSD_OK) {
      if (where) *where = at;
      return NSD_OK;
    }
    if (!have_best || at.error_at > best_at) {
      best = attempt;
      best_at = at.error_at;
      best_layout = order[t];
      have_best = 1;
    }
  }
  if (where) where->error_at = best_at;
  return nsd_report_fail(report, best.status, "%s (read as %s, the layout that got furthest)",
                         best.message, layout_name(best_layout));
}

NsdStatus nsd_io_read_text(const char* text, size_t length, const char* name, NsdProblemKind kind,
                           NsdProblem* out, NsdIoParseEnd* where, NsdReport* report) {
  return nsd_io_read_text_released(text, length, name, kind, out, where, NULL, report);
}

NsdStatus nsd_io_read_text_released(const char* text, size_t length, const char* name,
                                    NsdProblemKind kind, NsdProblem* out, NsdIoParseEnd* where,
                                    const NsdIoRelease* release, NsdReport* report) {
  NsdReport local;
  memset(&local, 0, sizeof local);
  if (!report) report = &local;
  nsd_report_start(report, "io");
  if (!out) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_read_problem_text: out is NULL");
  memset(out, 0, sizeof *out);
  if (!name) name = "<text>";
  if (!text && length > 0) return nsd_report_fail(report, NSD_BAD_INPUT, "%s: text is NULL", name);

  switch (kind) {
    case NSD_KIND_UNKNOWN:
      return detect(text, length, name, out, where, release, report);
    case NSD_KIND_LCP:
      return parse_layout(text, length, name, LAYOUT_LCP, 0, out, where, release, report);
    case NSD_KIND_MLCP:
      return parse_layout(text, length, name, LAYOUT_MLCP, 0, out, where, release, report);
    case NSD_KIND_FC2D:
      return parse_layout(text, length, name, LAYOUT_FC, 2, out, where, release, report);
    case NSD_KIND_FC3D:
      return parse_layout(text, length, name, LAYOUT_FC, 3, out, where, release, report);
    case NSD_KIND_GFC2D:
      return parse_layout(text, length, name, LAYOUT_GFC, 2, out, where, release, report);
    case NSD_KIND_GFC3D:
      return parse_layout(text, length, name, LAYOUT_GFC, 3, out, where, release, report);
    case NSD_KIND_GMP:
      return parse_layout(text, length, name, LAYOUT_GMP, 0, out, where, release, report);
    case NSD_KIND_RFC3D:
      return parse_layout(text, length, name, LAYOUT_RFC, 5, out, where, release, report);
    case NSD_KIND_RFC2D:
      return parse_layout(text, length, name, LAYOUT_RFC, 3, out, where, release, report);
  }
  return nsd_report_fail(report, NSD_BAD_INPUT, "%s: unknown problem kind %d", name, (int)kind);
}

NsdStatus nsd_read_problem_text(const char* text, size_t length, const char* name,
                                NsdProblemKind kind, NsdProblem* out, NsdReport* report) {
  return nsd_io_read_text(text, length, name, kind, out, NULL, report);
}
