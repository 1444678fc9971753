/* Tokeniser of the Siconos .dat reader: whitespace-separated tokens over a
 * buffer of known length, line numbers, and messages that name the file,
 * the line, the field, what was expected and what was found. */
#include "io_lexer.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest token accepted as a number (a real written %.17g takes 24). */
enum { NUMBER_TOKEN_MAX = 127 };
/* Characters of a token shown in a message before "...". */
enum { QUOTE_MAX = 24 };

static int is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

void nsd_lexer_init(NsdLexer* lx, const char* text, size_t length, const char* name,
                    NsdReport* report) {
  memset(lx, 0, sizeof *lx);
  lx->text = text;
  lx->length = text ? length : 0;
  lx->line = 1;
  lx->tok_line = 1;
  lx->last_line = 1;
  lx->name = name;
  lx->report = report;
}

int nsd_lexer_next(NsdLexer* lx) {
  // skip whitespace, counting lines
  while (lx->pos < lx->length && is_space(lx->text[lx->pos])) {
    if (lx->text[lx->pos] == '\n') ++lx->line;
    ++lx->pos;
  }
  lx->tok_start = lx->pos;
  lx->tok_len = 0;
  if (lx->pos >= lx->length) {
    // the end of the text is reported on the line of the last token
    lx->tok_line = lx->last_line;
    return 0;
  }
  lx->tok_line = lx->line;
  lx->last_line = lx->line;

  // the token runs to the next whitespace or the end of the text
  while (lx->pos < lx->length && !is_space(lx->text[lx->pos])) ++lx->pos;
  lx->tok_len = lx->pos - lx->tok_start;
  lx->last_start = lx->tok_start;
  if (lx->release && lx->tok_start >= lx->release_next) {
    lx->release(lx->release_ctx, lx->tok_start);
    lx->release_next = lx->tok_start + NSD_LEXER_RELEASE_STEP;
  }
  return 1;
}

int nsd_lexer_skip_line(NsdLexer* lx) {
  while (lx->pos < lx->length && lx->text[lx->pos] != '\n') ++lx->pos;
  if (lx->pos >= lx->length) return 0;
  ++lx->pos;
  ++lx->line;
  return 1;
}

int nsd_lexer_fits(const NsdLexer* lx, size_t tokens) {
  // each token takes a character and a separator before it
  size_t rest = lx->length - lx->pos;
  return tokens <= rest / 2 + (rest & 1);
}

size_t nsd_mul_sat(size_t a, size_t b) {
  if (a != 0 && b > SIZE_MAX / a) return SIZE_MAX;
  return a * b;
}

void nsd_lexer_quote(char* buf, size_t size, const char* s, size_t len) {
  if (size < 8) {
    if (size) buf[0] = '\0';
    return;
  }
  // printable ASCII only, shortened with "..."
  size_t shown = len < QUOTE_MAX ? len : QUOTE_MAX;
  if (shown > size - 6) shown = size - 6;
  size_t k = 0;
  buf[k++] = '\'';
  for (size_t t = 0; t < shown; ++t) {
    unsigned char c = (unsigned char)s[t];
    buf[k++] = (c >= 32 && c < 127) ? (char)c : '?';
  }
  if (shown < len) {
    buf[k++] = '.';
    buf[k++] = '.';
    buf[k++] = '.';
  }
  buf[k++] = '\'';
  buf[k] = '\0';
}

static void format_field(char* buf, size_t size, NsdField f) {
  int k;
  if (f.prefix && f.name)
    k = snprintf(buf, size, "%s.%s", f.prefix, f.name);
  else
    k = snprintf(buf, size, "%s", f.prefix ? f.prefix : (f.name ? f.name : "value"));
  if (k < 0 || (size_t)k >= size) return;
  char* p = buf + k;
  size_t left = size - (size_t)k;
  // indices after the name
  switch (f.nidx) {
    case 1:
      snprintf(p, left, "[%ld]", f.a);
      break;
    case 2:
      snprintf(p, left, "(%ld,%ld)", f.a, f.b);
      break;
    case 3:
      snprintf(p, left, "[%ld](%ld,%ld)", f.a, f.b, f.c);
      break;
    default:
      break;
  }
}

int nsd_lexer_fail_at(NsdLexer* lx, long line, size_t at, NsdField field, const char* what,
                      const char* found) {
  char name[96];
  format_field(name, sizeof name, field);
  nsd_report_fail(lx->report, NSD_BAD_INPUT, "%s:%ld: %s: expected %s, found %s", lx->name, line,
                  name, what, found);
  lx->error_at = at;
  return 0;
}

int nsd_lexer_fail(NsdLexer* lx, NsdField field, const char* what) {
  char found[40];
  if (lx->tok_len == 0)
    snprintf(found, sizeof found, "end of file");
  else
    nsd_lexer_quote(found, sizeof found, lx->text + lx->tok_start, lx->tok_len);
  return nsd_lexer_fail_at(lx, lx->tok_line, lx->tok_start, field, what, found);
}

int nsd_lexer_fail_fits(NsdLexer* lx, NsdField field) {
  char what[112];
  size_t rest = lx->length - lx->pos;
  snprintf(what, sizeof what, "a size that fits in the rest of the file (at most %zu values)",
           rest / 2 + (rest & 1));
  return nsd_lexer_fail(lx, field, what);
}

int nsd_parse_long(const char* s, size_t len, long* out) {
  char buf[32];
  if (len == 0 || len >= sizeof buf) return 0;
  memcpy(buf, s, len);
  buf[len] = '\0';
  // digits with an optional sign, nothing else
  size_t k = (buf[0] == '-' || buf[0] == '+') ? 1 : 0;
  if (k == len) return 0;
  for (size_t t = k; t < len; ++t)
    if (buf[t] < '0' || buf[t] > '9') return 0;
  errno = 0;
  char* end = NULL;
  long v = strtol(buf, &end, 10);
  if (errno != 0 || end != buf + len) return 0;
  *out = v;
  return 1;
}

int nsd_parse_real(const char* s, size_t len, double* out) {
  char buf[NUMBER_TOKEN_MAX + 1];
  if (len == 0 || len > NUMBER_TOKEN_MAX) return 0;
  memcpy(buf, s, len);
  buf[len] = '\0';
  char* end = NULL;
  double v = strtod(buf, &end);
  if (end != buf + len) return 0;
  *out = v;
  return 1;
}

int nsd_lexer_int(NsdLexer* lx, NsdField field, long lo, long hi, int* out) {
  long v = 0;
  if (!nsd_lexer_next(lx) || !nsd_parse_long(lx->text + lx->tok_start, lx->tok_len, &v))
    return nsd_lexer_fail(lx, field, "an integer");
  if (v < lo || v > hi) {
    char what[96];
    if (lo == hi)
      snprintf(what, sizeof what, "%ld", lo);
    else if (hi == NSD_LEXER_NO_MAX)
      snprintf(what, sizeof what, "an integer >= %ld", lo);
    else
      snprintf(what, sizeof what, "an integer in [%ld, %ld]", lo, hi);
    return nsd_lexer_fail(lx, field, what);
  }
  *out = (int)v;
  return 1;
}

int nsd_lexer_real(NsdLexer* lx, NsdField field, double* out) {
  double v = 0;
  if (!nsd_lexer_next(lx) || !nsd_parse_real(lx->text + lx->tok_start, lx->tok_len, &v))
    return nsd_lexer_fail(lx, field, "a real");
  if (!isfinite(v)) return nsd_lexer_fail(lx, field, "a finite real");
  *out = v;
  return 1;
}

int nsd_lexer_word(NsdLexer* lx, NsdField field, const char* word) {
  size_t n = strlen(word);
  if (!nsd_lexer_next(lx) || lx->tok_len != n || memcmp(lx->text + lx->tok_start, word, n) != 0) {
    char what[48];
    snprintf(what, sizeof what, "'%s'", word);
    return nsd_lexer_fail(lx, field, what);
  }
  return 1;
}
