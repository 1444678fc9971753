/**
 * @file nsd_io.h
 * @brief Reading and writing problems: Siconos numerics `.dat` text files (LCP,
 *        MLCP, FC2D/FC3D, global FC; dense, sparse-block and CSparse matrix
 *        storages) and FCLIB HDF5 files (local and global problems).
 *
 * Every reader validates sizes and values; a malformed, truncated or
 * inconsistent file returns NSD_BAD_INPUT with a message
 * "FILE:LINE: FIELD: expected ..., found ..." in the report, and leaks nothing.
 */
#ifndef NSDYN_NSD_IO_H
#define NSDYN_NSD_IO_H

#include <stdio.h>
#include "nsd_problems.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Read a problem file. For `.hdf5`/`.h5` files the FCLIB layout is read
 * (/fclib_local or /fclib_global). For `.dat` files, @p kind selects the
 * layout; NSD_KIND_UNKNOWN detects it (global FC, then local FC, then rolling
 * FC, then LCP, then MLCP, then GMP, the first that parses completely with
 * consistent sizes; a file name containing "rfc" or "rolling", "mlcp", "lcp" or
 * "gmp" is tried as such first; a 2D rolling file, d = 3, reads as FC3D unless
 * its name or @p kind says rolling: doc/rolling-friction.md).
 * On success *out holds the problem (free it with nsd_problem_clear).
 */
NSD_API NsdStatus nsd_read_problem(const char* path, NsdProblemKind kind, NsdProblem* out,
                                   NsdReport* report);

/** Read a problem from a `.dat` text held in memory; @p name is used in messages. */
NSD_API NsdStatus nsd_read_problem_text(const char* text, size_t length, const char* name,
                                        NsdProblemKind kind, NsdProblem* out, NsdReport* report);

/**
 * Write a problem in the Siconos `.dat` format (reals as %.17g, sparse
 * values too, so that reading back gives the same numbers; layout otherwise
 * as Siconos writes it). The matrix is written in its own storage.
 */
NSD_API NsdStatus nsd_write_problem(const char* path, const NsdProblem* problem, NsdReport* report);

/** Same, to an open stream. */
NSD_API NsdStatus nsd_write_problem_stream(FILE* stream, const NsdProblem* problem,
                                           NsdReport* report);

/** Read an FCLIB HDF5 file (local: FC2D/FC3D; global: GFC2D/GFC3D). */
NSD_API NsdStatus nsd_read_fclib(const char* path, NsdProblem* out, NsdReport* report);

/**
 * Write a local (FC) or global (GFC) problem as FCLIB HDF5. Matrices are
 * written as CSC (nz = -1). @p title and @p description (nullable) go to /info.
 */
NSD_API NsdStatus nsd_write_fclib(const char* path, const NsdProblem* problem, const char* title,
                                  const char* description, NsdReport* report);

/**
 * Read only the matrix section (Siconos MATRIX) of a text; exposed for tests.
 * On success *out is a new matrix.
 */
NSD_API NsdStatus nsd_read_matrix_text(const char* text, size_t length, const char* name,
                                       NsdMatrix** out, NsdReport* report);

/** Write one MATRIX section in its storage. */
NSD_API NsdStatus nsd_write_matrix_stream(FILE* stream, const NsdMatrix* a, NsdReport* report);

#ifdef __cplusplus
}
#endif
#endif
