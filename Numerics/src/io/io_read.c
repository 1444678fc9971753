/* nsd_read_problem: FCLIB by extension or signature, otherwise the .dat text
 * reader on the file: mapped read-only when it is a regular file (the pages
 * already parsed are dropped as the reader goes, so that the text never sits
 * whole in memory next to the problem it becomes), else read into memory. */
#define _DEFAULT_SOURCE /* madvise, MADV_DONTNEED */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_private.h"

const unsigned char nsd_io_hdf5_signature[NSD_IO_HDF5_SIGNATURE_SIZE] = {0x89, 'H',  'D',  'F',
                                                                         '\r', '\n', 0x1a, '\n'};

int nsd_io_has_hdf5_extension(const char* path) {
  const char* base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char* dot = strrchr(base, '.');
  if (!dot) return 0;
  const char* ext[2] = {".hdf5", ".h5"};
  for (int e = 0; e < 2; ++e) {
    size_t n = strlen(ext[e]);
    if (strlen(dot) != n) continue;
    size_t k = 0;
    while (k < n && (dot[k] | 0x20) == (ext[e][k] | 0x20)) ++k;
    if (k == n) return 1;
  }
  return 0;
}

/* Whole file into a new buffer; on failure a message in the report. */
static NsdStatus load_file(const char* path, char** text, size_t* length, NsdReport* report) {
  *text = NULL;
  *length = 0;
  FILE* f = fopen(path, "rb");
  if (!f) {
    int e = errno;
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: cannot open: %s", path, strerror(e));
  }

  // read in growing chunks: works for any kind of file
  size_t size = 0, capacity = 1 << 16;
  char* buffer = malloc(capacity);
  while (buffer) {
    size_t got = fread(buffer + size, 1, capacity - size, f);
    size += got;
    if (size < capacity) break;
    char* bigger = capacity <= ((size_t)-1) / 2 ? realloc(buffer, capacity * 2) : NULL;
    if (!bigger) {
      free(buffer);
      buffer = NULL;
      break;
    }
    buffer = bigger;
    capacity *= 2;
  }
  int failed = ferror(f);
  fclose(f);
  if (!buffer)
    return nsd_report_fail(report, NSD_FAILED, "%s: out of memory reading the file", path);
  if (failed) {
    free(buffer);
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: cannot read the file", path);
  }
  *text = buffer;
  *length = size;
  return NSD_OK;
}

/* A read-only private mapping of a regular file. */
typedef struct Mapped {
  char* base;
  size_t length;
  size_t released; /* pages before this offset were dropped */
  size_t page;
} Mapped;

/* Map a non-empty regular file; 0 (nothing mapped) for anything else. */
static int map_file(const char* path, Mapped* m) {
  memset(m, 0, sizeof *m);
  int fd = open(path, O_RDONLY);
  if (fd < 0) return 0;
  struct stat st;
  int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
           (unsigned long long)st.st_size <= (unsigned long long)((size_t)-1 / 2);
  if (ok) {
    void* p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      ok = 0;
    } else {
      m->base = p;
      m->length = (size_t)st.st_size;
      long page = sysconf(_SC_PAGESIZE);
      m->page = page > 0 ? (size_t)page : 4096;
      madvise(p, m->length, MADV_SEQUENTIAL);
    }
  }
  close(fd);
  return ok;
}

/* The reader has gone past @p upto: drop the whole pages before it (less one
 * step of margin) from this process; read again, they come back from the file. */
static void release_mapped(void* ctx, size_t upto) {
  Mapped* m = ctx;
  if (upto < m->released) m->released = 0; /* a new pass over the text (layout detection) */
  if (upto <= NSD_LEXER_RELEASE_MARGIN) return;
  size_t end = (upto - NSD_LEXER_RELEASE_MARGIN) / m->page * m->page;
  if (end <= m->released) return;
  madvise(m->base + m->released, end - m->released, MADV_DONTNEED);
  m->released = end;
}

NsdStatus nsd_read_problem(const char* path, NsdProblemKind kind, NsdProblem* out,
                           NsdReport* report) {
  NsdReport local;
  memset(&local, 0, sizeof local);
  if (!report) report = &local;
  nsd_report_start(report, "io");
  if (!out) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_read_problem: out is NULL");
  memset(out, 0, sizeof *out);
  if (!path) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_read_problem: path is NULL");

  char* text = NULL;
  size_t length = 0;
  int fclib = nsd_io_has_hdf5_extension(path);
  Mapped mapped;
  if (!fclib && map_file(path, &mapped)) {
    // the text reader on the mapping, dropping the pages it has read
    if (mapped.length >= NSD_IO_HDF5_SIGNATURE_SIZE &&
        memcmp(mapped.base, nsd_io_hdf5_signature, NSD_IO_HDF5_SIGNATURE_SIZE) == 0) {
      munmap(mapped.base, mapped.length);
      fclib = 1;
    } else {
      const NsdIoRelease release = {release_mapped, &mapped};
      NsdStatus status = nsd_io_read_text_released(mapped.base, mapped.length, path, kind, out,
                                                   NULL, &release, report);
      munmap(mapped.base, mapped.length);
      return status;
    }
  }
  if (!fclib) {
    NsdStatus status = load_file(path, &text, &length, report);
    if (status != NSD_OK) return status;
    fclib = length >= NSD_IO_HDF5_SIGNATURE_SIZE &&
            memcmp(text, nsd_io_hdf5_signature, NSD_IO_HDF5_SIGNATURE_SIZE) == 0;
  }

  // FCLIB: the kind is in the file; a requested kind must match it
  if (fclib) {
    free(text);
    NsdStatus status = nsd_read_fclib(path, out, report);
    if (status == NSD_OK && kind != NSD_KIND_UNKNOWN && out->kind != kind) {
      NsdProblemKind found = out->kind;
      nsd_problem_clear(out);
      return nsd_report_fail(report, NSD_BAD_INPUT, "%s: expected a %s problem, found %s", path,
                             nsd_kind_name(kind), nsd_kind_name(found));
    }
    return status;
  }

  NsdStatus status = nsd_io_read_text(text, length, path, kind, out, NULL, report);
  free(text);
  return status;
}
