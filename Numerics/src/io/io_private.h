/* Private declarations shared by the .dat and FCLIB readers and writers
 * (Numerics/src/io). Not installed; the io tests include it to learn where a
 * successful parse stopped. */
#ifndef NSDYN_IO_PRIVATE_H
#define NSDYN_IO_PRIVATE_H

#include <stddef.h>

#include "nsdyn/nsd_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest dimension (rows, columns, contacts, entries) accepted from a file. */
#define NSD_IO_MAX_DIM 100000000

/* Where a text parse stopped. On success: the offset of the first character
 * of the last token read and the offset just after it. On failure: the
 * offset of the token (or end of text) that was rejected. */
typedef struct NsdIoParseEnd {
  size_t last_token_start;
  size_t end;
  size_t error_at;
} NsdIoParseEnd;

/* nsd_read_problem_text, also telling where the parse stopped
 * (@p where nullable). */
NsdStatus nsd_io_read_text(const char* text, size_t length, const char* name, NsdProblemKind kind,
                           NsdProblem* out, NsdIoParseEnd* where, NsdReport* report);

/* What a text reader tells its source as it goes: the text before an offset
 * has been read (see NsdLexer.release). */
typedef struct NsdIoRelease {
  void (*fn)(void* ctx, size_t upto);
  void* ctx;
} NsdIoRelease;

/* Bytes kept mapped behind the reader's position when it releases the text. */
#define NSD_LEXER_RELEASE_MARGIN ((size_t)1 << 20)

/* nsd_io_read_text that reports its progress through @p release (nullable). */
NsdStatus nsd_io_read_text_released(const char* text, size_t length, const char* name,
                                    NsdProblemKind kind, NsdProblem* out, NsdIoParseEnd* where,
                                    const NsdIoRelease* release, NsdReport* report);

/* 1 if @p path names an FCLIB file by its extension (.hdf5, .h5, any case). */
int nsd_io_has_hdf5_extension(const char* path);

/* Number of bytes of the HDF5 file signature, and the signature itself. */
#define NSD_IO_HDF5_SIGNATURE_SIZE 8
extern const unsigned char nsd_io_hdf5_signature[NSD_IO_HDF5_SIGNATURE_SIZE];

#ifdef __cplusplus
}
#endif
#endif
