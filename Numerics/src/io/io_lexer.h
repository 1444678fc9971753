/* Line-counting tokeniser over a text buffer (not necessarily NUL-terminated)
 * for the Siconos .dat reader, with error messages of the form
 * "FILE:LINE: FIELD: expected X, found 'Y'". Private to Numerics/src/io. */
#ifndef NSDYN_IO_LEXER_H
#define NSDYN_IO_LEXER_H

#include <stddef.h>

#include "nsdyn/nsd_common.h"

/* Internal to the library: not exported from the shared object. */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* Upper bound meaning "no upper bound" for nsd_lexer_int (INT_MAX). */
#define NSD_LEXER_NO_MAX 2147483647L

/* Reading state: the text, the position, the current line and token. */
typedef struct NsdLexer {
  const char* text;
  size_t length;
  size_t pos;        /* next byte to look at */
  long line;         /* line of text[pos], from 1 */
  const char* name;  /* file name for messages */
  NsdReport* report; /* receives the first error */
  size_t tok_start;  /* current token: offset, length, line */
  size_t tok_len;    /* 0 at end of text */
  long tok_line;     /* at the end of text: the line of the last token */
  long last_line;    /* line of the last token read */
  size_t last_start; /* offset of the last token read */
  size_t error_at;   /* offset of the rejected token */
  /* Nullable: told, every NSD_LEXER_RELEASE_STEP bytes, that the text before
   * an offset has been read (a mapped file drops those pages). The text
   * stays readable: nothing is ever asked to be kept. */
  void (*release)(void* ctx, size_t upto);
  void* release_ctx;
  size_t release_next; /* offset at which release is called next */
} NsdLexer;

/* Bytes of text read between two calls of NsdLexer.release. */
#define NSD_LEXER_RELEASE_STEP ((size_t)4 << 20)

/* Name of a field in messages: "prefix.name", then [a], (a,b) or [a](b,c)
 * after it for nidx = 1, 2, 3; a NULL name gives "prefix(a,b)". */
typedef struct NsdField {
  const char* prefix;
  const char* name;
  long a, b, c;
  int nidx;
} NsdField;

static inline NsdField nsd_field(const char* prefix, const char* name) {
  NsdField f = {prefix, name, 0, 0, 0, 0};
  return f;
}
static inline NsdField nsd_field1(const char* prefix, const char* name, long a) {
  NsdField f = {prefix, name, a, 0, 0, 1};
  return f;
}
static inline NsdField nsd_field2(const char* prefix, const char* name, long a, long b) {
  NsdField f = {prefix, name, a, b, 0, 2};
  return f;
}
static inline NsdField nsd_field3(const char* prefix, const char* name, long a, long b, long c) {
  NsdField f = {prefix, name, a, b, c, 3};
  return f;
}

void nsd_lexer_init(NsdLexer* lx, const char* text, size_t length, const char* name,
                    NsdReport* report);

/* Move to the next token; 0 at end of text (then tok_len = 0). */
int nsd_lexer_next(NsdLexer* lx);

/* Skip the rest of the current line and its newline; 0 at end of text. */
int nsd_lexer_skip_line(NsdLexer* lx);

/* 1 if @p tokens more tokens can still fit in the rest of the text. */
int nsd_lexer_fits(const NsdLexer* lx, size_t tokens);

/* Fail about the current token: "expected WHAT, found 'TOKEN'". Returns 0. */
int nsd_lexer_fail(NsdLexer* lx, NsdField field, const char* what);

/* Fail about an explicit place and a found text (already quoted). Returns 0. */
int nsd_lexer_fail_at(NsdLexer* lx, long line, size_t at, NsdField field, const char* what,
                      const char* found);

/* Fail about the current token with "expected a size that fits in the rest of
 * the file (at most N values)". Returns 0. */
int nsd_lexer_fail_fits(NsdLexer* lx, NsdField field);

/* Quote @p len bytes of @p s for a message: 'abc', printable, shortened. */
void nsd_lexer_quote(char* buf, size_t size, const char* s, size_t len);

/* Parse a whole token as a decimal integer / a real; 1 on success. */
int nsd_parse_long(const char* s, size_t len, long* out);
int nsd_parse_real(const char* s, size_t len, double* out);

/* Read an integer in [lo, hi] / a finite real / a literal word. 1 on success. */
int nsd_lexer_int(NsdLexer* lx, NsdField field, long lo, long hi, int* out);
int nsd_lexer_real(NsdLexer* lx, NsdField field, double* out);
int nsd_lexer_word(NsdLexer* lx, NsdField field, const char* word);

/* a*b, saturated at SIZE_MAX. */
size_t nsd_mul_sat(size_t a, size_t b);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
