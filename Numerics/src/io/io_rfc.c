/* Rolling friction contact in the Siconos .dat format (doc/formats.md,
 * "Rolling friction contact"): the FC3D layout with 5 (or 3 in 2D) unknowns per
 * contact and a line of rolling coefficients mu_r after mu. Written by
 * io_write.c. */
#include <stdlib.h>
#include <string.h>

#include "io_rfc.h"
#include "io_text_internal.h"
#include "nsdyn/nsd_rfc.h"

/* n coefficients name[0..n-1], each a finite real >= 0. */
static int read_coefficients(NsdLexer* lx, const char* name, double* c, size_t n) {
  for (size_t k = 0; k < n; ++k) {
    NsdField f = nsd_field1(NULL, name, (long)k);
    if (!nsd_lexer_real(lx, f, &c[k])) return 0;
    if (c[k] < 0) return nsd_lexer_fail(lx, f, "a real >= 0");
  }
  return 1;
}

/* d: exactly want_dim when set, else 5 or 3. */
static int read_rfc_dim(NsdLexer* lx, int want_dim, int* d) {
  NsdField f = nsd_field(NULL, "d");
  long v = 0;
  if (!nsd_lexer_next(lx) || !nsd_parse_long(lx->text + lx->tok_start, lx->tok_len, &v))
    return nsd_lexer_fail(lx, f, "an integer");
  if (want_dim == 5 && v != 5) return nsd_lexer_fail(lx, f, "5 (3D rolling friction)");
  if (want_dim == 3 && v != 3) return nsd_lexer_fail(lx, f, "3 (2D rolling friction)");
  if (v != 5 && v != 3) return nsd_lexer_fail(lx, f, "5 (3D rolling) or 3 (2D rolling)");
  *d = (int)v;
  return 1;
}

int nsd_io_parse_rfc(NsdLexer* lx, int want_dim, NsdProblem* out) {
  int d = 0, nc = 0, ok = 0;
  NsdMatrix* M = NULL;
  double *q = NULL, *mu = NULL, *mu_r = NULL;
  if (!read_rfc_dim(lx, want_dim, &d)) return 0;
  if (!nsd_lexer_int(lx, nsd_field(NULL, "nc"), 0, NSD_IO_MAX_DIM / 5, &nc)) return 0;
  const size_t m = (size_t)d * (size_t)nc;
  if (!nsd_lexer_fits(lx, m + 2 * (size_t)nc))
    return nsd_lexer_fail_fits(lx, nsd_field(NULL, "nc"));

  // M (d nc square), q, mu, mu_r
  Shape shape = {(int)m, (int)m, 1, 0};
  if (!nsd_io_read_matrix(lx, "M", &shape, &M)) goto done;
  q = alloc_items(m, sizeof *q);
  mu = alloc_items((size_t)nc, sizeof *mu);
  mu_r = alloc_items((size_t)nc, sizeof *mu_r);
  if (!q || !mu || !mu_r) {
    fail_memory(lx, "q, mu and mu_r");
    goto done;
  }
  for (size_t k = 0; k < m; ++k)
    if (!nsd_lexer_real(lx, nsd_field1(NULL, "q", (long)k), &q[k])) goto done;
  if (!read_coefficients(lx, "mu", mu, (size_t)nc) ||
      !read_coefficients(lx, "mu_r", mu_r, (size_t)nc))
    goto done;

  NsdRfc* rfc = nsd_rfc_create(d, nc, M, q, mu, mu_r);
  M = NULL;
  if (!rfc) {
    fail_memory(lx, "the rolling friction problem");
    goto done;
  }
  if (!nsd_rfc_check(rfc, lx->report)) {
    char message[sizeof lx->report->message];
    memcpy(message, lx->report->message, sizeof message);
    nsd_report_fail(lx->report, NSD_BAD_INPUT, "%s: %s", lx->name, message);
    lx->error_at = lx->pos;
    nsd_rfc_destroy(rfc);
    goto done;
  }
  out->kind = d == 5 ? NSD_KIND_RFC3D : NSD_KIND_RFC2D;
  out->rfc = rfc;
  ok = 1;
done:
  nsd_matrix_destroy(M);
  free(q);
  free(mu);
  free(mu_r);
  return ok;
}
