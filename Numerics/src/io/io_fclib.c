/* FCLIB HDF5 files (formats/README.md section 4): /fclib_local (FC2D/FC3D)
 * and /fclib_global (GFC2D/GFC3D), read and written with the HDF5 C API.
 *
 * Every dataset's existence, class and extent is checked before it is read,
 * and only the elements needed are read. HDF5's own error printing is off
 * during each call; errors name the file and the dataset. */
#define _POSIX_C_SOURCE 200809L /* fork, pipe, waitpid, setrlimit */
#include <cs.h>
#include <hdf5.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void quiet_begin(H5Quiet* q) {
  q->func = NULL;
  q->data = NULL;
  H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void quiet_end(const H5Quiet* q) { H5Eset_auto2(H5E_DEFAULT, q->func, q->data); }

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int
h5_fail(H5Io* io, NsdStatus status, const char* object, const char* format, ...) {
  char what[160];
  va_list args;
  va_start(args, format);
  vsnprintf(what, sizeof what, format, args);
  va_end(args);
  nsd_report_fail(io->report, status, "%s: %s: %s", io->path, object, what);
  return 0;
}

/* ---- reading ---------------------------------------------------------------- */

/* 1 if the link @p path exists (every component along it). */
static int h5_exists(hid_t file, const char* path) {
  char part[256];
  size_t n = strlen(path);
  if (n >= sizeof part) return 0;
  for (size_t k = 1; k <= n; ++k)
    if (k == n || path[k] == '/') {
      memcpy(part, path, k);
      part[k] = '\0';
      if (H5Lexists(file, part, H5P_DEFAULT) <= 0) return 0;
    }
  return 1;
}

/* Open dataset @p path of class @p cls holding at least @p count elements
 * (rank 0 or 1). Returns the id or -1 after an error. */
static hid_t open_dataset(H5Io* io, const char* path, H5T_class_t cls, size_t count) {
  if (!h5_exists(io->file, path)) {
    h5_fail(io, NSD_BAD_INPUT, path, "expected a dataset, found none");
    return -1;
  }
  hid_t d = H5Dopen2(io->file, path, H5P_DEFAULT);
  if (d < 0) {
    h5_fail(io, NSD_BAD_INPUT, path, "expected a dataset, found another object");
    return -1;
  }
  hid_t type = H5Dget_type(d);
  hid_t space = H5Dget_space(d);
  int ok = type >= 0 && space >= 0;
  H5T_class_t found = ok ? H5Tget_class(type) : H5T_NO_CLASS;
  int rank = ok ? H5Sget_simple_extent_ndims(space) : -1;
  hssize_t points = ok ? H5Sget_simple_extent_npoints(space) : -1;
  if (type >= 0) H5Tclose(type);
  if (space >= 0) H5Sclose(space);

  // class, then shape, then extent
  const char* want = cls == H5T_INTEGER ? "integer" : "float64";
  if (!ok || found != cls)
    h5_fail(io, NSD_BAD_INPUT, path, "expected %s values, found type class %d", want, (int)found);
  else if (rank < 0 || rank > 1)
    h5_fail(io, NSD_BAD_INPUT, path, "expected a scalar or a vector, found rank %d", rank);
  else if (points < 0 || (size_t)points < count)
    h5_fail(io, NSD_BAD_INPUT, path, "expected at least %zu values, found %lld", count,
            (long long)points);
  else
    return d;
  H5Dclose(d);
  return -1;
}

/* Read the first @p count elements of dataset @p path into @p buffer. */
static int read_elements(H5Io* io, const char* path, H5T_class_t cls, size_t count, void* buffer) {
  hid_t d = open_dataset(io, path, cls, count);
  if (d < 0) return 0;
  if (count == 0) {
    H5Dclose(d);
    return 1;
  }
  hid_t mem_type = cls == H5T_INTEGER ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE;
  hid_t file_space = H5Dget_space(d);
  hsize_t start[1] = {0}, n[1] = {(hsize_t)count};
  hid_t mem_space = H5Screate_simple(1, n, NULL);
  herr_t status = -1;
  if (file_space >= 0 && mem_space >= 0) {
    // a scalar holds one element; a vector gives its first count
    if (H5Sget_simple_extent_ndims(file_space) == 0 ||
        H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, NULL, n, NULL) >= 0)
      status = H5Dread(d, mem_type, mem_space, file_space, H5P_DEFAULT, buffer);
  }
  if (mem_space >= 0) H5Sclose(mem_space);
  if (file_space >= 0) H5Sclose(file_space);
  H5Dclose(d);
  if (status < 0)
    return h5_fail(io, NSD_BAD_INPUT, path,
                   "expected readable values, found an unreadable dataset");
  return 1;
}

/* One integer in [lo, hi]. */
static int read_int(H5Io* io, const char* path, long lo, long hi, int* out) {
  if (!read_elements(io, path, H5T_INTEGER, 1, out)) return 0;
  if (*out < lo || *out > hi)
    return h5_fail(io, NSD_BAD_INPUT, path, "expected an integer in [%ld, %ld], found %d", lo, hi,
                   *out);
  return 1;
}

/* 1 if dataset @p path is there with class @p cls and @p count elements. */
static int has_elements(H5Io* io, const char* path, H5T_class_t cls, size_t count) {
  hid_t d = open_dataset(io, path, cls, count);
  if (d < 0) return 0;
  H5Dclose(d);
  return 1;
}

/* count finite reals into a new array. */
static int read_reals(H5Io* io, const char* path, size_t count, double** out) {
  *out = NULL;
  if (!has_elements(io, path, H5T_FLOAT, count)) return 0;
  *out = malloc((count ? count : 1) * sizeof **out);
  if (!*out) return h5_fail(io, NSD_FAILED, path, "out of memory for %zu values", count);
  if (!read_elements(io, path, H5T_FLOAT, count, *out)) goto fail;
  for (size_t k = 0; k < count; ++k)
    if (!isfinite((*out)[k])) {
      h5_fail(io, NSD_BAD_INPUT, path, "expected finite values, found %g at index %zu", (*out)[k],
              k);
      goto fail;
    }
  return 1;
fail:
  free(*out);
  *out = NULL;
  return 0;
}

/* count integers in [lo, hi] into a new array. */
static int read_ints(H5Io* io, const char* path, size_t count, long lo, long hi, int** out) {
  *out = NULL;
  if (!has_elements(io, path, H5T_INTEGER, count)) return 0;
  *out = malloc((count ? count : 1) * sizeof **out);
  if (!*out) return h5_fail(io, NSD_FAILED, path, "out of memory for %zu values", count);
  if (!read_elements(io, path, H5T_INTEGER, count, *out)) goto fail;
  for (size_t k = 0; k < count; ++k)
    if ((*out)[k] < lo || (*out)[k] > hi) {
      h5_fail(io, NSD_BAD_INPUT, path, "expected values in [%ld, %ld], found %d at index %zu", lo,
              hi, (*out)[k], k);
      goto fail;
    }
  return 1;
fail:
  free(*out);
  *out = NULL;
  return 0;
}

/* Matrix group: nzmax, m, n, nz, then p, i, x as triplet (nz >= 0), CSC
 * (nz = -1) or CSR (nz = -2); the result is a CSC matrix. */
static int read_matrix_group(H5Io* io, const char* group, NsdMatrix** out) {
  char path[256];
  int nzmax, m, n, nz, ok = 0;
  int *p = NULL, *idx = NULL, *rows = NULL;
  double* x = NULL;
  *out = NULL;
#define MEMBER(name) (snprintf(path, sizeof path, "%s/%s", group, name), path)
  if (!h5_exists(io->file, group))
    return h5_fail(io, NSD_BAD_INPUT, group, "expected a matrix group, found none");
  if (!read_int(io, MEMBER("nzmax"), 0, NSD_IO_MAX_DIM, &nzmax) ||
      !read_int(io, MEMBER("m"), 0, NSD_IO_MAX_DIM, &m) ||
      !read_int(io, MEMBER("n"), 0, NSD_IO_MAX_DIM, &n) ||
      !read_int(io, MEMBER("nz"), -2, NSD_IO_MAX_DIM, &nz))
    return 0;

  if (nz >= 0) {
    // triplet: p holds column indices, i row indices
    if (!read_ints(io, MEMBER("p"), (size_t)nz, 0, (long)n - 1, &p) ||
        !read_ints(io, MEMBER("i"), (size_t)nz, 0, (long)m - 1, &idx) ||
        !read_reals(io, MEMBER("x"), (size_t)nz, &x))
      goto done;
    *out = nsd_matrix_create_csc_from_triplets(m, n, nz, idx, p, x);
  } else {
    // compressed: pointers over the outer dimension, non-decreasing from 0
    int csr = nz == -2;
    int outer = csr ? m : n, inner = csr ? n : m;
    if (!read_ints(io, MEMBER("p"), (size_t)outer + 1, 0, NSD_IO_MAX_DIM, &p)) goto done;
    for (int k = 0; k <= outer; ++k)
      if ((k == 0 && p[0] != 0) || (k > 0 && p[k] < p[k - 1])) {
        h5_fail(io, NSD_BAD_INPUT, MEMBER("p"),
                "expected non-decreasing pointers from 0, found %d at index %d", p[k], k);
        goto done;
      }
    int count = p[outer];
    if (!read_ints(io, MEMBER("i"), (size_t)count, 0, (long)inner - 1, &idx) ||
        !read_reals(io, MEMBER("x"), (size_t)count, &x))
      goto done;
    if (csr) {
      // row of each entry, then triplets
      rows = malloc((size_t)(count ? count : 1) * sizeof *rows);
      if (!rows) {
        h5_fail(io, NSD_FAILED, group, "out of memory for %d entries", count);
        goto done;
      }
      for (int r = 0; r < m; ++r)
        for (int k = p[r]; k < p[r + 1]; ++k) rows[k] = r;
      *out = nsd_matrix_create_csc_from_triplets(m, n, count, rows, idx, x);
    } else {
      *out = nsd_matrix_create_csc(m, n, p, idx, x);
    }
  }
  if (!*out) {
    h5_fail(io, NSD_FAILED, group, "cannot build a %d x %d sparse matrix (out of memory)", m, n);
    goto done;
  }
  ok = 1;
done:
#undef MEMBER
  free(p);
  free(idx);
  free(rows);
  free(x);
  return ok;
}

/* After a problem's own check failed: name the file in front of its message. */
static int fail_check(H5Io* io) {
  char message[sizeof io->report->message];
  memcpy(message, io->report->message, sizeof message);
  nsd_report_fail(io->report, NSD_BAD_INPUT, "%s: %s", io->path, message);
  return 0;
}

static int read_local(H5Io* io, NsdProblem* out) {
  int d, ok = 0;
  NsdMatrix *W = NULL, *Wsbm = NULL;
  double *q = NULL, *mu = NULL;
  if (!read_int(io, "/fclib_local/spacedim", 2, 3, &d)) return 0;
  if (!read_matrix_group(io, "/fclib_local/W", &W)) return 0;
  if (W->rows != W->cols || W->rows % d != 0) {
    h5_fail(io, NSD_BAD_INPUT, "/fclib_local/W",
            "expected a square matrix of size spacedim * nc, found %d x %d", W->rows, W->cols);
    goto done;
  }
  int nc = W->rows / d;
  if (!read_reals(io, "/fclib_local/vectors/q", (size_t)W->rows, &q) ||
      !read_reals(io, "/fclib_local/vectors/mu", (size_t)nc, &mu))
    goto done;

  // W as a sparse-block matrix of d x d blocks
  if (nc > 0) {
    Wsbm = nsd_matrix_convert(W, NSD_SPARSE_BLOCK, d);
    if (!Wsbm) {
      h5_fail(io, NSD_FAILED, "/fclib_local/W", "cannot convert to %d x %d blocks (out of memory)",
              d, d);
      goto done;
    }
    nsd_matrix_destroy(W);
    W = Wsbm;
  }
  NsdFc* fc = nsd_fc_create(d, nc, W, q, mu);
  W = NULL;
  if (!fc) {
    h5_fail(io, NSD_FAILED, "/fclib_local", "out of memory for the problem");
    goto done;
  }
  if (!nsd_fc_check(fc, io->report)) {
    nsd_fc_destroy(fc);
    fail_check(io);
    goto done;
  }
  out->kind = d == 2 ? NSD_KIND_FC2D : NSD_KIND_FC3D;
  out->fc = fc;
  ok = 1;
done:
  nsd_matrix_destroy(W);
  free(q);
  free(mu);
  return ok;
}

static int read_global(H5Io* io, NsdProblem* out) {
  int d, ok = 0;
  NsdMatrix *M = NULL, *H = NULL;
  double *f = NULL, *w = NULL, *mu = NULL;
  if (!read_int(io, "/fclib_global/spacedim", 2, 3, &d)) return 0;
  if (!read_matrix_group(io, "/fclib_global/M", &M) ||
      !read_matrix_group(io, "/fclib_global/H", &H))
    goto done;
  if (M->rows != M->cols) {
    h5_fail(io, NSD_BAD_INPUT, "/fclib_global/M", "expected a square matrix, found %d x %d",
            M->rows, M->cols);
    goto done;
  }
  if (H->rows != M->rows || H->cols % d != 0) {
    h5_fail(io, NSD_BAD_INPUT, "/fclib_global/H",
            "expected %d rows and spacedim * nc columns, found %d x %d", M->rows, H->rows, H->cols);
    goto done;
  }
  int nc = H->cols / d;
  if (!read_reals(io, "/fclib_global/vectors/f", (size_t)M->rows, &f) ||
      !read_reals(io, "/fclib_global/vectors/w", (size_t)H->cols, &w) ||
      !read_reals(io, "/fclib_global/vectors/mu", (size_t)nc, &mu))
    goto done;

  // Siconos' global problem: q = f, b = w
  NsdGfc* gfc = nsd_gfc_create(d, nc, M, H, f, w, mu);
  M = H = NULL;
  if (!gfc) {
    h5_fail(io, NSD_FAILED, "/fclib_global", "out of memory for the problem");
    goto done;
  }
  if (!nsd_gfc_check(gfc, io->report)) {
    nsd_gfc_destroy(gfc);
    fail_check(io);
    goto done;
  }
  out->kind = d == 2 ? NSD_KIND_GFC2D : NSD_KIND_GFC3D;
  out->gfc = gfc;
  ok = 1;
done:
  nsd_matrix_destroy(M);
  nsd_matrix_destroy(H);
  free(f);
  free(w);
  free(mu);
  return ok;
}

/* The read proper: HDF5 calls on @p path into @p out (the caller has checked
 * that the file can be opened). */
static NsdStatus read_fclib_file(const char* path, NsdProblem* out, NsdReport* report) {
  H5Quiet quiet;
  quiet_begin(&quiet);
  H5Io io = {path, report, -1};
  int ok = 0;
  io.file = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (io.file < 0) {
    nsd_report_fail(report, NSD_BAD_INPUT, "%s: expected an HDF5 file, found something else", path);
  } else if (h5_exists(io.file, "/fclib_local")) {
    ok = read_local(&io, out);
  } else if (h5_exists(io.file, "/fclib_global")) {
    ok = read_global(&io, out);
  } else {
    nsd_report_fail(report, NSD_BAD_INPUT,
                    "%s: expected a group /fclib_local or /fclib_global, found neither", path);
  }
  if (io.file >= 0) H5Fclose(io.file);
  quiet_end(&quiet);
  if (!ok) return report->status == NSD_OK ? NSD_BAD_INPUT : report->status;
  return NSD_OK;
}

/* libhdf5 1.10 crashes (SIGSEGV) or allocates gigabytes on some corrupted files
 * (shared/fuzz-findings/06). So the file is first read in a child process, with
 * its address space limited (not under AddressSanitizer, which reserves terabytes
 * of shadow memory): a crash or an exhausted limit there is reported as bad input
 * and the caller's process never runs the failing read. The child sends its error
 * message back through a pipe; the file is read for real only when the child
 * succeeded. */
#define NSD_FCLIB_CHILD_MEMORY (2ul << 30) /* 2 GiB */
/* GCC says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer) */
#if defined(__SANITIZE_ADDRESS__)
#define NSD_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSD_UNDER_ASAN 1
#endif
#endif
#if defined(NSD_UNDER_ASAN)
/* Under the sanitizers (make asan, make fuzz) a crash of libhdf5 in the child must
 * end the child as it does in a release build, silently, so that the parent reports
 * bad input: no sanitizer report, no fuzzer crash file written by the child. */
extern void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
static void child_die(void) { _exit(2); }
static void child_plain_signals(void) {
  const int deadly[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  for (size_t i = 0; i < sizeof deadly / sizeof deadly[0]; ++i) signal(deadly[i], SIG_DFL);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(child_die);
}
#endif
static int fclib_probe_in_child(const char* path, NsdReport* report) {
  int fd[2];
  if (pipe(fd) != 0) return 1; /* no guard available: read directly */
  fflush(NULL);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return 1;
  }
  if (pid == 0) {
    close(fd[0]);
#if !defined(NSD_UNDER_ASAN)
    struct rlimit limit = {NSD_FCLIB_CHILD_MEMORY, NSD_FCLIB_CHILD_MEMORY};
    setrlimit(RLIMIT_AS, &limit);
#else
    child_plain_signals();
#endif
    NsdProblem p;
    NsdReport r;
    memset(&r, 0, sizeof r);
    nsd_report_start(&r, "io");
    const NsdStatus status = read_fclib_file(path, &p, &r);
    if (status == NSD_OK) _exit(0);
    const size_t n = strnlen(r.message, sizeof r.message);
    ssize_t written = write(fd[1], r.message, n);
    (void)written;
    _exit(2);
  }
  close(fd[1]);
  // libhdf5 can also loop (or crawl through gigabytes) on a corrupted file: the child
  // gets a time limit, 30 s plus 1 s per MiB of file (NSDYN_FCLIB_PROBE_SECONDS overrides)
  struct stat st;
  double limit = 30.0 + (stat(path, &st) == 0 ? (double)st.st_size / (1 << 20) : 0.0);
  const char* env = getenv("NSDYN_FCLIB_PROBE_SECONDS");
  if (env && atof(env) > 0.0) limit = atof(env);
  const double deadline = nsd_wall_time() + limit;
  char message[sizeof report->message];
  size_t got = 0;
  int timed_out = 0;
  for (;;) {
    const double left = deadline - nsd_wall_time();
    if (left <= 0.0) {
      timed_out = 1;
      break;
    }
    struct pollfd pfd = {fd[0], POLLIN, 0};
    const int ready = poll(&pfd, 1, (int)(left * 1000.0) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    const ssize_t k = read(fd[0], message + got, sizeof message - 1 - got);
    if (k > 0) got += (size_t)k;
    if (k == 0 || got >= sizeof message - 1) break;
    if (k < 0 && errno != EINTR) break;
  }
  message[got] = '\0';
  close(fd[0]);
  if (timed_out) kill(pid, SIGKILL);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    nsd_report_fail(report, NSD_BAD_INPUT,
                    "%s: a corrupted HDF5 file (the HDF5 library was still reading it after %.0f s)", path,
                    limit);
    return 0;
  }
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) return 1;
  if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 2 && got > 0) {
    nsd_report_fail(report, NSD_BAD_INPUT, "%s", message);
    return 0;
  }
  if (WIFSIGNALED(wstatus))
    nsd_report_fail(report, NSD_BAD_INPUT,
                    "%s: a corrupted HDF5 file (reading it crashed the HDF5 library, signal %d)", path,
                    WTERMSIG(wstatus));
  else
    nsd_report_fail(report, NSD_BAD_INPUT,
                    "%s: a corrupted HDF5 file (reading it needed more than %lu MiB or failed in the HDF5 "
                    "library)",
                    path, NSD_FCLIB_CHILD_MEMORY >> 20);
  return 0;
}

NsdStatus nsd_read_fclib(const char* path, NsdProblem* out, NsdReport* report) {
  NsdReport local;
  memset(&local, 0, sizeof local);
  if (!report) report = &local;
  nsd_report_start(report, "io");
  if (!out) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_read_fclib: out is NULL");
  memset(out, 0, sizeof *out);
  if (!path) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_read_fclib: path is NULL");

  // a readable file first, so that a missing one is reported as such
  FILE* probe = fopen(path, "rb");
  if (!probe) return nsd_report_fail(report, NSD_BAD_INPUT, "%s: cannot open", path);
  fclose(probe);

  if (!fclib_probe_in_child(path, report)) return report->status;
  return read_fclib_file(path, out, report);
}

/* ---- writing ---------------------------------------------------------------- */

/* A rank-1 dataset of @p count values of @p mem_type, stored as @p file_type. */
static int write_array(H5Io* io, hid_t loc, const char* name, hid_t file_type, hid_t mem_type,
                       size_t count, const void* data) {
  hsize_t dims[1] = {(hsize_t)count};
  hid_t space = H5Screate_simple(1, dims, NULL);
  hid_t d = space >= 0
                ? H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
                : -1;
  herr_t status =
      d >= 0 && (count == 0 || H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0)
          ? 0
          : -1;
  if (d >= 0) H5Dclose(d);
  if (space >= 0) H5Sclose(space);
  if (status < 0) return h5_fail(io, NSD_FAILED, name, "cannot write the dataset");
  return 1;
}

static int write_int(H5Io* io, hid_t loc, const char* name, int value) {
  return write_array(io, loc, name, H5T_STD_I32LE, H5T_NATIVE_INT, 1, &value);
}

static int write_reals(H5Io* io, hid_t loc, const char* name, const double* v, size_t count) {
  return write_array(io, loc, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, count, v);
}

/* A scalar fixed-length string dataset. */
static int write_string(H5Io* io, hid_t loc, const char* name, const char* text) {
  hid_t type = H5Tcopy(H5T_C_S1);
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t d = -1;
  int ok = type >= 0 && space >= 0 && H5Tset_size(type, strlen(text) + 1) >= 0 &&
           H5Tset_strpad(type, H5T_STR_NULLTERM) >= 0;
  if (ok) d = H5Dcreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  ok = ok && d >= 0 && H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, text) >= 0;
  if (d >= 0) H5Dclose(d);
  if (space >= 0) H5Sclose(space);
  if (type >= 0) H5Tclose(type);
  if (!ok) return h5_fail(io, NSD_FAILED, name, "cannot write the string");
  return 1;
}

/* Matrix group in CSC (nz = -1): nzmax, m, n, nz, p, i, x. */
static int write_matrix_group(H5Io* io, hid_t loc, const char* name, const NsdMatrix* a) {
  NsdMatrix* converted = NULL;
  if (a->storage != NSD_CSC) {
    converted = nsd_matrix_convert(a, NSD_CSC, 0);
    if (!converted) return h5_fail(io, NSD_FAILED, name, "cannot convert the matrix to CSC");
    a = converted;
  }
  const cs_di* c = (const cs_di*)a->csc;
  int nnz = c->p[c->n];
  hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  int ok = g >= 0;
  if (!ok) h5_fail(io, NSD_FAILED, name, "cannot create the group");
  ok = ok && write_int(io, g, "nzmax", nnz) && write_int(io, g, "m", c->m) &&
       write_int(io, g, "n", c->n) && write_int(io, g, "nz", -1) &&
       write_array(io, g, "p", H5T_STD_I32LE, H5T_NATIVE_INT, (size_t)c->n + 1, c->p) &&
       write_array(io, g, "i", H5T_STD_I32LE, H5T_NATIVE_INT, (size_t)nnz, c->i) &&
       write_reals(io, g, "x", c->x, (size_t)nnz);
  if (g >= 0) H5Gclose(g);
  nsd_matrix_destroy(converted);
  return ok;
}

/* Group /info with the title and description given. */
static int write_info(H5Io* io, hid_t loc, const char* title, const char* description) {
  if (!title && !description) return 1;
  hid_t g = H5Gcreate2(loc, "info", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (g < 0) return h5_fail(io, NSD_FAILED, "info", "cannot create the group");
  int ok = (!title || write_string(io, g, "title", title)) &&
           (!description || write_string(io, g, "description", description)) &&
           write_string(io, g, "math_info", "");
  H5Gclose(g);
  return ok;
}

static int write_local(H5Io* io, const NsdFc* p, const char* title, const char* description) {
  hid_t root = H5Gcreate2(io->file, "/fclib_local", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (root < 0) return h5_fail(io, NSD_FAILED, "/fclib_local", "cannot create the group");
  hid_t v = -1;
  int ok = write_int(io, root, "spacedim", p->dim) && write_matrix_group(io, root, "W", p->M);
  if (ok) {
    v = H5Gcreate2(root, "vectors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ok = v >= 0 ? 1 : h5_fail(io, NSD_FAILED, "/fclib_local/vectors", "cannot create the group");
  }
  ok = ok && write_reals(io, v, "q", p->q, (size_t)p->dim * (size_t)p->nc) &&
       write_reals(io, v, "mu", p->mu, (size_t)p->nc) && write_info(io, root, title, description);
  if (v >= 0) H5Gclose(v);
  H5Gclose(root);
  return ok;
}

static int write_global(H5Io* io, const NsdGfc* p, const char* title, const char* description) {
  hid_t root = H5Gcreate2(io->file, "/fclib_global", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (root < 0) return h5_fail(io, NSD_FAILED, "/fclib_global", "cannot create the group");
  hid_t v = -1;
  int ok = write_int(io, root, "spacedim", p->dim) && write_matrix_group(io, root, "M", p->M) &&
           write_matrix_group(io, root, "H", p->H);
  if (ok) {
    v = H5Gcreate2(root, "vectors", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ok = v >= 0 ? 1 : h5_fail(io, NSD_FAILED, "/fclib_global/vectors", "cannot create the group");
  }
  ok = ok && write_reals(io, v, "f", p->q, (size_t)p->n) &&
       write_reals(io, v, "w", p->b, (size_t)p->dim * (size_t)p->nc) &&
       write_reals(io, v, "mu", p->mu, (size_t)p->nc) && write_info(io, root, title, description);
  if (v >= 0) H5Gclose(v);
  H5Gclose(root);
  return ok;
}

NsdStatus nsd_write_fclib(const char* path, const NsdProblem* problem, const char* title,
                          const char* description, NsdReport* report) {
  NsdReport local;
  memset(&local, 0, sizeof local);
  if (!report) report = &local;
  nsd_report_start(report, "io");
  if (!path) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_write_fclib: path is NULL");
  if (!problem) return nsd_report_fail(report, NSD_BAD_INPUT, "nsd_write_fclib: problem is NULL");

  // only friction problems, valid by their own check
  int local_kind = problem->kind == NSD_KIND_FC2D || problem->kind == NSD_KIND_FC3D;
  int global_kind = problem->kind == NSD_KIND_GFC2D || problem->kind == NSD_KIND_GFC3D;
  if (!(local_kind && problem->fc) && !(global_kind && problem->gfc))
    return nsd_report_fail(report, NSD_BAD_INPUT, "%s: FCLIB holds friction problems, not %s", path,
                           nsd_kind_name(problem->kind));
  if (local_kind ? !nsd_fc_check(problem->fc, report) : !nsd_gfc_check(problem->gfc, report))
    return report->status;

  H5Quiet quiet;
  quiet_begin(&quiet);
  H5Io io = {path, report, -1};
  io.file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  int ok = 0;
  if (io.file < 0)
    nsd_report_fail(report, NSD_FAILED, "%s: cannot create the file", path);
  else
    ok = local_kind ? write_local(&io, problem->fc, title, description)
                    : write_global(&io, problem->gfc, title, description);
  if (io.file >= 0 && H5Fclose(io.file) < 0 && ok) {
    nsd_report_fail(report, NSD_FAILED, "%s: cannot close the file", path);
    ok = 0;
  }
  quiet_end(&quiet);
  return ok ? NSD_OK : report->status;
}
