/* Writing FCLIB HDF5 files (formats/README.md section 4): /fclib_local for
 * FC2D/FC3D problems, /fclib_global for GFC2D/GFC3D, with the HDF5 C API;
 * errors name the file and the object. */
#include <cs.h>
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

#include "io_fclib_internal.h"

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
