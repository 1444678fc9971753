/* Rolling friction contact in the Siconos .dat format (io_rfc.c; Siconos
 * rollingFrictionContact_printInFile): d (5, or 3 in 2D), nc, M (d nc square),
 * q (d nc), mu (nc), mu_r (nc). Private to Numerics/src/io. */
#ifndef NSDYN_IO_RFC_H
#define NSDYN_IO_RFC_H

#include "io_lexer.h"
#include "nsdyn/nsd_problems.h"

#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

/* Parse a rolling friction file into @p out (NSD_KIND_RFC3D for d = 5,
 * NSD_KIND_RFC2D for d = 3); @p want_dim 5 or 3 requires that d, 0 accepts
 * both. 0 with a "FILE:LINE: FIELD: expected ..., found '...'" message on failure. */
int nsd_io_parse_rfc(NsdLexer* lx, int want_dim, NsdProblem* out);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
