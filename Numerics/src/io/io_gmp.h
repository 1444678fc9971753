/* The generic mechanical problem in the Siconos .dat format (io_gmp.c), and
 * the matrix reader of io_text.c it uses. Private to Numerics/src/io. */
#ifndef NSDYN_IO_GMP_H
#define NSDYN_IO_GMP_H

#include <stdio.h>

#include "io_lexer.h"
#include "nsdyn/nsd_gmp.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* read_matrix of io_text.c for a square matrix of any size followed by
 * @p per_col tokens per column; fields named "M.storage", ... with M = @p m. */
int nsd_io_read_square_matrix(NsdLexer* lx, const char* m, size_t per_col, NsdMatrix** out);

/* Parse a GMP file (formats/README.md, "Generic mechanical") into @p out; 0 with
 * a "FILE:LINE: FIELD: expected ..., found ..." message on failure. */
int nsd_io_parse_gmp(NsdLexer* lx, NsdProblem* out);

/* Write a valid GMP: W as a sparse-block matrix whose diagonal blocks are the
 * problem's blocks (converted when W is stored otherwise), q one value per
 * line, then each block's kind and, for a cone, its mu. */
NsdStatus nsd_io_write_gmp(FILE* f, const NsdGmp* p, NsdReport* report);

/* 1 when the file format can hold @p p; 0 with NSD_BAD_INPUT naming the first relay
 * block (the format has no bounds) otherwise. */
int nsd_io_gmp_writable(const NsdGmp* p, NsdReport* report);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
