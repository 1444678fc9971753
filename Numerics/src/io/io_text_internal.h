/* Shared by the two halves of the .dat text reader: io_text_matrix.c (the MATRIX section in
 * its three storages) and io_text.c (the problem layouts and their detection). Internal. */
#ifndef NSDYN_IO_TEXT_INTERNAL_H
#define NSDYN_IO_TEXT_INTERNAL_H

#include <stdlib.h>

#include "io_lexer.h"
#include "io_private.h"

/* What the caller of nsd_io_read_matrix knows about the matrix. */
typedef struct Shape {
  int rows;       /* required rows, -1: any */
  int cols;       /* required columns, -1: any */
  int square;     /* 1: rows must equal columns */
  size_t per_col; /* tokens that follow the matrix per column (a vector) */
} Shape;

/* The MATRIX section named m, checked against shape (io_text_matrix.c); 0 on failure with
 * the report of lx filled. */
int nsd_io_read_matrix(NsdLexer* lx, const char* m, const Shape* shape, NsdMatrix** out);

static inline int fail_memory(NsdLexer* lx, const char* what) {
  nsd_report_fail(lx->report, NSD_FAILED, "%s:%ld: out of memory for %s", lx->name, lx->tok_line,
                  what);
  lx->error_at = lx->pos;
  return 0;
}

/* malloc of n items of size bytes, at least one item. */
static inline void* alloc_items(size_t n, size_t size) {
  return malloc((n ? n : 1) * size);
}

#endif
