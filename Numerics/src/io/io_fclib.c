/* FCLIB HDF5 files (formats/README.md section 4): /fclib_local (FC2D/FC3D)
 * and /fclib_global (GFC2D/GFC3D), read and written with the HDF5 C API.
 *
 * Every dataset's existence, class and extent is checked before it is read,
 * and only the elements needed are read. HDF5's own error printing is off
 * during each call; errors name the file and the dataset.
 *
 * This file reads; io_fclib_probe.c reads a file first in a child process (a
 * guard against libhdf5 crashes), io_fclib_write.c writes, io_fclib_internal.h
 * has what they share. */
#include <cs.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_fclib_internal.h"

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
NsdStatus nsd_io_fclib_read_file(const char* path, NsdProblem* out, NsdReport* report) {
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

  if (!nsd_io_fclib_probe(path, report)) return report->status;
  return nsd_io_fclib_read_file(path, out, report);
}
