/* What the FCLIB reader (io_fclib.c), its guard process (io_fclib_probe.c) and the
 * FCLIB writer (io_fclib_write.c) share: the file being read or written, HDF5's
 * error printing switched off, the error message naming the file and object.
 * Internal to Numerics (not installed, never exported). */
#ifndef NSDYN_IO_FCLIB_INTERNAL_H
#define NSDYN_IO_FCLIB_INTERNAL_H

#include <hdf5.h>
#include <stdarg.h>
#include <stdio.h>

#include "io_private.h"

/* A file being read or written, and where errors go. */
typedef struct H5Io {
  const char* path;
  NsdReport* report;
  hid_t file;
} H5Io;

/* HDF5's automatic error printing, switched off for one call. */
typedef struct H5Quiet {
  H5E_auto2_t func;
  void* data;
} H5Quiet;

static inline void quiet_begin(H5Quiet* q) {
  q->func = NULL;
  q->data = NULL;
  H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static inline void quiet_end(const H5Quiet* q) {
  H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static inline int
h5_fail(H5Io* io, NsdStatus status, const char* object, const char* format, ...) {
  char what[160];
  va_list args;
  va_start(args, format);
  vsnprintf(what, sizeof what, format, args);
  va_end(args);
  nsd_report_fail(io->report, status, "%s: %s: %s", io->path, object, what);
  return 0;
}

/* The read proper: HDF5 calls on @p path into @p out (the caller has checked
 * that the file can be opened); io_fclib.c. */
NsdStatus nsd_io_fclib_read_file(const char* path, NsdProblem* out, NsdReport* report);

/* Reads @p path in a child process first (io_fclib_probe.c): 1 when that read
 * succeeded (or no child could be made), 0 with @p report filled otherwise. */
int nsd_io_fclib_probe(const char* path, NsdReport* report);

#endif
